// commands/diff.cpp: `hlomem diff [--json] [-o OUT.html] A B` — why memory changed between two
// compilations of one program: the two buffer assignments (dumps, or derived from scheduled
// modules) compared by the library (<hlomem/diff.hpp>), the verdict first.
#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/hlomem.hpp>

#include "../arguments.hpp"
#include "../cli.hpp"
#include "../input.hpp"

namespace hlomem_cli {
namespace {

constexpr char const* diff_usage =
    "usage: hlomem diff [--json] [-o OUT.html] [--top N] [--fail-above BYTES|PERCENT%] [--strip-root DIR]... A B\n"
    "\n"
    "Compares two compilations of one program: A (the baseline) and B are buffer-assignment dumps\n"
    "or scheduled HLO modules (whose assignment is derived), in any mix. Values are matched across\n"
    "the two although XLA renames instructions: by metadata (op_name, source line, op_type), then\n"
    "by shape and position in the schedule, then by name. It prints the verdict (what explains\n"
    "most of the change), then per color the bytes by allocation kind, the peak and its moment,\n"
    "the peak by source line, padding, the temp arena against its lower bound, and the largest\n"
    "new, removed, grown and shrunk values. A source file under different roots in A and B (two\n"
    "checkouts, two machines) is one file, shown by the path tail the two share.\n"
    "\n"
    "  --json                  one JSON object instead of text\n"
    "  -o OUT.html             also write a self-contained page: both timelines of each color on\n"
    "                          one byte scale, and the deltas\n"
    "  --top N                 how many values each list of largest changes holds (default 10)\n"
    "  --fail-above BYTES      exit 1 when the peak of a color grew by more than BYTES\n"
    "  --fail-above P%         exit 1 when the peak of a color grew by more than P percent of A's\n"
    "  --strip-root DIR        show source files below DIR relative to it (repeatable)\n"
    "Exit status: 0 for a diff, 1 when --fail-above is exceeded, 2 when an input cannot be read.\n";

/// One side: the loaded file, its assignment and each value's metadata (its dump's own, joined
/// with the module read beside it or the module it was derived from). As `report` does, the
/// models view the file's text (mapped, and kept alive by the loaded input), so that no name or
/// instruction text of either side is copied: on two dumps of 10^6 values each, most of the
/// command's time and memory went to those copies. The attribution views the loaded models,
/// which stay in one place, kept until the process exits (keep_until_exit).
struct diff_input {
    using policy = hlomem::view_policy;
    std::string path;
    hlomem::mapped_loaded<policy> const* loaded = nullptr;
    hlomem::basic_source_attribution<policy> sources;
    hlomem::basic_buffer_assignment<policy> const& assignment() const { return *loaded->assignment(); }
    /// Named by its file as given (a derived assignment would be named after its module).
    hlomem::diff_report_side<policy> side() const { return {path, assignment(), sources}; }
};

std::optional<diff_input> load_side(std::string const& path, std::vector<std::string> const& roots, std::ostream& err) {
    auto in = open_input(path, err);
    if (!in) return std::nullopt;
    if (in->kind != hlomem::dump_kind::buffer_assignment && in->kind != hlomem::dump_kind::hlo_module) {
        err << "hlomem diff: " << path
            << ": not a buffer-assignment dump or an HLO module (the first line should be 'BufferAssignment:' or "
               "'HloModule name, ...')\n";
        return std::nullopt;
    }
    hlomem::load_options options;
    options.find_live_range = true;
    options.find_module = true;
    options.derive_assignment = true;
    auto loaded = load<diff_input::policy>(*in, options, err);
    if (!loaded) return std::nullopt;
    diff_input out{path, loaded, {}};
    out.sources = hlomem::attribute_values(*out.loaded);
    hlomem::strip_source_roots(out.sources, roots);
    return out;
}

}  // namespace

int run_diff(arguments const& args, std::ostream& out, std::ostream& err) {
    bool as_json = false;
    std::optional<std::string> page;
    std::optional<hlomem::diff_threshold> fail_above;
    hlomem::diff_options options;
    std::vector<std::string> files, roots;
    argument_reader a("diff", diff_usage, args, err);
    while (a.next()) {
        if (a.is("--json")) {
            as_json = true;
        } else if (a.is_help()) {
            return a.help(out);
        } else if (a.is("-o")) {
            if (!(page = a.value())) return a.needs_value();
        } else if (a.is("--top")) {
            auto v = a.value();
            if (!v) return a.needs_value();
            auto n = decimal(*v);
            if (!n) return a.error("--top needs a number");
            options.top = static_cast<std::size_t>(*n);
        } else if (a.is("--fail-above")) {
            auto v = a.value();
            if (!v) return a.needs_value();
            if (!(fail_above = hlomem::diff_threshold_named(*v))) return a.error("--fail-above needs bytes (1048576) or a percentage (5%)");
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
    auto side_a = load_side(files[0], roots, err);
    if (!side_a) return exit_error;
    auto side_b = load_side(files[1], roots, err);
    if (!side_b) return exit_error;
    auto const d = hlomem::diff_assignments(side_a->assignment(), side_a->sources, side_b->assignment(), side_b->sources, options);
    if (page) {
        std::ofstream file(*page, std::ios::binary);
        hlomem::write_diff_html(file, side_a->side(), side_b->side(), d);
        if (!file) {
            err << "hlomem diff: cannot write " << *page << '\n';
            return exit_error;
        }
    }
    if (as_json) {
        hlomem::print_diff_json(out, side_a->side(), side_b->side(), d);
    } else {
        hlomem::print_diff_text(out, side_a->side(), side_b->side(), d);
        if (page) out << "\nwrote " << *page << '\n';
    }
    if (auto const* c = fail_above ? hlomem::first_exceeding(d, *fail_above) : nullptr) {
        err << "hlomem diff: the peak of color " << c->color << " grew by " << c->peak_live_bytes.delta() << " bytes ("
            << hlomem::signed_percent(c->peak_live_bytes.delta(), c->peak_live_bytes.a) << "), more than --fail-above allows\n";
        return exit_findings;
    }
    return exit_ok;
}

}  // namespace hlomem_cli
