// Allocation algorithms: the problem model and its checks, XLA's best-fit heap reproduced on every
// real dump, the greedy allocators, the local search, the exact search (known optima, infeasibility
// proofs), the temp-arena problems of dumps, MiniMalloc CSV, and the graph helpers.
#include <hlomem/hlomem.hpp>
#include <hlomem/load/kind.hpp>

#include <catch2/catch.hpp>

#include "placement/brute_force.hpp"
#include "test_data.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using hlomem_test::fits_by_brute_force;
using hlomem_test::read_data;
using hlomem_test::real_dumps;

hlomem::problem_buffer buffer(std::string id, std::int64_t lower, std::int64_t upper, std::int64_t size,
                              std::int64_t alignment = 1) {
    return {std::move(id), {lower, upper}, size, alignment, std::nullopt, {}};
}

//   time    0   1   2   3   4
//   a       [=======)                 a: [0, 2), 4 bytes
//   b           [===========)         b: [1, 4), 2 bytes
//   c                   [=======)     c: [3, 5), 4 bytes
hlomem::allocation_problem three_buffers() { return {{buffer("a", 0, 2, 4), buffer("b", 1, 4, 2), buffer("c", 3, 5, 4)}}; }

// MiniMalloc's README example, with its published solution for capacity 12.
constexpr char const* readme_example = "id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n";

/// The dump under tests/data at `path` and its one temp arena.
std::pair<hlomem::buffer_assignment, hlomem::temp_arena> one_temp_arena(std::string const& path) {
    auto ba = hlomem::parse_buffer_assignment(read_data(path), path);
    auto arenas = hlomem::temp_arenas(ba);
    REQUIRE(arenas.size() == 1);
    return {std::move(ba), std::move(arenas[0])};
}

/// The buffer of `arena` that holds the value with id `id`, if one does.
std::optional<std::size_t> buffer_holding(hlomem::buffer_assignment const& ba, hlomem::temp_arena const& arena, std::int64_t id) {
    std::size_t const v = ba.value_index(id);
    for (std::size_t i = 0; i < arena.values.size(); ++i) {
        if (std::find(arena.values[i].begin(), arena.values[i].end(), v) != arena.values[i].end()) return i;
    }
    return std::nullopt;
}

std::vector<std::int64_t> offsets_of(hlomem::allocation_problem const& p) {
    std::vector<std::int64_t> out;
    for (auto const& b : p.buffers) out.push_back(b.offset.value_or(-1));
    return out;
}


}  // namespace

// ---------------------------------------------------------------------------------------------
// The problem model
// ---------------------------------------------------------------------------------------------

TEST_CASE("lifespans are half-open and XLA's inclusive live ranges convert to them", "[allocation]") {
    CHECK(hlomem::lifespan{0, 2}.overlaps({1, 3}));
    CHECK_FALSE(hlomem::lifespan{0, 2}.overlaps({2, 4}));
    CHECK(hlomem::to_lifespan(hlomem::live_interval{0, 80}) == hlomem::lifespan{0, 81});
    CHECK(hlomem::to_live_interval({5, 8}) == hlomem::live_interval{5, 7});
    std::ostringstream os;
    os << hlomem::lifespan{3, 9};
    CHECK(os.str() == "[3, 9)");
}

TEST_CASE("the lower bound is the most bytes live at once, raised by alignment", "[allocation]") {
    CHECK(hlomem::lower_bound_bytes(three_buffers()) == 6);
    CHECK(hlomem::lower_bound_bytes(hlomem::parse_minimalloc_csv(readme_example)) == 12);
    // A 24-byte and a 1-byte buffer live together; with offsets multiples of 128, the lower one
    // takes 128 bytes: 129 (the tiny scan_while_phi arena of the corpus, whose XLA arena is 129).
    hlomem::allocation_problem p{{buffer("t", 0, 4, 24, 128), buffer("p", 1, 2, 1, 128)}};
    CHECK(hlomem::lower_bound_bytes(p) == 129);
    p.buffers[1].alignment = 3;  // not a power of two: alignment is not counted
    CHECK(hlomem::lower_bound_bytes(p) == 25);
}

TEST_CASE("problems that cannot be planned are refused with the reason", "[allocation]") {
    hlomem::allocation_problem p{{buffer("a", 3, 3, 4), buffer("b", 0, 1, -1), buffer("c", 0, 1, 4, 0)}};
    auto const defects = hlomem::problem_defects(p);
    REQUIRE(defects.size() == 3);
    CHECK(defects[0] == "buffer 0: empty lifespan [3, 3)");
    CHECK(defects[1] == "buffer 1: negative size -1");
    CHECK(defects[2] == "buffer 2: alignment 0 (must be at least 1)");
    CHECK_THROWS_AS(hlomem::greedy_by_size(p), hlomem::allocation_error);
    hlomem::allocation_problem huge{{buffer("a", 0, 1, std::int64_t{1} << 60), buffer("b", 0, 1, std::int64_t{1} << 60)}};
    CHECK(hlomem::problem_defects(huge) == std::vector<std::string>{"sizes and alignments add up to more than 2^61 bytes"});
}

TEST_CASE("check_placement finds every kind of invalid placement", "[allocation]") {
    auto p = three_buffers();
    p.buffers[0].offset = 0;
    p.buffers[1].offset = 4;
    p.buffers[2].offset = 0;
    CHECK(hlomem::check_placement(p).empty());
    CHECK(hlomem::check_placement(p, 6).empty());

    auto over = hlomem::check_placement(p, 5);
    REQUIRE(over.size() == 1);
    CHECK(over[0].kind == hlomem::diagnostic_kind::over_capacity);
    CHECK(over[0].message == "buffer 'b' ends at 6, past the capacity 5");

    p.buffers[1].offset = 3;  // b [1, 4) at [3, 5) meets a at [0, 4) and c at [0, 4)
    auto clash = hlomem::check_placement(p);
    REQUIRE(clash.size() == 2);
    CHECK(clash[0].kind == hlomem::diagnostic_kind::overlap);
    CHECK(clash[0].message == "buffer 'a' [0, 2) and buffer 'b' [1, 4) share bytes [3, 4)");
    CHECK(clash[1].message == "buffer 'b' [1, 4) and buffer 'c' [3, 5) share bytes [3, 4)");
    // Through an offset map, buffers are named by index.
    auto const by_index = hlomem::check_placement(p, hlomem::offset_map(p));
    REQUIRE(by_index.size() == 2);
    CHECK(by_index[0].message == "buffer 0 [0, 2) and buffer 1 [1, 4) share bytes [3, 4)");

    p.buffers[1].offset.reset();
    p.buffers[2].alignment = 8;
    p.buffers[2].offset = 4;
    auto mixed = hlomem::check_placement(p);
    REQUIRE(mixed.size() == 2);
    CHECK(mixed[0].kind == hlomem::diagnostic_kind::missing_offset);
    CHECK(mixed[1].kind == hlomem::diagnostic_kind::misaligned);
    CHECK(mixed[0].message == "buffer 'b' has no offset");
    CHECK(mixed[1].message == "buffer 'c' at offset 4 is not a multiple of its alignment 8");
}

