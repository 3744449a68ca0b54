// The interval graph that stores no edges (graph/interval_graph_view.hpp): the Boost.Graph concepts
// it claims, and its adjacency and degrees worked out by hand from inclusive live ranges.
#include <hlomem/graph/interval_graph_view.hpp>

#include <catch2/catch.hpp>

#include <boost/graph/graph_concepts.hpp>

#include <cstddef>
#include <set>
#include <vector>

// The implicit view models the concepts it claims.
BOOST_CONCEPT_ASSERT((boost::VertexListGraphConcept<hlomem::interval_graph_view>));
BOOST_CONCEPT_ASSERT((boost::IncidenceGraphConcept<hlomem::interval_graph_view>));
BOOST_CONCEPT_ASSERT((boost::AdjacencyGraphConcept<hlomem::interval_graph_view>));
BOOST_CONCEPT_ASSERT((boost::AdjacencyMatrixConcept<hlomem::interval_graph_view>));

namespace {

/// The neighbours of `u` as adjacent_vertices walks them.
std::set<std::size_t> neighbours_in_view(hlomem::interval_graph_view const& g, std::size_t u) {
    std::set<std::size_t> out;
    for (auto [it, end] = adjacent_vertices(u, g); it != end; ++it) out.insert(*it);
    return out;
}

}  // namespace

TEST_CASE("graph/interval_graph_view: the header's three ranges, colors and inclusive ends", "[graph][interval_graph_view]") {
    // a [0, 2], b [1, 4], c [3, 5]: a-b and b-c overlap, a and c do not.
    hlomem::interval_graph_view const g({{0, 2}, {1, 4}, {3, 5}});
    CHECK(num_vertices(g) == 3);
    CHECK(edge(0, 1, g).second);
    CHECK(edge(1, 2, g).second);
    CHECK_FALSE(edge(0, 2, g).second);
    CHECK_FALSE(edge(1, 1, g).second);  // no loops
    CHECK(out_degree(0, g) == 1);
    CHECK(out_degree(1, g) == 2);
    CHECK(out_degree(2, g) == 1);
    CHECK(neighbours_in_view(g, 1) == std::set<std::size_t>{0, 2});
    CHECK(neighbours_in_view(g, 2) == std::set<std::size_t>{1});
    CHECK(hlomem::interval_graph_view::null_vertex() == hlomem::npos);

    // The same ranges with b in another memory space: nothing interferes with it.
    hlomem::interval_graph_view const colored({{0, 2}, {1, 4}, {3, 5}}, {0, 1, 0});
    CHECK_FALSE(edge(0, 1, colored).second);
    CHECK(colored.color(1) == 1);
    for (std::size_t v = 0; v < 3; ++v) {
        CHECK(out_degree(v, colored) == 0);
        CHECK(neighbours_in_view(colored, v).empty());
    }

    // XLA's live ranges are inclusive at both ends: [0, 2] and [2, 4] share time 2.
    hlomem::interval_graph_view const touching({{0, 2}, {2, 4}});
    CHECK(edge(0, 1, touching).second);
    CHECK(out_degree(1, touching) == 1);

    hlomem::interval_graph_view const empty(std::vector<hlomem::live_interval>{});
    CHECK(num_vertices(empty) == 0);
    CHECK(vertices(empty).first == vertices(empty).second);
}

TEST_CASE("graph/interval_graph_view: a long range's neighbours inside it, and a short one's skipped", "[graph][interval_graph_view]") {
    // v0 [0, 100] holds v1 [50, 51] and v2 [60, 61]; v3 [200, 300] meets none. v2's window of
    // starts reaches back to 60 - 100 (the longest range's length) and finds v1 there, which
    // ended at 51 before v2 began: not a neighbour.
    hlomem::interval_graph_view const g({{0, 100}, {50, 51}, {60, 61}, {200, 300}});
    CHECK(out_degree(0, g) == 2);
    CHECK(out_degree(1, g) == 1);
    CHECK(out_degree(2, g) == 1);
    CHECK(out_degree(3, g) == 0);
    CHECK(neighbours_in_view(g, 0) == std::set<std::size_t>{1, 2});
    CHECK(neighbours_in_view(g, 2) == std::set<std::size_t>{0});
    CHECK(neighbours_in_view(g, 3).empty());
    std::size_t edges_walked = 0;
    for (std::size_t u = 0; u < num_vertices(g); ++u) {
        for (auto [e, end] = out_edges(u, g); e != end; ++e) {
            CHECK(source(*e, g) == u);
            CHECK(edge(u, target(*e, g), g).second);
            ++edges_walked;
        }
    }
    CHECK(edges_walked == 2 * 2);  // two edges, each walked from both ends
}
