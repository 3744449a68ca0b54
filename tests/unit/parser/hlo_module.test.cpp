// The HLO module grammar on small hand-written modules: both print styles XLA writes, wrapped
// instructions, the stack-frame tables, several modules in one text, every attribute the model
// parses structurally, raw attributes, and the exact text of every kind of error.
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace {

using hlomem::call_kind;
using hlomem::hlo_opcode;
using hlomem::instruction_id;

template <class Module>
instruction_id id_of(Module const& m, std::string_view name) {
    auto id = m.find_instruction(name);
    REQUIRE(id.has_value());
    return *id;
}

template <class Module>
std::vector<std::string> names_of(Module const& m, hlomem::list_view<instruction_id> ids) {
    std::vector<std::string> out;
    for (auto i : ids) out.emplace_back(m.instruction(i).name);
    return out;
}

template <class Module>
std::string shape_text(Module const& m, instruction_id i) {
    return hlomem::to_string(m.shape_of(i));
}

// The classic style (`%` sigils, computation signatures, operands with their shapes), as XLA's
// HloModule::ToString prints it for a scheduled module.
constexpr char const* classic_module = R"(HloModule classic_test, is_scheduled=true, entry_computation_layout={(f32[8,128]{1,0}, s32[])->(f32[8,128]{1,0}, f32[])}, input_output_alias={ {0}: (0, {}, may-alias) }, frontend_attributes={fingerprint_before_lhs="0123abcd"}

%add.clone (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %add = f32[] add(f32[] %x, f32[] %y)
}

%fused_computation (param_0: f32[8,128]) -> f32[8,128] {
  %param_0 = f32[8,128]{1,0} parameter(0)
  %constant.1 = f32[] constant(0.5)
  %broadcast.1 = f32[8,128]{1,0} broadcast(f32[] %constant.1), dimensions={}
  ROOT %multiply.1 = f32[8,128]{1,0} multiply(f32[8,128]{1,0} %param_0, f32[8,128]{1,0} %broadcast.1)
}

%cond (p: (s32[], f32[8,128])) -> pred[] {
  %p = (s32[], f32[8,128]{1,0}) parameter(0)
  %i = s32[] get-tuple-element((s32[], f32[8,128]{1,0}) %p), index=0
  %limit = s32[] constant(4)
  ROOT %lt = pred[] compare(s32[] %i, s32[] %limit), direction=LT
}

%body (p.1: (s32[], f32[8,128])) -> (s32[], f32[8,128]) {
  %p.1 = (s32[], f32[8,128]{1,0}) parameter(0)
  %i.1 = s32[] get-tuple-element((s32[], f32[8,128]{1,0}) %p.1), index=0
  %one = s32[] constant(1)
  %next = s32[] add(s32[] %i.1, s32[] %one)
  %v = f32[8,128]{1,0} get-tuple-element((s32[], f32[8,128]{1,0}) %p.1), index=1
  %fusion = f32[8,128]{1,0} fusion(f32[8,128]{1,0} %v), kind=kLoop, calls=%fused_computation, metadata={op_type="mul" op_name="jit(f)/mul" source_file="/tmp/f.py" source_line=12}
  ROOT %t = (s32[], f32[8,128]{1,0}) tuple(s32[] %next, f32[8,128]{1,0} %fusion)
}

ENTRY %main (a: f32[8,128], n: s32[]) -> (f32[8,128], f32[]) {
  %a = f32[8,128]{1,0} parameter(0), sharding={devices=[2,1]0,1}
  %n = s32[] parameter(1)
  %zero = s32[] constant(0)
  %init = (s32[], f32[8,128]{1,0}) tuple(s32[] %zero, f32[8,128]{1,0} %a)
  %loop = (s32[], f32[8,128]{1,0}) while((s32[], f32[8,128]{1,0}) %init), condition=%cond, body=%body, backend_config={"known_trip_count":{"n":"4"},"note":"a } and a \" in a string"}
  %result = f32[8,128]{1,0} get-tuple-element((s32[], f32[8,128]{1,0}) %loop), index=1
  %sliced = f32[4,128]{1,0} slice(f32[8,128]{1,0} %result), slice={[0:8:2], [0:128]}
  %init.sum = f32[] constant(0)
  %sum = f32[] reduce(f32[4,128]{1,0} %sliced, f32[] %init.sum), dimensions={0,1}, to_apply=%add.clone
  %ag-start = (f32[4,128]{1,0}, f32[8,128]{1,0}) all-gather-start(f32[4,128]{1,0} %sliced), channel_id=1, replica_groups={{0,1}}, dimensions={0}, use_global_device_ids=true
  %ag-done = f32[8,128]{1,0} all-gather-done((f32[4,128]{1,0}, f32[8,128]{1,0}) %ag-start), control-predecessors={%sum}
  ROOT %out = (f32[8,128]{1,0}, f32[]) tuple(f32[8,128]{1,0} %ag-done, f32[] %sum)
}

)";

// The short style newer XLA prints: no `%`, headers without signature, operands without
// shapes, and `} // name` after computations of more than five instructions.
constexpr char const* short_module = R"(HloModule short_test, entry_computation_layout={(f32[4]{0})->f32[]}

region_0.1 {
  Arg_0 = f32[] parameter(0)
  Arg_1 = f32[] parameter(1)
  ROOT maximum = f32[] maximum(Arg_0, Arg_1)
}

fused_computation {
  param_0 = f32[4]{0} parameter(0)
  constant.1 = f32[] constant(-inf)
  broadcast = f32[4]{0} broadcast(constant.1), dimensions={}
  maximum.1 = f32[4]{0} maximum(param_0, broadcast)
  negate = f32[4]{0} negate(maximum.1)
  ROOT exponential = f32[4]{0} exponential(negate)
} // fused_computation

ENTRY main.9 {
  Arg_0.1 = f32[4]{0} parameter(0), metadata={op_name="x"}
  fusion = f32[4]{0} fusion(Arg_0.1), kind=kLoop, calls=fused_computation
  constant.2 = f32[] constant(-inf)
  ROOT reduce = f32[] reduce(fusion, constant.2), dimensions={0}, to_apply=region_0.1
}

)";

}  // namespace

