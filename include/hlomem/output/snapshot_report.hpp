// hlomem/output/snapshot_report.hpp: what `hlomem snapshot` writes (the snapshot's JSON, which
// read_snapshot in diff/snapshot.hpp reads back), the text `hlomem diff` prints when a side is a
// snapshot (its JSON is output/diff_report.hpp's one diff document), the Markdown of any diff for
// a pull-request comment (`hlomem diff --format markdown`); the donations in both are
// output/donation_report.hpp's.
//
// The snapshot's JSON is deterministic: the keys in one order, the colors by number, the rows and
// values in the order make_snapshot gives them, integers only, paths relative; the same
// compilation gives the same bytes on every run and machine.
#ifndef HLOMEM_OUTPUT_SNAPSHOT_REPORT_HPP
#define HLOMEM_OUTPUT_SNAPSHOT_REPORT_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/diff/assignment_diff.hpp>
#include <hlomem/diff/snapshot.hpp>
#include <hlomem/diff/snapshot_diff.hpp>
#include <hlomem/diff/threshold.hpp>
#include <hlomem/hlo/donation.hpp>

#include <hlomem/output/diff_report.hpp>
#include <hlomem/output/donation_report.hpp>
#include <hlomem/output/json_writer.hpp>
#include <hlomem/output/memory_analysis_report.hpp>

