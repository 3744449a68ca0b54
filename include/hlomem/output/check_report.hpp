// hlomem/output/check_report.hpp: what `hlomem check` finds in a buffer-assignment dump and how it
// says so: the soundness check (memory/soundness.hpp) with the sharing XLA intends counted, each
// violation with the values it is about and where they come from in the user's program; as text
// (print_check_text) and JSON (print_check_json).
#ifndef HLOMEM_OUTPUT_CHECK_REPORT_HPP
#define HLOMEM_OUTPUT_CHECK_REPORT_HPP

#include <cstddef>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <hlomem/core/diagnostic.hpp>
#include <hlomem/core/size_function.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/hlo/attribution.hpp>
#include <hlomem/hlo/metadata.hpp>
#include <hlomem/load/loaded.hpp>
#include <hlomem/memory/soundness.hpp>
#include <hlomem/output/json_writer.hpp>
#include <hlomem/output/sources.hpp>

namespace hlomem {

/// A dump checked: its violations, the sharing XLA intends, the size function the check used, and
/// the metadata of the values the violations are about.
template <class P>
struct check_result {
    std::string file;                                  ///< as the reports name it
    basic_buffer_assignment<P> const* assignment = nullptr;
    std::vector<diagnostic> violations;
    sharing_summary sharing;
    size_function_kind sizing = size_function_kind::xla;
    basic_source_attribution<P> sources;               ///< read only when there are violations
};

/// Checks the assignment `loaded` holds (check_soundness), joined with its module's metadata when
/// the loader read one. A sound dump's instruction texts are not scanned for metadata.
template <class P>
check_result<P> check_loaded(basic_loaded<P> const& loaded, std::string file, soundness_options const& options = {}) {
    check_result<P> r;
    r.file = std::move(file);
    r.assignment = loaded.assignment();
    r.violations = check_soundness(*r.assignment, options);
    r.sharing = summarize_sharing(*r.assignment);
    r.sizing = options.size_function.value_or(size_function_of(*r.assignment));
    if (!r.violations.empty()) r.sources = attribute_values(loaded);
    return r;
}

/// The values a violation is about (none for a live range that names no value).
inline std::vector<std::size_t> violation_subjects(diagnostic const& v) {
    std::vector<std::size_t> out;
    if (v.kind == diagnostic_kind::unknown_live_range) return out;
    if (v.first != npos) out.push_back(v.first);
    if (v.second != npos) out.push_back(v.second);
    return out;
}

/// `hlomem check --json`: file, sound, size_function, allocations, values, legal_sharing and
/// violations (kind, line, allocation, values, sources, message).
template <class P>
void print_check_json(std::ostream& out, check_result<P> const& r) {
    json_writer json(out);
    json.begin_object();
    json.member("file", r.file);
    json.member("sound", r.violations.empty());
    json.member("size_function", to_string(r.sizing));
    json.member("allocations", r.assignment->allocations.size());
    json.member("values", r.assignment->values.size());
    json.key("legal_sharing").begin_object();
    json.member("in_place", r.sharing.in_place);
    json.member("phi", r.sharing.phi);
    json.member("same_instruction", r.sharing.same_instruction);
    json.end_object();
    json.key("violations").begin_array();
    for (auto const& v : r.violations) {
        json.begin_object();
        json.member("kind", to_string(v.kind));
        json.member("line", v.line);
        json.key("allocation");
        if (v.allocation == npos) json.null(); else json.value(r.assignment->allocations[v.allocation].index);
        json.key("values").begin_array();
        for (std::size_t i : violation_subjects(v)) json.value(r.assignment->values[i].id);
        json.end_array();
        json.key("sources").begin_array();
        for (std::size_t i : violation_subjects(v)) {
            json.begin_object();
            json.member("id", r.assignment->values[i].id);
            write_value_source(json, r.sources, i, *r.assignment);
            json.end_object();
        }
        json.end_array();
        json.member("message", v.message);
        json.end_object();
    }
    json.end_array();
    json.end_object();
    json.finish();
}

/// `hlomem check`: the counts, the sharing XLA intends, and each violation as FILE:LINE: KIND:
/// MESSAGE with where its values come from.
template <class P>
void print_check_text(std::ostream& out, check_result<P> const& r) {
    out << r.file << ": " << r.assignment->allocations.size() << " allocations, " << r.assignment->values.size() << " values, "
        << to_string(r.sizing) << " size function\n";
    out << "  " << r.sharing.total() << (r.sharing.total() == 1 ? " pair" : " pairs") << " of values share bytes as XLA intends (" << r.sharing.in_place
        << " in place, " << r.sharing.phi << " loop or branch state, " << r.sharing.same_instruction
        << " outputs of one instruction)\n";
    if (r.violations.empty()) {
        out << "  sound: no violations\n";
    } else {
        out << "  " << r.violations.size() << (r.violations.size() == 1 ? " violation\n" : " violations\n");
        for (auto const& v : r.violations) {
            out << "  " << r.file << ":" << v.line << ": " << to_string(v.kind) << ": " << v.message << '\n';
            auto const about = violation_subjects(v);
            if (about.empty()) continue;
            out << "    from";
            for (std::size_t k = 0; k < about.size(); ++k) {
                auto const& o = r.sources.origin_of(about[k]);
                out << (k ? "; " : " ") << r.assignment->values[about[k]].display_name() << " at " << origin_text(o);
                if (!o.source.op_name.empty() && !o.is_argument()) out << " (" << c_unescape(o.source.op_name) << ")";
            }
            out << '\n';
        }
    }
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_CHECK_REPORT_INSTANTIATIONS(EXTERN, P) \
    EXTERN template check_result<P> check_loaded<P>(basic_loaded<P> const&, std::string, soundness_options const&); \
    EXTERN template void print_check_json<P>(std::ostream&, check_result<P> const&); \
    EXTERN template void print_check_text<P>(std::ostream&, check_result<P> const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_CHECK_REPORT_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_CHECK_REPORT_HPP
