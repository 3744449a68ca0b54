// hlomem/assign/buffer_sharing.hpp: may a user's result take its operand's buffer? XLA's
// HloDataflowAnalysis::CanShareOperandBufferWithUser on a parsed module, asked by the buffer
// assigner where BufferAssigner (LiveRangeInterferes) and HeapSimulator (ShareWith) ask it, with
// GPU's hints before its own rules: CanShareBufferHint and FusionCanShareBufferHint
// (xla/service/gpu/buffer_sharing.cc). The rules a dump reader needs too are written once below
// this layer: the opcode classes in memory/opcode_classes.hpp, the custom-call and all-reduce
// hints and the GEMM's beta in memory/buffer_sharing_hints.hpp.
#ifndef HLOMEM_ASSIGN_BUFFER_SHARING_HPP
#define HLOMEM_ASSIGN_BUFFER_SHARING_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <hlomem/assign/fusion_hero.hpp>
#include <hlomem/core/primitive_type.hpp>
#include <hlomem/core/shape_text.hpp>
#include <hlomem/dump/live_range.hpp>
#include <hlomem/hlo/alias_analysis.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/hlo/opcode.hpp>
#include <hlomem/memory/buffer_sharing_hints.hpp>

namespace hlomem {

namespace detail {

template <class P>
std::size_t operand_number_of(basic_hlo_module<P> const& m, instruction_id user, instruction_id operand) {
    auto const ops = m.operands(user);
    return static_cast<std::size_t>(std::find(ops.begin(), ops.end(), operand) - ops.begin());
}

template <class P>
computation_id fused_computation_of(basic_hlo_module<P> const& m, instruction_id fusion) {
    for (auto const& c : m.calls(fusion)) {
        if (c.kind == call_kind::fusion) return c.callee;
    }
    return no_computation;
}

template <class P>
std::int64_t elements_in(basic_shape<P> const& s) {
    std::int64_t n = 1;
    for (auto d : s.dimensions()) n *= static_cast<std::int64_t>(d);
    return n;
}

/// GPU's FusionCanShareBufferHint (xla/service/gpu/buffer_sharing.cc): may the fusion `user`
/// write its output at `user_index` over `operand`? The two must hold as many elements of the
/// same byte width; then every path from the operand's fused parameter to that output must keep
/// the iteration order: elementwise instructions (not copy), bitcasts and tuples only, a
/// dynamic-update-slice root reached through its update (operand 1), a dynamic-slice reading
/// the very slice the root dynamic-update-slice writes, a scatter root reached through one of
/// its inputs; below the reduction a reduction emitter computes first (a kInput fusion whose root
/// is a reduce, XLA's kReduction emitter kind) nothing is looked at. A parameter of a
/// multi-output fusion that reaches another output shares with none when the output is not
/// elementwise or a reached output's hero (assign/fusion_hero.hpp) is a transpose or a copy.
/// True only when the walk reaches the output.
template <class P>
bool gpu_fusion_can_share_buffer_hint(basic_hlo_module<P> const& m, instruction_id user, instruction_id operand,
                                      basic_shape_index<P> const& user_index) {
    auto const& user_shape = m.shape_of(user).subshape(user_index);
    auto const& operand_shape = m.shape_of(operand);
    if (to_string(operand_shape) != to_string(user_shape)) {
        if (operand_shape.is_tuple() || user_shape.is_tuple() || !is_array_type(operand_shape.element_type()) ||
            !is_array_type(user_shape.element_type())) {
            return false;
        }
        if (elements_in(operand_shape) != elements_in(user_shape)) return false;
        if (byte_width(operand_shape.element_type()) != byte_width(user_shape.element_type())) return false;
    }
    computation_id const fused = fused_computation_of(m, user);
    if (fused == no_computation) return false;
    auto const& body = m.computation(fused);
    auto const params = m.parameters(fused);
    std::size_t const number = operand_number_of(m, user, operand);
    if (number >= params.size() || body.root == no_instruction) return false;
    instruction_id const root = body.root;
    bool const multi_output = m.instruction(root).opcode == hlo_opcode::tuple;
    instruction_id output = root;
    if (multi_output) {
        if (user_index.empty() || static_cast<std::size_t>(user_index[0]) >= m.operands(root).size()) return false;
        output = m.operands(root)[static_cast<std::size_t>(user_index[0])];
    }
    auto const through_bitcast = [&](instruction_id i) {
        return m.instruction(i).opcode == hlo_opcode::bitcast && !m.operands(i).empty() ? m.operands(i)[0] : i;
    };
    instruction_id const non_bitcast_root = through_bitcast(output);
    instruction_id reduction_hero = no_instruction;
    if (m.instruction(user).fusion == fusion_kind::input) {
        auto const roots = multi_output ? m.operands(root) : list_view<instruction_id>(&body.root, 1);
        for (instruction_id r : roots) {
            if (m.instruction(through_bitcast(r)).opcode == hlo_opcode::reduce) {
                reduction_hero = through_bitcast(r);
                break;
            }
        }
    }
    auto const& nbr = m.instruction(non_bitcast_root);
    std::vector<char> visited(body.instruction_count, 0);
    auto const visit = [&](instruction_id i) {
        std::uint32_t const at = body.position_of(i);
        if (at >= visited.size() || visited[at]) return false;
        visited[at] = 1;
        return true;
    };
    std::vector<instruction_id> queue{params[number]};
    visit(params[number]);
    bool found_path_to_output = false;
    for (std::size_t next = 0; next < queue.size(); ++next) {
        instruction_id const hlo_operand = queue[next];
        if (hlo_operand == output) found_path_to_output = true;
        if (hlo_operand == reduction_hero) continue;
        for (instruction_id hlo : m.users(hlo_operand)) {
            if (visit(hlo)) queue.push_back(hlo);
            auto const& h = m.instruction(hlo);
            auto const hlo_ops = m.operands(hlo);
            std::size_t const at = operand_number_of(m, hlo, hlo_operand);
            if (hlo == non_bitcast_root && h.opcode == hlo_opcode::scatter) {
                std::size_t const inputs = m.shape_of(hlo).is_tuple() ? m.shape_of(hlo).tuple_shapes().size() : 1;
                if (at < inputs && std::count(hlo_ops.begin(), hlo_ops.end(), hlo_operand) == 1) continue;
            }
            auto const nbr_ops = m.operands(non_bitcast_root);
            if (nbr.opcode == hlo_opcode::dynamic_update_slice && h.opcode == hlo_opcode::dynamic_slice && nbr_ops.size() >= 2 &&
                !hlo_ops.empty() && nbr_ops[0] == hlo_ops[0] &&
                to_string(m.shape_of(hlo)) == to_string(m.shape_of(nbr_ops[1]))) {
                // The same slice read and written: each element is read before it is written
                // (always so when both are one element).
                if (elements_in(m.shape_of(hlo)) != 1 || elements_in(m.shape_of(nbr_ops[1])) != 1) {
                    for (std::size_t k = 1; k < hlo_ops.size(); ++k) {
                        if (k + 1 >= nbr_ops.size() || hlo_ops[k] != nbr_ops[k + 1]) return false;
                    }
                }
            } else if ((!is_elementwise_on_operand(m, hlo, at) || h.opcode == hlo_opcode::copy) && h.opcode != hlo_opcode::bitcast &&
                       h.opcode != hlo_opcode::tuple && hlo != reduction_hero) {
                if (hlo != non_bitcast_root || h.opcode != hlo_opcode::dynamic_update_slice || at != 1) return false;
            }
        }
    }
    // Another output reached from the parameter is written in its own iteration order: sharing is
    // refused when this output is not elementwise (a dynamic-update-slice, a scatter) or when a
    // reached output's hero is a transpose or a copy, whose emitter walks the transpose's order
    // (GpuAliasInfo's FusionCanShareBufferHint, xla/service/gpu/alias_info.cc: `if
    // (other_root_was_reached) { if (!non_bitcast_root->IsElementwise() ||
    // reached_root_has_transpose_hero) return false; }`).
    if (multi_output) {
        bool other_root_was_reached = false, reached_root_has_transpose_hero = false;
        for (instruction_id r : m.operands(root)) {
            std::uint32_t const at = body.position_of(r);
            if (at >= visited.size() || !visited[at]) continue;
            other_root_was_reached = other_root_was_reached || r != output;
            hlo_opcode const hero = m.instruction(fusion_hero(m, r)).opcode;
            reached_root_has_transpose_hero = reached_root_has_transpose_hero || hero == hlo_opcode::transpose || hero == hlo_opcode::copy;
        }
        if (other_root_was_reached && (!is_elementwise_on_operand(m, non_bitcast_root, npos) || reached_root_has_transpose_hero)) return false;
    }
    return found_path_to_output;
}

/// GPU's CanShareBufferHint (xla/service/gpu/buffer_sharing.cc), asked by
/// CanShareOperandBufferWithUser before its own rules; nullopt leaves the decision to them. A
/// synchronous all-reduce or collective-broadcast writes over its operand; a cuBLASLt matmul
/// over its bias (operand 2) when its `beta` is not 0; cuSOLVER's Cholesky over its operand at
/// output {0}; no other custom call; a fusion as FusionCanShareBufferHint says.
template <class P>
std::optional<bool> gpu_can_share_buffer_hint(basic_hlo_module<P> const& m, instruction_id user, instruction_id operand,
                                              basic_shape_index<P> const& user_index) {
    auto const ops = m.operands(user);
    // The hint names an operand number (memory/buffer_sharing_hints.hpp): is it `operand`?
    auto const writes_over = [&](std::optional<std::int64_t> number) {
        return number && *number >= 0 && static_cast<std::size_t>(*number) < ops.size() && ops[static_cast<std::size_t>(*number)] == operand;
    };
    switch (m.instruction(user).opcode) {
        case hlo_opcode::all_reduce:
        case hlo_opcode::collective_broadcast:
            return writes_over(gpu_all_reduce_shared_operand(ops.size(), user_index));
        case hlo_opcode::custom_call: {
            // The parser keeps custom_call_target in the instruction, not among its attributes.
            auto const config = m.attribute(user, "backend_config");
            return writes_over(gpu_custom_call_shared_operand(m.instruction(user).custom_call_target,
                                                              config ? std::string_view(*config) : std::string_view(), user_index));
        }
        case hlo_opcode::fusion:
            return gpu_fusion_can_share_buffer_hint(m, user, operand, user_index);
        default:
            return std::nullopt;
    }
}

}  // namespace detail

/// HloDataflowAnalysis::CanShareOperandBufferWithUser: may `user`'s output at `user_index` take
/// the buffer of `operand`'s output at `operand_index`? In XLA's order: never a constant's;
/// with equal shapes (and layouts), an in-place pair of the user (dynamic-update-slice, scatter,
/// output_to_operand_aliasing, a fusion updating a parameter); then, with `gpu`, the backend's
/// hint (gpu_can_share_buffer_hint) where it decides; otherwise equal shapes, and a loop or input
/// fusion in which every transitive use of the operand's parameter is elementwise or a tuple, an
/// output fusion adding to a dot or convolution the parameter used once by that add, a while or
/// conditional, a dynamic-update-slice, scatter or set-dimension-size on operand 0 (a triangular
/// solve on operand 1) used once, a sort whose operand has no other user, or an elementwise user.
template <class P>
bool can_share_operand_buffer_with_user(basic_hlo_alias_analysis<P> const& aa, instruction_id operand,
                                        basic_shape_index<P> const& operand_index, instruction_id user,
                                        basic_shape_index<P> const& user_index, bool gpu = false) {
    auto const& m = aa.dataflow().module();
    if (m.instruction(operand).opcode == hlo_opcode::constant) return false;
    auto const& operand_shape = m.shape_of(operand).subshape(operand_index);
    auto const& user_shape = m.shape_of(user).subshape(user_index);
    auto const& inst = m.instruction(user);
    auto const ops = m.operands(user);
    bool const shapes_equal = to_string(operand_shape) == to_string(user_shape);
    if (shapes_equal) {
        for (auto const& pair : aa.pairs(user)) {
            if (pair.operand_number < 0 || static_cast<std::size_t>(pair.operand_number) >= ops.size()) continue;
            if (ops[static_cast<std::size_t>(pair.operand_number)] != operand) continue;
            if (std::equal(pair.operand_index.begin(), pair.operand_index.end(), operand_index.begin(), operand_index.end()) &&
                std::equal(pair.output_index.begin(), pair.output_index.end(), user_index.begin(), user_index.end())) {
                return true;
            }
        }
    }
    if (gpu) {
        if (auto const hint = detail::gpu_can_share_buffer_hint(m, user, operand, user_index)) return *hint;
    }
    if (!shapes_equal) return false;
    auto const operand_count = static_cast<std::size_t>(std::count(ops.begin(), ops.end(), operand));
    std::size_t const number = detail::operand_number_of(m, user, operand);
    switch (inst.opcode) {
        case hlo_opcode::fusion: {
            computation_id const fused = detail::fused_computation_of(m, user);
            if (fused == no_computation) return false;
            auto const params = m.parameters(fused);
            if (number >= params.size()) return false;
            if (inst.fusion == fusion_kind::loop || inst.fusion == fusion_kind::input) {
                // AreTransitiveUsesElementwiseOrTuple: every use of the fused parameter, and of
                // what it feeds, is elementwise on that operand or a tuple, so each element is
                // read before it is written.
                auto const& body = m.computation(fused);
                std::vector<instruction_id> stack{params[number]};
                std::vector<char> seen(body.instruction_count, 0);
                while (!stack.empty()) {
                    instruction_id const i = stack.back();
                    stack.pop_back();
                    for (instruction_id u : m.users(i)) {
                        std::uint32_t const at = body.position_of(u);
                        if (at >= seen.size()) return false;  // not in the fused computation: not XLA's case
                        if (m.instruction(u).opcode != hlo_opcode::tuple) {
                            auto const u_ops = m.operands(u);
                            for (std::size_t k = 0; k < u_ops.size(); ++k) {
                                if (u_ops[k] == i && !detail::is_elementwise_on_operand(m, u, k)) return false;
                            }
                        }
                        if (seen[at]) continue;
                        seen[at] = 1;
                        stack.push_back(u);
                    }
                }
                return true;
            }
            if (inst.fusion == fusion_kind::output) {
                // An add of a dot or convolution and the parameter, its only use.
                instruction_id const root = m.computation(fused).root;
                if (root == no_instruction || m.instruction(root).opcode != hlo_opcode::add || m.operands(root).size() != 2) return false;
                auto const add_ops = m.operands(root);
                auto const is_product = [&](instruction_id i) {
                    return m.instruction(i).opcode == hlo_opcode::convolution || m.instruction(i).opcode == hlo_opcode::dot;
                };
                std::size_t matched = is_product(add_ops[0]) ? 0 : is_product(add_ops[1]) ? 1 : 2;
                if (matched == 2) return false;
                instruction_id const param = params[number];
                return m.users(param).size() == 1 && m.users(param)[0] == root && add_ops[1 - matched] == param &&
                       add_ops[matched] != param;
            }
            return false;
        }
        case hlo_opcode::while_:
        case hlo_opcode::conditional:
            return true;
        case hlo_opcode::dynamic_update_slice:
        case hlo_opcode::scatter:
        case hlo_opcode::set_dimension_size:
            return operand_count == 1 && number == 0;
        case hlo_opcode::triangular_solve:
            return operand_count == 1 && number == 1;
        case hlo_opcode::sort:
            if (m.users(operand).size() != 1) return false;
            if (ops.size() == 1) return true;
            return operand_count == 1 && !user_index.empty() && static_cast<std::size_t>(user_index[0]) == number;
        default:
            return detail::is_elementwise_on_operand(m, user, number);
    }
}

}  // namespace hlomem

#endif  // HLOMEM_ASSIGN_BUFFER_SHARING_HPP
