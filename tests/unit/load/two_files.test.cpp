// A dump that JAX 0.11's XLA writes in two files, tests/data/jax_0_11/NAME-buffer-assignment.txt
// (the allocations) and NAME-buffer-assignment-values.txt (`Total bytes used`, `Used values`),
// loaded from either file as one dump, with the module (NAME.txt) and the memory-usage report in
// its newer layout (NAME-memory-usage-report.txt) beside it.
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include <string>

#include "test_data.hpp"

TEST_CASE("load: a dump in two files, from either file", "[load][jax_0_11]") {
    auto const [name, allocations, total, live_ranges] = GENERATE(table<char const*, std::size_t, std::int64_t, bool>({
        {"mlp_step_1024", 45, 60834516, false},  // its allocation headers, `Total bytes used:`, whether XLA wrote a -live-range.txt
        {"scan_loop", 13, 24118668, false},
        {"unused_donation", 6, 16814092, false},
        {"grad_plain", 23, 67110496, true},
        {"grad_ckpt", 23, 71306856, true},
    }));
    auto const half = GENERATE(as<std::string>{}, "-buffer-assignment.txt", "-buffer-assignment-values.txt");
    CAPTURE(name, half);
    std::string const base = std::string(HLOMEM_TEST_DATA_DIR) + "/jax_0_11/" + name;
    hlomem::load_options options;
    options.find_module = true;
    options.find_memory_usage_report = true;
    options.find_live_range = true;
    auto const r = hlomem::load(base + half, options);
    REQUIRE(r);
    CHECK(r->kind() == hlomem::dump_kind::buffer_assignment);
    CHECK(r->path == base + "-buffer-assignment.txt");  // named by its first half
    auto const* ba = r->assignment();
    REQUIRE(ba);
    CHECK(ba->allocations.size() == allocations);
    CHECK(ba->total_bytes() == total);
    CHECK(r->module_file == base + ".txt");
    CHECK(r->live_range_file.has_value() == live_ranges);
    // Without a -live-range.txt, the live ranges are derived from the module beside the dump.
    CHECK(ba->live_range.has_value());
    CHECK(r->live_ranges_from_module == !live_ranges);
    REQUIRE(r->memory_usage_report);
    CHECK(hlomem::check_against(*r->memory_usage_report, *ba).empty());
}

TEST_CASE("load: one half of a two-file dump without the other", "[load][jax_0_11]") {
    std::string const values = hlomem_test::read_data("jax_0_11/unused_donation-buffer-assignment-values.txt");
    CHECK(hlomem::detect_dump_kind(values) == hlomem::dump_kind::buffer_assignment);
    auto const r = hlomem::load_text(values, "nowhere/x-buffer-assignment-values.txt");
    REQUIRE_FALSE(r);
    CHECK(r.error().file == "nowhere/x-buffer-assignment.txt");
    CHECK(r.error().message ==
          "nowhere/x-buffer-assignment-values.txt: the values of a buffer-assignment dump that XLA wrote in two files; its "
          "allocations are in 'nowhere/x-buffer-assignment.txt', which cannot be read");
    // The allocations alone, with no values file beside them, stop where `Total bytes used` would
    // follow, as a dump cut short does.
    std::string const allocations = hlomem_test::read_data("jax_0_11/unused_donation-buffer-assignment.txt");
    auto const alone = hlomem::load_text(allocations, "nowhere/x-buffer-assignment.txt");
    REQUIRE_FALSE(alone);
    REQUIRE(alone.error().parse);
    CHECK(alone.error().parse->expected.find("'Total bytes used:'") != std::string::npos);
}