TEST_CASE("the classic print style: computations, parameters, roots and operands", "[hlo][parser]") {
    auto const m = hlomem::parse_hlo_module(classic_module, "classic.hlo");
    CHECK(m.name() == "classic_test");
    CHECK(m.is_scheduled());
    REQUIRE(m.computation_count() == 5);
    CHECK(m.instruction_count() == 3 + 4 + 4 + 7 + 12);
    CHECK(m.computation(0).name == "add.clone");
    CHECK(m.entry() == 4);
    CHECK(m.entry_computation().name == "main");
    CHECK(m.entry_computation().is_entry);
    CHECK_FALSE(m.computation(0).is_entry);

    // Parameters by number, whatever the order of the text.
    auto const entry = m.entry();
    CHECK(names_of(m, m.parameters(entry)) == std::vector<std::string>{"a", "n"});
    CHECK(m.instruction(id_of(m, "n")).parameter_number == 1);
    CHECK(m.instruction(id_of(m, "zero")).parameter_number == -1);

    // The root, and the schedule: the entry's instructions in the order of the text.
    auto const root = m.entry_computation().root;
    CHECK(m.instruction(root).name == "out");
    CHECK(m.instruction(root).is_root);
    std::vector<std::string> schedule;
    for (auto i : m.entry_computation().instructions()) schedule.emplace_back(m.instruction(i).name);
    CHECK(schedule == std::vector<std::string>{"a", "n", "zero", "init", "loop", "result", "sliced", "init.sum", "sum",
                                               "ag-start", "ag-done", "out"});
    CHECK(m.entry_computation().position_of(id_of(m, "loop")) == 4);

    // Operands resolve to instructions of the same computation.
    CHECK(names_of(m, m.operands(id_of(m, "init"))) == std::vector<std::string>{"zero", "a"});
    CHECK(names_of(m, m.operands(id_of(m, "out"))) == std::vector<std::string>{"ag-done", "sum"});
    CHECK(names_of(m, m.users(id_of(m, "sliced"))) == std::vector<std::string>{"sum", "ag-start"});
    CHECK(m.instruction(id_of(m, "add")).computation == 0);

    // Shapes, with and without layouts, and the signatures of the headers.
    CHECK(shape_text(m, id_of(m, "loop")) == "(s32[], f32[8,128]{1,0})");
    CHECK(shape_text(m, id_of(m, "sum")) == "f32[]");
    REQUIRE(m.signature_parameters(entry).size() == 2);
    CHECK(hlomem::to_string(m.shape(m.signature_parameters(entry)[0])) == "f32[8,128]");
    CHECK(hlomem::to_string(m.shape(m.signature_result(entry))) == "(f32[8,128], f32[])");
    // Equal shapes are one entry of the shape table.
    CHECK(m.instruction(id_of(m, "a")).shape == m.instruction(id_of(m, "result")).shape);
}

TEST_CASE("the classic print style: attributes the model parses", "[hlo][parser]") {
    auto const m = hlomem::parse_hlo_module(classic_module, "classic.hlo");

    auto const loop = id_of(m, "loop");
    CHECK(m.instruction(loop).opcode == hlo_opcode::while_);
    REQUIRE(m.calls(loop).size() == 2);
    CHECK(m.calls(loop)[0].kind == call_kind::while_condition);
    CHECK(m.computation(m.calls(loop)[0].callee).name == "cond");
    CHECK(m.calls(loop)[1].kind == call_kind::while_body);
    CHECK(m.computation(m.calls(loop)[1].callee).name == "body");

    auto const fusion = id_of(m, "fusion");
    CHECK(m.instruction(fusion).fusion == hlomem::fusion_kind::loop);
    REQUIRE(m.calls(fusion).size() == 1);
    CHECK(m.calls(fusion)[0].kind == call_kind::fusion);
    CHECK(m.computation(m.calls(fusion)[0].callee).name == "fused_computation");
    auto const* md = m.metadata(fusion);
    REQUIRE(md != nullptr);
    CHECK(md->op_type == "mul");
    CHECK(md->op_name == "jit(f)/mul");
    CHECK(md->source_file == "/tmp/f.py");
    CHECK(md->source_line == 12);
    CHECK(m.metadata(loop) == nullptr);

    auto const sum = id_of(m, "sum");
    CHECK(std::vector<std::int64_t>(m.dimensions(sum).begin(), m.dimensions(sum).end()) ==
          std::vector<std::int64_t>{0, 1});
    REQUIRE(m.calls(sum).size() == 1);
    CHECK(m.calls(sum)[0].kind == call_kind::to_apply);
    CHECK(m.computation(m.calls(sum)[0].callee).name == "add.clone");

    CHECK(m.instruction(id_of(m, "i")).tuple_index == 0);
    CHECK(m.instruction(id_of(m, "result")).tuple_index == 1);
    auto const sliced = id_of(m, "sliced");
    REQUIRE(m.slices(sliced).size() == 2);
    CHECK(m.slices(sliced)[0] == hlomem::hlo_slice{0, 8, 2});
    CHECK(m.slices(sliced)[1] == hlomem::hlo_slice{0, 128, 1});
    CHECK(names_of(m, m.control_predecessors(id_of(m, "ag-done"))) == std::vector<std::string>{"sum"});

    // Constants keep their payload as text.
    CHECK(m.instruction(id_of(m, "constant.1")).literal == "0.5");
    CHECK(m.instruction(id_of(m, "limit")).literal == "4");

    // Everything else is raw, balanced text; a '}' and an escaped quote inside a string do not end it.
    CHECK(m.attribute(loop, "backend_config") ==
          std::string_view(R"({"known_trip_count":{"n":"4"},"note":"a } and a \" in a string"})"));
    CHECK(m.attribute(id_of(m, "a"), "sharding") == std::string_view("{devices=[2,1]0,1}"));
    CHECK(m.attribute(id_of(m, "lt"), "direction") == std::string_view("LT"));
    auto const ag = id_of(m, "ag-start");
    REQUIRE(m.attributes(ag).size() == 3);
    CHECK(m.attributes(ag)[1].name == "replica_groups");
    CHECK(m.attributes(ag)[1].value == "{{0,1}}");
    CHECK(std::vector<std::int64_t>(m.dimensions(ag).begin(), m.dimensions(ag).end()) == std::vector<std::int64_t>{0});
    CHECK_FALSE(m.attribute(ag, "metadata").has_value());
}

