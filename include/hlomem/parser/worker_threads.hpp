// hlomem/parser/worker_threads.hpp: how many threads a read may use, and running numbered tasks
// on them (the threaded read of a dump, parser/threaded_read.hpp).
#ifndef HLOMEM_PARSER_WORKER_THREADS_HPP
#define HLOMEM_PARSER_WORKER_THREADS_HPP

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <system_error>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#endif

namespace hlomem::parser::dump {

/// How many threads reading a dump may use: the processors this process may run on.
inline std::size_t available_threads() {
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<std::size_t>(std::max(1, CPU_COUNT(&set)));
#endif
    return std::max(1u, std::thread::hardware_concurrency());
}

/// Runs `work(k, worker)` for k in [0, n) on `threads` threads (this one among them, worker 0;
/// the others 1, 2, ..., below `threads`).
template <class Work>
void for_each_on_workers(std::size_t n, std::size_t threads, Work const& work) {
    std::atomic<std::size_t> next{0};
    auto worker = [&](std::size_t w) {
        for (std::size_t k; (k = next.fetch_add(1)) < n;) work(k, w);
    };
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < std::min(threads, n); ++t) {
        try {
            pool.emplace_back(worker, t);
        } catch (std::system_error const&) {
            break;  // no more threads to be had: those running (and this one) do the rest
        }
    }
    worker(0);
    for (auto& t : pool) t.join();
}

/// Runs `work(k)` for k in [0, n) on `threads` threads (this one among them).
template <class Work>
void for_each_on_threads(std::size_t n, std::size_t threads, Work const& work) {
    for_each_on_workers(n, threads, [&](std::size_t k, std::size_t) { work(k); });
}

}  // namespace hlomem::parser::dump

#endif  // HLOMEM_PARSER_WORKER_THREADS_HPP
