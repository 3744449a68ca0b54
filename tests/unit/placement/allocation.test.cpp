// Allocation algorithms together: every algorithm on every real dump's temp arenas, hlomem's best
// placement of the seed arenas, every heuristic on the MiniMalloc challenging instances, and the
// graph helpers. The problem model, each allocator, the exact search, the temp arenas and CSV have
// files of their own (problem, best_fit, greedy, improve, exact, temp_arena, minimalloc_csv).
#include <hlomem/hlomem.hpp>
#include <hlomem/load/kind.hpp>

#include <catch2/catch.hpp>

#include "problem_helpers.hpp"

#include "test_data.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace {

using hlomem_test::offsets_of;

using hlomem_test::read_data;
using hlomem_test::real_dumps;

}  // namespace

// ---------------------------------------------------------------------------------------------
// Every algorithm on XLA's temp arenas
// ---------------------------------------------------------------------------------------------

TEST_CASE("every algorithm's placement keeps every dump sound", "[allocation][xla]") {
    for (auto const& path : real_dumps) {  // those without a temp arena add none
        CAPTURE(path);
        auto const text = read_data(path);
        auto const ba = hlomem::parse_buffer_assignment(text, path);
        for (auto const& arena : hlomem::temp_arenas(ba)) {
            hlomem::plan_options options;
            options.heap_keys = arena.heap_keys;
            options.start = offsets_of(arena.problem);
            options.improve.iterations = 200;
            options.exact.node_limit = 20000;
            for (auto algorithm : hlomem::all_allocation_algorithms) {
                CAPTURE(hlomem::to_string(algorithm));
                auto p = arena.problem;
                auto const r = hlomem::plan(p, algorithm, options);
                CHECK(hlomem::check_placement(p).empty());
                CHECK(r.bytes >= hlomem::lower_bound_bytes(p));
                if (algorithm == hlomem::allocation_algorithm::improve || algorithm == hlomem::allocation_algorithm::exact) {
                    CHECK(r.bytes <= arena.xla_bytes);  // they start from XLA's placement at worst
                }
                CHECK(hlomem::check_soundness(hlomem::with_placement(ba, arena, p)).empty());
            }
        }
    }
}

TEST_CASE("hlomem's best placement of the seed arenas, against XLA's and the bound", "[allocation][xla]") {
    // Seed 000: XLA 985504; the exact search reaches the lower bound 851968 (13.55% below XLA).
    auto const text = read_data("seeds/000_5960cad812240b69.txt");
    auto const arenas = hlomem::temp_arenas(hlomem::parse_buffer_assignment(text));
    auto p = arenas[0].problem;
    hlomem::plan_options options;
    options.start = offsets_of(p);
    options.exact.node_limit = 200000;
    auto const exact = hlomem::plan(p, hlomem::allocation_algorithm::exact, options);
    CHECK(exact.bytes == 851968);
    CHECK(exact.optimal);
    p = arenas[0].problem;
    options.improve.iterations = 2000;
    auto const improved = hlomem::plan(p, hlomem::allocation_algorithm::improve, options);
    CHECK(improved.bytes == 852096);
    CHECK(improved.work == 2000);
}

// ---------------------------------------------------------------------------------------------
// The MiniMalloc challenging instances
// ---------------------------------------------------------------------------------------------

TEST_CASE("the MiniMalloc challenging instances: every heuristic's placement is valid", "[allocation][minimalloc]") {
    struct expected {
        char name;
        std::size_t buffers;
        std::int64_t lower_bound, best_fit, greedy_by_size, first_fit;
    };
    // Eight instances have a lower bound of exactly 1048576, the capacity they are solved for.
    for (auto const& e : {expected{'A', 154, 1048576, 1374208, 1374208, 1608704}, expected{'B', 170, 1048576, 1412096, 1412096, 1775616},
                          expected{'C', 203, 1039360, 1417216, 1417216, 1769472}, expected{'D', 213, 986112, 1316864, 1315840, 1547264},
                          expected{'E', 215, 1048576, 1469440, 1469440, 1981440}, expected{'F', 296, 1048576, 1433600, 1441792, 1277952},
                          expected{'G', 308, 1048576, 1432576, 1396736, 1343488}, expected{'H', 316, 1048576, 1371136, 1421312, 1299456},
                          expected{'I', 374, 1048576, 1473536, 1478656, 1629184}, expected{'J', 409, 989184, 1362944, 1333248, 1587200},
                          expected{'K', 454, 1048576, 1369088, 1391616, 2102272}}) {
        std::string const path = std::string("minimalloc/") + e.name + ".1048576.csv";
        CAPTURE(path);
        auto const text = read_data(path);
        auto const p = hlomem::parse_minimalloc_csv(text, path);
        CHECK(p.buffers.size() == e.buffers);
        CHECK(hlomem::lower_bound_bytes(p) == e.lower_bound);
        auto q = p;
        CHECK(hlomem::xla_choose_best_fit(q).bytes == e.best_fit);
        CHECK(hlomem::check_placement(q).empty());
        q = p;
        CHECK(hlomem::greedy_by_size(q) == e.greedy_by_size);
        CHECK(hlomem::check_placement(q).empty());
        q = p;
        CHECK(hlomem::first_fit_by_start(q) == e.first_fit);
        CHECK(hlomem::check_placement(q).empty());
    }
}

// ---------------------------------------------------------------------------------------------
// Graphs
// ---------------------------------------------------------------------------------------------

TEST_CASE("plan_offsets places the vertices of an interference graph", "[allocation][graph]") {
    auto const text = read_data("seeds/000_5960cad812240b69.txt");
    auto const ba = hlomem::parse_buffer_assignment(text);
    hlomem::interference_options temps;
    temps.temps_only = true;
    auto const g = hlomem::make_interference_graph(ba, temps);
    std::vector<std::int64_t> offset(num_vertices(g), -1);
    auto offsets = boost::make_iterator_property_map(offset.begin(), get(boost::vertex_index, g));
    auto const r = hlomem::plan_offsets(g, get(&hlomem::value_vertex::range, g), get(&hlomem::value_vertex::size, g), offsets,
                                        hlomem::allocation_algorithm::best_fit, 128);
    // Every value on its own (no sharing): the best-fit heap of the 52 values.
    CHECK(r.bytes == 983040);
    CHECK(hlomem::find_byte_overlaps(g, get(&hlomem::value_vertex::allocation, g), offsets,
                                     get(&hlomem::value_vertex::size, g))
              .empty());
}

TEST_CASE("conflict_graph_first_fit follows the edges, not lifespans", "[allocation][graph]") {
    // A triangle a-b-c plus d, which conflicts only with a.
    using graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    graph g(4);
    boost::add_edge(0, 1, g);
    boost::add_edge(1, 2, g);
    boost::add_edge(0, 2, g);
    boost::add_edge(0, 3, g);
    std::vector<std::int64_t> const size = {64, 32, 16, 48};
    std::vector<std::int64_t> offset(4, -1);
    auto const arena = hlomem::conflict_graph_first_fit(g, size.data(), offset.data(), 16);
    // a (64) at 0; d (48) clear of a at 64; b (32) clear of a at 64; c (16) clear of a and b: 96.
    CHECK(offset == std::vector<std::int64_t>{0, 64, 96, 64});
    CHECK(arena == 112);
}
