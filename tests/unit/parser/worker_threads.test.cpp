// How many threads a read may use, and numbered tasks run on them (parser/worker_threads.hpp).
#include <hlomem/parser/worker_threads.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

using hlomem::parser::dump::for_each_on_threads;
using hlomem::parser::dump::for_each_on_workers;

TEST_CASE("parser/worker_threads: at least one thread, at most the processors there are", "[worker_threads]") {
    std::size_t const n = hlomem::parser::dump::available_threads();
    CHECK(n >= 1);
    if (std::thread::hardware_concurrency() != 0) CHECK(n <= std::thread::hardware_concurrency());
}

TEST_CASE("parser/worker_threads: every task runs once, on a worker below the thread count", "[worker_threads]") {
    for (std::size_t threads : {1, 2, 5}) {
        for (std::size_t n : {0, 1, 3, 100}) {
            CAPTURE(threads, n);
            std::vector<std::atomic<int>> runs(n);
            std::mutex m;
            std::set<std::size_t> workers;
            std::set<std::thread::id> ids;
            for_each_on_workers(n, threads, [&](std::size_t k, std::size_t w) {
                runs[k].fetch_add(1);
                std::lock_guard<std::mutex> lock(m);
                workers.insert(w);
                ids.insert(std::this_thread::get_id());
            });
            std::size_t once = 0;
            for (auto const& r : runs) once += r.load() == 1 ? 1 : 0;
            CHECK(once == n);
            // No more workers than tasks or threads.
            CHECK(workers.size() <= std::max<std::size_t>(1, std::min(threads, n)));
            for (std::size_t w : workers) CHECK(w < threads);
            CHECK(ids.size() == workers.size());  // one thread a worker
        }
    }
    std::atomic<std::size_t> sum{0};
    for_each_on_threads(1000, 4, [&](std::size_t k) { sum.fetch_add(k); });
    CHECK(sum.load() == 999 * 1000 / 2);
}
