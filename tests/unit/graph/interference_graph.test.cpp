// Interference graphs (graph/interference_graph.hpp): of a seed dump, its dataflow graph, and the
// adjacency_list, CSR and implicit view (graph/interval_graph_view.hpp) of one graph, on random
// live ranges against a brute-force reference and on seed 002.
#include <hlomem/graph/interference_graph.hpp>
#include <hlomem/hlomem.hpp>

#include <boost/graph/topological_sort.hpp>
#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

using hlomem_test::read_data;

using hlomem_test::real_dumps;

}  // namespace

TEST_CASE("interference graphs of a seed dump", "[graph][seeds]") {
    auto const ba = hlomem::parse_buffer_assignment(read_data(real_dumps[1]));
    auto const g = hlomem::make_interference_graph(ba);
    // Every value of the TPU dump has a live range: 83 vertices.
    CHECK(num_vertices(g) == 83);
    auto const csr = hlomem::make_interference_csr(ba);
    CHECK(num_vertices(csr) == 83);
    CHECK(num_edges(csr) == 2 * num_edges(g));
    // Color 1 holds the seven bf16[3584,4096]-sized values that move through VMEM one after another:
    // convert (4-7), convert.1 (5-8), async-collective-start{0} (8-24), fusion.10{1} (24-41),
    // copy-start{0} (40-43), async-collective-start.1{0} (43-59), fusion.17{1} (59-75).
    hlomem::interference_options vmem;
    vmem.color = 1;
    auto const g1 = hlomem::make_interference_graph(ba, vmem);
    CHECK(num_vertices(g1) == 7);
    CHECK(num_edges(g1) == 6);
    // The heaviest moment of color 1: two 28 MiB values at once, the whole 56 MiB arena.
    auto const peak1 = hlomem::interval_peak(g1, get(&hlomem::value_vertex::range, g1), get(&hlomem::value_vertex::size, g1));
    CHECK(peak1.weight == 58720256);
    // On a sound dump the only byte overlaps between interfering values are the legal ones.
    auto const clashes = hlomem::find_byte_overlaps(g, get(&hlomem::value_vertex::allocation, g),
                                                    get(&hlomem::value_vertex::offset, g), get(&hlomem::value_vertex::size, g));
    CHECK(clashes.size() == hlomem::summarize_sharing(ba).total());
    for (auto const& [u, v] : clashes) CHECK(hlomem::legal_sharing(ba, g[u].value, g[v].value).has_value());
    // Allocations that interfere: the temp arena (6) interferes with the output (1), parameters...
    auto const ag = hlomem::make_allocation_interference_graph(ba);
    CHECK(num_vertices(ag) == 10);
    CHECK(boost::edge(6, 1, ag).second);
    CHECK_FALSE(boost::edge(6, 7, ag).second);  // different colors never interfere
}

TEST_CASE("the dataflow graph follows the Used-values blocks", "[graph][dataflow]") {
    auto const ba = hlomem::parse_buffer_assignment(read_data(real_dumps[1]));
    auto const g = hlomem::make_dataflow_graph(ba);
    CHECK(num_vertices(g) == 83);
    // <130 param.2 @0> is used by convert.1, operand 0: an edge to value 131 (convert.1).
    std::size_t p2 = 0, c1 = 0;
    for (std::size_t v = 0; v < num_vertices(g); ++v) {
        if (g[v].id == 130) p2 = v;
        if (g[v].id == 131) c1 = v;
    }
    auto const e = boost::edge(p2, c1, g);
    REQUIRE(e.second);
    CHECK(g[e.first].operand_number == 0);
    CHECK(in_degree(p2, g) == 0);
    // The graph is acyclic: a topological order exists, with param.2 before convert.1.
    std::vector<std::size_t> order;
    boost::topological_sort(g, std::back_inserter(order));
    auto const pos = [&](std::size_t v) { return std::find(order.rbegin(), order.rend(), v) - order.rbegin(); };
    CHECK(pos(p2) < pos(c1));
}

namespace {

/// A synthetic buffer assignment: one allocation per color, values with the given ranges.
hlomem::buffer_assignment synthetic(std::vector<hlomem::live_interval> const& ranges, std::vector<std::int64_t> const& colors) {
    hlomem::buffer_assignment ba;
    std::int64_t const n_colors = colors.empty() ? 1 : *std::max_element(colors.begin(), colors.end()) + 1;
    for (std::int64_t c = 0; c < n_colors; ++c) {
        hlomem::allocation a;
        a.index = c;
        a.color = c;
        a.size = 1 << 20;
        a.is_preallocated_temp = true;
        ba.allocations.push_back(a);
    }
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        hlomem::logical_value v;
        v.id = static_cast<std::int64_t>(i);
        v.name = "v" + std::to_string(i);
        v.allocation = static_cast<std::size_t>(colors.empty() ? 0 : colors[i]);
        v.size = 16;
        v.live_range = ranges[i];
        ba.allocations[v.allocation].values.push_back(i);
        ba.values.push_back(v);
    }
    ba.reindex();
    return ba;
}

}  // namespace

