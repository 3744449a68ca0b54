// Buffer-assignment parsing: MB/s on each seed dump and the largest corpus dump, for the owning
// and the view policy, and the heap bytes the model keeps per input byte.
#include <hlomem/hlomem.hpp>

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <new>
#include <string>

// Every heap allocation of this program is counted, so that a model's footprint can be measured
// as the bytes allocated while it is built minus those freed.
namespace {
std::atomic<std::int64_t> live_heap_bytes{0};
}
// The nothrow form is replaced too (std::inplace_merge takes its buffer through it): left to the
// library, its block would reach the std::free below.
void* operator new(std::size_t n, std::nothrow_t const&) noexcept {
    void* p = std::malloc(n + 16);
    if (!p) return nullptr;
    *static_cast<std::size_t*>(p) = n;
    live_heap_bytes += static_cast<std::int64_t>(n);
    return static_cast<char*>(p) + 16;
}
void* operator new(std::size_t n) {
    void* p = operator new(n, std::nothrow);
    if (!p) throw std::bad_alloc();
    return p;
}
void operator delete(void* p) noexcept {
    if (!p) return;
    char* base = static_cast<char*>(p) - 16;
    live_heap_bytes -= static_cast<std::int64_t>(*reinterpret_cast<std::size_t*>(base));
    std::free(base);
}
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }
void operator delete(void* p, std::nothrow_t const&) noexcept { operator delete(p); }

namespace {

std::string const& dump(char const* name) {
    static std::map<std::string, std::string> cache;
    auto& text = cache[name];
    if (text.empty()) {
        std::ifstream in(std::string(HLOMEM_TEST_DATA_DIR) + "/" + name, std::ios::binary);
        text.assign((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    }
    return text;
}

template <class Policy>
void parse_dump(benchmark::State& state, char const* name) {
    std::string const& text = dump(name);
    std::int64_t model_bytes = 0;
    for (auto _ : state) {
        std::int64_t const before = live_heap_bytes;
        auto ba = hlomem::parse_buffer_assignment<Policy>(text, name);
        model_bytes = live_heap_bytes - before + static_cast<std::int64_t>(sizeof(ba));
        benchmark::DoNotOptimize(ba);
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
    state.counters["model_bytes_per_input_byte"] = static_cast<double>(model_bytes) / static_cast<double>(text.size());
    state.counters["input_bytes"] = static_cast<double>(text.size());
}

void parse_owning(benchmark::State& state, char const* name) { parse_dump<hlomem::default_policy>(state, name); }
void parse_view(benchmark::State& state, char const* name) { parse_dump<hlomem::view_policy>(state, name); }

void peak_and_checks(benchmark::State& state, char const* name) {
    auto const ba = hlomem::parse_buffer_assignment(dump(name), name);
    for (auto _ : state) {
        auto peak = hlomem::compute_xla_peak(ba);
        auto colors = hlomem::assigned_live_bytes(ba);
        auto problems = hlomem::check_consistency(ba);
        benchmark::DoNotOptimize(peak);
        benchmark::DoNotOptimize(colors);
        benchmark::DoNotOptimize(problems);
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(ba.values.size()));
}

}  // namespace

#define HLOMEM_DUMP_BENCHMARKS(label, path)                                                          \
    BENCHMARK_CAPTURE(parse_owning, label, path);                                                   \
    BENCHMARK_CAPTURE(parse_view, label, path);                                                     \
    BENCHMARK_CAPTURE(peak_and_checks, label, path);

HLOMEM_DUMP_BENCHMARKS(seed_000, "seeds/000_5960cad812240b69.txt")
HLOMEM_DUMP_BENCHMARKS(seed_002, "seeds/002_b0117d631587537a.txt")
HLOMEM_DUMP_BENCHMARKS(seed_003, "seeds/003_3a38346822a50a7e.txt")
HLOMEM_DUMP_BENCHMARKS(bse_full_run_large, "corpus/lorrax/lorrax_bse_full_run_large.buffer_assignment.txt")

BENCHMARK_MAIN();
