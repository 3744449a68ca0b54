// hlomem/output/report.hpp: `hlomem report` for whatever the loader read: a buffer-assignment dump (with
// the live ranges and memory-usage report read beside it), a live-range text, a memory-usage
// report, or HLO modules. The tool and the Python module (python/src/module.cpp) both print
// through print_report_text and print_report_json, so that the module's to_dict() is the tool's --json, key for key.
#ifndef HLOMEM_OUTPUT_REPORT_HPP
#define HLOMEM_OUTPUT_REPORT_HPP

#include <cstddef>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <hlomem/load.hpp>

#include <hlomem/output/assignment_report.hpp>
#include <hlomem/output/module_report.hpp>

namespace hlomem {

/// The facts `hlomem report` gives about the buffer-assignment dump `loaded` holds: the live
/// ranges, the memory-usage report and the module the loader found for it named in the notes, the
/// report's differences from the dump as warnings, and its values' metadata joined with the
/// module's (attribute_values): every value's with `every_value` (JSON lists them all), else only
/// the values live at the peaks (the text names only those; their texts alone are read); paths
/// shown below the longest of `roots` they lie under (strip_source_roots).
template <class P>
buffer_assignment_facts<P> dump_facts(hlomem::basic_loaded<P> const& loaded, bool every_value, std::vector<std::string> const& roots = {}) {
    auto const& ba = *loaded.assignment();
    auto stripped = [&](hlomem::basic_source_attribution<P> sources) {
        hlomem::strip_source_roots(sources, roots);
        return sources;
    };
    // Every value's metadata does not wait for the peaks, and is read beside the other analyses.
    auto facts = every_value ? facts_with(ba, [&] { return stripped(hlomem::attribute_values(loaded)); })
                             : facts_with(ba, [&](std::vector<hlomem::color_live_bytes> const& colors) {
                                   return stripped(hlomem::attribute_values(ba, values_at_peaks(ba, colors)));
                               });
    if (loaded.live_range_file) facts.notes.push_back("live ranges read from " + *loaded.live_range_file);
    if (loaded.live_ranges_from_module && loaded.module_file) {
        facts.notes.push_back("live ranges derived from the module " + *loaded.module_file + " (the dump states none)");
    }
    // The module, when at hand, lists buffer_donor: which donations went unused (hlo/donation.hpp).
    if (auto const* m = loaded.assignment_module()) facts.donations = hlomem::analyze_donations(ba, m);
    if (loaded.module_file) {
        std::string note = "metadata joined with the module " + *loaded.module_file + " (" +
                           std::to_string(facts.sources.from_module) + " values from it";
        if (facts.sources.lines_from_frames > 0) {
            note += ", " + std::to_string(facts.sources.lines_from_frames) + " source lines from its stack frames";
        }
        facts.notes.push_back(note + ")");
    }
    if (loaded.memory_usage_report) {
        auto const& file = *loaded.memory_usage_report_file;
        std::vector<hlomem::diagnostic> differences;
        std::vector<std::string> report_notes;
        for (auto& p : hlomem::check_against(*loaded.memory_usage_report, ba)) {
            if (p.severity == hlomem::severity::note) {
                report_notes.push_back(file + ":" + std::to_string(p.line) + ": " + p.message);
            } else {
                differences.push_back(hlomem::dump_inconsistency(0, file + ":" + std::to_string(p.line) + ": " + p.message));
            }
        }
        facts.notes.push_back("checked against " + file + ": " +
                              (differences.empty() ? std::string("it agrees") : std::to_string(differences.size()) + " differences"));
        for (auto& n : report_notes) facts.notes.push_back(std::move(n));
        for (auto& d : differences) facts.warnings.push_back(std::move(d));
    }
    return facts;
}

/// Whether `hlomem report` reads this kind of text.
inline bool reports(hlomem::dump_kind kind) {
    return kind == hlomem::dump_kind::buffer_assignment || kind == hlomem::dump_kind::live_range ||
           kind == hlomem::dump_kind::memory_usage_report || kind == hlomem::dump_kind::hlo_module;
}

namespace detail {

/// The report of a buffer-assignment dump (dump_facts), with the op_name tree shown `depth`
/// levels deep in the text and source files below `roots`.
template <class P>
void report_dump(std::ostream& out, hlomem::basic_loaded<P> const& loaded, bool as_json, std::size_t top, std::size_t depth,
                 std::vector<std::string> const& roots) {
    // Without a module to join (whose count of values the notes name), the text reads only the
    // metadata of the values live at each peak. JSON lists every value's.
    auto facts = dump_facts(loaded, as_json || loaded.assignment_module() != nullptr, roots);
    facts.depth = depth;
    if (as_json) {
        print_buffer_assignment_json(out, facts);
    } else {
        print_buffer_assignment_text(out, facts, top);
    }
}

/// print_report_text and print_report_json, by the kind `loaded` holds.
template <class P>
bool print_report(std::ostream& out, hlomem::basic_loaded<P> const& loaded, bool as_json, std::size_t top, std::size_t depth,
                  std::vector<std::string> const& roots) {
    if (auto const* modules = std::get_if<std::vector<hlomem::basic_hlo_module<P>>>(&loaded.model)) {
        if constexpr (std::is_same_v<P, hlomem::view_policy>) {
            module_report::report_hlo_modules(out, *modules, loaded.path == "-" ? std::string("<stdin>") : loaded.path, as_json, top,
                                              depth, roots);
            return true;
        }
        return false;
    }
    if (auto const* lr = std::get_if<hlomem::basic_hlo_live_range<P>>(&loaded.model)) {
        print_live_range_report(out, *lr, loaded.path, as_json);
    } else if (auto const* report = std::get_if<hlomem::basic_memory_usage_report<P>>(&loaded.model)) {
        print_memory_usage_report(out, *report, as_json);
    } else if (std::holds_alternative<hlomem::basic_buffer_assignment<P>>(loaded.model)) {
        report_dump(out, loaded, as_json, top, depth, roots);
    } else {
        return false;
    }
    return true;
}

}  // namespace detail

/// `hlomem report`: the report of whatever `loaded` holds, as text: `top` values and source lines
/// at each peak, the op_name tree `depth` levels deep, a dump's source files below the longest of
/// `roots` they lie under (strip_source_roots). False, and nothing printed, for a kind `report`
/// does not read (reports() is false), and for modules read with another policy than
/// view_policy, which the module report is written for.
template <class P>
bool print_report_text(std::ostream& out, hlomem::basic_loaded<P> const& loaded, std::size_t top = 20, std::size_t depth = 3,
                       std::vector<std::string> const& roots = {}) {
    return detail::print_report(out, loaded, false, top, depth, roots);
}

/// `hlomem report --json`: the same as one JSON document, every value listed.
template <class P>
bool print_report_json(std::ostream& out, hlomem::basic_loaded<P> const& loaded, std::vector<std::string> const& roots = {}) {
    return detail::print_report(out, loaded, true, 20, 3, roots);
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_REPORT_INSTANTIATIONS(EXTERN, P) \
    EXTERN template buffer_assignment_facts<P> dump_facts<P>(basic_loaded<P> const&, bool, std::vector<std::string> const&); \
    EXTERN template bool detail::print_report<P>(std::ostream&, basic_loaded<P> const&, bool, std::size_t, std::size_t, std::vector<std::string> const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_REPORT_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_REPORT_HPP
