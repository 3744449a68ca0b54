// hlomem/output/whatif_page.hpp: the page of `hlomem whatif --page OUT.html` and `hlomem advise
// --page OUT.html`: per color the live bytes before the edits and after them on one time axis (the
// edited module's: the instructions an edit inserts are times of their own), the budget when there
// is one, each curve's peak labelled with its bytes, and each edited value marked where it is no
// longer held (its name, the edit and the bytes it saved). The axes, ticks, curves and headings
// are the timeline page's (timeline_page.hpp). Self-contained: nothing is loaded from anywhere.
//
// The page reports what it drew on <body>, for tests (whatif.js):
//   data-peak-bytes="before0:98314552 after0:74230072 before5:0 after5:26214400"   the peak markers
//   data-marks="offload fft.8.0"   the marked edits, in order
//   data-errors=""                 script errors, and markers that disagree with their section
#ifndef HLOMEM_OUTPUT_WHATIF_PAGE_HPP
#define HLOMEM_OUTPUT_WHATIF_PAGE_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/diff/assignment_diff.hpp>  // signed_human_bytes, signed_percent
#include <hlomem/output/markup.hpp>
#include <hlomem/output/page_assets.hpp>
#include <hlomem/output/timeline_page.hpp>
#include <hlomem/output/whatif_report.hpp>
#include <hlomem/whatif/what_if.hpp>

