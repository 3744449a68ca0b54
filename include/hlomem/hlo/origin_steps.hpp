// hlomem/hlo/origin_steps.hpp: the steps of the origin walk (hlo/origin.hpp) by opcode: which
// operand an instruction forwards its value from (XLA's dataflow rules), whether it takes the
// metadata of the computation it calls or the source of its operands, and how a dump's
// ` from instruction:` text names its operands, its parameter number and its tuple index.
//
//   forwarded_operand(hlo_opcode::get_tuple_element, {}, 1)   -> operand 0 at {1}
//   takes_operand_source(hlo_opcode::transpose)               -> true: a transpose moves data
//   origin_operands("%t = (f32[8]) tuple(f32[8]{0} %a, %b.1#0)", "tuple")
//                                                             -> (a, -1), (b.1, 0)
#ifndef HLOMEM_HLO_ORIGIN_STEPS_HPP
#define HLOMEM_HLO_ORIGIN_STEPS_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/hlo/metadata.hpp>
#include <hlomem/hlo/opcode.hpp>

namespace hlomem {
namespace detail {

/// `%a, f32[8]{0} %b, %c.1#0` between an instruction's parentheses, as (name, element) pairs:
/// older XLA prints each operand's shape before it, newest XLA refers to element N of a
/// tuple-shaped result as `%c.1#0` (element -1: the whole result).
inline std::vector<std::pair<std::string_view, std::int64_t>> origin_operands(std::string_view text, std::string_view opcode) {
    std::vector<std::pair<std::string_view, std::int64_t>> out;
    auto const eq = text.find(" = ");
    if (eq == std::string_view::npos || opcode.empty()) return out;
    // ` OPCODE(` after the `=`: the shape before it holds no such run.
    std::size_t open = eq;
    while ((open = text.find(opcode, open + 1)) != std::string_view::npos) {
        std::size_t const after = open + opcode.size();
        if (text[open - 1] == ' ' && after < text.size() && text[after] == '(') break;
    }
    if (open == std::string_view::npos) return out;
    std::size_t i = open + opcode.size() + 1;
    int depth = 0;
    std::size_t start = i;
    auto take = [&](std::string_view op) {
        auto const pct = op.rfind('%');
        if (pct != std::string_view::npos) op.remove_prefix(pct + 1);
        else if (auto const sp = op.rfind(' '); sp != std::string_view::npos) op.remove_prefix(sp + 1);
        while (!op.empty() && op.back() == ' ') op.remove_suffix(1);
        std::int64_t element = -1;
        if (auto const hash = op.rfind('#'); hash != std::string_view::npos) {
            if (auto n = metadata_integer(op.substr(hash + 1))) element = *n;
            op = op.substr(0, hash);
        }
        if (!op.empty()) out.emplace_back(op, element);
    };
    for (; i < text.size(); ++i) {
        char const c = text[i];
        if (c == '(' || c == '[' || c == '{') ++depth;
        else if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
        else if (c == ')' || (c == ',' && depth == 0)) {
            take(text.substr(start, i - start));
            if (c == ')') break;
            start = i + 1;
        }
    }
    return out;
}

/// The integer after `key` in an instruction's text (`parameter(`, `index=`), or -1.
inline std::int64_t origin_integer_after(std::string_view text, std::string_view key) {
    auto const at = text.find(key);
    if (at == std::string_view::npos) return -1;
    std::size_t b = at + key.size(), e = b;
    while (e < text.size() && text[e] >= '0' && text[e] <= '9') ++e;
    return metadata_integer(text.substr(b, e - b)).value_or(-1);
}

/// One step of the walk that forwards: operand `operand` at `index` holds the bytes.
struct forward_step {
    std::size_t operand = 0;
    std::vector<std::int64_t> index;
};

inline std::vector<std::int64_t> with_front(std::int64_t first, std::vector<std::int64_t> const& rest) {
    std::vector<std::int64_t> out{first};
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
}

/// XLA's dataflow rules for the instructions that forward or copy an operand's value
/// (xla/service/hlo_dataflow_analysis.cc: UpdateBitcastValueSet, UpdateGetTupleElementValueSet,
/// UpdateTupleValueSet, UpdateCopyStartValueSet / UpdateCopyDoneValueSet, UpdateAsyncStartValueSet
/// / UpdateAsyncDoneValueSet, UpdateAllGatherStart/Done, UpdateCollectivePermuteStart/Done,
/// UpdateAllReduceDone, UpdateOptimizationBarrierValueSet, UpdateDomainValueSet, UpdateAddDependency;
/// a copy and a while's init are not forwarded by XLA but hold the same data).
inline std::optional<forward_step> forwarded_operand(hlo_opcode op, std::vector<std::int64_t> const& index,
                                                     std::int64_t tuple_index) {
    auto rest = [&] { return std::vector<std::int64_t>(index.begin() + 1, index.end()); };
    switch (op) {
        case hlo_opcode::copy:
        case hlo_opcode::bitcast:
        case hlo_opcode::domain:
        case hlo_opcode::add_dependency:
        case hlo_opcode::while_:
        case hlo_opcode::all_reduce_done:
            return forward_step{0, index};
        case hlo_opcode::opt_barrier:
            return index.empty() ? std::nullopt : std::optional<forward_step>({0, index});
        case hlo_opcode::get_tuple_element:
            if (tuple_index >= 0) return forward_step{0, with_front(tuple_index, index)};
            return std::nullopt;
        case hlo_opcode::tuple:
            if (!index.empty() && index[0] >= 0) return forward_step{static_cast<std::size_t>(index[0]), rest()};
            return std::nullopt;
        // copy-start: ({0} destination, {1} source, {2} context); both hold the operand's data.
        case hlo_opcode::copy_start:
            if (!index.empty() && index[0] <= 1) return forward_step{0, rest()};
            return std::nullopt;
        case hlo_opcode::copy_done:
            return forward_step{0, with_front(0, index)};
        case hlo_opcode::async_done:
        case hlo_opcode::all_gather_done:
        case hlo_opcode::collective_permute_done:
            return forward_step{0, with_front(1, index)};
        // An async start's {0} holds its operands: {0, k} is operand k (one operand: {0} itself).
        case hlo_opcode::async_start:
        case hlo_opcode::all_gather_start:
        case hlo_opcode::collective_permute_start:
            if (index.empty() || index[0] != 0) return std::nullopt;
            if (index.size() >= 2 && op == hlo_opcode::async_start) {
                return forward_step{static_cast<std::size_t>(index[1]), std::vector<std::int64_t>(index.begin() + 2, index.end())};
            }
            return forward_step{0, rest()};
        default:
            return std::nullopt;
    }
}

/// Whether an instruction without metadata takes that of its called computation.
constexpr bool takes_callee_metadata(hlo_opcode op) noexcept {
    switch (op) {
        case hlo_opcode::fusion:
        case hlo_opcode::custom_call:
        case hlo_opcode::async_start:
        case hlo_opcode::call:
        case hlo_opcode::conditional:
            return true;
        default:
            return false;
    }
}

/// Whether an instruction without metadata, which neither forwards a value nor calls a
/// computation that states a source, takes the source of its operands' producers: the
/// instructions that wrap or move data they are handed (fusions, custom calls, collectives),
/// those that only retype or rearrange it (a convert of a weight XLA inserted on a TPU, seed 002:
/// 56 MiB, a transpose, a slice, a tuple's index table) and those that update their operand 0 in
/// place (GetInPlaceInputOutputPairs: may_update_in_place, memory/opcode_classes.hpp's list).
/// Arithmetic, a reduction or a constant makes new data: it stays without a source rather than
/// take an operand's line.
constexpr bool takes_operand_source(hlo_opcode op) noexcept {
    if (takes_callee_metadata(op) || may_update_in_place(op)) return true;
    switch (op) {
        case hlo_opcode::convert:
        case hlo_opcode::bitcast_convert:
        case hlo_opcode::reshape:
        case hlo_opcode::transpose:
        case hlo_opcode::slice:
        case hlo_opcode::dynamic_slice:
        case hlo_opcode::reverse:
        case hlo_opcode::pad:
        case hlo_opcode::concatenate:
        case hlo_opcode::broadcast:
        case hlo_opcode::tuple:
        case hlo_opcode::async_done:
        case hlo_opcode::all_reduce:
        case hlo_opcode::all_gather:
        case hlo_opcode::all_to_all:
        case hlo_opcode::reduce_scatter:
        case hlo_opcode::collective_broadcast:
        case hlo_opcode::all_gather_start:
        case hlo_opcode::send:
        case hlo_opcode::recv:
        case hlo_opcode::send_done:
        case hlo_opcode::recv_done:
            return true;
        default:
            return false;
    }
}

}  // namespace detail
}  // namespace hlomem

#endif  // HLOMEM_HLO_ORIGIN_STEPS_HPP
