// The smallest temp arenas per color (placement/temp_optimum.hpp): the seeds' arenas at the
// optima `hlomem repack` proves (tests/cli/repack_000.out; seed 002's four arenas, each at its
// bound), and an arena over the value cap counted at XLA's bytes, unproven.
#include <hlomem/placement/temp_optimum.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include "test_data.hpp"

#include <cstdint>
#include <string>

TEST_CASE("temp optima: seed 000's arena at 851968 bytes, proven", "[placement][temp_optimum]") {
    std::string const path = "seeds/000_5960cad812240b69.txt";
    auto const ba = hlomem::parse_buffer_assignment(hlomem_test::read_data(path), path);
    auto const shared = hlomem::shared_buffers(ba);
    auto const optima = hlomem::temp_optima(ba, shared);
    REQUIRE(optima.size() == 1);
    CHECK(optima[0].color == 0);
    CHECK(optima[0].xla_bytes == 985504);      // allocation 53's size
    CHECK(optima[0].smallest_bytes == 851968);  // the most bytes live at once in it
    CHECK(optima[0].proven);
    CHECK(optima[0].arenas == 1);
    CHECK(optima[0].unsearched == 0);

    // Its 52 values are over a cap of 10: not searched, XLA's bytes, nothing proven; the same
    // where the shared buffers are left to temp_optima, which then does not find them.
    hlomem::temp_optimum_options capped;
    capped.most_values = 10;
    for (auto const& unsearched : {hlomem::temp_optima(ba, shared, capped), hlomem::temp_optima(ba, capped)}) {
        REQUIRE(unsearched.size() == 1);
        CHECK(unsearched[0].smallest_bytes == 985504);
        CHECK_FALSE(unsearched[0].proven);
        CHECK(unsearched[0].unsearched == 1);
    }
    auto const found_here = hlomem::temp_optima(ba);
    REQUIRE(found_here.size() == 1);
    CHECK(found_here[0].smallest_bytes == 851968);
    CHECK(found_here[0].proven);
}

TEST_CASE("temp optima: seed 002's four colors", "[placement][temp_optimum]") {
    auto const ba = hlomem::parse_buffer_assignment(hlomem_test::read_data(hlomem_test::seed_002), hlomem_test::seed_002);
    auto const optima = hlomem::temp_optima(ba, hlomem::shared_buffers(ba));
    REQUIRE(optima.size() == 4);
    // XLA's arenas (tests/cli/repack_002_best_fit.out: 2114011136 for color 0) and the smallest,
    // each proven: color 0 by the buffers that must stack, the others by the live bytes.
    std::int64_t const colors[] = {0, 1, 2, 4};
    std::int64_t const smallest[] = {2113945696, 58720256, 52, 4096};
    for (std::size_t k = 0; k < 4; ++k) {
        CAPTURE(k);
        CHECK(optima[k].color == colors[k]);
        CHECK(optima[k].smallest_bytes == smallest[k]);
        CHECK(optima[k].proven);
        CHECK(optima[k].smallest_bytes <= optima[k].xla_bytes);
    }
    CHECK(optima[0].xla_bytes == 2114011136);
}
