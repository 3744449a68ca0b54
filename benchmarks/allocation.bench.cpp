// allocation.bench: hlomem's allocation algorithms on MiniMalloc problems — by default the eleven
// "challenging" instances in tests/data/minimalloc — with each algorithm's arena, its run time,
// and whether its placement is valid, and the exact search at the instances' capacity.
//
//   hlomem_bench_allocation [--time-limit SECONDS] [--capacity BYTES] [FILE.csv...]
//   hlomem_bench_allocation --minimize [--sweep STEPS] [--time-limit SECONDS] [FILE.csv...]
//
// The capacity defaults to the number in the file name (A.1048576.csv: 1048576). Times are wall
// clock; the exact search's note adds its processor time (the machine may be shared) and its node
// count, which is the same on every machine; a last line sums them over the instances.
//
// --minimize: the smallest arena of each instance (exact_minimize within the time limit), the
// lower bound it proved and what that rests on, and the time to it. --sweep STEPS then asks the
// exact search, within the time limit each, whether the instance fits at STEPS + 1 capacities
// from that smallest arena (or the lower bound, when the arena found is above the capacity) up to
// the capacity in the name, evenly spaced on multiples of the instance's granularity: how the
// time to a placement falls as the capacity loosens.
#include <hlomem/hlomem.hpp>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace {

template <class F>
double milliseconds(F&& f) {
    auto const start = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

/// `dir/A.1048576.csv` -> 1048576.
std::optional<std::int64_t> capacity_in_name(std::string const& path) {
    auto const slash = path.find_last_of('/');
    std::string const name = path.substr(slash == std::string::npos ? 0 : slash + 1);
    auto const first = name.find('.'), second = name.find('.', first + 1);
    if (first == std::string::npos || second == std::string::npos) return std::nullopt;
    std::string const digits = name.substr(first + 1, second - first - 1);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 18) return std::nullopt;
    return std::stoll(digits);
}

double processor_ms(std::clock_t since) { return 1000.0 * static_cast<double>(std::clock() - since) / CLOCKS_PER_SEC; }

/// --minimize (and --sweep): one line per instance, then one per capacity of the sweep.
void minimize(std::string const& name, hlomem::allocation_problem const& problem, std::optional<std::int64_t> capacity,
              std::chrono::milliseconds limit, int steps) {
    auto placed = problem;
    hlomem::search_budget budget;
    budget.time_limit = limit;
    hlomem::exact_result r;
    std::clock_t const cpu_start = std::clock();
    double const ms = milliseconds([&] { r = hlomem::exact_minimize(placed, budget); });
    double const cpu_ms = processor_ms(cpu_start);
    bool const valid = hlomem::check_placement(placed, r.bytes).empty();
    std::string proof = hlomem::to_string(r.proof);
    if (r.proof == hlomem::bound_proof::search) proof += " at " + std::to_string(r.refuted);
    std::printf("%-8s %5zu %9lld %9lld %9lld %7.3f%% %-9s %10.1f %10.1f %10llu  %s%s\n", name.c_str(), problem.buffers.size(),
                static_cast<long long>(hlomem::lower_bound_bytes(problem)), static_cast<long long>(r.lower_bound),
                static_cast<long long>(r.bytes),
                100.0 * static_cast<double>(r.bytes - r.lower_bound) / static_cast<double>(r.lower_bound),
                r.optimal ? "optimal" : "gap", ms, cpu_ms, static_cast<unsigned long long>(r.nodes), proof.c_str(),
                valid ? "" : ", INVALID");
    std::fflush(stdout);
    // From the smallest arena found, or from the lower bound when that is above the capacity.
    std::int64_t const from = r.bytes <= (capacity ? *capacity : 0) ? r.bytes : r.lower_bound;
    if (steps <= 0 || !capacity || *capacity <= from) return;
    std::int64_t const g = r.granularity;
    for (int k = 0; k <= steps; ++k) {
        std::int64_t const c = (from + (*capacity - from) * k / steps) / g * g;
        auto at = problem;
        hlomem::feasibility_result f;
        std::clock_t const start = std::clock();
        double const sweep_ms = milliseconds([&] { f = hlomem::place_within(at, c, budget); });
        std::printf("  sweep %-8s %9lld  %-16s %10.1f %10.1f %10llu\n", name.c_str(), static_cast<long long>(c),
                    hlomem::to_string(f.status), sweep_ms, processor_ms(start), static_cast<unsigned long long>(f.nodes));
        std::fflush(stdout);
    }
}

}  // namespace

