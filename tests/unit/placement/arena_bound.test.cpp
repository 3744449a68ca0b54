// The smallest arena and its proof (placement/arena_bound.hpp, exact.hpp's exact_minimize): the
// arena sizes a canonical placement can have, the bytes that must stack at one moment, checked
// against brute force on generated problems (with alignments, sizes sharing a factor and sharing
// groups live in several segments), and the optimum of every temp arena of the bundled dumps.
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include "placement/brute_force.hpp"
#include "test_data.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace {

hlomem::problem_buffer bound_buffer(std::string id, std::int64_t lower, std::int64_t upper, std::int64_t size,
                              std::int64_t alignment = 1) {
    return {std::move(id), {lower, upper}, size, alignment, std::nullopt, {}};
}

}  // namespace

TEST_CASE("arena sizes: every canonical arena is a multiple of the granularity", "[arena_bound]") {
    // Sizes 4 and 6, alignment 1: offsets are sums of sizes, so arenas are even.
    hlomem::allocation_problem even{{bound_buffer("a", 0, 2, 4), bound_buffer("b", 1, 3, 6)}};
    CHECK(hlomem::arena_granularity(even) == 2);
    auto const values = hlomem::detail::arena_values_of(hlomem::detail::read_items(even));
    CHECK(values.at_least(9) == 10);  // a's 4 on b's 6; no arena of 9 bytes
    // An alignment above 1 counts (8 and 12: 4); an alignment of 1 does not.
    hlomem::allocation_problem aligned{{bound_buffer("a", 0, 2, 8, 12), bound_buffer("b", 1, 3, 16, 1)}};
    CHECK(hlomem::arena_granularity(aligned) == 4);
    // MiniMalloc's challenging instances: sizes in multiples of 1024, alignment 1, so a proof at
    // 1024 * k covers every capacity up to 1024 * (k + 1) - 1. Their bounds are their live bytes.
    std::pair<char, std::int64_t> const bounds[] = {{'A', 1048576}, {'C', 1039360}, {'D', 986112}, {'J', 989184}};
    for (auto const& [name, bound] : bounds) {
        std::string const path = std::string("minimalloc/") + name + ".1048576.csv";
        CAPTURE(path);
        auto const p = hlomem::parse_minimalloc_csv(hlomem_test::read_data(path), path);
        CHECK(hlomem::arena_granularity(p) == 1024);
        CHECK(hlomem::arena_lower_bound(p) == bound);
        CHECK(hlomem::detail::arena_values_of(hlomem::detail::read_items(p)).at_least(1024001) == 1025024);
    }
}

TEST_CASE("buffers that must stack: the bound per moment", "[arena_bound]") {
    // Alignment 128. At time 0, x (200 bytes) and y (100) are live: whichever is lower takes its
    // size rounded up to 128, so the arena is at least 128 + 200 = 328, with y at 0 and x at 128.
    // lower_bound_bytes says 300: it takes off the most rounding of any buffer, the 127 of z, a
    // 1-byte buffer alone at time 1.
    hlomem::allocation_problem p{{bound_buffer("x", 0, 1, 200, 128), bound_buffer("y", 0, 1, 100, 128), bound_buffer("z", 1, 2, 1, 128)}};
    CHECK(hlomem::lower_bound_bytes(p) == 300);
    CHECK(hlomem::arena_lower_bound(p) == 328);
    auto const r = hlomem::exact_minimize(p);
    CHECK(r.bytes == 328);
    CHECK(r.optimal);
    CHECK(r.proof == hlomem::bound_proof::stacked_bytes);
}

