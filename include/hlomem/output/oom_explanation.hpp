// hlomem/output/oom_explanation.hpp: what `hlomem explain` prints for the out-of-memory reports of
// a log (dump/oom_report.hpp): each report's figures and what they should be, each entry's padded
// and unpadded bytes recomputed from its shape, its padding explained and the layout changes that
// remove it; as text (print_oom_log_text) and as one JSON object (print_oom_log_json).
#ifndef HLOMEM_OUTPUT_OOM_EXPLANATION_HPP
#define HLOMEM_OUTPUT_OOM_EXPLANATION_HPP

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <hlomem/core/padding.hpp>
#include <hlomem/dump/oom_report.hpp>
#include <hlomem/output/json_writer.hpp>
#include <hlomem/output/oom_message_output.hpp>
#include <hlomem/output/percent.hpp>

namespace hlomem {

namespace detail::oom_explanation {

/// Long labels are cut in text output (the JSON keeps them whole).
inline std::string shortened(std::string_view text, std::size_t limit = 160) {
    if (text.size() <= limit) return std::string(text);
    return std::string(text.substr(0, limit)) + "...";
}

inline std::string entry_word(hlomem::oom_report_kind kind) {
    return kind == hlomem::oom_report_kind::tpu ? "entry" : "buffer";
}

/// `2 entries`, `1 buffer`.
inline std::string count_of(std::size_t n, hlomem::oom_report_kind kind) {
    if (kind == hlomem::oom_report_kind::tpu) return std::to_string(n) + (n == 1 ? " entry" : " entries");
    return std::to_string(n) + (n == 1 ? " buffer" : " buffers");
}

/// The notes of `report` that fall on entry `i`'s lines (from its first line to the next entry's).
template <class P>
std::vector<hlomem::diagnostic> notes_of(hlomem::basic_oom_report<P> const& report, std::size_t i) {
    std::size_t const from = report.entries[i].line;
    std::size_t const to = i + 1 < report.entries.size() ? report.entries[i + 1].line : static_cast<std::size_t>(-1);
    std::vector<hlomem::diagnostic> out;
    for (auto const& n : report.notes) {
        if (n.line >= from && n.line < to) out.push_back(n);
    }
    return out;
}

/// `  size       reported 570.00M, recomputed 597688320 bytes (570.00M): agrees`
template <class P>
void print_figure(std::ostream& out, char const* name, std::optional<hlomem::basic_reported_size<P>> const& reported,
                         hlomem::figure_check const& check, hlomem::size_function_kind style, std::string const& extra = {}) {
    if (!reported) return;
    std::string label = name;
    label.resize(11, ' ');
    out << "    " << label << "reported " << reported->text << extra << ", recomputed " << check.recomputed << " bytes ("
        << hlomem::format_size(check.recomputed, style) << "): " << (check.agrees ? "agrees" : "DISAGREES") << '\n';
}

/// Entries whose figures disagree with the report, and entries that could not be recomputed.
struct tally {
    std::size_t disagreeing = 0;
    std::size_t unsized = 0;
    std::size_t summaries_disagreeing = 0;
};

/// `67.9%`
inline std::string percent_text(double share) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f%%", share * 100.0);
    return buffer;
}

/// The key of each usage line in `usage`: its name, or `part name` when an earlier line of
/// another part has that name (`reserved` of the total, `program reserved` of the requirement).
template <class P>
std::vector<std::string> usage_keys(hlomem::basic_oom_report<P> const& report) {
    std::vector<std::string> keys;
    for (auto const& u : report.usage) {
        std::string key(std::string_view(u.name));
        for (auto const& k : keys) {
            if (k == key) key = std::string(hlomem::to_string(u.part)) + " " + std::string(std::string_view(u.name));
        }
        keys.push_back(std::move(key));
    }
    return keys;
}

/// `reserved 530.00M, program 21.95G, arguments unknown`
template <class P>
std::string usage_text(hlomem::basic_oom_report<P> const& report, hlomem::oom_usage_part part) {
    std::string out;
    for (auto const& u : report.usage) {
        if (u.part != part) continue;
        out += out.empty() ? "" : ", ";
        out += std::string_view(u.name);
        out += ' ';
        out += u.size ? std::string_view(u.size->text) : std::string_view("unknown");
    }
    return out;
}

template <class P>
void print_summary_text(std::ostream& out, hlomem::basic_oom_report<P> const& report, hlomem::oom_summary_analysis const& summary) {
    if (report.used || report.capacity || report.exceeded) {
        out << "  out of memory in " << (report.memory_space.empty() ? std::string("memory") : report.memory_space) << ':';
        if (report.used) out << " used " << report.used->text << (report.capacity ? " of " + std::string(std::string_view(report.capacity->text)) : std::string());
        if (!report.used && report.capacity) out << " capacity " << report.capacity->text;
        if (report.exceeded) out << ", exceeded by " << report.exceeded->text;
        out << '\n';
    }
    if (report.requested) out << "  requested " << report.requested->text << '\n';
    struct part_line {
        hlomem::oom_usage_part part;
        char const* title;
        std::optional<hlomem::basic_reported_size<P>> const* figure;
    };
    part_line const parts[] = {
        {hlomem::oom_usage_part::capacity, "capacity", &report.capacity},
        {hlomem::oom_usage_part::total, "total usage >=", &report.total_usage},
        {hlomem::oom_usage_part::heap, "heap", nullptr},
        {hlomem::oom_usage_part::persistent, "persistent", nullptr},
        {hlomem::oom_usage_part::other, "also", nullptr},
        {hlomem::oom_usage_part::program, "program requirement", &report.program_requirement},
    };
    for (auto const& p : parts) {
        std::string const lines = usage_text(report, p.part);
        bool const figure = p.figure && *p.figure && p.part != hlomem::oom_usage_part::capacity;
        if (lines.empty() && !figure) continue;
        out << "  " << p.title;
        if (figure) out << ' ' << (*p.figure)->text;
        if (!lines.empty()) out << ": " << lines;
        out << '\n';
    }
    for (auto const& c : summary.checks) {
        out << "  check (line " << c.line << "): " << (c.agrees ? "agrees" : "DISAGREES") << ": " << c.message << '\n';
    }
    if (summary.share) {
        auto const& sh = *summary.share;
        out << "  the " << sh.entries << " listed " << (sh.entries == 1 ? "entry accounts" : "entries account") << " for "
            << hlomem::format_size(sh.listed_bytes, hlomem::size_style_of(report.kind)) << " of the " << sh.of << ' '
            << hlomem::format_size(sh.of_bytes, hlomem::size_style_of(report.kind)) << " ("
            << percent_text(sh.share()) << ")\n";
    }
}

/// The heading of a report of one of the one-line kinds or the BFC log.
inline std::string kind_title(hlomem::oom_report_kind k) {
    switch (k) {
        case hlomem::oom_report_kind::device_allocation: return "TPU runtime, device buffer allocation (E0100)";
        case hlomem::oom_report_kind::sparsecore: return "TPU compile time, TensorCore and SparseCore HBM usage (E1000)";
        case hlomem::oom_report_kind::runtime_allocation: return "TPU allocation larger than the memory";
        case hlomem::oom_report_kind::utilization: return "TPU utilization line";
        case hlomem::oom_report_kind::bfc: return "GPU BFC allocator log";
        case hlomem::oom_report_kind::rematerialization: return "XLA rematerialization warning";
        case hlomem::oom_report_kind::hlo_temporaries: return "HLO temporaries over the available HBM";
        default: return std::string(hlomem::to_string(k));
    }
}

template <class P>
void print_report_text(std::ostream& out, hlomem::basic_oom_log<P> const& log, hlomem::basic_oom_report<P> const& report, tally& counts,
                              hlomem::oom_module_index const* module = nullptr) {
    auto const style = hlomem::size_style_of(report.kind);
    out << log.file << ':' << report.line << ": ";
    if (report.kind == hlomem::oom_report_kind::tpu) {
        if (report.list_line != 0) {
            out << "TPU report, largest program allocations in " << report.memory_space;
        } else {
            out << "TPU report" << (report.memory_space.empty() ? std::string() : " on " + std::string(std::string_view(report.memory_space)))
                << (report.entries.empty() ? ", summary only" : ", its list's header not in the input");
        }
    } else if (report.kind != hlomem::oom_report_kind::gpu) {
        out << kind_title(report.kind);
    } else if (report.stats.empty() && !report.has_peak_buffers && report.entries.empty()) {
        out << "GPU report, the failed allocation only";
    } else {
        out << "GPU report, BufferAssignment OOM debugging";
    }
    out << ": " << count_of(report.entries.size(), report.kind) << (report.cut_off ? " (cut off)" : "") << '\n';
    if (!report.stats.empty()) {
        out << "  stats:";
        for (std::size_t i = 0; i < report.stats.size(); ++i) {
            auto const& s = report.stats[i];
            out << (i == 0 ? " " : ", ") << s.name << ' ' << (s.size.text.empty() ? std::string("(cut off)") : s.size.text);
            if (!s.percent.empty()) out << " (" << s.percent << ')';
        }
        out << '\n';
    }
    auto const summary = hlomem::analyze_report(report);
    print_message_text(out, report);
    print_summary_text(out, report, summary);
    print_verdict_text(out, hlomem::verdict_of(report));
    if (!summary.agrees()) ++counts.summaries_disagreeing;
    std::size_t noted = 0;
    for (std::size_t i = 0; i < report.entries.size(); ++i) {
        auto const& e = report.entries[i];
        auto const a = hlomem::analyze(e, report.kind);
        out << "\n  " << entry_word(report.kind) << ' '
            << (e.number == 0 ? std::string("?") : std::to_string(e.number) + (e.number_inferred ? " (inferred)" : ""))
            << " (line " << e.line << (e.has_head ? "" : ", its first line not in the input") << "): "
            << (e.shape ? hlomem::to_string(*e.shape) : e.shape_text.empty() ? std::string("no shape") : std::string(std::string_view(e.shape_text)) + " (does not read)")
            << '\n';
        if (a.tiling_inferred || a.layout_inferred) out << "    analyzed as      " << hlomem::to_string(a.shape) << '\n';
        if (!e.operator_text.empty()) out << "    operator         " << shortened(e.operator_text) << '\n';
        if (!e.label.empty()) out << "    XLA label        " << shortened(e.label) << '\n';
        if (!e.allocation_type.empty()) out << "    allocation type  " << e.allocation_type << '\n';
        for (auto const& f : e.other_fields) out << "    " << f.name << ": " << f.value << '\n';
        if (module) print_source_text(out, *module, e);
        if (a.sized()) {
            print_figure(out, "size", e.size, a.size, style);
            print_figure(out, "unpadded", e.unpadded_size, a.unpadded, style);
            print_figure(out, "padding", e.padding_size, a.padding_bytes, style);
            if (a.expansion_reported) {
                out << "    expansion  reported " << e.expansion->text << "x, recomputed " << hlomem::format_expansion(a.expansion())
                    << ": " << (a.expansion_agrees ? "agrees" : "DISAGREES") << '\n';
            }
        } else if (e.size) {
            out << "    size       reported " << e.size->text << '\n';
        }
        for (auto const& d : a.disagreements) out << "    Line " << d.line << ": " << d.message << '\n';
        for (auto const& s : a.explanation) out << "    " << s << '\n';
        if (!a.suggestions.empty()) {
            out << "    What would remove the padding:\n";
            for (auto const& s : a.suggestions) out << "      - " << s << '\n';
        }
        for (auto const& n : notes_of(report, i)) {
            out << "    note: line " << n.line << ": " << n.message << '\n';
            ++noted;
        }
        if (!a.sized()) ++counts.unsized;
        if (!a.agrees()) ++counts.disagreeing;
    }
    // Notes before the first entry or about the report as a whole.
    for (auto const& n : report.notes) {
        if (!report.entries.empty() && n.line >= report.entries.front().line) continue;
        out << "  note: line " << n.line << ": " << n.message << '\n';
        ++noted;
    }
    if (report.entries.empty() && noted == 0 && report.list_line != 0) out << "  (no entries)\n";
}

inline void print_padding_json(hlomem::json_writer& json, hlomem::padding_breakdown const& b) {
    json.key("padding").begin_object();
    json.member("tile", b.tile_text());
    json.key("dimensions").begin_array();
    for (auto const& d : b.dimensions) {
        json.begin_object();
        json.key("logical").begin_array();
        for (auto l : d.logical) json.value(l);
        json.end_array();
        json.member("extent", d.extent);
        json.member("tile_extent", d.tile_extent);
        json.member("padded_extent", d.padded_extent);
        json.member("tiled", d.tiled);
        json.end_object();
    }
    json.end_array();
    json.member("tail_padding_alignment", b.tail_padding_alignment);
    json.member("stored_bits", b.stored_bits);
    json.member("data_bits", b.data_bits);
    json.end_object();
}

inline std::string join(std::vector<std::string> const& sentences) {
    std::string out;
    for (auto const& s : sentences) out += (out.empty() ? "" : " ") + s;
    return out;
}

inline std::string_view fix_kind_name(hlomem::padding_fix_kind k) {
    switch (k) {
        case hlomem::padding_fix_kind::relayout: return "relayout";
        case hlomem::padding_fix_kind::drop_unit_dimension: return "drop_unit_dimension";
        case hlomem::padding_fix_kind::round_down_extent: return "round_down_extent";
        case hlomem::padding_fix_kind::round_up_extent: return "round_up_extent";
        case hlomem::padding_fix_kind::natural_element_size: return "natural_element_size";
        case hlomem::padding_fix_kind::no_tail_padding: return "no_tail_padding";
    }
    return "unknown";
}

template <class P>
void print_entry_json(hlomem::json_writer& json, hlomem::basic_oom_log<P> const& log, std::size_t report_index, std::size_t entry_index,
                             hlomem::oom_module_index const* module) {
    auto const& report = log.reports[report_index];
    auto const& e = report.entries[entry_index];
    auto const a = hlomem::analyze(e, report.kind);
    auto reported = [&](char const* text_key, char const* bytes_key, std::optional<hlomem::basic_reported_size<P>> const& r) {
        json.key(text_key);
        r ? json.value(r->text) : json.null();
        json.key(bytes_key);
        r ? json.value(r->size.nominal_bytes) : json.null();
    };
    json.begin_object();
    json.member("file", log.file);
    json.member("report", report_index + 1);
    json.member("kind", hlomem::to_string(report.kind));
    json.key("memory_space");
    report.kind == hlomem::oom_report_kind::tpu ? json.value(report.memory_space) : json.null();
    json.key("entry");
    e.number == 0 ? json.null() : json.value(e.number);
    json.member("number_inferred", e.number_inferred);
    json.member("has_head", e.has_head);
    json.member("line", e.line);
    json.member("complete", e.complete);
    json.key("shape");
    e.shape ? json.value(hlomem::to_string(*e.shape)) : json.null();
    json.member("shape_text", e.shape_text);
    json.member("entry_parameter", e.entry_parameter);
    json.key("analyzed_shape");
    a.has_shape ? json.value(hlomem::to_string(a.shape)) : json.null();
    json.member("tiling_inferred", a.tiling_inferred);
    json.member("layout_inferred", a.layout_inferred);
    reported("reported_size", "reported_bytes", e.size);
    reported("reported_unpadded_size", "reported_unpadded_bytes", e.unpadded_size);
    reported("reported_padding_size", "reported_padding_bytes", e.padding_size);
    json.key("reported_expansion");
    e.expansion ? json.value(e.expansion->value()) : json.null();
    if (a.sized()) {
        json.member("padded_bytes", a.padded_bytes);
        json.member("unpadded_bytes", a.unpadded_bytes);
        json.member("padding_bytes", a.padded_bytes - a.unpadded_bytes);
        json.member("expansion", a.expansion());
    } else {
        for (char const* k : {"padded_bytes", "unpadded_bytes", "padding_bytes", "expansion"}) json.key(k).null();
    }
    json.key("agrees");
    a.sized() ? json.value(a.agrees()) : json.null();
    json.key("disagreements").begin_array();
    for (auto const& d : a.disagreements) json.value("Line " + std::to_string(d.line) + ": " + d.message);
    json.end_array();
    json.member("explanation", join(a.explanation));
    json.key("suggestions").begin_array();
    for (std::size_t i = 0; i < a.fixes.size(); ++i) {
        auto const& f = a.fixes[i];
        json.begin_object();
        json.member("kind", fix_kind_name(f.kind));
        json.member("shape", hlomem::to_string(f.shape));
        json.member("padded_bytes", f.padded_bytes);
        json.member("unpadded_bytes", f.unpadded_bytes);
        json.member("expansion", f.expansion());
        json.member("text", a.suggestions[i]);
        json.end_object();
    }
    json.end_array();
    if (a.padding) print_padding_json(json, *a.padding);
    json.member("operator", e.operator_text);
    json.member("label", e.label);
    json.member("allocation_type", e.allocation_type);
    if (module) print_source_json(json, *module, e);
    json.key("notes").begin_array();
    for (auto const& n : notes_of(report, entry_index)) json.value("line " + std::to_string(n.line) + ": " + n.message);
    json.end_array();
    json.end_object();
}

/// Every warning of `log`, the reports' own and the log's, in line order.
template <class P>
std::vector<hlomem::diagnostic> all_warnings(hlomem::basic_oom_log<P> const& log) {
    std::vector<hlomem::diagnostic> out = log.warnings;
    for (auto const& r : log.reports) out.insert(out.end(), r.notes.begin(), r.notes.end());
    std::stable_sort(out.begin(), out.end(), [](auto const& a, auto const& b) { return a.line < b.line; });
    return out;
}

template <class P>
void print_report_json(hlomem::json_writer& json, hlomem::basic_oom_log<P> const& log, std::size_t report_index,
                              hlomem::oom_module_index const* module) {
    auto const& report = log.reports[report_index];
    auto const summary = hlomem::analyze_report(report);
    auto bytes = [&](char const* key, std::optional<hlomem::basic_reported_size<P>> const& r) {
        json.key(key);
        r ? json.value(r->size.nominal_bytes) : json.null();
    };
    json.begin_object();
    json.member("kind", hlomem::to_string(report.kind));
    json.member("line", report.line);
    json.key("memory_space");
    report.memory_space.empty() ? json.null() : json.value(report.memory_space);
    bytes("used_bytes", report.used);
    bytes("capacity_bytes", report.capacity);
    bytes("exceeded_bytes", report.exceeded);
    bytes("total_usage_bytes", report.total_usage);
    bytes("program_requirement_bytes", report.program_requirement);
    bytes("requested_bytes", report.requested);
    json.key("usage").begin_object();
    auto const keys = usage_keys(report);
    for (std::size_t i = 0; i < report.usage.size(); ++i) {
        json.key(keys[i]);
        auto const b = report.usage[i].bytes();
        b ? json.value(*b) : json.null();
    }
    for (auto const& st : report.stats) {
        json.key(st.name);
        st.size.text.empty() ? json.null() : json.value(st.size.size.nominal_bytes);
    }
    json.end_object();
    json.member("cut_off", report.cut_off);
    json.key("checks").begin_array();
    for (auto const& c : summary.checks) {
        json.begin_object();
        json.member("relation", c.relation);
        json.member("agrees", c.agrees);
        json.member("line", c.line);
        json.member("message", c.message);
        json.end_object();
    }
    json.end_array();
    json.key("entries_share");
    if (summary.share) {
        json.begin_object();
        json.member("entries", summary.share->entries);
        json.member("listed_bytes", summary.share->listed_bytes);
        json.member("of", summary.share->of);
        json.member("of_bytes", summary.share->of_bytes);
        json.member("share", summary.share->share());
        json.end_object();
    } else {
        json.null();
    }
    json.key("entries").begin_array();
    for (std::size_t e = 0; e < report.entries.size(); ++e) print_entry_json(json, log, report_index, e, module);
    json.end_array();
    print_verdict_json(json, hlomem::verdict_of(report));
    print_message_json(json, report);
    json.end_object();
}

}  // namespace detail::oom_explanation

