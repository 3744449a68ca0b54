// hlomem/hlo/dataflow.hpp: XLA's HloDataflowAnalysis on a parsed module — which instructions define
// logical values (HloValues) at which shape indices, which only pass values on, where control
// flow merges values into phi values, and every value's positions and uses.
//
//   auto m = hlomem::parse_hlo_module(text, "module.txt");            // <hlomem/parser.hpp>
//   hlomem::hlo_dataflow df(m);
//   for (auto const& v : df.values()) {                               // by id, XLA's order
//       df.name_of(v);                        // "while.2.0{1}" (index printed for tuple shapes)
//       for (auto const& p : df.positions(v)) { ... }                 // defining position first
//       for (auto const& u : df.uses(v)) { ... }                      // (user, operand, index)
//   }
//   df.value_set(i, df.node_of(i, {1}));      // the values that may be at {1} of instruction i
//
// The rules are XLA's (docs/FORMATS.md 6-7; xla/hlo/analysis/hlo_dataflow_analysis.cc), with
// SSA form and bitcasts that define no value, as buffer assignment runs it:
//   - most instructions define a value at every index of their shape (a tuple-shaped result
//     defines its pointer table {} and every element);
//   - tuple and copy define only {}; get-tuple-element, bitcast, call, while, conditional,
//     domain, opt-barrier and add-dependency define nothing and pass their operands' values on;
//   - asynchronous pairs: `async-start` defines its tuple tables and contexts and forwards its
//     operands to {0,i} and the wrapped computation's result to {1}; `*-done` forwards what the
//     start holds; copy-start/done, send/recv(-done), all-gather-start/done, all-reduce-done and
//     collective-permute-start/done forward as XLA says for each;
//   - parameters of computations called as control flow (while body and condition, conditional
//     branches, call, async) define nothing: their values flow in from the callers;
//   - where two or more values reach one position through while or conditional, a phi value is
//     defined there; phis that turn out to merge one value only are removed afterwards (XLA's
//     PhiGraph::Optimize), which leaves gaps in the ids.
//
// Value ids are given in creation order, as XLA gives them: computations in post order (callees
// before callers), instructions in post order, indices in pre-order, then phi values in the order
// the propagation creates them. XLA walks computations and instructions in the order they sit in
// its memory, which the text does not show; hlomem walks them in text order and visits a while's
// condition before its body, which reproduces the relative order of the real dumps we have for the
// values that get live ranges (the values of fusion bodies and reducers are numbered too, so that
// ids look like XLA's, but they never get buffers).
//
// Shape indices are handled as nodes of the instruction's subshape tree (hlo/shape_tree.hpp);
// the values at each node are kept in instruction value sets (hlo/value_set.hpp), where a value is
// defined follows hlo/value.hpp, call contexts and visiting orders come from the call graph
// (hlo/call_graph.hpp), and phi values are optimized by the phi graph (hlo/phi_graph.hpp). The
// rules that update an instruction's value sets, and the options that choose among them, are
// hlo/dataflow_update.hpp's; this header runs them in XLA's order and gathers the values.
#ifndef HLOMEM_HLO_DATAFLOW_HPP
#define HLOMEM_HLO_DATAFLOW_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/core/diagnostic.hpp>
#include <hlomem/core/shape.hpp>
#include <hlomem/hlo/call_graph.hpp>
#include <hlomem/hlo/dataflow_update.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/hlo/phi_graph.hpp>
#include <hlomem/hlo/shape_tree.hpp>
#include <hlomem/hlo/value.hpp>
#include <hlomem/hlo/value_set.hpp>

namespace hlomem {

// notes() are diagnostics (core/diagnostic.hpp) of kind invalid_module, warnings: something in
// the module that XLA would refuse and that the analysis models its own way. `first` is the
// instruction (none when it concerns a whole computation), `second` the computation.

/// XLA's HloDataflowAnalysis of a module. Holds a reference to the module, which must outlive it.
template <class P = default_policy>
class basic_hlo_dataflow : basic_dataflow_update<P> {
    using base = basic_dataflow_update<P>;

public:
    using module_type = basic_hlo_module<P>;

