// Throughput of the module-derived liveness (dataflow.hpp, alias_analysis.hpp, liveness.hpp) on
// the two seed modules (001: 1886 instructions; 004: 9917 instructions, 16-way SPMD, two while
// loops) and the largest lorrax module: each step alone, then the whole chain from a parsed
// module to the derived buffer-assignment model with its HloLiveRange text and peak.
//
//   ./hlomem_bench_liveness --benchmark_counters_tabular=true --benchmark_repetitions=10
//
// items_per_second counts logical values (XLA's HloValues, those of fusion bodies included): the
// values the dataflow analysis defines per second. The module is parsed once, outside the timing.
#include <hlomem/hlomem.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using module_type = hlomem::basic_hlo_module<hlomem::view_policy>;

std::string read_data(char const* path) {
    std::ifstream in(std::string(HLOMEM_TEST_DATA_DIR) + "/" + path, std::ios::binary);
    if (!in) throw std::runtime_error(std::string("cannot read ") + path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

enum class step { dataflow, alias, liveness, derive };

void run(benchmark::State& state, char const* path, step s) {
    std::string const text = read_data(path);
    module_type const m = hlomem::parse_hlo_module<hlomem::view_policy>(text, path);
    hlomem::basic_hlo_dataflow<hlomem::view_policy> const df(m);
    for (auto _ : state) {
        switch (s) {
            case step::dataflow: {
                hlomem::basic_hlo_dataflow<hlomem::view_policy> x(m);
                benchmark::DoNotOptimize(x);
                break;
            }
            case step::alias: {
                hlomem::basic_hlo_alias_analysis<hlomem::view_policy> x(df);
                benchmark::DoNotOptimize(x);
                break;
            }
            case step::liveness: {
                hlomem::basic_hlo_liveness<hlomem::view_policy> x(m);
                benchmark::DoNotOptimize(x);
                break;
            }
            case step::derive: {
                auto ba = hlomem::derive_buffer_assignment(hlomem::basic_hlo_liveness<hlomem::view_policy>(m));
                benchmark::DoNotOptimize(ba);
                break;
            }
        }
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(df.values().size()));
    state.counters["instructions"] = static_cast<double>(m.instruction_count());
    state.counters["values"] = static_cast<double>(df.values().size());
}

/// The fastest repetition: on a shared machine the least disturbed run (--benchmark_repetitions=N).
double fastest(std::vector<double> const& v) { return *std::min_element(v.begin(), v.end()); }

void configure(benchmark::internal::Benchmark* b) {
    b->Unit(benchmark::kMillisecond);
    b->ComputeStatistics("min", fastest);
}

void dataflow(benchmark::State& state, char const* path) { run(state, path, step::dataflow); }
void alias(benchmark::State& state, char const* path) { run(state, path, step::alias); }
void liveness(benchmark::State& state, char const* path) { run(state, path, step::liveness); }
void derive(benchmark::State& state, char const* path) { run(state, path, step::derive); }

}  // namespace

BENCHMARK_CAPTURE(dataflow, seed_004, "seeds/004_c00fd3afea504246.txt")->Apply(configure);
BENCHMARK_CAPTURE(alias, seed_004, "seeds/004_c00fd3afea504246.txt")->Apply(configure);
BENCHMARK_CAPTURE(liveness, seed_004, "seeds/004_c00fd3afea504246.txt")->Apply(configure);
BENCHMARK_CAPTURE(derive, seed_004, "seeds/004_c00fd3afea504246.txt")->Apply(configure);
BENCHMARK_CAPTURE(derive, seed_001, "seeds/001_a0c5460ce1af2dbe.txt")->Apply(configure);
BENCHMARK_CAPTURE(derive, lorrax_bse_full_run_large, "corpus/lorrax/lorrax_bse_full_run_large.after_opt.hlo")->Apply(configure);

BENCHMARK_MAIN();