TEST_CASE("the call graph: callers of each computation and how they call it", "[hlo][parser]") {
    auto const m = hlomem::parse_hlo_module(classic_module, "classic.hlo");
    auto callers_of = [&](std::string_view computation) {
        std::vector<std::pair<std::string, call_kind>> out;
        for (auto const& c : m.callers(*m.find_computation(computation))) {
            out.emplace_back(std::string(m.instruction(c.caller).name), c.kind);
        }
        return out;
    };
    using v = std::vector<std::pair<std::string, call_kind>>;
    CHECK(callers_of("add.clone") == v{{"sum", call_kind::to_apply}});
    CHECK(callers_of("fused_computation") == v{{"fusion", call_kind::fusion}});
    CHECK(callers_of("cond") == v{{"loop", call_kind::while_condition}});
    CHECK(callers_of("body") == v{{"loop", call_kind::while_body}});
    CHECK(callers_of("main").empty());
    CHECK_FALSE(m.find_computation("nowhere").has_value());
    CHECK(hlomem::is_control_flow(call_kind::while_body));
    CHECK_FALSE(hlomem::is_control_flow(call_kind::fusion));
}

TEST_CASE("the module header: aliasing, layouts and raw attributes", "[hlo][parser]") {
    auto const m = hlomem::parse_hlo_module(classic_module, "classic.hlo");
    REQUIRE(m.has_entry_computation_layout());
    REQUIRE(m.entry_layout_parameters().size() == 2);
    CHECK(hlomem::to_string(m.shape(m.entry_layout_parameters()[0])) == "f32[8,128]{1,0}");
    CHECK(hlomem::to_string(m.shape(m.entry_layout_parameters()[1])) == "s32[]");
    CHECK(hlomem::to_string(m.shape(m.entry_layout_result())) == "(f32[8,128]{1,0}, f32[])");
    REQUIRE(m.input_output_aliases().size() == 1);
    CHECK(m.input_output_aliases()[0].output_index == hlomem::shape_index{0});
    CHECK(m.input_output_aliases()[0].parameter_number == 0);
    CHECK(m.input_output_aliases()[0].parameter_index == hlomem::shape_index{});
    CHECK(m.input_output_aliases()[0].kind == hlomem::alias_kind::may_alias);
    CHECK(m.frontend_attributes() == R"({fingerprint_before_lhs="0123abcd"})");
    CHECK(m.num_partitions() == 1);
    CHECK(m.replica_count() == 1);

    auto const h = hlomem::parse_hlo_module(R"(HloModule header_test, input_output_alias={ {0}: (1, {2}, must-alias), {1}: (0, {}) }, buffer_donor={ (0, {}), (1, {1}) }, alias_passthrough_params=true, allow_spmd_sharding_propagation_to_output={true,false}, replica_count=2, num_partitions=8

ENTRY %e (p0: f32[], p1: (f32[], f32[], f32[])) -> (f32[], f32[]) {
  %p0 = f32[] parameter(0)
  %p1 = (f32[], f32[], f32[]) parameter(1)
  ROOT %t = (f32[], f32[]) tuple(%p0, %p0)
}
)");
    CHECK_FALSE(h.has_entry_computation_layout());
    CHECK(h.entry_layout_result() == hlomem::no_shape);
    REQUIRE(h.input_output_aliases().size() == 2);
    CHECK(h.input_output_aliases()[0].parameter_number == 1);
    CHECK(h.input_output_aliases()[0].parameter_index == hlomem::shape_index{2});
    CHECK(h.input_output_aliases()[0].kind == hlomem::alias_kind::must_alias);
    CHECK(h.input_output_aliases()[1].output_index == hlomem::shape_index{1});
    CHECK(h.input_output_aliases()[1].kind == hlomem::alias_kind::may_alias);
    REQUIRE(h.buffer_donors().size() == 2);
    CHECK(h.buffer_donors()[1].parameter_number == 1);
    CHECK(h.buffer_donors()[1].parameter_index == hlomem::shape_index{1});
    CHECK(h.replica_count() == 2);
    CHECK(h.num_partitions() == 8);
    REQUIRE(h.attributes().size() == 2);
    CHECK(h.attributes()[0].name == "alias_passthrough_params");
    CHECK(h.attributes()[0].value == "true");
    CHECK(h.attributes()[1].value == "{true,false}");
    CHECK(h.frontend_attributes().empty());
    CHECK_FALSE(h.is_scheduled());
}

TEST_CASE("the short print style: no '%', no signatures, operands without shapes, '} // name'", "[hlo][parser]") {
    auto const m = hlomem::parse_hlo_module(short_module, "short.hlo");
    REQUIRE(m.computation_count() == 3);
    CHECK(m.instruction_count() == 3 + 6 + 4);
    CHECK(m.computation(1).name == "fused_computation");
    CHECK(m.entry_computation().name == "main.9");
    CHECK(m.signature_parameters(0).empty());
    CHECK(m.signature_result(0) == hlomem::no_shape);
    auto const reduce = id_of(m, "reduce");
    CHECK(names_of(m, m.operands(reduce)) == std::vector<std::string>{"fusion", "constant.2"});
    REQUIRE(m.calls(reduce).size() == 1);
    CHECK(m.computation(m.calls(reduce)[0].callee).name == "region_0.1");
    auto const fusion = id_of(m, "fusion");
    CHECK(m.computation(m.calls(fusion)[0].callee).name == "fused_computation");
    CHECK(m.instruction(id_of(m, "constant.1")).literal == "-inf");
    CHECK(m.metadata(id_of(m, "Arg_0.1"))->op_name == "x");
    CHECK(m.entry_computation().root == reduce);
}

TEST_CASE("instructions may wrap over several lines", "[hlo][parser]") {
    auto const m = hlomem::parse_hlo_module(R"(HloModule wrapped

ENTRY %main (a: f32[8], b: f32[8]) -> (f32[8], f32[8], f32[8]) {
  %a = f32[8]{0}
       parameter(0)
  %b = f32[8]{0} parameter(1)
  %c = f32[8]{0} add(f32[8]{0} %a,
                     f32[8]{0} %b),
       metadata={op_name="add"
                 source_line=3}
  ROOT %t = (f32[8]{0}, f32[8]{0},
             /*index=2*/f32[8]{0}) tuple(
      f32[8]{0} %a, f32[8]{0} %b,
      f32[8]{0} %c)
}
)");
    REQUIRE(m.instruction_count() == 4);
    CHECK(m.instruction(id_of(m, "a")).parameter_number == 0);
    CHECK(names_of(m, m.operands(id_of(m, "c"))) == std::vector<std::string>{"a", "b"});
    CHECK(m.metadata(id_of(m, "c"))->source_line == 3);
    CHECK(shape_text(m, id_of(m, "t")) == "(f32[8]{0}, f32[8]{0}, f32[8]{0})");
    CHECK(names_of(m, m.operands(id_of(m, "t"))) == std::vector<std::string>{"a", "b", "c"});
}