    explicit basic_hlo_dataflow(module_type const& m, dataflow_options const& options = {}) : base(m, options) { run(); }

    module_type const& module() const noexcept { return m_; }
    dataflow_options const& options() const noexcept { return options_; }

    /// The values, sorted by id (phis removed by the optimization are gone).
    std::vector<hlo_value> const& values() const noexcept { return values_; }
    /// The position of the value with id `id` in values(), or no_value_index when it has none.
    std::size_t value_index(value_id id) const {
        return id < index_of_id_.size() && index_of_id_[id] != no_index32 ? index_of_id_[id] : no_value_index;
    }
    hlo_value const* find(value_id id) const {
        std::size_t const k = value_index(id);
        return k == no_value_index ? nullptr : &values_[k];
    }
    /// Every id ever given out, including those of removed phis: XLA's next value id.
    value_id id_count() const noexcept { return static_cast<value_id>(records_.size()); }

    list_view<hlo_value_position> positions(hlo_value const& v) const {
        return list_view<hlo_value_position>(positions_.data() + v.positions_begin, v.positions_count);
    }
    list_view<hlo_value_use> uses(hlo_value const& v) const {
        return list_view<hlo_value_use>(uses_.data() + v.uses_begin, v.uses_count);
    }

    /// The subshapes of an instruction's result.
    using base::tree;
    /// The node of `index` in `i`'s result, or no_node.
    template <class Index>
    shape_node node_of(instruction_id i, Index const& index) const {
        return tree(i).find(index);
    }
    shape_node node_of(instruction_id i, std::initializer_list<std::int64_t> index) const { return tree(i).find(index); }
    basic_shape_index<P> index_of(instruction_id i, shape_node n) const { return tree(i).template index_of<P>(n); }
    /// The values that may be at node `n` of `i` (one, except without SSA form), sorted by id.
    list_view<value_id> value_set(instruction_id i, shape_node n) const {
        auto const& s = sets_.set(i, n);
        return list_view<value_id>(s.data(), s.size());
    }
    /// The defining position's index.
    basic_shape_index<P> index_of(hlo_value const& v) const { return index_of(v.instruction, v.node); }
    /// The value's shape: the subshape of its defining instruction's result.
    basic_shape<P> const& shape_of(hlo_value const& v) const {
        return m_.shape_of(v.instruction).subshape(index_of(v));
    }
    /// `name` for array-shaped instructions, `name{1}` for tuple-shaped ones: XLA's
    /// HloValue::ToShortString without id and color.
    std::string name_of(hlo_value const& v) const {
        std::string s(std::string_view(m_.instruction(v.instruction).name));
        if (m_.shape_of(v.instruction).is_tuple()) s += to_string(index_of(v));
        return s;
    }

    /// Call contexts and visiting orders (the computations' post order is the one ids follow).
    basic_call_graph<P> const& call_graph() const noexcept { return graph_; }
    /// What XLA would refuse and what could not be followed.
    std::vector<diagnostic> const& notes() const noexcept { return notes_; }

private:
    using typename base::id_set;
    using base::m_;
    using base::options_;
    using base::graph_;
    using base::ids_only_;
    using base::sets_;
    using base::records_;
    using base::phis_;
    using base::new_value;
    using base::define;
    using base::root_of;
    using base::parameter;
    using base::is_root;
    using base::update;

    void run();
    void initialize();
    void propagate();
    void optimize_phis();
    void collect_positions_and_uses();
    bool may_use(shape_node n, instruction_id operand, instruction_id user) const;

