// Two pieces of work at once (detail/two_tasks.hpp): both run, on two threads when asked and on
// this one when not; an exception of either reaches the caller, after both have stopped.
#include <hlomem/detail/two_tasks.hpp>

#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>

TEST_CASE("run_both: both run, the second on a thread of its own when parallel", "[detail][threads]") {
    for (bool parallel : {false, true}) {
        INFO("parallel " << parallel);
        std::thread::id here_on, other_on;
        int here_runs = 0, other_runs = 0;
        hlomem::detail::run_both(
            parallel,
            [&] {
                here_on = std::this_thread::get_id();
                ++here_runs;
            },
            [&] {
                other_on = std::this_thread::get_id();
                ++other_runs;
            });
        CHECK(here_runs == 1);
        CHECK(other_runs == 1);
        CHECK(here_on == std::this_thread::get_id());
        // Serially both run here; in parallel the second runs elsewhere (a machine that cannot
        // start a thread runs it here too, which this test's machines can).
        CHECK((other_on == here_on) == !parallel);
    }
}

TEST_CASE("run_both: an exception of either reaches the caller once both have finished", "[detail][threads]") {
    for (bool parallel : {false, true}) {
        INFO("parallel " << parallel);
        std::atomic<int> finished{0};
        auto fail = [](char const* what) { throw std::runtime_error(what); };
        CHECK_THROWS_WITH(hlomem::detail::run_both(parallel, [&] { fail("here"); }, [&] { ++finished; }), "here");
        CHECK_THROWS_WITH(hlomem::detail::run_both(parallel, [&] { ++finished; }, [&] { fail("other"); }), "other");
        // Both fail: this thread's exception is the one seen.
        CHECK_THROWS_WITH(hlomem::detail::run_both(parallel, [&] { fail("here"); }, [&] { fail("other"); }), "here");
        // The first call's second piece ran (in parallel it ran before the exception came out;
        // serially it never started, since the first threw), and the second call's first did.
        CHECK(finished == (parallel ? 2 : 1));
    }
}