TEST_CASE("adjacency_list, CSR and the implicit view give identical adjacency on random live ranges",
          "[graph][random]") {
    std::mt19937 rng(5);
    for (int round = 0; round < 40; ++round) {
        int const n = std::uniform_int_distribution<int>(1, 120)(rng);
        int const horizon = std::uniform_int_distribution<int>(1, 60)(rng);
        int const n_colors = std::uniform_int_distribution<int>(1, 3)(rng);
        std::vector<hlomem::live_interval> ranges;
        std::vector<std::int64_t> colors;
        for (int i = 0; i < n; ++i) {
            int const a = std::uniform_int_distribution<int>(0, horizon)(rng);
            int const len = std::uniform_int_distribution<int>(0, round % 4 == 0 ? horizon : 5)(rng);
            ranges.push_back({a, a + len});
            colors.push_back(std::uniform_int_distribution<int>(0, n_colors - 1)(rng));
        }
        auto const ba = synthetic(ranges, colors);
        auto const g = hlomem::make_interference_graph(ba);
        auto const csr = hlomem::make_interference_csr(ba);
        auto const view = hlomem::make_interval_graph_view(ba);
        // Vertex k of every model is the same value (the same selection order).
        REQUIRE(num_vertices(g) == static_cast<std::size_t>(n));
        REQUIRE(view.values.size() == static_cast<std::size_t>(n));
        for (std::size_t u = 0; u < static_cast<std::size_t>(n); ++u) {
            std::size_t const value = g[u].value;
            REQUIRE(csr[u].value == value);
            REQUIRE(view.values[u] == value);
            // The reference: every other value of the same color whose range overlaps.
            std::set<std::size_t> expected;
            for (std::size_t w = 0; w < static_cast<std::size_t>(n); ++w) {
                if (w != u && colors[g[w].value] == colors[value] && ranges[g[w].value].overlaps(ranges[value])) {
                    expected.insert(w);
                }
            }
            std::set<std::size_t> from_list, from_csr, from_view;
            for (auto [it, end] = adjacent_vertices(u, g); it != end; ++it) from_list.insert(*it);
            for (auto [it, end] = adjacent_vertices(u, csr); it != end; ++it) from_csr.insert(*it);
            for (auto [it, end] = adjacent_vertices(u, view.graph); it != end; ++it) from_view.insert(*it);
            CHECK(from_list == expected);
            CHECK(from_csr == expected);
            CHECK(from_view == expected);
            CHECK(out_degree(u, view.graph) == expected.size());
            for (std::size_t w = 0; w < static_cast<std::size_t>(n); ++w) {
                CHECK(edge(u, w, view.graph).second == (expected.count(w) == 1));
            }
        }
    }
}

TEST_CASE("seed 002: lower bounds by color, and one interference graph three ways", "[graph][bounds]") {
    // Moved from the README tour's hand copy; the README's tour states color 0's bound and the
    // graph's 83 vertices and 725 edges.
    std::string const text = hlomem_test::read_data("seeds/002_b0117d631587537a.txt");
    auto ba = hlomem::parse_buffer_assignment<hlomem::view_policy>(text, "dump.txt");
    auto bounds = hlomem::lower_bounds(ba, hlomem::shared_buffers(ba));
    REQUIRE(bounds.size() == 4);
    CHECK(bounds[0].color == 0);
    CHECK(bounds[0].all.bytes == 2709520384);
    CHECK(bounds[0].temp.bytes == 2113929408);
    CHECK(bounds[0].temp_allocated_bytes == 2114011136);

    auto g = hlomem::make_interference_graph(ba);
    auto csr = hlomem::make_interference_csr(ba);
    auto view = hlomem::make_interval_graph_view(ba);
    using boost::num_edges;  // Boost.Graph's functions are found by argument-dependent lookup
    using boost::num_vertices;
    CHECK(num_vertices(g) == 83);
    CHECK(num_edges(g) == 725);
    CHECK(num_edges(csr) == 2 * 725);  // both directions of each edge
    CHECK(num_vertices(view.graph) == 83);
    std::size_t degrees = 0;
    for (std::size_t v = 0; v < num_vertices(view.graph); ++v) degrees += out_degree(v, view.graph);
    CHECK(degrees == 2 * 725);
}
