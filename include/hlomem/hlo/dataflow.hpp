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
// The rules are XLA's (docs/xla-formats.md 6-7; xla/hlo/analysis/hlo_dataflow_analysis.cc), with
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
// Shape indices are handled as *nodes*: the subshapes of a shape in pre-order ({} = 0, {0} = 1,
// {0,0}, ..., {1}, ...), XLA's ShapeTree order. A subtree is contiguous, so a get-tuple-element's
// nodes are its operand's nodes from an offset on.
#ifndef HLOMEM_HLO_DATAFLOW_HPP
#define HLOMEM_HLO_DATAFLOW_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <queue>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/hlo/module.hpp>
#include <hlomem/core/shape.hpp>

namespace hlomem {

/// XLA's HloValue::Id: creation order in the dataflow analysis.
using value_id = std::uint32_t;
inline constexpr value_id no_value = std::numeric_limits<value_id>::max();
/// A subshape of an instruction's result, numbered in pre-order (0 = `{}`).
using shape_node = std::uint32_t;
inline constexpr shape_node no_node = std::numeric_limits<shape_node>::max();
/// "No such value" for positions in basic_hlo_dataflow::values().
inline constexpr std::size_t no_value_index = std::numeric_limits<std::size_t>::max();

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

/// The subshapes of one shape in pre-order, with their paths: `(f32[2], (s32[], u8[3]))` has the
/// nodes {}, {0}, {1}, {1,0}, {1,1}. Buffers `b(...)`, tokens and opaques are leaves.
class subshape_tree {
public:
    struct node {
        std::uint32_t parent = no_node;
        std::uint32_t subtree_size = 1;  ///< nodes in the subtree, this one included
        std::uint32_t children_begin = 0;  ///< into children_
        std::uint32_t child_count = 0;
        std::uint32_t path_begin = 0;  ///< into paths_
        std::uint32_t depth = 0;
        bool is_tuple = false;
        bool is_array = false;
    };

    subshape_tree() { nodes_.push_back(node{}); }
    template <class P>
    explicit subshape_tree(basic_shape<P> const& s) {
        std::vector<std::int64_t> path;
        add(s, no_node, path);
    }

    std::uint32_t size() const noexcept { return static_cast<std::uint32_t>(nodes_.size()); }
    node const& operator[](shape_node n) const { return nodes_[n]; }
    /// Child `i` of `n`, or no_node.
    shape_node child(shape_node n, std::int64_t i) const {
        auto const& x = nodes_[n];
        if (i < 0 || static_cast<std::uint64_t>(i) >= x.child_count) return no_node;
        return children_[x.children_begin + static_cast<std::size_t>(i)];
    }
    /// The path of `n`: `{1,0}` as its elements.
    std::pair<std::int64_t const*, std::size_t> path(shape_node n) const {
        return {paths_.data() + nodes_[n].path_begin, nodes_[n].depth};
    }
    /// The first element of the path of `n` (the top-level tuple element it is in); -1 for `{}`.
    std::int64_t top_index(shape_node n) const { return nodes_[n].depth == 0 ? -1 : paths_[nodes_[n].path_begin]; }
    /// The node at `path` below `from`, or no_node when the path leaves the tuple structure.
    template <class Path>
    shape_node find(Path const& p, shape_node from = 0) const {
        shape_node n = from;
        for (auto i : p) {
            n = child(n, static_cast<std::int64_t>(i));
            if (n == no_node) return no_node;
        }
        return n;
    }
    template <class P>
    basic_shape_index<P> index_of(shape_node n) const {
        basic_shape_index<P> out;
        auto [p, count] = path(n);
        for (std::size_t k = 0; k < count; ++k) out.push_back(static_cast<typename P::int_type>(p[k]));
        return out;
    }

private:
    template <class P>
    void add(basic_shape<P> const& s, std::uint32_t parent, std::vector<std::int64_t>& path) {
        auto const self = static_cast<std::uint32_t>(nodes_.size());
        node x;
        x.parent = parent;
        x.path_begin = static_cast<std::uint32_t>(paths_.size());
        x.depth = static_cast<std::uint32_t>(path.size());
        x.is_tuple = s.is_tuple();
        x.is_array = s.is_array();
        paths_.insert(paths_.end(), path.begin(), path.end());
        nodes_.push_back(x);
        if (!s.is_tuple()) return;
        // Children are listed contiguously once known; reserve their slots first.
        auto const begin = static_cast<std::uint32_t>(children_.size());
        nodes_[self].children_begin = begin;
        nodes_[self].child_count = static_cast<std::uint32_t>(s.tuple_shapes_size());
        children_.resize(children_.size() + s.tuple_shapes_size());
        for (std::size_t i = 0; i < s.tuple_shapes_size(); ++i) {
            children_[begin + i] = static_cast<std::uint32_t>(nodes_.size());
            path.push_back(static_cast<std::int64_t>(i));
            add(s.tuple_shape(i), self, path);
            path.pop_back();
        }
        nodes_[self].subtree_size = static_cast<std::uint32_t>(nodes_.size()) - self;
    }

