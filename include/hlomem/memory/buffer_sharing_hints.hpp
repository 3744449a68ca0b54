// hlomem/memory/buffer_sharing_hints.hpp: GPU's buffer-sharing hints for the users whose answer
// needs no fused body (xla/service/gpu/buffer_sharing.cc, CanShareBufferHint, which
// HloDataflowAnalysis::CanShareOperandBufferWithUser asks before its own rules), written once for
// the soundness check of a dump (memory/soundness.hpp, from an instruction's text) and for the
// buffer assigner (assign/buffer_sharing.hpp, from a parsed module, which adds the fusion hint):
//
//   all-reduce        NCCL reduces in place: output {k} over operand k (any output with one operand)
//   custom-call       `__cublas$lt$matmul` over its bias (operand 2) when GemmBackendConfig's beta
//                     is not 0; `__cusolver$cholesky` its output {0} over its operand; no other
//
// and the one reader of the GEMM's `beta` (`backend_config={..."gemm_backend_config":{"alpha_real":1,
// "beta":1,...}}`).
#ifndef HLOMEM_MEMORY_BUFFER_SHARING_HINTS_HPP
#define HLOMEM_MEMORY_BUFFER_SHARING_HINTS_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace hlomem {

/// What a JSON number says of its value.
enum class json_number_value : std::uint8_t { zero, nonzero, unreadable };

/// The value of the JSON number at the start of `text` (RFC 8259: `-`? `0`|`[1-9][0-9]*`, then
/// `.[0-9]+`? and `[eE][+-]?[0-9]+`?), which must end there (`,`, `}`, `]`, white space or the end
/// of the text): non-zero when a digit before the exponent is, whatever the exponent (`0e1` and
/// `-0.0` are zero, `1E+2` and `-1.5e-3` are not). Protobuf's JSON parser, which reads
/// GemmBackendConfig, also takes a double quoted (`"1"`) and "NaN", "Infinity" and "-Infinity"
/// (which it prints for those values; all three are not 0); so does this, with the quotes escaped
/// too (`\"1\"`) as an older XLA printed backend configs. Anything else (`01`, `.5`, `1.`, `+1`,
/// `1x`, `true`) is unreadable.
inline json_number_value read_json_number(std::string_view text) noexcept {
    std::size_t k = 0;
    auto const at = [&](std::size_t i) { return i < text.size() ? text[i] : '\0'; };
    auto const digit = [](char c) { return c >= '0' && c <= '9'; };
    std::string_view quote;
    if (at(0) == '"') quote = text.substr(0, 1);
    if (at(0) == '\\' && at(1) == '"') quote = text.substr(0, 2);
    k = quote.size();
    if (!quote.empty()) {
        for (std::string_view word : {"NaN", "Infinity", "-Infinity"}) {
            if (text.substr(k, word.size()) == word && text.substr(k + word.size(), quote.size()) == quote) {
                return json_number_value::nonzero;
            }
        }
    }
    bool nonzero = false;
    if (at(k) == '-') ++k;
    if (at(k) == '0') {
        ++k;
    } else if (digit(at(k))) {
        for (; digit(at(k)); ++k) nonzero = nonzero || at(k) != '0';
    } else {
        return json_number_value::unreadable;
    }
    if (at(k) == '.') {
        if (!digit(at(++k))) return json_number_value::unreadable;
        for (; digit(at(k)); ++k) nonzero = nonzero || at(k) != '0';
    }
    if (at(k) == 'e' || at(k) == 'E') {
        ++k;
        if (at(k) == '+' || at(k) == '-') ++k;
        if (!digit(at(k))) return json_number_value::unreadable;
        while (digit(at(k))) ++k;
    }
    if (!quote.empty()) {
        if (text.substr(k, quote.size()) != quote) return json_number_value::unreadable;
        k += quote.size();
    }
    char const end = at(k);
    if (k < text.size() && end != ',' && end != '}' && end != ']' && end != ' ' && end != '\t' && end != '\n' && end != '\r') {
        return json_number_value::unreadable;
    }
    return nonzero ? json_number_value::nonzero : json_number_value::zero;
}

