// hlomem/hlo/dataflow_update.hpp: the value sets of XLA's HloDataflowAnalysis (hlo/dataflow.hpp)
// and the rules that update them: what each instruction holds at each index of its result, given
// what its operands, callees and callers hold (HloDataflowAnalysis::UpdateInstructionValueSet and
// the Update*ValueSet it dispatches to), with phi values where control flow merges values (Phi),
// and the options that choose among XLA's versions of these rules. basic_hlo_dataflow derives
// from basic_dataflow_update and runs the rules to a fixed point.
#ifndef HLOMEM_HLO_DATAFLOW_UPDATE_HPP
#define HLOMEM_HLO_DATAFLOW_UPDATE_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include <hlomem/hlo/call_graph.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/hlo/phi_graph.hpp>
#include <hlomem/hlo/shape_tree.hpp>
#include <hlomem/hlo/value.hpp>
#include <hlomem/hlo/value_set.hpp>

namespace hlomem {

/// Which version of XLA's rules to follow where they changed.
struct dataflow_options {
    /// SSA form (phi values where values merge), as buffer assignment runs it. Without it a
    /// position holds the union of what reaches it.
    bool ssa_form = true;
    /// Bitcasts define a value of their own instead of passing their operand's on (false in
    /// buffer assignment).
    bool bitcast_defines_value = false;
    /// An `async-done` uses every value its operand holds (XLA until 2025, and the real dumps we
    /// have); newer XLA counts only `{}` and the indices under `{1}` as uses.
    bool async_done_uses_all_operand_values = true;
    /// The values of fusion bodies (computations called by `fusion` only) as values() with sets,
    /// positions and uses. Without them (false) they still take their ids, so that every other
    /// value keeps the id XLA gives it, but nothing more: no value sets (value_set() of a fused
    /// instruction is empty), no propagation, not in values(). Nothing outside a fusion body can
    /// hold them: XLA's dataflow gives a fused computation's parameters values of their own
    /// (CallContext::kEmbedded) and the fusion instruction defines its whole result, and
    /// BufferAssigner gives buffers to the values of flattened computations only (it skips
    /// fused computations when it assigns buffers), which is all that buffer assignment and live
    /// ranges read.
    bool fusion_body_values = true;
};

/// The value sets of a dataflow analysis of a module, the values' records, and XLA's rules that
/// update the sets. Holds a reference to the module, which must outlive it.
template <class P>
class basic_dataflow_update {
public:
    using module_type = basic_hlo_module<P>;

    basic_dataflow_update(module_type const& m, dataflow_options const& options)
        : m_(m), options_(options), graph_(m), ids_only_(fusion_bodies_left_out(m, options)), sets_(m, ids_only_) {}

    /// The subshapes of an instruction's result.
    subshape_tree const& tree(instruction_id i) const { return sets_.tree(i); }

protected:
    struct record {
        instruction_id instruction;
        shape_node node;
        bool is_phi;
        bool deleted;
    };
    using id_set = instruction_value_sets::id_set;

    bool update(instruction_id i);
    bool update_conditional(instruction_id i);
    bool update_parameter(instruction_id i, subshape_tree const& t);
    bool update_async_start(instruction_id i, list_view<instruction_id> ops, subshape_tree const& t);
    bool update_async_update(instruction_id i, list_view<instruction_id> ops, subshape_tree const& t);
    bool update_all_gather_start(instruction_id i, list_view<instruction_id> ops, subshape_tree const& t);
    bool update_collective_permute_start(instruction_id i, list_view<instruction_id> ops, subshape_tree const& t);
    bool update_collective_permute_done(instruction_id i, list_view<instruction_id> ops, subshape_tree const& t);

