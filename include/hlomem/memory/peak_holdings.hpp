// hlomem/memory/peak_holdings.hpp: who holds the bytes live at a color's peak, value by value,
// so that any grouping of the values (by source line, by op_name, by a user's own key) adds up
// to the peak exactly.
//
// The peak of a color (assigned_live_bytes in peak.hpp) is the union of the assigned slices
// [offset, offset + size) of the values live then: bytes that several values share (an in-place
// dynamic-update-slice and its operand, a while loop's state, an output aliased with a
// parameter: what shared_buffers in analysis.hpp groups) count once. Here each byte of that
// union is given to exactly one of the values covering it, the one that comes first by a
// precedence (by default the value live the longest: the earliest start of its live range, then
// the smallest id; XLA's heap simulator likewise charges a shared buffer to the value that
// allocated it, HeapSimulator::ShareWith). A value whose whole slice is held by another still
// appears, with 0 bytes, so every value live at the peak is named once.
#ifndef HLOMEM_MEMORY_PEAK_HOLDINGS_HPP
#define HLOMEM_MEMORY_PEAK_HOLDINGS_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/memory/peak.hpp>

namespace hlomem {

/// One value live at a peak and the bytes of the peak it holds.
struct value_holding {
    std::size_t value = npos;  ///< index into buffer_assignment::values
    std::int64_t bytes = 0;    ///< 0 when every byte of its slice is held by a value that comes first
};

/// The bytes live in one color at one time, value by value: Σ values[k].bytes == bytes, which
/// at the color's peak time is color_live_bytes::peak_bytes.
struct peak_holdings {
    std::int64_t color = 0;
    logical_time time = 0;
    std::int64_t bytes = 0;
    std::vector<value_holding> values;  ///< every value of the color live at `time` with a slice, by index
};

/// The default precedence for shared bytes: the value whose live range starts first, then the
/// smallest id.
template <class P>
struct earliest_value_first {
    basic_buffer_assignment<P> const& ba;
    bool operator()(std::size_t a, std::size_t b) const {
        auto const& va = ba.values[a];
        auto const& vb = ba.values[b];
        return std::make_tuple(va.live_range->start, va.id) < std::make_tuple(vb.live_range->start, vb.id);
    }
};

/// The values of `color` live at `t` and the bytes each holds; `first(a, b)` (value indices)
/// says whether `a` takes shared bytes before `b`. Measured as live_slice_bytes measures: the
/// allocations of a color end to end (allocation_bases), slices of zero bytes left out.
/// O(n + k log k) for n values, k of them live at `t`.
template <class P, class First>
peak_holdings holdings_at(basic_buffer_assignment<P> const& ba, std::int64_t color, logical_time t, First first) {
    peak_holdings out;
    out.color = color;
    out.time = t;
    std::vector<std::int64_t> const base = allocation_bases(ba);
    std::vector<std::size_t> live;
    for (std::size_t i = 0; i < ba.values.size(); ++i) {
        auto const& v = ba.values[i];
        if (v.allocation == npos || ba.allocations[v.allocation].color != color) continue;
        if (v.size <= 0 || !v.live_range || !v.live_range->contains(t)) continue;
        live.push_back(i);
    }
    // Rank the live values by precedence; the byte between two slice edges goes to the lowest
    // rank covering it.
    std::vector<std::size_t> ranked = std::move(live);
    std::stable_sort(ranked.begin(), ranked.end(), [&](std::size_t a, std::size_t b) { return first(a, b); });
    struct edge {
        std::int64_t at;
        std::size_t rank;
        bool opens;
    };
    std::vector<edge> edges;
    edges.reserve(ranked.size() * 2);
    for (std::size_t r = 0; r < ranked.size(); ++r) {
        auto const& v = ba.values[ranked[r]];
        std::int64_t const begin = base[v.allocation] + v.offset;
        edges.push_back({begin, r, true});
        edges.push_back({begin + v.size, r, false});
    }
    std::sort(edges.begin(), edges.end(), [](edge const& a, edge const& b) { return a.at < b.at; });
    std::vector<std::int64_t> held(ranked.size(), 0);
    std::set<std::size_t> open;
    for (std::size_t k = 0; k < edges.size();) {
        std::int64_t const at = edges[k].at;
        for (; k < edges.size() && edges[k].at == at; ++k) {
            if (edges[k].opens) {
                open.insert(edges[k].rank);
            } else {
                open.erase(edges[k].rank);
            }
        }
        if (!open.empty() && k < edges.size()) held[*open.begin()] += edges[k].at - at;
    }
    out.values.reserve(ranked.size());
    for (std::size_t r = 0; r < ranked.size(); ++r) {
        out.values.push_back({ranked[r], held[r]});
        out.bytes += held[r];
    }
    std::sort(out.values.begin(), out.values.end(), [](value_holding const& a, value_holding const& b) { return a.value < b.value; });
    return out;
}

template <class P>
peak_holdings holdings_at(basic_buffer_assignment<P> const& ba, std::int64_t color, logical_time t) {
    return holdings_at(ba, color, t, earliest_value_first<P>{ba});
}

/// The holdings at each color's peak (`colors` as assigned_live_bytes gives them), in the order
/// of `colors`. Empty when the assignment has no live ranges.
template <class P, class First>
std::vector<peak_holdings> peak_holdings_by_color(basic_buffer_assignment<P> const& ba,
                                                  std::vector<color_live_bytes> const& colors, First first) {
    std::vector<peak_holdings> out;
    out.reserve(colors.size());
    for (auto const& c : colors) out.push_back(holdings_at(ba, c.color, c.peak_time, first));
    return out;
}

template <class P>
std::vector<peak_holdings> peak_holdings_by_color(basic_buffer_assignment<P> const& ba,
                                                  std::vector<color_live_bytes> const& colors) {
    return peak_holdings_by_color(ba, colors, earliest_value_first<P>{ba});
}

/// The values of one group of a breakdown and the bytes they hold.
template <class Key>
struct holding_group {
    Key key{};
    std::int64_t bytes = 0;
    std::vector<std::size_t> values;  ///< value indices, in index order
};

/// The holdings grouped by `key_of(value index)`: largest first, then by key. The groups' bytes
/// add up to h.bytes.
template <class KeyOf>
auto group_holdings(peak_holdings const& h, KeyOf key_of) {
    using key_type = std::decay_t<decltype(key_of(std::size_t{}))>;
    std::map<key_type, holding_group<key_type>> groups;
    for (auto const& v : h.values) {
        key_type key = key_of(v.value);
        auto& g = groups[key];
        g.key = std::move(key);
        g.bytes += v.bytes;
        g.values.push_back(v.value);
    }
    std::vector<holding_group<key_type>> out;
    out.reserve(groups.size());
    for (auto& entry : groups) out.push_back(std::move(entry.second));
    std::stable_sort(out.begin(), out.end(), [](auto const& a, auto const& b) { return a.bytes > b.bytes; });
    return out;
}

/// A node of a breakdown tree: the bytes of the values whose path passes through it.
struct holding_tree {
    std::string name;
    std::int64_t bytes = 0;           ///< own values' bytes plus the children's
    std::vector<std::size_t> values;  ///< the values whose path ends here, in index order
    std::vector<holding_tree> children;  ///< largest first, then by name
};

/// The holdings as a tree: `path_of(value index)` gives the names from the root's child down to
/// the node that holds the value (an empty path: the root itself). The root, named `root_name`,
/// holds h.bytes; every node's bytes are its own values' plus its children's.
template <class PathOf>
holding_tree tree_of_holdings(peak_holdings const& h, PathOf path_of, std::string root_name = std::string()) {
    struct node {
        std::string name;
        std::int64_t bytes = 0;
        std::vector<std::size_t> values;
        std::map<std::string, std::size_t, std::less<>> children;
    };
    std::vector<node> nodes(1);
    nodes[0].name = std::move(root_name);
    for (auto const& v : h.values) {
        std::size_t at = 0;
        nodes[0].bytes += v.bytes;
        for (auto&& part : path_of(v.value)) {
            auto it = nodes[at].children.find(part);
            if (it == nodes[at].children.end()) {
                std::size_t const fresh = nodes.size();
                nodes[at].children.emplace(std::string(part), fresh);
                nodes.push_back(node{});
                nodes.back().name = std::string(part);
                at = fresh;
            } else {
                at = it->second;
            }
            nodes[at].bytes += v.bytes;
        }
        nodes[at].values.push_back(v.value);
    }
    // Children are made after their parents, so building from the last node back finds every
    // child complete.
    std::vector<holding_tree> built(nodes.size());
    for (std::size_t k = nodes.size(); k-- > 0;) {
        auto& t = built[k];
        t.name = std::move(nodes[k].name);
        t.bytes = nodes[k].bytes;
        t.values = std::move(nodes[k].values);
        for (auto const& entry : nodes[k].children) t.children.push_back(std::move(built[entry.second]));
        std::stable_sort(t.children.begin(), t.children.end(),
                         [](holding_tree const& a, holding_tree const& b) { return a.bytes > b.bytes; });
    }
    return std::move(built[0]);
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_PEAK_HOLDINGS_INSTANTIATIONS(EXTERN, P) \
    EXTERN template std::vector<peak_holdings> peak_holdings_by_color<P>(basic_buffer_assignment<P> const&, std::vector<color_live_bytes> const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_PEAK_HOLDINGS_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_MEMORY_PEAK_HOLDINGS_HPP
