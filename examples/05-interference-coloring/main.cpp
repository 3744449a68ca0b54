// 05-interference-coloring: coloring the interference graph of a real program's buffers.
//
// What it shows:
//   1. hlomem turns a buffer-assignment dump into a Boost.Graph interference graph: one vertex per
//      value, an edge between two values live at the same time;
//   2. Boost.Graph's sequential_vertex_coloring colors it — greedily in order of live-range start,
//      and in smallest-last order — and for an interval graph both need exactly as many colors as
//      the most values live at once (the largest clique): interval graphs are perfect;
//   3. what that means for allocation. Register-style allocation gives each color one slot as large
//      as its largest value. Offset-style allocation (what XLA's heap simulator does) places each
//      value at its own offset, and can go down to the most *bytes* live at once.
//
// Run: 05-interference-coloring [DUMP]   (default: seed dump 000, a GPU decoder step)
#include <hlomem/graph.hpp>
#include <hlomem/memory.hpp>
#include <hlomem/parser.hpp>

#include <boost/graph/sequential_vertex_coloring.hpp>
#include <boost/graph/smallest_last_ordering.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

int main(int argc, char** argv) {
    // Run by ctest from its own folder, so the bundled dump is two levels up.
    std::string const path = argc > 1 ? argv[1] : "../../tests/data/seeds/000_5960cad812240b69.txt";
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::cerr << "cannot open " << path << '\n';
        return 1;
    }
    std::string const text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto const ba = hlomem::parse_buffer_assignment(text, path);

    // The temp arena's values: what XLA's heap simulator placed.
    hlomem::interference_options temps;
    temps.temps_only = true;
    auto const g = hlomem::make_interference_graph(ba, temps);
    std::size_t const n = num_vertices(g);
    auto const index = get(boost::vertex_index, g);

    // Greedy coloring in order of live-range start.
    std::vector<std::size_t> by_start(n);
    for (std::size_t v = 0; v < n; ++v) by_start[v] = v;
    std::stable_sort(by_start.begin(), by_start.end(), [&](std::size_t a, std::size_t b) { return g[a].range.start < g[b].range.start; });
    std::vector<std::size_t> color(n);
    auto color_map = boost::make_iterator_property_map(color.begin(), index);
    std::size_t const greedy = boost::sequential_vertex_coloring(
        g, boost::make_iterator_property_map(by_start.begin(), boost::identity_property_map()), color_map);

    // Greedy coloring in smallest-last order.
    std::vector<std::size_t> order(n), degree(n), marker(n), smallest_last_color(n);
    boost::smallest_last_vertex_ordering(g, boost::make_iterator_property_map(order.begin(), boost::identity_property_map()),
                                         boost::make_iterator_property_map(degree.begin(), index),
                                         boost::make_iterator_property_map(marker.begin(), index));
    std::size_t const smallest_last = boost::sequential_vertex_coloring(
        g, boost::make_iterator_property_map(order.begin(), boost::identity_property_map()),
        boost::make_iterator_property_map(smallest_last_color.begin(), index));

    // The largest clique: the most values live at once (weight 1 each).
    auto const clique = hlomem::interval_peak(g, get(&hlomem::value_vertex::range, g),
                                              boost::make_static_property_map<std::size_t>(std::int64_t{1}));

    std::cout << "temp arena values of " << path.substr(path.find_last_of('/') + 1) << "\n";
    std::cout << "  vertices (values with a live range)            " << n << "\n";
    std::cout << "  edges (pairs of values live at the same time)  " << num_edges(g) << "\n";
    std::cout << "  most values live at once (largest clique)      " << clique.weight << " at time " << clique.time << "\n";
    std::cout << "  colors, greedy in order of live-range start    " << greedy << "\n";
    std::cout << "  colors, greedy in smallest-last order          " << smallest_last << "\n";
    std::cout << "  interval graphs are perfect: colors == largest clique: "
              << (greedy == static_cast<std::size_t>(clique.weight) ? "yes" : "no") << "\n\n";

    // Register-style: one slot per color, as large as the color's largest value.
    std::vector<std::int64_t> slot(greedy, 0);
    for (std::size_t v = 0; v < n; ++v) slot[color[v]] = std::max(slot[color[v]], g[v].size);
    std::int64_t register_style = 0;
    for (auto s : slot) register_style += s;
    // Offset-style: the lower bound is the most bytes live at once (values sharing a slice on
    // purpose counted once).
    auto const buffers = hlomem::shared_buffers(ba);
    auto const bounds = hlomem::lower_bounds(ba, buffers);
    std::int64_t temp_bound = 0, xla = 0;
    for (auto const& b : bounds) {
        temp_bound += b.temp.bytes;
        xla += b.temp_allocated_bytes;
    }
    auto line = [](std::string label, std::int64_t bytes) {
        label.resize(62, ' ');
        std::cout << label << bytes << " bytes (" << hlomem::human_bytes(bytes) << ")\n";
    };
    line("register-style: " + std::to_string(greedy) + " slots, each as large as its largest value", register_style);
    line("offset-style lower bound: the most bytes live at once", temp_bound);
    line("XLA's temp arena (best-fit heap over offsets)", xla);
    std::cout << "Slots waste what small values leave of a large slot; offsets can pack small values\n"
                 "around large ones, so they approach the bound instead of the sum of slot sizes.\n";
    return 0;
}
