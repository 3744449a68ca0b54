// hlomem/hlo/origin.hpp: where a value's bytes come from in the user's program when its own
// instruction states no source line: an argument of the jitted function, the loop state a while
// body receives, a copy XLA inserted, a fusion whose metadata sits inside its computation.
//
// A value's own instruction often names no line. Of the bytes at real GPU peaks (issue 30), most
// "no source" bytes are parameters (the function's arguments and the parameters of while bodies
// that carry the loop state), then `copy` instructions XLA inserted, fusions and async collectives
// without metadata. Their bytes still come from a line of the program or from an argument; the
// origin of a value says which, and how it was traced:
//
//   own        its instruction states a source (metadata={op_name=... source_file=... source_line=N},
//              or metadata={op_name=... stack_frame_id=N} with the module's stack tables at hand:
//              the line of frame N, hlo/stack_frames.hpp, metadata_position)
//   argument   it is entry parameter N: "argument N" of the function (the parameter's op_name is
//              the name JAX gave it: `op_name="args[0]"`, `op_name="psi"`)
//   output     it is (an element of) the entry root: "output N", with its source, own or traced
//   inherited  its source is another instruction's (or an argument), reached by:
//     call_parameter      a parameter of a while body or condition, a conditional branch, a call
//                         or an async computation takes what the operand at the call site holds
//                         (the while's init tuple element, through tuple/get-tuple-element)
//                         (xla/service/hlo_dataflow_analysis.cc, UpdateParameterValueSet)
//     forwarded           copy, bitcast, get-tuple-element, tuple, copy-start/copy-done, async
//                         start/done pairs forward or copy the value of an operand
//                         (HloDataflowAnalysis::UpdateCopyStartValueSet, UpdateAsyncDoneValueSet, ...)
//     called_computation  a fusion or custom call without metadata takes that of the instructions
//                         of its computation: the root's first, then the line most of them state
//     operands            an instruction without metadata that forwards nothing takes the source of
//                         its operands' producers, the first that has one
//
// With the module (a dump's `*after_optimizations.txt`, or the module an assignment was derived
// from) the walk follows the module's instructions. A dump alone states only the instructions that
// define values, in `from instruction:` lines: the walk reads their operands there, finds an
// operand that defines no value (a get-tuple-element, a bitcast) among the other values'
// `positions:`, and finds the init of a while body's phi value among the values of its slice: XLA's
// HloAliasAnalysis gives the while's init, its body parameter and its result one HloBuffer, and
// the init is the value listed as used by `while, operand 0 {i}`.
#ifndef HLOMEM_HLO_ORIGIN_HPP
#define HLOMEM_HLO_ORIGIN_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <hlomem/detail/radix_sort.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/hlo/metadata.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/hlo/name_table.hpp>
#include <hlomem/hlo/opcode.hpp>
#include <hlomem/hlo/origin_steps.hpp>
#include <hlomem/hlo/stack_frames.hpp>

namespace hlomem {

/// Where a value's metadata was read.
enum class metadata_origin : std::uint8_t {
    none,    ///< neither the dump nor the module states any for its defining instruction
    dump,    ///< the dump's ` from instruction: ... metadata={...}`
    module,  ///< the module's instruction of that name
};

inline constexpr std::string_view to_string(metadata_origin o) noexcept {
    switch (o) {
        case metadata_origin::none: return "none";
        case metadata_origin::dump: return "dump";
        case metadata_origin::module: return "module";
    }
    return "none";
}

/// The metadata of a value's defining instruction. Strings view the texts the assignment and the
/// module were read from (or their own strings), as XLA wrote them between the quotes: C escapes
/// kept (c_unescape reads them). Empty / 0 when absent.
struct value_source {
    std::string_view op_type;
    std::string_view op_name;
    std::string_view source_file;
    std::int64_t source_line = 0;
    std::int64_t stack_frame_id = 0;
    metadata_origin origin = metadata_origin::none;

