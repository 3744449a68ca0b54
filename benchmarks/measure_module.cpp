// measure_module: times each step of reading and analysing one HLO module, for the scaling
// figures (benchmarks/run_benchmarks.sh runs it over generated modules of 10^3..10^6 values).
//
//   measure_module MODULE.hlo   -> one line of `key=value` figures
#include <hlomem/hlomem.hpp>

#include "measure.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: measure_module MODULE.hlo\n";
        return 2;
    }
    std::string const text = hlomem_bench::read_file(argv[1]);
    long const rss_before = hlomem_bench::peak_rss_bytes();
    hlomem::basic_hlo_module<hlomem::view_policy> m;
    double const parse = hlomem_bench::seconds([&] { m = hlomem::parse_hlo_module<hlomem::view_policy>(text, argv[1]); });
    long const model_bytes = hlomem_bench::peak_rss_bytes() - rss_before;
    std::optional<hlomem::basic_hlo_liveness<hlomem::view_policy>> live;
    // The analyses as derive_assignment runs them: the values of fusion bodies numbered, not analysed.
    hlomem::liveness_options analyses;
    analyses.dataflow.fusion_body_values = false;
    double const liveness = hlomem_bench::seconds([&] { live.emplace(m, analyses); });
    hlomem::basic_buffer_assignment<hlomem::view_policy> ba;
    double const derive = hlomem_bench::seconds([&] { ba = hlomem::derive_buffer_assignment(*live); });
    double const peak = hlomem_bench::seconds([&] { (void)hlomem::compute_xla_peak(ba); });
    std::cout << "instructions=" << m.instruction_count() << " values=" << ba.values.size() << " bytes=" << text.size()
              << " parse_s=" << parse << " parse_MBps=" << (static_cast<double>(text.size()) / 1e6 / parse)
              << " model_bytes=" << model_bytes << " liveness_s=" << liveness << " derive_s=" << derive
              << " xla_peak_s=" << peak << '\n';
    return 0;
}
