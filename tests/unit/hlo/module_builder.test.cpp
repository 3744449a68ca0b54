// The module builder (hlo/module_builder.hpp) driven by hand: a while loop built event by event
// gives the model the parser gives for the same text, operands, users and callers resolve as
// XLA's HloParser and CallGraph resolve them, the liveness derived from both is the same, and
// what the builder refuses it refuses with the location it was given.
#include <hlomem/hlomem.hpp>

#include "test_data.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace {

using hlomem::call_kind;
using hlomem::hlo_call;
using hlomem::hlo_opcode;
using hlomem::instruction_id;

/// One instruction: `[ROOT] name = shape opcode(operands...)`, left open for its attributes.
void begin(hlomem::hlo_module_builder& b, std::string_view name, std::string_view shape, std::string_view opcode,
           std::initializer_list<std::string_view> operands = {}, bool is_root = false) {
    b.begin_instruction(name, is_root);
    b.set_shape(hlomem::parse_shape(shape));
    b.set_opcode(opcode);
    for (auto o : operands) b.add_operand(o);
}

/// `name = shape parameter(number)`, `name = shape constant(literal)`, `name = shape
/// get-tuple-element(tuple), index=number`: whole instructions.
void parameter(hlomem::hlo_module_builder& b, std::string_view name, std::string_view shape, std::int64_t number) {
    begin(b, name, shape, "parameter");
    b.set_parameter_number(number);
    b.end_instruction();
}
void constant(hlomem::hlo_module_builder& b, std::string_view name, std::string_view shape, std::string_view literal) {
    begin(b, name, shape, "constant");
    b.set_literal(literal);
    b.end_instruction();
}
void element(hlomem::hlo_module_builder& b, std::string_view name, std::string_view shape, std::string_view tuple,
             std::int64_t index, bool is_root = false) {
    begin(b, name, shape, "get-tuple-element", {tuple}, is_root);
    b.set_tuple_index(index);
    b.end_instruction();
}

/// A computation header `name (parameters) -> result`.
void computation(hlomem::hlo_module_builder& b, std::string_view name, std::string_view parameter, std::string_view result,
                 bool is_entry = false) {
    b.begin_computation(name, is_entry);
    b.add_signature_parameter(b.shapes().insert(hlomem::parse_shape(parameter)));
    b.set_signature_result(b.shapes().insert(hlomem::parse_shape(result)));
}

/// tests/data/hand/liveness_while_phi.hlo, event by event.
hlomem::hlo_module build_while_phi() {
    hlomem::hlo_module_builder b;
    b.begin_module();
    b.set_name("while_phi");
    b.set_is_scheduled(true);
    b.add_entry_layout_parameter(b.shapes().insert(hlomem::parse_shape("f32[4]{0}")));
    b.set_entry_layout_result(b.shapes().insert(hlomem::parse_shape("f32[4]{0}")));

    computation(b, "cond", "(s32[], f32[4])", "pred[]");
    parameter(b, "p.c", "(s32[], f32[4]{0})", 0);
    element(b, "i.c", "s32[]", "p.c", 0);
    constant(b, "n", "s32[]", "10");
    begin(b, "lt", "pred[]", "compare", {"i.c", "n"}, true);
    b.add_attribute("direction", "LT");
    b.end_instruction();
    b.end_computation();

    computation(b, "body", "(s32[], f32[4])", "(s32[], f32[4])");
    parameter(b, "p.b", "(s32[], f32[4]{0})", 0);
    element(b, "i.b", "s32[]", "p.b", 0);
    element(b, "x.b", "f32[4]{0}", "p.b", 1);
    constant(b, "one", "s32[]", "1");
    begin(b, "next", "s32[]", "add", {"i.b", "one"});
    b.end_instruction();
    begin(b, "y", "f32[4]{0}", "multiply", {"x.b", "x.b"});
    b.end_instruction();
    begin(b, "t.b", "(s32[], f32[4]{0})", "tuple", {"next", "y"}, true);
    b.end_instruction();
    b.end_computation();

    computation(b, "main", "f32[4]", "f32[4]", true);
    parameter(b, "a", "f32[4]{0}", 0);
    constant(b, "zero", "s32[]", "0");
    begin(b, "init", "(s32[], f32[4]{0})", "tuple", {"zero", "a"});
    b.end_instruction();
    begin(b, "w", "(s32[], f32[4]{0})", "while", {"init"});
    b.add_call("condition", "cond");
    b.add_call("body", "body");
    b.end_instruction();
    element(b, "r", "f32[4]{0}", "w", 1, true);
    b.end_computation();
    return b.finish();
}

