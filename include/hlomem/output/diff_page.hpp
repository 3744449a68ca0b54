// hlomem/output/diff_page.hpp: the page of `hlomem diff -o OUT.html`: the verdict, then for each color A's and
// B's timelines side by side on one byte scale (the timeline's panels, timeline_page.hpp, each
// buffer with its <title>), and the tables of deltas: bytes by allocation kind, the peak, padding,
// the temp arena against its bound, the peak by source line, and the largest new, removed, grown
// and shrunk values. Self-contained like the timeline page: nothing is loaded from anywhere.
//
// The page reports what it drew on <body>, for tests (diff.js):
//   data-rendered="18"                     buffer rectangles of both sides
//   data-peak-bytes="a0:3666346368 b0:..." each side's peak markers, by color
//   data-delta-rows="12"                   rows of the delta tables
//   data-errors=""                         script errors, and peak markers that disagree with the table
#ifndef HLOMEM_OUTPUT_DIFF_PAGE_HPP
#define HLOMEM_OUTPUT_DIFF_PAGE_HPP

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <hlomem/diff.hpp>
#include <hlomem/memory/timeline.hpp>

#include <hlomem/output/markup.hpp>
#include <hlomem/output/timeline_page.hpp>
#include <hlomem/output/diff_report.hpp>
#include <hlomem/output/page_assets.hpp>