    // -- small helpers -------------------------------------------------------------------------
    value_id new_value(instruction_id i, shape_node n, bool is_phi) {
        auto const id = static_cast<value_id>(records_.size());
        records_.push_back({i, n, is_phi, false});
        return id;
    }
    void define(instruction_id i, shape_node n) { sets_.set(i, n).assign_one(new_value(i, n, false)); }
    /// A `*-done`: the arrays its start holds under {1} (the result) become its own, united with
    /// what the wrapped computation's `root` returns when there is one.
    bool forward_result(instruction_id i, instruction_id start, instruction_id root) {
        auto const& t = tree(i);
        shape_node const result = tree(start).child(0, 1);
        if (result == no_node || tree(start)[result].subtree_size != t.size()) return false;
        if (root != no_instruction && !sets_.same_tree(i, root)) root = no_instruction;
        bool changed = false;
        for (shape_node n = 0; n < t.size(); ++n) {
            if (!t[n].is_array) continue;
            if (root != no_instruction) {
                changed |= sets_.assign_union(sets_.set(i, n), {&sets_.set(start, result + n), &sets_.set(root, n)});
            } else {
                changed |= sets_.assign(sets_.set(i, n), sets_.set(start, result + n));
            }
        }
        return changed;
    }
    using inputs_type = std::vector<std::pair<instruction_id, shape_node>>;
    /// Where values reach `i` from several instructions (whole results): a phi where they differ
    /// (SSA form, while and conditional), else the union at each index (XLA's AssignUnionOf).
    bool merge(instruction_id i, inputs_type const& inputs, bool need_phi) {
        if (options_.ssa_form && need_phi) return phi(i, inputs);
        bool changed = false;
        for (shape_node n = 0; n < tree(i).size(); ++n) {
            std::vector<value_id> u;
            for (auto const& in : inputs) {
                if (!sets_.same_tree(i, in.first)) continue;
                auto const& s = sets_.set(in.first, n);
                u.insert(u.end(), s.begin(), s.end());
            }
            changed |= instruction_value_sets::assign_sorted(sets_.set(i, n), u);
        }
        return changed;
    }
    /// The root of `c`, or no_instruction.
    instruction_id root_of(computation_id c) const { return c == no_computation ? no_instruction : m_.computation(c).root; }
    instruction_id parameter(computation_id c, std::size_t number) const {
        if (c == no_computation) return no_instruction;
        auto const params = m_.parameters(c);
        return number < params.size() ? params[number] : no_instruction;
    }
    bool is_root(instruction_id i) const { return graph_.is_root(i); }
    bool phi(instruction_id i, inputs_type const& inputs);
    /// By computation: 1 for a fusion body reached from fusion instructions alone, when their
    /// values are ids only (fusion_body_values false).
    static std::vector<std::uint8_t> fusion_bodies_left_out(module_type const& m, dataflow_options const& options) {
        std::vector<std::uint8_t> out(m.computation_count(), 0);
        if (options.fusion_body_values) return out;
        for (computation_id c = 0; c < m.computation_count(); ++c) {
            auto const callers = m.callers(c);
            out[c] = !callers.empty() &&
                     std::all_of(callers.begin(), callers.end(), [](hlo_call const& k) { return k.kind == call_kind::fusion; });
        }
        return out;
    }