// ---------------------------------------------------------------------------------------------
// One-pass allocators
// ---------------------------------------------------------------------------------------------

TEST_CASE("where one more buffer goes: lowest fit and the two best-fit measures", "[allocation]") {
    using hlomem::detail::gap_measure;
    std::vector<hlomem::detail::byte_range> const used = {{0, 100}, {100, 160}, {300, 400}, {450, 470}};
    CHECK(hlomem::detail::lowest_fit(used, 40, 1) == 160);
    CHECK(hlomem::detail::best_fit(used, 40, 1, gap_measure::from_aligned_start) == 400);  // the 50-byte gap
    CHECK(hlomem::detail::best_fit(used, 60, 1, gap_measure::from_aligned_start) == 160);
    CHECK(hlomem::detail::best_fit(used, 200, 1, gap_measure::from_aligned_start) == 470);  // only the top
    CHECK(hlomem::detail::lowest_fit(used, 40, 64) == 192);
    // Gaps [96, 190) and [256, 340), 40 bytes aligned to 64: XLA measures from the aligned start
    // (62 against 84 bytes) and takes the first; TensorFlow Lite from the raw end below (94
    // against 84) and takes the second.
    std::vector<hlomem::detail::byte_range> const two = {{0, 96}, {190, 256}, {340, 400}};
    CHECK(hlomem::detail::best_fit(two, 40, 64, gap_measure::from_aligned_start) == 128);
    CHECK(hlomem::detail::best_fit(two, 40, 64, gap_measure::from_raw_start) == 256);
}

TEST_CASE("every one-pass allocator packs the small example into its lower bound", "[allocation]") {
    for (auto algorithm : {hlomem::allocation_algorithm::best_fit, hlomem::allocation_algorithm::best_fit_spatial,
                           hlomem::allocation_algorithm::best_fit_temporal, hlomem::allocation_algorithm::greedy_by_size,
                           hlomem::allocation_algorithm::first_fit}) {
        CAPTURE(hlomem::to_string(algorithm));
        auto p = three_buffers();
        auto const r = hlomem::plan(p, algorithm);
        CHECK(r.bytes == 6);
        CHECK(r.optimal);
        CHECK(hlomem::check_placement(p).empty());
    }
    auto p = three_buffers();
    hlomem::first_fit_by_start(p);
    CHECK(offsets_of(p) == std::vector<std::int64_t>{0, 4, 0});
    p = three_buffers();
    hlomem::greedy_by_size(p);  // a and c (4 bytes) first, both at 0; b on top
    CHECK(offsets_of(p) == std::vector<std::int64_t>{0, 4, 0});
}

TEST_CASE("XLA's heap keys replayed from lifespans count events, not times", "[allocation]") {
    // Events: t0 alloc a; t1 alloc b; t1 free a; t3 alloc c; t3 free b; t4 free c.
    auto const keys = hlomem::heap_keys(three_buffers());
    REQUIRE(keys.size() == 3);
    CHECK(keys[0] == hlomem::heap_key{4, 2, 2});
    CHECK(keys[1] == hlomem::heap_key{2, 3, 3});
    CHECK(keys[2] == hlomem::heap_key{4, 2, 2});
}

TEST_CASE("algorithm names round-trip", "[allocation]") {
    for (auto a : hlomem::all_allocation_algorithms) CHECK(hlomem::allocation_algorithm_named(hlomem::to_string(a)) == a);
    CHECK_FALSE(hlomem::allocation_algorithm_named("best_fit").has_value());
}

TEST_CASE("the algorithms plan any container through property maps", "[allocation]") {
    std::vector<hlomem::lifespan> const spans = {{0, 2}, {1, 4}, {3, 5}};
    std::vector<std::int64_t> const sizes = {4, 2, 4};
    std::vector<std::int64_t> offsets(3, -1);
    auto const view = hlomem::make_problem_view(spans.size(), spans.data(), sizes.data(), 16);
    CHECK(hlomem::first_fit_by_start(view, offsets.data()) == 18);  // b is aligned to 16
    CHECK(offsets == std::vector<std::int64_t>{0, 16, 0});
    CHECK(hlomem::check_placement(view, offsets.data()).empty());
    CHECK(hlomem::lower_bound_bytes(view) == 18);
}

// ---------------------------------------------------------------------------------------------
// XLA's temp arenas: extraction and the best-fit heap reproduced
// ---------------------------------------------------------------------------------------------

TEST_CASE("XLA's arena is reproduced exactly on every dump with a temp arena", "[allocation][xla]") {
    // The heap re-run with XLA's keys and the arena's alignment gives XLA's heap size and every heap
    // offset; with the pointer tables laid out again (CombineTempAllocations), XLA's arena size.
    std::size_t arenas = 0;
    for (auto const& path : real_dumps) {  // those without a temp arena add none
        CAPTURE(path);
        auto const text = read_data(path);
        auto const ba = hlomem::parse_buffer_assignment(text, path);
        for (auto const& arena : hlomem::temp_arenas(ba)) {
            ++arenas;
            auto const r = hlomem::reproduce_xla_arena(arena);
            CHECK(r.arena_bytes == arena.xla_bytes);
            CHECK(r.heap.bytes == r.xla_heap_bytes);
            CHECK(r.offsets_differing == 0);
            // XLA's own placement is valid for the extracted problem.
            CHECK(hlomem::check_placement(arena.problem, arena.xla_bytes).empty());
            CHECK(hlomem::lower_bound_bytes(arena.problem) <= arena.xla_bytes);
        }
    }
    CHECK(arenas == 26);
}

