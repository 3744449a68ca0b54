// measure_parse: the parse alone of one buffer-assignment dump or HLO module (view policy), the
// fastest of several runs, for profiling the grammars and for the threaded dump parse.
//
//   measure_parse dump FILE [RUNS]      -> the one-thread parse: processor time and MB/s
//   measure_parse module FILE [RUNS]    -> the same for an HLO module
//   measure_parse first FILE THREADS    -> the first parse of this process, of a dump on THREADS
//                                          threads (1: the one-thread read), as a command reads
//                                          it: wall and processor time, page faults
//   measure_parse threads FILE [RUNS]   -> a dump on 1 thread and on 2 threads, in wall time and
//                                          processor time, and what the threaded parse spends
//                                          where: each step's wall and processor time (thread
//                                          clocks), its part on one thread, each part's time
//
// The wall-time speed-up of the threaded read is measured like for like with `first`: one fresh
// process per parse, one thread and two alternately (run_benchmarks.sh), fastest of each. Both
// parses are the process's first, with no parse before them to warm its pages and caches, and
// neither frees its model in the timed span (the command line tool keeps its model until exit).
// That is what a user's command gets. `threads` compares later parses within one process, for
// where the threaded read's time goes.
#include <hlomem/hlomem.hpp>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include <sys/resource.h>

#include "measure.hpp"

namespace {

double best_of(int runs, double (*one)(void*), void* arg) {
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < runs; ++i) best = std::min(best, one(arg));
    return best;
}

