// hlomem/graph.hpp: the Boost.Graph side of hlomem — interference graphs (adjacency_list, CSR,
// implicit interval view), allocation-level and dataflow graphs, generic analyses on them, and
// offset planning for the vertices of any graph.
#ifndef HLOMEM_GRAPH_HPP
#define HLOMEM_GRAPH_HPP

#include <hlomem/graph/allocation.hpp>
#include <hlomem/graph/analysis.hpp>
#include <hlomem/graph/interference_graph.hpp>
#include <hlomem/graph/interval_graph_view.hpp>

#endif  // HLOMEM_GRAPH_HPP
