// measure_assign: times XLA's buffer assignment predicted from one HLO module (what `hlomem
// assign` runs), step by step, with the process's peak memory.
//
//   measure_assign MODULE.hlo   -> one line of `key=value` figures
//
// Steps: parse (default policy: the assignment owns the texts it prints), the assignment
// problem (dataflow, aliasing, live ranges, XLA's order, allocations and reuse, the heap
// problems), the heaps placed by XLA's best-fit, and the final assignment with
// CombineTempAllocations.
#include <hlomem/hlomem.hpp>

#include "measure.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: measure_assign MODULE.hlo\n";
        return 2;
    }
    std::string const text = hlomem_bench::read_file(argv[1]);
    hlomem::hlo_module m;
    double const parse = hlomem_bench::seconds([&] { m = hlomem::parse_hlo_module(text, argv[1]); });
    hlomem::assign_options options;
    options.module_text = text;
    hlomem::assignment_problem p;
    double const problem = hlomem_bench::seconds([&] { p = hlomem::make_assignment_problem(m, options); });
    std::size_t heap_buffers = 0;
    for (auto const& h : p.heaps) heap_buffers += h.problem.buffers.size();
    double const heaps = hlomem_bench::seconds([&] { hlomem::place_heaps(p); });
    hlomem::buffer_assignment ba;
    double const finish = hlomem_bench::seconds([&] { ba = hlomem::finish_assignment(p); });
    std::cout << "instructions=" << m.instruction_count() << " values=" << ba.values.size()
              << " allocations=" << ba.allocations.size() << " heap_buffers=" << heap_buffers << " bytes=" << text.size()
              << " parse_s=" << parse << " problem_s=" << problem << " heaps_s=" << heaps << " finish_s=" << finish
              << " assign_s=" << (problem + heaps + finish) << " peak_rss_bytes=" << hlomem_bench::peak_rss_bytes()
              << " total_bytes=" << ba.total_bytes() << '\n';
    return 0;
}
