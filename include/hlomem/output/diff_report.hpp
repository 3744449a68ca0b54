// hlomem/output/diff_report.hpp: what `hlomem diff A B` prints, as text and as JSON (`--json`), for two sides
// compared by the library (<hlomem/diff.hpp>). Shared by the command (commands/diff.cpp) and the
// Python module (hlomem.diff), so that Diff.to_json() is `hlomem diff --json` byte for byte.
#ifndef HLOMEM_OUTPUT_DIFF_REPORT_HPP
#define HLOMEM_OUTPUT_DIFF_REPORT_HPP

#include <algorithm>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/diff.hpp>
#include <hlomem/hlo/attribution.hpp>

#include <hlomem/output/json_writer.hpp>
#include <hlomem/output/assignment_report.hpp>
#include <hlomem/output/donation_report.hpp>

namespace hlomem {

/// One side of a diff as the reports name and list it: what the diff calls it (the file as given;
/// for an assignment derived from a module, the module's file rather than the module's name), its
/// assignment and each value's metadata (attribute_values).
template <class P, class Q = P>
struct diff_report_side {
    std::string_view name;
    hlomem::basic_buffer_assignment<P> const& assignment;
    hlomem::basic_source_attribution<Q> const& sources;
};

inline std::string pair_text(hlomem::byte_pair const& p) {
    std::string s = pad_left(std::to_string(p.a), 14) + pad_left(std::to_string(p.b), 14) +
                    pad_left((p.delta() > 0 ? "+" : "") + std::to_string(p.delta()), 15) + "  " +
                    hlomem::signed_human_bytes(p.delta());
    if (p.a != 0 && p.delta() != 0) s += " (" + hlomem::signed_percent(p.delta(), p.a) + ")";
    return s;
}

/// The line of memory_analysis()'s peak in a diff's table, when both sides have one.
inline void print_memory_analysis_diff_text(std::ostream& out, hlomem::assignment_diff const& d) {
    if (!d.memory_a || !d.memory_b || !d.memory_a->peak_memory_in_bytes || !d.memory_b->peak_memory_in_bytes) return;
    out << "  " << pad_right("memory_analysis() peak", 32)
        << pair_text({*d.memory_a->peak_memory_in_bytes, *d.memory_b->peak_memory_in_bytes}) << '\n';
}

/// `memory_analysis` of a diff's JSON: every figure of compiled.memory_analysis() as {a, b, delta}
/// (null where a side does not state it), or null when a side has none (an older snapshot).
inline void write_memory_analysis_diff_json(json_writer& json, hlomem::assignment_diff const& d) {
    json.key("memory_analysis");
    if (!d.memory_a || !d.memory_b) {
        json.null();
        return;
    }
    json.begin_object();
    for (auto const& f : hlomem::memory_analysis_members) {
        auto const a = hlomem::value_of(*d.memory_a, f), b = hlomem::value_of(*d.memory_b, f);
        json.key(f.name).begin_object();
        json.member("a", a);
        json.member("b", b);
        json.member("delta", a && b ? std::optional<std::int64_t>(*b - *a) : std::nullopt);
        json.end_object();
    }
    json.end_object();
}

/// One color of `hlomem diff`'s text: allocated bytes by kind, the peak and its moment, padding,
/// the temp arena, the peak by source line. A diff with a snapshot side prints it too.
/// `values_known`: false when a side is a snapshot, which does not count the values live at its peak.
inline void print_color_diff_text(std::ostream& out, hlomem::color_diff const& c, bool values_known = true) {
    out << "color " << c.color << '\n';
    out << "  " << pad_right("allocated", 32) << pair_text(c.allocated_bytes) << '\n';
    for (auto const& k : c.allocated_by_kind) out << "    " << pad_right(std::string(hlomem::to_string(k.kind)), 30) << pair_text(k.bytes) << '\n';
    out << "  " << pad_right("peak live bytes", 32) << pair_text(c.peak_live_bytes) << '\n';
    auto moment = [](hlomem::side_peak const& p) {
        return p.measured ? std::to_string(p.time) + " (" + p.instruction + ")" : std::string("none (no live ranges)");
    };
    out << "    at time: A " << moment(c.peak_a) << ", B " << moment(c.peak_b);
    if (values_known) out << "; values live there: A " << c.peak_a.live.size() << ", B " << c.peak_b.live.size();
    out << '\n';
    out << "  " << pad_right("padding", 32)
        << pair_text({c.padded_bytes.a - c.unpadded_bytes.a, c.padded_bytes.b - c.unpadded_bytes.b}) << '\n';
    out << "  " << pad_right("temp arena", 32) << pair_text(c.temp_allocated_bytes) << '\n';
    out << "  " << pad_right("  its lower bound", 32) << pair_text(c.temp_lower_bound_bytes) << '\n';
    out << "  " << pad_right("  above the bound", 32) << pair_text(c.temp_above_bound()) << '\n';
    if (!c.peak_by_source.empty()) {
        out << "  the peak by source line\n";
        for (auto const& l : c.peak_by_source) {
            // A label longer than its column keeps its end, the file's name and line.
            std::string label = hlomem::line_label(l);
            if (label.size() > 30) label = "..." + label.substr(label.size() - 27);
            out << "    " << pad_right(label, 30) << pair_text(l.bytes) << '\n';
        }
    }
}

/// `remat: took effect, -1.00MiB at the peak: values computed again: ...`: a knob verdict as one
/// line, as the text, the Markdown and the page say it.
inline std::string knob_line(hlomem::knob_verdict const& k) {
    std::string effect(hlomem::to_string(k.effect));  // `took_effect` said `took effect`
    std::replace(effect.begin(), effect.end(), '_', ' ');
    return std::string(hlomem::to_string(k.knob)) + ": " + effect + ", " +
           hlomem::signed_human_bytes(k.bytes_at_peak) + " at the peak: " + k.text;
}

/// The knobs of a diff as text, one a line, before its verdict.
inline void print_knobs_text(std::ostream& out, std::vector<hlomem::knob_verdict> const& knobs) {
    for (auto const& k : knobs) out << "  knob " << knob_line(k) << '\n';
}

/// `knobs` of `diff --json`: each {knob, effect, bytes_at_peak, values [{side, id, name, bytes}], text}.
inline void write_knobs_json(json_writer& json, std::vector<hlomem::knob_verdict> const& knobs) {
    json.key("knobs").begin_array();
    for (auto const& k : knobs) {
        json.begin_object();
        json.member("knob", hlomem::to_string(k.knob));
        json.member("effect", hlomem::to_string(k.effect));
        json.member("bytes_at_peak", k.bytes_at_peak);
        json.key("values").begin_array();
        for (auto const& v : k.values) {
            json.begin_object();
            json.member("side", std::string_view(v.side == 'a' ? "a" : "b"));
            json.member("id", v.id >= 0 ? std::optional<std::int64_t>(v.id) : std::nullopt);
            json.member("name", v.name);
            json.member("bytes", v.bytes);
            json.end_object();
        }
        json.end_array();
        json.member("text", k.text);
        json.end_object();
    }
    json.end_array();
}

template <class P, class Q>
void print_diff_text(std::ostream& out, diff_report_side<P, Q> const& sa, diff_report_side<P, Q> const& sb, hlomem::assignment_diff const& d) {
    auto const& a = sa.assignment;
    auto const& b = sb.assignment;
    out << "diff of A " << sa.name << " and B " << sb.name << '\n';
    print_knobs_text(out, d.knobs);
    for (auto const& line : d.verdict) out << "  " << line << '\n';
    auto const& m = d.matching;
    out << "\nvalues: A " << a.values.size() << ", B " << b.values.size() << "; " << m.pairs.size() << " matched (";
    for (auto rule : hlomem::all_match_rules) {
        out << (rule == hlomem::match_rule::metadata ? "" : ", ") << m.count(rule) << " by " << hlomem::to_string(rule);
    }
    out << "), " << m.only_in_a.size() << " only in A, " << m.only_in_b.size() << " only in B; " << d.changes.size()
        << " matched values changed size, shape or live range\n";
    out << "\n" << pad_right("", 34) << pad_left("A", 14) << pad_left("B", 14) << pad_left("B - A", 15) << '\n';
    out << "  " << pad_right("total bytes", 32) << pair_text(d.total_bytes) << '\n';
    if (d.xla_peak_a.measured || d.xla_peak_b.measured) {
        out << "  " << pad_right("XLA's peak (HloLiveRange)", 32) << pair_text({d.xla_peak_a.bytes, d.xla_peak_b.bytes}) << '\n';
        auto moment = [](hlomem::side_xla_peak const& p) {
            if (!p.measured) return std::string("none (no live ranges)");
            std::string s = std::to_string(p.time);
            if (p.stated_time) s += *p.stated_time == p.time ? ", as the dump states" : ", the dump states " + std::to_string(*p.stated_time);
            return s;
        };
        out << "    at time: A " << moment(d.xla_peak_a) << "; B " << moment(d.xla_peak_b) << '\n';
    }
    print_memory_analysis_diff_text(out, d);
    for (auto const& c : d.colors) print_color_diff_text(out, c);
    auto value_text = [](hlomem::basic_buffer_assignment<P> const& ba, std::size_t i) {
        auto const& v = ba.values[i];
        auto const* s = ba.shape_of(v);
        return v.display_name() + " " + hlomem::human_bytes(v.size) + (s ? " " + hlomem::to_string(*s) : std::string());
    };
    auto list = [&](char const* heading, std::vector<std::size_t> const& items, auto line) {
        if (items.empty()) return;
        out << heading << '\n';
        for (std::size_t k : items) out << "  " << line(k) << '\n';
    };
    list("\nlargest values new in B", d.largest_new, [&](std::size_t j) { return value_text(b, j); });
    list("\nlargest values only in A", d.largest_removed, [&](std::size_t i) { return value_text(a, i); });
    auto change_text = [&](std::size_t k) {
        auto const& ch = d.changes[k];
        return a.values[ch.pair.a].display_name() + " -> " + b.values[ch.pair.b].display_name() + ": " +
               hlomem::human_bytes(ch.size.a) + " -> " + hlomem::human_bytes(ch.size.b) + " (" +
               hlomem::signed_human_bytes(ch.size.delta()) + ", matched by " + std::string(hlomem::to_string(ch.pair.rule)) + ")";
    };
    list("\nlargest values grown", d.largest_grown, change_text);
    list("\nlargest values shrunk", d.largest_shrunk, change_text);
}

inline void write_pair(json_writer& json, std::string_view key, hlomem::byte_pair const& p) {
    json.key(key).begin_object();
    json.member("a", p.a);
    json.member("b", p.b);
    json.member("delta", p.delta());
    json.end_object();
}


/// A color's `allocated_by_kind` in `diff --json`: each kind with A's and B's bytes and the change.
inline void write_allocated_by_kind(json_writer& json, hlomem::color_diff const& c) {
    json.key("allocated_by_kind").begin_array();
    for (auto const& k : c.allocated_by_kind) {
        json.begin_object();
        json.member("kind", hlomem::to_string(k.kind));
        json.member("a", k.bytes.a);
        json.member("b", k.bytes.b);
        json.member("delta", k.bytes.delta());
        json.end_object();
    }
    json.end_array();
}

template <class P, class Q>
void write_value(json_writer& json, diff_report_side<P, Q> const& side, std::size_t i, value_text_cache<P>& shapes) {
    json.begin_object();
    write_value_members(json, side.assignment, side.assignment.values[i], shapes, side.sources);
    json.end_object();
}

/// The keys of a diff of two dumps or modules that list values: matching (counts by rule),
/// matched_values, only_in_a, only_in_b, changes and the largest new, removed, grown and shrunk.
template <class P, class Q>
void write_value_lists_json(json_writer& json, diff_report_side<P, Q> const& sa, diff_report_side<P, Q> const& sb,
                            hlomem::assignment_diff const& d) {
    auto const& a = sa.assignment;
    auto const& b = sb.assignment;
    auto const& m = d.matching;
    value_text_cache<P> shapes_a(a), shapes_b(b);
    json.key("matching").begin_object();
    json.member("a_values", a.values.size());
    json.member("b_values", b.values.size());
    json.member("matched", m.pairs.size());
    for (auto rule : hlomem::all_match_rules) json.member(std::string("by_") + std::string(hlomem::to_string(rule)), m.count(rule));
    json.end_object();
    auto pair_members = [&](hlomem::value_pair const& p) {
        json.member("rule", hlomem::to_string(p.rule));
        json.key("a");
        write_value(json, sa, p.a, shapes_a);
        json.key("b");
        write_value(json, sb, p.b, shapes_b);
    };
    json.key("matched_values").begin_array();
    for (auto const& p : m.pairs) {
        json.begin_object();
        pair_members(p);
        json.end_object();
    }
    json.end_array();
    json.key("only_in_a").begin_array();
    for (std::size_t i : m.only_in_a) write_value(json, sa, i, shapes_a);
    json.end_array();
    json.key("only_in_b").begin_array();
    for (std::size_t j : m.only_in_b) write_value(json, sb, j, shapes_b);
    json.end_array();
    json.key("changes").begin_array();
    for (auto const& ch : d.changes) {
        json.begin_object();
        pair_members(ch.pair);
        write_pair(json, "size", ch.size);
        json.member("size_changed", ch.size_changed);
        json.member("shape_changed", ch.shape_changed);
        json.member("live_range_changed", ch.live_range_changed);
        json.end_object();
    }
    json.end_array();
    auto ids = [&](std::string_view key, hlomem::basic_buffer_assignment<P> const& ba, std::vector<std::size_t> const& list) {
        json.key(key).begin_array();
        for (std::size_t i : list) json.value(ba.values[i].id);
        json.end_array();
    };
    ids("largest_new", b, d.largest_new);
    ids("largest_removed", a, d.largest_removed);
    for (auto const& [key, list] : {std::pair<std::string_view, std::vector<std::size_t> const*>{"largest_grown", &d.largest_grown},
                                    std::pair<std::string_view, std::vector<std::size_t> const*>{"largest_shrunk", &d.largest_shrunk}}) {
        json.key(key).begin_array();
        for (std::size_t k : *list) {
            json.begin_object();
            json.member("a", a.values[d.changes[k].pair.a].id);
            json.member("b", b.values[d.changes[k].pair.b].id);
            json.member("delta", d.changes[k].size.delta());
            json.end_object();
        }
        json.end_array();
    }
}

/// What a diff document is written from: the diff, each side's name and donations, and, for two
/// dumps or modules, both sides' assignments and attributions (`a`, `b`), which the values, their
/// matching and the ids of each peak need. A diff with a snapshot side has neither; its document
/// has the same keys, null where a snapshot cannot know, and `not_compared` says which.
template <class P, class Q = P>
struct diff_document {
    std::string_view name_a, name_b;
    hlomem::assignment_diff const& d;
    hlomem::donation_analysis const& donations_a;
    hlomem::donation_analysis const& donations_b;
    diff_report_side<P, Q> const* a = nullptr;  ///< both sides or neither
    diff_report_side<P, Q> const* b = nullptr;
    std::vector<std::string> const* not_compared = nullptr;  ///< null: everything is compared
};

/// `hlomem diff --json`, one document for every pair of sides (dumps, modules, snapshots): kind, a,
/// b, verdict, knobs (write_knobs_json), not_compared, total_bytes, xla_peak {time, stated_time, bytes}, memory_analysis,
/// colors, matching, matched_values, only_in_a, only_in_b, changes, largest_new, largest_removed,
/// largest_grown, largest_shrunk, donations {a, b}. With a snapshot side, what needs the values
/// is null: the XLA peak's moments, each color's live_at_peak and the values of each source line,
/// the matching and the lists of values.
template <class P, class Q>
void print_diff_json(std::ostream& os, diff_document<P, Q> const& doc) {
    auto const& d = doc.d;
    bool const values = doc.a && doc.b;
    json_writer json(os);
    json.begin_object();
    json.member("kind", "diff");
    json.member("a", doc.name_a);
    json.member("b", doc.name_b);
    json.key("verdict").begin_array();
    for (auto const& line : d.verdict) json.value(line);
    json.end_array();
    write_knobs_json(json, d.knobs);
    json.key("not_compared").begin_array();
    if (doc.not_compared) {
        for (auto const& line : *doc.not_compared) json.value(line);
    }
    json.end_array();
    write_pair(json, "total_bytes", d.total_bytes);
    json.key("xla_peak").begin_object();
    for (auto const& [key, get] : {std::pair<std::string_view, std::optional<std::int64_t> (*)(hlomem::side_xla_peak const&)>{
                                       "time", [](hlomem::side_xla_peak const& p) { return p.measured ? std::optional<std::int64_t>(p.time) : std::nullopt; }},
                                   {"stated_time", [](hlomem::side_xla_peak const& p) { return p.stated_time; }}}) {
        json.key(key).begin_object();
        json.member("a", values ? get(d.xla_peak_a) : std::nullopt);
        json.member("b", values ? get(d.xla_peak_b) : std::nullopt);
        json.end_object();
    }
    write_pair(json, "bytes", {d.xla_peak_a.bytes, d.xla_peak_b.bytes});
    json.end_object();
    write_memory_analysis_diff_json(json, d);
    json.key("colors").begin_array();
    for (auto const& c : d.colors) {
        json.begin_object();
        json.member("color", c.color);
        write_pair(json, "allocated_bytes", c.allocated_bytes);
        write_pair(json, "peak_live_bytes", c.peak_live_bytes);
        auto moment = [&](std::string_view key, auto get) {
            json.key(key).begin_object();
            json.member("a", get(c.peak_a));
            json.member("b", get(c.peak_b));
            json.end_object();
        };
        moment("peak_time", [](hlomem::side_peak const& p) { return p.measured ? std::optional<std::int64_t>(p.time) : std::nullopt; });
        moment("peak_instruction", [](hlomem::side_peak const& p) { return p.measured ? std::optional<std::string>(p.instruction) : std::nullopt; });
        // The ids of values of side `s` (null without its values: a snapshot keeps none).
        auto ids = [&](std::string_view key, diff_report_side<P, Q> const* s, std::vector<std::size_t> const& list) {
            json.key(key);
            if (!s) {
                json.null();
                return;
            }
            json.begin_array();
            for (std::size_t i : list) json.value(s->assignment.values[i].id);
            json.end_array();
        };
        json.key("live_at_peak").begin_object();
        ids("a", doc.a, c.peak_a.live);
        ids("b", doc.b, c.peak_b.live);
        json.end_object();
        write_allocated_by_kind(json, c);
        json.key("peak_by_source").begin_array();
        for (auto const& l : c.peak_by_source) {
            json.begin_object();
            auto known = [&](std::string const& text) { return l.known && l.argument < 0 ? std::optional<std::string>(text) : std::nullopt; };
            json.member("source_file", known(l.source_file));
            json.member("source_file_b", l.known && !l.source_file_b.empty() ? std::optional<std::string>(l.source_file_b) : std::nullopt);
            json.member("relative_file", known(l.relative_file));
            json.member("source_line", l.known && l.argument < 0 && l.source_line ? std::optional<std::int64_t>(l.source_line) : std::nullopt);
            json.member("argument", l.argument >= 0 ? std::optional<std::int64_t>(l.argument) : std::nullopt);
            json.member("a", l.bytes.a);
            json.member("b", l.bytes.b);
            json.member("delta", l.bytes.delta());
            ids("values_a", doc.a, l.values_a);
            ids("values_b", doc.b, l.values_b);
            json.end_object();
        }
        json.end_array();
        write_pair(json, "padded_bytes", c.padded_bytes);
        write_pair(json, "unpadded_bytes", c.unpadded_bytes);
        write_pair(json, "temp_allocated_bytes", c.temp_allocated_bytes);
        write_pair(json, "temp_lower_bound_bytes", c.temp_lower_bound_bytes);
        write_pair(json, "temp_above_bound_bytes", c.temp_above_bound());
        json.end_object();
    }
    json.end_array();
    if (values) {
        write_value_lists_json(json, *doc.a, *doc.b, d);
    } else {
        for (char const* key : {"matching", "matched_values", "only_in_a", "only_in_b", "changes", "largest_new", "largest_removed",
                                "largest_grown", "largest_shrunk"}) {
            json.key(key).null();
        }
    }
    json.key("donations").begin_object();
    json.key("a");
    write_donations_json(json, doc.donations_a);
    json.key("b");
    write_donations_json(json, doc.donations_b);
    json.end_object();
    json.end_object();
    json.finish();
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_DIFF_REPORT_INSTANTIATIONS(EXTERN, P) \
    EXTERN template void print_diff_text<P, P>(std::ostream&, diff_report_side<P, P> const&, diff_report_side<P, P> const&, assignment_diff const&); \
    EXTERN template void print_diff_json<P, P>(std::ostream&, diff_document<P, P> const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_DIFF_REPORT_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_DIFF_REPORT_HPP
