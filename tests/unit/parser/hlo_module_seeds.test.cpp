// The real modules: the two seed HLO dumps (001: torch_xla on GPU; 004: JAX, 16-way SPMD) and
// every module of the third-party corpus parse completely, and what the model says about them
// agrees with counts taken from the text with grep (each figure says how it was counted).
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace {

using hlomem_test::read_data;

std::string const& seed_001() {
    static std::string const text = read_data("seeds/001_a0c5460ce1af2dbe.txt");
    return text;
}
std::string const& seed_004() {
    static std::string const text = read_data("seeds/004_c00fd3afea504246.txt");
    return text;
}

/// The text of an instruction's result shape, cut from the dump without the parser: what lies
/// between "= " after the name and " <opcode>(" on the instruction's line.
template <class Module>
std::string printed_result_shape(std::string const& text, Module const& m, hlomem::instruction_id i) {
    std::size_t const line_end = text.find('\n', m.instruction(i).offset);
    std::string const line = text.substr(m.instruction(i).offset, line_end - m.instruction(i).offset);
    std::size_t const from = line.find(" = ") + 3;
    std::size_t const to = line.find(" " + std::string(m.opcode_name(i)) + "(", from);
    return line.substr(from, to - from);
}

template <class Module>
std::vector<std::string> shape_mismatches(std::string const& text, Module const& m) {
    std::vector<std::string> out;
    for (hlomem::instruction_id i = 0; i < m.instruction_count(); ++i) {
        std::string const printed = printed_result_shape(text, m, i);
        if (hlomem::to_string(m.shape_of(i)) != printed) out.push_back(std::string(m.instruction(i).name) + ": " + printed);
    }
    return out;
}

/// The corpus modules with figures counted by grep:
///   computations  grep -cE '^(ENTRY )?%?[A-Za-z_][A-Za-z0-9_.-]* .*\{$'
///   instructions  grep -cE '^\s+(ROOT )?%?[A-Za-z_][A-Za-z0-9_.-]* = '
///   entry params  lines ' parameter(N)' between '^ENTRY' and the next '^}'
struct corpus_row {
    char const* file;
    std::size_t computations, instructions, entry_parameters;
};
corpus_row const corpus_rows[] = {
    {"jaxdecomp/gpu_scheduled_spmd_jaxdecomp_jaxfft_1024_2x4_f64_fft.hlo", 6, 29, 1},
    {"jaxdecomp/gpu_scheduled_spmd_jaxdecomp_jaxfft_256_2x4_f32_ifft.hlo", 5, 26, 1},
    {"jaxdecomp/gpu_scheduled_spmd_jaxdecomp_jaxfft_512_4x4_f32_fft_16dev.hlo", 6, 29, 1},
    {"jaxdecomp/gpu_scheduled_spmd_jaxdecomp_pfft3d_customcall_1024_2x4_f32_fft.hlo", 3, 9, 1},
    {"jaxdecomp/gpu_scheduled_spmd_jaxdecomp_pfft3d_v100_256_2x2_f32_ifft_noncont.hlo", 4, 14, 1},
    {"lorrax/lorrax_apply_H_sparse.after_opt.hlo", 16, 238, 9},
    {"lorrax/lorrax_apply_H_sparse.before_opt.hlo", 8, 342, 9},
    {"lorrax/lorrax_bse_full_run_large.after_opt.hlo", 108, 2132, 8},
    {"lorrax/lorrax_conditional.after_opt.hlo", 8, 116, 8},
    {"lorrax/lorrax_conditional.before_opt.hlo", 3, 104, 8},
    {"lorrax/lorrax_cpu_broadcast_in_dim.after_opt.hlo", 2, 4, 1},
    {"lorrax/lorrax_cpu_broadcast_in_dim.before_opt.hlo", 1, 2, 1},
    {"lorrax/lorrax_cpu_true_divide.after_opt.hlo", 3, 12, 2},
    {"lorrax/lorrax_cpu_true_divide.before_opt.hlo", 1, 7, 2},
    {"lorrax/lorrax_donated_param_output_alias.after_opt.hlo", 3, 19, 1},
    {"lorrax/lorrax_donated_param_output_alias.before_opt.hlo", 4, 30, 1},
    {"lorrax/lorrax_fft_cublas_while.after_opt.hlo", 14, 158, 10},
    {"lorrax/lorrax_fft_cublas_while.before_opt.hlo", 14, 514, 10},
    {"lorrax/lorrax_iota_tiny.after_opt.hlo", 2, 2, 0},
    {"lorrax/lorrax_iota_tiny.before_opt.hlo", 1, 1, 0},
    {"lorrax/lorrax_post_kpath_customcall_tuple.after_opt.hlo", 9, 146, 6},
    {"lorrax/lorrax_post_kpath_customcall_tuple.before_opt.hlo", 17, 205, 6},
    {"lorrax/lorrax_psum_4gpu.after_opt.hlo", 3, 10, 1},
    {"lorrax/lorrax_psum_4gpu.before_opt.hlo", 2, 7, 1},
    {"lorrax/lorrax_reshard_xfirst_async_collectives.after_opt.hlo", 5, 22, 1},
    {"lorrax/lorrax_reshard_xfirst_async_collectives.before_opt.hlo", 2, 13, 1},
    {"lorrax/lorrax_scan_while_phi.after_opt.hlo", 7, 112, 3},
    {"lorrax/lorrax_scan_while_phi.before_opt.hlo", 13, 171, 3},
    {"lorrax/lorrax_scatter_while_threadlocal.after_opt.hlo", 8, 73, 3},
    {"lorrax/lorrax_scatter_while_threadlocal.before_opt.hlo", 2, 6, 3},
    {"lorrax/lorrax_svd_param_maybe_live_out.after_opt.hlo", 5, 45, 1},
    {"lorrax/lorrax_svd_param_maybe_live_out.after_sharding_propagation.hlo", 1, 27, 1},
    {"lorrax/lorrax_svd_param_maybe_live_out.before_opt.hlo", 2, 43, 1},
    {"rudrite/cpu_no_percent_rudrite_kernels_specimen_before_opt.hlo", 3, 37, 4},
    {"rudrite/cpu_scheduled_no_percent_rudrite_kernels_specimen_after_opt.hlo", 6, 41, 4},
    {"rudrite/tpu_v6e_scheduled_rudrite_kernels_attention.hlo", 4, 18, 3},
    {"rudrite/tpu_v6e_scheduled_rudrite_kernels_mlp.hlo", 6, 52, 4},
    {"rudrite/tpu_v6e_scheduled_rudrite_kernels_softmax.hlo", 5, 35, 1},
};

}  // namespace