TEST_CASE("attributes after the operands: on the next line, after comments, up to the next instruction", "[hlo][parser]") {
    // The attribute list ends where no ',' follows (instruction_tail_parser); what comes next, on
    // the same line or after line ends and comments, is the next instruction or the '}'.
    auto const m = hlomem::parse_hlo_module(R"(HloModule tail

ENTRY %main (a: f32[8]) -> f32[8] {
  %a = f32[8]{0} parameter(0), metadata={source_line=-3 op_name="p"} // a comment
  %b = f32[8]{0} negate(%a)
       , metadata={op_name="n" source_line=9223372036854775807	stack_frame_id=12
       } /* between */ , sharding={replicated}
  %c = f32[8]{0} negate(%b) ROOT %d = f32[8]{0} add(%b, %c), metadata={source_line=7}
}
)");
    REQUIRE(m.instruction_count() == 4);
    CHECK(m.metadata(id_of(m, "a"))->source_line == -3);
    CHECK(m.metadata(id_of(m, "a"))->op_name == "p");
    CHECK(m.metadata(id_of(m, "b"))->source_line == 9223372036854775807);
    CHECK(m.metadata(id_of(m, "b"))->stack_frame_id == 12);
    CHECK(m.metadata(id_of(m, "c")) == nullptr);
    CHECK(m.metadata(id_of(m, "d"))->source_line == 7);
    CHECK(names_of(m, m.operands(id_of(m, "d"))) == std::vector<std::string>{"b", "c"});
    CHECK(m.entry_computation().root == id_of(m, "d"));
}

TEST_CASE("CRLF line ends and tabs parse like LF and blanks", "[hlo][parser]") {
    std::string text = "HloModule crlf\r\n\r\nENTRY %main {\r\n\t%p = f32[2]{0} parameter(0)\r\n\tROOT %n = f32[2]{0} negate(%p)\r\n}\r\n";
    auto const m = hlomem::parse_hlo_module(text);
    CHECK(m.instruction_count() == 2);
    CHECK(names_of(m, m.operands(1)) == std::vector<std::string>{"p"});
}

TEST_CASE("the FileNames / FunctionNames / FileLocations / StackFrames tables", "[hlo][parser]") {
    // What HloModule::PrintStackFrameIndex writes between the header and the first computation,
    // each parent_frame_id one higher than the proto's (`frame.parent_frame_id() + 1`): frame 1
    // is outermost (printed 1, parent 0), frame 2 is called from frame 1 (printed 2).
    auto const m = hlomem::parse_hlo_module(R"(HloModule jit_f, entry_computation_layout={(f32[4]{0})->f32[4]{0}}

FileNames
1 "/home/user/model.py"
2 "/usr/lib/python3/site-packages/jax/_src/api.py"

FunctionNames
1 "f"
2 "<module>"

FileLocations
1 {file_name_id=1 function_name_id=1 line=12 end_line=12 column=8 end_column=20}
2 {file_name_id=1 function_name_id=2 line=30 end_line=31 column=0 end_column=14}

StackFrames
1 {file_location_id=2 parent_frame_id=1}
2 {file_location_id=1 parent_frame_id=2}


ENTRY %main.4 (Arg_0.1: f32[4]) -> f32[4] {
  %Arg_0.1 = f32[4]{0} parameter(0), metadata={op_name="x"}
  ROOT %sine.2 = f32[4]{0} sine(f32[4]{0} %Arg_0.1), metadata={op_name="jit(f)/jit(main)/sin" source_file="/home/user/model.py" source_line=12 stack_frame_id=2}
}

)");
    auto const& index = m.stack_frame_index();
    REQUIRE(index.file_names.size() == 2);
    CHECK(index.file_names[1] == "/usr/lib/python3/site-packages/jax/_src/api.py");
    REQUIRE(index.function_names.size() == 2);
    CHECK(index.function_names[1] == "<module>");
    REQUIRE(index.file_locations.size() == 2);
    CHECK(index.file_locations[1].function_name_id == 2);
    CHECK(index.file_locations[1].line == 30);
    CHECK(index.file_locations[1].end_line == 31);
    CHECK(index.file_locations[1].end_column == 14);
    REQUIRE(index.stack_frames.size() == 2);
    CHECK(index.stack_frames[0].parent_frame_id == 0);
    CHECK(index.stack_frames[1].file_location_id == 1);
    CHECK(index.stack_frames[1].parent_frame_id == 1);
    auto const* md = m.metadata(m.entry_computation().root);
    REQUIRE(md != nullptr);
    CHECK(md->stack_frame_id == 2);
    CHECK(m.instruction_count() == 2);

    auto const plain = hlomem::parse_hlo_module(short_module);
    CHECK(plain.stack_frame_index().empty());
}

TEST_CASE("several modules in one text", "[hlo][parser]") {
    std::string const text = std::string(short_module) + classic_module;
    auto const all = hlomem::parse_hlo_modules(text, "two.hlo");
    REQUIRE(all.size() == 2);
    CHECK(all[0].name() == "short_test");
    CHECK(all[0].instruction_count() == 13);
    CHECK(all[1].name() == "classic_test");
    CHECK(all[1].instruction_count() == 30);
    // The ids of the second module start again at 0.
    CHECK(all[1].instruction(0).name == "x");

    auto const one = hlomem::try_parse_hlo_module(text, "two.hlo");
    REQUIRE_FALSE(one);
    CHECK(one.error().to_string() ==
          "two.hlo:25:1: error: a second HloModule: this text holds 2 modules; read it with parse_hlo_modules\n"
          "HloModule classic_test, is_scheduled=true, entry_computation_layout={(f32[8,128]{1,0}, s32[])->(f32["
          "8,128]{1,0}, f32[])}, input_output_alias={ {0}: (0, {}, may-...\n"
          "^");
}

TEST_CASE("constants keep their literal payloads as text", "[hlo][parser]") {
    auto const m = hlomem::parse_hlo_module(R"(HloModule constants

ENTRY %main {
  %a = f32[3]{0} constant({1, 2, 3})
  %b = f32[2,2]{1,0} constant({ { 1, 2 }, { 3, 4 } })
  %c = f32[] constant(nan)
  %d = f32[] constant(-inf)
  %e = pred[] constant(true)
  %f = c64[] constant((0.5, 0))
  %g = c64[2]{0} constant({(4, 0), (1, -1)})
  %h = s32[1000]{0} constant({...})
  %i = (f32[], s32[]) constant((1, 2))
  ROOT %t = (f32[3]{0}, pred[]) tuple(%a, %e)
}
)");
    auto literal = [&](std::string_view name) { return std::string(m.instruction(id_of(m, name)).literal); };
    CHECK(literal("a") == "{1, 2, 3}");
    CHECK(literal("b") == "{ { 1, 2 }, { 3, 4 } }");
    CHECK(literal("c") == "nan");
    CHECK(literal("d") == "-inf");
    CHECK(literal("e") == "true");
    CHECK(literal("f") == "(0.5, 0)");
    CHECK(literal("g") == "{(4, 0), (1, -1)}");
    CHECK(literal("h") == "{...}");
    CHECK(literal("i") == "(1, 2)");
    for (auto i : m.entry_computation().instructions()) CHECK(m.operands(i).size() == (i == 9 ? 2u : 0u));
}

