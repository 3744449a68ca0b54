// Shape parsing throughput: every distinct array and tuple shape text of the seed dumps' value
// lines and instructions, parsed in a loop, for the owning and the view policy. Reports shapes/s
// and bytes/s.
#include <hlomem/hlomem.hpp>

#include <benchmark/benchmark.h>

#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

std::vector<std::string> const& seed_shapes() {
    static std::vector<std::string> const shapes = [] {
        std::set<std::string> found;
        std::regex const value_line(R"(\(size=\d+,offset=\d+\): (.*))");
        std::regex const array_shape(R"(\b(pred|[suf][0-9]+|bf16|c64|c128)\[[0-9,]*\](\{[^{}]*\})?)");
        for (char const* name : {"000_5960cad812240b69.txt", "001_a0c5460ce1af2dbe.txt", "002_b0117d631587537a.txt",
                                 "003_3a38346822a50a7e.txt", "004_c00fd3afea504246.txt"}) {
            std::ifstream in(std::string(HLOMEM_TEST_DATA_DIR) + "/seeds/" + name);
            std::string line;
            while (std::getline(in, line)) {
                std::smatch m;
                if (std::regex_search(line, m, value_line)) found.insert(m[1].str());
                for (auto it = std::sregex_iterator(line.begin(), line.end(), array_shape); it != std::sregex_iterator(); ++it) {
                    found.insert(it->str());
                }
            }
        }
        return std::vector<std::string>(found.begin(), found.end());
    }();
    return shapes;
}

template <class Policy>
void parse_seed_shapes(benchmark::State& state) {
    auto const& shapes = seed_shapes();
    std::int64_t bytes = 0;
    for (auto const& s : shapes) bytes += static_cast<std::int64_t>(s.size());
    for (auto _ : state) {
        for (auto const& s : shapes) {
            auto parsed = hlomem::parse_shape<Policy>(s);
            benchmark::DoNotOptimize(parsed);
        }
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(shapes.size()));
    state.SetBytesProcessed(state.iterations() * bytes);
    state.counters["distinct_shapes"] = static_cast<double>(shapes.size());
}

void size_seed_shapes(benchmark::State& state) {
    std::vector<hlomem::shape> shapes;
    for (auto const& s : seed_shapes()) shapes.push_back(hlomem::parse_shape(s));
    for (auto _ : state) {
        std::int64_t total = 0;
        for (auto const& s : shapes) total += hlomem::padded_byte_size(s) + hlomem::unpadded_byte_size(s);
        benchmark::DoNotOptimize(total);
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(shapes.size()));
}

void print_seed_shapes(benchmark::State& state) {
    std::vector<hlomem::shape> shapes;
    for (auto const& s : seed_shapes()) shapes.push_back(hlomem::parse_shape(s));
    for (auto _ : state) {
        std::string out;
        for (auto const& s : shapes) hlomem::append_shape(out, s);
        benchmark::DoNotOptimize(out);
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(shapes.size()));
}

}  // namespace

BENCHMARK_TEMPLATE(parse_seed_shapes, hlomem::default_policy);
BENCHMARK_TEMPLATE(parse_seed_shapes, hlomem::view_policy);
BENCHMARK(size_seed_shapes);
BENCHMARK(print_seed_shapes);

BENCHMARK_MAIN();
