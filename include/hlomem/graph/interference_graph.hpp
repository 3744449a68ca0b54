// hlomem/graph/interference_graph.hpp: a buffer assignment's interference graph on Boost.Graph.
//
// Vertices are logical values; an edge joins two values of the same color (memory space) whose
// live ranges overlap (XLA's ranges are inclusive at both ends). Every Boost.Graph algorithm runs
// on it as is:
//
//   auto g = hlomem::make_interference_graph(ba);             // boost::adjacency_list
//   std::vector<std::size_t> color(num_vertices(g));
//   auto n = boost::sequential_vertex_coloring(g, boost::make_iterator_property_map(
//                color.begin(), get(boost::vertex_index, g)));
//   std::int64_t bytes = g[v].size;                              // bundled properties
//
// Edges come from an endpoint sweep (interval_sweep.hpp) in O(n log n + E), never from testing all
// pairs. For large static inputs the same graph can be built as a compressed_sparse_row_graph; when
// E approaches n², interval_graph_view.hpp answers adjacency without storing edges.
#ifndef HLOMEM_GRAPH_INTERFERENCE_GRAPH_HPP
#define HLOMEM_GRAPH_INTERFERENCE_GRAPH_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>

#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/memory/interval_sweep.hpp>

namespace hlomem {

/// The bundled properties of a value vertex.
struct value_vertex {
    std::size_t value = npos;  ///< index into buffer_assignment::values
    std::int64_t id = 0;       ///< XLA's value id
    std::string name;          ///< `fusion.10{0}`: the defining instruction and, for tuples, the index
    shape_id shape = no_shape;
    std::int64_t size = 0;     ///< assigned bytes
    std::int64_t offset = 0;   ///< within the allocation
    std::size_t allocation = npos;
    std::int64_t color = 0;
    live_interval range;       ///< inclusive
};

/// The bundled properties of an allocation vertex.
struct allocation_vertex {
    std::size_t allocation = npos;  ///< index into buffer_assignment::allocations
    std::int64_t index = 0;
    std::int64_t size = 0;
    std::int64_t color = 0;
    allocation_kind kind = allocation_kind::other;
};

/// Which values become vertices.
struct interference_options {
    std::optional<std::int64_t> color;       ///< only this color
    std::optional<std::size_t> allocation;   ///< only the values of this allocation (its index in the dump)
    bool temps_only = false;                 ///< only values of preallocated-temp allocations
};

using interference_graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, value_vertex>;
/// A directed CSR graph holding each interference edge in both directions.
using interference_csr = boost::compressed_sparse_row_graph<boost::directedS, value_vertex>;
using allocation_interference_graph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, allocation_vertex>;

/// The values that become vertices: assigned to an allocation, with a live range, and passing the
/// options; in (color, id) order, so that each color's vertices are contiguous.
template <class P>
std::vector<std::size_t> interference_values(basic_buffer_assignment<P> const& ba, interference_options const& options = {}) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < ba.values.size(); ++i) {
        auto const& v = ba.values[i];
        if (v.allocation == npos || !v.live_range) continue;
        auto const& a = ba.allocations[v.allocation];
        if (options.color && a.color != *options.color) continue;
        if (options.allocation && a.index != static_cast<std::int64_t>(*options.allocation)) continue;
        if (options.temps_only && a.kind() != allocation_kind::temp) continue;
        out.push_back(i);
    }
    std::stable_sort(out.begin(), out.end(), [&](std::size_t x, std::size_t y) {
        return ba.allocations[ba.values[x].allocation].color < ba.allocations[ba.values[y].allocation].color;
    });
    return out;
}

/// The vertex of assigned value `i`; a value without a live range gets the empty range [0, -1].
template <class P>
value_vertex make_value_vertex(basic_buffer_assignment<P> const& ba, std::size_t i) {
    auto const& v = ba.values[i];
    value_vertex out;
    out.value = i;
    out.id = v.id;
    out.name = v.display_name();
    out.shape = v.shape;
    out.size = v.size;
    out.offset = v.offset;
    out.allocation = v.allocation;
    out.color = ba.allocations[v.allocation].color;
    out.range = v.live_range.value_or(live_interval{0, -1});
    return out;
}

/// Calls `edge(a, b)` for every interference edge between positions a < b of `selected`
/// (which must be grouped by color, as interference_values returns it).
template <class P, class Edge>
void for_each_interference(basic_buffer_assignment<P> const& ba, std::vector<std::size_t> const& selected, Edge edge) {
    std::size_t begin = 0;
    while (begin < selected.size()) {
        std::int64_t const color = ba.allocations[ba.values[selected[begin]].allocation].color;
        std::size_t end = begin;
        while (end < selected.size() && ba.allocations[ba.values[selected[end]].allocation].color == color) ++end;
        for_each_overlapping_pair(
            end - begin, [&](std::size_t k) { return *ba.values[selected[begin + k]].live_range; },
            [&](std::size_t x, std::size_t y) { edge(std::min(begin + x, begin + y), std::max(begin + x, begin + y)); });
        begin = end;
    }
}