TEST_CASE("custom calls, output_to_operand_aliasing, conditionals, async ops and unknown opcodes", "[hlo][parser]") {
    auto const m = hlomem::parse_hlo_module(R"(HloModule misc, is_scheduled=true

%branch_0 (p0: f32[4]) -> f32[4] {
  ROOT %p0 = f32[4]{0} parameter(0)
}

%branch_1 (p1: f32[4]) -> f32[4] {
  %p1 = f32[4]{0} parameter(0)
  ROOT %neg = f32[4]{0} negate(f32[4]{0} %p1)
}

%async_computation (param_0: f32[4]) -> f32[4] {
  %param_0 = f32[4]{0} parameter(0)
  ROOT %all-to-all = f32[4]{0} all-to-all(f32[4]{0} %param_0), channel_id=3, replica_groups={{0,1}}, dimensions={0}
}

ENTRY %main (x: f32[4], k: s32[]) -> (f32[4], s8[64]) {
  %x = f32[4]{0} parameter(0)
  %k = s32[] parameter(1)
  %cc = (f32[4]{0}, s8[64]{0}) custom-call(f32[4]{0} %x), custom_call_target="__cublas$lt$matmul", output_to_operand_aliasing={{0}: (0, {})}, api_version=API_VERSION_STATUS_RETURNING
  %v = f32[4]{0} get-tuple-element(%cc), index=0
  %cond = f32[4]{0} conditional(s32[] %k, f32[4]{0} %v, f32[4]{0} %v), branch_computations={%branch_0, %branch_1}
  %start = ((f32[4]{0}), f32[4]{0}) async-start(f32[4]{0} %cond), calls=%async_computation
  %update = ((f32[4]{0}), f32[4]{0}) async-update(%start)
  %done = f32[4]{0} async-done(%update)
  %sugar-start = ((f32[4]{0}), f32[4]{0}) all-to-all-start(%done)
  %sugar-done = f32[4]{0} all-to-all-done(%sugar-start)
  %new = f32[4]{0} future-op(%sugar-done), new_attribute={a=[1,2] b="c"}
  ROOT %t = (f32[4]{0}, s8[64]{0}) tuple(%new, s8[64]{0} %cc.ws)
  %cc.ws = s8[64]{0} get-tuple-element(%cc), index=1
}
)");
    auto const cc = id_of(m, "cc");
    CHECK(m.instruction(cc).custom_call_target == "__cublas$lt$matmul");
    REQUIRE(m.output_to_operand_aliasing(cc).size() == 1);
    CHECK(m.output_to_operand_aliasing(cc)[0].output_index == hlomem::shape_index{0});
    CHECK(m.output_to_operand_aliasing(cc)[0].operand_number == 0);
    CHECK(m.output_to_operand_aliasing(cc)[0].operand_index == hlomem::shape_index{});
    CHECK(m.attribute(cc, "api_version") == std::string_view("API_VERSION_STATUS_RETURNING"));

    auto const cond = id_of(m, "cond");
    REQUIRE(m.calls(cond).size() == 2);
    CHECK(m.calls(cond)[0].kind == call_kind::conditional_branch);
    CHECK(m.computation(m.calls(cond)[1].callee).name == "branch_1");

    auto const start = id_of(m, "start");
    auto const done = id_of(m, "done");
    REQUIRE(m.calls(start).size() == 1);
    CHECK(m.calls(start)[0].kind == call_kind::async);
    CHECK(m.async_start_of(done) == start);
    CHECK(m.async_start_of(id_of(m, "update")) == start);
    CHECK(m.async_done_of(start) == done);
    CHECK(m.async_start_of(cc) == hlomem::no_instruction);
    CHECK(m.async_done_of(done) == hlomem::no_instruction);

    // XLA's async syntax sugar: `all-to-all-start` is an async-start; the text is kept.
    auto const sugar = id_of(m, "sugar-start");
    CHECK(m.instruction(sugar).opcode == hlo_opcode::async_start);
    CHECK(m.opcode_name(sugar) == "all-to-all-start");
    CHECK(m.async_done_of(sugar) == id_of(m, "sugar-done"));
    CHECK(m.opcode_name(done) == "async-done");

    // An opcode newer than this hlomem, with an attribute it does not know either.
    auto const fresh = id_of(m, "new");
    CHECK(m.instruction(fresh).opcode == hlo_opcode::unknown);
    CHECK(m.opcode_name(fresh) == "future-op");
    CHECK(m.attribute(fresh, "new_attribute") == std::string_view(R"({a=[1,2] b="c"})"));

    // An operand used before its definition resolves when the computation ends.
    CHECK(names_of(m, m.operands(id_of(m, "t"))) == std::vector<std::string>{"new", "cc.ws"});
    // A computation whose only instruction is its parameter.
    CHECK(m.computation(0).root == id_of(m, "p0"));
}

TEST_CASE("execution threads and signatures without parameter names", "[hlo][parser]") {
    // A computation on another thread ends with `}, execution_thread="..."`; ProgramShape prints
    // `(unknown)` for a parameter without a name, and nothing when names are not printed.
    auto const m = hlomem::parse_hlo_module(R"(HloModule threads

%host_computation ((unknown): f32[4], : s32[]) -> f32[4] {
  %p0 = f32[4]{0} parameter(0)
  %p1 = s32[] parameter(1)
  ROOT %copy = f32[4]{0} copy(f32[4]{0} %p0)
}, execution_thread="host"

ENTRY %main (x: f32[4], n: s32[]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %n = s32[] parameter(1)
  %start = ((f32[4]{0}, s32[]), f32[4]{0}, u32[]) async-start(f32[4]{0} %x, s32[] %n), async_execution_thread="host", calls=%host_computation
  ROOT %done = f32[4]{0} async-done(((f32[4]{0}, s32[]), f32[4]{0}, u32[]) %start)
}
)");
    REQUIRE(m.computation_count() == 2);
    CHECK(m.computation(0).execution_thread == "host");
    CHECK(m.computation(1).execution_thread.empty());
    REQUIRE(m.signature_parameters(0).size() == 2);
    CHECK(hlomem::to_string(m.shape(m.signature_parameters(0)[1])) == "s32[]");
    auto const start = *m.find_instruction("start");
    CHECK(m.attribute(start, "async_execution_thread") == std::string_view("\"host\""));
    REQUIRE(m.calls(start).size() == 1);
    CHECK(m.calls(start)[0].kind == call_kind::async);
    CHECK(m.callers(0).size() == 1);
}

