// XLA's temp arenas as allocation problems (placement/temp_arena.hpp): extracted from every real
// dump and XLA's arena reproduced exactly, the seed dumps' arenas, and loop state kept as one
// buffer (a sharing group) across the gaps of its segments.
#include <hlomem/placement/temp_arena.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include "test_data.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

using hlomem_test::read_data;
using hlomem_test::real_dumps;

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

}  // namespace

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
