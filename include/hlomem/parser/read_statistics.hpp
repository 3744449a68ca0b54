// hlomem/parser/read_statistics.hpp: where the threaded read of a dump (parser/threaded_read.hpp)
// spends its time, step by step, in wall time and in the processor time of the threads that ran
// each step; benchmarks/measure_parse.cpp reports it.
#ifndef HLOMEM_PARSER_READ_STATISTICS_HPP
#define HLOMEM_PARSER_READ_STATISTICS_HPP

#include <chrono>
#include <mutex>
#include <vector>

#if defined(__linux__)
#include <time.h>
#endif

namespace hlomem::parser::dump {

/// Seconds on this thread's processor clock (the wall clock where there is none).
inline double thread_seconds() {
#if defined(__linux__)
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
#else
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
#endif
}

/// Seconds on the wall clock.
inline double wall_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Where a threaded read spends its time (benchmarks/measure_parse.cpp asks for it). Each step
/// has its wall time and the processor time of the threads that ran it (thread clocks, summed).
/// The steps: finding the parts (one thread), reading the parts (all), joining them (all, but
/// for the shapes), and the end (the lookup by name and the live ranges on all; on one, the live
/// ranges that need the lookup).
struct read_statistics {
    struct step {
        double wall_s = 0;
        double cpu_s = 0;
    };
    step split, parts, merge, finish;
    double merge_serial_s = 0;   ///< of merge: on one thread (the plan's checks, the shapes)
    double finish_serial_s = 0;  ///< of finish: on one thread (live ranges out of XLA's order, which need the lookup)
    std::vector<double> part_cpu_s;
    bool in_id_order = false;  ///< the blocks were in id order (the fast join), not merged one by one
};

/// Times one step: its wall time, and adds to its processor time as each thread reports.
class step_timer {
public:
    explicit step_timer(read_statistics::step* s) : step_(s), wall_(s ? wall_seconds() : 0) {}
    void stop() {
        if (step_) step_->wall_s = wall_seconds() - wall_;
    }
    /// Runs `f` on this thread, adding its processor time to the step's.
    template <class F>
    void count(F&& f) {
        double const start = step_ ? thread_seconds() : 0;
        f();
        if (step_) {
            double const spent = thread_seconds() - start;
            std::lock_guard<std::mutex> lock(mutex_);
            step_->cpu_s += spent;
        }
    }

private:
    read_statistics::step* step_;
    double wall_;
    std::mutex mutex_;
};

}  // namespace hlomem::parser::dump

#endif  // HLOMEM_PARSER_READ_STATISTICS_HPP
