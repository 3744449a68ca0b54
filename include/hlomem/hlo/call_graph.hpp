// hlomem/hlo/call_graph.hpp: XLA's CallGraph facts about a parsed module — how each computation is
// called (its call context), the order computations are visited in (callees before callers), the
// post order of the instructions of one computation, and which computation an instruction calls.
//
//   hlomem::call_graph const g(m);                       // m: a parsed module
//   g.context(c);                     // call_context::control_flow for a while body
//   for (auto c : g.computation_post_order()) { ... }    // callees first
//   g.instruction_post_order(c);      // operands (and control predecessors) before users
//   g.called(i, hlomem::call_kind::while_body);          // the body a while runs
//
// The rules are XLA's: xla/service/call_graph.cc (SetCallContexts), HloModule::
// MakeComputationPostOrder and HloComputation::MakeInstructionPostOrder; each function below names
// the one it follows. XLA walks computations and instructions in the order they sit in its memory,
// which the text does not show; hlomem walks them in text order.
#ifndef HLOMEM_HLO_CALL_GRAPH_HPP
#define HLOMEM_HLO_CALL_GRAPH_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <hlomem/core/policy.hpp>
#include <hlomem/hlo/module.hpp>

namespace hlomem {

/// XLA's CallContext: how a computation is run by its callers.
enum class call_context : std::uint8_t {
    none,          ///< not called (the entry, dead computations)
    control_flow,  ///< as a program of its own (while, conditional, call, async): values get buffers
    embedded,      ///< inside one instruction (fusion, reducers, comparators): no buffers of its own
    both,          ///< called both ways; XLA refuses such modules
};

constexpr std::string_view to_string(call_context c) noexcept {
    switch (c) {
        case call_context::none: return "none";
        case call_context::control_flow: return "control_flow";
        case call_context::embedded: return "embedded";
        case call_context::both: return "both";
    }
    return "none";
}

/// XLA's CallGraph of a module: call contexts and visiting orders. Holds a reference to the module,
/// which must outlive it.
template <class P = default_policy>
class basic_call_graph {
public:
    using module_type = basic_hlo_module<P>;

    explicit basic_call_graph(module_type const& m) : m_(m) {
        compute_contexts();
        compute_computation_order();
        // The opcode and root flag of every instruction, one byte each: the analyses ask them of
        // users and positions all over the module, where the instruction records (tens of bytes
        // each) would each cost a cache miss. The operand lists are not copied: the analyses read
        // them for the instructions they analyse only, a fraction of a large module's (fusion
        // bodies are left out), and a copy for every instruction cost more than it saved.
        opcodes_.resize(m.instruction_count());
        flags_.assign(m.instruction_count(), 0);
        for (instruction_id i = 0; i < m.instruction_count(); ++i) {
            opcodes_[i] = m.instruction(i).opcode;
            if (!m.control_predecessors(i).empty()) flags_[i] |= has_control_predecessors;
        }
        for (computation_id c = 0; c < m.computation_count(); ++c) {
            if (m.computation(c).root != no_instruction) flags_[m.computation(c).root] |= root_flag;
        }
    }

    /// The opcode of instruction `i` (the module's, from a compact copy).
    hlo_opcode opcode(instruction_id i) const { return opcodes_[i]; }
    /// Whether `i` is the root of its computation.
    bool is_root(instruction_id i) const { return (flags_[i] & root_flag) != 0; }
    /// The operands of `i` (the module's list).
    list_view<instruction_id> operands(instruction_id i) const { return m_.operands(i); }

