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
// (hlo/call_graph.hpp), and phi values are optimized by the phi graph (hlo/phi_graph.hpp).
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

// notes() are diagnostics (core/diagnostic.hpp) of kind invalid_module, warnings: something in
// the module that XLA would refuse and that the analysis models its own way. `first` is the
// instruction (none when it concerns a whole computation), `second` the computation.

/// XLA's HloDataflowAnalysis of a module. Holds a reference to the module, which must outlive it.
template <class P = default_policy>
class basic_hlo_dataflow {
public:
    using module_type = basic_hlo_module<P>;

    explicit basic_hlo_dataflow(module_type const& m, dataflow_options const& options = {})
        : m_(m), options_(options), graph_(m), ids_only_(fusion_bodies_left_out(m, options)), sets_(m, ids_only_) {
        run();
    }

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
    subshape_tree const& tree(instruction_id i) const { return sets_.tree(i); }
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
    struct record {
        instruction_id instruction;
        shape_node node;
        bool is_phi;
        bool deleted;
    };
    using id_set = instruction_value_sets::id_set;

    void run();
    void initialize();
    void propagate();
    bool update(instruction_id i);
    void optimize_phis();
    void collect_positions_and_uses();

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
    bool may_use(shape_node n, instruction_id operand, instruction_id user) const;

    module_type const& m_;
    dataflow_options options_;
    basic_call_graph<P> graph_;
    std::vector<std::uint8_t> ids_only_;    // by computation: a fusion body left out (fusion_body_values)
    instruction_value_sets sets_;           // none for the instructions of those fusion bodies
    std::vector<record> records_;           // by id
    phi_graph phis_;
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

// XLA's HloDataflowAnalysis::Phi.
template <class P>
bool basic_hlo_dataflow<P>::phi(instruction_id i, inputs_type const& inputs) {
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

// XLA's HloDataflowAnalysis::UpdateInstructionValueSet and the Update*ValueSet it dispatches to.
template <class P>
bool basic_hlo_dataflow<P>::update(instruction_id i) {
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
        case hlo_opcode::conditional: {
            inputs_type inputs;
            for (auto const& call : m_.calls(i)) {
                if (call.kind == call_kind::conditional_branch && root_of(call.callee) != no_instruction) {
                    inputs.push_back({root_of(call.callee), 0});
                }
            }
            return !inputs.empty() && merge(i, inputs, true);
        }
        case hlo_opcode::parameter: {
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
        case hlo_opcode::async_start: {
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
        case hlo_opcode::async_update: {
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
        case hlo_opcode::async_done:
            return !ops.empty() && forward_result(i, ops[0], root_of(graph_.async_wrapped_computation(i)));
        case hlo_opcode::all_gather_start:
            for (std::size_t k = 0; k < ops.size(); ++k) {
                shape_node const dst = ops.size() > 1 ? t.find(std::initializer_list<std::int64_t>{0, static_cast<std::int64_t>(k)})
                                                      : t.child(0, 0);
                if (dst != no_node) changed |= sets_.assign(sets_.set(i, dst), sets_.set(ops[k], 0));
            }
            return changed;
        case hlo_opcode::all_gather_done:
            return !ops.empty() && forward_result(i, ops[0], no_instruction);
        case hlo_opcode::all_reduce_done:
            if (ops.empty()) return false;
            return sets_.copy_subtree(i, 0, ops[0], 0);
        case hlo_opcode::collective_permute_start: {
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
        case hlo_opcode::collective_permute_done: {
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
        default:
            return false;
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

}  // namespace hlomem

#endif  // HLOMEM_HLO_DATAFLOW_HPP