    bool has_metadata() const noexcept { return origin != metadata_origin::none; }
    /// Whether it names a source file (XLA prints source_line only with a source_file; a
    /// stack_frame_id resolved in the module's tables gives both, origin_source_from).
    bool has_source_line() const noexcept { return !source_file.empty(); }
};

/// What a value's origin is (the JSON key `origin.kind`).
enum class origin_kind : std::uint8_t { none, own, argument, output, inherited };

inline constexpr std::string_view to_string(origin_kind k) noexcept {
    switch (k) {
        case origin_kind::none: return "none";
        case origin_kind::own: return "own";
        case origin_kind::argument: return "argument";
        case origin_kind::output: return "output";
        case origin_kind::inherited: return "inherited";
    }
    return "none";
}

/// How an inherited origin was reached from the value: the first step of the walk.
enum class inheritance : std::uint8_t { none, call_parameter, forwarded, called_computation, operands };

inline constexpr std::string_view to_string(inheritance h) noexcept {
    switch (h) {
        case inheritance::none: return "none";
        case inheritance::call_parameter: return "call_parameter";
        case inheritance::forwarded: return "forwarded";
        case inheritance::called_computation: return "called_computation";
        case inheritance::operands: return "operands";
    }
    return "none";
}

/// Where a value's bytes come from.
struct value_origin {
    origin_kind kind = origin_kind::none;
    inheritance how = inheritance::none;  ///< for a source traced from another instruction
    value_source source;                  ///< the metadata of the instruction traced to (own: the value's)
    std::int64_t argument = -1;           ///< entry parameter N when the source is an argument
    std::string_view argument_name;       ///< that parameter's op_name: the name JAX gave it
    bool donated = false;                 ///< the argument is donated (input_output_alias, buffer_donor)
    std::size_t argument_value = npos;    ///< the argument's value in the assignment (its shape), or npos
    std::int64_t output = -1;             ///< "output N": the value is element N of the entry root
    std::string through;                  ///< the instruction (and index) traced to; empty for own

    bool is_argument() const noexcept { return argument >= 0; }
    /// A source line or an argument: anything but `no source`.
    bool has_source() const noexcept { return source.has_source_line() || is_argument(); }
};

namespace detail {

/// A value's source from its instruction's metadata `m`: the file and line are metadata_position's
/// (its own source_file and source_line, else the frame its stack_frame_id names in `frames`, the
/// module's tables; null: none at hand).
template <class Q, class F>
value_source origin_source_from(basic_hlo_metadata<Q> const& m, metadata_origin origin, basic_stack_frame_index<F> const* frames) {
    auto const at = metadata_position(m, frames);
    return {std::string_view(m.op_type), std::string_view(m.op_name), at.file, at.line, m.stack_frame_id, origin};
}

inline std::string index_suffix(std::vector<std::int64_t> const& index) {
    if (index.empty()) return {};
    std::string s = "{";
    for (std::size_t k = 0; k < index.size(); ++k) s += (k ? "," : "") + std::to_string(index[k]);
    return s + "}";
}

/// The walk, over a graph `G` of nodes (module instructions or dump values) that answers:
/// source(n), opcode(n), index(n), name(n), entry_parameter(n) (N or -1), tuple_index(n),
/// operand_count(n), operand(n, k, index), call_feeds(n) (what feeds a non-entry parameter at
/// its call site), body_roots(n) (a while's body root), callee_source(n) (a fusion's computation's metadata) and argument(n, origin&).
template <class G>
class origin_walk {
public:
    using node = typename G::node;
    explicit origin_walk(G const& g) : g_(g) {}

    /// The origin of the value at `start`, whose own metadata is `own`.
    value_origin origin_of(node const& start, value_source const& own) const {
        value_origin o;
        if (g_.entry_parameter(start) >= 0) {
            o.kind = origin_kind::argument;
            o.source = own;
            g_.argument(start, o);
            return o;
        }
        if (own.has_source_line()) {
            o.kind = origin_kind::own;
            o.source = own;
            return o;
        }
        int budget = max_steps;
        if (walk(start, o, budget)) {
            o.kind = origin_kind::inherited;
            return o;
        }
        o = value_origin{};
        if (!own.op_name.empty() || !own.op_type.empty()) {
            o.kind = origin_kind::own;  // an op_name, no line: what the instruction states is all there is
            o.source = own;
        }
        return o;
    }

private:
    /// The most instructions one value's walk visits: a walk through operands branches.
    static constexpr int max_steps = 256;

