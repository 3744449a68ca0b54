// hlomem/diff/assignment_diff.hpp: why memory changed between two compilations of one program —
// the diff of two buffer assignments (dumps, or assignments derived from modules).
//
//   auto const sa = hlomem::attribute_values(a), sb = hlomem::attribute_values(b);  // hlo/attribution.hpp
//   hlomem::assignment_diff d = hlomem::diff_assignments(a, sa, b, sb);
//   d.verdict              // "color 0: the peak shrank by 1000.00MiB ...", the line that explains most of it
//   d.colors[0].peak_live_bytes.delta()
//   d.matching.pairs       // which value of A is which of B, and by which rule (diff/match.hpp)
//
// Per color it compares what `hlomem report` measures on each side: the bytes allocated, by
// allocation kind; the peak of live assigned bytes (memory/peak.hpp: the union of the slices of
// the values live at each time, shared bytes once) and its moment; the values live at each peak
// and the peak by source line (below); padding (memory/analysis.hpp padding_by_color); the temp
// arena against its lower bound (lower_bounds: what no allocator can beat). The matched pairs
// whose size, shape or live range differ are the changes; the largest new, removed, grown and
// shrunk values are listed. Every figure is A's, B's and B − A: A is the baseline.
//
// The peak by source line splits each side's peak exactly: each byte live at the peak is held by
// one value (memory/peak_holdings.hpp, values with a source line first), so bytes that values
// share on purpose, in place or as loop state, count once and the lines add up to the peak
// (hlo/attribution.hpp peak_by_source_line). Values without a source line form one group.
// A file is one file on both sides even where two checkouts or machines put it under different
// roots (hlo/source_path.hpp match_source_files): its lines are one row each, with A's and B's
// bytes, shown by the path tail the two share (`src/common/cholesky_2d.py:204`).
#ifndef HLOMEM_DIFF_ASSIGNMENT_DIFF_HPP
#define HLOMEM_DIFF_ASSIGNMENT_DIFF_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <hlomem/memory/memory_analysis.hpp>
#include <hlomem/core/human_bytes.hpp>
#include <hlomem/core/shape_text.hpp>
#include <hlomem/core/size_function.hpp>
#include <hlomem/diff/diff_model.hpp>
#include <hlomem/diff/knobs.hpp>
#include <hlomem/diff/match.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/hlo/attribution.hpp>
#include <hlomem/hlo/metadata.hpp>
#include <hlomem/hlo/source_path.hpp>
#include <hlomem/memory/analysis.hpp>
#include <hlomem/memory/peak.hpp>
#include <hlomem/memory/peak_holdings.hpp>
#include <hlomem/memory/soundness.hpp>

namespace hlomem {

namespace detail {

/// What the diff measures on one side, computed once.
template <class P, class Q>
struct diff_side {
    basic_buffer_assignment<P> const& ba;
    basic_source_attribution<Q> const& sources;
    std::vector<color_live_bytes> live;
    /// Each color's temp arena: what XLA allocated to it and its lower bound (lower_bounds, as the
    /// report computes it; the bound over every buffer of the color, which the diff does not
    /// report, is not computed).
    std::vector<color_bounds> temp;
    std::vector<kind_totals> totals;  ///< allocation_totals
    std::vector<color_padding> padding;
    std::vector<std::string> shape_texts;  // by shape id

