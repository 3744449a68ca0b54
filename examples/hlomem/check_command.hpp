// check_command.hpp: `hlomem check [--json] [--size-function xla|tpu] FILE` — is a buffer
// assignment sound? Exit 0 when it is, 1 when violations were found, 2 when FILE could not be read.
#ifndef HLOMEM_EXAMPLES_CHECK_COMMAND_HPP
#define HLOMEM_EXAMPLES_CHECK_COMMAND_HPP

#include <optional>
#include <ostream>
#include <string>

#include <hlomem/hlomem.hpp>

#include "cli.hpp"
#include "json_writer.hpp"

namespace hlomem_cli {

inline constexpr char const* check_usage =
    "usage: hlomem check [--json] [--size-function xla|tpu] [--live-range FILE] FILE\n"
    "\n"
    "Checks that a buffer-assignment dump is sound: no two values live at the same time share\n"
    "bytes of an allocation (sharing XLA does on purpose — in-place updates, loop state, aliased\n"
    "outputs — is recognised from the dump itself), no value runs past its allocation, none is\n"
    "smaller than its shape needs, colors and memory spaces agree, and every live range names a\n"
    "value. Each violation is printed with both values, their live ranges and byte ranges.\n"
    "\n"
    "  --size-function xla|tpu  the sizes shapes need (default: tpu when the dump has tiled\n"
    "                           layouts, else xla)\n"
    "  --live-range FILE        the dump's separate -live-range.txt\n"
    "  --json                   one JSON object\n"
    "Exit status: 0 sound, 1 violations found, 2 unreadable or unparsable input.\n";

/// Reads FILE as a buffer assignment (with an optional separate live-range file), or explains on
/// `err` why it cannot. Shared by the commands that need a dump.
inline std::optional<hlomem::buffer_assignment> load_buffer_assignment(std::string const& path,
                                                                      std::optional<std::string> const& live_range_file,
                                                                      std::ostream& err) {
    auto text = read_input(path, err);
    if (!text) return std::nullopt;
    if (hlomem::detect_dump_kind(*text) != hlomem::dump_kind::buffer_assignment) {
        err << "hlomem: " << path << ": not a buffer-assignment dump (it should start with 'BufferAssignment:')\n";
        return std::nullopt;
    }
    auto ba = hlomem::try_parse_buffer_assignment(*text, path);
    if (!ba) {
        err << ba.error() << '\n';
        return std::nullopt;
    }
    if (live_range_file) {
        auto live = read_input(*live_range_file, err);
        if (!live) return std::nullopt;
        auto lr = hlomem::try_parse_live_range(*live, *live_range_file);
        if (!lr) {
            err << lr.error() << '\n';
            return std::nullopt;
        }
        hlomem::attach_live_range(*ba, std::move(*lr));
    }
    return std::move(*ba);
}

inline int run_check(arguments const& args, std::ostream& out, std::ostream& err) {
    bool as_json = false;
    std::optional<std::string> file, live_range_file;
    hlomem::soundness_options options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string_view const a = args[i];
        if (a == "--json") {
            as_json = true;
        } else if (a == "--help" || a == "-h") {
            out << check_usage;
            return exit_ok;
        } else if (a == "--size-function" && i + 1 < args.size()) {
            std::string_view const v = args[++i];
            if (v == "xla") {
                options.size_function = hlomem::size_function_kind::xla;
            } else if (v == "tpu") {
                options.size_function = hlomem::size_function_kind::tpu;
            } else {
                err << "hlomem check: --size-function takes xla or tpu, not '" << v << "'\n";
                return exit_error;
            }
        } else if (a == "--live-range" && i + 1 < args.size()) {
            live_range_file = std::string(args[++i]);
        } else if ((a.size() > 1 && a[0] == '-' && a != "-") || file) {
            return usage_error(err, "check", "unexpected argument '" + std::string(a) + "'");
        } else {
            file = std::string(a);
        }
    }
    if (!file) {
        err << check_usage;
        return exit_error;
    }
    auto ba = load_buffer_assignment(*file, live_range_file, err);
    if (!ba) return exit_error;
    auto const violations = hlomem::check_soundness(*ba, options);
    auto const sharing = hlomem::summarize_sharing(*ba);
    auto const sizing = options.size_function.value_or(hlomem::size_function_of(*ba));
    if (as_json) {
        json_writer json(out);
        json.begin_object();
        json.member("file", *file);
        json.member("sound", violations.empty());
        json.member("size_function", hlomem::to_string(sizing));
        json.member("allocations", ba->allocations.size());
        json.member("values", ba->values.size());
        json.key("legal_sharing").begin_object();
        json.member("in_place", sharing.in_place);
        json.member("phi", sharing.phi);
        json.member("same_instruction", sharing.same_instruction);
        json.end_object();
        json.key("violations").begin_array();
        for (auto const& v : violations) {
            json.begin_object();
            json.member("kind", hlomem::to_string(v.kind));
            json.member("line", v.line);
            json.key("allocation");
            if (v.allocation == hlomem::npos) json.null(); else json.value(ba->allocations[v.allocation].index);
            json.key("values").begin_array();
            if (v.kind != hlomem::diagnostic_kind::unknown_live_range) {
                if (v.first != hlomem::npos) json.value(ba->values[v.first].id);
                if (v.second != hlomem::npos) json.value(ba->values[v.second].id);
            }
            json.end_array();
            json.member("message", v.message);
            json.end_object();
        }
        json.end_array();
        json.end_object();
        json.finish();
    } else {
        out << *file << ": " << ba->allocations.size() << " allocations, " << ba->values.size() << " values, "
            << hlomem::to_string(sizing) << " size function\n";
        out << "  " << sharing.total() << (sharing.total() == 1 ? " pair" : " pairs") << " of values share bytes as XLA intends (" << sharing.in_place
            << " in place, " << sharing.phi << " loop or branch state, " << sharing.same_instruction
            << " outputs of one instruction)\n";
        if (violations.empty()) {
            out << "  sound: no violations\n";
        } else {
            out << "  " << violations.size() << (violations.size() == 1 ? " violation\n" : " violations\n");
            for (auto const& v : violations) {
                out << "  " << *file << ":" << v.line << ": " << hlomem::to_string(v.kind) << ": " << v.message << '\n';
            }
        }
    }
    return violations.empty() ? exit_ok : exit_findings;
}

}  // namespace hlomem_cli

#endif  // HLOMEM_EXAMPLES_CHECK_COMMAND_HPP