/// Every report of `log` and the reader's warnings as one JSON object: "reports" and "warnings".
/// With `module`, each entry also names the module's instruction it points at (key "module").
template <class P>
void print_oom_log_json(std::ostream& out, basic_oom_log<P> const& log, oom_module_index const* module = nullptr) {
    hlomem::json_writer json(out);
    json.begin_object();
    json.key("reports").begin_array();
    for (std::size_t r = 0; r < log.reports.size(); ++r) detail::oom_explanation::print_report_json(json, log, r, module);
    json.end_array();
    write_line_messages(json, "warnings", detail::oom_explanation::all_warnings(log));
    json.end_object();
    json.finish();
}

/// Every report of `log` as text, the reader's notes, and a last line that counts the reports and
/// entries and says whether every recomputed figure agrees.
/// With `module`, each entry also names the module's instruction it points at.
template <class P>
void print_oom_log_text(std::ostream& out, basic_oom_log<P> const& log, oom_module_index const* module = nullptr) {
    detail::oom_explanation::tally counts;
    for (std::size_t r = 0; r < log.reports.size(); ++r) {
        if (r > 0) out << '\n';
        detail::oom_explanation::print_report_text(out, log, log.reports[r], counts, module);
    }
    for (auto const& w : log.warnings) out << "\nnote: line " << w.line << ": " << w.message;
    if (!log.warnings.empty()) out << '\n';
    std::size_t const entries = log.entry_count();
    out << '\n'
        << log.reports.size() << (log.reports.size() == 1 ? " report, " : " reports, ") << entries
        << (entries == 1 ? " entry" : " entries") << ": "
        << (counts.disagreeing == 0 ? std::string("every recomputed figure agrees with the report")
                                    : std::to_string(counts.disagreeing) +
                                          (counts.disagreeing == 1 ? " entry disagrees" : " entries disagree") + " with the report");
    if (counts.unsized > 0) {
        out << "; " << counts.unsized << (counts.unsized == 1 ? " entry" : " entries") << " could not be recomputed (cut off or damaged)";
    }
    if (counts.summaries_disagreeing > 0) {
        out << "; " << counts.summaries_disagreeing << (counts.summaries_disagreeing == 1 ? " summary disagrees" : " summaries disagree")
            << " with itself";
    }
    out << '\n';
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_OOM_EXPLANATION_INSTANTIATIONS(EXTERN, P) \
    EXTERN template void print_oom_log_json<P>(std::ostream&, basic_oom_log<P> const&, oom_module_index const*); \
    EXTERN template void print_oom_log_text<P>(std::ostream&, basic_oom_log<P> const&, oom_module_index const*);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_OOM_EXPLANATION_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_OOM_EXPLANATION_HPP
