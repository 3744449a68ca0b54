// hlomem/hlo/stack_trace_breakdown.hpp: the `Stack trace breakdown for peak usage` tree that the
// newest XLA appends to its HloLiveRange text, made from the values listed at the peak and the
// module they belong to, as XLA's FormatStackTraceBreakdown (xla/hlo/utils/hlo_stack_trace.cc,
// 2025-07 onward) makes it:
//
//   Stack trace breakdown for peak usage: 30 408 704 bytes
//     main.1 (100.0%, total: 30 408 704 bytes, current: 0 bytes, remaining: 30 408 704 bytes)
//       ├── jit(grad_ckpt)/transpose(jvp(jvp()))/checkpoint/transpose (31.0%, total: 9 437 184 bytes, ...)
//       ...
//       └── ws[3] (3.4%, total: 1 048 576 bytes, current: 1 048 576 bytes, remaining: 0 bytes)
//
// (tests/data/jax_0_11/grad_ckpt-live-range.txt). Each listed value's bytes go to the end of each
// of its stack traces: the path from the entry computation through every caller down to the
// value's defining instruction, named by op_name (or name) and computation. The result is the
// model a dump's tree is read into (dump/live_range.hpp, basic_stack_trace_node), so that one
// printer writes both (dump/printer.hpp, print_live_range); hlo/liveness.hpp states it for a
// module's derived live ranges.
#ifndef HLOMEM_HLO_STACK_TRACE_BREAKDOWN_HPP
#define HLOMEM_HLO_STACK_TRACE_BREAKDOWN_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <hlomem/core/shape.hpp>
#include <hlomem/core/shape_text.hpp>
#include <hlomem/dump/live_range.hpp>
#include <hlomem/hlo/module.hpp>

