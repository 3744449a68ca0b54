// HLO module parsing throughput on the two seed modules (001: 412 KB, 004: 2.6 MB), for the
// owning and the view policy, and the heap the parsed model keeps, relative to the file size.
//
//   ./hlomem_bench_hlo_module --benchmark_counters_tabular=true --benchmark_repetitions=10
//
// bytes_per_second is the input size over the parse time. model_bytes_per_input_byte is the
// heap in use after the parse minus before, divided by the file size: the cost of the model
// itself, the text excluded. Heap bytes are counted by this program's operator new/delete.
#include <hlomem/hlomem.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <new>
#include <string>
#include <vector>

namespace {

std::atomic<std::int64_t> heap_in_use{0};

// Each block carries its size in front, so that delete can subtract it.
constexpr std::size_t header = alignof(std::max_align_t);

void* counted_alloc(std::size_t n) {
    void* p = std::malloc(n + header);
    if (p == nullptr) throw std::bad_alloc();
    *static_cast<std::size_t*>(p) = n;
    heap_in_use.fetch_add(static_cast<std::int64_t>(n), std::memory_order_relaxed);
    return static_cast<char*>(p) + header;
}

void counted_free(void* p) noexcept {
    if (p == nullptr) return;
    void* block = static_cast<char*>(p) - header;
    heap_in_use.fetch_sub(static_cast<std::int64_t>(*static_cast<std::size_t*>(block)), std::memory_order_relaxed);
    std::free(block);
}

std::string read_seed(char const* name) {
    std::ifstream in(std::string(HLOMEM_TEST_DATA_DIR) + "/seeds/" + name, std::ios::binary);
    if (!in) throw std::runtime_error(std::string("cannot read seed ") + name);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

template <class Policy>
void parse_module(benchmark::State& state, char const* seed) {
    std::string const text = read_seed(seed);
    for (auto _ : state) {
        auto m = hlomem::parse_hlo_module<Policy>(text, seed);
        benchmark::DoNotOptimize(m);
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));

    std::int64_t const before = heap_in_use.load();
    auto const m = hlomem::parse_hlo_module<Policy>(text, seed);
    std::int64_t const model = heap_in_use.load() - before;
    state.counters["instructions"] = static_cast<double>(m.instruction_count());
    state.counters["model_bytes"] = static_cast<double>(model);
    state.counters["model_bytes_per_input_byte"] = static_cast<double>(model) / static_cast<double>(text.size());
}

/// The fastest repetition: on a shared machine the least disturbed run (--benchmark_repetitions=N).
double fastest(std::vector<double> const& v) { return *std::min_element(v.begin(), v.end()); }

/// Milliseconds, and the fastest repetition next to mean and median.
void configure(benchmark::internal::Benchmark* b) {
    b->Unit(benchmark::kMillisecond);
    b->ComputeStatistics("min", fastest);
}

void parse_owning(benchmark::State& state, char const* seed) { parse_module<hlomem::default_policy>(state, seed); }
void parse_view(benchmark::State& state, char const* seed) { parse_module<hlomem::view_policy>(state, seed); }

}  // namespace

void* operator new(std::size_t n) { return counted_alloc(n); }
void* operator new[](std::size_t n) { return counted_alloc(n); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }

BENCHMARK_CAPTURE(parse_owning, seed_001, "001_a0c5460ce1af2dbe.txt")->Apply(configure);
BENCHMARK_CAPTURE(parse_view, seed_001, "001_a0c5460ce1af2dbe.txt")->Apply(configure);
BENCHMARK_CAPTURE(parse_owning, seed_004, "004_c00fd3afea504246.txt")->Apply(configure);
BENCHMARK_CAPTURE(parse_view, seed_004, "004_c00fd3afea504246.txt")->Apply(configure);

BENCHMARK_MAIN();
