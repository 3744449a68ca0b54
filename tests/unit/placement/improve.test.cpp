// The local search (placement/improve.hpp): never worse than its start, and deterministic.
#include <hlomem/placement/improve.hpp>

#include <catch2/catch.hpp>

#include "problem_helpers.hpp"

#include <hlomem/hlomem.hpp>

#include "test_data.hpp"

#include <cstdint>
#include <vector>

namespace {

using hlomem_test::offsets_of;

using hlomem_test::read_data;

}  // namespace

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