    /// Whether `n` is where the walk ends: an argument, or an instruction that states a line.
    bool reached(node const& n, value_origin& o) const {
        if (g_.entry_parameter(n) >= 0) {
            o.source = g_.source(n);
            o.through = g_.name(n);
            g_.argument(n, o);
            return true;
        }
        auto const s = g_.source(n);
        if (!s.has_source_line()) return false;
        o.source = s;
        o.through = g_.name(n);
        return true;
    }

    /// Walks from `n` to the first instruction that states a source line or is an argument,
    /// trying the steps XLA's dataflow gives in order: what a parameter is fed at its call, what
    /// an instruction forwards, the metadata of a called computation, then the operands.
    bool walk(node n, value_origin& o, int& budget) const {
        while (budget-- > 0) {
            auto const op = g_.opcode(n);
            std::vector<std::pair<node, inheritance>> next;
            if (op == hlo_opcode::parameter) {
                for (auto& f : g_.call_feeds(n)) next.emplace_back(std::move(f), inheritance::call_parameter);
            } else if (auto f = forwarded_operand(op, g_.index(n), op == hlo_opcode::get_tuple_element ? g_.tuple_index(n) : -1)) {
                if (auto p = g_.operand(n, f->operand, f->index)) next.emplace_back(std::move(*p), inheritance::forwarded);
                // A while's result is its init or what its body's root carries.
                if (op == hlo_opcode::while_) {
                    for (auto& r : g_.body_roots(n)) next.emplace_back(std::move(r), inheritance::forwarded);
                }
            }
            if (next.empty() && takes_callee_metadata(op)) {
                if (auto s = g_.callee_source(n)) {
                    note(o, inheritance::called_computation);
                    o.source = s->first;
                    o.through = std::move(s->second);
                    return true;
                }
            }
            if (next.empty() && takes_operand_source(op)) {
                // A conditional's operand 0 is its predicate or branch index, not its data.
                for (std::size_t k = op == hlo_opcode::conditional ? 1 : 0; k < g_.operand_count(n); ++k) {
                    if (auto p = g_.operand(n, k, {})) next.emplace_back(std::move(*p), inheritance::operands);
                }
            }
            if (next.size() == 1) {  // one way on: no copy of what was found so far
                note(o, next.front().second);
                n = std::move(next.front().first);
                if (reached(n, o)) return true;
                continue;
            }
            for (auto& [p, how] : next) {
                value_origin tried = o;
                note(tried, how);
                if (reached(p, tried) || walk(p, tried, budget)) {
                    o = std::move(tried);
                    return true;
                }
            }
            return false;
        }
        return false;
    }

    static void note(value_origin& o, inheritance how) {
        if (o.how == inheritance::none) o.how = how;
    }

    G const& g_;
};

/// The walk's graph over a module: a node is an instruction and a shape index of its result.
template <class P, class Q>
struct module_origin_graph {
    struct node {
        instruction_id k = no_instruction;
        std::vector<std::int64_t> index;
    };
    basic_buffer_assignment<P> const& ba;
    basic_hlo_module<Q> const& m;