namespace hlomem {

/// A row of a delta table: a label, A's bytes, B's bytes and the delta, colored by its sign.
inline void write_delta_row(std::ostream& out, std::string const& label, hlomem::byte_pair const& p) {
    std::int64_t const d = p.delta();
    out << "<tr><td>" << escape_markup(label) << "</td><td>" << hlomem::human_bytes(p.a) << "</td><td>" << hlomem::human_bytes(p.b)
        << "</td><td class=\"" << (d > 0 ? "grew" : d < 0 ? "shrank" : "same") << "\" data-delta=\"" << d << "\">"
        << hlomem::signed_human_bytes(d) << (p.a != 0 && d != 0 ? " (" + hlomem::signed_percent(d, p.a) + ")" : std::string())
        << "</td></tr>\n";
}

inline void begin_delta_table(std::ostream& out, char const* heading, char const* what) {
    out << "<h2>" << heading << "</h2>\n<table class=\"deltas\"><thead><tr><th>" << what
        << "</th><th>A</th><th>B</th><th>B &minus; A</th></tr></thead><tbody>\n";
}

template <class P, class Q>
void write_diff_html(std::ostream& os, diff_report_side<P, Q> const& sa, diff_report_side<P, Q> const& sb,
                     hlomem::assignment_diff const& d) {
    auto const& a = sa.assignment;
    auto const& b = sb.assignment;
    auto const ta = hlomem::make_timeline(a), tb = hlomem::make_timeline(b);
    std::ostringstream out;
    write_page_head(out, "memory diff: " + std::string(sa.name) + " vs " + std::string(sb.name),
                    std::string(assets::timeline_css) + assets::page_css + assets::diff_css);
    out << "<h1>" << escape_markup("memory diff: A " + std::string(sa.name) + ", B " + std::string(sb.name)) << "</h1>\n<div class=\"verdict\">";
    for (auto const& line : d.verdict) out << "<div>" << escape_markup(line) << "</div>";
    out << "</div>\n";
    if (!d.knobs.empty()) {
        out << "<h2>knobs</h2>\n<ul class=\"knobs\">";
        for (auto const& k : d.knobs) out << "<li>" << escape_markup(knob_line(k)) << "</li>";
        out << "</ul>\n";
    }
    auto const& m = d.matching;
    out << "<p class=\"summary\">A has " << a.values.size() << " values, B " << b.values.size() << "; " << m.pairs.size()
        << " matched (";
    for (auto rule : hlomem::all_match_rules) {
        out << (rule == hlomem::match_rule::metadata ? "" : ", ") << m.count(rule) << " by " << hlomem::to_string(rule);
    }
    out << "), " << m.only_in_a.size() << " only in A, " << m.only_in_b.size() << " only in B; " << d.changes.size()
        << " matched values changed size, shape or live range. Both timelines of a color share one byte scale; hover a "
           "buffer for its name.</p>\n";
    begin_delta_table(out, "total", "bytes");
    write_delta_row(out, "Total bytes used", d.total_bytes);
    out << "</tbody></table>\n";

    for (auto const& c : d.colors) {
        out << "<section data-color=\"" << c.color << "\" data-peak-delta=\"" << c.peak_live_bytes.delta() << "\">\n<h2>color "
            << c.color << (c.color == 0 ? " (device memory)" : "") << "</h2>\n<div class=\"sides\">\n";
        auto const ca = std::find_if(ta.colors.begin(), ta.colors.end(), [&](auto const& x) { return x.color == c.color; });
        auto const cb = std::find_if(tb.colors.begin(), tb.colors.end(), [&](auto const& x) { return x.color == c.color; });
        bool const has_a = ca != ta.colors.end(), has_b = cb != tb.colors.end();
        double const curve = curve_top_bytes(std::max(c.peak_live_bytes.a, c.peak_live_bytes.b));
        double const map = std::max<double>(1.0, static_cast<double>(std::max(c.allocated_bytes.a, c.allocated_bytes.b)));
        auto side = [&](char const* name, diff_report_side<P, Q> const& s, hlomem::timeline const& tl,
                        hlomem::timeline_color const* tc, bool present) {
            out << "<div><h3>" << escape_markup(std::string(name) + ": " + std::string(s.name)) << "</h3>\n";
            if (!present) {
                out << "<p class=\"summary\">no live ranges of this color</p></div>\n";
                return;
            }
            auto const g = geometry_of(tl, 30);
            out << "<svg class=\"timeline\" data-side=\"" << (name[0] == 'A' ? 'a' : 'b') << "\" data-color=\"" << c.color
                << "\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1000 " << coord(g.height()) << "\">\n";
            panel_context<P> const ctx{s.assignment, tl, true, nullptr, 0, curve, map, nullptr};
            write_color_panel(out, ctx, *tc, g);
            out << "</svg>\n</div>\n";
        };
        side("A", sa, ta, has_a ? &*ca : nullptr, has_a);
        side("B", sb, tb, has_b ? &*cb : nullptr, has_b);
        out << "</div>\n";
        begin_delta_table(out, "bytes", "what");
        write_delta_row(out, "allocated", c.allocated_bytes);
        for (auto const& k : c.allocated_by_kind) write_delta_row(out, "  " + std::string(hlomem::to_string(k.kind)), k.bytes);
        write_delta_row(out, "peak live bytes (A at " + std::to_string(c.peak_a.time) + ", B at " + std::to_string(c.peak_b.time) + ")",
                        c.peak_live_bytes);
        write_delta_row(out, "padding", {c.padded_bytes.a - c.unpadded_bytes.a, c.padded_bytes.b - c.unpadded_bytes.b});
        write_delta_row(out, "temp arena", c.temp_allocated_bytes);
        write_delta_row(out, "temp arena lower bound", c.temp_lower_bound_bytes);
        write_delta_row(out, "temp arena above its bound", c.temp_above_bound());
        out << "</tbody></table>\n";
        begin_delta_table(out, "the peak by source line", "source line");
        for (auto const& l : c.peak_by_source) {
            write_delta_row(out, l.known ? l.relative_file + (l.source_line ? ":" + std::to_string(l.source_line) : std::string())
                                         : hlomem::line_label(l),
                            l.bytes);
        }
        out << "</tbody></table>\n</section>\n";
    }

    begin_delta_table(out, "largest changes of single values", "value");
    for (std::size_t j : d.largest_new) write_delta_row(out, "new in B: " + b.values[j].display_name(), {0, b.values[j].size});
    for (std::size_t i : d.largest_removed) write_delta_row(out, "only in A: " + a.values[i].display_name(), {a.values[i].size, 0});
    for (auto const* list : {&d.largest_grown, &d.largest_shrunk}) {
        for (std::size_t k : *list) {
            auto const& ch = d.changes[k];
            write_delta_row(out, a.values[ch.pair.a].display_name() + " -> " + b.values[ch.pair.b].display_name() + " (by " +
                                     std::string(hlomem::to_string(ch.pair.rule)) + ")",
                            ch.size);
        }
    }
    out << "</tbody></table>\n<script>\n" << assets::diff_js << "</script>\n</body>\n</html>\n";
    os << valid_utf8(out.str());
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_DIFF_PAGE_INSTANTIATIONS(EXTERN, P) \
    EXTERN template void write_diff_html<P, P>(std::ostream&, diff_report_side<P, P> const&, diff_report_side<P, P> const&, assignment_diff const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_DIFF_PAGE_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_DIFF_PAGE_HPP