constexpr char const* small_module = R"(HloModule small, input_output_alias={ {}: (0, {}, must-alias) }

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}

ENTRY %main (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  %zero = f32[] constant(0)
  %sum = f32[] reduce(%p, %zero), dimensions={0}, to_apply=%add, metadata={op_name="jit(f)/reduce" source_line=7}
  %b = f32[8]{0} broadcast(%sum), dimensions={}, control-predecessors={%zero}
  ROOT %r = f32[8]{0} add(%p, %b)
}
)";

/// small_module, event by event: aliasing, a reducer, metadata, dimensions, a control edge.
hlomem::hlo_module build_small() {
    hlomem::hlo_module_builder b;
    b.begin_module();
    b.set_name("small");
    b.add_input_output_alias({{}, 0, {}, hlomem::alias_kind::must_alias});

    b.begin_computation("add");
    b.add_signature_parameter(b.shapes().insert(hlomem::parse_shape("f32[]")));
    b.add_signature_parameter(b.shapes().insert(hlomem::parse_shape("f32[]")));
    b.set_signature_result(b.shapes().insert(hlomem::parse_shape("f32[]")));
    parameter(b, "x", "f32[]", 0);
    parameter(b, "y", "f32[]", 1);
    begin(b, "s", "f32[]", "add", {"x", "y"}, true);
    b.end_instruction();
    b.end_computation();

    computation(b, "main", "f32[8]", "f32[8]", true);
    parameter(b, "p", "f32[8]{0}", 0);
    constant(b, "zero", "f32[]", "0");
    begin(b, "sum", "f32[]", "reduce", {"p", "zero"});
    b.add_dimension(0);
    b.add_call("to_apply", "add");
    auto& md = b.add_metadata();
    md.op_name = "jit(f)/reduce";
    md.source_line = 7;
    b.end_instruction();
    begin(b, "b", "f32[8]{0}", "broadcast", {"sum"});
    b.add_control_predecessor("zero");
    b.end_instruction();
    begin(b, "r", "f32[8]{0}", "add", {"p", "b"}, true);
    b.end_instruction();
    b.end_computation();
    return b.finish();
}

template <class Module>
std::vector<std::string> names_of(Module const& m, hlomem::list_view<instruction_id> ids) {
    std::vector<std::string> out;
    for (auto i : ids) out.emplace_back(m.instruction(i).name);
    return out;
}

std::string shape_text(hlomem::hlo_module const& m, hlomem::shape_id id) {
    return id == hlomem::no_shape ? "none" : hlomem::to_string(m.shape(id));
}

/// Everything the model says about a module, as text, shapes by their text rather than their ids
/// (interning order may differ) and instructions without their offsets in a text.
std::vector<std::string> describe(hlomem::hlo_module const& m) {
    std::vector<std::string> out;
    out.push_back("module " + m.name() + " scheduled=" + std::to_string(m.is_scheduled()) + " entry=" +
                  std::to_string(m.entry()) + " layout=" + std::to_string(m.has_entry_computation_layout()) + " -> " +
                  shape_text(m, m.entry_layout_result()));
    for (auto s : m.entry_layout_parameters()) out.push_back("  layout parameter " + shape_text(m, s));
    for (auto const& a : m.input_output_aliases()) {
        out.push_back("  alias " + hlomem::to_string(a.output_index) + " <- parameter " + std::to_string(a.parameter_number) +
                      hlomem::to_string(a.parameter_index) + " " + std::string(to_string(a.kind)));
    }
    for (hlomem::computation_id c = 0; c < m.computation_count(); ++c) {
        auto const& comp = m.computation(c);
        std::string line = "computation " + comp.name + " entry=" + std::to_string(comp.is_entry) + " root=" +
                           m.instruction(comp.root).name + " -> " + shape_text(m, m.signature_result(c)) + " params=";
        for (auto p : m.parameters(c)) line += m.instruction(p).name + ",";
        line += " signature=";
        for (auto s : m.signature_parameters(c)) line += shape_text(m, s) + ";";
        line += " callers=";
        for (auto const& call : m.callers(c)) line += m.instruction(call.caller).name + ":" + std::string(to_string(call.kind)) + ",";
        out.push_back(line);
        for (instruction_id i : comp.instructions()) {
            auto const& inst = m.instruction(i);
            std::string l = "  " + std::to_string(i) + " " + inst.name + " = " + hlomem::to_string(m.shape_of(i)) + " " +
                            std::string(m.opcode_name(i)) + " root=" + std::to_string(inst.is_root) + " param=" +
                            std::to_string(inst.parameter_number) + " index=" + std::to_string(inst.tuple_index) +
                            " literal=" + inst.literal + " operands=";
            for (auto o : m.operands(i)) l += std::to_string(o) + ",";
            l += " users=";
            for (auto u : m.users(i)) l += std::to_string(u) + ",";
            l += " calls=";
            for (auto const& call : m.calls(i)) l += std::to_string(call.callee) + ":" + std::string(to_string(call.kind)) + ",";
            for (auto const& a : m.attributes(i)) l += " " + a.name + "=" + a.value;
            l += " dimensions=";
            for (auto d : m.dimensions(i)) l += std::to_string(d) + ",";
            l += " control=";
            for (auto c : m.control_predecessors(i)) l += std::to_string(c) + ",";
            if (auto const* md = m.metadata(i)) l += " metadata=" + md->op_name + ":" + std::to_string(md->source_line);
            out.push_back(l);
        }
    }
    return out;
}

