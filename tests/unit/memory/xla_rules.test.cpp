// Each XLA rule that hlomem writes once (memory/opcode_classes.hpp, memory/buffer_sharing_hints.hpp,
// memory/peak.hpp) pinned to the XLA function it follows: the cases XLA's own code lists, and real
// instructions of the bundled modules and dumps where the rule decides something.
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

using hlomem_test::read_data;

namespace {

/// The opcode names hlo/opcode.hpp knows for which `in_class` holds.
template <class InClass>
std::vector<std::string_view> known_opcodes_where(InClass in_class) {
    std::vector<std::string_view> out;
    for (std::string_view name : hlomem::detail::hlo_opcode_names) {
        if (in_class(name)) out.push_back(name);
    }
    return out;
}

/// The line of instruction `name` in a module's text, without its indentation.
std::string line_of(std::string const& module, std::string const& name) {
    auto const at = module.find("\n  %" + name + " = ");
    REQUIRE(at != std::string::npos);
    return module.substr(at + 3, module.find('\n', at + 1) - at - 3);
}

}  // namespace

TEST_CASE("opcode classes: is_elementwise_opcode is HloInstruction::IsOpElementwise", "[rules][opcode]") {
    // xla/hlo/ir/hlo_instruction.cc, HloInstruction::IsOpElementwise: 30 unary, 18 binary and 2
    // ternary opcodes, by their text names.
    std::vector<std::string_view> const xla = {
        "abs", "round-nearest-afz", "round-nearest-even", "ceil", "count-leading-zeros", "convert", "bitcast-convert",
        "copy", "cosine", "erf", "exponential", "exponential-minus-one", "floor", "imag", "is-finite", "log",
        "log-plus-one", "not", "negate", "popcnt", "real", "reduce-precision", "rsqrt", "logistic", "sign", "sine",
        "sqrt", "cbrt", "tan", "tanh",
        "add", "atan2", "compare", "complex", "divide", "maximum", "minimum", "multiply", "power", "remainder",
        "subtract", "and", "or", "xor", "shift-left", "shift-right-arithmetic", "shift-right-logical",
        "stochastic-convert",
        "select", "clamp",
    };
    REQUIRE(xla.size() == 50);
    auto listed = xla;
    std::sort(listed.begin(), listed.end());
    CHECK(known_opcodes_where([](std::string_view n) { return hlomem::is_elementwise_opcode(n); }) == listed);
    // Not elementwise: what reorders, reduces or moves elements, what defines no value, and the
    // instructions that decide for themselves (map, fusion, dynamic-update-slice on operand 0).
    for (std::string_view op : {"dot", "reduce", "transpose", "broadcast", "slice", "dynamic-slice", "dynamic-update-slice",
                                "scatter", "sort", "bitcast", "tuple", "get-tuple-element", "map", "fusion", "cos"}) {
        CAPTURE(op);
        CHECK_FALSE(hlomem::is_elementwise_opcode(op));
    }
    // The table of hlo/opcode.hpp agrees, opcode by opcode.
    for (std::size_t k = 0; k < hlomem::detail::hlo_opcode_names.size(); ++k) {
        auto const op = static_cast<hlomem::hlo_opcode>(k);
        CHECK(hlomem::is_elementwise(op) == hlomem::is_elementwise_opcode(hlomem::to_string(op)));
    }
    CHECK_FALSE(hlomem::is_elementwise(hlomem::hlo_opcode::unknown));
}

