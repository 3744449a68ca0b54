// measure_whatif: times the what-if of one scheduled HLO module (<hlomem/whatif.hpp>): the
// one-time setup, one edit (each remat and offload of every value an edit may move, split in the
// middle of its live range, applied and taken back; refusals counted apart), and `hlomem advise`
// at 90% of each color's peak, with the process's peak memory.
//
//   measure_whatif MODULE.hlo   -> one line of `key=value` figures
#include <hlomem/hlomem.hpp>
#include <hlomem/whatif.hpp>

#include "measure.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: measure_whatif MODULE.hlo\n";
        return 2;
    }
    std::string const text = hlomem_bench::read_file(argv[1]);
    hlomem::hlo_module m;
    double const parse = hlomem_bench::seconds([&] { m = hlomem::parse_hlo_module(text, argv[1]); });
    std::optional<hlomem::what_if> w;
    double const setup = hlomem_bench::seconds([&] { w.emplace(m); });
    std::size_t const rss_setup = hlomem_bench::peak_rss_bytes();
    std::vector<std::pair<hlomem::instruction_id, hlomem::logical_time>> movable;
    for (std::size_t k = 0; k < w->liveness().dataflow().values().size(); ++k) {
        if (!w->why_not_movable(k, false).empty()) continue;
        auto const& r = *w->liveness().range(k);
        movable.emplace_back(w->liveness().dataflow().values()[k].instruction, r.start + (r.end - r.start) / 2 + 1);
    }
    std::vector<hlomem::what_if_edit> accepted_edits;
    for (auto const& [i, from] : movable) {
        for (auto const& e : {hlomem::what_if_edit::remat(i, from), hlomem::what_if_edit::offload(i, from)}) {
            if (w->apply(e).accepted) {
                accepted_edits.push_back(e);
                w->undo();
            }
        }
    }
    std::size_t edits = 0;
    double const edit_time = hlomem_bench::seconds([&] {
        for (int round = 0; round < 3; ++round) {
            for (auto const& e : accepted_edits) {
                ++edits;
                w->apply(e);
                w->undo();
            }
        }
    });
    std::size_t const accepted = accepted_edits.size();
    hlomem::advise_options options;
    hlomem::advice a;
    double const advise = hlomem_bench::seconds([&] { a = hlomem::advise(*w, options); });
    std::cout << "instructions=" << m.instruction_count() << " values=" << w->liveness().dataflow().values().size() << " parse_s=" << parse
              << " setup_s=" << setup << " setup_rss_bytes=" << rss_setup << " edits=" << edits << " accepted=" << accepted
              << " movable=" << movable.size() << " per_edit_us=" << (edits ? edit_time / static_cast<double>(edits) * 1e6 : 0.0) << " advise_s=" << advise
              << " candidates=" << a.candidates.size() << " set=" << a.chosen.size() << " peak_rss_bytes=" << hlomem_bench::peak_rss_bytes() << '\n';
    return 0;
}
