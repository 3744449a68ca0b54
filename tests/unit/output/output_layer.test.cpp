// The library pieces the tool's commands moved into, as the output layer calls them: the
// allocations by color and kind and the lower bounds `report` prints, and the mapped files every
// command reads, so a C++ program gets the same figures without the tool. Values from the bundled
// TPU seed dump (seed 002), as its expected outputs in tests/cli/ state them. `report`, `check`,
// `repack` and `diff --fail-above` have files of their own (report, check_report, repack_report,
// placement/repack, diff/threshold).
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace {

using hlomem_test::seed_002;

}  // namespace

TEST_CASE("allocation_totals: the allocations of seed 002 by color and kind", "[output][memory]") {
    auto const ba = hlomem::parse_buffer_assignment(hlomem_test::read_data(seed_002), seed_002);
    auto const totals = hlomem::allocation_totals(ba);
    // tests/cli/report_tpu_seed.out: "allocations by color and kind".
    REQUIRE(totals.size() == 6);
    CHECK(totals[0].color == 0);
    CHECK(totals[0].kind == hlomem::allocation_kind::parameter);
    CHECK(totals[0].count == 4);
    CHECK(totals[0].bytes == 444596224);
    CHECK(totals[1].kind == hlomem::allocation_kind::output);  // maybe-live-out
    CHECK(totals[1].bytes == 268435488);
    CHECK(totals[2].kind == hlomem::allocation_kind::temp);
    CHECK(totals[2].bytes == 2114011136);
    CHECK(totals[5].color == 4);
    CHECK(totals[5].bytes == 4096);
    std::int64_t sum = 0;
    for (auto const& t : totals) sum += t.bytes;
    CHECK(sum == 2885767252);  // 'Total bytes used'
}

TEST_CASE("lower_bounds: the temp arena's bound is the same with or without the bound over every buffer",
          "[output][memory]") {
    auto const ba = hlomem::parse_buffer_assignment(hlomem_test::read_data(seed_002), seed_002);
    auto const buffers = hlomem::shared_buffers(ba);
    auto const both = hlomem::lower_bounds(ba, buffers);
    auto const temp_only = hlomem::lower_bounds(ba, buffers, false);
    REQUIRE(both.size() == temp_only.size());
    for (std::size_t k = 0; k < both.size(); ++k) {
        CHECK(both[k].temp.bytes == temp_only[k].temp.bytes);
        CHECK(both[k].temp_allocated_bytes == temp_only[k].temp_allocated_bytes);
        CHECK(temp_only[k].all.bytes == 0);
    }
    // Color 0: XLA's temp arena 2114011136 bytes, its bound 79.8KiB below (report_tpu_seed.out).
    CHECK(both[0].temp_allocated_bytes == 2114011136);
    CHECK(both[0].temp_allocated_bytes - both[0].temp.bytes == 81728);
}

TEST_CASE("mapped_text and load_mapped: a file mapped, standard input's kind of error", "[output][load]") {
    std::string const path = std::string(HLOMEM_TEST_DATA_DIR) + "/" + seed_002;
    auto text = hlomem::mapped_text::open(path);
    REQUIRE(text);
    CHECK((*text)->text() == hlomem_test::read_data(seed_002));
    auto loaded = hlomem::load_mapped<hlomem::view_policy>(path);
    REQUIRE(loaded);
    CHECK(loaded->assignment()->allocations.size() == 10);
    auto missing = hlomem::mapped_text::open(path + ".missing");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().failure == hlomem::load_failure::unreadable);
}