TEST_CASE("opcode classes: defines_no_value_opcode is InitializeInstructionValueSets", "[rules][opcode]") {
    // xla/hlo/analysis/hlo_dataflow_analysis.cc, InitializeInstructionValueSets: the cases that
    // define nothing (bitcast unless bitcast_defines_value).
    std::vector<std::string_view> xla = {"add-dependency", "all-reduce-done", "bitcast",     "call",
                                         "conditional",    "copy-done",       "domain",      "get-tuple-element",
                                         "opt-barrier",    "while"};
    CHECK(known_opcodes_where([](std::string_view n) { return hlomem::defines_no_value_opcode(n); }) == xla);
    CHECK_FALSE(hlomem::defines_no_value_opcode("bitcast", true));
    CHECK_FALSE(hlomem::defines_no_value(hlomem::hlo_opcode::bitcast, true));
    for (std::string_view op : {"tuple", "copy", "parameter", "all-gather-done", "collective-permute-done", "async-done",
                                "send", "recv-done", "add"}) {
        CAPTURE(op);
        CHECK_FALSE(hlomem::defines_no_value_opcode(op));
    }
    // Real modules: no value of the dataflow analysis is defined by an instruction of the class,
    // and every instruction outside it (but a parameter of a called computation, and the async and
    // tuple-forwarding dones) defines one.
    for (char const* file : {"corpus/lorrax/lorrax_scan_while_phi.after_opt.hlo", "corpus/lorrax/lorrax_conditional.after_opt.hlo"}) {
        CAPTURE(file);
        auto const m = hlomem::parse_hlo_module(read_data(file), file);
        hlomem::hlo_dataflow const df(m);
        std::vector<char> defines(m.instruction_count(), 0);
        for (auto const& v : df.values()) {
            if (!v.is_phi) defines[v.instruction] = 1;
        }
        std::size_t none = 0;
        for (hlomem::instruction_id i = 0; i < m.instruction_count(); ++i) {
            if (!hlomem::defines_no_value(m.instruction(i).opcode)) continue;
            CAPTURE(std::string(std::string_view(m.instruction(i).name)));
            CHECK_FALSE(defines[i]);
            ++none;
        }
        CHECK(none > 0);
    }
}

TEST_CASE("opcode classes: may_update_in_place_opcode is GetInPlaceInputOutputPairs' opcodes", "[rules][opcode]") {
    std::vector<std::string_view> xla = {"all-reduce-start", "async-start", "collective-permute", "collective-permute-start",
                                         "custom-call",      "dynamic-update-slice", "fusion", "ragged-all-to-all",
                                         "scatter",          "set-dimension-size"};
    CHECK(known_opcodes_where([](std::string_view n) { return hlomem::may_update_in_place_opcode(n); }) == xla);
    // Real instructions: every one with an in-place pair has an opcode of the class (the analysis
    // asks no other), and there are such pairs: the dynamic-update-slice fusion and the aliased
    // custom call of the hand-made module, the all-reduce-starts of a real one.
    std::size_t pairs = 0;
    for (char const* file : {"hand/liveness_in_place.hlo", "corpus/lorrax/lorrax_psum_4gpu.after_opt.hlo"}) {
        CAPTURE(file);
        auto const m = hlomem::parse_hlo_module(read_data(file), file);
        for (hlomem::instruction_id i = 0; i < m.instruction_count(); ++i) {
            if (hlomem::in_place_pairs(m, i).empty()) continue;
            CAPTURE(std::string(std::string_view(m.instruction(i).name)));
            CHECK(hlomem::may_update_in_place(m.instruction(i).opcode));
            ++pairs;
        }
    }
    CHECK(pairs >= 3);
}

TEST_CASE("opcode classes: what the soundness check lets update in place", "[rules][opcode]") {
    for (std::string_view op : {"dynamic-update-slice", "scatter", "sort", "all-reduce", "all-reduce-start"}) {
        CAPTURE(op);
        CHECK(hlomem::shares_operand_by_opcode(op));
        CHECK(hlomem::updates_in_place(op, ""));
    }
    // Elementwise users but a copy (BufferAssigner never lets a copy take its operand's place).
    CHECK(hlomem::updates_in_place("add", ""));
    CHECK(hlomem::updates_in_place("count-leading-zeros", ""));
    CHECK_FALSE(hlomem::updates_in_place("copy", ""));
    // Loop and input fusions (their bodies are not in a dump), not output or custom ones.
    CHECK(hlomem::updates_in_place("fusion", "kLoop"));
    CHECK(hlomem::updates_in_place("fusion", "kInput"));
    CHECK_FALSE(hlomem::updates_in_place("fusion", "kOutput"));
    CHECK_FALSE(hlomem::updates_in_place("fusion", "kCustom"));
    // No XLA rule lets these write over an operand without declared aliasing.
    for (std::string_view op : {"select-and-scatter", "dot", "reduce", "custom-call", "transpose", "cos"}) {
        CAPTURE(op);
        CHECK_FALSE(hlomem::updates_in_place(op, ""));
    }
}