    std::vector<node> nodes_;
    std::vector<std::uint32_t> children_;
    std::vector<std::int64_t> paths_;
};

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
};

/// One logical value (XLA's HloValue).
struct hlo_value {
    value_id id = no_value;
    instruction_id instruction = no_instruction;  ///< the defining instruction
    shape_node node = 0;                          ///< the defining index, as a node of its shape
    bool is_phi = false;
    bool live_out = false;  ///< appears at the entry computation's root
    std::uint32_t positions_begin = 0, positions_count = 0;
    std::uint32_t uses_begin = 0, uses_count = 0;
};

/// An HloPosition: the value appears at `node` of `instruction`'s result.
struct hlo_value_position {
    instruction_id instruction = no_instruction;
    shape_node node = 0;
};

/// An HloUse: `instruction` reads the value as (part of) operand `operand_number`, at `node` of
/// that operand's shape.
struct hlo_value_use {
    instruction_id instruction = no_instruction;
    std::uint32_t operand_number = 0;
    shape_node node = 0;
};

/// Something in the module that XLA would refuse or that the analysis could not follow.
struct dataflow_note {
    instruction_id instruction = no_instruction;  ///< no_instruction when it concerns a computation
    computation_id computation = no_computation;
    std::string message;
};

/// XLA's HloDataflowAnalysis of a module. Holds a reference to the module, which must outlive it.
template <class P = default_policy>
class basic_hlo_dataflow {
public:
    using module_type = basic_hlo_module<P>;

    explicit basic_hlo_dataflow(module_type const& m, dataflow_options const& options = {}) : m_(m), options_(options) {
        run();
    }

    module_type const& module() const noexcept { return m_; }
    dataflow_options const& options() const noexcept { return options_; }