TEST_CASE("a module without ENTRY takes its last computation as the entry, as XLA does", "[hlo][parser]") {
    auto const m = hlomem::parse_hlo_module("HloModule no_entry\n\n%a {\n  ROOT %x = f32[] parameter(0)\n}\n\n%b {\n"
                                            "  %y = f32[] parameter(0)\n  %z = f32[] negate(%y)\n}\n");
    CHECK(m.entry() == 1);
    CHECK(m.computation(1).is_entry);
    // Without ROOT, the last instruction is the root.
    CHECK(m.instruction(m.computation(1).root).name == "z");
    CHECK(m.instruction(m.computation(1).root).is_root);
}

TEST_CASE("the view policy keeps names as views into the input", "[hlo][parser]") {
    std::string const text = classic_module;
    auto const m = hlomem::parse_hlo_module<hlomem::view_policy>(text, "classic.hlo");
    auto inside = [&](std::string_view s) { return s.data() >= text.data() && s.data() + s.size() <= text.data() + text.size(); };
    for (auto const& inst : m.instructions()) CHECK(inside(inst.name));
    for (auto const& c : m.computations()) CHECK(inside(c.name));
    CHECK(inside(m.name()));
    auto const loop = *m.find_instruction("loop");
    CHECK(inside(*m.attribute(loop, "backend_config")));
    // Both policies build the same model.
    auto const owned = hlomem::parse_hlo_module(text, "classic.hlo");
    REQUIRE(owned.instruction_count() == m.instruction_count());
    for (instruction_id i = 0; i < m.instruction_count(); ++i) {
        CHECK(owned.instruction(i).name == m.instruction(i).name);
        CHECK(hlomem::to_string(owned.shape_of(i)) == hlomem::to_string(m.shape_of(i)));
        CHECK(std::vector<instruction_id>(owned.operands(i).begin(), owned.operands(i).end()) ==
              std::vector<instruction_id>(m.operands(i).begin(), m.operands(i).end()));
    }
}

TEST_CASE("opcodes convert to and from XLA's names", "[hlo][opcode]") {
    CHECK(hlomem::to_string(hlo_opcode::get_tuple_element) == "get-tuple-element");
    CHECK(hlomem::to_string(hlo_opcode::while_) == "while");
    CHECK(hlomem::to_string(hlo_opcode::count_leading_zeros) == "count-leading-zeros");
    CHECK(hlomem::to_string(hlo_opcode::unknown) == "unknown");
    CHECK(hlomem::hlo_opcode_from_string("all-reduce-start") == hlo_opcode::all_reduce_start);
    CHECK(hlomem::hlo_opcode_from_string("opt-barrier") == hlo_opcode::opt_barrier);
    CHECK_FALSE(hlomem::hlo_opcode_from_string("all-reduce-star").has_value());
    CHECK_FALSE(hlomem::hlo_opcode_from_string("").has_value());
    // Every name converts back to its enumerator.
    for (std::size_t i = 0; i < static_cast<std::size_t>(hlo_opcode::unknown); ++i) {
        auto const op = static_cast<hlo_opcode>(i);
        CHECK(hlomem::hlo_opcode_from_string(hlomem::to_string(op)) == op);
    }
    CHECK(hlomem::async_start_opcode_of(hlo_opcode::collective_permute_done) == hlo_opcode::collective_permute_start);
    CHECK(hlomem::async_start_opcode_of(hlo_opcode::send_done) == hlo_opcode::send);
    CHECK_FALSE(hlomem::async_start_opcode_of(hlo_opcode::add).has_value());
    CHECK(hlomem::is_async_start(hlo_opcode::copy_start));
    CHECK_FALSE(hlomem::is_async_done(hlo_opcode::copy_start));
}

// ---------------------------------------------------------------------------------------------
// Errors: each names file:line:column, says what is wrong and shows the line.
// ---------------------------------------------------------------------------------------------

namespace {

std::string module_error_of(std::string_view text) {
    auto r = hlomem::try_parse_hlo_module(text, "m.hlo");
    if (r) return "no error";
    return r.error().to_string();
}

}  // namespace

TEST_CASE("an undefined operand is an error at its name", "[hlo][parser][errors]") {
    CHECK(module_error_of("HloModule m\n\nENTRY %main (x: f32[]) -> f32[] {\n  %x = f32[] parameter(0)\n"
                   "  ROOT %r = f32[] add(%x, %y)\n}\n") ==
          "m.hlo:5:27: error: operand 'y' is not defined in computation 'main'\n"
          "  ROOT %r = f32[] add(%x, %y)\n"
          "                          ^");
    // Names are scoped by computation: another computation's instruction is not visible.
    CHECK(module_error_of("HloModule m\n%a {\n  ROOT %p = f32[] parameter(0)\n}\nENTRY %b {\n  ROOT %n = f32[] negate(f32[] %p)\n}\n") ==
          "m.hlo:6:32: error: operand 'p' is not defined in computation 'b'\n"
          "  ROOT %n = f32[] negate(f32[] %p)\n"
          "                               ^");
    CHECK(module_error_of("HloModule m\nENTRY %b {\n  %p = f32[] parameter(0)\n  ROOT %n = f32[] add(%p, %p), control-predecessors={%q}\n}\n") ==
          "m.hlo:4:54: error: control predecessor 'q' is not defined in computation 'b'\n"
          "  ROOT %n = f32[] add(%p, %p), control-predecessors={%q}\n"
          "                                                     ^");
    CHECK(module_error_of("HloModule m\nENTRY %b {\n  ROOT %n = f32[] negate(%n)\n}\n") ==
          "m.hlo:3:26: error: instruction 'n' uses itself as an operand\n"
          "  ROOT %n = f32[] negate(%n)\n"
          "                         ^");
}