    call_context context(computation_id c) const { return contexts_[c]; }
    /// Computations in post order (callees first), the order value ids follow.
    std::vector<computation_id> const& computation_post_order() const noexcept { return computation_order_; }
    /// The instructions of `c` in XLA's post order (operands before users). Computed on first
    /// use and kept: the dataflow analysis walks every computation in this order three times. (The
    /// cache makes a call graph unsafe to share between threads that ask for new orders.)
    std::vector<instruction_id> const& instruction_post_order(computation_id c) const;
    /// The first computation `i` calls as `kind`, or no_computation.
    computation_id called(instruction_id i, call_kind kind) const {
        for (auto const& c : m_.calls(i)) {
            if (c.kind == kind) return c.callee;
        }
        return no_computation;
    }
    /// The computation an async instruction wraps (through its chain's start), or no_computation.
    computation_id async_wrapped_computation(instruction_id i) const {
        computation_id const c = called(i, call_kind::async);
        if (c != no_computation) return c;
        instruction_id const start = m_.async_start_of(i);
        return start == no_instruction ? no_computation : called(start, call_kind::async);
    }

private:
    /// The calls made by the instructions of `c`, in instruction order: the piece of the module's
    /// calls whose callers lie in `c`. The walks below read these, not every instruction.
    list_view<hlo_call> calls_of(computation_id c) const {
        auto const all = m_.all_calls();
        auto const& comp = m_.computation(c);
        auto const by_caller = [](hlo_call const& k, instruction_id i) { return k.caller < i; };
        hlo_call const* first = std::lower_bound(all.begin(), all.end(), comp.first_instruction, by_caller);
        hlo_call const* last = std::lower_bound(first, all.end(), comp.first_instruction + comp.instruction_count, by_caller);
        return list_view<hlo_call>(first, static_cast<std::size_t>(last - first));
    }
    void compute_contexts();
    void compute_computation_order();
    std::vector<instruction_id> make_instruction_post_order(computation_id c) const;