TEST_CASE("GEMM beta: one reader of the JSON number, non-zero when its value is", "[rules][sharing]") {
    using v = hlomem::json_number_value;
    // JSON numbers as protobuf prints and reads a double.
    for (char const* zero : {"0", "-0", "0.0", "0e1", "0E-5", "-0.000e+10", "0}", "0,\"x\":1", "0 ", "\"0\"", "\\\"0.0\\\""}) {
        CAPTURE(zero);
        CHECK(hlomem::read_json_number(zero) == v::zero);
    }
    for (char const* nonzero : {"1", "-1.5e-3", "1E+2", "0.5", "10", "0.001e0", "1}", "\"1\"", "\"NaN\"", "\"Infinity\"",
                                "\"-Infinity\"", "\\\"1\\\""}) {
        CAPTURE(nonzero);
        CHECK(hlomem::read_json_number(nonzero) == v::nonzero);
    }
    for (char const* unreadable : {"", "-", "01", ".5", "1.", "+1", "1e", "1e+", "1x", "true", "null", "\"1", "NaN", "0x10"}) {
        CAPTURE(unreadable);
        CHECK(hlomem::read_json_number(unreadable) == v::unreadable);
    }
    // The key, in XLA's text and escaped as older XLAs printed backend configs.
    CHECK_FALSE(hlomem::gemm_beta(R"({"alpha_real":1,"dot_dimension_numbers":{}})"));
    CHECK(hlomem::gemm_beta(R"({"alpha_real":1,"beta":0e1,"x":2})") == v::zero);
    CHECK(hlomem::gemm_beta(R"({"beta": 1})") == v::nonzero);
    CHECK(hlomem::gemm_beta(R"({\"alpha_real\":1,\"beta\":1})") == v::nonzero);
    CHECK(hlomem::gemm_beta(R"({"beta":"x"})") == v::unreadable);
    // Absent and unreadable both read as 0, GemmBackendConfig's default: no sharing.
    CHECK_FALSE(hlomem::gemm_beta_nonzero(R"({"alpha_real":1})"));
    CHECK_FALSE(hlomem::gemm_beta_nonzero(R"({"beta":01})"));
    CHECK_FALSE(hlomem::gemm_beta_nonzero(R"({"beta":0e1})"));
    CHECK(hlomem::gemm_beta_nonzero(R"({"beta":-1.5e-3})"));
}

TEST_CASE("GPU hint: a cuBLASLt matmul writes over its bias when beta is not 0, in both users of the rule",
          "[rules][sharing]") {
    // xla/service/gpu/buffer_sharing.cc, CanShareBufferHint: `config.beta() != 0. &&
    // user->operand(2) == operand`, for any output index. Seed 004's cublas-lt-matmul.36
    // (`"beta":1`) writes over %copy.679; its workspace output {1} (s8[67108864]) has no declared
    // aliasing, so there the hint alone decides.
    std::string const file = "seeds/004_c00fd3afea504246.txt";
    std::string const module = read_data(file);
    std::string const with_bias = line_of(module, "cublas-lt-matmul.36");
    REQUIRE(with_bias.find("\"beta\":1,") != std::string::npos);
    CHECK(hlomem::gpu_backend_hint(with_bias, hlomem::shape_index{1}) == std::optional<std::int64_t>(2));
    CHECK_FALSE(hlomem::gpu_backend_hint(line_of(module, "cublas-lt-matmul.37"), hlomem::shape_index{0}));  // "beta":0

    auto const decides = [&](std::string const& text) {
        auto const m = hlomem::parse_hlo_module(text, file);
        hlomem::hlo_liveness const live(m, {});
        auto const matmul = m.find_instruction("cublas-lt-matmul.36");
        auto const bias = m.find_instruction("copy.679");
        REQUIRE(matmul);
        REQUIRE(bias);
        return hlomem::can_share_operand_buffer_with_user(live.alias_analysis(), *bias, {}, *matmul, {1}, true);
    };
    CHECK(decides(module));
    // `"beta":0e1` is 0: the assigner's reader once took the 1 of the exponent for a non-zero
    // digit and let the output write over the bias; the dump reader did not.
    std::string zero = module;
    zero.replace(zero.find(with_bias) + with_bias.find("\"beta\":1,"), 9, "\"beta\":0e1,");
    CHECK(hlomem::gpu_backend_hint(line_of(zero, "cublas-lt-matmul.36"), hlomem::shape_index{1}) == std::nullopt);
    CHECK_FALSE(decides(zero));
}