TEST_CASE("a name defined twice is an error at the second definition", "[hlo][parser][errors]") {
    CHECK(module_error_of("HloModule m\n\nENTRY %main (x: f32[]) -> f32[] {\n  %x = f32[] parameter(0)\n"
                   "  %x = f32[] negate(%x)\n}\n") ==
          "m.hlo:5:3: error: instruction 'x' is already defined in computation 'main' (line 4)\n"
          "  %x = f32[] negate(%x)\n"
          "  ^");
    CHECK(module_error_of("HloModule m\n%c {\n  ROOT %p = f32[] parameter(0)\n}\n%c {\n  ROOT %q = f32[] parameter(0)\n}\n") ==
          "m.hlo:5:1: error: computation 'c' is already defined (line 2)\n"
          "%c {\n"
          "^");
}

TEST_CASE("a computation that calls= does not name is an error at the name", "[hlo][parser][errors]") {
    CHECK(module_error_of("HloModule m\n\nENTRY %main (x: f32[]) -> f32[] {\n  %x = f32[] parameter(0)\n"
                   "  ROOT %f = f32[] fusion(%x), kind=kLoop, calls=%nowhere\n}\n") ==
          "m.hlo:5:49: error: unknown computation 'nowhere' in calls=\n"
          "  ROOT %f = f32[] fusion(%x), kind=kLoop, calls=%nowhere\n"
          "                                                ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  %x = f32[] parameter(0)\n  ROOT %r = f32[] reduce(%x, %x), dimensions={}, to_apply=add\n}\n") ==
          "m.hlo:4:59: error: unknown computation 'add' in to_apply=\n"
          "  ROOT %r = f32[] reduce(%x, %x), dimensions={}, to_apply=add\n"
          "                                                          ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  ROOT %x = f32[] call(), to_apply=%main\n}\n") ==
          "m.hlo:3:36: error: computation 'main' calls itself\n"
          "  ROOT %x = f32[] call(), to_apply=%main\n"
          "                                   ^");
}

TEST_CASE("a malformed shape inside a module is an error at the shape", "[hlo][parser][errors]") {
    CHECK(module_error_of("HloModule m\n\nENTRY %main {\n  %x = f32[8,128]{1,1} parameter(0)\n  ROOT %f = f32[] negate(%x)\n}\n") ==
          "m.hlo:4:21: error: minor_to_major lists dimension 1 twice; it must be a permutation of 0..1\n"
          "  %x = f32[8,128]{1,1} parameter(0)\n"
          "                    ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  %x = f32[8, parameter(0)\n}\n") ==
          "m.hlo:3:15: error: expected a dimension size\n"
          "  %x = f32[8, parameter(0)\n"
          "              ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  %x = f33[8] parameter(0)\n}\n") ==
          "m.hlo:3:8: error: unknown primitive type 'f33'\n"
          "  %x = f33[8] parameter(0)\n"
          "       ^");
    // In an operand, a computation signature and the entry layout.
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  %x = f32[8] parameter(0)\n  ROOT %n = f32[8] negate(f32[8]{1} %x)\n}\n") ==
          "m.hlo:4:34: error: minor_to_major entry 1 is not a dimension of a rank-1 shape\n"
          "  ROOT %n = f32[8] negate(f32[8]{1} %x)\n"
          "                                 ^");
    CHECK(module_error_of("HloModule m\n%c (p: f32[8]{0,0}) -> f32[] {\n  ROOT %x = f32[] parameter(0)\n}\n") ==
          "m.hlo:2:14: error: layout has 2 minor_to_major entries but the shape has rank 1\n"
          "%c (p: f32[8]{0,0}) -> f32[] {\n"
          "             ^");
    CHECK(module_error_of("HloModule m, entry_computation_layout={(f32[8]{0})->f32[8,]{0}}\nENTRY %c {\n  ROOT %x = f32[] parameter(0)\n}\n") ==
          "m.hlo:1:59: error: expected a dimension size\n"
          "HloModule m, entry_computation_layout={(f32[8]{0})->f32[8,]{0}}\n"
          "                                                          ^");
    // An operand's declared shape must be its definition's (layouts aside).
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  %x = f32[8] parameter(0)\n  ROOT %n = f32[8] negate(f32[9] %x)\n}\n") ==
          "m.hlo:4:34: error: operand 'x' is declared as f32[9] but its shape is f32[8]\n"
          "  ROOT %n = f32[8] negate(f32[9] %x)\n"
          "                                 ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  %x = f32[8]{0} parameter(0)\n  ROOT %n = f32[8]{0} negate(f32[8] %x)\n}\n") ==
          "no error");
}

TEST_CASE("roots, parameters and ENTRY are checked", "[hlo][parser][errors]") {
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  ROOT %x = f32[] parameter(0)\n  ROOT %y = f32[] parameter(1)\n}\n") ==
          "m.hlo:4:3: error: a second ROOT in computation 'main': 'x' is already its root\n"
          "  ROOT %y = f32[] parameter(1)\n"
          "  ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  %x = f32[] parameter(0)\n  ROOT %y = f32[] parameter(0)\n}\n") ==
          "m.hlo:4:29: error: parameter number 0 is already used by 'x'\n"
          "  ROOT %y = f32[] parameter(0)\n"
          "                            ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  %x = f32[] parameter(0)\n  ROOT %y = f32[] parameter(2)\n}\n") ==
          "m.hlo:4:29: error: computation 'main' has parameter(2) but no parameter(1)\n"
          "  ROOT %y = f32[] parameter(2)\n"
          "                            ^");
    CHECK(module_error_of("HloModule m\nENTRY %a {\n  ROOT %x = f32[] parameter(0)\n}\nENTRY %b {\n  ROOT %y = f32[] parameter(0)\n}\n") ==
          "m.hlo:5:1: error: a second ENTRY computation: 'a' is already the entry\n"
          "ENTRY %b {\n"
          "^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n}\n") ==
          "m.hlo:2:7: error: computation 'main' has no instructions\n"
          "ENTRY %main {\n"
          "      ^");
    CHECK(module_error_of("HloModule m, input_output_alias={ {0}: (3, {}, may-alias) }\nENTRY %main {\n  ROOT %x = f32[8] parameter(0)\n}\n") ==
          "m.hlo:1:41: error: input_output_alias names parameter 3, but the entry computation has 1 parameter\n"
          "HloModule m, input_output_alias={ {0}: (3, {}, may-alias) }\n"
          "                                        ^");
    CHECK(module_error_of("HloModule m\n\nFileNames\n1 \"a.py\"\n\nFunctionNames\n2 \"f\"\n\nFileLocations\n\nStackFrames\n\n"
                   "ENTRY %main {\n  ROOT %x = f32[] parameter(0)\n}\n") ==
          "m.hlo:7:1: error: FunctionNames entry 2 is out of order: expected 1\n"
          "2 \"f\"\n"
          "^");
}

