// measure_attribution: times source attribution (hlo/attribution.hpp) on one dump: each value's
// metadata read from its ` from instruction:` text, the join with the dump's module by
// instruction name, each color's peak split value by value (memory/peak_holdings.hpp) and the
// three breakdowns; for the closing figures of the source-attribution work (BENCHMARKS.md).
//
//   measure_attribution DUMP.txt [MODULE.hlo]   -> one line of `key=value` figures
//   measure_attribution MODULE.hlo              -> the same for the assignment derived from it,
//                                                  joined with it by instruction name
#include <hlomem/hlomem.hpp>

#include "measure.hpp"

using hlomem_bench::seconds;

namespace {

/// Times attribution, holdings and breakdowns on `ba` (with `module` for the join) and prints them.
template <class P>
void measure(hlomem::basic_buffer_assignment<P> const& ba, hlomem::basic_hlo_module<P> const* module) {
    auto const colors = hlomem::assigned_live_bytes(ba);
    hlomem::basic_source_attribution<P> sources;
    double const attribute = seconds([&] { sources = hlomem::attribute_values(ba); });
    double join = 0;
    if (module) join = seconds([&] { sources = hlomem::attribute_values(ba, *module); });
    std::vector<hlomem::peak_holdings> holdings;
    double const hold = seconds([&] { holdings = hlomem::peak_holdings_by_color(ba, colors, sources); });
    std::size_t lines = 0, nodes = 0;
    double const breakdowns = seconds([&] {
        for (auto const& h : holdings) {
            lines += hlomem::peak_by_source_line(h, sources).size();
            nodes += hlomem::peak_by_op_name(h, sources).children.size();
            nodes += hlomem::peak_by_stack_frame(h, sources).children.size();
        }
    });
    std::size_t live = 0;
    for (auto const& h : holdings) live += h.values.size();
    // What the attribution keeps: one value_source per value (views into the texts).
    std::size_t const attribution_bytes = sources.values.capacity() * sizeof(hlomem::value_source);
    std::cout << "values=" << ba.values.size() << " with_metadata=" << sources.with_metadata() << " from_module=" << sources.from_module
              << " live_at_peaks=" << live << " source_lines=" << lines << " attribute_s=" << attribute << " join_s=" << join
              << " attribution_bytes=" << attribution_bytes << " holdings_s=" << hold << " breakdowns_s=" << breakdowns
              << " peak_rss_bytes=" << hlomem_bench::peak_rss_bytes() << '\n';
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2 && argc != 3) {
        std::cerr << "usage: measure_attribution DUMP.txt [MODULE.hlo] | MODULE.hlo\n";
        return 2;
    }
    std::string const text = hlomem_bench::read_file(argv[1]);
    if (text.rfind("HloModule", 0) == 0) {
        // A bare module: its derived assignment joined with it (what `liveness --json` does).
        auto const m = hlomem::parse_hlo_module<hlomem::view_policy>(text, argv[1]);
        auto const d = hlomem::derive_assignment(m);
        measure(d.assignment, &m);
        return 0;
    }
    auto const ba = hlomem::parse_buffer_assignment<hlomem::view_policy>(text, argv[1]);
    std::string module_text;
    std::optional<hlomem::basic_hlo_module<hlomem::view_policy>> module;
    if (argc == 3) {
        module_text = hlomem_bench::read_file(argv[2]);
        module = hlomem::parse_hlo_module<hlomem::view_policy>(module_text, argv[2]);
    }
    measure(ba, module ? &*module : nullptr);
    return 0;
}
