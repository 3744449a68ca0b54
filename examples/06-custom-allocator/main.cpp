// 06-custom-allocator: a runtime that plans the scratch memory of its own programs with hlomem.
//
// What it shows:
//   1. a program of its own — ops that read tensors and write one — gives each tensor a live
//      interval, as XLA's live ranges are (inclusive: from the op that writes it to its last
//      reader), kept in a Boost.Graph whose edges join tensors live at the same time;
//   2. hlomem's lower bound (the heaviest moment of the graph) and hlomem's allocators, run on the
//      graph through property maps: XLA's best-fit heap, and the exact search, which proves its
//      arena the smallest;
//   3. the plan checked on the graph: no edge joins two tensors that share bytes;
//   4. a constraint that is not about time — a DMA engine double-buffers two tensors, which
//      therefore must never share bytes — added as one more edge, and planned by first fit over
//      the edges;
//   5. the problem written as MiniMalloc CSV, for MiniMalloc or `hlomem repack` to solve again.
//
// Run: 06-custom-allocator
#include <hlomem/graph.hpp>
#include <hlomem/placement.hpp>

#include <boost/graph/adjacency_list.hpp>

#include <cstdint>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

namespace {

/// One tensor of the program: its name, its bytes and when it is live.
struct tensor {
    std::string name;
    std::int64_t size = 0;
    hlomem::live_interval live;  // inclusive: [first writer, last reader]
};

/// One op: it reads some tensors and writes one.
struct op {
    std::string writes;
    std::int64_t bytes;
    std::vector<std::string> reads;
};

using tensor_graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, tensor>;

}  // namespace

int main() {
    // A small transformer block, in schedule order: op i runs at time i.
    std::vector<op> const program = {
        {"x", 2048, {}},
        {"q", 24576, {"x"}},
        {"k", 2048, {"x"}},
        {"v", 8192, {"x"}},
        {"scores", 8192, {"q", "k"}},
        {"probs", 12288, {"scores"}},
        {"context", 16384, {"probs", "v"}},
        {"proj", 24576, {"context"}},
        {"residual", 16384, {"proj", "x"}},
        {"norm", 4096, {"residual"}},
        {"up", 2048, {"norm"}},
        {"act", 24576, {"up"}},
        {"down", 24576, {"act", "residual"}},
    };

    // 1. Live intervals from the schedule, and the interference graph.
    tensor_graph g;
    std::vector<std::size_t> vertex_of(program.size());
    for (std::size_t t = 0; t < program.size(); ++t) {
        auto const time = static_cast<hlomem::logical_time>(t);
        vertex_of[t] = boost::add_vertex(tensor{program[t].writes, program[t].bytes, {time, time}}, g);
        for (auto const& read : program[t].reads) {
            for (std::size_t w = 0; w < t; ++w) {
                if (program[w].writes == read) g[vertex_of[w]].live.end = time;
            }
        }
    }
    g[vertex_of.back()].live.end = static_cast<hlomem::logical_time>(program.size());  // the output outlives the program
    for (std::size_t a = 0; a < program.size(); ++a) {
        for (std::size_t b = a + 1; b < program.size(); ++b) {
            if (g[vertex_of[a]].live.overlaps(g[vertex_of[b]].live)) boost::add_edge(vertex_of[a], vertex_of[b], g);
        }
    }
    auto const live = get(&tensor::live, g);
    auto const size = get(&tensor::size, g);
    auto const bound = hlomem::interval_peak(g, live, size);
    std::cout << program.size() << " tensors, " << num_edges(g) << " pairs live at the same time\n";
    std::cout << "lower bound: " << bound.weight << " bytes live at time " << bound.time << "\n\n";

    // 2. Plans, through property maps on the graph; every offset aligned to 256 bytes.
    std::vector<std::int64_t> best_fit(num_vertices(g)), exact(num_vertices(g));
    auto const index = get(boost::vertex_index, g);
    auto const best_fit_map = boost::make_iterator_property_map(best_fit.begin(), index);
    auto const exact_map = boost::make_iterator_property_map(exact.begin(), index);
    auto const xla = hlomem::plan_offsets(g, live, size, best_fit_map, hlomem::allocation_algorithm::best_fit, 256);
    auto const optimal = hlomem::plan_offsets(g, live, size, exact_map, hlomem::allocation_algorithm::exact, 256);

    std::cout << "tensor      bytes  live     best-fit   exact\n";
    for (auto v : boost::make_iterator_range(vertices(g))) {
        std::cout << std::left << std::setw(10) << g[v].name << std::right << std::setw(7) << g[v].size << "  "
                  << std::setw(2) << g[v].live.start << "-" << std::left << std::setw(5) << g[v].live.end << std::right
                  << std::setw(9) << best_fit[v] << std::setw(8) << exact[v] << "\n";
    }
    std::cout << "arena" << std::setw(31) << xla.bytes << std::setw(8) << optimal.bytes << "\n";
    std::cout << "the exact search " << (optimal.optimal ? "proves " + std::to_string(optimal.bytes) + " bytes the smallest"
                                                          : std::string("ran out of time"))
              << "\n\n";

    // 3. The plans checked on the graph: no edge joins two tensors that share bytes.
    auto const one_arena = boost::make_static_property_map<tensor_graph::vertex_descriptor>(0);
    std::cout << "overlapping pairs: best-fit " << hlomem::find_byte_overlaps(g, one_arena, best_fit_map, size).size()
              << ", exact " << hlomem::find_byte_overlaps(g, one_arena, exact_map, size).size() << "\n\n";

    // 4. A DMA engine double-buffers 'q' and 'up': they must never share bytes, although they are
    //    never live together. One more edge says so; first fit over the edges respects it.
    boost::add_edge(vertex_of[1], vertex_of[10], g);
    std::vector<std::int64_t> dma(num_vertices(g));
    auto const dma_map = boost::make_iterator_property_map(dma.begin(), index);
    std::int64_t const dma_arena = hlomem::conflict_graph_first_fit(g, size, dma_map, 256);
    std::cout << "with the DMA constraint: q at " << dma[vertex_of[1]] << ", up at " << dma[vertex_of[10]] << ", arena "
              << dma_arena << " bytes, overlapping pairs " << hlomem::find_byte_overlaps(g, one_arena, dma_map, size).size()
              << "\n\n";

    // 5. The problem as MiniMalloc CSV (lifespans half-open: live 4-5 is [4, 6)).
    hlomem::allocation_problem problem;
    for (auto v : boost::make_iterator_range(vertices(g))) {
        problem.buffers.push_back({g[v].name, hlomem::to_lifespan(g[v].live), g[v].size, 256, exact[v], {}});
    }
    std::cout << hlomem::to_minimalloc_csv(problem);
    return 0;
}