namespace hlomem {

/// The snapshot as `hlomem snapshot` writes it (see the file's comment).
inline void write_snapshot_json(std::ostream& os, memory_snapshot const& s) {
    json_writer json(os);
    json.begin_object();
    json.member("kind", "hlomem_snapshot");
    json.member("format_version", s.format_version);
    json.member("total_bytes", s.total_bytes);
    json.member("xla_peak_bytes", s.xla_peak_measured ? std::optional<std::int64_t>(s.xla_peak_bytes) : std::nullopt);
    json.key("colors").begin_array();
    for (auto const& c : s.colors) {
        json.begin_object();
        json.member("color", c.color);
        json.member("allocated_bytes", c.allocated_bytes);
        json.key("allocated_by_kind").begin_array();
        for (auto const& [kind, bytes] : c.allocated_by_kind) {
            json.begin_object();
            json.member("kind", to_string(kind));
            json.member("bytes", bytes);
            json.end_object();
        }
        json.end_array();
        json.member("peak_bytes", c.peak_measured ? std::optional<std::int64_t>(c.peak_bytes) : std::nullopt);
        json.member("peak_time", c.peak_measured ? std::optional<std::int64_t>(c.peak_time) : std::nullopt);
        json.member("peak_instruction", c.peak_measured ? std::optional<std::string>(c.peak_instruction) : std::nullopt);
        json.member("padded_bytes", c.padded_bytes);
        json.member("unpadded_bytes", c.unpadded_bytes);
        json.member("temp_allocated_bytes", c.temp_allocated_bytes);
        json.member("temp_lower_bound_bytes", c.temp_lower_bound_bytes);
        json.key("peak_by_source").begin_array();
        for (auto const& l : c.peak_by_source) {
            json.begin_object();
            if (l.argument >= 0) {  // bytes traced to an argument of the function
                json.member("argument", l.argument);
                json.member("label", l.file);
                json.member("bytes", l.bytes);
                json.end_object();
                continue;
            }
            json.member("source_file", l.known ? std::optional<std::string>(l.file) : std::nullopt);
            json.member("source_line", l.known ? std::optional<std::int64_t>(l.line) : std::nullopt);
            json.member("bytes", l.bytes);
            json.end_object();
        }
        json.end_array();
        json.key("largest_at_peak").begin_array();
        for (auto const& v : c.largest_at_peak) {
            json.begin_object();
            json.member("name", v.name);
            json.member("size", v.size);
            json.member("bytes_at_peak", v.bytes_at_peak);
            json.member("shape", v.shape);
            json.member("op_type", v.op_type);
            json.member("op_name", v.op_name);
            json.member("source_file", v.source_file);
            json.member("source_line", v.source_line);
            json.end_object();
        }
        json.end_array();
        json.end_object();
    }
    json.end_array();
    json.key("donations");
    write_donations_json(json, s.donations);
    json.key("memory_analysis");
    if (s.memory) {
        write_memory_analysis_json(json, *s.memory);
    } else {
        json.null();
    }
    json.end_object();
    json.finish();
}

/// `hlomem diff` when a side is a snapshot, as text: the verdict, what is not compared, the
/// figures per color, the largest values at each peak and the donations of each side.
inline void print_snapshot_diff_text(std::ostream& out, std::string_view name_a, std::string_view name_b, snapshot_diff const& sd) {
    auto const& d = sd.d;
    out << "diff of A " << name_a << " and B " << name_b << '\n';
    print_knobs_text(out, d.knobs);
    for (auto const& line : d.verdict) out << "  " << line << '\n';
    out << "\nnot compared (a side is a snapshot):\n";
    for (auto const& line : sd.not_compared) out << "  " << line << '\n';
    out << "\n" << pad_right("", 34) << pad_left("A", 14) << pad_left("B", 14) << pad_left("B - A", 15) << '\n';
    out << "  " << pad_right("total bytes", 32) << pair_text(d.total_bytes) << '\n';
    if (d.xla_peak_a.measured || d.xla_peak_b.measured) {
        out << "  " << pad_right("XLA's peak (HloLiveRange)", 32) << pair_text({d.xla_peak_a.bytes, d.xla_peak_b.bytes}) << '\n';
    }
    print_memory_analysis_diff_text(out, d);
    for (auto const& c : d.colors) print_color_diff_text(out, c, false);
    for (bool side_b : {false, true}) {
        memory_snapshot const& s = side_b ? sd.b : sd.a;
        for (auto const& c : s.colors) {
            if (c.largest_at_peak.empty()) continue;
            out << "\nlargest values at " << (side_b ? "B" : "A") << "'s peak, color " << c.color << '\n';
            for (auto const& v : c.largest_at_peak) {
                out << "  " << v.name << " " << human_bytes(v.bytes_at_peak) << " " << v.shape;
                if (!v.source_file.empty()) out << " " << v.source_file << ":" << v.source_line;
                out << '\n';
            }
        }
        out << "\ndonations of " << (side_b ? "B" : "A") << '\n';
        print_donations_text(out, s.donations, "  ");
    }
}

/// What a diff's gate found (`--fail-above`, `--fail-on-unused-donation`): one line per failure.
struct gate_result {
    bool checked = false;  ///< a gate was asked for
    std::vector<std::string> failures;
};

/// The gate on a diff: each color whose figure `measure` names grew by more than `fail_above`
/// allows (exceeded_text, diff/threshold.hpp), and with `fail_on_unused`, each parameter that B
/// donated and no output took (`donations_b`, hlo/donation.hpp).
inline gate_result diff_gate(assignment_diff const& d, std::optional<diff_threshold> const& fail_above, gate_measure measure,
                             bool fail_on_unused, donation_analysis const& donations_b) {
    gate_result gate;
    gate.checked = fail_above || fail_on_unused;
    for (auto const& c : d.colors) {
        if (fail_above && fail_above->exceeded(measured(c, measure))) gate.failures.push_back(exceeded_text(c, measure));
    }
    if (!fail_on_unused) return gate;
    for (auto const& p : donations_b.unused) {
        gate.failures.push_back("B's parameter " + std::to_string(p.parameter_number) + " " + p.parameter_index + " " + p.shape +
                                " was donated and no output took it (--fail-on-unused-donation)");
    }
    return gate;
}

namespace detail {

inline std::string markdown_change(byte_pair const& p) {
    std::string s = signed_human_bytes(p.delta());
    if (p.a != 0 && p.delta() != 0) s += " (" + signed_percent(p.delta(), p.a) + ")";
    return s;
}

inline std::string markdown_row(std::string const& what, byte_pair const& p) {
    return "| " + what + " | " + human_bytes(p.a) + " | " + human_bytes(p.b) + " | " + markdown_change(p) + " |\n";
}

}  // namespace detail

/// Any diff as Markdown for a pull-request comment: the gate's result, the knobs, the verdict, per color the
/// peak and the total, what moved at the peak by source line (at most `rows` rows, largest move
/// first) and the bytes by kind of allocation that moved; `not_compared` when a side is a
/// snapshot.
inline void print_diff_markdown(std::ostream& out, std::string_view name_a, std::string_view name_b, assignment_diff const& d,
                                std::size_t rows, gate_result const& gate, std::vector<std::string> const& not_compared = {}) {
    out << "### hlomem: memory of `" << name_b << "` against `" << name_a << "`\n\n";
    if (gate.checked) {
        if (gate.failures.empty()) out << "**Gate: passed.**\n\n";
        else out << "**Gate: failed.**\n\n";
        for (auto const& f : gate.failures) out << "- " << f << '\n';
        if (!gate.failures.empty()) out << '\n';
    }
    if (!d.knobs.empty()) {
        out << "**Knobs**\n\n";
        for (auto const& k : d.knobs) out << "- " << knob_line(k) << '\n';
        out << '\n';
    }
    for (auto const& line : d.verdict) out << "> " << line << "  \n";
    out << "\n| | A | B | change |\n|---|---:|---:|---:|\n";
    out << detail::markdown_row("total bytes", d.total_bytes);
    if (d.memory_a && d.memory_b && d.memory_a->peak_memory_in_bytes && d.memory_b->peak_memory_in_bytes) {
        out << detail::markdown_row("memory_analysis() peak", {*d.memory_a->peak_memory_in_bytes, *d.memory_b->peak_memory_in_bytes});
    }
    for (auto const& c : d.colors) {
        out << detail::markdown_row("color " + std::to_string(c.color) + ": peak", c.peak_live_bytes);
        out << detail::markdown_row("color " + std::to_string(c.color) + ": total", c.allocated_bytes);
    }
    for (auto const& c : d.colors) {
        std::vector<source_line_bytes const*> moved;
        for (auto const& l : c.peak_by_source) {
            if (l.bytes.delta() != 0) moved.push_back(&l);
        }
        if (!moved.empty()) {
            out << "\n**Color " << c.color << ", the peak by source line** (what moved most first)\n\n";
            out << "| source line | A | B | change |\n|---|---:|---:|---:|\n";
            for (std::size_t k = 0; k < moved.size() && k < rows; ++k) {
                std::string const label = line_label(*moved[k]);
                out << detail::markdown_row(moved[k]->known ? "`" + label + "`" : label, moved[k]->bytes);
            }
            if (moved.size() > rows) out << "\n" << moved.size() - rows << " more source lines moved (`--rows` shows more).\n";
        }
        bool any = false;
        for (auto const& k : c.allocated_by_kind) {
            if (k.bytes.delta() == 0) continue;
            if (!any) out << "\n**Color " << c.color << ", the bytes by kind of allocation**\n\n| kind | A | B | change |\n|---|---:|---:|---:|\n";
            any = true;
            out << detail::markdown_row(std::string(to_string(k.kind)), k.bytes);
        }
    }
    if (!not_compared.empty()) {
        out << "\nNot compared (a side is a snapshot):\n\n";
        for (auto const& line : not_compared) out << "- " << line << '\n';
    }
}

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_SNAPSHOT_REPORT_HPP