TEST_CASE("seed 001 (torch_xla, GPU) parses completely", "[hlo][seeds]") {
    auto const m = hlomem::parse_hlo_module(seed_001(), "001");
    CHECK(m.name() == "SyncTensorsGraph.2143");
    CHECK(m.is_scheduled());
    // grep -cE '^(ENTRY )?%\S+ .*\{$'                     -> 72
    CHECK(m.computation_count() == 72);
    // grep -cE '^\s+(ROOT )?%\S+ = '                      -> 1886
    CHECK(m.instruction_count() == 1886);
    CHECK(m.entry_computation().name == "SyncTensorsGraph.2143");
    // Lines of the ENTRY computation: 124 instructions, 117 of them ' parameter(N)'.
    CHECK(m.entry_computation().instruction_count == 124);
    std::size_t operands = 0;  // the %names between each ENTRY instruction's parentheses
    for (hlomem::instruction_id i : m.entry_computation().instructions()) operands += m.operands(i).size();
    CHECK(operands == 126);
    REQUIRE(m.parameters(m.entry()).size() == 117);
    for (std::size_t n = 0; n < 117; ++n) CHECK(m.instruction(m.parameters(m.entry())[n]).parameter_number == static_cast<std::int64_t>(n));
    CHECK(m.instruction(m.parameters(m.entry())[0]).name == "p0.1.0");
    CHECK(m.instruction(m.parameters(m.entry())[116]).name == "p116.2133.0");  // grep 'parameter(116)'
    // The ROOT line of ENTRY: a 4-tuple.
    auto const root = m.entry_computation().root;
    CHECK(m.instruction(root).name == "tuple.2142.0");
    CHECK(hlomem::to_string(m.shape_of(root)) ==
          "(bf16[64,8,128]{2,1,0}, bf16[64,8,128]{2,1,0}, bf16[4233,16,8,128]{3,2,1,0}, bf16[4233,16,8,128]{3,2,1,0})");
    // entry_computation_layout on line 1 lists the same 117 parameters and result.
    REQUIRE(m.has_entry_computation_layout());
    CHECK(m.entry_layout_parameters().size() == 117);
    CHECK(m.entry_layout_result() == m.instruction(root).shape);
    CHECK(m.input_output_aliases().empty());
    CHECK(m.frontend_attributes() == R"({fingerprint_before_lhs="746371fac43886311d3a23b4da9ffcc7"})");
    // grep -c ' fusion(' -> 69 fusion instructions, each calling its computation as a fusion.
    std::size_t fusions = 0;
    for (hlomem::instruction_id i = 0; i < m.instruction_count(); ++i) {
        if (m.instruction(i).opcode != hlomem::hlo_opcode::fusion) continue;
        ++fusions;
        REQUIRE(m.calls(i).size() == 1);
        CHECK(m.calls(i)[0].kind == hlomem::call_kind::fusion);
    }
    CHECK(fusions == 69);
    // The first instruction's metadata (line 5).
    auto const* md = m.metadata(*m.find_instruction("convert.1285.1"));
    REQUIRE(md != nullptr);
    CHECK(md->op_type == "xla__cast");
    CHECK(md->source_file == "/usr/local/lib/python3.10/site-packages/torch/_ops.py");
    CHECK(md->source_line == 756);
}

