// hlomem/detail/two_tasks.hpp: two independent pieces of work run at once, one on a thread of
// its own, for the analyses a report gathers after reading a large dump (output/
// assignment_report.hpp, facts_with): on two processors the second costs no wall time.
#ifndef HLOMEM_DETAIL_TWO_TASKS_HPP
#define HLOMEM_DETAIL_TWO_TASKS_HPP

#include <exception>
#include <system_error>
#include <thread>

namespace hlomem::detail {

/// Runs `other` on a thread of its own and `here` on this one when `parallel`, else (or when no
/// thread can be started) `here` then `other`; returns once both have finished. An exception
/// of either is rethrown here, `here`'s first, after both have stopped: the two never share
/// what they write.
template <class Here, class Other>
void run_both(bool parallel, Here&& here, Other&& other) {
    std::thread thread;
    std::exception_ptr failed;
    if (parallel) {
        try {
            thread = std::thread([&other, &failed] {
                try {
                    other();
                } catch (...) {
                    failed = std::current_exception();
                }
            });
        } catch (std::system_error const&) {
            // No thread to be had: both run here.
        }
    }
    if (!thread.joinable()) {
        here();
        other();
        return;
    }
    try {
        here();
    } catch (...) {
        thread.join();
        throw;
    }
    thread.join();
    if (failed) std::rethrow_exception(failed);
}

}  // namespace hlomem::detail

#endif  // HLOMEM_DETAIL_TWO_TASKS_HPP
