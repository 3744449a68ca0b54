// measure_parse: the parse alone of one buffer-assignment dump or HLO module (view policy), the
// fastest of several runs, for profiling the grammars and for the threaded dump parse.
//
//   measure_parse dump FILE [RUNS]      -> the one-thread parse: processor time and MB/s
//   measure_parse module FILE [RUNS]    -> the same for an HLO module
//   measure_parse threads FILE [RUNS]   -> a dump on 1 thread and on 2 threads, in wall time, and
//                                          what the threaded parse spends where: the split and the
//                                          merge (serial), each part's processor time (thread
//                                          clock), and the processor time of the whole process
#include <hlomem/hlomem.hpp>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>

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
        std::cerr << "usage: measure_parse dump|module|threads FILE [RUNS]\n";
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
    if (what == "threads") {
        char const* const begin = in.text.data();
        char const* const end = begin + in.text.size();
        double one_wall = std::numeric_limits<double>::infinity(), one_cpu = one_wall;
        double two_wall = one_wall, two_cpu = one_wall;
        hlomem::parser::dump::read_statistics best{};
        best.split_s = std::numeric_limits<double>::infinity();
        for (int r = 0; r < runs; ++r) {
            double wall = 0;
            double const cpu = hlomem_bench::seconds([&] {
                wall = hlomem_bench::wall_seconds(
                    [&] { (void)hlomem::parse_buffer_assignment<hlomem::view_policy>(in.text, in.file, 1); });
            });
            one_wall = std::min(one_wall, wall);
            one_cpu = std::min(one_cpu, cpu);
            hlomem::parser::dump::read_statistics stats{};
            double const cpu2 = hlomem_bench::seconds([&] {
                wall = hlomem_bench::wall_seconds([&] {
                    if (!hlomem::parser::dump::read_in_parts<hlomem::view_policy>(in.file, begin, end, 2, &stats)) std::exit(3);
                });
            });
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
        double const serial = best.split_s + best.merge_s + best.finish_s;
        std::cout << "bytes=" << in.text.size() << " parts=" << best.part_cpu_s.size() << " one_thread_wall_s=" << one_wall
                  << " one_thread_cpu_s=" << one_cpu << " two_threads_wall_s=" << two_wall << " two_threads_cpu_s=" << two_cpu
                  << " wall_speedup=" << one_wall / two_wall << " split_s=" << best.split_s
                  << " parts_cpu_s=" << parts_cpu << " longest_part_cpu_s=" << longest << " merge_s=" << best.merge_s
                  << " finish_s=" << best.finish_s << " serial_fraction=" << serial / one_cpu
                  << " cpu_overhead=" << two_cpu / one_cpu - 1
                  // Amdahl: what two idle cores would give, from the serial fraction and the
                  // parts' processor time (the parts are shared out among the threads).
                  << " two_core_estimate=" << one_cpu / (serial + std::max(longest, parts_cpu / 2)) << '\n';
        return 0;
    }
    std::cerr << "measure_parse: unknown kind " << what << '\n';
    return 2;
}