TEST_CASE("the smallest arena and its proof agree with brute force on generated problems", "[arena_bound][exact]") {
    // For every generated problem: exact_minimize's lower bound is the smallest arena brute force
    // finds, nothing fits one byte below it (the claim its report prints), the search's refuted
    // capacity does not fit either, arena_lower_bound is no higher, and the smallest arena is a
    // multiple of the granularity. Sizes share a factor in some problems (granularity above 1),
    // alignments vary in others, and some have a sharing group live in two segments, where only
    // the bounds may prove anything.
    hlomem::detail::splitmix64 random{34};
    int searched = 0, stacked = 0, grouped = 0;
    for (int trial = 0; trial < 300; ++trial) {
        hlomem::allocation_problem p;
        std::size_t const n = 2 + random.below(4);
        std::int64_t const unit = trial % 4 == 1 ? 2 + static_cast<std::int64_t>(random.below(2)) : 1;
        for (std::size_t i = 0; i < n; ++i) {
            auto const lower = static_cast<std::int64_t>(random.below(5));
            auto const upper = lower + 1 + static_cast<std::int64_t>(random.below(4));
            auto const size = unit * (1 + static_cast<std::int64_t>(random.below(5)));
            std::int64_t const alignment = trial % 4 == 2 ? std::int64_t{2} << random.below(3) : 1;
            p.buffers.push_back(bound_buffer("b" + std::to_string(i), lower, upper, size, alignment));
        }
        if (trial % 4 == 3 && p.buffers[0].span.upper - p.buffers[0].span.lower >= 3) {
            auto& g = p.buffers[0];  // live at its ends only
            g.segments = {{g.span.lower, g.span.lower + 1}, {g.span.upper - 1, g.span.upper}};
            ++grouped;
        }
        CAPTURE(trial, hlomem::to_minimalloc_csv(p));
        std::int64_t const optimum = hlomem_test::smallest_arena_by_brute_force(p, hlomem::lower_bound_bytes(p));
        CHECK(optimum % hlomem::arena_granularity(p) == 0);
        CHECK(hlomem::arena_lower_bound(p) <= optimum);
        auto q = p;
        auto const r = hlomem::exact_minimize(q);
        CHECK(r.lower_bound <= optimum);
        CHECK(r.bytes >= optimum);
        CHECK(hlomem::check_placement(q, r.bytes).empty());
        CHECK_FALSE(hlomem_test::fits_by_brute_force(p, r.lower_bound - 1));
        if (p.buffers[0].segments.empty()) CHECK(r.optimal);  // no budget: the search decides
        if (r.optimal) CHECK(r.bytes == optimum);
        if (r.proof == hlomem::bound_proof::search) {
            ++searched;
            CHECK(p.buffers[0].segments.empty());
            CHECK_FALSE(hlomem_test::fits_by_brute_force(p, r.refuted));
            CHECK(r.refuted < r.lower_bound);
        }
        stacked += r.proof == hlomem::bound_proof::stacked_bytes;
    }
    // Every kind of proof and problem was exercised.
    CHECK(searched > 5);
    CHECK(stacked > 3);
    CHECK(grouped > 20);
}

TEST_CASE("every temp arena of the bundled dumps has a proven optimum", "[arena_bound][exact][xla]") {
    // Each arena minimised within 20,000 nodes and a second: every one is proven optimal. Nine
    // (loop state in several segments, offsets multiples of 128) were 3 to 23 bytes above the
    // most bytes live and proven by nothing before the bytes that must stack; they are pinned
    // here: (dump, allocation, live bytes, optimum).
    struct pinned {
        char const* path;
        std::int64_t allocation, live, optimum;
    };
    pinned const stacked[] = {
        {"corpus/compilations/scan_window_a.buffer_assignment.txt", 27, 206438785, 206438792},
        {"corpus/compilations/scan_window_b.buffer_assignment.txt", 27, 206438785, 206438792},
        {"corpus/compilations/sternheimer_core_a.buffer_assignment.txt", 22, 119876481, 119876488},
        {"corpus/compilations/sternheimer_core_b.buffer_assignment.txt", 22, 119801601, 119801608},
        {"corpus/lorrax/lorrax_bse_full_run_large.buffer_assignment.txt", 81, 542570369, 542570372},
        {"corpus/lorrax/lorrax_post_kpath_customcall_tuple.buffer_assignment.txt", 10, 6951425, 6951448},
        {"corpus/lorrax/lorrax_scatter_while_threadlocal.buffer_assignment.txt", 8, 257, 260},
        {"corpus/regressions/jit__batched_chol_06a294ff.buffer_assignment.txt", 14, 5530241, 5530244},
        {"corpus/regressions/jit__batched_chol_68697f6f.buffer_assignment.txt", 14, 9831041, 9831044},
    };
    std::size_t arenas = 0, found = 0;
    for (auto const& path : hlomem_test::real_dumps) {
        auto const ba = hlomem::parse_buffer_assignment(hlomem_test::read_data(path), path);
        for (auto const& arena : hlomem::temp_arenas(ba)) {
            std::int64_t const allocation = ba.allocations[arena.allocation].index;
            CAPTURE(path, allocation);
            ++arenas;
            hlomem::search_budget budget;
            budget.node_limit = 20000;
            budget.time_limit = std::chrono::seconds(1);
            auto minimised = arena.problem;
            auto const m = hlomem::exact_minimize(minimised, budget);
            CHECK(m.optimal);
            CHECK(hlomem::check_placement(minimised, m.bytes).empty());
            CHECK(m.bytes <= arena.xla_bytes);
            for (auto const& s : stacked) {
                if (path != s.path || allocation != s.allocation) continue;
                ++found;
                CHECK(hlomem::lower_bound_bytes(arena.problem) == s.live);
                CHECK(m.bytes == s.optimum);
                CHECK(m.proof == hlomem::bound_proof::stacked_bytes);
            }
        }
    }
    CHECK(found == std::size(stacked));
    CHECK(arenas > 20);
}