TEST_CASE("seed 004 (JAX, 16-way SPMD) parses completely", "[hlo][seeds]") {
    auto const m = hlomem::parse_hlo_module(seed_004(), "004");
    CHECK(m.name() == "jit_train_step");
    CHECK(m.is_scheduled());
    CHECK(m.num_partitions() == 16);
    // grep -cE '^(ENTRY )?%\S+ .*\{$'                     -> 569
    CHECK(m.computation_count() == 569);
    // grep -cE '^\s+(ROOT )?%\S+ = '                      -> 9917
    CHECK(m.instruction_count() == 9917);
    CHECK(m.entry_computation().name == "main.5687_spmd");
    // ENTRY: 888 instruction lines, 76 of them ' parameter(N)'; ROOT %tuple.669 has 79 elements.
    CHECK(m.entry_computation().instruction_count == 888);
    CHECK(m.parameters(m.entry()).size() == 76);
    auto const& result = m.shape_of(m.entry_computation().root);
    REQUIRE(result.is_tuple());
    CHECK(result.tuple_shapes_size() == 79);
    CHECK(hlomem::to_string(result.tuple_shape(78)) == "s32[]");
    CHECK(m.instruction(m.entry_computation().root).name == "tuple.669");

    // head -1 | grep -oE '\{[0-9]+\}: \([0-9]+, \{\}, may-alias\)' | wc -l  -> 72, {i}: (i, {}, may-alias)
    auto const& aliases = m.input_output_aliases();
    REQUIRE(aliases.size() == 72);
    for (std::size_t i = 0; i < aliases.size(); ++i) {
        CHECK(aliases[i].output_index == hlomem::shape_index{static_cast<std::int64_t>(i)});
        CHECK(aliases[i].parameter_number == static_cast<std::int64_t>(i));
        CHECK(aliases[i].parameter_index.empty());
        CHECK(aliases[i].kind == hlomem::alias_kind::may_alias);
    }
}