    value_source source(node const& n) const {
        auto const* md = m.metadata(n.k);
        return md ? origin_source_from(*md, metadata_origin::module, &m.stack_frame_index()) : value_source{};
    }
    hlo_opcode opcode(node const& n) const { return m.instruction(n.k).opcode; }
    std::vector<std::int64_t> const& index(node const& n) const { return n.index; }
    std::string name(node const& n) const { return std::string(m.instruction(n.k).name) + index_suffix(n.index); }
    std::int64_t entry_parameter(node const& n) const {
        auto const& i = m.instruction(n.k);
        return i.opcode == hlo_opcode::parameter && i.computation == m.entry() ? i.parameter_number : -1;
    }
    std::int64_t tuple_index(node const& n) const { return m.instruction(n.k).tuple_index; }
    std::size_t operand_count(node const& n) const { return m.operands(n.k).size(); }
    std::optional<node> operand(node const& n, std::size_t k, std::vector<std::int64_t> index) const {
        auto const ops = m.operands(n.k);
        if (k >= ops.size()) return std::nullopt;
        return node{ops.begin()[k], std::move(index)};
    }
    /// What feeds a parameter of a called computation at its first caller
    /// (UpdateParameterValueSet): a while's init, then its body's root (what the loop carries
    /// into the next iteration), at the parameter's index; a conditional's operand of the branch
    /// (operand b + 1 for branch b); a call's or an async computation's operand N.
    std::vector<node> call_feeds(node const& n) const {
        auto const& p = m.instruction(n.k);
        for (hlo_call const& c : m.callers(p.computation)) {
            auto const ops = m.operands(c.caller);
            std::size_t k = ops.size();
            std::vector<node> out;
            if (c.kind == call_kind::while_body || c.kind == call_kind::while_condition) k = 0;
            if (c.kind == call_kind::call || c.kind == call_kind::async) k = static_cast<std::size_t>(p.parameter_number);
            if (c.kind == call_kind::conditional_branch) {
                std::size_t b = 0;
                for (hlo_call const& d : m.calls(c.caller)) {
                    if (d.kind != call_kind::conditional_branch) continue;
                    if (d.callee == c.callee) break;
                    ++b;
                }
                k = b + 1;
            }
            if (k < ops.size()) out.push_back(node{ops.begin()[k], n.index});
            for (hlo_call const& d : m.calls(c.caller)) {
                instruction_id const root = m.computation(d.callee).root;
                if (k == 0 && d.kind == call_kind::while_body && root != no_instruction) out.push_back(node{root, n.index});
            }
            if (!out.empty()) return out;
        }
        return {};
    }
    /// The root of a while's body, at the while's index `n.index`.
    std::vector<node> body_roots(node const& n) const {
        for (hlo_call const& c : m.calls(n.k)) {
            instruction_id const root = m.computation(c.callee).root;
            if (c.kind == call_kind::while_body && root != no_instruction) return {node{root, n.index}};
        }
        return {};
    }
    /// The metadata of a fusion's (custom call's, async computation's, call's, conditional
    /// branch's) computation, and the instruction that states it: its root's when it states a
    /// line, else the line most of its instructions state (the first instruction of it).
    std::optional<std::pair<value_source, std::string>> callee_source(node const& n) const {
        for (hlo_call const& c : m.calls(n.k)) {
            auto const& comp = m.computation(c.callee);
            if (comp.root != no_instruction) {
                if (auto s = source(node{comp.root, {}}); s.has_source_line()) return std::pair(s, name(node{comp.root, {}}));
            }
            std::map<std::pair<std::string_view, std::int64_t>, std::pair<std::size_t, instruction_id>> lines;
            for (instruction_id i : comp.instructions()) {
                auto const s = source(node{i, {}});
                if (!s.has_source_line()) continue;
                auto& e = lines.try_emplace({s.source_file, s.source_line}, 0, i).first->second;
                ++e.first;
            }
            std::pair<std::size_t, instruction_id> best{0, no_instruction};
            for (auto const& [key, e] : lines) {
                if (e.first > best.first || (e.first == best.first && e.second < best.second)) best = e;
            }
            if (best.first > 0) return std::pair(source(node{best.second, {}}), name(node{best.second, {}}));
        }
        return std::nullopt;
    }
    void argument(node const& n, value_origin& o) const {
        std::int64_t const number = entry_parameter(n);
        o.argument = number;
        if (auto const* md = m.metadata(n.k)) o.argument_name = std::string_view(md->op_name);
        for (auto const& a : m.input_output_aliases()) o.donated = o.donated || a.parameter_number == number;
        for (auto const& d : m.buffer_donors()) o.donated = o.donated || d.parameter_number == number;
        o.argument_value = ba.value_index(std::string_view(m.instruction(n.k).name), basic_shape_index<P>(n.index));
    }
};

/// The walk's graph over a dump alone: a node is a value; its instruction's operands are read
/// from its `from instruction:` text, its stack_frame_id resolved in `frames` (the module's
/// tables, when the dump was joined with its module; null: none).
template <class P, class Q = P>
struct dump_origin_graph {
    using node = std::size_t;
    basic_buffer_assignment<P> const& ba;
    basic_stack_frame_index<Q> const* frames = nullptr;
    /// Every `positions:` entry, with its name's hash (basic_hlo_position::instruction_hash), the
    /// value listed there and the entry's place in its list: gathered into one array at the
    /// first lookup that needs it, in value order, without reading the names (a value's own
    /// position is value_index's, so a lookup that comes here never matches it: it is kept rather
    /// than told apart). A few lookups (a report that traces the values at the peaks alone makes
    /// a handful) scan that array, reading a name only where the hash matches; more sort it by
    /// hash once (a radix sort of integers: no node for each of 10^5 entries, no comparison).
    struct listed_position {
        std::uint32_t hash;
        std::uint32_t at;
        std::size_t value;
    };
    mutable std::vector<listed_position> positions;
    mutable bool positions_gathered = false;
    mutable bool positions_sorted = false;
    /// Lookups answered by scanning the gathered array before it is sorted.
    mutable std::size_t unindexed_lookups = 0;
    std::size_t max_unindexed_lookups = 0;
    /// The operands of the last value asked (operand_count, then operand k of the same value).
    mutable node operands_of_node = npos;
    mutable std::vector<std::pair<std::string_view, std::int64_t>> operands_of_last;

