// hlomem/assign/fusion_hero.hpp: the hero of a fusion's root, as GPU's HloFusionAnalysis finds it
// (FindNonTrivialHero, xla/service/gpu/ir_emission_utils.cc) — the transpose the shared-memory
// transpose emitter tiles (GetDescriptionForTiledTransposeEmitter), else a concatenate, else a
// reduce at the end of a chain of one-operand elementwise ops, else the root itself. The buffer
// assigner asks it where GPU's alias rules do (GpuAliasInfo::MayAlias, FusionCanShareBufferHint
// in xla/service/gpu/alias_info.cc): a fusion parameter that reaches two outputs of a
// multi-output fusion may not share either's buffer when a reached output's hero is a transpose
// or a copy, because that output is written in the transpose's iteration order.
//
//   detail::fusion_hero(m, root)       // in %fused_add_transpose, ROOT %tuple(%add.19.1, %add.18.1):
//                                      // add.19.1's hero is itself (its transpose keeps the 1963 minor
//                                      // dimension of c128, 128 x 1963 bits: no tile), add.18.1's is
//                                      // %transpose.75.7 ([9,1963,52] -> [9,52,1963], tiled)
#ifndef HLOMEM_ASSIGN_FUSION_HERO_HPP
#define HLOMEM_ASSIGN_FUSION_HERO_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include <hlomem/core/primitive_type.hpp>
#include <hlomem/core/shape.hpp>
#include <hlomem/dump/live_range.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/hlo/opcode.hpp>
#include <hlomem/memory/opcode_classes.hpp>

