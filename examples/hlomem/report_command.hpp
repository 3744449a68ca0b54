// report_command.hpp: `hlomem report [--json] [FILE]` — tells what kind of XLA text FILE holds
// from its content and prints its report.
#ifndef HLOMEM_EXAMPLES_REPORT_COMMAND_HPP
#define HLOMEM_EXAMPLES_REPORT_COMMAND_HPP

#include <fstream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include <hlomem/hlomem.hpp>

#include "cli.hpp"
#include "report_buffer_assignment.hpp"
#include "report_hlo_module.hpp"

#ifndef HLOMEM_DEFAULT_DUMP
#define HLOMEM_DEFAULT_DUMP "tests/data/seeds/002_b0117d631587537a.txt"
#endif

namespace hlomem_cli {

inline constexpr char const* report_usage =
    "usage: hlomem report [--json] [--top N] [--live-range FILE] [--memory-usage-report FILE] [FILE]\n"
    "\n"
    "Reads an XLA dump and tells what is in it. The kind of file is read from its content:\n"
    "  HLO module text           computations by kind, instructions, the entry's parameter and\n"
    "                            result sizes, the largest instructions, input/output aliasing\n"
    "                            (several modules in one file are reported one after another)\n"
    "  *-buffer-assignment.txt   allocations by color and kind, totals, the peak live bytes of each\n"
    "                            color and the values live there, XLA's own peak recomputed and\n"
    "                            compared with the one the dump states, and every place where the\n"
    "                            dump contradicts itself\n"
    "  *-live-range.txt          the live-range text on its own\n"
    "  *-memory-usage-report.txt the older text memory-usage report\n"
    "Without FILE, the bundled TPU seed dump (" HLOMEM_DEFAULT_DUMP ").\n"
    "\n"
    "  --json                    one JSON object instead of text\n"
    "  --top N                   how many of the largest values at each peak to list (default 20)\n"
    "  --live-range FILE         attach a separate -live-range.txt to the dump\n"
    "  --memory-usage-report F   check the dump against its -memory-usage-report.txt\n"
    "Exit status: 0 when the file was read, 2 when it could not be read or parsed.\n";

/// `dir/x-buffer-assignment.txt` -> `dir/x<suffix>`, when that file exists.
inline std::optional<std::string> sibling(std::string const& path, std::string_view suffix) {
    std::string_view constexpr ending = "-buffer-assignment.txt";
    if (path.size() <= ending.size() || path.compare(path.size() - ending.size(), ending.size(), ending) != 0) {
        return std::nullopt;
    }
    std::string candidate = path.substr(0, path.size() - ending.size()) + std::string(suffix);
    if (!std::ifstream(candidate)) return std::nullopt;
    return candidate;
}

inline int run_report(arguments const& args, std::ostream& out, std::ostream& err) {
    bool as_json = false;
    std::size_t top = 20;
    std::optional<std::string> file, live_range_file, report_file;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view const a = args[i];
        auto value = [&]() -> std::optional<std::string> {
            if (i + 1 >= args.size()) {
                err << "hlomem report: " << a << " needs a value\n";
                return std::nullopt;
            }
            return std::string(args[++i]);
        };
        if (a == "--json") {
            as_json = true;
        } else if (a == "--help" || a == "-h") {
            out << report_usage;
            return exit_ok;
        } else if (a == "--top") {
            auto v = value();
            if (!v || v->empty() || v->find_first_not_of("0123456789") != std::string::npos) {
                err << "hlomem report: --top needs a number\n";
                return exit_error;
            }
            top = static_cast<std::size_t>(std::stoul(*v));
        } else if (a == "--live-range") {
            if (!(live_range_file = value())) return exit_error;
        } else if (a == "--memory-usage-report") {
            if (!(report_file = value())) return exit_error;
        } else if (a.size() > 1 && a[0] == '-' && a != "-") {
            return usage_error(err, "report", "unknown option '" + std::string(a) + "'");
        } else if (file) {
            return usage_error(err, "report", "one FILE at a time");
        } else {
            file = std::string(a);
        }
    }
    std::string const path = file.value_or(HLOMEM_DEFAULT_DUMP);
    auto text = read_input(path, err);
    if (!text) return exit_error;

    switch (hlomem::detect_dump_kind(*text)) {
        case hlomem::dump_kind::buffer_assignment: {
            auto ba = hlomem::try_parse_buffer_assignment(*text, path);
            if (!ba) {
                err << ba.error() << '\n';
                return exit_error;
            }
            std::vector<std::string> notes;
            if (!live_range_file && !ba->live_range) live_range_file = sibling(path, "-live-range.txt");
            std::optional<std::string> live_text;
            if (live_range_file) {
                live_text = read_input(*live_range_file, err);
                if (!live_text) return exit_error;
                auto lr = hlomem::try_parse_live_range(*live_text, *live_range_file);
                if (!lr) {
                    err << lr.error() << '\n';
                    return exit_error;
                }
                hlomem::attach_live_range(*ba, std::move(*lr));
                notes.push_back("live ranges read from " + *live_range_file);
            }
            auto facts = facts_of(*ba);
            facts.notes = std::move(notes);
            if (!report_file) report_file = sibling(path, "-memory-usage-report.txt");
            if (report_file) {
                auto report_text = read_input(*report_file, err);
                if (!report_text) return exit_error;
                auto report = hlomem::try_parse_memory_usage_report(*report_text, *report_file);
                if (!report) {
                    err << report.error() << '\n';
                    return exit_error;
                }
                auto problems = hlomem::check_against(*report, *ba);
                facts.notes.push_back("checked against " + *report_file + ": " +
                                      (problems.empty() ? std::string("it agrees") : std::to_string(problems.size()) + " differences"));
                for (auto& p : problems) facts.warnings.push_back(hlomem::dump_inconsistency(0, *report_file + ":" + std::to_string(p.line) + ": " + p.message));
            }
            if (as_json) {
                print_buffer_assignment_json(out, facts);
            } else {
                print_buffer_assignment_text(out, facts, top);
            }
            return exit_ok;
        }
        case hlomem::dump_kind::live_range: {
            auto lr = hlomem::try_parse_live_range(*text, path);
            if (!lr) {
                err << lr.error() << '\n';
                return exit_error;
            }
            print_live_range_report(out, *lr, path, as_json);
            return exit_ok;
        }
        case hlomem::dump_kind::memory_usage_report: {
            auto report = hlomem::try_parse_memory_usage_report(*text, path);
            if (!report) {
                err << report.error() << '\n';
                return exit_error;
            }
            print_memory_usage_report(out, *report, as_json);
            return exit_ok;
        }
        case hlomem::dump_kind::hlo_module:
            return report_hlo_module(*text, path == "-" ? "<stdin>" : path, as_json, out, err);
        case hlomem::dump_kind::unknown:
            break;
    }
    err << "hlomem report: " << path
        << ": not an HLO module, buffer-assignment dump, live-range text or memory-usage report (the first line should "
           "be 'HloModule name, ...', 'BufferAssignment:', 'HloLiveRange (max N):' or 'Total bytes used: N (...)')\n";
    return exit_error;
}

}  // namespace hlomem_cli

#endif  // HLOMEM_EXAMPLES_REPORT_COMMAND_HPP
