// commands/check.cpp: `hlomem check [--json] [--size-function xla|tpu] FILE` — is a buffer
// assignment sound? Exit 0 when it is, 1 when violations were found, 2 when FILE could not be read.
#include <optional>
#include <ostream>
#include <string>

#include <hlomem/hlomem.hpp>

#include "../arguments.hpp"
#include "../cli.hpp"
#include "../input.hpp"

namespace hlomem_cli {
namespace {

constexpr char const* check_usage =
    "usage: hlomem check [--json] [--size-function xla|tpu] [--live-range FILE] [--module FILE] FILE\n"
    "\n"
    "Checks that a buffer-assignment dump is sound: no two values live at the same time share\n"
    "bytes of an allocation (sharing XLA does on purpose — in-place updates, loop state, aliased\n"
    "outputs — is recognised from the dump itself), no value runs past its allocation, none is\n"
    "smaller than its shape needs, colors and memory spaces agree, and every live range names a\n"
    "value. Each violation is printed with both values, their live ranges and byte ranges, and the\n"
    "source line of the program each value comes from (its instruction's metadata).\n"
    "\n"
    "  --size-function xla|tpu  the sizes shapes need (default: tpu when the dump has tiled\n"
    "                           layouts, else xla)\n"
    "  --live-range FILE        the dump's separate -live-range.txt\n"
    "  --module FILE            the module the dump was assigned from, for the metadata its\n"
    "                           instruction texts lack (default: X.txt beside X-buffer-assignment.txt)\n"
    "  --json                   one JSON object\n"
    "Exit status: 0 sound, 1 violations found, 2 unreadable or unparsable input.\n";

}  // namespace

int run_check(arguments const& args, std::ostream& out, std::ostream& err) {
    bool as_json = false;
    std::optional<std::string> file;
    hlomem::load_options load_options;
    load_options.find_module = true;
    hlomem::soundness_options options;
    argument_reader a("check", check_usage, args, err);
    while (a.next()) {
        if (a.is("--json")) {
            as_json = true;
        } else if (a.is_help()) {
            return a.help(out);
        } else if (a.is("--size-function") && a.has_value()) {
            auto const v = a.value();
            options.size_function = hlomem::size_function_named(*v);
            if (!options.size_function) {
                err << "hlomem check: --size-function takes xla or tpu, not '" << *v << "'\n";
                return exit_error;
            }
        } else if (a.is("--live-range") && a.has_value()) {
            load_options.live_range_file = a.value();
        } else if (a.is("--module") && a.has_value()) {
            load_options.module_file = a.value();
        } else if (auto status = a.take_file_or_unexpected(file)) {
            return *status;
        }
    }
    if (!file) return a.usage();
    auto loaded = load_dump(*file, load_options, err);
    if (!loaded) return exit_error;
    auto const report = hlomem::check_loaded(*loaded, *file, options);
    if (as_json) {
        hlomem::print_check_json(out, report);
    } else {
        hlomem::print_check_text(out, report);
    }
    return report.violations.empty() ? exit_ok : exit_findings;
}

}  // namespace hlomem_cli
