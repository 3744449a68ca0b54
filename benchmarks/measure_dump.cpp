// measure_dump: times each step of reading and analysing one buffer-assignment dump, for the
// scaling figures (benchmarks/run_benchmarks.sh runs it over generated dumps of 10^3..10^6 values).
//
//   measure_dump DUMP.txt      -> one line of `key=value` figures
#include <hlomem/hlomem.hpp>
#include <hlomem/memory/timeline.hpp>

#include "measure.hpp"

using hlomem_bench::seconds;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: measure_dump DUMP.txt\n";
        return 2;
    }
    std::string const text = hlomem_bench::read_file(argv[1]);
    long const rss_before = hlomem_bench::peak_rss_bytes();
    hlomem::basic_buffer_assignment<hlomem::view_policy> ba;
    // One thread (what the figures of one core are), then on every processor this process may use
    // (taskset decides), in wall time: what threads save is wall time, not processor time.
    double parse_wall = 0;
    double const parse = seconds([&] {
        parse_wall = hlomem_bench::wall_seconds([&] { ba = hlomem::parse_buffer_assignment<hlomem::view_policy>(text, argv[1], 1); });
    });
    long const model_bytes = hlomem_bench::peak_rss_bytes() - rss_before;
    std::size_t const threads = hlomem::parser::dump::available_threads();
    double const threaded_wall = hlomem_bench::wall_seconds([&] {
        auto const again = hlomem::parse_buffer_assignment<hlomem::view_policy>(text, argv[1], threads);
        if (again.values.size() != ba.values.size()) std::exit(3);
    });
    std::size_t violations = 0, edges = 0, csr_edges = 0, view_degree = 0;
    double const check = seconds([&] { violations = hlomem::check_soundness(ba).size(); });
    double peak_time = seconds([&] { (void)hlomem::compute_xla_peak(ba); });
    double const live = seconds([&] { (void)hlomem::assigned_live_bytes(ba); });
    std::size_t drawn = 0, bands = 0;
    double const timeline = seconds([&] {
        for (auto const& c : hlomem::make_timeline(ba).colors) {
            drawn += c.buffers.size();
            bands += c.bands.size();
        }
    });
    double const trace = seconds([&] { (void)hlomem::trace_slices(ba); });
    std::int64_t bound = 0;
    double const bounds = seconds([&] {
        auto const buffers = hlomem::shared_buffers(ba);
        for (auto const& c : hlomem::lower_bounds(ba, buffers)) bound += c.temp.bytes;
    });
    double const graph = seconds([&] { edges = num_edges(hlomem::make_interference_graph(ba)); });
    double const csr = seconds([&] { csr_edges = num_edges(hlomem::make_interference_csr(ba)) / 2; });
    double const view = seconds([&] {
        auto const v = hlomem::make_interval_graph_view(ba);
        for (std::size_t u = 0; u < num_vertices(v.graph); ++u) view_degree += out_degree(u, v.graph);
    });
    std::cout << "values=" << ba.values.size() << " bytes=" << text.size() << " edges=" << edges << " parse_s=" << parse
              << " parse_MBps=" << (static_cast<double>(text.size()) / 1e6 / parse) << " parse_wall_s=" << parse_wall
              << " threads=" << threads << " threaded_parse_wall_s=" << threaded_wall << " model_bytes=" << model_bytes
              << " check_s=" << check
              << " violations=" << violations << " xla_peak_s=" << peak_time << " live_bytes_s=" << live
              << " timeline_s=" << timeline << " timeline_drawn=" << drawn << " timeline_bands=" << bands
              << " trace_slices_s=" << trace << " bounds_s=" << bounds << " adjacency_list_s=" << graph << " csr_s=" << csr << " csr_edges=" << csr_edges
              << " view_s=" << view << " view_degree_sum=" << view_degree << '\n';
    return violations == 0 ? 0 : 1;
}
