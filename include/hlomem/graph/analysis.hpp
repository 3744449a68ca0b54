// hlomem/graph/analysis.hpp: analyses written the Boost.Graph way — over any graph that models
// the concepts they need, reading vertex data only through property maps — so that they run on
// hlomem's adjacency_list, its CSR graph, its implicit interval_graph_view, or a user's own graph.
//
//   auto g = hlomem::make_interference_graph(ba);
//   auto peak = hlomem::interval_peak(g, get(&hlomem::value_vertex::range, g),
//                                     get(&hlomem::value_vertex::size, g));
//   auto clashes = hlomem::find_byte_overlaps(g, get(&hlomem::value_vertex::allocation, g),
//                                             get(&hlomem::value_vertex::offset, g),
//                                             get(&hlomem::value_vertex::size, g));
#ifndef HLOMEM_GRAPH_ANALYSIS_HPP
#define HLOMEM_GRAPH_ANALYSIS_HPP

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <boost/concept/assert.hpp>
#include <boost/graph/graph_concepts.hpp>
#include <boost/graph/graph_traits.hpp>
#include <boost/graph/properties.hpp>
#include <boost/property_map/property_map.hpp>

#include <hlomem/memory/interval_sweep.hpp>

namespace hlomem {

/// The heaviest moment of a graph's vertices, each with an inclusive live interval and a weight:
/// for an interval graph, its maximum-weight clique — the bytes no allocator can go below.
/// Requires VertexListGraph. O(n log n).
template <class VertexListGraph, class IntervalMap, class WeightMap>
heaviest_moment interval_peak(VertexListGraph const& g, IntervalMap interval, WeightMap weight) {
    BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<VertexListGraph>));
    using vertex = typename boost::graph_traits<VertexListGraph>::vertex_descriptor;
    std::vector<vertex> all;
    for (auto [it, end] = vertices(g); it != end; ++it) all.push_back(*it);
    auto result = max_weight_moment(
        all.size(), [&](std::size_t k) { return live_interval(get(interval, all[k])); },
        [&](std::size_t k) { return static_cast<std::int64_t>(get(weight, all[k])); });
    return result;
}

/// Every edge (u, v) of an interference graph whose two vertices are in the same group (e.g. the
/// same allocation) and whose byte ranges [offset, offset + size) intersect: in a sound placement
/// there are none (besides sharing the caller allows). Each edge is reported once, for u's index
/// below v's; undirected and both-ways directed (CSR) graphs work alike. Requires IncidenceGraph
/// and VertexListGraph. O(n + E).
template <class Graph, class GroupMap, class OffsetMap, class SizeMap>
std::vector<std::pair<typename boost::graph_traits<Graph>::vertex_descriptor,
                      typename boost::graph_traits<Graph>::vertex_descriptor>>
find_byte_overlaps(Graph const& g, GroupMap group, OffsetMap offset, SizeMap size) {
    BOOST_CONCEPT_ASSERT((boost::IncidenceGraphConcept<Graph>));
    BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<Graph>));
    using vertex = typename boost::graph_traits<Graph>::vertex_descriptor;
    auto const index = get(boost::vertex_index, g);
    std::vector<std::pair<vertex, vertex>> out;
    for (auto [vi, vend] = vertices(g); vi != vend; ++vi) {
        vertex const u = *vi;
        for (auto [ei, eend] = out_edges(u, g); ei != eend; ++ei) {
            vertex const v = target(*ei, g);
            if (get(index, u) >= get(index, v) || get(group, u) != get(group, v)) continue;
            auto const lo = std::max<std::int64_t>(get(offset, u), get(offset, v));
            auto const hi = std::min<std::int64_t>(get(offset, u) + get(size, u), get(offset, v) + get(size, v));
            if (lo < hi) out.emplace_back(u, v);
        }
    }
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_GRAPH_ANALYSIS_HPP