TEST_CASE("the temp arenas of the seed dumps", "[allocation][xla]") {
    SECTION("000: a GPU arena of 32 heap buffers and 20 pointer tables") {
        auto const text = read_data("seeds/000_5960cad812240b69.txt");
        auto const ba = hlomem::parse_buffer_assignment(text);
        auto const arenas = hlomem::temp_arenas(ba);
        REQUIRE(arenas.size() == 1);
        auto const& a = arenas[0];
        CHECK(ba.allocations[a.allocation].index == 53);
        CHECK(a.xla_bytes == 985504);
        CHECK(a.alignment == 128);
        CHECK(a.problem.buffers.size() == 52);
        // 17 tables at 0..2048 step 128, the heap [2176, 985216), 3 tables after it.
        REQUIRE(a.layout.size() == 21);
        CHECK(a.layout[16].offset == 2048);
        CHECK(a.layout[17].heap);
        CHECK(a.layout[17].offset == 2176);
        CHECK(a.layout[17].bytes == 983040);
        CHECK(a.layout[20].offset == 985472);
        auto const r = hlomem::reproduce_xla_arena(a);
        CHECK(r.heap.bytes == 983040);
        CHECK(r.heap.order == hlomem::heap_order::spatial);
        CHECK(r.heap_buffers == 32);
        CHECK(r.own_allocations == 20);
        CHECK(hlomem::lower_bound_bytes(a.problem) == 851968);
    }
    SECTION("002: four TPU arenas, one per color") {
        auto const text = read_data("seeds/002_b0117d631587537a.txt");
        auto const ba = hlomem::parse_buffer_assignment(text);
        auto const arenas = hlomem::temp_arenas(ba);
        REQUIRE(arenas.size() == 4);
        std::map<std::int64_t, std::int64_t> xla, heap, alignment;
        for (auto const& a : arenas) {
            xla[a.color] = a.xla_bytes;
            heap[a.color] = hlomem::reproduce_xla_arena(a).heap.bytes;
            alignment[a.color] = a.alignment;
        }
        CHECK(xla == std::map<std::int64_t, std::int64_t>{{0, 2114011136}, {1, 58720256}, {2, 52}, {4, 4096}});
        CHECK(heap == std::map<std::int64_t, std::int64_t>{{0, 2113929216}, {1, 58720256}, {2, 52}, {4, 4096}});
        CHECK(alignment[0] == 16384);  // the pointer tables sit 16384 apart
        CHECK(alignment[2] == 4);
    }
    SECTION("003: no heap at all, three pointer tables 128 apart") {
        auto const text = read_data("seeds/003_3a38346822a50a7e.txt");
        auto const ba = hlomem::parse_buffer_assignment(text);
        auto const arenas = hlomem::temp_arenas(ba);
        REQUIRE(arenas.size() == 1);
        auto const r = hlomem::reproduce_xla_arena(arenas[0]);
        CHECK(r.heap_buffers == 0);
        CHECK(r.own_allocations == 3);
        CHECK(r.arena_bytes == 296);  // 128 + 128 + 40
        CHECK(hlomem::lower_bound_bytes(arenas[0].problem) == 40);
    }
}

TEST_CASE("XLA keeps the spatial heap when it is not larger, as ChooseBestHeapAlgorithm does", "[allocation][xla]") {
    // The spatial heap is XLA's in every dump (size and offsets); the temporal one loses or ties.
    struct expected {
        std::string path;
        std::int64_t spatial, temporal;
    };
    for (auto const& e : {expected{"corpus/lorrax/lorrax_bse_full_run_large.buffer_assignment.txt", 778499588, 778499712},
                          expected{"corpus/lorrax/lorrax_conditional.buffer_assignment.txt", 516, 516},
                          expected{"corpus/lorrax/lorrax_scatter_while_threadlocal.buffer_assignment.txt", 132, 144}}) {
        CAPTURE(e.path);
        auto const text = read_data(e.path);
        auto const arenas = hlomem::temp_arenas(hlomem::parse_buffer_assignment(text));
        REQUIRE(arenas.size() == 1);
        auto const r = hlomem::reproduce_xla_arena(arenas[0]);
        CHECK(r.heap.spatial_bytes == e.spatial);
        CHECK(r.heap.temporal_bytes == e.temporal);
        CHECK(r.heap.order == hlomem::heap_order::spatial);
        CHECK(r.heap.bytes == r.xla_heap_bytes);
    }
}

TEST_CASE("loop state stays one buffer across the gap between body parameter and result", "[allocation][xla]") {
    // bse_full_run_large: param.12.0{1} (phi) ends at 186, collective-permute-start.1{1} starts at
    // 187; both belong to while.44.0's HloBuffer at offset 239865856 and must keep one slice.
    auto const loaded = one_temp_arena("corpus/lorrax/lorrax_bse_full_run_large.buffer_assignment.txt");
    auto const& ba = loaded.first;
    auto const& a = loaded.second;
    auto const of_param = buffer_holding(ba, a, 1991), of_start = buffer_holding(ba, a, 137);
    REQUIRE(of_param);
    CHECK(of_param == of_start);
    CHECK(a.problem.buffers[*of_param].span == hlomem::lifespan{150, 195});
    CHECK(a.problem.buffers.size() == 129);
}

TEST_CASE("a sharing group keeps one offset and leaves the gaps between its segments to others", "[allocation]") {
    //   time   0   1   2   3   4   5   6   7
    //   loop   [=======)           [=======)     one buffer: segments [0, 2) and [5, 7), 8 bytes
    //   solve          [===========)             8 bytes: fits in the loop's gap, at the same offset
    hlomem::allocation_problem p{{buffer("loop", 0, 7, 8), buffer("solve", 2, 5, 8)}};
    p.buffers[0].segments = {{0, 2}, {5, 7}};
    CHECK(hlomem::problem_defects(p).empty());
    CHECK(hlomem::lower_bound_bytes(p) == 8);
    p.buffers[0].offset = 0;
    p.buffers[1].offset = 0;
    CHECK(hlomem::check_placement(p).empty());
    for (auto algorithm : hlomem::all_allocation_algorithms) {
        CAPTURE(hlomem::to_string(algorithm));
        auto q = p;
        auto const r = hlomem::plan(q, algorithm);
        CHECK(r.bytes == 8);
        CHECK(hlomem::check_placement(q).empty());
    }
    // As MiniMalloc CSV: a row per segment, each with the group's offset.
    CHECK(hlomem::to_minimalloc_csv(p) == "id,lower,upper,size,offset\nloop,0,2,8,0\nloop/2,5,7,8,0\nsolve,2,5,8,0\n");
    // Where a segment meets the other buffer, the bytes are no longer free.
    p.buffers[1].span = {1, 5};
    auto const found = hlomem::check_placement(p);
    REQUIRE(found.size() == 1);
    CHECK(found[0].message == "buffer 'loop' [0, 2) and buffer 'solve' [1, 5) share bytes [0, 8)");
    CHECK(hlomem::lower_bound_bytes(p) == 16);
    // Segments must be ordered, disjoint and span the lifespan.
    p.buffers[0].segments = {{5, 7}, {0, 2}};
    CHECK(hlomem::problem_defects(p).size() == 2);
    p.buffers[0].segments = {{0, 2}, {2, 7}};
    CHECK(hlomem::problem_defects(p).size() == 1);
    p.buffers[0].segments = {{0, 2}, {5, 6}};
    CHECK(hlomem::problem_defects(p) ==
          std::vector<std::string>{"buffer 0: its segments do not span its lifespan [0, 7)"});
}