/// The interference graph as a boost::adjacency_list with value_vertex bundles.
template <class P>
interference_graph make_interference_graph(basic_buffer_assignment<P> const& ba, interference_options const& options = {}) {
    auto const selected = interference_values(ba, options);
    interference_graph g(selected.size());
    for (std::size_t k = 0; k < selected.size(); ++k) g[k] = make_value_vertex(ba, selected[k]);
    for_each_interference(ba, selected, [&](std::size_t a, std::size_t b) { boost::add_edge(a, b, g); });
    return g;
}

/// The same graph as a compressed_sparse_row_graph (each edge stored in both directions).
template <class P>
interference_csr make_interference_csr(basic_buffer_assignment<P> const& ba, interference_options const& options = {}) {
    auto const selected = interference_values(ba, options);
    std::vector<std::pair<std::size_t, std::size_t>> edges;
    for_each_interference(ba, selected, [&](std::size_t a, std::size_t b) {
        edges.emplace_back(a, b);
        edges.emplace_back(b, a);
    });
    interference_csr g(boost::edges_are_unsorted_multi_pass, edges.begin(), edges.end(), selected.size());
    for (std::size_t k = 0; k < selected.size(); ++k) g[k] = make_value_vertex(ba, selected[k]);
    return g;
}

/// Allocations as vertices: two interfere when any of their values do.
template <class P>
allocation_interference_graph make_allocation_interference_graph(basic_buffer_assignment<P> const& ba,
                                                                  interference_options const& options = {}) {
    allocation_interference_graph g(ba.allocations.size());
    for (std::size_t i = 0; i < ba.allocations.size(); ++i) {
        auto const& a = ba.allocations[i];
        g[i] = allocation_vertex{i, a.index, a.size, a.color, a.kind()};
    }
    auto const selected = interference_values(ba, options);
    std::set<std::pair<std::size_t, std::size_t>> pairs;
    for_each_interference(ba, selected, [&](std::size_t a, std::size_t b) {
        std::size_t const x = ba.values[selected[a]].allocation, y = ba.values[selected[b]].allocation;
        if (x != y) pairs.emplace(std::min(x, y), std::max(x, y));
    });
    for (auto const& [x, y] : pairs) boost::add_edge(x, y, g);
    return g;
}

// ---------------------------------------------------------------------------------------------
// Dataflow
// ---------------------------------------------------------------------------------------------

/// A def → use edge: the value flows into operand `operand_number` (at `operand_index` within a
/// tuple operand) of an instruction that defines the target value.
struct dataflow_edge {
    std::int64_t operand_number = 0;
    shape_index operand_index;
};

using dataflow_graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, value_vertex, dataflow_edge>;

/// Values as vertices (every assigned value; those without a live range get range [0, -1]), and an
/// edge from each value to every value defined by each of its users, from the Used-values blocks.
/// Bidirectional, so that in_edges answers "what feeds this buffer".
template <class P>
dataflow_graph make_dataflow_graph(basic_buffer_assignment<P> const& ba) {
    std::vector<std::size_t> vertex_of(ba.values.size(), npos);
    dataflow_graph g;
    for (std::size_t i = 0; i < ba.values.size(); ++i) {
        if (ba.values[i].allocation == npos) continue;
        vertex_of[i] = boost::add_vertex(make_value_vertex(ba, i), g);
    }
    for (std::size_t i = 0; i < ba.values.size(); ++i) {
        if (vertex_of[i] == npos) continue;
        for (auto const& use : ba.values[i].uses) {
            for (std::size_t target : ba.values_of_instruction(std::string_view(use.instruction))) {
                if (vertex_of[target] == npos) continue;
                dataflow_edge e;
                e.operand_number = use.operand_number;
                for (auto k : use.operand_index) e.operand_index.push_back(static_cast<std::int64_t>(k));
                boost::add_edge(vertex_of[i], vertex_of[target], e, g);
            }
        }
    }
    return g;
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_INTERFERENCE_GRAPH_INSTANTIATIONS(EXTERN, P) \
    EXTERN template interference_graph make_interference_graph<P>(basic_buffer_assignment<P> const&, interference_options const&); \
    EXTERN template allocation_interference_graph make_allocation_interference_graph<P>(basic_buffer_assignment<P> const&, interference_options const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_INTERFERENCE_GRAPH_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_GRAPH_INTERFERENCE_GRAPH_HPP
