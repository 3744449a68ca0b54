// Buffer-assignment dumps of JAX 0.11.2 (XLA of November 2026) on an H100, in tests/data/jax_0_11/
// (README.md there says how they were made). That XLA prints each allocation header with a page,
//   allocation 44: size 41943568, page 0, preallocated-temp:
// and writes the dump in two files: `*-buffer-assignment.txt` (the allocations) and
// `*-buffer-assignment-values.txt` (`Total bytes used`, then `Used values:`), with no
// BufferLiveRange section. Read together, the two files are one dump of the layout older XLA
// writes in one file; the figures are checked against what jax's compiled.memory_analysis()
// reported for the same compilation (the *.memory_analysis.json beside them).
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <regex>
#include <string>

#include "test_data.hpp"

namespace {

/// `"key": N` of a memory_analysis.json.
std::int64_t memory_analysis_field(std::string const& json, std::string const& key) {
    std::smatch m;
    REQUIRE(std::regex_search(json, m, std::regex("\"" + key + "\": (\\d+)")));
    return std::stoll(m[1].str());
}

}  // namespace

TEST_CASE("JAX 0.11 dumps: page flags, two files, totals as memory_analysis() states", "[buffer_assignment][jax_0_11]") {
    auto const [name, allocations, values] = GENERATE(table<char const*, std::size_t, std::size_t>({
        {"mlp_step_1024", 45, 79},   // counted with grep -c '^allocation' and '^ value:'
        {"scan_loop", 13, 41},
        {"unused_donation", 6, 7},
    }));
    CAPTURE(name);
    std::string const base = std::string("jax_0_11/") + name;
    std::string const allocations_text = hlomem_test::read_data(base + ".buffer_assignment.txt");
    std::string const text = allocations_text + hlomem_test::read_data(base + ".buffer_assignment_values.txt");
    std::string const analysis = hlomem_test::read_data(base + ".memory_analysis.json");

    // The allocations file alone stops where `Total bytes used` would follow: an error at its end.
    auto const alone = hlomem::try_parse_buffer_assignment(allocations_text, "a.txt");
    REQUIRE_FALSE(alone);
    CHECK(alone.error().to_string().find("'Total bytes used:'") != std::string::npos);

    auto const ba = hlomem::parse_buffer_assignment(text, base);
    REQUIRE(ba.allocations.size() == allocations);
    std::size_t value_lines = 0;
    for (auto const& a : ba.allocations) value_lines += a.values.size();
    CHECK(value_lines == values);
    for (auto const& a : ba.allocations) CHECK(a.page == std::optional<std::int64_t>(0));
    // print(parse(text)) is the text: the page is printed where XLA prints it, after the size.
    CHECK(hlomem::to_string(ba) == text);

    std::int64_t parameters = 0, temps = 0, aliased = 0, outputs = 0;
    for (auto const& a : ba.allocations) {
        if (a.kind() == hlomem::allocation_kind::parameter) parameters += a.size;
        if (a.kind() == hlomem::allocation_kind::temp) temps += a.size;
        if (a.is_parameter_aliased_with_output()) aliased += a.size;
        if (a.kind() == hlomem::allocation_kind::output) outputs += a.size;
    }
    REQUIRE(ba.stated_total_bytes);
    CHECK(*ba.stated_total_bytes == memory_analysis_field(analysis, "total_allocation_bytes"));
    CHECK(parameters == memory_analysis_field(analysis, "argument_size_in_bytes"));
    CHECK(temps == memory_analysis_field(analysis, "temp_size_in_bytes"));
    CHECK(aliased == memory_analysis_field(analysis, "alias_size_in_bytes"));
    // CompiledMemoryStats' output size counts the outputs' own allocations and the parameters
    // aliased with an output.
    CHECK(outputs + aliased == memory_analysis_field(analysis, "output_size_in_bytes"));
    // No BufferLiveRange section: no value has a live range, and the check finds no violation.
    CHECK_FALSE(ba.live_range);
    CHECK(hlomem::check_soundness(ba).empty());
}
