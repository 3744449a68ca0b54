// commands/check.cpp: `hlomem check [--json] [--size-function xla|tpu] FILE` — is a buffer
// assignment sound? Exit 0 when it is, 1 when violations were found, 2 when FILE could not be read.
#include <optional>
#include <ostream>
#include <string>

#include <hlomem/hlomem.hpp>

#include "../arguments.hpp"
#include "../cli.hpp"
#include "../input.hpp"
#include "../json_writer.hpp"
#include "../report/sources.hpp"

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
            options.size_function = size_function_named(*v);
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
    auto loaded = load_dump<hlomem::view_policy>(*file, load_options, err);
    if (!loaded) return exit_error;
    auto const* ba = loaded->assignment();
    auto const violations = hlomem::check_soundness(*ba, options);
    auto const sharing = hlomem::summarize_sharing(*ba);
    auto const sizing = options.size_function.value_or(hlomem::size_function_of(*ba));
    // Each value's metadata, for the values a violation names: read only when there is one (a
    // sound dump's instruction texts are not scanned).
    auto const sources = violations.empty() ? hlomem::basic_source_attribution<hlomem::view_policy>{}
                                            : hlomem::attribute_values(*loaded);
    // The values a violation is about (none for a live range that names no value).
    auto subjects = [&](hlomem::diagnostic const& v) {
        std::vector<std::size_t> out;
        if (v.kind == hlomem::diagnostic_kind::unknown_live_range) return out;
        if (v.first != hlomem::npos) out.push_back(v.first);
        if (v.second != hlomem::npos) out.push_back(v.second);
        return out;
    };
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
            for (std::size_t i : subjects(v)) json.value(ba->values[i].id);
            json.end_array();
            json.key("sources").begin_array();
            for (std::size_t i : subjects(v)) {
                json.begin_object();
                json.member("id", ba->values[i].id);
                write_value_source(json, sources[i]);
                json.end_object();
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
                auto const about = subjects(v);
                if (about.empty()) continue;
                out << "    from";
                for (std::size_t k = 0; k < about.size(); ++k) {
                    auto const& s = sources[about[k]];
                    out << (k ? "; " : " ") << ba->values[about[k]].display_name() << " at " << source_line_text(s);
                    if (!s.op_name.empty()) out << " (" << hlomem::c_unescape(s.op_name) << ")";
                }
                out << '\n';
            }
        }
    }
    return violations.empty() ? exit_ok : exit_findings;
}

}  // namespace hlomem_cli