    std::vector<hlo_value> values_;
    static constexpr std::uint32_t no_index32 = ~std::uint32_t{0};
    std::vector<std::uint32_t> index_of_id_;  // by id: the value's place in values_, or no_index32
    std::vector<hlo_value_position> positions_;
    std::vector<hlo_value_use> uses_;
    std::vector<diagnostic> notes_;
};

using hlo_dataflow = basic_hlo_dataflow<>;

// ---------------------------------------------------------------------------------------------
// Implementation
// ---------------------------------------------------------------------------------------------

template <class P>
void basic_hlo_dataflow<P>::run() {
    for (computation_id c = 0; c < m_.computation_count(); ++c) {
        if (graph_.context(c) == call_context::both) {
            notes_.push_back(make_diagnostic(diagnostic_kind::invalid_module, severity::warning,
                                             "computation " + std::string(std::string_view(m_.computation(c).name)) +
                                                 " is called both as control flow and embedded; XLA refuses such "
                                                 "modules, hlomem lets its parameters define their own values")
                                 .about(diagnostic::none, c));
        }
    }
    initialize();
    propagate();
    optimize_phis();
    collect_positions_and_uses();
}

// XLA's InitializeInstructionValueSets: which instructions define which values (hlo/value.hpp).
template <class P>
void basic_hlo_dataflow<P>::initialize() {
    auto const tree_of = [this](instruction_id k) -> subshape_tree const& { return tree(k); };
    records_.reserve(m_.instruction_count());
    for (computation_id c : graph_.computation_post_order()) {
        if (ids_only_[c]) {
            // Their ids only: how many values each instruction defines does not depend on the
            // order they are visited in, and the records stay deleted (never values()).
            for (instruction_id i : m_.computation(c).instructions()) {
                define_values(m_, graph_, i, tree_of, options_.bitcast_defines_value,
                              [&](shape_node n) { records_.push_back({i, n, false, true}); });
            }
            continue;
        }
        for (instruction_id i : graph_.instruction_post_order(c)) {
            define_values(m_, graph_, i, tree_of, options_.bitcast_defines_value, [&](shape_node n) { define(i, n); });
        }
    }
}


// XLA's HloDataflowAnalysis::Propagate: a worklist ordered by the position of each instruction
// in a post order of the whole module (called computations inlined before their caller, a while's
// condition before its body); instructions of embedded computations all have priority 0.
template <class P>
void basic_hlo_dataflow<P>::propagate() {
    // 32 bits: a priority is a position in a walk that visits each instruction at most once.
    std::vector<std::uint32_t> priority(m_.instruction_count(), 0);
    std::vector<bool> has_priority(m_.instruction_count(), false);
    std::vector<bool> walked(m_.computation_count(), false);
    std::uint32_t ordinal = 0;
    std::function<void(computation_id)> walk = [&](computation_id c) {
        if (walked[c]) return;
        walked[c] = true;
        for (instruction_id i : graph_.instruction_post_order(c)) {
            auto const op = m_.instruction(i).opcode;
            if (op == hlo_opcode::call || op == hlo_opcode::async_start || op == hlo_opcode::conditional) {
                for (auto const& call : m_.calls(i)) walk(call.callee);
            }
            if (op == hlo_opcode::while_) {
                for (call_kind k : {call_kind::while_condition, call_kind::while_body}) {
                    computation_id const callee = graph_.called(i, k);
                    if (callee != no_computation) walk(callee);
                }
            }
            if (!has_priority[i]) {
                has_priority[i] = true;
                priority[i] = ordinal;
            }
            ++ordinal;
        }
    };
    if (m_.entry() != no_computation) walk(m_.entry());

    // The worklist starts with every instruction. Rather than a priority queue of all of them,
    // they sit in one array in the queue's order, (priority, id): those of priority 0 by id,
    // then the walked ones as walked (their priorities are distinct). An instruction queued again
    // after its turn (a while's parameters, a called computation's parameters, a caller of a
    // root) goes to a heap, and each step takes the smaller of the two heads: the order of XLA's
    // queue, with no heap operation where nothing loops.
    std::vector<instruction_id> order;
    order.reserve(m_.instruction_count());
    for (instruction_id i = 0; i < m_.instruction_count(); ++i) {
        if (priority[i] == 0 && !ids_only_[m_.instruction(i).computation]) order.push_back(i);
    }
    std::vector<instruction_id> by_priority(static_cast<std::size_t>(ordinal), no_instruction);
    for (instruction_id i = 0; i < m_.instruction_count(); ++i) {
        if (priority[i] > 0) by_priority[static_cast<std::size_t>(priority[i])] = i;
    }
    for (instruction_id i : by_priority) {
        if (i != no_instruction) order.push_back(i);
    }
    using work = std::pair<std::uint32_t, instruction_id>;
    std::vector<work> again;  // a min-heap
    std::vector<bool> queued(m_.instruction_count(), true);
    auto add = [&](instruction_id i) {
        if (i == no_instruction || queued[i]) return;
        queued[i] = true;
        again.emplace_back(priority[i], i);
        std::push_heap(again.begin(), again.end(), std::greater<work>());
    };
    std::size_t next = 0;
    while (next < order.size() || !again.empty()) {
        instruction_id i = no_instruction;
        if (again.empty() || (next < order.size() && work(priority[order[next]], order[next]) < again.front())) {
            i = order[next++];
        } else {
            std::pop_heap(again.begin(), again.end(), std::greater<work>());
            i = again.back().second;
            again.pop_back();
        }
        queued[i] = false;
        if (!update(i)) continue;
        for (instruction_id user : m_.users(i)) {
            add(user);
            auto const op = graph_.opcode(user);
            if (op == hlo_opcode::conditional) {
                auto const ops = m_.operands(user);
                std::size_t branch = 0;
                for (auto const& call : m_.calls(user)) {
                    if (call.kind != call_kind::conditional_branch) continue;
                    if (branch + 1 < ops.size() && ops[branch + 1] == i) add(parameter(call.callee, 0));
                    ++branch;
                }
            } else if (op == hlo_opcode::async_update || op == hlo_opcode::async_done) {
                computation_id const wrapped = graph_.async_wrapped_computation(user);
                if (wrapped != no_computation) {
                    for (instruction_id p : m_.parameters(wrapped)) add(p);
                }
            } else {
                for (auto const& call : m_.calls(user)) {
                    if (graph_.context(call.callee) != call_context::control_flow) continue;
                    auto const ops = m_.operands(user);
                    for (std::size_t k = 0; k < ops.size(); ++k) {
                        if (ops[k] == i) add(parameter(call.callee, k));
                    }
                }
            }
        }
        if (is_root(i)) {
            computation_id const c = m_.instruction(i).computation;
            for (auto const& call : m_.callers(c)) {
                if (m_.instruction(call.caller).opcode == hlo_opcode::while_) {
                    add(call.caller);
                    add(parameter(graph_.called(call.caller, call_kind::while_body), 0));
                    add(parameter(graph_.called(call.caller, call_kind::while_condition), 0));
                } else if (graph_.context(c) == call_context::control_flow ||
                           m_.instruction(call.caller).opcode == hlo_opcode::conditional) {
                    add(call.caller);
                }
            }
        }
    }
}

// HloDataflowAnalysis::OptimizePhiValues: every phi the phi graph found to stand for another
// value is replaced by it (XLA's PhiGraph::Optimize does the finding).
template <class P>
void basic_hlo_dataflow<P>::optimize_phis() {
    if (!options_.ssa_form || phis_.empty()) return;
    phis_.optimize();
    for (computation_id c = 0; c < m_.computation_count(); ++c) {
        if (ids_only_[c]) continue;
        for (instruction_id i : m_.computation(c).instructions()) {
            for (shape_node n = 0; n < tree(i).size(); ++n) {
                id_set& s = sets_.set(i, n);
                if (s.size() != 1 || !records_[s[0]].is_phi) continue;
                value_id const phi_id = s[0];
                value_id const replacement = phis_.optimized_value(phi_id);
                if (replacement != phi_id) {
                    s.assign_one(replacement);
                    records_[phi_id].deleted = true;
                }
            }
        }
    }
}

template <class P>
bool basic_hlo_dataflow<P>::may_use(shape_node n, instruction_id operand, instruction_id user) const {
    switch (graph_.opcode(user)) {
        case hlo_opcode::get_tuple_element:
        case hlo_opcode::copy:
            return n == 0;
        case hlo_opcode::async_done:
            return options_.async_done_uses_all_operand_values || n == 0 || tree(operand).top_index(n) == 1;
        case hlo_opcode::domain:
        case hlo_opcode::tuple:
            return false;
        default:
            return true;
    }
}

// Positions in module order (XLA gathers them over computations and instructions as listed), then
// uses (XLA's HloValue::ComputeUses): every user of every position, for each operand slot that
// holds it, when the user reads the value or is a root where the value appears.
template <class P>
void basic_hlo_dataflow<P>::collect_positions_and_uses() {
    // The positions besides the definitions, counted per value, then placed (module order within
    // each value): two sweeps of the sets, no list per value.
    std::vector<std::uint32_t> extra_begin(records_.size() + 1, 0);
    auto for_each_extra = [&](auto&& f) {
        for (computation_id c = 0; c < m_.computation_count(); ++c) {
            if (ids_only_[c]) continue;
            for (instruction_id i : m_.computation(c).instructions()) {
                shape_node const nodes = tree(i).size();
                for (shape_node n = 0; n < nodes; ++n) {
                    for (value_id v : sets_.set(i, n)) {
                        if (!records_[v].deleted && records_[v].instruction != i) f(v, i, n);
                    }
                }
            }
        }
    };
    for_each_extra([&](value_id v, instruction_id, shape_node) { ++extra_begin[v + 1]; });
    for (std::size_t k = 1; k < extra_begin.size(); ++k) extra_begin[k] += extra_begin[k - 1];
    std::vector<hlo_value_position> extra(extra_begin.back());
    {
        std::vector<std::uint32_t> fill(extra_begin.begin(), extra_begin.end() - 1);
        for_each_extra([&](value_id v, instruction_id i, shape_node n) { extra[fill[v]++] = {i, n}; });
    }
    positions_.reserve(records_.size() + extra.size());
    uses_.reserve(records_.size() + extra.size());
    values_.reserve(records_.size());
    instruction_id const entry_root = m_.entry() == no_computation ? no_instruction : m_.entry_computation().root;
    index_of_id_.assign(records_.size(), no_index32);
    for (value_id id = 0; id < records_.size(); ++id) {
        auto const& r = records_[id];
        if (r.deleted) continue;
        hlo_value v;
        v.id = id;
        v.instruction = r.instruction;
        v.node = r.node;
        v.is_phi = r.is_phi;
        v.positions_begin = static_cast<std::uint32_t>(positions_.size());
        positions_.push_back({r.instruction, r.node});
        positions_.insert(positions_.end(), extra.begin() + extra_begin[id], extra.begin() + extra_begin[id + 1]);
        v.positions_count = static_cast<std::uint32_t>(positions_.size()) - v.positions_begin;
        v.uses_begin = static_cast<std::uint32_t>(uses_.size());
        auto const here = list_view<hlo_value_position>(positions_.data() + v.positions_begin, v.positions_count);
        for (auto const& p : here) {
            if (p.instruction == entry_root) v.live_out = true;
        }
        auto at_root = [&](instruction_id user) {
            if (!is_root(user)) return false;
            return std::any_of(here.begin(), here.end(), [&](hlo_value_position const& p) { return p.instruction == user; });
        };
        for (auto const& p : here) {
            for (instruction_id user : m_.users(p.instruction)) {
                if (!may_use(p.node, p.instruction, user) && !at_root(user)) continue;
                auto const ops = graph_.operands(user);
                for (std::size_t k = 0; k < ops.size(); ++k) {
                    if (ops[k] == p.instruction) uses_.push_back({user, static_cast<std::uint32_t>(k), p.node});
                }
            }
        }
        v.uses_count = static_cast<std::uint32_t>(uses_.size()) - v.uses_begin;
        index_of_id_[id] = static_cast<std::uint32_t>(values_.size());
        values_.push_back(v);
    }
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_DATAFLOW_INSTANTIATIONS(EXTERN, P) \
    EXTERN template class basic_hlo_dataflow<P>;
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_DATAFLOW_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_HLO_DATAFLOW_HPP
