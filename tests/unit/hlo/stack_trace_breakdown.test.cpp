// The newest HloLiveRange text's peak (memory/peak.hpp) and its stack-trace breakdown
// (hlo/stack_trace_breakdown.hpp), against XLA's rules (xla/hlo/utils/hlo_live_range.cc,
// hlo_stack_trace.cc) and the live-range files JAX 0.11's XLA wrote for tests/data/jax_0_11/grad_plain
// and grad_ckpt.
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

using hlomem_test::read_data;

std::vector<std::string> parts_of(std::string_view s) {
    std::vector<std::string> out;
    for (auto p : hlomem::split_params_string(s)) out.emplace_back(p);
    return out;
}

/// The text from `  Live ranges at` to the end.
std::string peak_part(std::string const& text) {
    auto const at = text.find("  Live ranges at ");
    REQUIRE(at != std::string::npos);
    return text.substr(at);
}

/// "depth name total current remaining" for each line of a breakdown.
template <class Nodes>
std::vector<std::string> lines_of(Nodes const& nodes) {
    std::vector<std::string> out;
    for (auto const& n : nodes) {
        out.push_back(std::to_string(n.depth) + " " + n.name + " " + std::to_string(n.total_bytes) + " " +
                      std::to_string(n.current_bytes) + " " + std::to_string(n.remaining_bytes));
    }
    return out;
}

}  // namespace

TEST_CASE("split_params_string splits a parameter path only", "[stack_trace_breakdown]") {
    // The examples of XLA's SplitParamsString comment.
    CHECK(parts_of("params['layer/fc']") == std::vector<std::string>{"params", "layer", "fc"});
    CHECK(parts_of("var['a']['b'].attr") == std::vector<std::string>{"var", "a", "b", "attr"});
    CHECK(parts_of("invalid-string") == std::vector<std::string>{"invalid-string"});
    CHECK(parts_of("params ['gap']") == std::vector<std::string>{"params ['gap']"});
    // What JAX names: arguments by index, ops by path; neither is a quoted key.
    CHECK(parts_of("ws[0]") == std::vector<std::string>{"ws[0]"});
    CHECK(parts_of("x") == std::vector<std::string>{"x"});
    CHECK(parts_of("jit(grad_ckpt)/jvp()/tanh") == std::vector<std::string>{"jit(grad_ckpt)/jvp()/tanh"});
    // An identifier of one character (`[a-zA-Z_]\w*`), an attribute before the key, empty parts of
    // a key kept (absl::StrSplit), and what breaks the pattern.
    CHECK(parts_of("p['k']") == std::vector<std::string>{"p", "k"});
    CHECK(parts_of("p.w['k'].b") == std::vector<std::string>{"p", "w", "k", "b"});
    CHECK(parts_of("p['a//b']") == std::vector<std::string>{"p", "a", "", "b"});
    CHECK(parts_of("p.w") == std::vector<std::string>{"p.w"});          // no key
    CHECK(parts_of("p['']") == std::vector<std::string>{"p['']"});      // an empty key
    CHECK(parts_of("p['k']x") == std::vector<std::string>{"p['k']x"});  // left over
    CHECK(parts_of("9p['k']") == std::vector<std::string>{"9p['k']"});  // not an identifier
    CHECK(parts_of("") == std::vector<std::string>{""});
}

TEST_CASE("format_bytes_with_spaces groups digits as FormatBytesWithSpaces", "[stack_trace_breakdown]") {
    CHECK(hlomem::format_bytes_with_spaces(0) == "0");
    CHECK(hlomem::format_bytes_with_spaces(48) == "48");
    CHECK(hlomem::format_bytes_with_spaces(999) == "999");
    CHECK(hlomem::format_bytes_with_spaces(1000) == "1 000");
    CHECK(hlomem::format_bytes_with_spaces(1048576) == "1 048 576");
    CHECK(hlomem::format_bytes_with_spaces(30408704) == "30 408 704");  // grad_ckpt-live-range.txt
    CHECK(hlomem::format_bytes_with_spaces(63963152) == "63 963 152");  // grad_plain-live-range.txt
    // The sign is one more character to group: `for (int i = s.length() - 3; i > 0; i -= 3)`.
    CHECK(hlomem::format_bytes_with_spaces(-123) == "- 123");
    CHECK(hlomem::format_bytes_with_spaces(-1234) == "-1 234");
}