    module_type const& m_;
    std::vector<call_context> contexts_;
    std::vector<computation_id> computation_order_;
    static constexpr std::uint8_t root_flag = 1, has_control_predecessors = 2;
    std::vector<hlo_opcode> opcodes_;
    std::vector<std::uint8_t> flags_;
    mutable std::vector<std::optional<std::vector<instruction_id>>> post_orders_;  // by computation, once asked for
};

using call_graph = basic_call_graph<>;

// XLA's CallGraph::SetCallContexts: computations without callers run as control flow; a callee
// takes its call site's context, or its caller's context through a control-flow call.
template <class P>
void basic_call_graph<P>::compute_contexts() {
    contexts_.assign(m_.computation_count(), call_context::none);
    std::vector<computation_id> work;
    for (computation_id c = 0; c < m_.computation_count(); ++c) {
        if (m_.callers(c).empty()) {
            contexts_[c] = call_context::control_flow;
            work.push_back(c);
        }
    }
    auto unite = [](call_context a, call_context b) {
        if (a == call_context::none) return b;
        if (b == call_context::none) return a;
        return a == b ? a : call_context::both;
    };
    for (std::size_t k = 0; k < work.size(); ++k) {
        computation_id const c = work[k];
        for (auto const& call : calls_of(c)) {
            call_context const add = is_control_flow(call.kind) ? contexts_[c] : call_context::embedded;
            call_context const now = unite(add, contexts_[call.callee]);
            if (now != contexts_[call.callee]) {
                contexts_[call.callee] = now;
                work.push_back(call.callee);
            }
        }
    }
}

// XLA's HloModule::MakeComputationPostOrder (the depth-first variant): for every computation
// nobody calls, in module order, the computations it reaches (HloComputation::
// MakeEmbeddedComputationsList: an explicit stack, callees marked when pushed), then itself.
template <class P>
void basic_call_graph<P>::compute_computation_order() {
    std::vector<bool> added(m_.computation_count(), false);
    for (computation_id root = 0; root < m_.computation_count(); ++root) {
        if (!m_.callers(root).empty()) continue;
        std::vector<bool> visited(m_.computation_count(), false);
        // A computation's instructions are walked through its calls only: one instruction's
        // calls (a group of the same caller) at a time, as XLA walks the instructions.
        struct frame {
            hlo_call const* next;
            hlo_call const* end;
            computation_id c;
        };
        std::vector<frame> stack;
        // Pushes the callees of the caller at `first`; returns where the next caller's calls start.
        auto push_callees = [&](hlo_call const* first, hlo_call const* end) {
            hlo_call const* last = first;
            while (last != end && last->caller == first->caller) ++last;
            for (hlo_call const* k = last; k-- != first;) {
                computation_id const callee = k->callee;
                if (!visited[callee]) {
                    visited[callee] = true;
                    auto const callee_calls = calls_of(callee);
                    stack.push_back({callee_calls.begin(), callee_calls.end(), callee});
                }
            }
            return last;
        };
        auto const root_calls = calls_of(root);
        for (hlo_call const* at = root_calls.begin(); at != root_calls.end();) {
            at = push_callees(at, root_calls.end());
            while (!stack.empty()) {
                frame& top = stack.back();
                if (top.next == top.end) {
                    computation_id const done = top.c;
                    stack.pop_back();
                    if (!added[done]) {
                        added[done] = true;
                        computation_order_.push_back(done);
                    }
                } else {
                    std::size_t const slot = stack.size() - 1;  // pushing may move the frames
                    hlo_call const* const next = push_callees(top.next, top.end);
                    stack[slot].next = next;
                }
            }
        }
        if (!added[root]) {
            added[root] = true;
            computation_order_.push_back(root);
        }
    }
    // Computations only reachable through a cycle (invalid HLO) still get their values.
    for (computation_id c = 0; c < m_.computation_count(); ++c) {
        if (!added[c]) computation_order_.push_back(c);
    }
}

// XLA's HloComputation::MakeInstructionPostOrder: a depth-first walk from every instruction
// without users, in order; an instruction's control predecessors are visited first, then its
// operands from the first to the last.
template <class P>
std::vector<instruction_id> const& basic_call_graph<P>::instruction_post_order(computation_id c) const {
    if (post_orders_.size() != m_.computation_count()) post_orders_.resize(m_.computation_count());
    auto& order = post_orders_[c];
    if (!order) order = make_instruction_post_order(c);
    return *order;
}

template <class P>
std::vector<instruction_id> basic_call_graph<P>::make_instruction_post_order(computation_id c) const {
    auto const& comp = m_.computation(c);
    std::vector<instruction_id> out;
    out.reserve(comp.instruction_count);
    enum : std::uint8_t { fresh, visiting, visited };
    std::vector<std::uint8_t> state(comp.instruction_count, fresh);
    std::vector<instruction_id> stack;
    auto local = [&](instruction_id i) { return i - comp.first_instruction; };
    auto in_computation = [&](instruction_id i) {
        return i >= comp.first_instruction && i < comp.first_instruction + comp.instruction_count;
    };
    for (instruction_id start : comp.instructions()) {
        if (!m_.users(start).empty()) continue;
        stack.push_back(start);
        while (!stack.empty()) {
            instruction_id const cur = stack.back();
            if (state[local(cur)] == fresh) {
                state[local(cur)] = visiting;
                auto const ops = m_.operands(cur);
                for (std::size_t k = ops.size(); k-- > 0;) {
                    if (in_computation(ops[k]) && state[local(ops[k])] != visited) stack.push_back(ops[k]);
                }
                if (flags_[cur] & has_control_predecessors) {
                    for (instruction_id p : m_.control_predecessors(cur)) {
                        if (in_computation(p) && state[local(p)] != visited) stack.push_back(p);
                    }
                }
                continue;
            }
            stack.pop_back();
            if (state[local(cur)] != visited) {
                state[local(cur)] = visited;
                out.push_back(cur);
            }
        }
    }
    // Instructions on a cycle (invalid HLO) are never reached from a user-less one.
    for (instruction_id i : comp.instructions()) {
        if (state[local(i)] != visited) out.push_back(i);
    }
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_HLO_CALL_GRAPH_HPP
