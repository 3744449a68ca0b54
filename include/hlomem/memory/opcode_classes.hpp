// hlomem/memory/opcode_classes.hpp: the classes of HLO opcodes that XLA's buffer rules ask about,
// each written once, by opcode name (`dynamic-update-slice`), so that every layer can ask them: the
// soundness check of a dump (memory/soundness.hpp) has only the names a dump prints, the HLO
// analyses (hlo/) and the buffer assigner (assign/) ask through hlo_opcode (hlo/opcode.hpp builds
// its tables from these functions at compile time).
//
//   is_elementwise_opcode("add")                  HloInstruction::IsOpElementwise
//   defines_no_value_opcode("get-tuple-element")  HloDataflowAnalysis::InitializeInstructionValueSets
//   may_update_in_place_opcode("scatter")         HloDataflowAnalysis::GetInPlaceInputOutputPairs
//   shares_operand_by_opcode("sort")              the users whose opcode alone lets them write over
//                                                 an operand without declared aliasing
//
// The files each follows are xla/hlo/ir/hlo_instruction.cc and
// xla/hlo/analysis/hlo_dataflow_analysis.cc (GPU's hint: xla/service/gpu/buffer_sharing.cc).
#ifndef HLOMEM_MEMORY_OPCODE_CLASSES_HPP
#define HLOMEM_MEMORY_OPCODE_CLASSES_HPP

#include <cstddef>
#include <string_view>

namespace hlomem {

namespace detail {

template <std::size_t N>
constexpr bool opcode_in(std::string_view name, std::string_view const (&names)[N]) noexcept {
    for (std::string_view n : names) {
        if (n == name) return true;
    }
    return false;
}

}  // namespace detail

/// HloInstruction::IsOpElementwise: the opcodes whose every output element is computed from the
/// operand elements at the same index. Its unary (abs ... tanh), binary (add ... stochastic-convert)
/// and ternary (select, clamp) cases, by their text names (kCos is `cosine`, kExp `exponential`,
/// kClz `count-leading-zeros`, kPopulationCount `popcnt`). An instruction adds to this
/// (HloInstruction::IsElementwiseImpl): a dynamic-update-slice is elementwise on operand 0 only,
/// a bitcast-convert that changes the bit width is not, and map and fusion decide for themselves;
/// those need the instruction (assign/fusion_hero.hpp's is_elementwise_on_operand).
constexpr bool is_elementwise_opcode(std::string_view name) noexcept {
    constexpr std::string_view names[] = {
        // unary
        "abs", "round-nearest-afz", "round-nearest-even", "ceil", "count-leading-zeros", "convert", "bitcast-convert",
        "copy", "cosine", "erf", "exponential", "exponential-minus-one", "floor", "imag", "is-finite", "log",
        "log-plus-one", "not", "negate", "popcnt", "real", "reduce-precision", "rsqrt", "logistic", "sign", "sine",
        "sqrt", "cbrt", "tan", "tanh",
        // binary
        "add", "atan2", "compare", "complex", "divide", "maximum", "minimum", "multiply", "power", "remainder",
        "subtract", "and", "or", "xor", "shift-left", "shift-right-arithmetic", "shift-right-logical",
        "stochastic-convert",
        // ternary
        "select", "clamp",
    };
    return detail::opcode_in(name, names);
}

/// HloDataflowAnalysis::InitializeInstructionValueSets: the opcodes that define no value at any
/// index of their result, whatever its shape, and only pass on values defined elsewhere:
/// get-tuple-element, bitcast (BufferAssigner runs the analysis with bitcast_defines_value false),
/// the control flow that forwards its callee's values (call, while, conditional), domain,
/// opt-barrier and add-dependency, and the async dones whose result is their start's operand
/// (copy-done, all-reduce-done). A parameter defines nothing when its computation is called as
/// control flow, which the opcode alone does not tell (hlo/value.hpp's define_values).
constexpr bool defines_no_value_opcode(std::string_view name, bool bitcast_defines_value = false) noexcept {
    if (name == "bitcast") return !bitcast_defines_value;
    constexpr std::string_view names[] = {
        "get-tuple-element", "call", "while", "conditional", "domain", "opt-barrier", "add-dependency", "copy-done",
        "all-reduce-done",
    };
    return detail::opcode_in(name, names);
}

/// HloDataflowAnalysis::GetInPlaceInputOutputPairs: the opcodes it has a rule for, so that an
/// instruction of any other opcode updates no operand in place (hlo/alias_analysis.hpp's
/// in_place_pairs gives the pairs): dynamic-update-slice and scatter (IsInPlaceOperation),
/// collective-permute(-start) with four operands, all-reduce-start, custom-call and async-start
/// through their output_to_operand_aliasing, set-dimension-size, ragged-all-to-all, and a fusion
/// through its body or its declared aliasing.
constexpr bool may_update_in_place_opcode(std::string_view name) noexcept {
    constexpr std::string_view names[] = {
        "all-reduce-start", "dynamic-update-slice", "scatter", "collective-permute", "collective-permute-start",
        "custom-call", "async-start", "set-dimension-size", "ragged-all-to-all", "fusion",
    };
    return detail::opcode_in(name, names);
}

/// The users that may write their result over an operand's buffer by their opcode alone, with no
/// output_to_operand_aliasing and no fused body to look into: dynamic-update-slice and scatter
/// (HloDataflowAnalysis::IsInPlaceOperation, and CanShareOperandBufferWithUser on operand 0), sort
/// (CanShareOperandBufferWithUser, when the operand has no other user), all-reduce-start
/// (GetInPlaceInputOutputPairs) and all-reduce (GPU's CanShareBufferHint: NCCL reduces in place).
/// Elementwise users and loop and input fusions share too (CanShareOperandBufferWithUser's last
/// rules); updates_in_place below adds them.
constexpr bool shares_operand_by_opcode(std::string_view name) noexcept {
    constexpr std::string_view names[] = {"dynamic-update-slice", "scatter", "sort", "all-reduce", "all-reduce-start"};
    return detail::opcode_in(name, names);
}

/// Whether XLA may place the result of an instruction of `opcode` (and `fusion_kind`, for a
/// fusion) in an operand's buffer without declaring output_to_operand_aliasing, as far as a dump
/// shows (it has no fused bodies): the users whose opcode alone lets them (shares_operand_by_opcode:
/// dynamic-update-slice, scatter, sort, all-reduce(-start)), elementwise users but a copy
/// (CanShareOperandBufferWithUser's IsElementwiseOnOperand; BufferAssigner never lets a copy take
/// its operand's place), and loop and input fusions (its AreTransitiveUsesElementwiseOrTuple, which
/// the dump cannot check).
constexpr bool updates_in_place(std::string_view opcode, std::string_view fusion_kind) noexcept {
    if (opcode == "fusion") return fusion_kind == "kLoop" || fusion_kind == "kInput";
    return shares_operand_by_opcode(opcode) || (is_elementwise_opcode(opcode) && opcode != "copy");
}

/// A parameter: it starts at the start of its computation, before it is listed (HloLiveRange).
constexpr bool is_parameter_opcode(std::string_view name) noexcept { return name == "parameter"; }

/// A custom call: with no output_to_operand_aliasing it may still write over an operand on a GPU
/// (the backend's CanShareBufferHint, memory/soundness.hpp's gpu_backend_hint).
constexpr bool is_custom_call_opcode(std::string_view name) noexcept { return name == "custom-call"; }

}  // namespace hlomem

#endif  // HLOMEM_MEMORY_OPCODE_CLASSES_HPP
