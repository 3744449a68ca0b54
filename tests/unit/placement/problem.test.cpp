// The allocation problem (placement/problem.hpp): half-open lifespans, the lower bound of the
// bytes live at once, the defects that refuse a problem, check_placement's findings, problems
// viewed through property maps, and sharing groups (one offset over several segments).
#include <hlomem/placement/problem.hpp>

#include <catch2/catch.hpp>

#include "problem_helpers.hpp"

#include <hlomem/hlomem.hpp>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using hlomem_test::buffer;
using hlomem_test::readme_example;
using hlomem_test::three_buffers;
using hlomem_test::offsets_of;


}  // namespace

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