TEST_CASE("format_stack_trace_breakdown: call paths, shared bytes, indices, sibling order", "[stack_trace_breakdown]") {
    // %callee is called twice; %cc is tuple-shaped, named by a parameter path.
    std::string const text =
        "HloModule traces, is_scheduled=true\n\n"
        "%callee (p: f32[4]) -> f32[4] {\n"
        "  %p = f32[4]{0} parameter(0)\n"
        "  ROOT %n = f32[4]{0} negate(%p), metadata={op_name=\"jit(f)/neg\"}\n"
        "}\n\n"
        "ENTRY %main (x: f32[4]) -> (f32[4], f32[4], (f32[4], f32[2])) {\n"
        "  %x = f32[4]{0} parameter(0), metadata={op_name=\"x\"}\n"
        "  %c1 = f32[4]{0} call(%x), to_apply=%callee, metadata={op_name=\"jit(f)/first\"}\n"
        "  %c2 = f32[4]{0} call(%c1), to_apply=%callee\n"
        "  %cc = (f32[4]{0}, f32[2]{0}) custom-call(%x), custom_call_target=\"t\", metadata={op_name=\"params['layer/fc']\"}\n"
        "  ROOT %t = (f32[4]{0}, f32[4]{0}, (f32[4]{0}, f32[2]{0})) tuple(%c1, %c2, %cc)\n"
        "}\n";
    auto const m = hlomem::parse_hlo_module(text, "traces.hlo");
    auto const id = [&](char const* name) { return *m.find_instruction(name); };

    SECTION("one trace per call path, callers in text order, op_name or name at each level") {
        CHECK(hlomem::build_stack_traces(m, id("n")) ==
              std::vector<std::vector<std::string>>{{"main", "jit(f)/first", "callee", "jit(f)/neg"},
                                                    {"main", "c2", "callee", "jit(f)/neg"}});
        CHECK(hlomem::build_stack_traces(m, id("cc")) ==
              std::vector<std::vector<std::string>>{{"main", "params", "layer", "fc"}});
        CHECK(hlomem::build_stack_traces(m, id("t")) == std::vector<std::vector<std::string>>{{"main", "t"}});
    }
    SECTION("bytes split over the traces, the first ones getting the remainder; indices on the last part") {
        std::vector<hlomem::basic_sized_buffer<>> const buffers{
            {7, id("n"), {}},     // 4 bytes through c1, 3 through c2
            {8, id("cc"), {1}},   // at fc{1}
            {16, id("cc"), {}},   // at fc
            {4, id("x"), {}},
            {4, id("t"), {}},     // three siblings of 4 bytes: by name, jit(f)/first, t, x
            {0, id("p"), {}},     // no bytes: its nodes `p` are not printed
        };
        auto const b = hlomem::format_stack_trace_breakdown(buffers, m);
        CHECK(b.total_bytes == 39);
        // Pre-order; siblings by total descending, then name ascending; `remaining` lowered by each
        // line's current bytes before the line.
        CHECK(lines_of(b.nodes) == std::vector<std::string>{
                                       "0 main 39 0 39",
                                       "1 params 24 0 39",
                                       "2 layer 24 0 39",
                                       "3 fc 16 16 23",
                                       "3 fc{1} 8 8 15",
                                       "1 jit(f)/first 4 0 15",
                                       "2 callee 4 0 15",
                                       "3 jit(f)/neg 4 4 11",
                                       "1 t 4 4 7",
                                       "1 x 4 4 3",
                                       "1 c2 3 0 3",
                                       "2 callee 3 0 3",
                                       "3 jit(f)/neg 3 3 0",
                                   });
        CHECK(b.nodes[1].percent == Approx(100.0 * 24 / 39));
    }
    SECTION("an odd byte count over two call paths") {
        // bytes / n for each of the n traces, one more for each of the first bytes % n.
        std::vector<hlomem::basic_sized_buffer<>> const buffers{{5, id("n"), {}}};
        auto const b = hlomem::format_stack_trace_breakdown(buffers, m);
        REQUIRE(b.nodes.size() == 7);
        CHECK(b.nodes[3].current_bytes == 3);  // through c1: 5 / 2 + 1
        CHECK(b.nodes[6].current_bytes == 2);  // through c2: 5 / 2
        CHECK(b.nodes.back().remaining_bytes == 0);
    }
}

TEST_CASE("the newest HloLiveRange text derived from a JAX 0.11 module is XLA's from its peak on",
          "[stack_trace_breakdown][liveness][jax_0_11]") {
    // From `  Live ranges at` to the end, byte for byte (above it, the InstructionSequence names
    // the get-tuple-elements the module does not print as hlomem makes them back, `custom-call.3#0`
    // where XLA has `get-tuple-element.3`: docs/FORMATS.md 6.1).
    auto const name = std::string(GENERATE("grad_plain", "grad_ckpt"));
    CAPTURE(name);
    std::string const text = read_data("jax_0_11/" + name + ".txt");
    auto const m = hlomem::parse_hlo_module<hlomem::view_policy>(text, name);
    auto const derived = hlomem::derive_assignment(m, /*positions_and_uses=*/false);
    std::ostringstream os;
    hlomem::print_live_range(os, *derived.assignment.live_range);
    CHECK(peak_part(os.str()) == peak_part(read_data("jax_0_11/" + name + "-live-range.txt")));
    // And the text read back is the model it was printed from.
    auto const lr = hlomem::parse_live_range(os.str());
    REQUIRE(lr.stated_peak);
    CHECK(lr.stated_peak->spaced_numbers);
    CHECK(lines_of(lr.stated_peak->stack_trace).size() == derived.assignment.live_range->stated_peak->stack_trace.size());
}

TEST_CASE("XLA's own live-range files print back byte for byte", "[stack_trace_breakdown][jax_0_11]") {
    auto const name = std::string(GENERATE("grad_plain", "grad_ckpt"));
    std::string const text = read_data("jax_0_11/" + name + "-live-range.txt");
    std::ostringstream os;
    hlomem::print_live_range(os, hlomem::parse_live_range(text));
    CHECK(os.str() == text);
}
