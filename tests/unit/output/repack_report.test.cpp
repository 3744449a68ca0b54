// `hlomem repack` from the library (output/repack_report.hpp): seed 002's temp arenas repacked
// and printed as tests/cli/repack_002_best_fit.out.
#include <hlomem/output/repack_report.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include "test_data.hpp"

#include <sstream>
#include <string>

namespace {

using hlomem_test::seed_002;

}  // namespace

TEST_CASE("repack: seed 002's four temp arenas with XLA's best fit", "[output][placement]") {
    auto const ba = hlomem::parse_buffer_assignment(hlomem_test::read_data(seed_002), seed_002);
    hlomem::repack_options options;
    options.algorithms = {hlomem::allocation_algorithm::best_fit};
    auto const r = hlomem::repack(hlomem::repack_arenas_of(ba), &ba, options);
    // tests/cli/repack_002_best_fit.out
    REQUIRE(r.arenas.size() == 4);
    CHECK(r.invalid.empty());
    CHECK_FALSE(r.findings());
    CHECK(*r.arenas[0].given_bytes == 2114011136);
    CHECK(r.arenas[0].reproduced->arena_bytes == 2114011136);
    REQUIRE(r.best(0) != nullptr);
    CHECK(r.best(0)->bytes == 2113945696);
    CHECK(r.best(1)->bytes == 58720256);
    CHECK(r.best(2)->bytes == 52);
    CHECK(r.best(3)->bytes == 4096);
    std::ostringstream text;
    hlomem::print_repack_text(text, "data/seeds/002_b0117d631587537a.txt", r, &ba, false);
    CHECK(text.str() == hlomem_test::read_data("../cli/repack_002_best_fit.out"));
}