/// Each buffer's live range as "name{index}" -> "start-end".
template <class LiveRange>
std::map<std::string, std::string> ranges_of(LiveRange const& lr) {
    std::map<std::string, std::string> out;
    for (auto const& r : lr.buffer_live_ranges) out[r.name + hlomem::to_string(r.index)] = std::to_string(r.range.start) + "-" + std::to_string(r.range.end);
    return out;
}

/// The message and offset of the hlo_build_error `build` throws.
template <class Build>
std::string build_error(Build build) {
    try {
        build();
    } catch (hlomem::hlo_build_error const& e) {
        return std::to_string(e.offset()) + ": " + e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("a module built by hand resolves operands, users and callers as XLA does", "[hlo_module][builder]") {
    auto const m = build_while_phi();
    auto id = [&](std::string_view name) {
        auto i = m.find_instruction(name);
        REQUIRE(i);
        return *i;
    };

    CHECK(m.computation_count() == 3);
    CHECK(m.entry() == *m.find_computation("main"));
    CHECK(m.entry_computation().is_entry);
    CHECK(names_of(m, m.parameters(m.entry())) == std::vector<std::string>{"a"});
    CHECK(m.computation(*m.find_computation("body")).root == id("t.b"));

    // An instruction that uses one value twice lists it twice as an operand, once as a user.
    CHECK(names_of(m, m.operands(id("y"))) == std::vector<std::string>{"x.b", "x.b"});
    CHECK(names_of(m, m.users(id("x.b"))) == std::vector<std::string>{"y"});
    CHECK(names_of(m, m.users(id("p.b"))) == std::vector<std::string>{"i.b", "x.b"});
    CHECK(names_of(m, m.users(id("init"))) == std::vector<std::string>{"w"});
    CHECK(m.users(id("r")).empty());

    // The while calls its condition and body; each has the while as its one caller.
    auto const cond = *m.find_computation("cond");
    auto const body = *m.find_computation("body");
    CHECK(std::vector<hlo_call>(m.calls(id("w")).begin(), m.calls(id("w")).end()) ==
          std::vector<hlo_call>{{id("w"), cond, call_kind::while_condition}, {id("w"), body, call_kind::while_body}});
    REQUIRE(m.callers(cond).size() == 1);
    CHECK(m.callers(cond)[0] == hlo_call{id("w"), cond, call_kind::while_condition});
    REQUIRE(m.callers(body).size() == 1);
    CHECK(m.callers(body)[0].kind == call_kind::while_body);
    CHECK(m.callers(m.entry()).empty());
    CHECK(m.instruction(id("w")).opcode == hlo_opcode::while_);
}

TEST_CASE("a module built by hand is the model its text parses to, and has the same live ranges",
          "[hlo_module][builder][liveness]") {
    auto const text = hlomem_test::read_data("hand/liveness_while_phi.hlo");
    auto const parsed = hlomem::parse_hlo_module(text, "liveness_while_phi.hlo");
    auto const built = build_while_phi();
    CHECK(describe(built) == describe(parsed));

    hlomem::hlo_liveness const live_built(built);
    hlomem::hlo_liveness const live_parsed(parsed);
    CHECK(live_built.sequence() == live_parsed.sequence());
    auto const ba_built = hlomem::derive_buffer_assignment(live_built);
    auto const ba_parsed = hlomem::derive_buffer_assignment(live_parsed);
    auto const ranges = ranges_of(*ba_built.live_range);
    CHECK(ranges == ranges_of(*ba_parsed.live_range));
    CHECK(ranges == std::map<std::string, std::string>{
                        {"n{}", "5-6"},      {"lt{}", "6-7"},   {"one{}", "10-11"}, {"next{}", "11-14"}, {"y{}", "12-14"},
                        {"t.b{}", "13-14"},  {"zero{}", "1-3"}, {"a{}", "0-3"},     {"init{}", "2-3"},   {"p.c{}", "3-7"},
                        {"p.b{}", "7-9"},    {"p.c{0}", "3-7"}, {"p.c{1}", "3-7"},  {"p.b{0}", "7-11"},  {"p.b{1}", "7-12"},
                        {"w{}", "14-15"},    {"w{0}", "14-14"}, {"w{1}", "14-16"}});
    CHECK(hlomem::compute_xla_peak(ba_built).bytes == hlomem::compute_xla_peak(ba_parsed).bytes);
}

TEST_CASE("aliasing, reducers, metadata and control edges built by hand are what the text gives",
          "[hlo_module][builder]") {
    auto const parsed = hlomem::parse_hlo_module(small_module, "small.hlo");
    auto const built = build_small();
    CHECK(describe(built) == describe(parsed));
    auto const add = *built.find_computation("add");
    REQUIRE(built.callers(add).size() == 1);
    CHECK(built.callers(add)[0].kind == call_kind::to_apply);
    CHECK(names_of(built, built.control_predecessors(*built.find_instruction("b"))) == std::vector<std::string>{"zero"});
    REQUIRE(built.input_output_aliases().size() == 1);
    CHECK(built.input_output_aliases()[0].kind == hlomem::alias_kind::must_alias);
}

TEST_CASE("the builder resolves names used before their definition and refuses what XLA refuses",
          "[hlo_module][builder][errors]") {
    SECTION("an operand defined later in its computation") {
        hlomem::hlo_module_builder b;
        b.begin_module();
        b.begin_computation("main");
        begin(b, "r", "f32[]", "negate", {"p"}, true);
        b.end_instruction();
        parameter(b, "p", "f32[]", 0);
        b.end_computation();
        auto const m = b.finish();
        CHECK(m.entry_computation().is_entry);  // the last computation, without an ENTRY
        CHECK(names_of(m, m.operands(*m.find_instruction("r"))) == std::vector<std::string>{"p"});
        CHECK(names_of(m, m.users(*m.find_instruction("p"))) == std::vector<std::string>{"r"});
    }
    SECTION("an unknown operand is an error at the location it was given") {
        CHECK(build_error([] {
                  hlomem::hlo_module_builder b;
                  b.begin_module();
                  b.begin_computation("main", true);
                  parameter(b, "x", "f32[]", 0);
                  b.begin_instruction("r", true, 40);
                  b.add_operand("x", 50);
                  b.add_operand(std::string("y"), 57);  // a temporary: the builder keeps a copy
                  b.end_instruction();
                  b.end_computation();
              }) == "57: operand 'y' is not defined in computation 'main'");
    }
    SECTION("an unknown computation, a name defined twice, a missing parameter number") {
        CHECK(build_error([] {
                  hlomem::hlo_module_builder b;
                  b.begin_module();
                  b.begin_computation("main");
                  begin(b, "c", "f32[]", "call");
                  b.add_call("to_apply", "nowhere", 12);
                  b.end_instruction();
                  b.end_computation();
                  b.finish();
              }) == "12: unknown computation 'nowhere' in to_apply=");
        CHECK(build_error([] {
                  hlomem::hlo_module_builder b;
                  b.begin_module();
                  b.begin_computation("main");
                  parameter(b, "x", "f32[]", 0);
                  b.begin_instruction("x", false, 30);
              }) == "30: instruction 'x' is already defined in computation 'main'");
        CHECK(build_error([] {
                  hlomem::hlo_module_builder b;
                  b.begin_module();
                  b.begin_computation("main");
                  begin(b, "x", "f32[]", "parameter");
                  b.set_parameter_number(1, 8);
                  b.end_instruction();
                  b.end_computation();
              }) == "8: computation 'main' has parameter(1) but no parameter(0)");
        CHECK(build_error([] {
                  hlomem::hlo_module_builder b;
                  b.begin_module();
                  b.add_input_output_alias({{}, 1, {}, hlomem::alias_kind::may_alias}, 21);
                  b.begin_computation("main");
                  parameter(b, "x", "f32[]", 0);
                  b.end_computation();
                  b.finish();
              }) == "21: input_output_alias names parameter 1, but the entry computation has 1 parameter");
        CHECK(build_error([] {
                  hlomem::hlo_module_builder b;
                  b.begin_instruction("x");
              }) == "0: an instruction begins outside a computation");
    }
}