    diff_side(basic_buffer_assignment<P> const& a, basic_source_attribution<Q> const& s)
        : ba(a), sources(s), shape_texts(a.shapes.size()) {
        auto const buffers = shared_buffers(a);
        // A sound side (check_soundness finds no overlap or overrun) sums its live buffers over
        // time, O(n + max), instead of the segment tree's union of slices (memory/analysis.hpp).
        live = assigned_live_bytes(a, buffers, check_soundness(a));
        temp = lower_bounds(a, buffers, /*over_all_buffers=*/false);
        totals = allocation_totals(a);
        padding = padding_by_color(a, buffers, size_function_of(a), live);
        for (std::size_t k = 0; k < a.shapes.size(); ++k) shape_texts[k] = to_string(a.shapes[static_cast<shape_id>(k)]);
    }
    template <class T>
    static T const* of_color(std::vector<T> const& list, std::int64_t color) {
        auto it = std::find_if(list.begin(), list.end(), [&](T const& x) { return x.color == color; });
        return it == list.end() ? nullptr : &*it;
    }
    std::string_view shape_text(std::size_t i) const {
        auto const id = ba.values[i].shape;
        return id == no_shape ? std::string_view() : std::string_view(shape_texts[static_cast<std::size_t>(id)]);
    }
};

/// Fills one side of a color's figures; `b` says which side.
template <class P, class Q>
void measure_color(diff_side<P, Q> const& s, source_file_index const& files, color_diff& c, bool b,
                   std::map<std::tuple<bool, std::string, std::int64_t>, source_line_bytes>& lines) {
    auto pick = [&](byte_pair& pair) -> std::int64_t& { return b ? pair.b : pair.a; };
    for (auto const& total : s.totals) {
        if (total.color != c.color) continue;
        pick(c.allocated_bytes) += total.bytes;
        allocation_kind const kind = total.kind;
        auto it = std::find_if(c.allocated_by_kind.begin(), c.allocated_by_kind.end(), [&](kind_bytes const& k) { return k.kind == kind; });
        if (it == c.allocated_by_kind.end()) it = c.allocated_by_kind.insert(c.allocated_by_kind.end(), kind_bytes{kind, {}});
        pick(it->bytes) += total.bytes;
    }
    if (auto const* p = diff_side<P, Q>::of_color(s.padding, c.color)) {
        pick(c.padded_bytes) = p->padded_bytes;
        pick(c.unpadded_bytes) = p->unpadded_bytes;
    }
    if (auto const* arena = diff_side<P, Q>::of_color(s.temp, c.color)) {
        pick(c.temp_allocated_bytes) = arena->temp_allocated_bytes;
        pick(c.temp_lower_bound_bytes) = arena->temp.bytes;
    }
    auto const* live = diff_side<P, Q>::of_color(s.live, c.color);
    if (!live) return;
    side_peak& peak = b ? c.peak_b : c.peak_a;
    peak.measured = true;
    peak.time = live->peak_time;
    peak.instruction = std::string(s.ba.live_range->instruction_at(live->peak_time));
    pick(c.peak_live_bytes) = live->peak_bytes;
    auto const holdings = holdings_at(s.ba, c.color, live->peak_time, sourced_value_first<P, Q>{s.ba, s.sources});
    peak.holdings = holdings.values;
    // By the line (or argument) each value's bytes are traced to, own or inherited alike.
    for (auto const& group : group_holdings(holdings, [&](std::size_t v) { return origin_line_key(s.sources.origin_of(v)); })) {
        bool const known = !group.key.is_no_source();
        if (group.key.is_argument()) {
            auto& line = lines[{true, std::string(), -1 - group.key.argument}];
            line.known = true;
            line.argument = group.key.argument;
            line.relative_file = c_unescape(argument_label(group.key.argument, group.key.argument_name, group.key.donated));
            pick(line.bytes) += group.bytes;
            (b ? line.values_b : line.values_a) = group.values;
            continue;
        }
        // Keyed by the path the file has on both sides (A's), so that a file under two roots
        // is one row, and rows of equal bytes keep the order of their paths.
        auto& line = lines[{known, std::string(files.key_of(group.key.source_file, b)), group.key.source_line}];
        line.known = known;
        if (auto const* f = known ? files.find(group.key.source_file, b) : nullptr) {
            line.source_file = c_unescape(f->a.empty() ? f->b : f->a);
            line.source_file_b = c_unescape(f->b);
            line.relative_file = c_unescape(f->shown);
        }
        line.source_line = group.key.source_line;
        pick(line.bytes) += group.bytes;
        (b ? line.values_b : line.values_a) = group.values;
    }
    for (auto const& h : holdings.values) peak.live.push_back(h.value);
    // Largest assigned size first (ties by index), as values_live_at lists them.
    std::stable_sort(peak.live.begin(), peak.live.end(), [&](std::size_t x, std::size_t y) {
        return s.ba.values[x].size != s.ba.values[y].size ? s.ba.values[x].size > s.ba.values[y].size : x < y;
    });
}

/// The rows of `lines` (keyed by found, file and line) into `out`, largest |delta| first, then the
/// most bytes on either side; rows of equal figures keep the order of their keys.
inline void sort_peak_by_source(std::map<std::tuple<bool, std::string, std::int64_t>, source_line_bytes>& lines,
                                std::vector<source_line_bytes>& out) {
    for (auto& entry : lines) out.push_back(std::move(entry.second));
    std::stable_sort(out.begin(), out.end(), [](source_line_bytes const& x, source_line_bytes const& y) {
        std::int64_t const dx = std::abs(x.bytes.delta()), dy = std::abs(y.bytes.delta());
        if (dx != dy) return dx > dy;
        return std::max(x.bytes.a, x.bytes.b) > std::max(y.bytes.a, y.bytes.b);
    });
}

template <class P>
side_xla_peak xla_peak_of(basic_buffer_assignment<P> const& ba) {
    side_xla_peak out;
    if (!ba.live_range || ba.live_range->not_available) return out;
    auto const peak = compute_xla_peak(ba);
    out.measured = true;
    out.time = peak.time;
    for (auto size : peak.sizes) out.bytes += size;
    if (ba.live_range->stated_peak) out.stated_time = ba.live_range->stated_peak->time;
    return out;
}

}  // namespace detail

/// `model.py:54` (the file's name without its folders) for a line of an absolute path;
/// `src/common/cholesky_2d.py:204` for one shown relative (relative_file: the tail two checkouts
/// share, or the path below a stripped root); `values with no source` for the values without one.
inline std::string line_label(source_line_bytes const& l) {
    if (!l.known) return "values with no source";
    if (l.argument >= 0) return l.relative_file;
    std::string file = l.relative_file;
    auto const slash = file.find_last_of('/');
    if (!file.empty() && file.front() == '/' && slash != std::string::npos) file = file.substr(slash + 1);
    return file + (l.source_line ? ":" + std::to_string(l.source_line) : std::string());
}

namespace detail {

inline std::string describe_peak(side_peak const& p, std::int64_t bytes) {
    if (!p.measured) return "no peak";
    return human_bytes(bytes) + " at " + std::to_string(p.time) + (p.instruction.empty() ? std::string() : " (" + p.instruction + ")");
}

/// `A -> B (+D, +P%)`.
inline std::string describe_change(byte_pair const& p) {
    std::string s = human_bytes(p.a) + " -> " + human_bytes(p.b) + " (" + signed_human_bytes(p.delta());
    if (p.a != 0 && p.delta() != 0) s += ", " + signed_percent(p.delta(), p.a);
    return s + ")";
}

/// `, 62% of the change` when `part` explains that share of `whole` (0 < share <= 100%); when
/// other parts move the other way, the share is not a share, and nothing is said.
inline std::string share_of(std::int64_t part, std::int64_t whole) {
    if (whole == 0 || (part > 0) != (whole > 0)) return std::string();
    double const share = 100.0 * static_cast<double>(part) / static_cast<double>(whole);
    if (share > 100.0) return std::string();
    return ", " + std::to_string(static_cast<long long>(share + 0.5)) + "% of the change";
}

/// `most of it: ` when `part` is at least half of `whole`, `the largest part: ` otherwise.
inline std::string lead(std::int64_t part, std::int64_t whole) {
    return 2 * std::abs(part) >= std::abs(whole) ? "most of it: " : "the largest part: ";
}

/// What moved a color's peak most: the source line with the largest move in the direction of the
/// change; without sources, the value (a matched pair compared, or a value of one side alone).
/// The first half of explain_peak, all that a snapshot allows (diff/snapshot_diff.hpp): the
/// source line with the largest move in the direction of the change; empty when none is known.
inline std::string explain_peak_by_line(color_diff const& c) {
    std::int64_t const delta = c.peak_live_bytes.delta();
    source_line_bytes const* line = nullptr;
    for (auto const& l : c.peak_by_source) {
        if (l.bytes.delta() == 0 || (l.bytes.delta() > 0) != (delta > 0)) continue;
        if (!line || std::abs(l.bytes.delta()) > std::abs(line->bytes.delta())) line = &l;
    }
    if (!line || !line->known) return std::string();
    return lead(line->bytes.delta(), delta) + line_label(*line) + " holds " + human_bytes(line->bytes.a) + " at A's peak and " +
           human_bytes(line->bytes.b) + " at B's (" + signed_human_bytes(line->bytes.delta()) + share_of(line->bytes.delta(), delta) +
           ")";
}

template <class P, class Q>
std::string explain_peak(assignment_diff const& d, color_diff const& c, diff_side<P, Q> const& sa, diff_side<P, Q> const& sb) {
    std::int64_t const delta = c.peak_live_bytes.delta();
    if (std::string by_line = explain_peak_by_line(c); !by_line.empty()) return by_line;
    // The bytes each value holds at its side's peak, by value index (-1: not live there): every
    // matched pair is looked up, 10^6 of them in a large diff.
    auto held = [](std::vector<value_holding> const& holdings, std::size_t values) {
        std::vector<std::int64_t> out(values, -1);
        for (auto const& h : holdings) out[h.value] = h.bytes;
        return out;
    };
    std::vector<std::int64_t> const at_a = held(c.peak_a.holdings, sa.ba.values.size());
    std::vector<std::int64_t> const at_b = held(c.peak_b.holdings, sb.ba.values.size());
    std::int64_t best = 0;
    std::string what;
    auto consider = [&](std::int64_t share_a, std::int64_t share_b, std::string const& name) {
        std::int64_t const moved = share_b - share_a;
        if (moved == 0 || (moved > 0) != (delta > 0) || std::abs(moved) <= std::abs(best)) return;
        best = moved;
        what = name + " holds " + human_bytes(share_a) + " at A's peak and " + human_bytes(share_b) + " at B's";
    };
    for (auto const& p : d.matching.pairs) {
        std::int64_t const ha = at_a[p.a], hb = at_b[p.b];
        if (ha < 0 && hb < 0) continue;
        std::string name = sa.ba.values[p.a].display_name();
        if (sb.ba.values[p.b].display_name() != name) name += " (in B " + sb.ba.values[p.b].display_name() + ")";
        consider(std::max<std::int64_t>(ha, 0), std::max<std::int64_t>(hb, 0), "value " + name);
    }
    for (std::size_t i : d.matching.only_in_a) {
        if (at_a[i] >= 0) consider(at_a[i], 0, "value " + sa.ba.values[i].display_name() + " (only in A)");
    }
    for (std::size_t j : d.matching.only_in_b) {
        if (at_b[j] >= 0) consider(0, at_b[j], "value " + sb.ba.values[j].display_name() + " (only in B)");
    }
    if (best == 0) return std::string();
    return lead(best, delta) + what + " (" + signed_human_bytes(best) + share_of(best, delta) + ")";
}

/// The verdict, in one or two lines. When a peak moved at least half as much as the total bytes
/// did, the peak is the story: the color whose peak moved most, and what moved it. Otherwise the
/// allocations are: the total, the kind of allocation that moved most, and for a temp arena, the
/// most bytes live in it at once (what it cannot be smaller than).
/// `explain(c)` says what moved color c's peak (explain_peak, or explain_peak_by_line).
template <class Explain>
std::vector<std::string> verdict_of(assignment_diff const& d, Explain explain) {
    std::vector<std::string> out;
    color_diff const* top = nullptr;
    for (auto const& c : d.colors) {
        if (!top || std::abs(c.peak_live_bytes.delta()) > std::abs(top->peak_live_bytes.delta())) top = &c;
    }
    std::int64_t const peak_delta = top ? top->peak_live_bytes.delta() : 0;
    std::int64_t const total_delta = d.total_bytes.delta();
    if (peak_delta == 0 && total_delta == 0) {
        out.push_back("no change in memory: the total bytes (" + human_bytes(d.total_bytes.a) +
                      ") and the peak of every color are the same in A and B");
        return out;
    }
    if (2 * std::abs(peak_delta) >= std::abs(total_delta)) {
        auto const& c = *top;
        out.push_back("color " + std::to_string(c.color) + ": the peak " + (peak_delta > 0 ? "grew" : "shrank") + " by " +
                      human_bytes(std::abs(peak_delta)) +
                      (c.peak_live_bytes.a ? " (" + signed_percent(peak_delta, c.peak_live_bytes.a) + ")" : std::string()) + ", " +
                      describe_peak(c.peak_a, c.peak_live_bytes.a) + " -> " + describe_peak(c.peak_b, c.peak_live_bytes.b) +
                      "; total bytes " + describe_change(d.total_bytes));
        std::string why = explain(c);
        if (!why.empty()) out.push_back(std::move(why));
        return out;
    }
    // The allocations moved more than any peak: which kind, in which color.
    color_diff const* where = nullptr;
    kind_bytes const* kind = nullptr;
    for (auto const& c : d.colors) {
        for (auto const& k : c.allocated_by_kind) {
            if (!kind || std::abs(k.bytes.delta()) > std::abs(kind->bytes.delta())) {
                kind = &k;
                where = &c;
            }
        }
    }
    std::string headline = "total bytes " + std::string(total_delta > 0 ? "grew" : "shrank") + " by " +
                           human_bytes(std::abs(total_delta)) + ": " + describe_change(d.total_bytes);
    if (top) {
        headline += "; the peak of color " + std::to_string(top->color) + " " +
                    (peak_delta == 0 ? std::string("stayed at ") + human_bytes(top->peak_live_bytes.a)
                                     : "moved by " + signed_human_bytes(peak_delta) + ", " + describe_change(top->peak_live_bytes));
    }
    out.push_back(std::move(headline));
    if (kind && kind->bytes.delta() != 0) {
        std::string line = lead(kind->bytes.delta(), total_delta) + "the " + std::string(to_string(kind->kind)) + " allocations of color " +
                           std::to_string(where->color) + ", " + describe_change(kind->bytes);
        if (kind->kind == allocation_kind::temp) {
            line += "; the most bytes live in the temp arena at once: " + describe_change(where->temp_lower_bound_bytes);
        }
        out.push_back(std::move(line));
    }
    return out;
}

}  // namespace detail

/// The diff of `b` against `a` (see the file's comment). `sources_a` and `sources_b` hold each
/// value's metadata (attribute_values, hlo/attribution.hpp).
template <class P, class Q>
assignment_diff diff_assignments(basic_buffer_assignment<P> const& a, basic_source_attribution<Q> const& sources_a,
                                 basic_buffer_assignment<P> const& b, basic_source_attribution<Q> const& sources_b,
                                 diff_options const& options = {}) {
    assignment_diff d;
    d.total_bytes = {a.total_bytes(), b.total_bytes()};
    source_file_index const files(source_files(sources_a), source_files(sources_b));
    d.matching = match_values(a, sources_a, b, sources_b, &files);
    detail::diff_side<P, Q> const sa(a, sources_a), sb(b, sources_b);

    std::map<std::int64_t, color_diff> colors;
    for (auto const* ba : {&a, &b}) {
        for (auto const& alloc : ba->allocations) colors[alloc.color].color = alloc.color;
    }
    for (auto& [color, c] : colors) {
        std::map<std::tuple<bool, std::string, std::int64_t>, source_line_bytes> lines;
        detail::measure_color(sa, files, c, false, lines);
        detail::measure_color(sb, files, c, true, lines);
        std::sort(c.allocated_by_kind.begin(), c.allocated_by_kind.end(),
                  [](kind_bytes const& x, kind_bytes const& y) { return x.kind < y.kind; });
        detail::sort_peak_by_source(lines, c.peak_by_source);
        d.colors.push_back(std::move(c));
    }

    for (auto const& p : d.matching.pairs) {
        auto const& va = a.values[p.a];
        auto const& vb = b.values[p.b];
        value_change ch;
        ch.pair = p;
        ch.size = {va.size, vb.size};
        ch.size_changed = va.size != vb.size;
        ch.shape_changed = sa.shape_text(p.a) != sb.shape_text(p.b);
        ch.live_range_changed = va.live_range.has_value() != vb.live_range.has_value() ||
                                (va.live_range && (va.live_range->start != vb.live_range->start || va.live_range->end != vb.live_range->end));
        if (ch.size_changed || ch.shape_changed || ch.live_range_changed) d.changes.push_back(ch);
    }
    auto largest = [&](std::vector<std::size_t> list, auto size_of) {
        std::stable_sort(list.begin(), list.end(), [&](std::size_t x, std::size_t y) { return size_of(x) > size_of(y); });
        if (list.size() > options.top) list.resize(options.top);
        return list;
    };
    d.largest_new = largest(d.matching.only_in_b, [&](std::size_t j) { return b.values[j].size; });
    d.largest_removed = largest(d.matching.only_in_a, [&](std::size_t i) { return a.values[i].size; });
    std::vector<std::size_t> grown, shrunk;
    for (std::size_t k = 0; k < d.changes.size(); ++k) {
        if (d.changes[k].size.delta() > 0) grown.push_back(k);
        if (d.changes[k].size.delta() < 0) shrunk.push_back(k);
    }
    d.largest_grown = largest(grown, [&](std::size_t k) { return d.changes[k].size.delta(); });
    d.largest_shrunk = largest(shrunk, [&](std::size_t k) { return -d.changes[k].size.delta(); });
    d.xla_peak_a = detail::xla_peak_of(a);
    d.xla_peak_b = detail::xla_peak_of(b);
    d.memory_a = compute_memory_analysis(a);
    d.memory_b = compute_memory_analysis(b);
    d.verdict = detail::verdict_of(d, [&](color_diff const& c) { return detail::explain_peak(d, c, sa, sb); });
    std::optional<donation_analysis> own_a, own_b;
    if (!options.donations_a) own_a = analyze_donations(a);
    if (!options.donations_b) own_b = analyze_donations(b);
    d.knobs = name_knobs(d, a, sources_a, options.donations_a ? *options.donations_a : *own_a, b, sources_b,
                         options.donations_b ? *options.donations_b : *own_b);
    return d;
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_ASSIGNMENT_DIFF_INSTANTIATIONS(EXTERN, P) \
    EXTERN template assignment_diff diff_assignments<P, P>(basic_buffer_assignment<P> const&, basic_source_attribution<P> const&, basic_buffer_assignment<P> const&, basic_source_attribution<P> const&, diff_options const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_ASSIGNMENT_DIFF_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_DIFF_ASSIGNMENT_DIFF_HPP