TEST_CASE("with sharing groups, the lower bound is at most every valid placement", "[allocation][property]") {
    // Random problems whose buffers are sharing groups of up to three segments; placements from
    // every algorithm and from first fit in random orders (conflicts found here by testing every
    // pair of segments, not by the library). Every valid placement is at least the bound, and the
    // bound is at least the most bytes live at one time, counted here time by time.
    std::mt19937_64 rng(20261124);
    auto uniform = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
    std::size_t placements = 0;
    for (int round = 0; round < 250; ++round) {
        CAPTURE(round);
        hlomem::allocation_problem p;
        std::size_t const n = static_cast<std::size_t>(uniform(2, 12));
        std::int64_t const alignment = std::int64_t{1} << uniform(0, 3);
        for (std::size_t i = 0; i < n; ++i) {
            std::int64_t const pieces = uniform(1, 3);
            std::vector<hlomem::lifespan> segments;
            std::int64_t t = uniform(0, 10);
            for (std::int64_t k = 0; k < pieces; ++k) {
                std::int64_t const lower = t;
                std::int64_t const upper = lower + uniform(1, 6);
                segments.push_back({lower, upper});
                t = upper + uniform(1, 5);  // a gap of at least one time
            }
            auto b = buffer("b" + std::to_string(i), segments.front().lower, segments.back().upper, uniform(1, 16), alignment);
            if (segments.size() > 1) b.segments = segments;
            p.buffers.push_back(std::move(b));
        }
        REQUIRE(hlomem::problem_defects(p).empty());
        auto meet = [&](std::size_t i, std::size_t j) {
            for (auto const& x : hlomem::detail::live_spans(p, i)) {
                for (auto const& y : hlomem::detail::live_spans(p, j)) {
                    if (x.overlaps(y)) return true;
                }
            }
            return false;
        };
        auto valid = [&](std::vector<std::int64_t> const& at) {
            for (std::size_t i = 0; i < n; ++i) {
                if (at[i] < 0 || at[i] % alignment != 0) return false;
                for (std::size_t j = i + 1; j < n; ++j) {
                    bool const share = at[i] < at[j] + p.buffers[j].size && at[j] < at[i] + p.buffers[i].size;
                    if (share && meet(i, j)) return false;
                }
            }
            return true;
        };
        std::int64_t most_live = 0;
        for (std::int64_t t = 0; t < 64; ++t) {
            std::int64_t live = 0;
            for (std::size_t i = 0; i < n; ++i) {
                for (auto const& s : hlomem::detail::live_spans(p, i)) live += (s.lower <= t && t < s.upper) ? p.buffers[i].size : 0;
            }
            most_live = std::max(most_live, live);
        }
        std::int64_t const bound = hlomem::lower_bound_bytes(p);
        CHECK(bound >= most_live);
        auto arena_of = [&](std::vector<std::int64_t> const& at) {
            std::int64_t arena = 0;
            for (std::size_t i = 0; i < n; ++i) arena = std::max(arena, at[i] + p.buffers[i].size);
            return arena;
        };
        hlomem::plan_options options;
        options.improve.iterations = 100;
        options.exact.node_limit = 2000;
        for (auto algorithm : hlomem::all_allocation_algorithms) {
            CAPTURE(hlomem::to_string(algorithm));
            auto q = p;
            auto const r = hlomem::plan(q, algorithm, options);
            auto const at = offsets_of(q);
            CHECK(valid(at));
            CHECK(hlomem::check_placement(q).empty());
            CHECK(r.bytes == arena_of(at));
            CHECK(r.bytes >= bound);
            ++placements;
        }
        std::vector<std::size_t> order(n);
        for (std::size_t i = 0; i < n; ++i) order[i] = i;
        for (int trial = 0; trial < 10; ++trial) {
            std::shuffle(order.begin(), order.end(), rng);
            std::vector<std::int64_t> at(n, -1);
            for (std::size_t k = 0; k < n; ++k) {
                std::size_t const i = order[k];
                for (std::int64_t offset = 0;; offset += alignment) {
                    bool fits = true;
                    for (std::size_t m = 0; m < k && fits; ++m) {
                        std::size_t const j = order[m];
                        fits = !(offset < at[j] + p.buffers[j].size && at[j] < offset + p.buffers[i].size && meet(i, j));
                    }
                    if (fits) {
                        at[i] = offset;
                        break;
                    }
                }
            }
            REQUIRE(valid(at));
            auto q = p;
            for (std::size_t i = 0; i < n; ++i) q.buffers[i].offset = at[i];
            CHECK(hlomem::check_placement(q).empty());
            CHECK(arena_of(at) >= bound);
            ++placements;
        }
    }
    CHECK(placements == 250 * (std::size(hlomem::all_allocation_algorithms) + 10));
}

TEST_CASE("a loop whose state is dead inside its body: the problem of jit__batched_chol_68697f6f", "[allocation][xla]") {
    // Allocation 14 (XLA: 9832128 bytes). The inner loop's state at offset 6553600 (1638400 bytes)
    // is live 21-50 (loop_dynamic_slice_fusion, then the condition's and the body's parameters)
    // and 75-81 (the body's result input_transpose_fusion, then while.11.0{1}); in between, XLA
    // puts triangular-solve.4.0{0} (60-63) and loop_complex_dynamic_slice_fusion{0} (68-73) there.
    auto const loaded = one_temp_arena("corpus/regressions/jit__batched_chol_68697f6f.buffer_assignment.txt");
    auto const& ba = loaded.first;
    auto const& a = loaded.second;
    CHECK(ba.allocations[a.allocation].index == 14);
    CHECK(a.xla_bytes == 9832128);
    auto buffer_of = [&](std::int64_t id) { return buffer_holding(ba, a, id); };
    auto const loop = buffer_of(213);
    REQUIRE(loop);
    CHECK(buffer_of(230) == loop);  // param.9.0{1}
    CHECK(buffer_of(235) == loop);  // param.10.0{1}
    CHECK(buffer_of(182) == loop);  // input_transpose_fusion, the body's result
    CHECK(buffer_of(241) == loop);  // while.11.0{1}
    CHECK(a.values[*loop].size() == 5);
    CHECK(a.problem.buffers[*loop].span == hlomem::lifespan{21, 82});
    CHECK(a.problem.buffers[*loop].segments == std::vector<hlomem::lifespan>{{21, 51}, {75, 82}});
    CHECK(buffer_of(169) != loop);  // triangular-solve.4.0{0}, in the gap
    CHECK(buffer_of(177) != loop);  // loop_complex_dynamic_slice_fusion{0}, in the gap
    // XLA's own placement is valid, the bound is below it, and XLA's heap is reproduced offset by
    // offset (its colocated buffers keep their own live ranges).
    CHECK(hlomem::check_placement(a.problem, a.xla_bytes).empty());
    std::int64_t const bound = hlomem::lower_bound_bytes(a.problem);
    CHECK(bound == 9831041);
    CHECK(bound <= a.xla_bytes);
    auto const r = hlomem::reproduce_xla_arena(a);
    CHECK(r.arena_bytes == 9832128);
    CHECK(r.offsets_differing == 0);
    // Every algorithm, from scratch, gives a placement that passes its check and keeps the dump
    // sound (the test below does the same for every dump, with XLA's placement as a start).
    hlomem::plan_options from_scratch;
    from_scratch.heap_keys = std::vector<hlomem::heap_key>(a.heap_keys.begin(), a.heap_keys.end());
    from_scratch.exact.node_limit = 20000;
    std::map<std::string, std::int64_t> bytes;
    for (auto algorithm : hlomem::all_allocation_algorithms) {
        auto p = a.problem;
        bytes[std::string(hlomem::to_string(algorithm))] = hlomem::plan(p, algorithm, from_scratch).bytes;
        CHECK((hlomem::check_placement(p).empty() && hlomem::check_soundness(hlomem::with_placement(ba, a, p)).empty()));
    }
    // XLA's heap on every buffer (pointer tables included) and the one-pass allocators, as
    // `hlomem repack` prints them; the searches start from the best of those and reach the bound
    // or come within 3 bytes of it.
    CHECK(bytes["best-fit"] == 9831044);
    CHECK(bytes["best-fit-temporal"] == 9831168);
    CHECK(bytes["greedy-by-size"] == 9831044);
    CHECK(bytes["first-fit"] == 9840128);
    for (char const* search : {"improve", "exact"}) {
        CAPTURE(search);
        CHECK(bytes[search] >= bound);
        CHECK(bytes[search] <= 9831044);
    }
}