int main(int argc, char** argv) {
    double time_limit = 120;
    std::optional<std::int64_t> capacity;
    bool minimizing = false;
    int steps = 0;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        std::string const a = argv[i];
        if (a == "--time-limit" && i + 1 < argc) {
            time_limit = std::stod(argv[++i]);
        } else if (a == "--capacity" && i + 1 < argc) {
            capacity = std::stoll(argv[++i]);
        } else if (a == "--minimize") {
            minimizing = true;
        } else if (a == "--sweep" && i + 1 < argc) {
            steps = std::stoi(argv[++i]);
        } else if (!a.empty() && a[0] == '-') {
            std::cerr << "usage: hlomem_bench_allocation [--time-limit SECONDS] [--capacity BYTES] [FILE.csv...]\n"
                         "       hlomem_bench_allocation --minimize [--sweep STEPS] [--time-limit SECONDS] [FILE.csv...]\n";
            return 2;
        } else {
            files.push_back(a);
        }
    }
    if (files.empty()) {
        for (char c = 'A'; c <= 'K'; ++c) files.push_back(std::string(HLOMEM_TEST_DATA_DIR) + "/minimalloc/" + c + ".1048576.csv");
    }
    auto const limit = std::chrono::milliseconds(static_cast<std::int64_t>(time_limit * 1000));
    bool all_valid = true;
    std::size_t exact_runs = 0, exact_placed = 0;
    double exact_ms = 0, exact_cpu_ms = 0;
    std::uint64_t exact_nodes = 0;
    if (minimizing) {
        std::printf("%-8s %5s %9s %9s %9s %8s %-9s %10s %10s %10s  %s\n", "instance", "n", "live", "proven", "bytes", "gap",
                    "status", "ms", "cpu ms", "nodes", "bound rests on");
    } else {
        std::printf("%-10s %5s %9s  %-18s %9s %9s %6s  %s\n", "instance", "n", "bound", "algorithm", "bytes", "ms", "valid",
                    "exact at the capacity");
    }
    for (auto const& path : files) {
        std::ifstream in(path, std::ios::binary);
        std::string const text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        auto const parsed = hlomem::try_parse_minimalloc_csv(text, path);
        if (!parsed) {
            std::cerr << parsed.error() << '\n';
            return 2;
        }
        auto const& problem = *parsed;
        auto const slash = path.find_last_of('/');
        std::string name = path.substr(slash == std::string::npos ? 0 : slash + 1);
        name = name.substr(0, name.find('.'));
        std::int64_t const bound = hlomem::lower_bound_bytes(problem);
        auto const cap = capacity ? capacity : capacity_in_name(path);
        if (minimizing) {
            minimize(name, problem, cap, limit, steps);
            continue;
        }
        bool first = true;
        for (auto algorithm : hlomem::all_allocation_algorithms) {
            auto placed = problem;
            hlomem::plan_options options;
            options.improve.time_limit = limit;
            options.exact.time_limit = limit;
            std::string exact_note;
            hlomem::plan_result r;
            double ms = 0;
            if (algorithm == hlomem::allocation_algorithm::exact && cap) {
                // The question the instances were made for: does the capacity fit?
                hlomem::search_budget budget;
                budget.time_limit = limit;
                hlomem::feasibility_result f;
                std::clock_t const cpu_start = std::clock();
                ms = milliseconds([&] { f = hlomem::place_within(placed, *cap, budget); });
                double const cpu_ms = processor_ms(cpu_start);
                r.bytes = f.bytes;
                char cpu[48];
                std::snprintf(cpu, sizeof cpu, ", %.1f ms processor time", cpu_ms);
                exact_note = std::string(hlomem::to_string(f.status)) + " at " + std::to_string(*cap) + ", " +
                             std::to_string(f.nodes) + " nodes" + cpu;
                ++exact_runs;
                exact_placed += f.status == hlomem::search_status::feasible;
                exact_ms += ms;
                exact_cpu_ms += cpu_ms;
                exact_nodes += f.nodes;
                if (f.status != hlomem::search_status::feasible) {
                    std::printf("%-10s %5zu %9lld  %-18s %9s %9.1f %6s  %s\n", first ? name.c_str() : "", problem.buffers.size(),
                                static_cast<long long>(bound), "exact", "-", ms, "-", exact_note.c_str());
                    continue;
                }
            } else {
                ms = milliseconds([&] { r = hlomem::plan(placed, algorithm, options); });
            }
            bool const valid = hlomem::check_placement(placed).empty();
            all_valid = all_valid && valid;
            std::printf("%-10s %5zu %9lld  %-18s %9lld %9.1f %6s  %s\n", first ? name.c_str() : "", problem.buffers.size(),
                        static_cast<long long>(bound), std::string(hlomem::to_string(algorithm)).c_str(),
                        static_cast<long long>(r.bytes), ms, valid ? "yes" : "NO", exact_note.c_str());
            first = false;
        }
        std::fflush(stdout);
    }
    if (exact_runs > 0) {
        std::printf("exact at the capacity: %zu of %zu placed, %.1f ms wall, %.1f ms processor time, %llu nodes in all\n",
                    exact_placed, exact_runs, exact_ms, exact_cpu_ms, static_cast<unsigned long long>(exact_nodes));
    }
    return all_valid ? 0 : 1;
}
