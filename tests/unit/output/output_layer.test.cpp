// The output layer and the library pieces the tool's commands moved into: what `report`, `check`,
// `repack` and `diff --fail-above` compute now comes from the library, so a C++ program gets the
// same figures without the tool. Values from the bundled TPU seed dump (seed 002) and the
// synthetic unsound dump, as their expected outputs in tests/cli/ state them.
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string const seed_002 = "seeds/002_b0117d631587537a.txt";

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

TEST_CASE("check_loaded and print_check_text: the unsound synthetic dump", "[output]") {
    auto loaded = hlomem::load(std::string(HLOMEM_TEST_DATA_DIR) + "/synthetic/unsound.txt");
    REQUIRE(loaded);
    auto const r = hlomem::check_loaded(*loaded, "data/synthetic/unsound.txt");
    CHECK(r.violations.size() == 4);
    CHECK(r.sharing.in_place == 1);
    std::ostringstream text;
    hlomem::print_check_text(text, r);
    CHECK(text.str().rfind("data/synthetic/unsound.txt: 2 allocations, 4 values, xla size function\n", 0) == 0);
    CHECK(text.str().find("  4 violations\n") != std::string::npos);
    std::ostringstream json;
    hlomem::print_check_json(json, r);
    CHECK(json.str().find("\"sound\": false") != std::string::npos);
}

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

TEST_CASE("repack: a capacity below every placement is a finding", "[output][placement]") {
    auto const ba = hlomem::parse_buffer_assignment(hlomem_test::read_data(seed_002), seed_002);
    hlomem::repack_options options;
    options.algorithms = {hlomem::allocation_algorithm::best_fit};
    options.capacity = 4095;  // color 4's arena needs 4096 bytes
    auto const r = hlomem::repack(hlomem::repack_arenas_of(ba), &ba, options);
    CHECK(r.best(3) == nullptr);
    CHECK(r.findings());
}

TEST_CASE("diff_threshold_named: bytes and percentages, and what is neither", "[output][diff]") {
    CHECK(hlomem::diff_threshold_named("1048576")->bytes == 1048576);
    CHECK(*hlomem::diff_threshold_named("5%")->percent == 5.0);
    CHECK(*hlomem::diff_threshold_named("2.5%")->percent == 2.5);
    for (char const* bad : {"", "%", ".%", "1.2.3%", "-5", "5 %", "1e3", "1234567890123456789"}) {
        INFO(bad);
        CHECK_FALSE(hlomem::diff_threshold_named(bad));
    }
    hlomem::diff_threshold t = *hlomem::diff_threshold_named("10%");
    CHECK_FALSE(t.exceeded({100, 110}));
    CHECK(t.exceeded({100, 111}));
    CHECK_FALSE(t.exceeded({100, 50}));
    CHECK(t.exceeded({0, 1}));  // from nothing, any growth exceeds a percentage
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

// Seed 002's TPU dump carries no metadata at all: its peak is traced to the function's arguments
// (hlo/origin.hpp), the values they flow into marked inherited.
TEST_CASE("report: a color whose values carry no metadata is traced to the function's arguments", "[output]") {
    auto loaded = hlomem::load(std::string(HLOMEM_TEST_DATA_DIR) + "/" + seed_002);
    REQUIRE(loaded);
    std::ostringstream out;
    REQUIRE(hlomem::print_report_text(out, *loaded));
    std::string const text = out.str();
    CHECK(text.find("what holds the color 0 peak (time 78, 2.52GiB), by source line (7 lines; 7 shown)\n") != std::string::npos);
    CHECK(text.find("    1008.00MiB   39.01%       2  argument 0 (inherited) (193 210)\n") != std::string::npos);
    CHECK(text.find("no source line or op_name") == std::string::npos);
}