    /// The values, sorted by id (phis removed by the optimization are gone).
    std::vector<hlo_value> const& values() const noexcept { return values_; }
    /// The position of the value with id `id` in values(), or no_value_index when it has none.
    std::size_t value_index(value_id id) const { return id < index_of_id_.size() ? index_of_id_[id] : no_value_index; }
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
    subshape_tree const& tree(instruction_id i) const { return *trees_[tree_of_[i]]; }
    /// The node of `index` in `i`'s result, or no_node.
    template <class Index>
    shape_node node_of(instruction_id i, Index const& index) const {
        return tree(i).find(index);
    }
    shape_node node_of(instruction_id i, std::initializer_list<std::int64_t> index) const { return tree(i).find(index); }
    basic_shape_index<P> index_of(instruction_id i, shape_node n) const { return tree(i).template index_of<P>(n); }
    /// The values that may be at node `n` of `i` (one, except without SSA form), sorted by id.
    list_view<value_id> value_set(instruction_id i, shape_node n) const {
        auto const& s = sets_[node_base_[i] + n];
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

    call_context context(computation_id c) const { return contexts_[c]; }
    /// Computations in the post order the ids follow (callees first).
    std::vector<computation_id> const& computation_post_order() const noexcept { return computation_order_; }
    /// The instructions of `c` in XLA's post order (operands before users).
    std::vector<instruction_id> instruction_post_order(computation_id c) const;
    /// The computation an async instruction wraps (through its chain's start), or no_computation.
    computation_id async_wrapped_computation(instruction_id i) const;
    /// What XLA would refuse and what could not be followed.
    std::vector<dataflow_note> const& notes() const noexcept { return notes_; }

private:
    struct record {
        instruction_id instruction;
        shape_node node;
        bool is_phi;
        bool deleted;
    };
    struct phi_node {
        value_id value;
        bool is_phi = false;
        bool dead = false;
        std::vector<std::uint32_t> operands;  // phi nodes
        std::vector<std::uint32_t> users;
        std::vector<value_id> values;         // the values that map to this node
    };
    using id_set = std::vector<value_id>;

    void run();
    void compute_contexts();
    void compute_computation_order();
    void initialize();
    void propagate();
    bool update(instruction_id i);
    void optimize_phis();
    void collect_positions_and_uses();

    // -- small helpers -------------------------------------------------------------------------
    id_set& set(instruction_id i, shape_node n) { return sets_[node_base_[i] + n]; }
    id_set const& set(instruction_id i, shape_node n) const { return sets_[node_base_[i] + n]; }
    value_id new_value(instruction_id i, shape_node n, bool is_phi) {
        auto const id = static_cast<value_id>(records_.size());
        records_.push_back({i, n, is_phi, false});
        return id;
    }
    void define(instruction_id i, shape_node n) { set(i, n).assign(1, new_value(i, n, false)); }
    static bool assign(id_set& dst, id_set const& src) {
        if (dst == src) return false;
        dst = src;
        return true;
    }
    /// dst := union of the sets.
    static bool assign_union(id_set& dst, std::initializer_list<id_set const*> sources) {
        id_set u;
        for (auto const* s : sources) u.insert(u.end(), s->begin(), s->end());
        std::sort(u.begin(), u.end());
        u.erase(std::unique(u.begin(), u.end()), u.end());
        return assign(dst, u);
    }
    /// A `*-done`: the arrays its start holds under {1} (the result) become its own, united with
    /// what the wrapped computation's `root` returns when there is one.
    bool forward_result(instruction_id i, instruction_id start, instruction_id root) {
        auto const& t = tree(i);
        shape_node const result = tree(start).child(0, 1);
        if (result == no_node || tree(start)[result].subtree_size != t.size()) return false;
        if (root != no_instruction && !same_tree(i, root)) root = no_instruction;
        bool changed = false;
        for (shape_node n = 0; n < t.size(); ++n) {
            if (!t[n].is_array) continue;
            if (root != no_instruction) {
                changed |= assign_union(set(i, n), {&set(start, result + n), &set(root, n)});
            } else {
                changed |= assign(set(i, n), set(start, result + n));
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
            id_set u;
            for (auto const& in : inputs) {
                if (!same_tree(i, in.first)) continue;
                auto const& s = set(in.first, n);
                u.insert(u.end(), s.begin(), s.end());
            }
            changed |= assign_union(set(i, n), {&u});
        }
        return changed;
    }
    /// Copies the subtree of `src` at `src_node` onto the subtree of `dst` at `dst_node`, node for
    /// node; nothing when their shapes differ (bad input).
    bool copy_subtree(instruction_id dst, shape_node dst_node, instruction_id src, shape_node src_node) {
        if (src == no_instruction || dst_node == no_node || src_node == no_node) return false;
        auto const n = tree(dst)[dst_node].subtree_size;
        if (tree(src)[src_node].subtree_size != n) return false;
        bool changed = false;
        for (std::uint32_t k = 0; k < n; ++k) changed |= assign(set(dst, dst_node + k), set(src, src_node + k));
        return changed;
    }
    bool same_tree(instruction_id a, instruction_id b) const {
        return a != no_instruction && b != no_instruction && tree(a).size() == tree(b).size();
    }
    /// The root of `c`, or no_instruction.
    instruction_id root_of(computation_id c) const { return c == no_computation ? no_instruction : m_.computation(c).root; }
    computation_id called(instruction_id i, call_kind kind) const {
        for (auto const& c : m_.calls(i)) {
            if (c.kind == kind) return c.callee;
        }
        return no_computation;
    }
    instruction_id parameter(computation_id c, std::size_t number) const {
        if (c == no_computation) return no_instruction;
        auto const params = m_.parameters(c);
        return number < params.size() ? params[number] : no_instruction;
    }
    bool is_root(instruction_id i) const { return root_of(m_.instruction(i).computation) == i; }
    bool phi(instruction_id i, inputs_type const& inputs);
    void register_phi(value_id phi, std::vector<value_id> const& inputs);
    std::uint32_t phi_node_of(value_id v);
    void replace_phi_node(std::uint32_t node, std::uint32_t replacement);
    bool may_use(shape_node n, instruction_id operand, instruction_id user) const;

    module_type const& m_;
    dataflow_options options_;
    std::vector<std::unique_ptr<subshape_tree>> trees_;
    std::vector<std::uint32_t> tree_of_;    // per instruction: index into trees_
    std::vector<std::uint32_t> node_base_;  // per instruction: its first set in sets_
    std::vector<id_set> sets_;
    std::vector<record> records_;           // by id
    std::vector<call_context> contexts_;
    std::vector<computation_id> computation_order_;
    std::vector<phi_node> phi_nodes_;
    std::vector<std::uint32_t> phi_node_of_value_;
    std::vector<hlo_value> values_;
    std::vector<std::size_t> index_of_id_;
    std::vector<hlo_value_position> positions_;
    std::vector<hlo_value_use> uses_;
    std::vector<dataflow_note> notes_;
};

using hlo_dataflow = basic_hlo_dataflow<>;

// ---------------------------------------------------------------------------------------------
// Implementation
// ---------------------------------------------------------------------------------------------

template <class P>
void basic_hlo_dataflow<P>::run() {
    // One subshape tree per distinct shape.
    std::vector<std::uint32_t> tree_of_shape(m_.shapes().size(), no_node);
    tree_of_.resize(m_.instruction_count());
    node_base_.resize(m_.instruction_count() + 1);
    std::uint32_t total = 0;
    for (instruction_id i = 0; i < m_.instruction_count(); ++i) {
        shape_id const s = m_.instruction(i).shape;
        std::uint32_t t = 0;
        if (s == no_shape || s >= tree_of_shape.size()) {
            t = static_cast<std::uint32_t>(trees_.size());
            trees_.push_back(std::make_unique<subshape_tree>());
        } else {
            if (tree_of_shape[s] == no_node) {
                tree_of_shape[s] = static_cast<std::uint32_t>(trees_.size());
                trees_.push_back(std::make_unique<subshape_tree>(m_.shape(s)));
            }
            t = tree_of_shape[s];
        }
        tree_of_[i] = t;
        node_base_[i] = total;
        total += trees_[t]->size();
    }
    node_base_[m_.instruction_count()] = total;
    sets_.assign(total, id_set{});
    compute_contexts();
    compute_computation_order();
    initialize();
    propagate();
    optimize_phis();
    collect_positions_and_uses();
}

// XLA's CallGraph::SetCallContexts: computations without callers run as control flow; a callee
// takes its call site's context, or its caller's context through a control-flow call.
template <class P>
void basic_hlo_dataflow<P>::compute_contexts() {
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
        for (instruction_id i : m_.computation(c).instructions()) {
            for (auto const& call : m_.calls(i)) {
                call_context const add = is_control_flow(call.kind) ? contexts_[c] : call_context::embedded;
                call_context const now = unite(add, contexts_[call.callee]);
                if (now != contexts_[call.callee]) {
                    contexts_[call.callee] = now;
                    work.push_back(call.callee);
                }
            }
        }
    }
    for (computation_id c = 0; c < m_.computation_count(); ++c) {
        if (contexts_[c] == call_context::both) {
            notes_.push_back({no_instruction, c,
                              "computation " + std::string(std::string_view(m_.computation(c).name)) +
                                  " is called both as control flow and embedded; XLA refuses such modules, hlomem lets "
                                  "its parameters define their own values"});
        }
    }
}

// XLA's HloModule::MakeComputationPostOrder (the depth-first variant): for every computation
// nobody calls, in module order, the computations it reaches (HloComputation::
// MakeEmbeddedComputationsList: an explicit stack, callees marked when pushed), then itself.
template <class P>
void basic_hlo_dataflow<P>::compute_computation_order() {
    std::vector<bool> added(m_.computation_count(), false);
    for (computation_id root = 0; root < m_.computation_count(); ++root) {
        if (!m_.callers(root).empty()) continue;
        std::vector<bool> visited(m_.computation_count(), false);
        struct frame {
            computation_id c;
            instruction_id next;
        };
        std::vector<frame> stack;
        auto push_callees = [&](instruction_id i) {
            auto const calls = m_.calls(i);
            for (std::size_t k = calls.size(); k-- > 0;) {
                computation_id const callee = calls[k].callee;
                if (!visited[callee]) {
                    visited[callee] = true;
                    stack.push_back({callee, m_.computation(callee).first_instruction});
                }
            }
        };
        for (instruction_id i : m_.computation(root).instructions()) {
            push_callees(i);
            while (!stack.empty()) {
                frame& top = stack.back();
                auto const& comp = m_.computation(top.c);
                if (top.next == comp.first_instruction + comp.instruction_count) {
                    computation_id const done = top.c;
                    stack.pop_back();
                    if (!added[done]) {
                        added[done] = true;
                        computation_order_.push_back(done);
                    }
                } else {
                    push_callees(top.next++);
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
std::vector<instruction_id> basic_hlo_dataflow<P>::instruction_post_order(computation_id c) const {
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
                for (instruction_id p : m_.control_predecessors(cur)) {
                    if (in_computation(p) && state[local(p)] != visited) stack.push_back(p);
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

template <class P>
computation_id basic_hlo_dataflow<P>::async_wrapped_computation(instruction_id i) const {
    computation_id c = called(i, call_kind::async);
    if (c != no_computation) return c;
    instruction_id const start = m_.async_start_of(i);
    return start == no_instruction ? no_computation : called(start, call_kind::async);
}

// XLA's InitializeInstructionValueSets: which instructions define which values.
template <class P>
void basic_hlo_dataflow<P>::initialize() {
    for (computation_id c : computation_order_) {
        call_context const context = contexts_[c];
        bool const has_callers = !m_.callers(c).empty();
        for (instruction_id i : instruction_post_order(c)) {
            auto const& t = tree(i);
            auto define_where = [&](auto pred) {
                for (shape_node n = 0; n < t.size(); ++n) {
                    if (pred(n)) define(i, n);
                }
            };
            auto define_all = [&] { define_where([](shape_node) { return true; }); };
            auto define_tuples = [&] { define_where([&](shape_node n) { return t[n].is_tuple; }); };
            auto define_at = [&](std::initializer_list<std::int64_t> index) {
                shape_node const n = t.find(index);
                if (n != no_node) define(i, n);
            };
            switch (m_.instruction(i).opcode) {
                case hlo_opcode::bitcast:
                    if (options_.bitcast_defines_value) define_all();
                    break;
                case hlo_opcode::add_dependency:
                case hlo_opcode::while_:
                case hlo_opcode::call:
                case hlo_opcode::conditional:
                case hlo_opcode::get_tuple_element:
                case hlo_opcode::domain:
                case hlo_opcode::opt_barrier:
                    break;
                case hlo_opcode::parameter:
                    if (!has_callers || context == call_context::embedded || context == call_context::both) define_all();
                    break;
                case hlo_opcode::copy:
                case hlo_opcode::tuple:
                    define_at({});
                    break;
                case hlo_opcode::async_start: {
                    // {{operands}, result, contexts...}: the tuples and the contexts are new; the
                    // result is the wrapped computation's, unless that computation is not known.
                    bool const wrapped = async_wrapped_computation(i) != no_computation;
                    define_where([&](shape_node n) {
                        std::int64_t const top = t.top_index(n);
                        return t[n].is_tuple || (!wrapped && top == 1) || top > 1;
                    });
                    break;
                }
                case hlo_opcode::async_update:
                case hlo_opcode::async_done:
                    define_tuples();
                    break;
                case hlo_opcode::copy_start:
                    define_at({});
                    define_at({0});
                    define_at({2});
                    break;
                case hlo_opcode::copy_done:
                case hlo_opcode::all_reduce_done:
                    break;
                case hlo_opcode::all_gather_start:
                    define_where([&](shape_node n) { return t[n].is_tuple || t.top_index(n) == 1; });
                    break;
                case hlo_opcode::all_gather_done:
                case hlo_opcode::collective_permute_done:
                    if (t[0].is_tuple) define_at({});
                    break;
                case hlo_opcode::collective_permute_start: {
                    define_at({});
                    define_at({1});
                    for (std::uint32_t k = 2; k < t[0].child_count; ++k) define(i, t.child(0, k));
                    auto const ops = m_.operands(i);
                    if (ops.size() == 4) {  // in place: the destination is operand 1
                        auto const& dst = tree(ops[1]);
                        if (dst[0].is_tuple) {
                            for (std::uint32_t k = 0; k < dst[0].child_count; ++k) {
                                define_at({1, static_cast<std::int64_t>(k)});
                            }
                        }
                    } else if (ops.size() > 1) {
                        for (std::size_t k = 0; k < ops.size(); ++k) define_at({1, static_cast<std::int64_t>(k)});
                    }
                    break;
                }
                case hlo_opcode::recv_done:
                    define_at({});
                    define_at({1});
                    break;
                case hlo_opcode::send:
                    define_at({});
                    define_at({1});
                    define_at({2});
                    break;
                default:
                    define_all();
                    break;
            }
        }
    }
}

// XLA's HloDataflowAnalysis::Phi.
template <class P>
bool basic_hlo_dataflow<P>::phi(instruction_id i, inputs_type const& inputs) {
    bool changed = false;
    auto const& t = tree(i);
    for (shape_node n = 0; n < t.size(); ++n) {
        id_set& here = set(i, n);
        value_id const current = here.size() == 1 ? here[0] : no_value;
        std::vector<value_id> input_ids;
        for (auto const& [src, root] : inputs) {
            if (root == no_node || tree(src)[root].subtree_size != t[0].subtree_size) continue;
            auto const& s = set(src, root + n);
            input_ids.insert(input_ids.end(), s.begin(), s.end());
        }
        bool const defined_here = current != no_value && records_[current].instruction == i && records_[current].node == n;
        if (input_ids.empty()) continue;
        if (input_ids.size() == 1) {
            if (current == no_value || current != input_ids[0]) {
                if (current != no_value && defined_here) records_[current].deleted = true;
                here.assign(1, input_ids[0]);
                changed = true;
            }
            continue;
        }
        bool const phi_here = defined_here && records_[current].is_phi;
        if (!phi_here) {
            value_id const p = new_value(i, n, true);
            here.assign(1, p);
            register_phi(p, input_ids);
            changed = true;
        } else {
            auto const& node = phi_nodes_[phi_node_of(current)];
            std::vector<value_id> old_inputs;
            for (auto o : node.operands) old_inputs.push_back(phi_nodes_[o].value);
            auto unique_sorted = [](std::vector<value_id> v) {
                std::sort(v.begin(), v.end());
                v.erase(std::unique(v.begin(), v.end()), v.end());
                return v;
            };
            if (unique_sorted(old_inputs) != unique_sorted(input_ids)) {
                register_phi(current, input_ids);
                changed = true;
            }
        }
    }
    return changed;
}

template <class P>
std::uint32_t basic_hlo_dataflow<P>::phi_node_of(value_id v) {
    if (phi_node_of_value_.size() <= v) phi_node_of_value_.resize(v + 1, no_node);
    if (phi_node_of_value_[v] == no_node) {
        phi_node_of_value_[v] = static_cast<std::uint32_t>(phi_nodes_.size());
        phi_node node;
        node.value = v;
        node.values.push_back(v);
        phi_nodes_.push_back(std::move(node));
    }
    return phi_node_of_value_[v];
}

template <class P>
void basic_hlo_dataflow<P>::register_phi(value_id phi, std::vector<value_id> const& inputs) {
    std::uint32_t const node = phi_node_of(phi);
    phi_nodes_[node].is_phi = true;
    std::vector<std::uint32_t> operands;
    for (value_id v : inputs) operands.push_back(phi_node_of(v));
    phi_nodes_[node].operands = std::move(operands);
}

template <class P>
void basic_hlo_dataflow<P>::replace_phi_node(std::uint32_t node, std::uint32_t replacement) {
    for (std::size_t guard = 0; phi_nodes_[replacement].dead && guard <= phi_nodes_.size(); ++guard) {
        replacement = phi_node_of_value_[phi_nodes_[replacement].value];
    }
    if (phi_nodes_[node].dead || node == replacement) return;
    for (std::uint32_t user : phi_nodes_[node].users) {
        std::replace(phi_nodes_[user].operands.begin(), phi_nodes_[user].operands.end(), node, replacement);
    }
    for (std::uint32_t operand : phi_nodes_[node].operands) {
        std::replace(phi_nodes_[operand].users.begin(), phi_nodes_[operand].users.end(), node, replacement);
    }
    for (value_id v : phi_nodes_[node].values) phi_node_of_value_[v] = replacement;
    auto& moved = phi_nodes_[node].values;
    phi_nodes_[replacement].values.insert(phi_nodes_[replacement].values.end(), moved.begin(), moved.end());
    moved.clear();
    phi_nodes_[node].dead = true;
}

// XLA's HloDataflowAnalysis::Propagate: a worklist ordered by the position of each instruction
// in a post order of the whole module (called computations inlined before their caller, a while's
// condition before its body); instructions of embedded computations all have priority 0.
template <class P>
void basic_hlo_dataflow<P>::propagate() {
    std::vector<std::int64_t> priority(m_.instruction_count(), 0);
    std::vector<bool> has_priority(m_.instruction_count(), false);
    std::vector<bool> walked(m_.computation_count(), false);
    std::int64_t ordinal = 0;
    std::function<void(computation_id)> walk = [&](computation_id c) {
        if (walked[c]) return;
        walked[c] = true;
        for (instruction_id i : instruction_post_order(c)) {
            auto const op = m_.instruction(i).opcode;
            if (op == hlo_opcode::call || op == hlo_opcode::async_start || op == hlo_opcode::conditional) {
                for (auto const& call : m_.calls(i)) walk(call.callee);
            }
            if (op == hlo_opcode::while_) {
                for (call_kind k : {call_kind::while_condition, call_kind::while_body}) {
                    computation_id const callee = called(i, k);
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

    using work = std::pair<std::int64_t, instruction_id>;
    std::priority_queue<work, std::vector<work>, std::greater<work>> worklist;
    std::vector<bool> queued(m_.instruction_count(), false);
    auto add = [&](instruction_id i) {
        if (i == no_instruction || queued[i]) return;
        queued[i] = true;
        worklist.emplace(priority[i], i);
    };
    for (computation_id c : computation_order_) {
        for (instruction_id i : instruction_post_order(c)) add(i);
    }
    while (!worklist.empty()) {
        instruction_id const i = worklist.top().second;
        worklist.pop();
        queued[i] = false;
        if (!update(i)) continue;
        for (instruction_id user : m_.users(i)) {
            add(user);
            auto const op = m_.instruction(user).opcode;
            if (op == hlo_opcode::conditional) {
                auto const ops = m_.operands(user);
                std::size_t branch = 0;
                for (auto const& call : m_.calls(user)) {
                    if (call.kind != call_kind::conditional_branch) continue;
                    if (branch + 1 < ops.size() && ops[branch + 1] == i) add(parameter(call.callee, 0));
                    ++branch;
                }
            } else if (op == hlo_opcode::async_update || op == hlo_opcode::async_done) {
                computation_id const wrapped = async_wrapped_computation(user);
                if (wrapped != no_computation) {
                    for (instruction_id p : m_.parameters(wrapped)) add(p);
                }
            } else {
                for (auto const& call : m_.calls(user)) {
                    if (contexts_[call.callee] != call_context::control_flow) continue;
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
                    add(parameter(called(call.caller, call_kind::while_body), 0));
                    add(parameter(called(call.caller, call_kind::while_condition), 0));
                } else if (contexts_[c] == call_context::control_flow ||
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
    auto const ops = m_.operands(i);
    auto const& t = tree(i);
    bool changed = false;
    switch (inst.opcode) {
        case hlo_opcode::add_dependency:
            if (ops.empty()) return false;
            return copy_subtree(i, 0, ops[0], 0);
        case hlo_opcode::bitcast:
            if (options_.bitcast_defines_value || ops.empty()) return false;
            return copy_subtree(i, 0, ops[0], 0);
        case hlo_opcode::domain:
        case hlo_opcode::opt_barrier:
            if (ops.empty()) return false;
            return copy_subtree(i, 0, ops[0], 0);
        case hlo_opcode::copy:
            if (ops.empty() || !same_tree(i, ops[0])) return false;
            for (shape_node n = 1; n < t.size(); ++n) changed |= assign(set(i, n), set(ops[0], n));
            return changed;
        case hlo_opcode::get_tuple_element:
            if (ops.empty()) return false;
            return copy_subtree(i, 0, ops[0], tree(ops[0]).child(0, inst.tuple_index));
        case hlo_opcode::tuple:
            for (std::size_t k = 0; k < ops.size(); ++k) {
                changed |= copy_subtree(i, t.child(0, static_cast<std::int64_t>(k)), ops[k], 0);
            }
            return changed;
        case hlo_opcode::call: {
            return copy_subtree(i, 0, root_of(called(i, call_kind::call)), 0);
        }
        case hlo_opcode::while_: {
            instruction_id const body_root = root_of(called(i, call_kind::while_body));
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
            if (contexts_[c] != call_context::control_flow || m_.callers(c).empty()) return false;
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
                        instruction_id const body_root = root_of(called(caller, call_kind::while_body));
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
                            changed |= assign_union(set(i, n), {&set(caller_ops[0], from + n)});
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
            return copy_subtree(i, t.child(0, 0), ops[0], 0);
        case hlo_opcode::recv_done: {
            if (ops.empty()) return false;
            shape_node const n0 = t.child(0, 0);
            if (n0 == no_node || tree(ops[0]).child(0, 0) == no_node) return false;
            return copy_subtree(i, n0, ops[0], tree(ops[0]).child(0, 0));
        }
        case hlo_opcode::copy_start:
            if (ops.empty() || t.child(0, 1) == no_node) return false;
            return assign(set(i, t.child(0, 1)), set(ops[0], 0));
        case hlo_opcode::copy_done: {
            if (ops.empty() || tree(ops[0]).child(0, 0) == no_node) return false;
            return assign(set(i, 0), set(ops[0], tree(ops[0]).child(0, 0)));
        }
        case hlo_opcode::async_start: {
            shape_node const operands_node = t.child(0, 0);
            for (std::size_t k = 0; k < ops.size() && operands_node != no_node; ++k) {
                shape_node const dst = t.child(operands_node, static_cast<std::int64_t>(k));
                if (dst == no_node || tree(ops[k])[0].subtree_size != t[dst].subtree_size) continue;
                for (shape_node n = 0; n < tree(ops[k]).size(); ++n) {
                    if (tree(ops[k])[n].is_array) changed |= assign(set(i, dst + n), set(ops[k], n));
                }
            }
            instruction_id const root = root_of(async_wrapped_computation(i));
            shape_node const result = t.child(0, 1);
            if (root == no_instruction || result == no_node) return changed;
            if (tree(root).size() != t[result].subtree_size) return changed;
            for (shape_node n = 0; n < tree(root).size(); ++n) {
                if (tree(root)[n].is_array) changed |= assign(set(i, result + n), set(root, n));
            }
            return changed;
        }
        case hlo_opcode::async_update: {
            if (ops.empty() || !same_tree(i, ops[0])) return false;
            instruction_id const root = root_of(async_wrapped_computation(i));
            shape_node const result = t.child(0, 1);
            for (shape_node n = 1; n < t.size(); ++n) {
                if (!t[n].is_array) continue;
                if (t.top_index(n) == 1 && root != no_instruction && result != no_node &&
                    tree(root).size() == t[result].subtree_size) {
                    changed |= assign_union(set(i, n), {&set(ops[0], n), &set(root, n - result)});
                } else {
                    changed |= assign(set(i, n), set(ops[0], n));
                }
            }
            return changed;
        }
        case hlo_opcode::async_done:
            return !ops.empty() && forward_result(i, ops[0], root_of(async_wrapped_computation(i)));
        case hlo_opcode::all_gather_start:
            for (std::size_t k = 0; k < ops.size(); ++k) {
                shape_node const dst = ops.size() > 1 ? t.find(std::initializer_list<std::int64_t>{0, static_cast<std::int64_t>(k)})
                                                      : t.child(0, 0);
                if (dst != no_node) changed |= assign(set(i, dst), set(ops[k], 0));
            }
            return changed;
        case hlo_opcode::all_gather_done:
            return !ops.empty() && forward_result(i, ops[0], no_instruction);
        case hlo_opcode::all_reduce_done:
            if (ops.empty()) return false;
            return copy_subtree(i, 0, ops[0], 0);
        case hlo_opcode::collective_permute_start: {
            if (ops.size() > 1 && ops.size() != 4) {
                for (std::size_t k = 0; k < ops.size(); ++k) {
                    shape_node const dst = t.find(std::initializer_list<std::int64_t>{0, static_cast<std::int64_t>(k)});
                    if (dst != no_node) changed |= assign(set(i, dst), set(ops[k], 0));
                }
                return changed;
            }
            if (ops.empty()) return false;
            auto const& src = tree(ops[0]);
            if (src[0].is_tuple) {
                for (std::uint32_t k = 0; k < src[0].child_count; ++k) {
                    shape_node const dst = t.find(std::initializer_list<std::int64_t>{0, static_cast<std::int64_t>(k)});
                    if (dst != no_node) changed |= assign(set(i, dst), set(ops[0], src.child(0, k)));
                }
                return changed;
            }
            if (t.child(0, 0) == no_node) return false;
            return assign(set(i, t.child(0, 0)), set(ops[0], 0));
        }
        case hlo_opcode::collective_permute_done: {
            if (ops.empty()) return false;
            auto const& src = tree(ops[0]);
            if (t[0].is_tuple) {
                for (std::uint32_t k = 0; k < t[0].child_count; ++k) {
                    shape_node const from = src.find(std::initializer_list<std::int64_t>{1, static_cast<std::int64_t>(k)});
                    if (from != no_node) changed |= assign(set(i, t.child(0, k)), set(ops[0], from));
                }
                return changed;
            }
            if (src.child(0, 1) == no_node) return false;
            return assign(set(i, 0), set(ops[0], src.child(0, 1)));
        }
        default:
            return false;
    }
}

// XLA's PhiGraph::Optimize and HloDataflowAnalysis::OptimizePhiValues: a phi whose inputs are one
// value (itself aside), or a closure of phis fed by a single non-phi value, is that value.
template <class P>
void basic_hlo_dataflow<P>::optimize_phis() {
    if (!options_.ssa_form) return;
    for (std::uint32_t k = 0; k < phi_nodes_.size(); ++k) {
        for (std::uint32_t o : phi_nodes_[k].operands) phi_nodes_[o].users.push_back(k);
    }
    bool changed = true;
    while (changed) {
        changed = false;
        std::vector<bool> checked(phi_nodes_.size(), false);
        for (std::uint32_t k = 0; k < phi_nodes_.size(); ++k) {
            if (!phi_nodes_[k].is_phi || phi_nodes_[k].dead) continue;
            auto& ops = phi_nodes_[k].operands;
            ops.erase(std::remove(ops.begin(), ops.end(), k), ops.end());
            auto& us = phi_nodes_[k].users;
            us.erase(std::remove(us.begin(), us.end(), k), us.end());
            if (ops.empty()) continue;
            if (std::all_of(ops.begin(), ops.end(), [&](std::uint32_t o) { return o == ops[0]; })) {
                replace_phi_node(k, ops[0]);
                changed = true;
                continue;
            }
            if (checked[k]) continue;
            std::vector<bool> in_set(phi_nodes_.size(), false);
            std::vector<std::uint32_t> closure;
            std::vector<std::uint32_t> queue{k};
            std::uint32_t non_phi = no_node;
            bool distinct = false;
            for (std::size_t q = 0; q < queue.size() && !distinct; ++q) {
                std::uint32_t const todo = queue[q];
                if (in_set[todo]) continue;
                checked[todo] = true;
                in_set[todo] = true;
                closure.push_back(todo);
                for (std::uint32_t o : phi_nodes_[todo].operands) queue.push_back(o);
                if (!phi_nodes_[todo].is_phi) {
                    if (non_phi != no_node && non_phi != todo) {
                        distinct = true;
                    } else {
                        non_phi = todo;
                    }
                }
            }
            if (distinct || non_phi == no_node) continue;
            for (std::uint32_t node : closure) {
                if (!phi_nodes_[node].is_phi) continue;
                replace_phi_node(node, non_phi);
                changed = true;
            }
        }
    }
    for (computation_id c = 0; c < m_.computation_count(); ++c) {
        for (instruction_id i : m_.computation(c).instructions()) {
            for (shape_node n = 0; n < tree(i).size(); ++n) {
                id_set& s = set(i, n);
                if (s.size() != 1 || !records_[s[0]].is_phi) continue;
                value_id const phi_id = s[0];
                if (phi_id >= phi_node_of_value_.size() || phi_node_of_value_[phi_id] == no_node) continue;
                value_id const replacement = phi_nodes_[phi_node_of_value_[phi_id]].value;
                if (replacement != phi_id) {
                    s.assign(1, replacement);
                    records_[phi_id].deleted = true;
                }
            }
        }
    }
}

template <class P>
bool basic_hlo_dataflow<P>::may_use(shape_node n, instruction_id operand, instruction_id user) const {
    switch (m_.instruction(user).opcode) {
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
    std::vector<std::vector<hlo_value_position>> extra(records_.size());
    for (computation_id c = 0; c < m_.computation_count(); ++c) {
        for (instruction_id i : m_.computation(c).instructions()) {
            for (shape_node n = 0; n < tree(i).size(); ++n) {
                for (value_id v : set(i, n)) {
                    if (records_[v].deleted) continue;
                    if (records_[v].instruction != i) extra[v].push_back({i, n});
                }
            }
        }
    }
    instruction_id const entry_root = m_.entry() == no_computation ? no_instruction : m_.entry_computation().root;
    index_of_id_.assign(records_.size(), no_value_index);
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
        positions_.insert(positions_.end(), extra[id].begin(), extra[id].end());
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
                auto const ops = m_.operands(user);
                for (std::size_t k = 0; k < ops.size(); ++k) {
                    if (ops[k] == p.instruction) uses_.push_back({user, static_cast<std::uint32_t>(k), p.node});
                }
            }
        }
        v.uses_count = static_cast<std::uint32_t>(uses_.size()) - v.uses_begin;
        index_of_id_[id] = values_.size();
        values_.push_back(v);
    }
}

}  // namespace hlomem

#endif  // HLOMEM_HLO_DATAFLOW_HPP
