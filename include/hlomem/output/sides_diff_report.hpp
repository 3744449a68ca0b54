// hlomem/output/sides_diff_report.hpp: what `hlomem diff A B` writes of two sides compared by
// diff_sides (diff/side.hpp), in each of its formats, whatever the sides are: the one entry
// point of each format for the tool (commands/diff.cpp) and the Python module (hlomem.diff), so
// that the two write one text, one JSON document, one Markdown summary and one page.
//
//   auto d = hlomem::diff_sides(a, b);
//   hlomem::print_diff_text(std::cout, d);        // two assignments', or two snapshots'
//   hlomem::print_diff_json(std::cout, d);        // one document (diff_report.hpp), nulls for a snapshot
//   hlomem::print_diff_markdown(std::cout, d, 10, hlomem::diff_gate(d, threshold, measure, false));
//   hlomem::write_diff_html(file, d);             // throws error when a side is a snapshot
#ifndef HLOMEM_OUTPUT_SIDES_DIFF_REPORT_HPP
#define HLOMEM_OUTPUT_SIDES_DIFF_REPORT_HPP

#include <cstddef>
#include <optional>
#include <ostream>

#include <hlomem/core/error.hpp>
#include <hlomem/diff/side.hpp>
#include <hlomem/diff/threshold.hpp>

#include <hlomem/output/diff_page.hpp>
#include <hlomem/output/diff_report.hpp>
#include <hlomem/output/snapshot_report.hpp>

namespace hlomem {

/// A side as the writers of two assignments take it; the side holds an assignment.
template <class P>
diff_report_side<P> report_side(basic_diff_side<P> const& s) {
    return {s.name, *s.assignment, s.sources};
}

/// `hlomem diff`'s text: of two assignments (print_diff_text), or of two snapshots.
template <class P>
void print_diff_text(std::ostream& out, basic_sides_diff<P> const& d) {
    if (d.snapshots) {
        print_snapshot_diff_text(out, d.a->name, d.b->name, *d.snapshots);
    } else {
        print_diff_text(out, report_side(*d.a), report_side(*d.b), d.assignments);
    }
}

/// `hlomem diff --json`: one document for every pair of sides (print_diff_json of a
/// diff_document), what a snapshot cannot know null.
template <class P>
void print_diff_json(std::ostream& out, basic_sides_diff<P> const& d) {
    std::optional<diff_report_side<P>> a, b;  // a snapshot keeps no values
    if (d.values_known()) a.emplace(report_side(*d.a)), b.emplace(report_side(*d.b));
    print_diff_json(out, diff_document<P>{d.a->name, d.b->name, d.d(), d.donations_a, d.donations_b, a ? &*a : nullptr,
                                          b ? &*b : nullptr, d.snapshots ? &d.snapshots->not_compared : nullptr});
}

/// `hlomem diff --format markdown`: the summary for a pull request, `rows` changes long, with the
/// gate's verdict and, with a snapshot side, what was not compared.
template <class P>
void print_diff_markdown(std::ostream& out, basic_sides_diff<P> const& d, std::size_t rows, gate_result const& gate) {
    print_diff_markdown(out, d.a->name, d.b->name, d.d(), rows, gate, d.not_compared());
}

/// The gate on the diff (`--fail-above`, `--measure`, `--fail-on-unused-donation`), B's
/// donations those of its side.
template <class P>
gate_result diff_gate(basic_sides_diff<P> const& d, std::optional<diff_threshold> const& fail_above, gate_measure measure,
                      bool fail_on_unused) {
    return diff_gate(d.d(), fail_above, measure, fail_on_unused, d.donations_b);
}

/// `hlomem diff -o PAGE`: the page, which draws live ranges; throws error when a side is a
/// snapshot, which keeps none.
template <class P>
void write_diff_html(std::ostream& out, basic_sides_diff<P> const& d) {
    if (!d.values_known()) throw error("a page draws live ranges, which a snapshot does not keep: diff two dumps or modules");
    write_diff_html(out, report_side(*d.a), report_side(*d.b), d.assignments);
}

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_SIDES_DIFF_REPORT_HPP