TEST_CASE("every algorithm's placement keeps every dump sound", "[allocation][xla]") {
    for (auto const& path : real_dumps) {  // those without a temp arena add none
        CAPTURE(path);
        auto const text = read_data(path);
        auto const ba = hlomem::parse_buffer_assignment(text, path);
        for (auto const& arena : hlomem::temp_arenas(ba)) {
            hlomem::plan_options options;
            options.heap_keys = arena.heap_keys;
            options.start = offsets_of(arena.problem);
            options.improve.iterations = 200;
            options.exact.node_limit = 20000;
            for (auto algorithm : hlomem::all_allocation_algorithms) {
                CAPTURE(hlomem::to_string(algorithm));
                auto p = arena.problem;
                auto const r = hlomem::plan(p, algorithm, options);
                CHECK(hlomem::check_placement(p).empty());
                CHECK(r.bytes >= hlomem::lower_bound_bytes(p));
                if (algorithm == hlomem::allocation_algorithm::improve || algorithm == hlomem::allocation_algorithm::exact) {
                    CHECK(r.bytes <= arena.xla_bytes);  // they start from XLA's placement at worst
                }
                CHECK(hlomem::check_soundness(hlomem::with_placement(ba, arena, p)).empty());
            }
        }
    }
}

TEST_CASE("hlomem's best placement of the seed arenas, against XLA's and the bound", "[allocation][xla]") {
    // Seed 000: XLA 985504; the exact search reaches the lower bound 851968 (13.55% below XLA).
    auto const text = read_data("seeds/000_5960cad812240b69.txt");
    auto const arenas = hlomem::temp_arenas(hlomem::parse_buffer_assignment(text));
    auto p = arenas[0].problem;
    hlomem::plan_options options;
    options.start = offsets_of(p);
    options.exact.node_limit = 200000;
    auto const exact = hlomem::plan(p, hlomem::allocation_algorithm::exact, options);
    CHECK(exact.bytes == 851968);
    CHECK(exact.optimal);
    p = arenas[0].problem;
    options.improve.iterations = 2000;
    auto const improved = hlomem::plan(p, hlomem::allocation_algorithm::improve, options);
    CHECK(improved.bytes == 852096);
    CHECK(improved.work == 2000);
}

// ---------------------------------------------------------------------------------------------
// Local search
// ---------------------------------------------------------------------------------------------

TEST_CASE("improve never returns more than it was given, and is deterministic", "[allocation]") {
    auto const text = read_data("minimalloc/F.1048576.csv");
    auto const p = hlomem::parse_minimalloc_csv(text);
    auto start = p;
    CHECK(hlomem::xla_choose_best_fit(start).bytes == 1433600);
    hlomem::improve_options options;
    options.iterations = 100;
    auto once = start, twice = start;
    auto const r1 = hlomem::improve_placement(once, options);
    auto const r2 = hlomem::improve_placement(twice, options);
    CHECK(r1.start_bytes == 1433600);
    CHECK(r1.bytes <= r1.start_bytes);
    CHECK(r1.bytes == r2.bytes);
    CHECK(offsets_of(once) == offsets_of(twice));
    CHECK(hlomem::check_placement(once).empty());
    CHECK(hlomem::arena_size(once) == r1.bytes);
    hlomem::allocation_problem unplaced = p;
    CHECK_THROWS_AS(hlomem::improve_placement(unplaced), hlomem::allocation_error);
}

// ---------------------------------------------------------------------------------------------
// Exact search
// ---------------------------------------------------------------------------------------------

TEST_CASE("the exact search finds MiniMalloc's published solution", "[allocation][exact]") {
    auto p = hlomem::parse_minimalloc_csv(readme_example);
    auto const r = hlomem::place_within(p, 12);
    REQUIRE(r.status == hlomem::search_status::feasible);
    CHECK(r.bytes == 12);
    // MiniMalloc's README: b1 8, b2 8, b3 4, b4 4, b5 0.
    CHECK(offsets_of(p) == std::vector<std::int64_t>{8, 8, 4, 4, 0});
    CHECK(hlomem::to_minimalloc_csv(p) == "id,lower,upper,size,offset\nb1,0,3,4,8\nb2,3,9,4,8\nb3,0,9,4,4\nb4,9,21,4,4\nb5,0,21,4,0\n");
}