TEST_CASE("seed 004: the two while loops, their bodies and conditions", "[hlo][seeds]") {
    auto const m = hlomem::parse_hlo_module<hlomem::view_policy>(seed_004(), "004");
    // grep -n ' while(' -> %while.74 and %while.75, both in ENTRY, with these condition= and body=;
    // their result tuples have 44 and 55 elements (top-level commas of the shape, plus one).
    struct expected_loop {
        char const* name;
        char const* condition;
        char const* body;
        std::size_t tuple_elements;
    };
    expected_loop const loops[] = {
        {"while.74", "region_18.1706.clone.clone.clone.clone_spmd.clone.clone.clone.clone.clone.clone.clone",
         "region_0.1585.sunk.clone.sunk.clone.clone.clone.clone_spmd.clone.clone.clone.clone.clone.clone.clone", 44},
        {"while.75", "region_97.4035_spmd", "region_30.3928_spmd", 55},
    };
    std::vector<std::string> found;
    for (hlomem::instruction_id i = 0; i < m.instruction_count(); ++i) {
        if (m.instruction(i).opcode == hlomem::hlo_opcode::while_) found.emplace_back(m.instruction(i).name);
    }
    CHECK(found == std::vector<std::string>{"while.74", "while.75"});
    for (auto const& loop : loops) {
        CAPTURE(loop.name);
        auto const w = *m.find_instruction(loop.name);
        CHECK(m.instruction(w).computation == m.entry());
        REQUIRE(m.calls(w).size() == 2);
        CHECK(m.calls(w)[0].kind == hlomem::call_kind::while_condition);
        CHECK(m.computation(m.calls(w)[0].callee).name == loop.condition);
        CHECK(m.calls(w)[1].kind == hlomem::call_kind::while_body);
        CHECK(m.computation(m.calls(w)[1].callee).name == loop.body);
        // The body and the condition are called by this while only, and take its tuple.
        for (auto const& call : m.calls(w)) {
            REQUIRE(m.callers(call.callee).size() == 1);
            CHECK(m.callers(call.callee)[0].caller == w);
            REQUIRE(m.parameters(call.callee).size() == 1);
            CHECK(m.instruction(m.parameters(call.callee)[0]).shape == m.instruction(w).shape);
        }
        CHECK(m.shape_of(w).tuple_shapes_size() == loop.tuple_elements);
        CHECK(m.shape_of(m.computation(m.calls(w)[0].callee).root).element_type() == hlomem::primitive_type::pred);
        CHECK(m.attribute(w, "backend_config").has_value());
    }
}

TEST_CASE("seed 004: every asynchronous start has its done", "[hlo][seeds]") {
    auto const m = hlomem::parse_hlo_module(seed_004(), "004");
    // grep -oE ' (async|all-gather|all-reduce|collective-permute)-(start|done)\(' | sort | uniq -c
    std::map<std::string, int> const expected{{"async-start", 18},         {"async-done", 18},
                                              {"all-gather-start", 4},     {"all-gather-done", 4},
                                              {"all-reduce-start", 11},    {"all-reduce-done", 11},
                                              {"collective-permute-start", 11}, {"collective-permute-done", 11}};
    std::map<std::string, int> counted;
    std::size_t pairs = 0;
    for (hlomem::instruction_id i = 0; i < m.instruction_count(); ++i) {
        auto const op = m.instruction(i).opcode;
        if (hlomem::is_async_start(op) || hlomem::is_async_done(op)) ++counted[std::string(m.opcode_name(i))];
        if (!hlomem::is_async_done(op)) continue;
        CAPTURE(m.instruction(i).name);
        auto const start = m.async_start_of(i);
        REQUIRE(start != hlomem::no_instruction);
        CHECK(m.instruction(start).opcode == *hlomem::async_start_opcode_of(op));
        CHECK(m.instruction(start).computation == m.instruction(i).computation);
        CHECK(m.async_done_of(start) == i);
        ++pairs;
    }
    CHECK(counted == expected);
    CHECK(pairs == 44);
    // Each async-start calls its wrapped computation (calls=%async_computation...), e.g.
    // %all-to-all-start.15 calls %async_computation.16.
    auto const a2a = *m.find_instruction("all-to-all-start.15");
    REQUIRE(m.calls(a2a).size() == 1);
    CHECK(m.calls(a2a)[0].kind == hlomem::call_kind::async);
    CHECK(m.computation(m.calls(a2a)[0].callee).name == "async_computation.16");
}