namespace hlomem {

namespace detail {

inline bool is_word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace detail

/// The parts of a parameter path, as XLA's SplitParamsString (hlo_stack_trace.cc) splits a leaf of
/// a stack trace: an identifier (`[a-zA-Z_]\w*`), then one or more keys `['...']` (each split at
/// `/` into parts, empty ones kept, as absl::StrSplit keeps them) and attributes `.\w+`, in any
/// order after the first key; the whole string must be consumed and hold a key. Anything else is
/// one part, the string itself:
///
///   params['layer/fc']       -> params, layer, fc
///   var['a']['b'].attr       -> var, a, b, attr
///   ws[0]                    -> ws[0]                (no quoted key)
///   jit(f)/jvp()/tanh        -> jit(f)/jvp()/tanh    (not an identifier then a key)
///   params ['gap']           -> params ['gap']       (a blank between)
///
/// The parts view `input`.
inline std::vector<std::string_view> split_params_string(std::string_view input) {
    std::vector<std::string_view> out;
    std::size_t p = 0;
    auto const is_first = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
    if (input.empty() || !is_first(input[0])) return {input};
    while (p < input.size() && detail::is_word_char(input[p])) ++p;
    out.push_back(input.substr(0, p));
    bool has_keys = false;
    for (;;) {
        // `\['([^']+)'\]`
        if (input.compare(p, 2, "['") == 0) {
            std::size_t const close = input.find('\'', p + 2);
            if (close != std::string_view::npos && close > p + 2 && close + 1 < input.size() && input[close + 1] == ']') {
                std::string_view const key = input.substr(p + 2, close - (p + 2));
                for (std::size_t from = 0;;) {
                    std::size_t const slash = key.find('/', from);
                    out.push_back(key.substr(from, slash == std::string_view::npos ? std::string_view::npos : slash - from));
                    if (slash == std::string_view::npos) break;
                    from = slash + 1;
                }
                has_keys = true;
                p = close + 2;
                continue;
            }
        }
        // `\.(\w+)`
        if (p + 1 < input.size() && input[p] == '.' && detail::is_word_char(input[p + 1])) {
            std::size_t q = p + 1;
            while (q < input.size() && detail::is_word_char(input[q])) ++q;
            out.push_back(input.substr(p + 1, q - (p + 1)));
            p = q;
            continue;
        }
        break;
    }
    if (p != input.size() || !has_keys) return {input};
    return out;
}

/// The callers of computation `c` as XLA's BuildStackTracesRecursive walks them
/// (`parent_comp->caller_instructions()`, sorted by unique_id): every instruction that calls `c`,
/// of any opcode, once each. A module read from text has no unique ids; hlomem's instruction ids
/// follow the text, computation after computation, and stand in for them (callers in text order).
/// The order decides only which traces get a value's odd bytes.
template <class P>
std::vector<instruction_id> stack_trace_callers(basic_hlo_module<P> const& m, computation_id c) {
    std::vector<instruction_id> out;
    for (auto const& call : m.callers(c)) out.push_back(call.caller);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

/// Every stack trace of instruction `i`, as XLA's BuildStackTracesRecursive builds them: the leaf
/// is the instruction's metadata op_name, or its name when that is empty, split by
/// split_params_string; above it the name of its computation; when that computation has callers
/// (stack_trace_callers), one trace through each of them, continuing from the caller's own leaf
/// and computation up to a computation nobody calls (the entry). Each trace reads from the top:
/// [entry computation, caller parts..., callee computation, leaf parts...].
template <class P>
std::vector<std::vector<std::string>> build_stack_traces(basic_hlo_module<P> const& m, instruction_id i) {
    std::vector<std::vector<std::string>> out;
    std::vector<std::string> path;  // from the leaf upwards
    auto walk = [&](auto const& self, instruction_id at) -> void {
        auto const* metadata = m.metadata(at);
        std::string_view const leaf = metadata && !std::string_view(metadata->op_name).empty()
                                          ? std::string_view(metadata->op_name)
                                          : std::string_view(m.instruction(at).name);
        auto const parts = split_params_string(leaf);
        std::size_t const added = parts.size() + 1;
        for (auto it = parts.rbegin(); it != parts.rend(); ++it) path.emplace_back(*it);
        computation_id const parent = m.instruction(at).computation;
        path.emplace_back(std::string_view(m.computation(parent).name));
        auto const callers = stack_trace_callers(m, parent);
        if (callers.empty()) {
            out.emplace_back(path.rbegin(), path.rend());
        } else {
            for (instruction_id caller : callers) self(self, caller);
        }
        path.resize(path.size() - added);
    };
    walk(walk, i);
    return out;
}

/// One value listed at the peak, as FormatStackTraceBreakdown takes it (a pair of its bytes and
/// the HloValue, of which it reads instruction() and index()).
template <class P = default_policy>
struct basic_sized_buffer {
    std::int64_t bytes = 0;
    instruction_id instruction = no_instruction;  ///< the defining instruction
    basic_shape_index<P> index;                   ///< the value's index in its result
};

/// The breakdown: the sum of the listed bytes and the tree's lines in the order printed.
template <class P = default_policy>
struct basic_stack_trace_breakdown {
    std::int64_t total_bytes = 0;
    std::vector<basic_stack_trace_node<P>> nodes;
};

namespace detail {

struct stack_tree_node {
    std::string name;
    std::size_t parent = 0;
    std::int64_t total = 0;    // StackNode::total_size
    std::int64_t current = 0;  // StackNode::node_size
    std::map<std::string, std::size_t, std::less<>> children;
};

// PrintStackTree (hlo_stack_trace.cc), into lines: a node with a name is a line at `depth`, its
// share `100.0 * total / grand_total`, `remaining` lowered by its current bytes before it is
// written; children with no bytes are skipped, the others go by total descending, then by name.
// (A node with an empty name, the root, is no line: its children stay at its depth.)
template <class P>
void print_stack_tree(std::vector<stack_tree_node> const& tree, std::size_t at, int depth, std::int64_t grand_total,
                      std::int64_t& remaining, std::vector<basic_stack_trace_node<P>>& out) {
    auto const& node = tree[at];
    if (!node.name.empty()) {
        remaining -= node.current;
        basic_stack_trace_node<P> line;
        line.name = node.name;
        line.depth = depth;
        line.percent = grand_total > 0 ? 100.0 * static_cast<double>(node.total) / static_cast<double>(grand_total) : 0.0;
        line.total_bytes = node.total;
        line.current_bytes = node.current;
        line.remaining_bytes = remaining;
        out.push_back(std::move(line));
    }
    std::vector<std::size_t> children;
    for (auto const& entry : node.children) {
        if (tree[entry.second].total != 0) children.push_back(entry.second);
    }
    std::sort(children.begin(), children.end(), [&](std::size_t a, std::size_t b) {
        if (tree[a].total != tree[b].total) return tree[a].total > tree[b].total;
        return tree[a].name < tree[b].name;
    });
    int const child_depth = node.name.empty() ? depth : depth + 1;
    for (std::size_t child : children) print_stack_tree(tree, child, child_depth, grand_total, remaining, out);
}

}  // namespace detail

/// XLA's FormatStackTraceBreakdown (xla/hlo/utils/hlo_stack_trace.cc), as the lines it prints:
///
///   for (const auto& [bytes, value] : buffers) total_bytes += bytes;
///   ... BuildStackTracesRecursive(value->instruction(), ...);
///   const int64_t kBaseSizePerTrace = bytes / all_traces.size();
///   int64_t remainder = bytes % all_traces.size();        // the first traces get one byte more
///   if (!value->index().empty()) trace.back() += "{" + absl::StrJoin(value->index(), ",") + "}";
///   tree_builder.InsertTrace(trace, size_for_this_trace);  // the bytes at the trace's last node
///   ... PrintStackTree(root.get(), total_bytes, &remaining_bytes, &output);
///
/// A node's current bytes are those of the traces that end at it, its total those and its
/// children's totals. The lines come in PrintStackTree's order (detail::print_stack_tree) with
/// their depth (0 for the top-level computations), share, total, current and remaining bytes;
/// print_live_range (dump/printer.hpp) writes them. `buffers` is the peak's listing, in its order.
template <class P>
basic_stack_trace_breakdown<P> format_stack_trace_breakdown(std::vector<basic_sized_buffer<P>> const& buffers,
                                                            basic_hlo_module<P> const& m) {
    basic_stack_trace_breakdown<P> out;
    for (auto const& b : buffers) out.total_bytes += b.bytes;
    std::vector<detail::stack_tree_node> tree(1);  // the root, without a name
    for (auto const& b : buffers) {
        auto traces = build_stack_traces(m, b.instruction);
        if (traces.empty()) continue;
        auto const n = static_cast<std::int64_t>(traces.size());
        std::int64_t const base = b.bytes / n;
        std::int64_t remainder = b.bytes % n;
        for (auto& trace : traces) {
            std::int64_t size = base;
            if (remainder > 0) {
                ++size;
                --remainder;
            }
            if (!b.index.empty()) trace.back() += to_string(b.index);
            std::size_t node = 0;
            for (auto const& part : trace) {
                auto found = tree[node].children.find(part);
                if (found == tree[node].children.end()) {
                    std::size_t const child = tree.size();
                    tree[node].children.emplace(part, child);
                    detail::stack_tree_node added;
                    added.name = part;
                    added.parent = node;
                    tree.push_back(std::move(added));
                    node = child;
                } else {
                    node = found->second;
                }
            }
            tree[node].current += size;
        }
    }
    // Totals (CalculateTotalSizes): a node's children come after it, so a backward pass adds each
    // finished total to its parent.
    for (auto& node : tree) node.total = node.current;
    for (std::size_t k = tree.size(); k-- > 1;) tree[tree[k].parent].total += tree[k].total;
    std::int64_t remaining = out.total_bytes;
    detail::print_stack_tree<P>(tree, 0, 0, out.total_bytes, remaining, out.nodes);
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_HLO_STACK_TRACE_BREAKDOWN_HPP
