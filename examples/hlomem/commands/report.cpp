// commands/report.cpp: `hlomem report [--json] [FILE]` — tells what kind of XLA text FILE holds
// from its content (the loader, <hlomem/load.hpp>) and prints its report.
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <hlomem/hlomem.hpp>

#include "../arguments.hpp"
#include "../cli.hpp"
#include "../input.hpp"

#ifndef HLOMEM_DEFAULT_DUMP
#define HLOMEM_DEFAULT_DUMP "tests/data/seeds/002_b0117d631587537a.txt"
#endif

namespace hlomem_cli {
namespace {

constexpr char const* report_usage =
    "usage: hlomem report [--json] [--top N] [--depth N] [--module FILE] [--live-range FILE]\n"
    "                     [--memory-usage-report FILE] [--strip-root DIR]... [FILE]\n"
    "\n"
    "Reads an XLA dump and tells what is in it. The kind of file is read from its content:\n"
    "  HLO module text           computations by kind, instructions, the entry's parameter and\n"
    "                            result sizes, the largest instructions, input/output aliasing,\n"
    "                            the donations used, unused and possible (several modules in one\n"
    "                            file are reported one after another)\n"
    "  *-buffer-assignment.txt   allocations by color and kind, totals, the peak live bytes of each\n"
    "                            color and the values live there, what holds each peak by source\n"
    "                            line and by op_name (from each value's metadata), XLA's own peak\n"
    "                            recomputed and compared with the one the dump states, the\n"
    "                            donations (which parameters are outputs; with the module, which\n"
    "                            donated ones no output took), and every place where the dump\n"
    "                            contradicts itself\n"
    "  *-live-range.txt          the live-range text on its own\n"
    "  *-memory-usage-report.txt the older text memory-usage report\n"
    "  a folder                  every compilation XLA dumped into it (--xla_dump_to, subfolders\n"
    "                            too), the largest memory_analysis() peak first\n"
    "Dumps and modules begin with what JAX's compiled.memory_analysis() would report, computed by\n"
    "XLA's rules (from a module alone: on the buffer assignment hlomem predicts for it).\n"
    "Without FILE, the bundled TPU seed dump (" HLOMEM_DEFAULT_DUMP ").\n"
    "\n"
    "  --json                    one JSON object instead of text\n"
    "  --top N                   how many of the largest values and source lines at each peak to\n"
    "                            list (default 20)\n"
    "  --depth N                 levels of the op_name tree of each peak to print (default 3; 0: none)\n"
    "  --module FILE             the module the dump was assigned from, for the metadata its\n"
    "                            instruction texts lack (default: X.txt beside X-buffer-assignment.txt)\n"
    "  --live-range FILE         attach a separate -live-range.txt to the dump\n"
    "  --memory-usage-report F   check the dump against its -memory-usage-report.txt\n"
    "  --strip-root DIR          show a dump's source files below DIR relative to it (repeatable)\n"
    "Exit status: 0 when the file was read, 2 when it could not be read or parsed.\n";

}  // namespace

int run_report(arguments const& args, std::ostream& out, std::ostream& err) {
    bool as_json = false;
    std::size_t top = 20;
    std::size_t depth = 3;
    std::optional<std::string> file;
    std::vector<std::string> roots;
    hlomem::load_options options;
    options.find_live_range = true;
    options.find_memory_usage_report = true;
    options.find_module = true;
    argument_reader a("report", report_usage, args, err);
    while (a.next()) {
        // The value of the option at hand; nullopt and a message when none follows.
        auto value = [&]() -> std::optional<std::string> {
            if (!a.has_value()) err << "hlomem report: " << a.current() << " needs a value\n";
            return a.value();
        };
        if (a.is("--json")) {
            as_json = true;
        } else if (a.is_help()) {
            return a.help(out);
        } else if (a.is("--top")) {
            auto v = value();
            auto n = v ? decimal(*v) : std::nullopt;
            if (!n) {
                err << "hlomem report: --top needs a number\n";
                return exit_error;
            }
            top = static_cast<std::size_t>(*n);
        } else if (a.is("--depth")) {
            auto v = value();
            auto n = v ? decimal(*v) : std::nullopt;
            if (!n) {
                err << "hlomem report: --depth needs a number\n";
                return exit_error;
            }
            depth = static_cast<std::size_t>(*n);
        } else if (a.is("--module")) {
            if (!(options.module_file = value())) return exit_error;
        } else if (a.is("--live-range")) {
            if (!(options.live_range_file = value())) return exit_error;
        } else if (a.is("--memory-usage-report")) {
            if (!(options.memory_usage_report_file = value())) return exit_error;
        } else if (a.is("--strip-root")) {
            auto v = value();
            if (!v) return exit_error;
            roots.push_back(*v);
        } else if (auto status = a.take_file(file)) {
            return *status;
        }
    }
    std::string const path = file.value_or(HLOMEM_DEFAULT_DUMP);
    if (std::error_code ec; std::filesystem::is_directory(path, ec)) {
        try {
            auto const list = hlomem::dump_directory_memory(path);
            if (as_json) {
                hlomem::print_dump_directory_json(out, path, list);
            } else {
                hlomem::print_dump_directory_text(out, path, list);
            }
        } catch (hlomem::error const& e) {
            err << "hlomem report: " << e.what() << '\n';
            return exit_error;
        }
        return exit_ok;
    }
    auto in = open_input(path, err);
    if (!in) return exit_error;
    if (!hlomem::reports(in->kind)) {
        err << "hlomem report: " << path
            << ": not an HLO module, buffer-assignment dump, live-range text or memory-usage report (the first line "
               "should be 'HloModule name, ...', 'BufferAssignment:', 'HloLiveRange (max N):' or 'Total bytes used: N "
               "(...)')\n";
        return exit_error;
    }
    // Every kind is reported from views into its text, which the loaded value keeps alive: no
    // string of its own for every name and instruction text of a dump.
    auto loaded = load(*in, options, err);
    if (!loaded) return exit_error;
    if (as_json) {
        hlomem::print_report_json(out, *loaded, roots);
    } else {
        hlomem::print_report_text(out, *loaded, top, depth, roots);
    }
    return exit_ok;
}

}  // namespace hlomem_cli
