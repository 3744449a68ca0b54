// measure.hpp: what the measuring programs share: reading a file, timing a step (in processor
// time), and the process's peak resident memory (to estimate a model's size as the growth of the
// peak while it is built after the text is already in memory).
#ifndef HLOMEM_BENCHMARKS_MEASURE_HPP
#define HLOMEM_BENCHMARKS_MEASURE_HPP

#include <sys/resource.h>
#include <time.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

namespace hlomem_bench {

/// The whole file, read into a string of exactly its size: a string grown while reading would
/// raise the peak resident memory to about twice the file before the model is built, and hide the
/// model's own memory in that peak.
inline std::string read_file(char const* path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) {
        std::cerr << "cannot read " << path << '\n';
        std::exit(2);
    }
    std::string text(static_cast<std::size_t>(in.tellg()), '\0');
    in.seekg(0);
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    return text;
}

/// The processor time `f` takes, user and system (page faults of a growing model included), in
/// seconds. Not the wall clock: on a machine shared with other work, the wall clock also counts
/// the time other processes held the core, which says nothing about hlomem.
template <class F>
double seconds(F&& f) {
    auto const now = [] {
        timespec t{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
    };
    double const start = now();
    f();
    return now() - start;
}

/// The wall-clock time `f` takes, in seconds: for work spread over several threads.
template <class F>
double wall_seconds(F&& f) {
    timespec start{}, stop{};
    clock_gettime(CLOCK_MONOTONIC, &start);
    f();
    clock_gettime(CLOCK_MONOTONIC, &stop);
    return static_cast<double>(stop.tv_sec - start.tv_sec) + static_cast<double>(stop.tv_nsec - start.tv_nsec) * 1e-9;
}

/// The high-water mark of the resident set, in bytes (Linux reports kilobytes).
inline long peak_rss_bytes() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss * 1024L;
}

}  // namespace hlomem_bench

#endif  // HLOMEM_BENCHMARKS_MEASURE_HPP