TEST_CASE("GPU hint: cuSOLVER's Cholesky factor over its operand; all-reduce in place", "[rules][sharing]") {
    // CanShareBufferHint: `user_index.size() == 1 && user_index[0] == 0` for the Cholesky; false for
    // every other target; an all-reduce with one operand over it, otherwise output {k} over operand k.
    std::string_view const config = "{}";
    CHECK(hlomem::gpu_custom_call_shared_operand("__cusolver$cholesky", config, hlomem::shape_index{0}) ==
          std::optional<std::int64_t>(0));
    CHECK_FALSE(hlomem::gpu_custom_call_shared_operand("__cusolver$cholesky", config, hlomem::shape_index{1}));
    CHECK_FALSE(hlomem::gpu_custom_call_shared_operand("__cusolver$cholesky", config, hlomem::shape_index{}));
    CHECK_FALSE(hlomem::gpu_custom_call_shared_operand("__cusolver$getrf", config, hlomem::shape_index{0}));
    CHECK_FALSE(hlomem::gpu_custom_call_shared_operand("__cublas$gemm", R"({"beta":1})", hlomem::shape_index{0}));
    CHECK(hlomem::gpu_all_reduce_shared_operand(1, hlomem::shape_index{}) == std::optional<std::int64_t>(0));
    CHECK(hlomem::gpu_all_reduce_shared_operand(3, hlomem::shape_index{1}) == std::optional<std::int64_t>(1));
    CHECK_FALSE(hlomem::gpu_all_reduce_shared_operand(3, hlomem::shape_index{}));
    CHECK_FALSE(hlomem::gpu_all_reduce_shared_operand(3, hlomem::shape_index{3}));
    CHECK_FALSE(hlomem::gpu_all_reduce_shared_operand(3, hlomem::shape_index{0, 1}));
    // A real one (the bundled data has no synchronous all-reduce): ritz_and_residuals'
    // custom-call.12.0 takes the bytes of the value it reads through bitcast.928.0, in XLA's dump
    // and in the prediction.
    std::string const dump = "corpus/regressions/jit__ritz_and_residuals_0dec5fcd.buffer_assignment.txt";
    auto const ba = hlomem::parse_buffer_assignment(read_data(dump), dump);
    auto const factor = ba.value_index(246);
    REQUIRE(factor != hlomem::npos);
    CHECK(hlomem::gpu_backend_hint(std::string_view(ba.values[factor].instruction_text), ba.values[factor].index) ==
          std::optional<std::int64_t>(0));
    CHECK(hlomem::legal_sharing(ba, ba.value_index(244), factor) == hlomem::sharing_reason::in_place);
}

TEST_CASE("the peak moment of a JAX 0.11 dump is XLA's, with the list it states", "[rules][peak][jax_0_11]") {
    // ComputePeakMemoryMoment weighs each value by its whole defining instruction (the cuBLAS
    // custom-calls' tuples weigh 16 bytes per element), adds before removes; the newest listing
    // sizes each value by its own shape. grad_ckpt-live-range.txt: `Live ranges at 28 (peak):`,
    // 10 values; grad_plain-live-range.txt: 25, 13 values.
    auto const [name, time, listed] = GENERATE(table<char const*, std::int64_t, std::size_t>({
        {"grad_ckpt", 28, 10},
        {"grad_plain", 25, 13},
    }));
    CAPTURE(name);
    hlomem::load_options options;
    options.find_live_range = true;
    auto const r = hlomem::load(std::string(HLOMEM_TEST_DATA_DIR) + "/jax_0_11/" + name + "-buffer-assignment.txt", options);
    REQUIRE(r);
    auto const& ba = *r->assignment();
    REQUIRE(ba.live_range);
    CHECK(hlomem::peak_rule_of(ba) == hlomem::peak_size_rule::value_subshape);
    auto const peak = hlomem::compute_xla_peak(ba);
    CHECK(peak.time == time);
    CHECK(peak.values.size() == listed);
    CHECK(hlomem::compare_stated_peak(ba, peak).empty());
    // The older listing of the same moment lists the same values, in another order and size.
    auto const older = hlomem::compute_xla_peak(ba, hlomem::peak_size_rule::instruction_shape);
    CHECK(older.time == time);
    CHECK(older.values.size() == listed);
}
