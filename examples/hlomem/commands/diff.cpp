// commands/diff.cpp: `hlomem diff [--json|--format F] [-o OUT.html] A B` — why memory changed
// between two compilations of one program: the two buffer assignments (dumps, or derived from
// scheduled modules) compared by the library (<hlomem/diff.hpp>), the verdict first; either side
// may be a snapshot (`hlomem snapshot`), compared by diff_snapshots. The gate (--fail-above,
// --fail-on-unused-donation) exits 1.
#include <cstdint>
#include <fstream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <hlomem/hlomem.hpp>

#include "../arguments.hpp"
#include "../cli.hpp"
#include "../diff_input.hpp"

namespace hlomem_cli {
namespace {

constexpr char const* diff_usage =
    "usage: hlomem diff [--json | --format text|json|markdown] [-o OUT.html] [--top N] [--rows N]\n"
    "                   [--fail-above BYTES|PERCENT%] [--measure peak|total] [--fail-on-unused-donation]\n"
    "                   [--strip-root DIR]... A B\n"
    "\n"
    "Compares two compilations of one program: A (the baseline) and B are buffer-assignment dumps,\n"
    "scheduled HLO modules (whose assignment is derived) or snapshots (hlomem snapshot), in any mix.\n"
    "Values are matched across the two although XLA renames instructions: by metadata (op_name,\n"
    "source line, op_type), then by shape and position in the schedule, then by name. It prints the\n"
    "verdict (what explains most of the change), then per color the bytes by allocation kind, the\n"
    "peak and its moment, the peak by source line, padding, the temp arena against its lower bound,\n"
    "and the largest new, removed, grown and shrunk values. A source file under different roots in\n"
    "A and B (two checkouts, two machines) is one file, shown by the path tail the two share. With a\n"
    "snapshot side it compares what a snapshot keeps and says what it cannot compare.\n"
    "\n"
    "  --json                  one JSON object instead of text (--format json)\n"
    "  --format markdown       Markdown for a pull-request comment: the gate, the verdict, the peak\n"
    "                          and total of each color, what moved by source line and by kind\n"
    "  --rows N                at most N source lines per color in the Markdown (default 10)\n"
    "  -o OUT.html             also write a self-contained page: both timelines of each color on\n"
    "                          one byte scale, and the deltas (not with a snapshot)\n"
    "  --top N                 how many values each list of largest changes holds (default 10)\n"
    "  --fail-above BYTES      exit 1 when a color's peak (or total) grew by more than BYTES\n"
    "  --fail-above P%         exit 1 when it grew by more than P percent of A's\n"
    "  --measure peak|total    what --fail-above measures per color: the peak of live bytes\n"
    "                          (default) or the total bytes allocated to the color\n"
    "  --fail-on-unused-donation  exit 1 when B has a donated parameter no output took\n"
    "  --strip-root DIR        show source files below DIR relative to it (repeatable)\n"
    "Exit status: 0 for a diff, 1 when a gate fails, 2 when an input cannot be read.\n";

}  // namespace

int run_diff(arguments const& args, std::ostream& out, std::ostream& err) {
    std::string format = "text";
    std::optional<std::string> page;
    std::optional<hlomem::diff_threshold> fail_above;
    hlomem::gate_measure measure = hlomem::gate_measure::peak;
    bool fail_on_unused = false;
    hlomem::diff_options options;
    std::size_t rows = 10;
    std::vector<std::string> files, roots;
    argument_reader a("diff", diff_usage, args, err);
    while (a.next()) {
        if (a.is("--json")) {
            format = "json";
        } else if (a.is_help()) {
            return a.help(out);
        } else if (a.is("-o") || a.is("--format") || a.is("--measure")) {
            bool const is_page = a.is("-o"), is_format = a.is("--format");
            auto v = a.value();
            if (!v) return a.needs_value();
            if (is_page) {
                page = *v;
            } else if (is_format) {
                if (*v != "text" && *v != "json" && *v != "markdown") return a.error("--format needs text, json or markdown");
                format = *v;
            } else if (auto m = hlomem::gate_measure_named(*v)) {
                measure = *m;
            } else {
                return a.error("--measure needs peak or total");
            }
        } else if (a.is("--top") || a.is("--rows")) {
            bool const is_top = a.is("--top");
            auto v = a.value();
            if (!v) return a.needs_value();
            auto n = decimal(*v);
            if (!n) return a.error(is_top ? "--top needs a number" : "--rows needs a number");
            (is_top ? options.top : rows) = static_cast<std::size_t>(*n);
        } else if (a.is("--fail-above")) {
            auto v = a.value();
            if (!v) return a.needs_value();
            if (!(fail_above = hlomem::diff_threshold_named(*v))) return a.error("--fail-above needs bytes (1048576) or a percentage (5%)");
        } else if (a.is("--fail-on-unused-donation")) {
            fail_on_unused = true;
        } else if (a.is("--strip-root")) {
            if (!a.has_value()) return a.needs_value();
            roots.push_back(*a.value());
        } else if (a.is_option()) {
            return a.unknown_option();
        } else {
            if (files.size() == 2) return a.unexpected();
            files.push_back(a.operand());
        }
    }
    if (files.size() != 2) return a.usage();
    if (files[0] == "-" && files[1] == "-") return a.error("standard input can be only one of A and B");
    hlomem::diff_side_options sides;
    sides.strip_roots = roots;
    auto const* side_a = open_side("diff", files[0], sides, err);
    if (!side_a) return exit_error;
    auto const* side_b = open_side("diff", files[1], sides, err);
    if (!side_b) return exit_error;
    if ((side_a->is_snapshot() || side_b->is_snapshot()) && page) {
        return a.error("-o draws live ranges, which a snapshot does not keep: give two dumps or modules");
    }
    auto const d = hlomem::diff_sides(*side_a, *side_b, options);
    auto const gate = hlomem::diff_gate(d, fail_above, measure, fail_on_unused);
    if (page) {
        std::ofstream file(*page, std::ios::binary);
        hlomem::write_diff_html(file, d);
        if (!file) {
            err << "hlomem diff: cannot write " << *page << '\n';
            return exit_error;
        }
    }
    if (format == "markdown") {
        hlomem::print_diff_markdown(out, d, rows, gate);
    } else if (format == "json") {
        hlomem::print_diff_json(out, d);
    } else {
        hlomem::print_diff_text(out, d);
        if (page) out << "\nwrote " << *page << '\n';
    }
    for (auto const& f : gate.failures) err << "hlomem diff: " << f << '\n';
    return gate.failures.empty() ? exit_ok : exit_findings;
}

}  // namespace hlomem_cli
