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

TEST_CASE("repack: the best placement of one arena written as MiniMalloc CSV on a stream", "[output][placement]") {
    // MiniMalloc's README example placed by exact: its published solution, 12 bytes
    // (tests/cli/repack_readme_exact.csv, what `repack --output -` writes). Seed 002 has four
    // arenas, which a stream cannot take apart: the caller is told to give a file name.
    auto problem = hlomem::parse_minimalloc_csv(hlomem_test::read_data("hand/minimalloc_readme.csv"));
    hlomem::repack_options options;
    options.algorithms = {hlomem::allocation_algorithm::exact};
    auto const one = hlomem::repack({hlomem::repack_arena_of(problem)}, static_cast<hlomem::buffer_assignment const*>(nullptr), options);
    std::ostringstream csv;
    CHECK_FALSE(hlomem::write_best_placement(csv, one).has_value());
    CHECK(csv.str() == hlomem_test::read_data("../cli/repack_readme_exact.csv"));

    auto const ba = hlomem::parse_buffer_assignment(hlomem_test::read_data(seed_002), seed_002);
    options.algorithms = {hlomem::allocation_algorithm::best_fit};
    auto const four = hlomem::repack(hlomem::repack_arenas_of(ba), &ba, options);
    std::ostringstream none;
    auto const why = hlomem::write_best_placement(none, four);
    REQUIRE(why.has_value());
    CHECK(*why == "a stream takes one arena's placement; this file has 4, give a file name");
    CHECK(none.str().empty());
}
