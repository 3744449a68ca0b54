// Out-of-memory reports: MB/s when finding and reading them in a log. A long log of other lines
// with one report measures the scan for report blocks; the reports alone measure reading fields
// and shapes. Analyzing an entry (sizes, padding breakdown, fixes) is measured on its own.
#include <hlomem/hlomem.hpp>

#include <benchmark/benchmark.h>

#include <fstream>
#include <iterator>
#include <string>

namespace {

std::string read(char const* name) {
    std::ifstream in(std::string(HLOMEM_TEST_DATA_DIR) + "/" + name, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// 100000 log lines of other text, then the glog-prefixed TPU report.
std::string const& long_log() {
    static std::string const text = [] {
        std::string out;
        for (int i = 0; i < 100000; ++i) {
            out += "I1121 10:03:12.123456 12345 tpu_client.cc:127] step " + std::to_string(i) +
                   ": loss=2.3017, learning_rate=0.0003, examples/sec=1523.7\n";
        }
        return out + read("oom/synthetic/tpu_glog_prefixed.txt");
    }();
    return text;
}

/// Every report of tests/data/oom, one after another, ten times.
std::string const& reports() {
    static std::string const text = [] {
        std::string one;
        for (char const* name : {"oom/tpu_oom_pytorch_xla_3041.txt", "oom/synthetic/tpu_glog_prefixed.txt",
                                 "oom/synthetic/gpu_tf_prefixed_two_reports.txt", "oom/synthetic/tpu_untiled_indented.txt"}) {
            one += read(name) + "\n";
        }
        std::string out;
        for (int i = 0; i < 10; ++i) out += one;
        return out;
    }();
    return text;
}

template <class Policy>
void parse(benchmark::State& state, std::string const& (*text)()) {
    std::string const& input = text();
    std::size_t entries = 0;
    for (auto _ : state) {
        auto log = hlomem::parse_oom_reports<Policy>(input, "bench");
        entries = log.entry_count();
        benchmark::DoNotOptimize(log);
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(input.size()));
    state.counters["entries"] = static_cast<double>(entries);
}

void parse_owned(benchmark::State& state, std::string const& (*text)()) { parse<hlomem::default_policy>(state, text); }
void parse_views(benchmark::State& state, std::string const& (*text)()) { parse<hlomem::view_policy>(state, text); }

void analyze_entries(benchmark::State& state) {
    auto const log = hlomem::parse_oom_reports(read("oom/synthetic/tpu_glog_prefixed.txt"), "bench");
    auto const& report = log.reports.front();
    for (auto _ : state) {
        for (auto const& e : report.entries) {
            auto a = hlomem::analyze(e, report.kind);
            benchmark::DoNotOptimize(a);
        }
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(report.entries.size()));
}

}  // namespace

BENCHMARK_CAPTURE(parse_owned, long_log, long_log)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(parse_views, long_log, long_log)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(parse_owned, reports, reports)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(parse_views, reports, reports)->Unit(benchmark::kMicrosecond);
BENCHMARK(analyze_entries)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