struct input {
    std::string text;
    char const* file;
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3 || argc > 4) {
        std::cerr << "usage: measure_parse dump|module|threads FILE [RUNS] | first FILE THREADS\n";
        return 2;
    }
    std::string_view const what = argv[1];
    input in{hlomem_bench::read_file(argv[2]), argv[2]};
    int const runs = argc == 4 ? std::max(1, std::atoi(argv[3])) : 5;
    double const megabytes = static_cast<double>(in.text.size()) / 1e6;
    if (what == "dump") {
        std::size_t values = 0;
        double const s = best_of(runs, [](void* p) {
            auto& i = *static_cast<input*>(p);
            return hlomem_bench::seconds([&] { (void)hlomem::parse_buffer_assignment<hlomem::view_policy>(i.text, i.file, 1); });
        }, &in);
        values = hlomem::parse_buffer_assignment<hlomem::view_policy>(in.text, in.file, 1).values.size();
        std::cout << "values=" << values << " bytes=" << in.text.size() << " parse_s=" << s << " parse_MBps=" << megabytes / s
                  << '\n';
        return 0;
    }
    if (what == "module") {
        double const s = best_of(runs, [](void* p) {
            auto& i = *static_cast<input*>(p);
            return hlomem_bench::seconds([&] { (void)hlomem::parse_hlo_module<hlomem::view_policy>(i.text, i.file); });
        }, &in);
        std::size_t const instructions = hlomem::parse_hlo_module<hlomem::view_policy>(in.text, in.file).instruction_count();
        std::cout << "instructions=" << instructions << " bytes=" << in.text.size() << " parse_s=" << s
                  << " parse_MBps=" << megabytes / s << '\n';
        return 0;
    }
    if (what == "first") {
        if (argc != 4) {
            std::cerr << "usage: measure_parse first FILE THREADS\n";
            return 2;
        }
        std::size_t const threads = static_cast<std::size_t>(runs);
        rusage before{}, after{};
        getrusage(RUSAGE_SELF, &before);
        double wall = 0;
        std::optional<hlomem::basic_buffer_assignment<hlomem::view_policy>> model;
        double const cpu = hlomem_bench::seconds([&] {
            wall = hlomem_bench::wall_seconds(
                [&] { model.emplace(hlomem::parse_buffer_assignment<hlomem::view_policy>(in.text, in.file, threads)); });
        });
        getrusage(RUSAGE_SELF, &after);
        auto const s = [](timeval t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
        std::cout << "threads=" << threads << " values=" << model->values.size() << " bytes=" << in.text.size()
                  << " wall_s=" << wall << " cpu_s=" << cpu << " user_s=" << s(after.ru_utime) - s(before.ru_utime)
                  << " sys_s=" << s(after.ru_stime) - s(before.ru_stime) << " minflt=" << after.ru_minflt - before.ru_minflt
                  << '\n';
        return 0;
    }
    if (what == "threads") {
        // The parse until it returns its model, on one thread and on two; the model is freed
        // outside the timed span (its caller's, equal for both).
        char const* const begin = in.text.data();
        char const* const end = begin + in.text.size();
        double const inf = std::numeric_limits<double>::infinity();
        double one_wall = inf, one_cpu = inf, two_wall = inf, two_cpu = inf;
        hlomem::parser::dump::read_statistics best{};
        for (int r = 0; r < runs; ++r) {
            double wall = 0;
            std::optional<hlomem::basic_buffer_assignment<hlomem::view_policy>> model;
            double const cpu = hlomem_bench::seconds([&] {
                wall = hlomem_bench::wall_seconds(
                    [&] { model.emplace(hlomem::parse_buffer_assignment<hlomem::view_policy>(in.text, in.file, 1)); });
            });
            model.reset();
            one_wall = std::min(one_wall, wall);
            one_cpu = std::min(one_cpu, cpu);
            hlomem::parser::dump::read_statistics stats{};
            double const cpu2 = hlomem_bench::seconds([&] {
                wall = hlomem_bench::wall_seconds([&] {
                    model = hlomem::parser::dump::read_in_parts<hlomem::view_policy>(in.file, begin, end, 2, &stats);
                });
            });
            if (!model) std::exit(3);
            model.reset();
            two_wall = std::min(two_wall, wall);
            if (cpu2 < two_cpu) {
                two_cpu = cpu2;
                best = stats;
            }
        }
        double parts_cpu = 0, longest = 0;
        for (double t : best.part_cpu_s) {
            parts_cpu += t;
            longest = std::max(longest, t);
        }
        // One thread's work in the threaded read: finding the parts, the shapes and the plan's
        // checks, and the live ranges that had to wait for the lookup (none in XLA's order). The
        // rest (the parts, joining the blocks, sorting and merging the lookup, attaching the live
        // ranges, freeing the parts) is shared out.
        double const serial = best.split.cpu_s + best.merge_serial_s + best.finish_serial_s;
        double const shared = best.parts.cpu_s + best.merge.cpu_s - best.merge_serial_s + best.finish.cpu_s - best.finish_serial_s;
        std::cout << "bytes=" << in.text.size() << " parts=" << best.part_cpu_s.size() << " in_id_order=" << best.in_id_order
                  << " one_thread_wall_s=" << one_wall << " one_thread_cpu_s=" << one_cpu << " two_threads_wall_s=" << two_wall
                  << " two_threads_cpu_s=" << two_cpu << " wall_speedup=" << one_wall / two_wall
                  << " split_s=" << best.split.cpu_s << " parts_cpu_s=" << parts_cpu << " parts_wall_s=" << best.parts.wall_s
                  << " longest_part_cpu_s=" << longest << " merge_cpu_s=" << best.merge.cpu_s
                  << " merge_wall_s=" << best.merge.wall_s << " merge_serial_s=" << best.merge_serial_s
                  << " finish_cpu_s=" << best.finish.cpu_s << " finish_wall_s=" << best.finish.wall_s
                  << " finish_serial_s=" << best.finish_serial_s << " serial_s=" << serial
                  << " serial_fraction=" << serial / one_cpu << " cpu_overhead=" << two_cpu / one_cpu - 1
                  // Amdahl: what two idle cores would give, from the serial steps and the shared
                  // processor time (no part shorter than the longest one).
                  << " two_core_estimate=" << one_cpu / (serial + std::max(longest, shared / 2)) << '\n';
        return 0;
    }
    std::cerr << "measure_parse: unknown kind " << what << '\n';
    return 2;
}