TEST_CASE("the exact search proves capacities infeasible", "[allocation][exact]") {
    SECTION("below the lower bound: no search needed") {
        auto p = hlomem::parse_minimalloc_csv(readme_example);
        auto const r = hlomem::place_within(p, 11);
        CHECK(r.status == hlomem::search_status::infeasible);
        CHECK(r.nodes == 0);
    }
    SECTION("above the unaligned bound: the search must exhaust the tree") {
        // 24 and 1 bytes live together, offsets multiples of 128: 25 bytes of data need 129.
        hlomem::allocation_problem p{{buffer("t", 0, 4, 24, 128), buffer("p", 1, 2, 1, 128)}};
        auto const no = hlomem::place_within(p, 128);
        CHECK(no.status == hlomem::search_status::infeasible);
        CHECK(no.nodes > 0);
        auto const yes = hlomem::place_within(p, 129);
        REQUIRE(yes.status == hlomem::search_status::feasible);
        CHECK(offsets_of(p) == std::vector<std::int64_t>{0, 128});
    }
    SECTION("an alignment no bound counts") {
        // Two 2-byte buffers live together, offsets multiples of 3 (not a power of two, so the
        // lower bound ignores it and says 4): [0, 2) and [3, 5).
        hlomem::allocation_problem p{{buffer("u", 0, 2, 2, 3), buffer("v", 1, 3, 2, 3)}};
        CHECK(hlomem::lower_bound_bytes(p) == 4);
        auto const no = hlomem::place_within(p, 4);
        CHECK(no.status == hlomem::search_status::infeasible);
        CHECK(no.nodes > 0);
        auto const r = hlomem::exact_minimize(p);
        CHECK(r.bytes == 5);
        CHECK(r.optimal);
        CHECK(offsets_of(p) == std::vector<std::int64_t>{0, 3});
    }
    SECTION("four buffers whose data fits 16 bytes but whose alignment needs 20") {
        //   x [0, 3) 8 bytes, y [0, 1) 8 bytes, z and w [2, 3) 4 bytes each, all aligned to 8:
        //   16 bytes live at times 0 and 2, but at time 2 z and w cannot both sit beside x at
        //   multiples of 8 within 16 bytes.
        hlomem::allocation_problem p{
            {buffer("x", 0, 3, 8, 8), buffer("y", 0, 1, 8, 8), buffer("z", 2, 3, 4, 8), buffer("w", 2, 3, 4, 8)}};
        CHECK(hlomem::lower_bound_bytes(p) == 20);  // 8 + 8 + 8 rounded, less the 4 of the top one
        auto const no = hlomem::place_within(p, 16);
        CHECK(no.status == hlomem::search_status::infeasible);
        auto const r = hlomem::exact_minimize(p);
        CHECK(r.bytes == 20);
        CHECK(r.optimal);
        CHECK(hlomem::check_placement(p).empty());
    }
}

TEST_CASE("the exact search agrees with brute force on generated problems", "[allocation][exact]") {
    // Every pruning rule (dominance, sections, the highest next offset, hatless buffers,
    // decomposition) must keep the last placement that fits: at each capacity from below the lower
    // bound to past it, the search says feasible exactly when trying every offset finds one, and
    // its placement passes the check at that capacity.
    hlomem::detail::splitmix64 random{17};
    int feasible = 0, infeasible = 0;
    for (int trial = 0; trial < 150; ++trial) {
        hlomem::allocation_problem p;
        std::size_t const n = 2 + random.below(4);
        for (std::size_t i = 0; i < n; ++i) {
            auto const lower = static_cast<std::int64_t>(random.below(5));
            auto const upper = lower + 1 + static_cast<std::int64_t>(random.below(4));
            auto const size = 1 + static_cast<std::int64_t>(random.below(5));
            std::int64_t const alignment = trial % 3 == 0 ? 1 + static_cast<std::int64_t>(random.below(3)) : 1;
            p.buffers.push_back(buffer("b" + std::to_string(i), lower, upper, size, alignment));
        }
        std::int64_t const bound = hlomem::lower_bound_bytes(p);
        for (std::int64_t capacity = std::max<std::int64_t>(1, bound - 1); capacity <= bound + 3; ++capacity) {
            CAPTURE(trial, capacity, hlomem::to_minimalloc_csv(p));
            auto q = p;
            auto const r = hlomem::place_within(q, capacity);
            bool const expected = fits_by_brute_force(p, capacity);
            REQUIRE(r.status != hlomem::search_status::budget_exhausted);
            CHECK((r.status == hlomem::search_status::feasible) == expected);
            if (r.status == hlomem::search_status::feasible) {
                ++feasible;
                CHECK(r.bytes <= capacity);
                CHECK(hlomem::check_placement(q, capacity).empty());
            } else {
                ++infeasible;
            }
        }
    }
    // Both answers were exercised, and some infeasible capacities above the lower bound.
    CHECK(feasible > 100);
    CHECK(infeasible > 100);
}

/// The `preallocated-temp` allocations a dump states (`allocation 6: size N, ..., preallocated-temp:`),
/// counted from its text alone: each is a temp arena.
std::size_t preallocated_temp_allocations(std::string_view text) {
    std::size_t n = 0;
    for (std::size_t at = 0; at < text.size();) {
        std::size_t const end = std::min(text.find('\n', at), text.size());
        std::string_view const line = text.substr(at, end - at);
        if (line.rfind("allocation ", 0) == 0 && line.find(" preallocated-temp") != std::string_view::npos) ++n;
        at = end + 1;
    }
    return n;
}

TEST_CASE("the exact search at a fixed capacity on real temp arenas", "[allocation][exact]") {
    // Every arena of the bundled dumps, minimised by exact_minimize within a node limit: its
    // placement passes the check and is no smaller than the most bytes live at once. Where it is
    // claimed optimal, the arena fits at that capacity and one byte less does not (proven by the
    // lower bound or by a complete search).
    std::size_t arenas = 0, stated = 0, solved = 0;
    for (auto const& path : real_dumps) {
        auto const text = read_data(path);
        stated += preallocated_temp_allocations(text);
        auto const ba = hlomem::parse_buffer_assignment(text, path);
        for (auto const& arena : hlomem::temp_arenas(ba)) {
            CAPTURE(path, arena.allocation);
            ++arenas;
            hlomem::search_budget budget;
            budget.node_limit = 20000;
            auto minimised = arena.problem;
            auto const m = hlomem::exact_minimize(minimised, budget);
            auto const live = hlomem::lower_bound_bytes(arena.problem);
            CHECK(hlomem::check_placement(minimised, m.bytes).empty());
            CHECK(m.bytes >= live);
            CHECK(live <= m.lower_bound);
            CHECK(m.lower_bound <= m.bytes);
            // The search places each buffer over its whole span, so where a sharing group is live
            // in several segments (loop state) it proves nothing: a bound there rests on the
            // problem's bounds alone (placement/arena_bound.hpp).
            bool const grouped = std::any_of(arena.problem.buffers.begin(), arena.problem.buffers.end(),
                                             [](auto const& b) { return !b.segments.empty(); });
            if (grouped) CHECK(m.proof != hlomem::bound_proof::search);
            CHECK(m.lower_bound >= hlomem::arena_lower_bound(arena.problem));
            if (!m.optimal) continue;
            ++solved;
            // At that capacity the search never claims that nothing fits; where it places the
            // buffers (it may run out of nodes where a sharing group lives in several segments),
            // the placement passes the check.
            auto q = arena.problem;
            auto const yes = hlomem::place_within(q, m.bytes, budget);
            CHECK(yes.status != hlomem::search_status::infeasible);
            if (yes.status == hlomem::search_status::feasible) CHECK(hlomem::check_placement(q, m.bytes).empty());
            // One byte less: the bounds prove it where the arena meets them; otherwise the search
            // must have, which it cannot for a group in several segments.
            auto const no = hlomem::place_within(q, m.bytes - 1, budget);
            CHECK(no.status != hlomem::search_status::feasible);
            if (m.bytes > hlomem::arena_lower_bound(arena.problem)) {
                CHECK_FALSE(grouped);
                CHECK(m.proof == hlomem::bound_proof::search);
                CHECK(no.status == hlomem::search_status::infeasible);
                CHECK(no.nodes > 0);
            }
        }
    }
    // Every preallocated-temp allocation the dumps state is an arena here, and the checks of a
    // solved arena ran (the brute-force test above covers the search's proofs).
    CHECK(arenas == stated);
    CHECK(stated > 0);
    CHECK(solved > 0);
}