    module_type const& m_;
    dataflow_options options_;
    basic_call_graph<P> graph_;
    std::vector<std::uint8_t> ids_only_;    // by computation: a fusion body left out (fusion_body_values)
    instruction_value_sets sets_;           // none for the instructions of those fusion bodies
    std::vector<record> records_;           // by id
    phi_graph phis_;
};

// XLA's HloDataflowAnalysis::Phi.
template <class P>
bool basic_dataflow_update<P>::phi(instruction_id i, inputs_type const& inputs) {
    bool changed = false;
    auto const& t = tree(i);
    for (shape_node n = 0; n < t.size(); ++n) {
        id_set& here = sets_.set(i, n);
        value_id const current = here.size() == 1 ? here[0] : no_value;
        std::vector<value_id> input_ids;
        for (auto const& [src, root] : inputs) {
            if (root == no_node || tree(src)[root].subtree_size != t[0].subtree_size) continue;
            auto const& s = sets_.set(src, root + n);
            input_ids.insert(input_ids.end(), s.begin(), s.end());
        }
        bool const defined_here = current != no_value && records_[current].instruction == i && records_[current].node == n;
        if (input_ids.empty()) continue;
        if (input_ids.size() == 1) {
            if (current == no_value || current != input_ids[0]) {
                if (current != no_value && defined_here) records_[current].deleted = true;
                here.assign_one(input_ids[0]);
                changed = true;
            }
            continue;
        }
        bool const phi_here = defined_here && records_[current].is_phi;
        if (!phi_here) {
            value_id const p = new_value(i, n, true);
            here.assign_one(p);
            phis_.register_phi(p, input_ids);
            changed = true;
        } else {
            std::vector<value_id> old_inputs = phis_.inputs(current);
            auto unique_sorted = [](std::vector<value_id> v) {
                std::sort(v.begin(), v.end());
                v.erase(std::unique(v.begin(), v.end()), v.end());
                return v;
            };
            if (unique_sorted(old_inputs) != unique_sorted(input_ids)) {
                phis_.register_phi(current, input_ids);
                changed = true;
            }
        }
    }
    return changed;
}

// XLA's HloDataflowAnalysis::UpdateInstructionValueSet: the Update*ValueSet of the instruction's
// opcode, here where it takes a few lines, in a function of its own (below) where it takes more.
template <class P>
bool basic_dataflow_update<P>::update(instruction_id i) {
    auto const& inst = m_.instruction(i);
    auto const ops = graph_.operands(i);
    auto const& t = tree(i);
    bool changed = false;
    switch (graph_.opcode(i)) {
        case hlo_opcode::add_dependency:
            if (ops.empty()) return false;
            return sets_.copy_subtree(i, 0, ops[0], 0);
        case hlo_opcode::bitcast:
            if (options_.bitcast_defines_value || ops.empty()) return false;
            return sets_.copy_subtree(i, 0, ops[0], 0);
        case hlo_opcode::domain:
        case hlo_opcode::opt_barrier:
            if (ops.empty()) return false;
            return sets_.copy_subtree(i, 0, ops[0], 0);
        case hlo_opcode::copy:
            if (ops.empty() || !sets_.same_tree(i, ops[0])) return false;
            for (shape_node n = 1; n < t.size(); ++n) changed |= sets_.assign(sets_.set(i, n), sets_.set(ops[0], n));
            return changed;
        case hlo_opcode::get_tuple_element:
            if (ops.empty()) return false;
            return sets_.copy_subtree(i, 0, ops[0], tree(ops[0]).child(0, inst.tuple_index));
        case hlo_opcode::tuple:
            for (std::size_t k = 0; k < ops.size(); ++k) {
                changed |= sets_.copy_subtree(i, t.child(0, static_cast<std::int64_t>(k)), ops[k], 0);
            }
            return changed;
        case hlo_opcode::call: {
            return sets_.copy_subtree(i, 0, root_of(graph_.called(i, call_kind::call)), 0);
        }
        case hlo_opcode::while_: {
            instruction_id const body_root = root_of(graph_.called(i, call_kind::while_body));
            if (body_root == no_instruction || ops.empty()) return false;
            return merge(i, {{body_root, 0}, {ops[0], 0}}, true);
        }
        case hlo_opcode::conditional:
            return update_conditional(i);
        case hlo_opcode::parameter:
            return update_parameter(i, t);
        case hlo_opcode::send:
            if (ops.empty()) return false;
            return sets_.copy_subtree(i, t.child(0, 0), ops[0], 0);
        case hlo_opcode::recv_done: {
            if (ops.empty()) return false;
            shape_node const n0 = t.child(0, 0);
            if (n0 == no_node || tree(ops[0]).child(0, 0) == no_node) return false;
            return sets_.copy_subtree(i, n0, ops[0], tree(ops[0]).child(0, 0));
        }
        case hlo_opcode::copy_start:
            if (ops.empty() || t.child(0, 1) == no_node) return false;
            return sets_.assign(sets_.set(i, t.child(0, 1)), sets_.set(ops[0], 0));
        case hlo_opcode::copy_done: {
            if (ops.empty() || tree(ops[0]).child(0, 0) == no_node) return false;
            return sets_.assign(sets_.set(i, 0), sets_.set(ops[0], tree(ops[0]).child(0, 0)));
        }
        case hlo_opcode::async_start:
            return update_async_start(i, ops, t);
        case hlo_opcode::async_update:
            return update_async_update(i, ops, t);
        case hlo_opcode::async_done:
            return !ops.empty() && forward_result(i, ops[0], root_of(graph_.async_wrapped_computation(i)));
        case hlo_opcode::all_gather_start:
            return update_all_gather_start(i, ops, t);
        case hlo_opcode::all_gather_done:
            return !ops.empty() && forward_result(i, ops[0], no_instruction);
        case hlo_opcode::all_reduce_done:
            if (ops.empty()) return false;
            return sets_.copy_subtree(i, 0, ops[0], 0);
        case hlo_opcode::collective_permute_start:
            return update_collective_permute_start(i, ops, t);
        case hlo_opcode::collective_permute_done:
            return update_collective_permute_done(i, ops, t);
        default:
            return false;
    }
}

// XLA's UpdateConditionalValueSet: the union (or, in SSA form, a phi) of what the branches return.
template <class P>
bool basic_dataflow_update<P>::update_conditional(instruction_id i) {
    inputs_type inputs;
    for (auto const& call : m_.calls(i)) {
        if (call.kind == call_kind::conditional_branch && root_of(call.callee) != no_instruction) {
            inputs.push_back({root_of(call.callee), 0});
        }
    }
    return !inputs.empty() && merge(i, inputs, true);
}

// XLA's UpdateParameterValueSet: a parameter of a computation called as control flow holds what
// its callers pass (a while's operand and its body's result, a conditional's branch operand, a
// call's or async-start's operand, what an async-update/done's operand holds at {0,number}).
template <class P>
bool basic_dataflow_update<P>::update_parameter(instruction_id i, subshape_tree const& t) {
    auto const& inst = m_.instruction(i);
    bool changed = false;
    computation_id const c = inst.computation;
    if (graph_.context(c) != call_context::control_flow || m_.callers(c).empty()) return false;
    inputs_type inputs;
    bool need_phi = false;
    auto const number = static_cast<std::size_t>(std::max<std::int64_t>(inst.parameter_number, 0));
    for (auto const& call : m_.callers(c)) {
        instruction_id const caller = call.caller;
        auto const caller_ops = m_.operands(caller);
        switch (m_.instruction(caller).opcode) {
            case hlo_opcode::call:
            case hlo_opcode::async_start:
                if (number < caller_ops.size()) inputs.push_back({caller_ops[number], 0});
                break;
            case hlo_opcode::while_: {
                if (caller_ops.empty()) break;
                inputs.push_back({caller_ops[0], 0});
                instruction_id const body_root = root_of(graph_.called(caller, call_kind::while_body));
                if (body_root != no_instruction && body_root != i) inputs.push_back({body_root, 0});
                need_phi = true;
                break;
            }
            case hlo_opcode::conditional: {
                std::size_t branch = 0;
                for (auto const& k : m_.calls(caller)) {
                    if (k.kind != call_kind::conditional_branch) continue;
                    if (k.callee == c && branch + 1 < caller_ops.size()) {
                        inputs.push_back({caller_ops[branch + 1], 0});
                        break;
                    }
                    ++branch;
                }
                need_phi = true;
                break;
            }
            case hlo_opcode::async_update:
            case hlo_opcode::async_done: {
                if (caller_ops.empty()) return false;
                auto const& src = tree(caller_ops[0]);
                shape_node const from = src.find(std::initializer_list<std::int64_t>{0, inst.parameter_number});
                if (from == no_node || src[from].subtree_size != t.size()) return false;
                for (shape_node n = 0; n < t.size(); ++n) {
                    changed |= sets_.assign_union(sets_.set(i, n), {&sets_.set(caller_ops[0], from + n)});
                }
                return changed;
            }
            default:
                break;
        }
    }
    return !inputs.empty() && merge(i, inputs, need_phi);
}

// XLA's UpdateAsyncStartValueSet: the operands at {0,k}, the wrapped computation's result at {1}.
template <class P>
bool basic_dataflow_update<P>::update_async_start(instruction_id i, list_view<instruction_id> ops,
                                                  subshape_tree const& t) {
    bool changed = false;
    shape_node const operands_node = t.child(0, 0);
    for (std::size_t k = 0; k < ops.size() && operands_node != no_node; ++k) {
        shape_node const dst = t.child(operands_node, static_cast<std::int64_t>(k));
        if (dst == no_node || tree(ops[k])[0].subtree_size != t[dst].subtree_size) continue;
        for (shape_node n = 0; n < tree(ops[k]).size(); ++n) {
            if (tree(ops[k])[n].is_array) changed |= sets_.assign(sets_.set(i, dst + n), sets_.set(ops[k], n));
        }
    }
    instruction_id const root = root_of(graph_.async_wrapped_computation(i));
    shape_node const result = t.child(0, 1);
    if (root == no_instruction || result == no_node) return changed;
    if (tree(root).size() != t[result].subtree_size) return changed;
    for (shape_node n = 0; n < tree(root).size(); ++n) {
        if (tree(root)[n].is_array) changed |= sets_.assign(sets_.set(i, result + n), sets_.set(root, n));
    }
    return changed;
}

// XLA's UpdateAsyncUpdateValueSet: what the start holds, with the wrapped computation's result
// united at {1}.
template <class P>
bool basic_dataflow_update<P>::update_async_update(instruction_id i, list_view<instruction_id> ops,
                                                   subshape_tree const& t) {
    bool changed = false;
    if (ops.empty() || !sets_.same_tree(i, ops[0])) return false;
    instruction_id const root = root_of(graph_.async_wrapped_computation(i));
    shape_node const result = t.child(0, 1);
    for (shape_node n = 1; n < t.size(); ++n) {
        if (!t[n].is_array) continue;
        if (t.top_index(n) == 1 && root != no_instruction && result != no_node &&
            tree(root).size() == t[result].subtree_size) {
            changed |= sets_.assign_union(sets_.set(i, n), {&sets_.set(ops[0], n), &sets_.set(root, n - result)});
        } else {
            changed |= sets_.assign(sets_.set(i, n), sets_.set(ops[0], n));
        }
    }
    return changed;
}

// XLA's UpdateAllGatherStartValueSet: operand k at {0,k} (at {0} when there is one operand).
template <class P>
bool basic_dataflow_update<P>::update_all_gather_start(instruction_id i, list_view<instruction_id> ops,
                                                       subshape_tree const& t) {
    bool changed = false;
    for (std::size_t k = 0; k < ops.size(); ++k) {
        shape_node const dst = ops.size() > 1 ? t.find(std::initializer_list<std::int64_t>{0, static_cast<std::int64_t>(k)})
                                              : t.child(0, 0);
        if (dst != no_node) changed |= sets_.assign(sets_.set(i, dst), sets_.set(ops[k], 0));
    }
    return changed;
}

// XLA's UpdateCollectivePermuteStartValueSet: the operand (or each of its elements, or each of
// several operands) at {0,...}.
template <class P>
bool basic_dataflow_update<P>::update_collective_permute_start(instruction_id i, list_view<instruction_id> ops,
                                                               subshape_tree const& t) {
    bool changed = false;
    if (ops.size() > 1 && ops.size() != 4) {
        for (std::size_t k = 0; k < ops.size(); ++k) {
            shape_node const dst = t.find(std::initializer_list<std::int64_t>{0, static_cast<std::int64_t>(k)});
            if (dst != no_node) changed |= sets_.assign(sets_.set(i, dst), sets_.set(ops[k], 0));
        }
        return changed;
    }
    if (ops.empty()) return false;
    auto const& src = tree(ops[0]);
    if (src[0].is_tuple) {
        for (std::uint32_t k = 0; k < src[0].child_count; ++k) {
            shape_node const dst = t.find(std::initializer_list<std::int64_t>{0, static_cast<std::int64_t>(k)});
            if (dst != no_node) changed |= sets_.assign(sets_.set(i, dst), sets_.set(ops[0], src.child(0, k)));
        }
        return changed;
    }
    if (t.child(0, 0) == no_node) return false;
    return sets_.assign(sets_.set(i, t.child(0, 0)), sets_.set(ops[0], 0));
}

// XLA's UpdateCollectivePermuteDoneValueSet: what the start holds under {1}.
template <class P>
bool basic_dataflow_update<P>::update_collective_permute_done(instruction_id i, list_view<instruction_id> ops,
                                                              subshape_tree const& t) {
    bool changed = false;
    if (ops.empty()) return false;
    auto const& src = tree(ops[0]);
    if (t[0].is_tuple) {
        for (std::uint32_t k = 0; k < t[0].child_count; ++k) {
            shape_node const from = src.find(std::initializer_list<std::int64_t>{1, static_cast<std::int64_t>(k)});
            if (from != no_node) changed |= sets_.assign(sets_.set(i, t.child(0, k)), sets_.set(ops[0], from));
        }
        return changed;
    }
    if (src.child(0, 1) == no_node) return false;
    return sets_.assign(sets_.set(i, 0), sets_.set(ops[0], src.child(0, 1)));
}

}  // namespace hlomem

#endif  // HLOMEM_HLO_DATAFLOW_UPDATE_HPP