TEST_CASE("every instruction's result shape prints back as the dump wrote it", "[hlo][seeds]") {
    std::vector<std::string> files{"seeds/001_a0c5460ce1af2dbe.txt", "seeds/004_c00fd3afea504246.txt"};
    for (auto const& row : corpus_rows) files.push_back(std::string("corpus/") + row.file);
    auto const file = GENERATE_COPY(from_range(files));
    CAPTURE(file);
    std::string const text = read_data(file);
    auto const m = hlomem::parse_hlo_module<hlomem::view_policy>(text, file);
    REQUIRE(m.instruction_count() > 0);
    CHECK(shape_mismatches(text, m).empty());
}

TEST_CASE("every module of the corpus parses", "[hlo][corpus]") {
    auto const r = GENERATE(from_range(std::begin(corpus_rows), std::end(corpus_rows)));
    CAPTURE(r.file);
    std::string const text = read_data(std::string("corpus/") + r.file);
    auto const parsed = hlomem::try_parse_hlo_module<hlomem::view_policy>(text, r.file);
    if (!parsed) FAIL(parsed.error().to_string());
    CHECK(parsed->computation_count() == r.computations);
    CHECK(parsed->instruction_count() == r.instructions);
    CHECK(parsed->parameters(parsed->entry()).size() == r.entry_parameters);
}

TEST_CASE("corpus: aliasing, conditionals and TPU layouts", "[hlo][corpus]") {
    // lorrax_donated_param_output_alias: `input_output_alias={ {}: (0, {}, may-alias) }` on line 1.
    auto const donated_text = read_data("corpus/lorrax/lorrax_donated_param_output_alias.after_opt.hlo");
    auto const donated = hlomem::parse_hlo_module(donated_text);
    REQUIRE(donated.input_output_aliases().size() == 1);
    CHECK(donated.input_output_aliases()[0].output_index.empty());
    CHECK(donated.input_output_aliases()[0].parameter_number == 0);

    // lorrax_conditional: branch_computations={%region_0.53_spmd, %region_1.78_spmd}.
    auto const cond_text = read_data("corpus/lorrax/lorrax_conditional.after_opt.hlo");
    auto const cond = hlomem::parse_hlo_module(cond_text);
    std::vector<std::string> branches;
    for (auto const& c : cond.computations()) {
        for (auto const& call : cond.callers(static_cast<hlomem::computation_id>(&c - cond.computations().data()))) {
            if (call.kind == hlomem::call_kind::conditional_branch) branches.emplace_back(c.name);
        }
    }
    CHECK(branches == std::vector<std::string>{"region_0.53_spmd", "region_1.78_spmd"});

    // rudrite TPU mlp: tiled layouts on line 1's entry_computation_layout.
    auto const tpu_text = read_data("corpus/rudrite/tpu_v6e_scheduled_rudrite_kernels_mlp.hlo");
    auto const tpu = hlomem::parse_hlo_module(tpu_text);
    REQUIRE(tpu.entry_layout_parameters().size() == 4);
    CHECK(hlomem::to_string(tpu.shape(tpu.entry_layout_parameters()[2])) == "bf16[2048]{0:T(1024)(128)(2,1)}");
    CHECK(hlomem::array_size(tpu.shape(tpu.entry_layout_parameters()[0])) == 256 * 512 * 2);

    // jaxdecomp pfft3d: the custom call aliases its output with operand 0.
    auto const pfft_text = read_data("corpus/jaxdecomp/gpu_scheduled_spmd_jaxdecomp_pfft3d_customcall_1024_2x4_f32_fft.hlo");
    auto const pfft = hlomem::parse_hlo_module(pfft_text);
    auto const cc = *pfft.find_instruction("custom-call.4.0");
    CHECK(pfft.instruction(cc).custom_call_target == "pfft3d");
    REQUIRE(pfft.output_to_operand_aliasing(cc).size() == 1);
    CHECK(pfft.output_to_operand_aliasing(cc)[0].output_index.empty());
    CHECK(pfft.output_to_operand_aliasing(cc)[0].operand_number == 0);
    CHECK(pfft.num_partitions() == 8);
}