TEST_CASE("an exhausted budget is reported, not a wrong answer", "[allocation][exact]") {
    auto const text = read_data("minimalloc/H.1048576.csv");
    auto p = hlomem::parse_minimalloc_csv(text);
    hlomem::search_budget budget;
    budget.node_limit = 500;
    auto const r = hlomem::place_within(p, 1048576, budget);
    CHECK(r.status == hlomem::search_status::budget_exhausted);
    CHECK(r.nodes == 500);
    auto const m = hlomem::exact_minimize(p, budget);
    CHECK_FALSE(m.optimal);
    CHECK(m.lower_bound == 1048576);
    CHECK(m.bytes >= 1048576);
    CHECK(hlomem::check_placement(p).empty());
}

// ---------------------------------------------------------------------------------------------
// The MiniMalloc challenging instances
// ---------------------------------------------------------------------------------------------

TEST_CASE("the MiniMalloc challenging instances: every heuristic's placement is valid", "[allocation][minimalloc]") {
    struct expected {
        char name;
        std::size_t buffers;
        std::int64_t lower_bound, best_fit, greedy_by_size, first_fit;
    };
    // Eight instances have a lower bound of exactly 1048576, the capacity they are solved for.
    for (auto const& e : {expected{'A', 154, 1048576, 1374208, 1374208, 1608704}, expected{'B', 170, 1048576, 1412096, 1412096, 1775616},
                          expected{'C', 203, 1039360, 1417216, 1417216, 1769472}, expected{'D', 213, 986112, 1316864, 1315840, 1547264},
                          expected{'E', 215, 1048576, 1469440, 1469440, 1981440}, expected{'F', 296, 1048576, 1433600, 1441792, 1277952},
                          expected{'G', 308, 1048576, 1432576, 1396736, 1343488}, expected{'H', 316, 1048576, 1371136, 1421312, 1299456},
                          expected{'I', 374, 1048576, 1473536, 1478656, 1629184}, expected{'J', 409, 989184, 1362944, 1333248, 1587200},
                          expected{'K', 454, 1048576, 1369088, 1391616, 2102272}}) {
        std::string const path = std::string("minimalloc/") + e.name + ".1048576.csv";
        CAPTURE(path);
        auto const text = read_data(path);
        auto const p = hlomem::parse_minimalloc_csv(text, path);
        CHECK(p.buffers.size() == e.buffers);
        CHECK(hlomem::lower_bound_bytes(p) == e.lower_bound);
        auto q = p;
        CHECK(hlomem::xla_choose_best_fit(q).bytes == e.best_fit);
        CHECK(hlomem::check_placement(q).empty());
        q = p;
        CHECK(hlomem::greedy_by_size(q) == e.greedy_by_size);
        CHECK(hlomem::check_placement(q).empty());
        q = p;
        CHECK(hlomem::first_fit_by_start(q) == e.first_fit);
        CHECK(hlomem::check_placement(q).empty());
    }
}

TEST_CASE("XLA's spatial heap sorts equal sizes by event counts, not by lifespan widths", "[allocation][xla]") {
    // docs/FORMATS.md 8.4. dsa-solver's XlaHeapSolver publishes D 1304576, G 1428480, J 1333248
    // and K 1397760 for these instances: exactly what the heap gives with upper - lower as the
    // duration. XLA's BufferInterval start and end are heap event counts, as hlomem replays them.
    struct expected {
        char name;
        std::int64_t xla, by_width;
    };
    for (auto const& e : {expected{'D', 1316864, 1304576}, expected{'G', 1432576, 1428480}, expected{'J', 1362944, 1333248},
                          expected{'K', 1369088, 1397760}, expected{'A', 1374208, 1374208}}) {
        std::string const path = std::string("minimalloc/") + e.name + ".1048576.csv";
        CAPTURE(path);
        auto const text = read_data(path);
        auto p = hlomem::parse_minimalloc_csv(text, path);
        auto q = p;
        CHECK(hlomem::xla_best_fit(p, hlomem::heap_order::spatial) == e.xla);
        std::vector<hlomem::heap_key> widths;
        for (auto const& b : q.buffers) widths.push_back({b.size, b.span.upper - b.span.lower, b.span.upper - b.span.lower});
        CHECK(hlomem::xla_best_fit(q, hlomem::heap_order::spatial, widths) == e.by_width);
        CHECK(hlomem::check_placement(q).empty());
    }
}

TEST_CASE("the exact search places MiniMalloc's J, G and H within 1048576 bytes", "[allocation][minimalloc][exact]") {
    // benchmarks/allocation.bench.cpp measures all eleven. H took 10 million nodes before the
    // highest-next-offset rule (exact.hpp) and takes 23 thousand with it; G 3.1 million, now 12
    // thousand. Node limits keep this test fast in a debug build too.
    for (char name : {'J', 'G', 'H'}) {
        std::string const path = std::string("minimalloc/") + name + ".1048576.csv";
        CAPTURE(path);
        auto const text = read_data(path);
        auto p = hlomem::parse_minimalloc_csv(text, path);
        hlomem::search_budget budget;
        budget.node_limit = 50000;
        auto const r = hlomem::place_within(p, 1048576, budget);
        REQUIRE(r.status == hlomem::search_status::feasible);
        CHECK(r.bytes <= 1048576);
        CHECK(hlomem::check_placement(p, 1048576).empty());
    }
}

TEST_CASE("minimising moves past a capacity it cannot decide", "[allocation][minimalloc][exact]") {
    // J's lower bound, 989184, stays undecided for minutes; every heuristic needs 1333248 or
    // more. Each capacity gets a node limit of its own, so the binary search goes on above the
    // undecided bound and finds a smaller arena within the same total budget (at the multiples of
    // 1024 it tries, placement/arena_bound.hpp); the bound it proved stays the live-bytes one.
    auto const text = read_data("minimalloc/J.1048576.csv");
    auto p = hlomem::parse_minimalloc_csv(text);
    hlomem::search_budget budget;
    budget.node_limit = 105000;  // the bound's 100000, then 5000 for the capacities above it
    auto const r = hlomem::exact_minimize(p, budget);
    CHECK(r.bytes == 1137664);
    CHECK(r.lower_bound == 989184);
    CHECK_FALSE(r.optimal);
    CHECK(r.nodes == 105000);
    CHECK(hlomem::check_placement(p, r.bytes).empty());
}