namespace hlomem {

/// An edited value as the page marks it: on the edited module's time axis, the times it is no
/// longer held (from the time after its new end to the time before its clone or copy back; to the
/// end for a donation).
struct what_if_page_mark {
    std::string name;   ///< its instruction, or `parameter N`
    std::string edit;   ///< the edit, said once (`offload fft.8.0 from 46`)
    what_if_kind kind = what_if_kind::donate;
    std::int64_t color = 0;
    std::int64_t saved = 0;  ///< bytes off its color's live peak: this edit after the earlier ones
    logical_time first = 0, last = 0;
};

/// One color's two curves, each one value per time of the edited module.
struct what_if_page_color {
    std::int64_t color = 0;
    std::vector<std::int64_t> before, after;
    what_if_peak before_peak, after_peak;  ///< times of the edited module
    std::optional<std::int64_t> budget;
};

struct what_if_page_data {
    std::string module;
    logical_time max = 0;       ///< the edited module's
    std::size_t inserted = 0;   ///< instructions the edits inserted
    std::vector<what_if_page_color> colors;
    std::vector<what_if_page_mark> marks;
};

namespace detail {

/// The curve before the edits (one value per original time) on the edited module's time axis: an
/// instruction an edit inserted did not run before, so the curve holds there the value of the
/// instruction before it.
template <class P>
std::vector<std::int64_t> on_edited_axis(basic_what_if<P> const& w, std::vector<std::int64_t> const& original) {
    std::vector<std::int64_t> out(static_cast<std::size_t>(w.max()) + 1, 0);
    std::size_t next = 0;
    std::int64_t held = 0;
    for (std::size_t t = 0; t < original.size(); ++t) {
        auto const at = static_cast<std::size_t>(w.edited_time(static_cast<logical_time>(t)));
        for (; next < at && next < out.size(); ++next) out[next] = held;
        if (at < out.size()) out[at] = original[t];
        held = original[t];
        next = at + 1;
    }
    for (; next < out.size(); ++next) out[next] = held;
    return out;
}

/// Where an accepted edit's value is no longer held, on the edited module's time axis.
template <class P>
what_if_page_mark page_mark(basic_what_if<P> const& w, what_if_outcome const& o, std::int64_t saved) {
    auto const& m = w.module();
    what_if_page_mark mark;
    mark.kind = o.edit.kind;
    mark.edit = edit_text(m, o.edit);
    mark.name = o.edit.kind == what_if_kind::donate ? "parameter " + std::to_string(o.edit.parameter_number)
                                                    : std::string(std::string_view(m.instruction(o.edit.instruction).name));
    mark.color = w.color_of(o.value);
    mark.saved = saved;
    auto const range = w.edited_range(o.value);
    mark.first = range ? range->second + 1 : 0;
    mark.last = w.max();
    for (auto const& i : o.inserted) {
        if (i.role == inserted_role::clone || i.role == inserted_role::copy_start_to_device) {
            mark.last = w.edited_time_of_slot(i.slot) - 1;
            break;
        }
    }
    mark.last = std::max(mark.last, mark.first);
    return mark;
}

}  // namespace detail

/// What the page draws, from a what-if holding its edits: the curves after them as they are; the
/// curves before them by taking the edits back (undo) and applying them again in order, which
/// leaves `w` as it was. Each edit's bytes saved are its color's live peak before it minus after
/// it, on the way. `budgets`: each color's, when there is one.
template <class P>
what_if_page_data what_if_page(basic_what_if<P>& w, std::map<std::int64_t, std::int64_t> const& budgets = {}) {
    std::vector<what_if_outcome> const edits = w.edits();
    std::vector<std::int64_t> const colors = w.colors();  // with those an edit brought (memory space 5)
    std::vector<std::map<std::int64_t, std::int64_t>> peaks(edits.size() + 1);  // after the first j edits
    auto peaks_now = [&](std::size_t j) {
        for (std::int64_t c : colors) peaks[j][c] = w.color_peak(c).bytes;
    };
    peaks_now(edits.size());
    for (std::size_t j = edits.size(); j-- > 0;) {
        w.undo();
        peaks_now(j);
    }
    what_if_page_data d;
    d.module = std::string(std::string_view(w.module().name()));
    std::vector<std::vector<std::int64_t>> before;
    for (std::int64_t c : colors) {
        before.push_back(w.color_curve(c));
        d.colors.push_back({c, {}, {}, w.color_peak(c), {}, {}});
    }
    for (auto const& o : edits) w.apply(o.edit);  // the same edits in the same order: the same state
    d.max = w.max();
    d.inserted = static_cast<std::size_t>(w.max() - w.liveness().max());
    for (std::size_t k = 0; k < colors.size(); ++k) {
        auto& c = d.colors[k];
        c.before = detail::on_edited_axis(w, before[k]);
        if (c.before_peak.bytes > 0) c.before_peak.time = w.edited_time(c.before_peak.time);
        c.after = w.color_curve(c.color);
        c.after_peak = w.color_peak(c.color);
        if (auto b = budgets.find(c.color); b != budgets.end()) c.budget = b->second;
    }
    for (std::size_t j = 0; j < edits.size(); ++j) {
        auto const& o = w.edits()[j];
        std::int64_t const color = w.color_of(o.value);
        d.marks.push_back(detail::page_mark(w, o, peaks[j][color] - peaks[j + 1][color]));
    }
    return d;
}

namespace detail {

/// A peak marker: a dashed line at the peak's time, a dot on the curve, and its label.
inline void write_page_peak(std::ostream& out, panel_geometry const& g, byte_scale const& s, std::int64_t color, char const* curve,
                            what_if_peak const& p, double label_y) {
    double const px = g.x(static_cast<double>(p.time) + 0.5);
    bool const label_left = px > g.left + g.plot_width() * 0.6;
    out << "<g class=\"peak peak-" << curve << "\" data-curve=\"" << curve << "\" data-color=\"" << color << "\" data-peak-bytes=\""
        << p.bytes << "\" data-peak-time=\"" << p.time << "\"><line x1=\"" << coord(px) << "\" x2=\"" << coord(px) << "\" y1=\""
        << coord(g.top) << "\" y2=\"" << coord(g.curve_bottom()) << "\"/><circle cx=\"" << coord(px) << "\" cy=\""
        << coord(s.y(static_cast<double>(p.bytes))) << "\" r=\"3\"/><text x=\"" << coord(px + (label_left ? -5 : 5)) << "\" y=\""
        << coord(label_y) << "\" text-anchor=\"" << (label_left ? "end" : "start") << "\">"
        << escape_markup(std::string(curve) + ": peak " + human_bytes(p.bytes) + " at " + std::to_string(p.time)) << "</text></g>\n";
}

/// One color's chart: both curves, the budget, the peaks, and below the time axis one row per
/// edited value of the color, its span also shaded across the chart.
inline void write_what_if_chart(std::ostream& out, what_if_page_data const& d, what_if_page_color const& c) {
    panel_geometry g;
    g.top = 28;
    g.steps = static_cast<double>(d.max + 1);
    std::vector<what_if_page_mark const*> marks;
    for (auto const& m : d.marks) {
        if (m.color == c.color) marks.push_back(&m);
    }
    double const rows = g.curve_bottom() + 36, height = rows + 16 * static_cast<double>(marks.size()) + 6;
    out << "<svg class=\"timeline whatif\" data-color=\"" << c.color << "\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1000 "
        << coord(height) << "\">\n";
    std::int64_t const top = std::max({c.before_peak.bytes, c.after_peak.bytes, c.budget.value_or(0)});
    byte_scale const s{g.curve_bottom(), g.curve_height, curve_top_bytes(top)};
    write_byte_grid(out, g, s);
    for (std::size_t k = 0; k < marks.size(); ++k) {
        auto const& m = *marks[k];
        double const x0 = g.x(static_cast<double>(m.first)), x1 = std::max(x0 + 1, g.x(static_cast<double>(m.last + 1)));
        double const y = rows + 16 * static_cast<double>(k);
        std::string const label = m.edit + ": saves " + human_bytes(m.saved);
        out << "<g class=\"mark mark-" << to_string(m.kind) << "\" data-name=\"" << escape_markup(m.name) << "\" data-kind=\""
            << to_string(m.kind) << "\" data-saved=\"" << m.saved << "\"><title>" << escape_markup(label + "; not held " + std::to_string(m.first) + "-" + std::to_string(m.last))
            << "</title><rect class=\"span\" x=\"" << coord(x0) << "\" y=\"" << coord(g.top) << "\" width=\"" << coord(x1 - x0) << "\" height=\""
            << coord(g.curve_height) << "\"/><rect x=\"" << coord(x0) << "\" y=\"" << coord(y - 9) << "\" width=\"" << coord(x1 - x0)
            << "\" height=\"11\"/>";
        // The label beside its bar, on the left when the bar is in the right part of the chart.
        bool const left = x1 > g.left + g.plot_width() * 0.6;
        out << "<text x=\"" << coord(left ? x0 - 4 : x1 + 4) << "\" y=\"" << coord(y) << "\" text-anchor=\"" << (left ? "end" : "start")
            << "\">" << escape_markup(label) << "</text></g>\n";
    }
    write_curve_path(out, g, s, c.after, "live", true);
    write_curve_path(out, g, s, c.before, "before", false);
    if (c.budget) {
        double const y = s.y(static_cast<double>(*c.budget));
        out << "<line class=\"budget\" x1=\"" << coord(g.left) << "\" x2=\"" << coord(g.width - g.right) << "\" y1=\"" << coord(y)
            << "\" y2=\"" << coord(y) << "\"/><text class=\"budget\" x=\"" << coord(g.left + 4) << "\" y=\"" << coord(y - 3) << "\">budget "
            << human_bytes(*c.budget) << "</text>\n";
    }
    out << "<line class=\"axis\" x1=\"" << coord(g.left) << "\" x2=\"" << coord(g.left) << "\" y1=\"" << coord(g.top) << "\" y2=\""
        << coord(g.curve_bottom()) << "\"/>\n<text x=\"4\" y=\"" << coord(g.top + 8) << "\">live bytes</text>\n";
    write_time_axis(out, g, g.curve_bottom());
    write_page_peak(out, g, s, c.color, "before", c.before_peak, g.top - 16);
    write_page_peak(out, g, s, c.color, "after", c.after_peak, g.top - 4);
    out << "</svg>\n";
}

}  // namespace detail

/// The whole page.
inline void write_what_if_html(std::ostream& os, what_if_page_data const& d) {
    std::ostringstream out;
    write_page_head(out, "what-if: " + d.module, std::string(assets::timeline_css) + assets::page_css + assets::whatif_css);
    out << "<h1>" << escape_markup("before and after the edits: " + d.module) << "</h1>\n";
    out << "<p class=\"summary\">" << d.marks.size() << (d.marks.size() == 1 ? " edit" : " edits") << ", " << d.inserted
        << " instructions inserted; the time axis is the edited module's (0-" << d.max
        << "), where the curve before holds at an inserted instruction the value of the one before it. Live bytes are what each "
           "memory space's buffers hold at each time.</p>\n";
    out << "<p class=\"legend\"><span><svg width=\"22\" height=\"11\"><path class=\"before\" d=\"M0 6H22\"/></svg> before</span>"
           "<span><svg width=\"11\" height=\"11\"><rect class=\"live\" width=\"11\" height=\"11\"/></svg> after</span>"
           "<span><svg width=\"22\" height=\"11\"><path class=\"budget\" d=\"M0 6H22\"/></svg> budget</span>"
           "<span><svg width=\"11\" height=\"11\" class=\"whatif\"><g class=\"mark\"><rect class=\"span\" width=\"11\" height=\"11\"/></g></svg>"
           " where an edited value is no longer held</span></p>\n";
    for (auto const& c : d.colors) {
        std::int64_t const delta = c.after_peak.bytes - c.before_peak.bytes;
        out << "<section data-color=\"" << c.color << "\" data-before-peak=\"" << c.before_peak.bytes << "\" data-after-peak=\""
            << c.after_peak.bytes << "\">\n<h2>" << escape_markup(color_heading(c.color)) << "</h2>\n<p class=\"summary\">before: peak "
            << human_bytes(c.before_peak.bytes) << " at " << c.before_peak.time << "; after: peak " << human_bytes(c.after_peak.bytes)
            << " at " << c.after_peak.time << " (" << signed_human_bytes(delta)
            << (c.before_peak.bytes != 0 ? ", " + signed_percent(delta, c.before_peak.bytes) : std::string()) << ")";
        if (c.budget) out << "; budget " << human_bytes(*c.budget) << (c.after_peak.bytes <= *c.budget ? ", fits" : ", does not fit");
        out << "</p>\n";
        detail::write_what_if_chart(out, d, c);
        bool table = false;
        for (auto const& m : d.marks) {
            if (m.color != c.color) continue;
            if (!table) out << "<table class=\"edits\"><thead><tr><th>edit</th><th>saves</th><th>not held</th></tr></thead><tbody>\n";
            table = true;
            out << "<tr><td>" << escape_markup(m.edit) << "</td><td data-saved=\"" << m.saved << "\">" << human_bytes(m.saved) << "</td><td>"
                << m.first << "-" << m.last << "</td></tr>\n";
        }
        if (table) out << "</tbody></table>\n";
        out << "</section>\n";
    }
    out << "<script>\n" << assets::whatif_js << "</script>\n</body>\n</html>\n";
    os << valid_utf8(out.str());
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_WHATIF_PAGE_INSTANTIATIONS(EXTERN, P) \
    EXTERN template what_if_page_data what_if_page<P>(basic_what_if<P>&, std::map<std::int64_t, std::int64_t> const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_WHATIF_PAGE_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_WHATIF_PAGE_HPP
