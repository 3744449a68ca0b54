// hlomem/graph.hpp: the Boost.Graph side of hlomem — interference graphs (adjacency_list, CSR,
// implicit interval view), allocation-level and dataflow graphs, and generic analyses on them.
#ifndef HLOMEM_GRAPH_HPP
#define HLOMEM_GRAPH_HPP

#include <hlomem/graph/analysis.hpp>
#include <hlomem/graph/interference_graph.hpp>
#include <hlomem/graph/interval_graph_view.hpp>

#endif  // HLOMEM_GRAPH_HPP
