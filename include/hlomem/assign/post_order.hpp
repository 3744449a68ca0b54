// hlomem/assign/post_order.hpp: the position ComparePosition (BufferOrder::kBiggestFirst, the third
// key of the order in which BufferAssigner takes the HloBuffers) gives each instruction — the
// instruction post order of each computation, the computations in the reverse of the call graph's
// post order (callers first), and the computation an async-start in syntax sugar hides.
#ifndef HLOMEM_ASSIGN_POST_ORDER_HPP
#define HLOMEM_ASSIGN_POST_ORDER_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <hlomem/hlo/module.hpp>

namespace hlomem {

namespace detail {

/// Where ComparePosition puts each instruction: MakeInstructionPostOrder of each computation,
/// computations in reverse post order of the call graph (callers first).
struct post_order_position_table {
    std::vector<std::int64_t> instruction;
    /// For an async-start printed in XLA's syntax sugar (`%a = ((f32[8]), f32[8]) all-to-all-start(
    /// %x)`, no `calls=`), the position of the wrapped instruction in the computation the text does
    /// not show; -1 for every other instruction. XLA's value at the start's {1} is defined there
    /// (HloDataflowAnalysis::UpdateAsyncStartValueSet forwards the wrapped root to {1}), so that
    /// its HloBuffer sorts after every instruction of the callers.
    std::vector<std::int64_t> async_root;
};

/// Whether `i` is an async-start in XLA's syntax sugar: its wrapped computation is not in the text.
template <class P>
bool is_sugared_async_start(basic_hlo_module<P> const& m, instruction_id i) {
    if (m.instruction(i).opcode != hlo_opcode::async_start) return false;
    for (auto const& call : m.calls(i)) {
        if (call.kind == call_kind::async) return false;
    }
    return true;
}

template <class P>
post_order_position_table post_order_positions(basic_hlo_module<P> const& m) {
    post_order_position_table table;
    auto& position = table.instruction;
    position.assign(m.instruction_count(), 0);
    table.async_root.assign(m.instruction_count(), -1);
    // The computations the sugar hides are numbered after the module's own, one per sugared
    // async-start, and called where the start is (CallGraph's callees are in instruction order).
    std::vector<instruction_id> hidden;
    std::vector<computation_id> computation_order;
    // Post order of the call graph from the entry, then reversed.
    std::vector<std::pair<computation_id, std::size_t>> stack;
    std::vector<std::vector<computation_id>> callees(m.computation_count());
    //
    // CallGraph lists a computation's callees in the order of its instruction list, which is not
    // the schedule the text prints (a pass that adds an instruction appends it: GPU's
    // CommandBufferScheduling calls its `command_buffer` computations from the end of the list).
    // XLA prints the computations in HloModule::MakeComputationPostOrder, the same depth-first
    // post order over that list, so the text's own computation order is the finishing order: at
    // each computation, the callee printed first is the one the list reaches first. Sorting the
    // callees by their place in the text rebuilds the list's order. A computation the sugar hides
    // stays right after the callee printed before it in the caller's schedule.
    for (computation_id c = 0; c < m.computation_count(); ++c) {
        std::vector<std::pair<std::int64_t, computation_id>> keyed;  // (text order of the callee, callee)
        std::int64_t previous = -1;
        for (instruction_id i : m.computation(c).instructions()) {
            for (auto const& call : m.calls(i)) {
                if (call.callee == no_computation) continue;
                previous = static_cast<std::int64_t>(call.callee);
                keyed.push_back({2 * previous, call.callee});
            }
            if (is_sugared_async_start(m, i)) {
                keyed.push_back({2 * previous + 1, static_cast<computation_id>(m.computation_count() + hidden.size())});
                hidden.push_back(i);
            }
        }
        std::stable_sort(keyed.begin(), keyed.end(), [](auto const& a, auto const& b) { return a.first < b.first; });
        for (auto const& k : keyed) callees[c].push_back(k.second);
    }
    callees.resize(m.computation_count() + hidden.size());
    std::vector<char> seen(callees.size(), 0);
    auto visit = [&](computation_id root) {
        if (root == no_computation || seen[root]) return;
        seen[root] = 1;
        stack.push_back({root, 0});
        while (!stack.empty()) {
            auto& [c, next] = stack.back();
            if (next < callees[c].size()) {
                computation_id const callee = callees[c][next++];
                if (callee != no_computation && !seen[callee]) {
                    seen[callee] = 1;
                    stack.push_back({callee, 0});
                }
                continue;
            }
            computation_order.push_back(c);
            stack.pop_back();
        }
    };
    visit(m.entry());
    for (computation_id c = 0; c < m.computation_count(); ++c) visit(c);
    std::reverse(computation_order.begin(), computation_order.end());

    std::int64_t counter = 0;
    std::vector<char> state(m.instruction_count(), 0);  // 0 new, 1 visiting, 2 done
    std::vector<instruction_id> dfs;
    for (computation_id c : computation_order) {
        if (c >= m.computation_count()) {  // a hidden computation: its parameters, then its root
            instruction_id const start = hidden[c - m.computation_count()];
            counter += static_cast<std::int64_t>(m.operands(start).size());
            table.async_root[start] = counter++;
            continue;
        }
        for (instruction_id root : m.computation(c).instructions()) {
            if (!m.users(root).empty() || state[root]) continue;
            dfs.push_back(root);
            while (!dfs.empty()) {
                instruction_id const i = dfs.back();
                if (state[i] == 2) {
                    dfs.pop_back();
                    continue;
                }
                if (state[i] == 1) {
                    dfs.pop_back();
                    state[i] = 2;
                    position[i] = counter++;
                    continue;
                }
                state[i] = 1;
                auto const ops = m.operands(i);
                for (std::size_t k = ops.size(); k-- > 0;) {
                    if (!state[ops[k]]) dfs.push_back(ops[k]);
                }
                auto const preds = m.control_predecessors(i);
                for (std::size_t k = preds.size(); k-- > 0;) {
                    if (!state[preds[k]]) dfs.push_back(preds[k]);
                }
            }
        }
        // Instructions only reachable from something with users outside (cycles do not occur).
        for (instruction_id i : m.computation(c).instructions()) {
            if (state[i] != 2) {
                state[i] = 2;
                position[i] = counter++;
            }
        }
    }
    return table;
}

}  // namespace detail

}  // namespace hlomem

#endif  // HLOMEM_ASSIGN_POST_ORDER_HPP
