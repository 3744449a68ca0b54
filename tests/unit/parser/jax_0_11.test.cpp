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
        {"grad_plain", 23, 55},
        {"grad_ckpt", 23, 75},
    }));
    CAPTURE(name);
    std::string const base = std::string("jax_0_11/") + name;
    std::string const allocations_text = hlomem_test::read_data(base + "-buffer-assignment.txt");
    std::string const text = allocations_text + hlomem_test::read_data(base + "-buffer-assignment-values.txt");
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

// The scheduled module of that XLA names an element of a tuple-shaped result as an operand,
//   %fusion-start = (...) async-start(%arg_tuple.1#3, %arg_tuple.1#0), calls=%async_computation
// where older XLA printed get-tuple-element instructions (the dump still lists one among the value's
// positions: `get-tuple-element.9`). The builder makes each one back, once, right behind the tuple.
TEST_CASE("JAX 0.11 modules: tuple elements named as operands", "[hlo_module][jax_0_11]") {
    auto const [name, printed, elements] = GENERATE(table<char const*, std::size_t, std::size_t>({
        {"mlp_step_1024", 266, 3},  // instruction lines, and distinct `%x#N` texts (grep -o | sort -u)
        {"scan_loop", 69, 7},
        {"unused_donation", 15, 0},
        {"grad_plain", 115, 7},
        {"grad_ckpt", 136, 23},
    }));
    CAPTURE(name);
    auto const m = hlomem::parse_hlo_module(hlomem_test::read_data(std::string("jax_0_11/") + name + ".txt"), name);
    CHECK(m.instruction_count() == printed + elements);
    CHECK(m.names_tuple_elements() == (elements > 0));
    if (std::string_view(name) != "scan_loop") return;

    // %bitcast.4.0 = f32[512,4,128]{2,1,0} bitcast(%arg_tuple.1#1), in the while body %region_0.4
    auto const body = m.find_computation("region_0.4");
    REQUIRE(body);
    auto const gte = m.find_instruction(*body, "arg_tuple.1#1");
    auto const tuple = m.find_instruction(*body, "arg_tuple.1");
    auto const bitcast = m.find_instruction(*body, "bitcast.4.0");
    REQUIRE((gte && tuple && bitcast));
    CHECK(m.instruction(*gte).opcode == hlomem::hlo_opcode::get_tuple_element);
    CHECK(m.instruction(*gte).tuple_index == 1);
    CHECK(hlomem::to_string(m.shape_of(*gte)) == "f32[512,512]{1,0}");
    REQUIRE(m.operands(*gte).size() == 1);
    CHECK(m.operands(*gte)[0] == *tuple);
    CHECK(m.operands(*bitcast)[0] == *gte);
    // Placed right behind the tuple it reads, after %arg_tuple.1#0 (XLA's schedule puts them there);
    // %loop_add_fusion, a later user, shares it.
    CHECK(*gte == *tuple + 2);
    CHECK(std::string_view(m.instruction(*tuple + 1).name) == "arg_tuple.1#0");
    CHECK(*bitcast > *gte);
    auto const add = m.find_instruction(*body, "loop_add_fusion");
    REQUIRE(add);
    CHECK(m.operands(*add)[0] == *gte);
    // The entry's ROOT %tuple.3.0 = (...) tuple(%while.6#1, %while.6#2) stays its root.
    auto const& entry = m.entry_computation();
    CHECK(std::string_view(m.instruction(entry.root).name) == "tuple.3.0");
    CHECK(m.opcode_name(entry.root) == "tuple");
}

TEST_CASE("tuple elements named as operands: errors", "[hlo_module][jax_0_11]") {
    std::string const head = "HloModule m, is_scheduled=true\n\nENTRY %main (p: (f32[], s32[])) -> f32[] {\n"
                             "  %p = (f32[], s32[]) parameter(0)\n";
    auto const no_index = hlomem::try_parse_hlo_module(head + "  ROOT %n = f32[] negate(%p#)\n}\n", "m.hlo");
    REQUIRE_FALSE(no_index);
    CHECK(no_index.error().message == "expected a tuple index after '#'");
    CHECK(no_index.error().line == 5);
    auto const too_far = hlomem::try_parse_hlo_module(head + "  ROOT %n = f32[] negate(%p#2)\n}\n", "m.hlo");
    REQUIRE_FALSE(too_far);
    CHECK(too_far.error().message == "operand 'p#2': the shape (f32[], s32[]) has no tuple element 2");
    auto const fine = hlomem::try_parse_hlo_module(head + "  ROOT %n = s32[] negate(%p#1)\n}\n", "m.hlo");
    REQUIRE(fine);
    CHECK(fine->instruction_count() == 3);
}

// The memory-usage report of that XLA: per memory space its total, then one value table per
// allocation without the allocation's header.
TEST_CASE("JAX 0.11 memory-usage reports: the newer layout", "[memory_usage_report][jax_0_11]") {
    auto const [name, tables, total] = GENERATE(table<char const*, std::size_t, std::int64_t>({
        {"mlp_step_1024", 45, 60834516},  // grep -c 'cumulative_size;', and its 'Total bytes:'
        {"scan_loop", 13, 24118668},
        {"unused_donation", 6, 16814092},
        {"grad_plain", 23, 67110496},
        {"grad_ckpt", 23, 71306856},
    }));
    CAPTURE(name);
    std::string const base = std::string("jax_0_11/") + name;
    auto const report = hlomem::parse_memory_usage_report(hlomem_test::read_data(base + "-memory-usage-report.txt"), base);
    REQUIRE(report.memory_spaces.size() == 1);
    CHECK(std::string_view(report.memory_spaces[0].name) == "default");
    CHECK(report.memory_spaces[0].color == 0);
    CHECK(report.total_bytes == total);
    CHECK(report.allocation_values.size() == tables);
    for (auto const& av : report.allocation_values) CHECK(av.allocation.index == -1);
    auto const ba = hlomem::parse_buffer_assignment(hlomem_test::read_data(base + "-buffer-assignment.txt") +
                                                        hlomem_test::read_data(base + "-buffer-assignment-values.txt"),
                                                    base);
    CHECK(hlomem::check_against(report, ba).empty());
    // One value table per allocation of the dump.
    CHECK(ba.allocations.size() == tables);
}