// ---------------------------------------------------------------------------------------------
// MiniMalloc CSV
// ---------------------------------------------------------------------------------------------

TEST_CASE("MiniMalloc CSV reads problems and solutions, in any column order", "[allocation][csv]") {
    auto const p = hlomem::parse_minimalloc_csv(readme_example, "input.12.csv");
    REQUIRE(p.buffers.size() == 5);
    CHECK(p.buffers[3] == buffer("b4", 9, 21, 4));
    auto const q = hlomem::parse_minimalloc_csv("\xEF\xBB\xBFoffset, size ,upper,lower,alignment,id\r\n8,4,3,0,4, b 1 \r\n\r\n");
    REQUIRE(q.buffers.size() == 1);
    CHECK(q.buffers[0].id == "b 1");
    CHECK(q.buffers[0].span == hlomem::lifespan{0, 3});
    CHECK(q.buffers[0].alignment == 4);
    CHECK(q.buffers[0].offset == 8);
    CHECK(hlomem::to_minimalloc_csv(q) == "id,lower,upper,size,alignment,offset\nb 1,0,3,4,4,8\n");
    CHECK(hlomem::parse_minimalloc_csv(hlomem::to_minimalloc_csv(p)) == p);
    CHECK(hlomem::parse_minimalloc_csv("id,lower,upper,size\n").buffers.empty());
    CHECK(hlomem::looks_like_minimalloc_csv(readme_example));
    CHECK_FALSE(hlomem::looks_like_minimalloc_csv("BufferAssignment:\n"));
}

TEST_CASE("MiniMalloc CSV errors name the line and column", "[allocation][csv]") {
    auto error = [](std::string const& text) {
        auto r = hlomem::try_parse_minimalloc_csv(text, "in.csv");
        REQUIRE_FALSE(r);
        return r.error().to_string();
    };
    CHECK(error("") == "in.csv:1:1: error: expected a header such as id,lower,upper,size\n\n^");
    CHECK(error("id,lower,upper,size,gaps\n") ==
          "in.csv:1:21: error: unknown column 'gaps'; a MiniMalloc CSV has id, lower, upper, size, alignment and offset\n"
          "id,lower,upper,size,gaps\n                    ^");
    CHECK(error("id,lower,upper\n") ==
          "in.csv:1:1: error: the header has no 'size' column; it needs id, lower, upper and size\nid,lower,upper\n^");
    CHECK(error("id,id\n") == "in.csv:1:4: error: column 'id' appears twice\nid,id\n   ^");
    CHECK(error("id,lower,upper,size\nb1,0,3\n") == "in.csv:2:7: error: expected ','\nb1,0,3\n      ^");
    CHECK(error("id,lower,upper,size\nb1,0,3,4,5\n") == "in.csv:2:9: error: expected the end of the line\nb1,0,3,4,5\n        ^");
    CHECK(error("id,lower,upper,size\nb1,3,3,4\n") ==
          "in.csv:2:6: error: lifespan [3, 3) is empty: upper must be greater than lower\nb1,3,3,4\n     ^");
    CHECK(error("id,lower,upper,size\nb1,0,3,99999999999999999999\n") ==
          "in.csv:2:8: error: integer 99999999999999999999 does not fit in int64\nb1,0,3,99999999999999999999\n       ^");
    CHECK(error("id,lower,upper,size\nb1,0,3,-4\n") ==
          "in.csv:2:8: error: expected a non-negative integer (size)\nb1,0,3,-4\n       ^");
    CHECK(error("id,lower,upper,size\nb1,0,3,4\nb1,1,2,4\n") ==
          "in.csv:3:1: error: id 'b1' was already used on line 2\nb1,1,2,4\n^");
    CHECK(error("id,lower,upper,size,alignment\nb,0,1,4,0\n") ==
          "in.csv:2:9: error: alignment 0: it must be at least 1\nb,0,1,4,0\n        ^");
    CHECK(error("id,lower,upper,size\n,0,1,4\n") == "in.csv:2:1: error: expected an id\n,0,1,4\n^");
}

TEST_CASE("MiniMalloc CSV writing refuses what CSV cannot hold", "[allocation][csv]") {
    hlomem::allocation_problem p{{buffer("a,b", 0, 1, 4)}};
    CHECK_THROWS_AS(hlomem::to_minimalloc_csv(p), hlomem::allocation_error);
    hlomem::allocation_problem partial{{buffer("a", 0, 1, 4), buffer("b", 0, 1, 4)}};
    partial.buffers[0].offset = 0;
    CHECK_THROWS_AS(hlomem::to_minimalloc_csv(partial), hlomem::allocation_error);
}

// ---------------------------------------------------------------------------------------------
// Graphs
// ---------------------------------------------------------------------------------------------

TEST_CASE("plan_offsets places the vertices of an interference graph", "[allocation][graph]") {
    auto const text = read_data("seeds/000_5960cad812240b69.txt");
    auto const ba = hlomem::parse_buffer_assignment(text);
    hlomem::interference_options temps;
    temps.temps_only = true;
    auto const g = hlomem::make_interference_graph(ba, temps);
    std::vector<std::int64_t> offset(num_vertices(g), -1);
    auto offsets = boost::make_iterator_property_map(offset.begin(), get(boost::vertex_index, g));
    auto const r = hlomem::plan_offsets(g, get(&hlomem::value_vertex::range, g), get(&hlomem::value_vertex::size, g), offsets,
                                        hlomem::allocation_algorithm::best_fit, 128);
    // Every value on its own (no sharing): the best-fit heap of the 52 values.
    CHECK(r.bytes == 983040);
    CHECK(hlomem::find_byte_overlaps(g, get(&hlomem::value_vertex::allocation, g), offsets,
                                     get(&hlomem::value_vertex::size, g))
              .empty());
}

TEST_CASE("conflict_graph_first_fit follows the edges, not lifespans", "[allocation][graph]") {
    // A triangle a-b-c plus d, which conflicts only with a.
    using graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    graph g(4);
    boost::add_edge(0, 1, g);
    boost::add_edge(1, 2, g);
    boost::add_edge(0, 2, g);
    boost::add_edge(0, 3, g);
    std::vector<std::int64_t> const size = {64, 32, 16, 48};
    std::vector<std::int64_t> offset(4, -1);
    auto const arena = hlomem::conflict_graph_first_fit(g, size.data(), offset.data(), 16);
    // a (64) at 0; d (48) clear of a at 64; b (32) clear of a at 64; c (16) clear of a and b: 96.
    CHECK(offset == std::vector<std::int64_t>{0, 64, 96, 64});
    CHECK(arena == 112);
}