    /// Each value's own metadata, read from its text as source() reads it, when the caller has
    /// read it already for every value (attribute_values of a dump alone); null: read here.
    std::vector<value_source> const* read_sources = nullptr;
    /// Each value's opcode, read from its text when first asked (a walk asks again and again of
    /// the values it crosses); hlo_opcode::unknown stands for "not read yet" and is read again.
    mutable std::vector<hlo_opcode> opcodes;

    dump_origin_graph(basic_buffer_assignment<P> const& b, basic_stack_frame_index<Q> const* f, std::size_t traced_values,
                      std::vector<value_source> const* sources = nullptr)
        : ba(b), frames(f), max_unindexed_lookups(traced_values <= 256 ? 32 : 0), read_sources(sources),
          opcodes(traced_values <= 256 ? 0 : b.values.size(), hlo_opcode::unknown) {}

    std::string_view text(node v) const { return ba.values[v].instruction_text; }
    value_source source(node v) const {
        if (read_sources) return (*read_sources)[v];
        if (auto md = instruction_metadata(text(v))) return origin_source_from(*md, metadata_origin::dump, frames);
        return {};
    }
    hlo_opcode opcode(node v) const {
        if (v >= opcodes.size()) return opcode_of_text(ba.values[v].instruction_opcode);
        if (opcodes[v] == hlo_opcode::unknown) opcodes[v] = opcode_of_text(ba.values[v].instruction_opcode);
        return opcodes[v];
    }
    std::vector<std::pair<std::string_view, std::int64_t>> const& operands(node v) const {
        if (operands_of_node != v) {
            operands_of_last = origin_operands(text(v), ba.values[v].instruction_opcode);
            operands_of_node = v;
        }
        return operands_of_last;
    }
    std::vector<std::int64_t> index(node v) const { return {ba.values[v].index.begin(), ba.values[v].index.end()}; }
    std::string name(node v) const { return ba.values[v].display_name(); }
    std::int64_t entry_parameter(node v) const {
        auto const& x = ba.values[v];
        // The allocation first: its flags are in a table of a few thousand, where the opcode is
        // read from the value's text, far away in the input (every traced value asks this).
        if (x.is_phi || x.allocation >= ba.allocations.size()) return -1;
        if (!ba.allocations[x.allocation].is_entry_computation_parameter()) return -1;
        if (opcode(v) != hlo_opcode::parameter) return -1;
        return origin_integer_after(text(v), "parameter(");
    }
    std::int64_t tuple_index(node v) const { return origin_integer_after(text(v), "index="); }
    std::size_t operand_count(node v) const { return operands(v).size(); }
    std::optional<node> operand(node v, std::size_t k, std::vector<std::int64_t> index) const {
        auto const& ops = operands(v);
        if (k >= ops.size()) return std::nullopt;
        if (ops[k].second >= 0) index = with_front(ops[k].second, index);
        return resolve(ops[k].first, index);
    }
    /// The value at `name` `index`: the one it defines, else the one listed at that position (an
    /// instruction that defines no value: get-tuple-element, bitcast, a tuple's element).
    std::optional<node> resolve(std::string_view name, std::vector<std::int64_t> const& index) const {
        basic_shape_index<P> const at(index);
        if (std::size_t const i = ba.value_index(name, at); i != npos) return i;
        if (!positions_gathered) {
            for (std::size_t i = 0; i < ba.values.size(); ++i) {
                auto const& list = ba.values[i].positions;
                for (std::size_t k = 0; k < list.size(); ++k) {
                    auto const& p = list[k];
                    std::uint32_t const h = p.instruction_hash != 0 ? p.instruction_hash : position_name_hash(p.instruction);
                    positions.push_back({h, static_cast<std::uint32_t>(k), i});
                }
            }
            positions_gathered = true;
        }
        std::uint32_t const hash = position_name_hash(name);
        auto listed_here = [&](listed_position const& e) {
            auto const& p = ba.values[e.value].positions[e.at];
            return e.hash == hash && std::string_view(p.instruction) == name && p.index == at;
        };
        if (!positions_sorted && ++unindexed_lookups <= max_unindexed_lookups) {
            // The first value (by index) listed there.
            for (auto const& e : positions) {
                if (listed_here(e)) return e.value;
            }
            return std::nullopt;
        }
        if (!positions_sorted) {
            // Gathered in value order, each list in its order: a stable sort by hash keeps that.
            detail::radix_sort(positions, [](listed_position const& e) { return std::uint64_t(e.hash); });
            positions_sorted = true;
        }
        auto const range = std::equal_range(positions.begin(), positions.end(), listed_position{hash, 0, 0},
                                            [](auto const& x, auto const& y) { return x.hash < y.hash; });
        // The first value (by index) listed there, as the scan finds it.
        for (auto it = range.first; it != range.second; ++it) {
            if (listed_here(*it)) return it->value;
        }
        return std::nullopt;
    }
    /// A while body's (or condition's) phi value: the value of its slice that the dump lists as
    /// used by `W, operand 0 {i}`, W a while whose own value at {i} shares the slice.
    std::vector<node> call_feeds(node v) const {
        auto const& x = ba.values[v];
        if (!x.is_phi || x.allocation >= ba.allocations.size()) return {};
        auto const& slice = ba.allocations[x.allocation].values;
        auto shares = [&](std::size_t u) { return ba.values[u].offset == x.offset && u != v; };
        for (std::size_t u : slice) {
            if (!shares(u)) continue;
            for (auto const& use : ba.values[u].uses) {
                if (use.operand_number != 0 || use.operand_index != x.index) continue;
                std::size_t const w = ba.value_index(std::string_view(use.instruction), x.index);
                if (w != npos && ba.values[w].allocation == x.allocation && ba.values[w].offset == x.offset &&
                    opcode(w) == hlo_opcode::while_) {
                    return {u};
                }
            }
        }
        return {};
    }
    /// A dump states neither a called computation's instructions nor a while's body.
    std::optional<std::pair<value_source, std::string>> callee_source(node) const { return std::nullopt; }
    std::vector<node> body_roots(node) const { return {}; }
    void argument(node v, value_origin& o) const {
        o.argument = entry_parameter(v);
        o.argument_name = source(v).op_name;
        o.donated = ba.allocations[ba.values[v].allocation].is_parameter_aliased_with_output();
        o.argument_value = v;
    }
};

/// Where `value` stands in `ascending` (the values a caller asked for, each once), or npos: the
/// place of its origin among the origins of those values alone.
inline std::size_t slot_in(std::vector<std::size_t> const& ascending, std::size_t value) {
    auto const it = std::lower_bound(ascending.begin(), ascending.end(), value);
    return it != ascending.end() && *it == value ? static_cast<std::size_t>(it - ascending.begin()) : npos;
}

inline void set_output(value_origin& o, std::int64_t n) {
    if (o.output >= 0) return;
    o.output = n;
    if (o.kind != origin_kind::argument) o.kind = origin_kind::output;
}

/// Marks the values of the entry root's element N as "output N", from the root down through
/// tuple, get-tuple-element and bitcast (which define no value of their own).
template <class P, class Q, class At>
void mark_module_outputs(basic_buffer_assignment<P> const& ba, basic_hlo_module<Q> const& m, At at) {
    module_origin_graph<P, Q> const g{ba, m};
    using node = typename module_origin_graph<P, Q>::node;
    auto mark = [&](auto const& self, node const& n, std::int64_t number, int depth) -> void {
        if (depth > 64) return;
        std::size_t const v = ba.value_index(std::string_view(m.instruction(n.k).name), basic_shape_index<P>(n.index));
        if (v != npos) {
            if (value_origin* o = at(v)) set_output(*o, number);
        }
        auto const op = g.opcode(n);
        if (op == hlo_opcode::tuple && n.index.empty()) {
            for (std::size_t k = 0; k < g.operand_count(n); ++k) self(self, *g.operand(n, k, {}), number, depth + 1);
        } else if (v == npos) {
            if (auto f = forwarded_operand(op, n.index, g.tuple_index(n)); f && op != hlo_opcode::copy && op != hlo_opcode::while_) {
                if (auto p = g.operand(n, f->operand, f->index)) self(self, *p, number, depth + 1);
            }
        }
    };
    instruction_id const root = m.entry_computation().root;
    if (root == no_instruction) return;
    node const r{root, {}};
    if (g.opcode(r) != hlo_opcode::tuple) return mark(mark, r, 0, 0);
    for (std::size_t k = 0; k < g.operand_count(r); ++k) mark(mark, *g.operand(r, k, {}), static_cast<std::int64_t>(k), 1);
}

/// Marks "output N" in a dump alone: the values listed at position {N, ...} of the entry root,
/// the last tuple defined in a maybe-live-out allocation that nothing uses; without a tuple root,
/// the values of the one maybe-live-out allocation that is not a parameter are output 0. Only
/// the values `wanted` lists (every value when null) are looked at; at(i) is value i's origin.
template <class P, class At>
void mark_dump_outputs(basic_buffer_assignment<P> const& ba, At at, std::vector<std::size_t> const* wanted) {
    auto live_out = [&](std::size_t a) { return a < ba.allocations.size() && ba.allocations[a].maybe_live_out; };
    // The root is the last such value: looked for among the values of the live-out allocations
    // alone (a few hundred of 10^5 values).
    std::size_t root = npos;
    for (auto const& a : ba.allocations) {
        if (!a.maybe_live_out || a.is_entry_computation_parameter()) continue;
        for (std::size_t i : a.values) {
            auto const& v = ba.values[i];
            if ((root == npos || i > root) && v.allocation < ba.allocations.size() && &ba.allocations[v.allocation] == &a &&
                v.index.empty() && v.uses.empty() && opcode_of_text(v.instruction_opcode) == hlo_opcode::tuple) {
                root = i;
            }
        }
    }
    if (root != npos) {
        std::string_view const name = ba.values[root].name;
        auto mark = [&](std::size_t i) {
            for (auto const& p : ba.values[i].positions) {
                if (std::string_view(p.instruction) == name && !p.index.empty()) {
                    set_output(*at(i), p.index[0]);
                    return;
                }
            }
        };
        if (wanted) {
            for (std::size_t i : *wanted) mark(i);
            return;
        }
        // A value listed at a position of the root is in the root's value set: its buffer lives
        // out (HloAliasAnalysis::ValueLivesOut), so its allocation is maybe-live-out
        // (BufferAssignment::AddAssignment sets it for such a value). Only the values of those
        // allocations can be marked; the positions of the others (most of 10^5 lists, each in its
        // own block of memory) are not read.
        for (auto const& a : ba.allocations) {
            if (!a.maybe_live_out) continue;
            for (std::size_t i : a.values) {
                if (i < ba.values.size()) mark(i);
            }
        }
        return;
    }
    std::size_t only = npos, count = 0;
    for (std::size_t a = 0; a < ba.allocations.size(); ++a) {
        if (live_out(a) && !ba.allocations[a].is_entry_computation_parameter()) only = a, ++count;
    }
    if (count == 1) {
        for (std::size_t i : ba.allocations[only].values) {
            if (value_origin* o = at(i)) set_output(*o, 0);
        }
    }
}

}  // namespace detail

/// The origins of the values `wanted` lists (indices into ba.values, ascending, each once), in
/// that order; of every value of `ba`, in order, when `wanted` is null. `own[i]` is value i's own
/// metadata (attribute_values). With the module `m` (null: the dump alone), values whose
/// instruction it names are traced in it, the others in the dump's texts. A dump alone with
/// every value wanted: `own` is what each value's text states, so the walk reads a source there
/// rather than each text it crosses again. A report that names the few values at a peak asks
/// for those alone, and gets as many origins, not one for each of 10^5 values.
template <class P, class Q>
std::vector<value_origin> trace_origins(basic_buffer_assignment<P> const& ba, basic_hlo_module<Q> const* m,
                                        std::vector<value_source> const& own, std::vector<std::size_t> const* wanted = nullptr) {
    std::size_t const traced = wanted ? wanted->size() : ba.values.size();
    // Each origin is written once, in place (10^5 of 160 bytes: no default origin written first).
    std::vector<value_origin> out;
    out.reserve(traced);
    // Value i's origin in `out`; null for a value not wanted.
    auto at = [&](std::size_t i) -> value_origin* {
        std::size_t const slot = wanted ? detail::slot_in(*wanted, i) : i;
        return slot < out.size() ? &out[slot] : nullptr;
    };
    detail::dump_origin_graph<P, Q> const dump_graph(ba, m ? &m->stack_frame_index() : nullptr, traced,
                                                     m == nullptr && wanted == nullptr ? &own : nullptr);
    detail::origin_walk<detail::dump_origin_graph<P, Q>> const dump_walk(dump_graph);
    std::optional<detail::module_origin_graph<P, Q>> module_graph;
    // The module's instruction of each value traced, the first of that name in text order
    // (no_instruction: none): one pass over the instructions, each name looked up among the
    // values' (a few at a peak), rather than a table of the module's 10^5 names. The values'
    // names go in a name_table (the library's text hash: std::hash's Murmur was 5% of a module's
    // report), the first slot of each name there and the others chained behind it.
    std::vector<instruction_id> instruction_of(m ? traced : 0, no_instruction);
    if (m) {
        module_graph.emplace(detail::module_origin_graph<P, Q>{ba, *m});
        constexpr std::uint32_t end_of_chain = name_table::npos;
        name_table first_named;
        std::vector<std::uint32_t> next_named(traced, end_of_chain);
        for (std::size_t slot = 0; slot < traced; ++slot) {
            std::string_view const name(ba.values[wanted ? (*wanted)[slot] : slot].name);
            std::uint32_t const head = first_named.insert(name, static_cast<std::uint32_t>(slot));
            if (head == name_table::npos) continue;
            next_named[slot] = next_named[head];
            next_named[head] = static_cast<std::uint32_t>(slot);
        }
        std::size_t left = first_named.size();
        for (instruction_id k = 0; k < m->instruction_count() && left > 0; ++k) {
            std::uint32_t const head = first_named.find(std::string_view(m->instruction(k).name));
            if (head == name_table::npos || instruction_of[head] != no_instruction) continue;
            for (std::uint32_t slot = head; slot != end_of_chain; slot = next_named[slot]) instruction_of[slot] = k;
            --left;
        }
    }
    for (std::size_t slot = 0; slot < traced; ++slot) {
        std::size_t const i = wanted ? (*wanted)[slot] : slot;
        if (module_graph && instruction_of[slot] != no_instruction) {
            detail::origin_walk<detail::module_origin_graph<P, Q>> const walk(*module_graph);
            auto const& index = ba.values[i].index;
            out.push_back(walk.origin_of({instruction_of[slot], std::vector<std::int64_t>(index.begin(), index.end())}, own[i]));
            continue;
        }
        out.push_back(dump_walk.origin_of(i, own[i]));
    }
    if (m) detail::mark_module_outputs(ba, *m, at);
    else detail::mark_dump_outputs(ba, at, wanted);
    return out;
}

}  // namespace hlomem


#endif  // HLOMEM_HLO_ORIGIN_HPP
