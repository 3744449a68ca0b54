// The one-pass allocators (placement/greedy.hpp, through plan.hpp): greedy by size and first fit
// by start on a small example.
#include <hlomem/placement/greedy.hpp>

#include <catch2/catch.hpp>

#include "problem_helpers.hpp"

#include <hlomem/placement/plan.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using hlomem_test::buffer;
using hlomem_test::three_buffers;
using hlomem_test::offsets_of;


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
