// measure_diff: times the diff of two buffer-assignment dumps (hlomem diff's library part), for
// the figure the diff promises: two dumps of 10^6 values each diffed in under 3 s.
//
//   measure_diff A.txt B.txt      -> one line of `key=value` figures
//
// run_benchmarks.sh generates A and B from the two sides of a bundled pair of compilations
// (tests/data/corpus/compilations/sternheimer_core_a and _b, the same program at two problem
// sizes) with generate_dump, so that every value has a counterpart that changed size. Parsing is
// timed apart from the diff: the diff is what `hlomem diff` adds to reading the two files.
// attribute_both_s: each value's metadata read from its dump text (both sides); match_s: the
// matching alone (a run of its own); diff_s: diff_assignments, its own matching included;
// attribute_and_diff_s: the two together, all that the command computes after parsing.
#include <hlomem/hlomem.hpp>

#include "measure.hpp"

using hlomem_bench::seconds;

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: measure_diff A.txt B.txt\n";
        return 2;
    }
    std::string const text_a = hlomem_bench::read_file(argv[1]);
    std::string const text_b = hlomem_bench::read_file(argv[2]);
    hlomem::basic_buffer_assignment<hlomem::view_policy> a, b;
    double const parse = seconds([&] {
        a = hlomem::parse_buffer_assignment<hlomem::view_policy>(text_a, argv[1]);
        b = hlomem::parse_buffer_assignment<hlomem::view_policy>(text_b, argv[2]);
    });
    long const rss_before = hlomem_bench::peak_rss_bytes();
    hlomem::basic_source_attribution<hlomem::view_policy> sa, sb;
    double const attribute = seconds([&] {
        sa = hlomem::attribute_values(a);
        sb = hlomem::attribute_values(b);
    });
    hlomem::value_matching m;
    double const match = seconds([&] { m = hlomem::match_values(a, sa, b, sb); });
    hlomem::assignment_diff d;
    double const diff = seconds([&] { d = hlomem::diff_assignments(a, sa, b, sb); });
    long const diff_bytes = hlomem_bench::peak_rss_bytes() - rss_before;
    std::cout << "values_a=" << a.values.size() << " values_b=" << b.values.size() << " parse_both_s=" << parse
              << " attribute_both_s=" << attribute << " match_s=" << match << " diff_s=" << diff
              << " attribute_and_diff_s=" << attribute + diff << " diff_rss_growth_bytes=" << diff_bytes
              << " matched=" << d.matching.pairs.size() << " by_metadata=" << d.matching.count(hlomem::match_rule::metadata)
              << " by_shape_and_position=" << d.matching.count(hlomem::match_rule::shape_and_position)
              << " by_name=" << d.matching.count(hlomem::match_rule::name) << " only_in_a=" << d.matching.only_in_a.size()
              << " only_in_b=" << d.matching.only_in_b.size() << " changes=" << d.changes.size()
              << " peak_delta=" << (d.colors.empty() ? 0 : d.colors[0].peak_live_bytes.delta()) << '\n';
    return 0;
}
