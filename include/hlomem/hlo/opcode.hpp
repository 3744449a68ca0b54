// hlomem/hlo/opcode.hpp: XLA's HLO opcodes, their text names, and the families memory analysis
// asks about (asynchronous start/done pairs, control flow).
//
// The enumerators are XLA's opcode names with '-' written '_' (`get-tuple-element` is
// `hlo_opcode::get_tuple_element`); the five that are C++ keywords take a trailing underscore
// (`and_`, `or_`, `not_`, `xor_`, `while_`). They are in the alphabetical order of their text
// names, which is not XLA's enum order: convert through the names, never through the numbers.
// The list is xla/hlo/ir/hlo_opcode.h's HLO_OPCODE_LIST (2025); an opcode that a newer XLA adds
// parses as `hlo_opcode::unknown`, and the module keeps its text.
#ifndef HLOMEM_HLO_OPCODE_HPP
#define HLOMEM_HLO_OPCODE_HPP

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>
#include <utility>

#include <hlomem/memory/opcode_classes.hpp>

namespace hlomem {

/// An HLO opcode.
enum class hlo_opcode : std::uint8_t {
    abs, acos, acosh, add, add_dependency, after_all, all_gather, all_gather_done, all_gather_start,
    all_reduce, all_reduce_done, all_reduce_start, all_to_all, and_, asin, asinh, async_done, async_start,
    async_update, atan, atan2, atanh, batch_norm_grad, batch_norm_inference, batch_norm_training, bitcast,
    bitcast_convert, broadcast, call, cbrt, ceil, cholesky, clamp, collective_broadcast,
    collective_permute, collective_permute_done, collective_permute_start, collective_reduce, compare,
    complex, concatenate, conditional, constant, convert, convolution, copy, copy_done, copy_start, cosh,
    cosine, count_leading_zeros, custom_call, divide, domain, dot, dynamic_reshape, dynamic_slice,
    dynamic_update_slice, erf, exponential, exponential_minus_one, fft, floor, fusion, gather,
    get_dimension_size, get_tuple_element, imag, infeed, iota, is_finite, log, log_plus_one, logistic, map,
    maximum, minimum, mulhi, multiply, negate, not_, opt_barrier, or_, outfeed, pad, parameter,
    partition_id, popcnt, power, ragged_all_to_all, ragged_dot, real, recv, recv_done, reduce,
    reduce_precision, reduce_scatter, reduce_window, remainder, replica_id, reshape, reverse, rng,
    rng_bit_generator, rng_get_and_update_state, round_nearest_afz, round_nearest_even, rsqrt, scaled_dot,
    scan, scatter, select, select_and_scatter, send, send_done, set_dimension_size, shift_left,
    shift_right_arithmetic, shift_right_logical, shuffle, sign, sine, sinh, slice, sort, sqrt,
    stochastic_convert, subtract, tan, tanh, topk, transpose, triangular_solve, tuple, while_, xor_,
    /// An opcode this version of hlomem does not know; basic_hlo_module::opcode_name has its text.
    unknown,
};

namespace detail {

/// Text names, indexed by enumerator, in strictly increasing byte order (checked below), so
/// that the enumerators list the opcodes alphabetically.
inline constexpr std::array<std::string_view, 136> hlo_opcode_names{{
    "abs", "acos", "acosh", "add", "add-dependency", "after-all", "all-gather", "all-gather-done",
    "all-gather-start", "all-reduce", "all-reduce-done", "all-reduce-start", "all-to-all", "and", "asin",
    "asinh", "async-done", "async-start", "async-update", "atan", "atan2", "atanh", "batch-norm-grad",
    "batch-norm-inference", "batch-norm-training", "bitcast", "bitcast-convert", "broadcast", "call",
    "cbrt", "ceil", "cholesky", "clamp", "collective-broadcast", "collective-permute",
    "collective-permute-done", "collective-permute-start", "collective-reduce", "compare", "complex",
    "concatenate", "conditional", "constant", "convert", "convolution", "copy", "copy-done", "copy-start",
    "cosh", "cosine", "count-leading-zeros", "custom-call", "divide", "domain", "dot", "dynamic-reshape",
    "dynamic-slice", "dynamic-update-slice", "erf", "exponential", "exponential-minus-one", "fft", "floor",
    "fusion", "gather", "get-dimension-size", "get-tuple-element", "imag", "infeed", "iota", "is-finite",
    "log", "log-plus-one", "logistic", "map", "maximum", "minimum", "mulhi", "multiply", "negate", "not",
    "opt-barrier", "or", "outfeed", "pad", "parameter", "partition-id", "popcnt", "power",
    "ragged-all-to-all", "ragged-dot", "real", "recv", "recv-done", "reduce", "reduce-precision",
    "reduce-scatter", "reduce-window", "remainder", "replica-id", "reshape", "reverse", "rng",
    "rng-bit-generator", "rng-get-and-update-state", "round-nearest-afz", "round-nearest-even", "rsqrt",
    "scaled-dot", "scan", "scatter", "select", "select-and-scatter", "send", "send-done",
    "set-dimension-size", "shift-left", "shift-right-arithmetic", "shift-right-logical", "shuffle", "sign",
    "sine", "sinh", "slice", "sort", "sqrt", "stochastic-convert", "subtract", "tan", "tanh", "topk",
    "transpose", "triangular-solve", "tuple", "while", "xor",
}};

constexpr bool hlo_opcode_names_are_sorted() noexcept {
    for (std::size_t i = 1; i < hlo_opcode_names.size(); ++i) {
        if (!(hlo_opcode_names[i - 1] < hlo_opcode_names[i])) return false;
    }
    return true;
}
static_assert(hlo_opcode_names_are_sorted(), "hlo_opcode_names must be sorted");
static_assert(static_cast<std::size_t>(hlo_opcode::unknown) == hlo_opcode_names.size(),
              "one name per opcode");

}  // namespace detail

/// XLA's text name: `get-tuple-element`; "unknown" for hlo_opcode::unknown.
constexpr std::string_view to_string(hlo_opcode op) noexcept {
    auto const i = static_cast<std::size_t>(op);
    return i < detail::hlo_opcode_names.size() ? detail::hlo_opcode_names[i] : std::string_view("unknown");
}

inline std::ostream& operator<<(std::ostream& os, hlo_opcode op) { return os << to_string(op); }

namespace detail {

/// FNV-1a: the hash of the opcode lookup table.
constexpr std::uint32_t hlo_opcode_hash(std::string_view s) noexcept {
    std::uint32_t h = 2166136261u;
    for (char c : s) h = (h ^ static_cast<std::uint8_t>(c)) * 16777619u;
    return h;
}

/// An open-addressing table from name hashes to opcodes (linear probing, 0xff = empty), built at
/// compile time: a lookup is one hash and usually one comparison.
inline constexpr std::size_t hlo_opcode_slots = 512;
constexpr std::array<std::uint8_t, hlo_opcode_slots> make_hlo_opcode_index() noexcept {
    std::array<std::uint8_t, hlo_opcode_slots> index{};
    for (auto& slot : index) slot = 0xff;
    for (std::size_t op = 0; op < hlo_opcode_names.size(); ++op) {
        std::size_t i = hlo_opcode_hash(hlo_opcode_names[op]) % hlo_opcode_slots;
        while (index[i] != 0xff) i = (i + 1) % hlo_opcode_slots;
        index[i] = static_cast<std::uint8_t>(op);
    }
    return index;
}
inline constexpr std::array<std::uint8_t, hlo_opcode_slots> hlo_opcode_index = make_hlo_opcode_index();

}  // namespace detail

/// The opcode whose text name is `name`, or nullopt.
constexpr std::optional<hlo_opcode> hlo_opcode_from_string(std::string_view name) noexcept {
    for (std::size_t i = detail::hlo_opcode_hash(name) % detail::hlo_opcode_slots;;
         i = (i + 1) % detail::hlo_opcode_slots) {
        std::uint8_t const op = detail::hlo_opcode_index[i];
        if (op == 0xff) return std::nullopt;
        if (detail::hlo_opcode_names[op] == name) return static_cast<hlo_opcode>(op);
    }
}
static_assert(hlo_opcode_from_string("get-tuple-element") == hlo_opcode::get_tuple_element);
static_assert(!hlo_opcode_from_string("get-tuple-elements").has_value());

namespace detail {

/// `is_in_class(name)` for every opcode, by enumerator (hlo_opcode::unknown: false), computed at
/// compile time from the classes of memory/opcode_classes.hpp, where each is written once.
template <class InClass>
constexpr std::array<bool, hlo_opcode_names.size() + 1> hlo_opcode_class(InClass is_in_class) noexcept {
    std::array<bool, hlo_opcode_names.size() + 1> table{};
    for (std::size_t op = 0; op < hlo_opcode_names.size(); ++op) table[op] = is_in_class(hlo_opcode_names[op]);
    return table;
}
inline constexpr auto elementwise_opcodes = hlo_opcode_class([](std::string_view n) { return is_elementwise_opcode(n); });
inline constexpr auto no_value_opcodes = hlo_opcode_class([](std::string_view n) { return defines_no_value_opcode(n); });
inline constexpr auto in_place_opcodes = hlo_opcode_class([](std::string_view n) { return may_update_in_place_opcode(n); });

}  // namespace detail

/// HloInstruction::IsOpElementwise (is_elementwise_opcode).
constexpr bool is_elementwise(hlo_opcode op) noexcept { return detail::elementwise_opcodes[static_cast<std::size_t>(op)]; }
static_assert(is_elementwise(hlo_opcode::add) && is_elementwise(hlo_opcode::copy) && !is_elementwise(hlo_opcode::dot));

/// An opcode that defines no value at any index (defines_no_value_opcode), a bitcast only without
/// `bitcast_defines_value`.
constexpr bool defines_no_value(hlo_opcode op, bool bitcast_defines_value = false) noexcept {
    if (op == hlo_opcode::bitcast) return !bitcast_defines_value;
    return detail::no_value_opcodes[static_cast<std::size_t>(op)];
}

/// Whether HloDataflowAnalysis::GetInPlaceInputOutputPairs has a rule for `op`
/// (may_update_in_place_opcode): every other instruction updates nothing in place.
constexpr bool may_update_in_place(hlo_opcode op) noexcept { return detail::in_place_opcodes[static_cast<std::size_t>(op)]; }

/// Opcodes that start an asynchronous operation; the matching `*-done` takes the start as its
/// operand 0 (for `async-start`, possibly through `async-update` instructions).
constexpr bool is_async_start(hlo_opcode op) noexcept {
    switch (op) {
        case hlo_opcode::async_start:
        case hlo_opcode::all_gather_start:
        case hlo_opcode::all_reduce_start:
        case hlo_opcode::collective_permute_start:
        case hlo_opcode::copy_start:
        case hlo_opcode::send:
        case hlo_opcode::recv:
            return true;
        default:
            return false;
    }
}

/// The start opcode that a done opcode finishes (`all-gather-done` → `all-gather-start`), or
/// nullopt for opcodes that are not `*-done`.
constexpr std::optional<hlo_opcode> async_start_opcode_of(hlo_opcode done) noexcept {
    switch (done) {
        case hlo_opcode::async_done: return hlo_opcode::async_start;
        case hlo_opcode::all_gather_done: return hlo_opcode::all_gather_start;
        case hlo_opcode::all_reduce_done: return hlo_opcode::all_reduce_start;
        case hlo_opcode::collective_permute_done: return hlo_opcode::collective_permute_start;
        case hlo_opcode::copy_done: return hlo_opcode::copy_start;
        case hlo_opcode::send_done: return hlo_opcode::send;
        case hlo_opcode::recv_done: return hlo_opcode::recv;
        default: return std::nullopt;
    }
}

/// Opcodes that finish an asynchronous operation.
constexpr bool is_async_done(hlo_opcode op) noexcept { return async_start_opcode_of(op).has_value(); }

/// The opcode an instruction's opcode text stands for: its own name (`all-gather-start`), or
/// XLA's asynchronous syntax sugar, `X-start`, `X-update` and `X-done` for an opcode X that has no
/// such pair of its own (`all-to-all-start` is an async-start wrapping all-to-all: HloParser's
/// ParseInstructionRhs, async wrapping of an opcode followed by -start/-update/-done); any other
/// text is hlo_opcode::unknown. The one rule for both a module's instructions
/// (hlo/module_builder.hpp) and a dump's `from instruction:` texts (hlo/origin.hpp).
constexpr hlo_opcode opcode_of_text(std::string_view text) noexcept {
    if (auto op = hlo_opcode_from_string(text)) return *op;
    constexpr std::pair<std::string_view, hlo_opcode> sugar[] = {
        {"-start", hlo_opcode::async_start}, {"-update", hlo_opcode::async_update}, {"-done", hlo_opcode::async_done}};
    for (auto const& s : sugar) {
        std::string_view const suffix = s.first;
        if (text.size() > suffix.size() && text.substr(text.size() - suffix.size()) == suffix &&
            hlo_opcode_from_string(text.substr(0, text.size() - suffix.size()))) {
            return s.second;
        }
    }
    return hlo_opcode::unknown;
}
static_assert(opcode_of_text("all-to-all-start") == hlo_opcode::async_start);
static_assert(opcode_of_text("all-gather-start") == hlo_opcode::all_gather_start);
static_assert(opcode_of_text("reduce-scatter-done") == hlo_opcode::async_done);
static_assert(opcode_of_text("fusion-update") == hlo_opcode::async_update);
static_assert(opcode_of_text("no-such-start") == hlo_opcode::unknown);

}  // namespace hlomem

#endif  // HLOMEM_HLO_OPCODE_HPP
