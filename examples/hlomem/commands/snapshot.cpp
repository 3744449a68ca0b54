// commands/snapshot.cpp: `hlomem snapshot FILE -o NAME.hlomem.json` — a compilation's memory in a
// small, deterministic JSON to keep in git (<hlomem/diff/snapshot.hpp>), which `hlomem diff` and
// Python's hlomem.diff / hlomem.assert_memory compare with a later compilation.
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

constexpr char const* snapshot_usage =
    "usage: hlomem snapshot [-o OUT.hlomem.json] [--top N] [--module MODULE] [--strip-root DIR]... FILE\n"
    "\n"
    "Writes a snapshot of FILE (a buffer-assignment dump or a scheduled HLO module): a small,\n"
    "stable JSON to review and keep in git. Per color it holds the peak of live bytes and its\n"
    "moment, the bytes by allocation kind, padding, the temp arena and its lower bound, the peak by\n"
    "source line (paths relative: below --strip-root, else below the folder the compilation's\n"
    "files share) and the values that hold the most of the peak with their metadata; XLA's peak;\n"
    "and the donations: parameters aliased with an output, donated parameters no output took\n"
    "(known with the module), parameters of an output's shape. The same compilation gives the\n"
    "same bytes on every run and machine. `hlomem diff SNAPSHOT B` compares it with B.\n"
    "\n"
    "  -o OUT.hlomem.json      where to write it (default: standard output)\n"
    "  --top N                 how many values at each peak it keeps (default 10)\n"
    "  --module MODULE         the module a dump was assigned from (its after-optimizations text),\n"
    "                          for its values' metadata and its donations (default: X.txt beside\n"
    "                          X-buffer-assignment.txt)\n"
    "  --strip-root DIR        keep source files below DIR relative to it (repeatable)\n"
    "Exit status: 0 when written, 2 when the input cannot be read or the file cannot be written.\n";

}  // namespace

int run_snapshot(arguments const& args, std::ostream& out, std::ostream& err) {
    std::string output = "-";
    std::optional<std::string> module;
    std::size_t top = 10;
    std::vector<std::string> files, roots;
    argument_reader a("snapshot", snapshot_usage, args, err);
    while (a.next()) {
        if (a.is_help()) {
            return a.help(out);
        } else if (a.is("-o")) {
            auto v = a.value();
            if (!v) return a.needs_value();
            output = *v;
        } else if (a.is("--module")) {
            if (!(module = a.value())) return a.needs_value();
        } else if (a.is("--top")) {
            auto v = a.value();
            if (!v) return a.needs_value();
            auto n = decimal(*v);
            if (!n) return a.error("--top needs a number");
            top = static_cast<std::size_t>(*n);
        } else if (a.is("--strip-root")) {
            if (!a.has_value()) return a.needs_value();
            roots.push_back(*a.value());
        } else if (a.is_option()) {
            return a.unknown_option();
        } else {
            if (!files.empty()) return a.unexpected();
            files.push_back(a.operand());
        }
    }
    if (files.size() != 1) return a.usage();
    hlomem::diff_side_options options;
    options.snapshots = false;
    options.module_file = module;
    options.strip_roots = roots;
    auto const* side = open_side("snapshot", files[0], options, err);
    if (!side) return exit_error;
    auto const s = side->to_snapshot(top);
    if (!write_output("snapshot", output, out, err, [&](std::ostream& os) { hlomem::write_snapshot_json(os, s); })) return exit_error;
    return exit_ok;
}

}  // namespace hlomem_cli
