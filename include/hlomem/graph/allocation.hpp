// hlomem/graph/allocation.hpp: offsets for the vertices of a graph, the Boost.Graph way — read
// through property maps, written through an offset map keyed by vertex.
//
// plan_offsets: vertices that carry live intervals (inclusive, as XLA's live ranges; any graph
//   whose edges are "live at the same time", e.g. hlomem's interference graphs) planned with any
//   algorithm of placement/plan.hpp:
//
//     auto g = hlomem::make_interference_graph(ba, temps);
//     std::vector<std::int64_t> offset(num_vertices(g));
//     auto r = hlomem::plan_offsets(g, get(&hlomem::value_vertex::range, g), get(&hlomem::value_vertex::size, g),
//                                   boost::make_iterator_property_map(offset.begin(), get(boost::vertex_index, g)),
//                                   hlomem::allocation_algorithm::improve);
//
// conflict_graph_first_fit: for conflicts that are not intervals (two buffers a DMA engine reads
//   together, say), the edges themselves decide: vertices largest first, each at the lowest
//   aligned offset clear of the neighbours already placed. It works on any IncidenceGraph.
#ifndef HLOMEM_GRAPH_ALLOCATION_HPP
#define HLOMEM_GRAPH_ALLOCATION_HPP

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include <boost/concept/assert.hpp>
#include <boost/graph/graph_concepts.hpp>
#include <boost/graph/graph_traits.hpp>
#include <boost/graph/properties.hpp>
#include <boost/property_map/property_map.hpp>

#include <hlomem/placement/free_space.hpp>
#include <hlomem/placement/plan.hpp>
#include <hlomem/placement/problem.hpp>

namespace hlomem {

/// Plans offsets for the vertices of `g`: `interval` gives each vertex's inclusive live interval,
/// `size` its bytes; each vertex's offset is written with `put(offset, v, bytes)`. Every buffer is
/// aligned to `alignment`. Requires VertexListGraph.
template <class VertexListGraph, class IntervalMap, class SizeMap, class OffsetMap>
plan_result plan_offsets(VertexListGraph const& g, IntervalMap interval, SizeMap size, OffsetMap offset,
                         allocation_algorithm algorithm = allocation_algorithm::improve, std::int64_t alignment = 1,
                         plan_options const& options = {}) {
    BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<VertexListGraph>));
    using vertex = typename boost::graph_traits<VertexListGraph>::vertex_descriptor;
    std::vector<vertex> all;
    std::vector<lifespan> spans;
    std::vector<std::int64_t> sizes;
    for (auto [it, end] = vertices(g); it != end; ++it) {
        all.push_back(*it);
        spans.push_back(to_lifespan(live_interval(get(interval, *it))));
        sizes.push_back(static_cast<std::int64_t>(get(size, *it)));
    }
    std::vector<std::int64_t> at(all.size(), 0);
    auto const r = plan(make_problem_view(all.size(), spans.data(), sizes.data(), alignment), at.data(), algorithm, options);
    for (std::size_t i = 0; i < all.size(); ++i) put(offset, all[i], at[i]);
    return r;
}

/// First fit over an arbitrary conflict graph: an edge means the two vertices must not share
/// bytes. Vertices go largest first (ties: vertex index), each to the lowest offset that is a
/// multiple of `alignment` and clear of the neighbours placed before it. Returns the arena size.
/// Requires IncidenceGraph and VertexListGraph, and a vertex_index property.
template <class Graph, class SizeMap, class OffsetMap>
std::int64_t conflict_graph_first_fit(Graph const& g, SizeMap size, OffsetMap offset, std::int64_t alignment = 1) {
    BOOST_CONCEPT_ASSERT((boost::IncidenceGraphConcept<Graph>));
    BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<Graph>));
    using vertex = typename boost::graph_traits<Graph>::vertex_descriptor;
    auto const index = get(boost::vertex_index, g);
    std::vector<vertex> order;
    for (auto [it, end] = vertices(g); it != end; ++it) order.push_back(*it);
    std::stable_sort(order.begin(), order.end(), [&](vertex a, vertex b) {
        auto const sa = static_cast<std::int64_t>(get(size, a)), sb = static_cast<std::int64_t>(get(size, b));
        return sa != sb ? sa > sb : get(index, a) < get(index, b);
    });
    std::vector<char> placed(num_vertices(g), 0);
    std::vector<std::int64_t> at(num_vertices(g), 0);
    std::vector<detail::byte_range> used;
    std::int64_t arena = 0;
    for (vertex v : order) {
        auto const bytes = static_cast<std::int64_t>(get(size, v));
        used.clear();
        for (auto [e, end] = out_edges(v, g); e != end; ++e) {
            auto const u = static_cast<std::size_t>(get(index, target(*e, g)));
            if (placed[u]) used.emplace_back(at[u], at[u] + static_cast<std::int64_t>(get(size, target(*e, g))));
        }
        std::sort(used.begin(), used.end());
        auto const i = static_cast<std::size_t>(get(index, v));
        at[i] = bytes > 0 ? detail::lowest_fit(used, bytes, alignment) : 0;
        placed[i] = 1;
        put(offset, v, at[i]);
        if (bytes > 0) arena = std::max(arena, at[i] + bytes);
    }
    return arena;
}

}  // namespace hlomem

#endif  // HLOMEM_GRAPH_ALLOCATION_HPP
