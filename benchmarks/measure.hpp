// measure.hpp: what the measuring programs share: reading a file, timing a step, and the
// process's peak resident memory (to estimate a model's size as the growth of the peak while
// it is built after the text is already in memory).
#ifndef HLOMEM_BENCHMARKS_MEASURE_HPP
#define HLOMEM_BENCHMARKS_MEASURE_HPP

#include <sys/resource.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>

namespace hlomem_bench {

inline std::string read_file(char const* path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

template <class F>
double seconds(F&& f) {
    auto const start = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The high-water mark of the resident set, in bytes (Linux reports kilobytes).
inline long peak_rss_bytes() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss * 1024L;
}

}  // namespace hlomem_bench

#endif  // HLOMEM_BENCHMARKS_MEASURE_HPP
