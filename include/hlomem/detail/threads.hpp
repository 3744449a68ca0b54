// hlomem/detail/threads.hpp: how many processors this process may use, and a task run beside the
// calling thread.
//
// A large dump is read on every processor at hand (parser/threaded_read.hpp); after the read, a
// report of every value traces each value's origin, work that needs none of the analyses of the
// peaks that run before it. side_task starts such work on a second thread and hands back its
// result where it is needed, so that two processors share what one did in turn.
#ifndef HLOMEM_DETAIL_THREADS_HPP
#define HLOMEM_DETAIL_THREADS_HPP

#include <algorithm>
#include <cstddef>
#include <exception>
#include <functional>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

#if defined(__linux__)
#include <sched.h>
#endif

namespace hlomem::detail {

/// The processors this process may run on (its affinity mask where the system has one).
inline std::size_t available_threads() {
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<std::size_t>(std::max(1, CPU_COUNT(&set)));
#endif
    return std::max(1u, std::thread::hardware_concurrency());
}

/// `work()`, run on a thread of its own when the process may use more than one processor and a
/// thread can be had, else when get() is called. get() waits for it and gives its result (or
/// throws what it threw); the destructor waits for a task whose result nobody took, so that
/// nothing it reads goes away under it.
template <class T>
class side_task {
public:
    template <class Work>
    explicit side_task(Work work) : work_(std::move(work)) {
        if (available_threads() < 2) return;
        try {
            thread_ = std::thread([this] { run(); });
        } catch (std::system_error const&) {
            // No thread to be had: get() runs the work.
        }
    }
    side_task(side_task const&) = delete;
    side_task& operator=(side_task const&) = delete;
    ~side_task() {
        if (thread_.joinable()) thread_.join();
    }

    T get() {
        if (thread_.joinable()) {
            thread_.join();
        } else if (!result_ && !failure_) {
            run();
        }
        if (failure_) std::rethrow_exception(failure_);
        return std::move(*result_);
    }

private:
    void run() {
        try {
            result_.emplace(work_());
        } catch (...) {
            failure_ = std::current_exception();
        }
    }

    std::function<T()> work_;
    std::optional<T> result_;
    std::exception_ptr failure_;
    std::thread thread_;
};

}  // namespace hlomem::detail

#endif  // HLOMEM_DETAIL_THREADS_HPP