/// GemmBackendConfig's beta in the text of a backend config (or of the whole instruction that
/// holds it): the JSON number after the first `"beta":` (or `\"beta\":`, escaped), nullopt when the
/// key is absent.
inline std::optional<json_number_value> gemm_beta(std::string_view config) noexcept {
    std::size_t at = config.find("\"beta\":");
    std::size_t key = 7;
    if (at == std::string_view::npos) {
        at = config.find("\\\"beta\\\":");
        key = 9;
    }
    if (at == std::string_view::npos) return std::nullopt;
    at += key;
    while (at < config.size() && (config[at] == ' ' || config[at] == '\t')) ++at;
    return read_json_number(config.substr(at));
}

/// Whether a GEMM accumulates into its bias, `config.beta() != 0.` in CanShareBufferHint. Absent,
/// beta is protobuf's default, 0. Unreadable, it counts as 0 too: XLA cannot parse such a config
/// (backend_config<GpuBackendConfig>() fails), so there is no XLA answer to follow, and 0 claims no
/// sharing — the assigner then keeps the bias and the result apart (never predicting less memory
/// than an input XLA would reject could need) and the soundness check reports bytes shared on the
/// strength of it rather than accepting them.
inline bool gemm_beta_nonzero(std::string_view config) noexcept {
    return gemm_beta(config) == json_number_value::nonzero;
}

/// GPU's CanShareBufferHint for a custom call, which decides for every custom call (it answers
/// false, not "no opinion", for a target it does not name): the operand that output `output_index`
/// may be written over, or none.
///   - `__cublas$lt$matmul`: operand 2 (the bias matrix C) when beta is not 0 (gemm_beta_nonzero
///     of `backend_config`), for any output;
///   - `__cusolver$cholesky`: output {0} (the factor) over its operand (the matrix, operand 0).
template <class Index>
std::optional<std::int64_t> gpu_custom_call_shared_operand(std::string_view target, std::string_view backend_config,
                                                           Index const& output_index) {
    if (target == "__cublas$lt$matmul") {
        if (gemm_beta_nonzero(backend_config)) return 2;
        return std::nullopt;
    }
    if (target == "__cusolver$cholesky" && output_index.size() == 1 && output_index[0] == 0) return 0;
    return std::nullopt;
}

/// GPU's CanShareBufferHint for an all-reduce (NCCL reduces in place), which hlomem asks of a
/// collective-broadcast too: with one operand, every output over it; otherwise output {k} over
/// operand k.
template <class Index>
std::optional<std::int64_t> gpu_all_reduce_shared_operand(std::size_t operand_count, Index const& output_index) {
    if (operand_count == 1) return 0;
    if (output_index.size() == 1 && output_index[0] >= 0 && static_cast<std::size_t>(output_index[0]) < operand_count) {
        return static_cast<std::int64_t>(output_index[0]);
    }
    return std::nullopt;
}

/// The text of attribute `key` (`custom_call_target=`) in an instruction's text, without quotes;
/// empty when absent.
inline std::string_view instruction_attribute(std::string_view text, std::string_view key) {
    for (std::size_t at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1)) {
        if (at > 0 && text[at - 1] != ' ' && text[at - 1] != ',') continue;
        std::size_t from = at + key.size();
        if (from >= text.size() || text[from] != '=') continue;
        ++from;
        if (from < text.size() && text[from] == '"') {
            std::size_t const end = text.find('"', from + 1);
            return end == std::string_view::npos ? std::string_view() : text.substr(from + 1, end - from - 1);
        }
        std::size_t end = from;
        while (end < text.size() && text[end] != ',' && text[end] != ' ' && text[end] != '}') ++end;
        return text.substr(from, end - from);
    }
    return {};
}

/// gpu_custom_call_shared_operand for a custom call known by its text only, as a dump prints it
/// (`%custom-call.12.0 = (...) custom-call(%bitcast.928.0), custom_call_target="__cusolver$cholesky"`):
/// the target read from the text, the beta searched in all of it.
template <class Index>
std::optional<std::int64_t> gpu_backend_hint(std::string_view instruction_text, Index const& output_index) {
    return gpu_custom_call_shared_operand(instruction_attribute(instruction_text, "custom_call_target"), instruction_text,
                                          output_index);
}

}  // namespace hlomem

#endif  // HLOMEM_MEMORY_BUFFER_SHARING_HINTS_HPP