TEST_CASE("raw attribute values must be balanced, strings closed", "[hlo][parser][errors]") {
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  ROOT %x = f32[8] parameter(0), backend_config={\"a\":\"}\n}\n") ==
          "m.hlo:3:54: error: unterminated string: '\"' without a closing '\"'\n"
          "  ROOT %x = f32[8] parameter(0), backend_config={\"a\":\"}\n"
          "                                                     ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  ROOT %x = f32[8] parameter(0), sharding={devices=[2]0,1)\n}\n") ==
          "m.hlo:3:58: error: ')' does not match the '{' at column 43; expected '}'\n"
          "  ROOT %x = f32[8] parameter(0), sharding={devices=[2]0,1)\n"
          "                                                         ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  ROOT %x = f32[8] parameter(0), frontend_attributes={a=\"1\"") ==
          "m.hlo:3:54: error: '{' is never closed: expected '}' before the end of the input\n"
          "  ROOT %x = f32[8] parameter(0), frontend_attributes={a=\"1\"\n"
          "                                                     ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  ROOT %x = f32[] parameter(0) /* unterminated\n}\n") ==
          "m.hlo:3:32: error: unterminated comment: '/*' without '*/'\n"
          "  ROOT %x = f32[] parameter(0) /* unterminated\n"
          "                               ^");
}

TEST_CASE("syntax errors say what was expected", "[hlo][parser][errors]") {
    CHECK(module_error_of("") == "m.hlo:1:1: error: expected 'HloModule'\n\n^");
    CHECK(module_error_of("HloModule m\n") ==
          "m.hlo:1:12: error: expected a computation\n"
          "HloModule m\n"
          "           ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  %x f32[] parameter(0)\n}\n") ==
          "m.hlo:3:6: error: expected '='\n"
          "  %x f32[] parameter(0)\n"
          "     ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  %p = f32[] parameter(0)\n  ROOT %x = f32[] negate(%p %p)\n}\n") ==
          "m.hlo:4:29: error: expected ',' or ')'\n"
          "  ROOT %x = f32[] negate(%p %p)\n"
          "                            ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  ROOT %x = f32[] parameter(x)\n}\n") ==
          "m.hlo:3:29: error: expected a parameter number\n"
          "  ROOT %x = f32[] parameter(x)\n"
          "                            ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  ROOT %x = f32[] parameter(0),\n}\n") ==
          "m.hlo:4:1: error: expected an attribute such as metadata={...}\n"
          "}\n"
          "^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  ROOT %x = f32[] parameter(0), slice={[0:2}\n}\n") ==
          "m.hlo:3:44: error: expected ':' or ']'\n"
          "  ROOT %x = f32[] parameter(0), slice={[0:2}\n"
          "                                           ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  ROOT %x = f32[] parameter(0), metadata={op_name=\"a\" source_line=x12}\n}\n") ==
          "m.hlo:3:67: error: metadata source_line must be an integer, not 'x12'\n"
          "  ROOT %x = f32[] parameter(0), metadata={op_name=\"a\" source_line=x12}\n"
          "                                                                  ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  ROOT %x = f32[] parameter(0), metadata={source_line=12x}\n}\n") ==
          "m.hlo:3:55: error: metadata source_line must be an integer, not '12x'\n"
          "  ROOT %x = f32[] parameter(0), metadata={source_line=12x}\n"
          "                                                      ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  ROOT %x = f32[] parameter(0), metadata={source_line=-}\n}\n") ==
          "m.hlo:3:55: error: metadata source_line must be an integer, not '-'\n"
          "  ROOT %x = f32[] parameter(0), metadata={source_line=-}\n"
          "                                                      ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  ROOT %x = f32[] parameter(0), metadata={source_line=99999999999999999999}\n}\n") ==
          "m.hlo:3:55: error: metadata source_line must be an integer, not '99999999999999999999'\n"
          "  ROOT %x = f32[] parameter(0), metadata={source_line=99999999999999999999}\n"
          "                                                      ^");
    CHECK(module_error_of("HloModule m, is_scheduled=yes\nENTRY %main {\n  ROOT %x = f32[] parameter(0)\n}\n") ==
          "m.hlo:1:27: error: expected true or false\n"
          "HloModule m, is_scheduled=yes\n"
          "                          ^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  ROOT %x = f32[] parameter(0)\n}\n}\n") ==
          "m.hlo:5:1: error: expected a computation, 'HloModule' or the end of the input\n"
          "}\n"
          "^");
    CHECK(module_error_of("HloModule m\nENTRY %main {\n  %p = (f32[], f32[]) parameter(0)\n"
                   "  ROOT %x = f32[] get-tuple-element(%p), index=99999999999999999999\n}\n") ==
          "m.hlo:4:48: error: integer 99999999999999999999 does not fit in int64\n"
          "  ROOT %x = f32[] get-tuple-element(%p), index=99999999999999999999\n"
          "                                               ^");
}

TEST_CASE("deeply nested attribute values are an error, not a stack overflow", "[hlo][parser][errors]") {
    // The 257th '{' is at column 34 + 257.
    std::string const deep(100000, '{');
    auto const e = module_error_of("HloModule m\nENTRY %main {\n  ROOT %x = f32[] parameter(0), a=" + deep + "\n}\n");
    CHECK(e.rfind("m.hlo:3:291: error: nesting deeper than 256 levels\n", 0) == 0);
    std::string const deep_tuple(100000, '(');
    auto const t = module_error_of("HloModule m\nENTRY %main {\n  ROOT %x = " + deep_tuple + " parameter(0)\n}\n");
    CHECK(t.rfind("m.hlo:3:", 0) == 0);
    CHECK(t.find("error: nesting deeper than 256 levels") != std::string::npos);
}

TEST_CASE("a module cut at any byte parses or fails at a position inside the text", "[hlo][parser][errors]") {
    std::string const text = classic_module;
    std::size_t parsed = 0;
    for (std::size_t cut = 0; cut <= text.size(); ++cut) {
        std::string const part = text.substr(0, cut);
        auto const r = hlomem::try_parse_hlo_modules(part, "cut.hlo");
        if (r) {
            ++parsed;
            continue;
        }
        CAPTURE(cut, r.error().to_string());
        REQUIRE(r.error().line >= 1);
        REQUIRE(r.error().column >= 1);
        REQUIRE(r.error().column <= part.size() + 1);
        REQUIRE_FALSE(r.error().message.empty());
    }
    // Only cuts after a whole computation (and before ENTRY's) leave a complete module.
    CHECK(parsed > 0);
    CHECK(parsed < text.size() / 10);
}
