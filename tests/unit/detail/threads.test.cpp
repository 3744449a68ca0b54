// detail/threads.hpp: the processors a process may use, and side_task, work run beside the
// calling thread (a report of every value traces their origins beside the peaks' analyses).
#include <hlomem/detail/threads.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

TEST_CASE("available_threads counts at least one processor", "[threads]") {
    CHECK(hlomem::detail::available_threads() >= 1);
}

TEST_CASE("side_task gives its work's result, once, whether or not a thread ran it", "[threads]") {
    hlomem::detail::side_task<std::string> task([] { return std::string(1000, 'x'); });
    std::string const got = task.get();
    CHECK(got.size() == 1000);
    CHECK(got.front() == 'x');
}

TEST_CASE("side_task hands what its work threw to the caller of get()", "[threads]") {
    hlomem::detail::side_task<int> task([]() -> int { throw std::runtime_error("the walk failed"); });
    CHECK_THROWS_WITH(task.get(), "the walk failed");
}

TEST_CASE("side_task waits for its work when nobody takes the result", "[threads]") {
    std::atomic<int> ran{0};
    {
        hlomem::detail::side_task<int> task([&ran] {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            return ++ran;
        });
        // Destroyed here: with a thread, it joins it; without one, the work never ran.
    }
    CHECK(ran.load() == (hlomem::detail::available_threads() > 1 ? 1 : 0));
}
