// measure_dump: times each step of reading and analysing one buffer-assignment dump, for the
// scaling figures (benchmarks/run_benchmarks.sh runs it over generated dumps of 10^3..10^6 values).
//
//   measure_dump DUMP.txt      -> one line of `key=value` figures
//
// The one-thread parse is timed twice. `parse_s` is the first parse of the process, what a user's
// command pays: it builds the model in pages the process touches for the first time
// (`parse_sys_s`, `parse_minflt`) with code and tables not yet in the caches. `parse_again_s` is
// the fastest of later parses of the same text after the first model is freed (pages and caches
// warm): what measure_parse and the Google benchmarks time. On a dump of 10^3 values the first
// parse is some 30% slower and moves by ±5% with the code's layout, so the instructions per byte
// (callgrind) are what compares two builds of the parser.
#include <hlomem/hlomem.hpp>
#include <hlomem/memory/timeline.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "measure.hpp"

using hlomem_bench::seconds;

namespace {

/// This process's user and system processor time so far, and its minor page faults.
struct usage {
    double user_s = 0;
    double sys_s = 0;
    long minflt = 0;
};
usage process_usage() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto const s = [](timeval t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
    return {s(u.ru_utime), s(u.ru_stime), u.ru_minflt};
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: measure_dump DUMP.txt\n";
        return 2;
    }
    std::string const text = hlomem_bench::read_file(argv[1]);
    long const rss_before = hlomem_bench::peak_rss_bytes();
    hlomem::basic_buffer_assignment<hlomem::view_policy> ba;
    // One thread: the figures of one core (the threaded read: measure_parse first and threads).
    double parse_wall = 0;
    usage const before = process_usage();
    double const parse = seconds([&] {
        parse_wall = hlomem_bench::wall_seconds([&] { ba = hlomem::parse_buffer_assignment<hlomem::view_policy>(text, argv[1], 1); });
    });
    usage const after = process_usage();
    long const model_bytes = hlomem_bench::peak_rss_bytes() - rss_before;
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
    std::size_t const values = ba.values.size();
    ba = {};
    // Three more parses below 100 MB, one above (a parse of 10^6 values takes seconds).
    double parse_again = std::numeric_limits<double>::infinity();
    for (int run = 0; run < (text.size() < 100'000'000 ? 3 : 1); ++run) {
        parse_again = std::min(parse_again, seconds([&] {
            auto const again = hlomem::parse_buffer_assignment<hlomem::view_policy>(text, argv[1], 1);
            if (again.values.size() != values) std::exit(3);
        }));
    }
    std::cout << "values=" << values << " bytes=" << text.size() << " edges=" << edges << " parse_s=" << parse
              << " parse_MBps=" << (static_cast<double>(text.size()) / 1e6 / parse) << " parse_wall_s=" << parse_wall
              << " parse_user_s=" << (after.user_s - before.user_s) << " parse_sys_s=" << (after.sys_s - before.sys_s)
              << " parse_minflt=" << (after.minflt - before.minflt) << " parse_again_s=" << parse_again
              << " parse_again_MBps=" << (static_cast<double>(text.size()) / 1e6 / parse_again)
              << " model_bytes=" << model_bytes
              << " check_s=" << check
              << " violations=" << violations << " xla_peak_s=" << peak_time << " live_bytes_s=" << live
              << " timeline_s=" << timeline << " timeline_drawn=" << drawn << " timeline_bands=" << bands
              << " trace_slices_s=" << trace << " bounds_s=" << bounds << " adjacency_list_s=" << graph << " csr_s=" << csr << " csr_edges=" << csr_edges
              << " view_s=" << view << " view_degree_sum=" << view_degree << '\n';
    return violations == 0 ? 0 : 1;
}