namespace hlomem {

namespace detail {

// The thresholds of the transpose emitter (xla/service/gpu/ir_emission_utils.h).
inline constexpr std::int64_t min_dimension_to_transpose_tiled = 16;          // kMinDimensionToTransposeTiled
inline constexpr std::int64_t min_dimension_to_transpose_tiled2 = 8;          // kMinDimensionToTransposeTiled2
inline constexpr std::int64_t min_total_dimensions_to_transpose_tiled = 64 * 128;
inline constexpr std::int64_t max_bits_in_most_minor_dimension = 8 * 8;      // kMaxBitsInMostMinorDimension
inline constexpr std::int64_t num_shmem_banks = 32;                           // kNumShmemBanks
inline constexpr std::int64_t bank_bitwidth = 32;                             // kBankBitwidth

/// GPU's GetBitwidth: BitWidth, but 8 for pred (a byte in memory).
inline std::int64_t gpu_bitwidth(primitive_type t) noexcept {
    return t == primitive_type::pred ? 8 : static_cast<std::int64_t>(bit_width(t));
}

/// A transpose with degenerate dimensions dropped and runs of dimensions that stay together
/// merged: `dimensions` of the output, `permutation` (output dimension i is operand dimension
/// permutation[i]).
struct normalized_transpose {
    std::vector<std::int64_t> dimensions, permutation;
};

template <class P>
bool dim0_major(basic_shape<P> const& s) {
    if (!s.has_layout() || s.layout().minor_to_major.empty()) return true;
    auto const& m2m = s.layout().minor_to_major;
    for (std::size_t k = 0; k < m2m.size(); ++k) {
        if (static_cast<std::size_t>(m2m[k]) != m2m.size() - 1 - k) return false;
    }
    return true;
}

/// ShapeUtil::GetNormalizedLogicalTransposeShape: defined on default (dim0-major) layouts only.
template <class P>
std::optional<normalized_transpose> normalized_logical_transpose(basic_shape<P> const& operand, basic_shape<P> const& output,
                                                                 list_view<std::int64_t> dimensions) {
    if (!dim0_major(operand) || !dim0_major(output) || dimensions.size() != output.dimensions().size()) return std::nullopt;
    // The operand's dimensions of size > 1, renumbered in order.
    std::vector<std::int64_t> renumbered(operand.dimensions().size(), -1);
    std::int64_t kept = 0;
    for (std::size_t d = 0; d < renumbered.size(); ++d) {
        if (operand.dimensions()[d] != 1) renumbered[d] = kept++;
    }
    normalized_transpose t;
    std::vector<std::int64_t> starts;  // per merged output dimension, its first operand dimension
    std::int64_t previous = -2;
    for (std::size_t i = 0; i < dimensions.size(); ++i) {
        auto const size = static_cast<std::int64_t>(output.dimensions()[i]);
        if (size == 1) continue;
        std::int64_t const from = renumbered[static_cast<std::size_t>(dimensions[i])];
        if (from == previous + 1) {
            t.dimensions.back() *= size;
        } else {
            t.dimensions.push_back(size);
            starts.push_back(from);
        }
        previous = from;
    }
    for (std::int64_t s : starts) {
        t.permutation.push_back(static_cast<std::int64_t>(std::count_if(starts.begin(), starts.end(), [&](std::int64_t o) { return o < s; })));
    }
    return t;
}

/// Permute(dims, InversePermutation(permutation)): the operand's dimensions of a transpose.
inline std::vector<std::int64_t> operand_dimensions(normalized_transpose const& t) {
    std::vector<std::int64_t> in(t.dimensions.size());
    for (std::size_t i = 0; i < t.permutation.size(); ++i) in[static_cast<std::size_t>(t.permutation[i])] = t.dimensions[i];
    return in;
}

/// CanEmitPackedTranspose: PackedTransposeDescription's canonical [T2, A, T1, B] form, then
/// GetPackedTransposeTileSizes' conditions (elements narrower than a shared-memory bank only).
inline bool can_emit_packed_transpose(normalized_transpose const& t, std::int64_t bits) {
    if (bits >= bank_bitwidth || bits <= 0) return false;
    std::vector<std::int64_t> out = t.dimensions, perm = t.permutation;
    if (perm.back() != static_cast<std::int64_t>(out.size()) - 1) {  // add a size-1 B dimension
        perm.push_back(static_cast<std::int64_t>(out.size()));
        out.push_back(1);
    }
    auto const rank = static_cast<std::int64_t>(out.size());
    if (rank < 3) return false;
    if (perm[static_cast<std::size_t>(rank - 3)] != rank - 3) {  // add a size-1 A dimension
        out.insert(out.begin() + (rank - 2), 1);
        for (auto& p : perm) {
            if (p > rank - 3) ++p;
        }
        perm.insert(perm.begin() + (rank - 2), rank - 2);
    }
    std::vector<std::int64_t> in = operand_dimensions({out, perm});
    std::size_t const r = in.size();
    std::int64_t const dim_a = in[r - 3], dim_b = in[r - 1], dim_t1 = in[r - 2], dim_t2 = in[static_cast<std::size_t>(perm[r - 2])];
    std::int64_t const vector_size = bank_bitwidth / bits;
    std::int64_t const shmem_dim = num_shmem_banks * vector_size;
    std::int64_t const tile_t1 = std::min(dim_t1, shmem_dim);
    std::int64_t const tile_a = std::min(dim_a, shmem_dim / tile_t1);
    std::int64_t const tile_t2 = std::min(dim_t2, shmem_dim);
    std::int64_t const rows = tile_t2, cols = tile_a * tile_t1;
    if (cols < 10 * vector_size || rows < 10 * vector_size) return false;
    return dim_b == 1 && rows % vector_size == 0 && cols % vector_size == 0 && dim_t2 % tile_t2 % vector_size == 0;
}

/// GetDescriptionForTiledTransposeEmitter(hero).has_value(): a transpose the shared-memory
/// transpose emitter tiles — packed; or keeping its minor dimension, of at most 64 bits, with
/// enough of the next one; or moving its minor dimension, both swapped dimensions large enough.
template <class P>
bool is_tiled_transpose(basic_hlo_module<P> const& m, instruction_id i) {
    if (m.instruction(i).opcode != hlo_opcode::transpose || m.operands(i).empty()) return false;
    auto const t = normalized_logical_transpose(m.shape_of(m.operands(i)[0]), m.shape_of(i), m.dimensions(i));
    if (!t || t->permutation.size() < 2) return false;
    std::int64_t const bits = gpu_bitwidth(m.shape_of(i).element_type());
    if (can_emit_packed_transpose(*t, bits)) return true;
    auto const in = operand_dimensions(*t);
    std::size_t const n = t->dimensions.size();
    if (t->permutation.back() == static_cast<std::int64_t>(n) - 1) {  // the minor dimension is kept
        std::int64_t const minor_bits = bits * t->dimensions.back();
        return minor_bits <= max_bits_in_most_minor_dimension &&
               minor_bits * std::min(in[n - 2], t->dimensions[n - 2]) >= 8 * min_dimension_to_transpose_tiled;
    }
    std::int64_t const a = in.back(), b = t->dimensions.back();
    bool const large = (a >= min_dimension_to_transpose_tiled && b >= min_dimension_to_transpose_tiled) ||
                       (a >= min_dimension_to_transpose_tiled2 && b >= min_dimension_to_transpose_tiled2 &&
                        a * b >= min_total_dimensions_to_transpose_tiled);
    return large && bits != 4;
}

/// HloInstruction::IsElementwiseImpl for an instruction `i` of the module, on its operand
/// `operand_number` (IsElementwiseOnOperand) or, with npos, on all of them (IsElementwise): a
/// dynamic-update-slice is elementwise on operand 0 only, a bitcast-convert that changes the bit
/// width is not, any other instruction as its opcode (is_elementwise, memory/opcode_classes.hpp).
/// XLA lets a map and a fusion decide for themselves (HloMapInstruction, HloFusionInstruction
/// override IsElementwiseImpl); hlomem does not model them, and counts both as not elementwise.
template <class P>
bool is_elementwise_on_operand(basic_hlo_module<P> const& m, instruction_id i, std::size_t operand_number) {
    hlo_opcode const op = m.instruction(i).opcode;
    if (op == hlo_opcode::dynamic_update_slice) return operand_number == 0;
    if (op == hlo_opcode::bitcast_convert) {
        auto const ops = m.operands(i);
        if (ops.empty() || bit_width(m.shape_of(i).element_type()) != bit_width(m.shape_of(ops[0]).element_type())) return false;
    }
    return is_elementwise(op);
}

/// IsIntermediate: one to `allowed` operands, and elementwise (a copy only when it keeps the
/// layout), a bitcast, or a reshape or transpose that moves no data: ShapeUtil::TransposeIsBitcast
/// (the operand's minor-to-major order is the output's, mapped through `dimensions`) and
/// ReshapeIsBitcast where both layouts are the default one (a reshape of dim0-major arrays moves
/// nothing; other layouts are counted as moving data here).
template <class P>
bool is_intermediate(basic_hlo_module<P> const& m, instruction_id i, std::size_t allowed) {
    auto const ops = m.operands(i);
    if (ops.empty() || ops.size() > allowed) return false;
    hlo_opcode const op = m.instruction(i).opcode;
    if (is_elementwise_on_operand(m, i, npos)) return op != hlo_opcode::copy || m.shape_of(i) == m.shape_of(ops[0]);
    auto const& in = m.shape_of(ops[0]);
    auto const& out = m.shape_of(i);
    switch (op) {
        case hlo_opcode::bitcast: return true;
        case hlo_opcode::reshape: return in.element_type() == out.element_type() && dim0_major(in) && dim0_major(out);
        case hlo_opcode::transpose: {
            if (in.element_type() != out.element_type() || !in.has_layout() || !out.has_layout()) return false;
            auto const dimensions = m.dimensions(i);
            auto const& in_order = in.layout().minor_to_major;
            auto const& out_order = out.layout().minor_to_major;
            if (in_order.size() != out_order.size() || out_order.size() != dimensions.size()) return false;
            for (std::size_t k = 0; k < out_order.size(); ++k) {
                if (dimensions[static_cast<std::size_t>(out_order[k])] != static_cast<std::int64_t>(in_order[k])) return false;
            }
            return true;
        }
        default: return false;
    }
}

/// FindHero: breadth first from `start` towards the operands, through intermediates of up to
/// three operands and never past a fusion parameter, the one instruction `is_hero` accepts (none
/// when two are found), from which only intermediates (and the root tuple) are reached.
template <class P, class Predicate>
instruction_id find_hero(basic_hlo_module<P> const& m, basic_hlo_computation<P> const& body, instruction_id start, Predicate is_hero) {
    std::vector<char> seen(body.instruction_count, 0);
    std::vector<instruction_id> queue{start};
    seen[body.position_of(start)] = 1;
    instruction_id hero = no_instruction;
    for (std::size_t next = 0; next < queue.size(); ++next) {
        instruction_id const node = queue[next];
        if (is_hero(node)) {
            if (hero != no_instruction) return no_instruction;
            hero = node;
            continue;
        }
        if (!is_intermediate(m, node, 3)) continue;
        for (instruction_id o : m.operands(node)) {
            if (m.instruction(o).opcode == hlo_opcode::parameter || seen[body.position_of(o)]) continue;
            seen[body.position_of(o)] = 1;
            queue.push_back(o);
        }
    }
    if (hero == no_instruction) return no_instruction;
    std::vector<instruction_id> users(m.users(hero).begin(), m.users(hero).end());
    std::fill(seen.begin(), seen.end(), 0);
    for (std::size_t next = 0; next < users.size(); ++next) {
        instruction_id const u = users[next];
        hlo_opcode const op = m.instruction(u).opcode;
        if (op != hlo_opcode::tuple && op != hlo_opcode::parameter && !is_intermediate(m, u, 3)) return no_instruction;
        for (instruction_id w : m.users(u)) {
            if (!seen[body.position_of(w)]) {
                seen[body.position_of(w)] = 1;
                users.push_back(w);
            }
        }
    }
    return hero;
}

/// FindNonTrivialHero of the fusion output `root` (an instruction of the fused computation).
template <class P>
instruction_id fusion_hero(basic_hlo_module<P> const& m, instruction_id root) {
    auto const& body = m.computation(m.instruction(root).computation);
    instruction_id hero = root;
    while (is_intermediate(m, hero, 1) && m.instruction(m.operands(hero)[0]).opcode != hlo_opcode::parameter) hero = m.operands(hero)[0];
    instruction_id const transpose = find_hero(m, body, hero, [&](instruction_id i) { return is_tiled_transpose(m, i); });
    if (transpose != no_instruction) return transpose;
    instruction_id const concatenate =
        find_hero(m, body, hero, [&](instruction_id i) { return m.instruction(i).opcode == hlo_opcode::concatenate; });
    if (concatenate != no_instruction) return concatenate;
    return m.instruction(hero).opcode == hlo_opcode::reduce ? hero : root;
}

}  // namespace detail

}  // namespace hlomem

#endif  // HLOMEM_ASSIGN_FUSION_HERO_HPP
