// hlomem/output/timeline_page.hpp: draws an hlomem::timeline (<hlomem/memory/timeline.hpp>) as SVG, and as one
// self-contained HTML page: the same SVG inline, the data of every drawn value as JSON, and a
// little plain JavaScript for the hover card and the sortable table of the largest values at each
// peak. The style and the script are files of their own (timeline.css, page.css, page.js),
// embedded in page_assets.hpp. The page loads nothing from anywhere (its Content-Security-Policy forbids it).
//
// The page reports what it drew on <body>, for tests and for anyone curious:
//   data-rendered="83"          buffer rectangles in the DOM (one per value drawn one by one)
//   data-bands="0"              rectangles of aggregated small values
//   data-peak-bytes="0:2709520384 1:58720256"   each color's peak, read from the drawn markers
//   data-table-rows="23"        rows of the peak tables
//   data-errors=""              script errors (window.onerror) and inconsistencies it found
//   data-card="exp"             the value whose card page.html#value=ID opened
//   data-script-ms="12"         how long the script took
#ifndef HLOMEM_OUTPUT_TIMELINE_PAGE_HPP
#define HLOMEM_OUTPUT_TIMELINE_PAGE_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/hlo/attribution.hpp>
#include <hlomem/hlo/metadata.hpp>
#include <hlomem/load/source_text.hpp>
#include <hlomem/memory/peak_holdings.hpp>
#include <hlomem/memory/timeline.hpp>

#include <hlomem/output/json_writer.hpp>
#include <hlomem/output/sources.hpp>
#include <hlomem/output/timeline_levels.hpp>
#include <hlomem/output/markup.hpp>
#include <hlomem/output/page_assets.hpp>

namespace hlomem {

// ---------------------------------------------------------------------------------------------
// Geometry
// ---------------------------------------------------------------------------------------------

/// The fill class of each allocation kind (the page and the SVG define the colors).
inline char const* kind_class(hlomem::allocation_kind k) {
    switch (k) {
        case hlomem::allocation_kind::parameter: return "k-parameter";
        case hlomem::allocation_kind::constant: return "k-constant";
        case hlomem::allocation_kind::thread_local_: return "k-thread-local";
        case hlomem::allocation_kind::output: return "k-output";
        case hlomem::allocation_kind::temp: return "k-temp";
        case hlomem::allocation_kind::other: return "k-other";
    }
    return "k-other";
}

/// The kind in a few letters, for the labels of the map's rows.
inline char const* short_kind(hlomem::allocation_kind k) {
    switch (k) {
        case hlomem::allocation_kind::parameter: return "param";
        case hlomem::allocation_kind::constant: return "const";
        case hlomem::allocation_kind::thread_local_: return "local";
        case hlomem::allocation_kind::output: return "output";
        case hlomem::allocation_kind::temp: return "temp";
        case hlomem::allocation_kind::other: return "other";
    }
    return "other";
}

inline constexpr hlomem::allocation_kind all_kinds[] = {
    hlomem::allocation_kind::parameter, hlomem::allocation_kind::output, hlomem::allocation_kind::temp,
    hlomem::allocation_kind::constant, hlomem::allocation_kind::thread_local_, hlomem::allocation_kind::other};


/// Ticks for an axis from 0 to `top`: about `count` round steps (1, 2 or 5 times a power of ten).
inline double nice_step(double top, int count) {
    double const raw = std::max(top / count, 1e-9);
    double const power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * power >= raw) return m * power;
    }
    return 10 * power;
}

/// A byte tick label in the binary unit of the axis: `1.5GiB`, `256MiB`, `0B`.
inline std::string byte_tick(double bytes, double unit, char const* suffix) {
    char buf[40];
    double const v = bytes / unit;
    if (v == 0) return "0";
    std::snprintf(buf, sizeof buf, v == std::floor(v) ? "%.0f%s" : "%.3g%s", v, suffix);
    return buf;
}

struct panel_geometry {
    static constexpr double width = 1000, left = 96, right = 16;
    double top = 0;  // of the curve chart
    static constexpr double curve_height = 150, gap = 34, map_height = 300, bottom = 30;
    double steps = 1;

    double plot_width() const { return width - left - right; }
    double x(double t) const { return left + plot_width() * t / steps; }
    double curve_bottom() const { return top + curve_height; }
    double map_top() const { return curve_bottom() + gap; }
    double map_bottom() const { return map_top() + map_height; }
    double height() const { return map_bottom() + bottom; }
};

// ---------------------------------------------------------------------------------------------
// One color as SVG
// ---------------------------------------------------------------------------------------------

/// What the panels need besides the timeline: the dump, and the data index of each drawn value
/// (the page's JSON; -1 for the standalone SVG, which carries <title>s instead). For either policy:
/// the tool reads dumps with the default one, the Python module views its text.
template <class P = hlomem::default_policy>
struct panel_context {
    hlomem::basic_buffer_assignment<P> const& ba;
    hlomem::timeline const& tl;
    bool standalone = false;
    std::vector<std::size_t> const* data_index = nullptr;  // by value index; the page's JSON position
    std::size_t first_band = 0;                            // the page's index of this color's first band
    // The byte scales of the curve and of the map; 0: the color's own (its peak with a margin, its
    // allocated bytes). `hlomem diff` draws two timelines on one scale.
    double curve_bytes = 0;
    double map_bytes = 0;
    std::vector<hlomem::color_temp_optimum> const* optima = nullptr;  // the levels drawn beside allocated
};

/// The top of the live-bytes chart of a color whose peak is `peak_bytes`: a tenth above it.
inline double curve_top_bytes(std::int64_t peak_bytes) { return std::max<double>(1.0, static_cast<double>(peak_bytes) * 1.1); }

inline std::string color_heading(std::int64_t color) {
    return "color " + std::to_string(color) + (color == 0 ? " (device memory)" : " (memory space " + std::to_string(color) + ")");
}

inline std::string color_heading(hlomem::timeline_color const& c) { return color_heading(c.color); }

/// The byte scale of a chart: the `height` pixels above `bottom` hold 0..top_bytes.
struct byte_scale {
    double bottom = 0, height = 0, top_bytes = 1;
    double y(double bytes) const { return bottom - height * bytes / top_bytes; }
};

/// A byte scale's grid lines across the plot, labelled in its binary unit (`256MiB`).
inline void write_byte_grid(std::ostream& out, panel_geometry const& g, byte_scale const& s) {
    double unit = 1;
    char const* suffix = "B";
    for (char const* u : {"KiB", "MiB", "GiB", "TiB", "PiB"}) {
        if (s.top_bytes / (unit * 1024) < 1) break;
        unit *= 1024;
        suffix = u;
    }
    double const step = nice_step(s.top_bytes / unit, 4) * unit;
    for (double b = 0; b <= s.top_bytes; b += step) {
        out << "<line class=\"grid\" x1=\"" << coord(g.left) << "\" x2=\"" << coord(g.width - g.right) << "\" y1=\"" << coord(s.y(b))
            << "\" y2=\"" << coord(s.y(b)) << "\"/><text x=\"" << coord(g.left - 4) << "\" y=\"" << coord(s.y(b) + 3)
            << "\" text-anchor=\"end\">" << byte_tick(b, unit, suffix) << "</text>\n";
    }
}

/// A curve (one value per time) as a path of at most two columns per pixel, each at its highest
/// (curve_columns), so that no peak is hidden: `closed` down to the axis (an area), or a line.
inline void write_curve_path(std::ostream& out, panel_geometry const& g, byte_scale const& s, std::vector<std::int64_t> const& curve,
                             char const* css_class, bool closed) {
    auto const columns = hlomem::curve_columns(curve, static_cast<std::size_t>(g.plot_width()) * 2);
    out << "<path class=\"" << css_class << "\" d=\"";
    char command = 'M';
    if (closed) {
        out << "M" << coord(g.x(0)) << ' ' << coord(s.y(0));
        command = 'L';
    }
    for (auto const& col : columns) {
        out << command << coord(g.x(static_cast<double>(col.first))) << ' ' << coord(s.y(static_cast<double>(col.high))) << "L"
            << coord(g.x(static_cast<double>(col.last + 1))) << ' ' << coord(s.y(static_cast<double>(col.high)));
        command = 'L';
    }
    if (closed) out << "L" << coord(g.x(g.steps)) << ' ' << coord(s.y(0)) << "Z";
    out << "\"/>\n";
}

/// The time axis at `y`: its line, ticks at round logical times, and its title.
inline void write_time_axis(std::ostream& out, panel_geometry const& g, double y) {
    out << "<line class=\"axis\" x1=\"" << coord(g.left) << "\" x2=\"" << coord(g.width - g.right) << "\" y1=\"" << coord(y)
        << "\" y2=\"" << coord(y) << "\"/>\n";
    double const tick = nice_step(g.steps, 8);
    for (double t = 0; t <= g.steps; t += tick) {
        out << "<line class=\"axis\" x1=\"" << coord(g.x(t)) << "\" x2=\"" << coord(g.x(t)) << "\" y1=\"" << coord(y) << "\" y2=\""
            << coord(y + 4) << "\"/><text x=\"" << coord(g.x(t)) << "\" y=\"" << coord(y + 14) << "\" text-anchor=\"middle\">"
            << static_cast<std::int64_t>(t) << "</text>\n";
    }
    out << "<text x=\"" << coord(g.width - g.right) << "\" y=\"" << coord(y + 26) << "\" text-anchor=\"end\">program order (logical time)</text>\n";
}

inline std::string peak_label(hlomem::timeline_color const& c) {
    std::string s = "peak " + hlomem::human_bytes(c.peak_bytes) + " at " + std::to_string(c.peak_time);
    if (!c.peak_instruction.empty()) s += " (" + c.peak_instruction + ")";
    return s;
}

/// Writes the panel of one color: the live-bytes chart above the buffer map, sharing the time
/// axis, with the peak marked across both. The panel starts at y = g.top.
template <class P>
void write_color_panel(std::ostream& out, panel_context<P> const& ctx, hlomem::timeline_color const& c,
                       panel_geometry const& g) {
    auto const& ba = ctx.ba;
    if (ctx.standalone) {
        out << "<text class=\"title\" x=\"" << coord(g.left) << "\" y=\"" << coord(g.top - 14) << "\">"
            << escape_markup(color_heading(c) + ": " + peak_label(c) + ", allocated " + hlomem::human_bytes(c.allocated_bytes))
            << "</text>\n";
    }
    // --- live bytes ------------------------------------------------------------------------
    double const top_bytes = ctx.curve_bytes > 0 ? ctx.curve_bytes : curve_top_bytes(c.peak_bytes);
    byte_scale const scale{g.curve_bottom(), g.curve_height, top_bytes};
    auto yc = [&](double bytes) { return scale.y(bytes); };
    write_byte_grid(out, g, scale);
    write_curve_path(out, g, scale, c.live_bytes, "live", true);
    if (!c.unpadded_live_bytes.empty()) write_curve_path(out, g, scale, c.unpadded_live_bytes, "unpadded", false);
    write_timeline_levels(out, timeline_levels(c, ctx.optima), g.left, g.width - g.right, top_bytes, yc);
    out << "<line class=\"axis\" x1=\"" << coord(g.left) << "\" x2=\"" << coord(g.left) << "\" y1=\"" << coord(g.top) << "\" y2=\""
        << coord(g.curve_bottom()) << "\"/><line class=\"axis\" x1=\"" << coord(g.left) << "\" x2=\"" << coord(g.width - g.right)
        << "\" y1=\"" << coord(g.curve_bottom()) << "\" y2=\"" << coord(g.curve_bottom()) << "\"/>\n";
    out << "<text x=\"4\" y=\"" << coord(g.top + 8) << "\">live bytes</text>\n";

    // --- buffer map ------------------------------------------------------------------------
    double const map_bytes = ctx.map_bytes > 0 ? ctx.map_bytes : std::max<double>(1.0, static_cast<double>(c.allocated_bytes));
    auto ym = [&](double bytes) { return g.map_bottom() - g.map_height * bytes / map_bytes; };
    out << "<rect class=\"map-bg\" x=\"" << coord(g.left) << "\" y=\"" << coord(g.map_top()) << "\" width=\"" << coord(g.plot_width())
        << "\" height=\"" << coord(g.map_height) << "\"/>\n";
    out << "<text x=\"4\" y=\"" << coord(g.map_top() + 8) << "\">buffer map</text>\n";
    for (auto const& a : c.allocations) {
        double const y_top = ym(static_cast<double>(a.y + a.size)), y_bottom = ym(static_cast<double>(a.y));
        if (y_bottom - y_top >= 2) {
            out << "<line class=\"grid\" x1=\"" << coord(g.left - 3) << "\" x2=\"" << coord(g.width - g.right) << "\" y1=\""
                << coord(y_top) << "\" y2=\"" << coord(y_top) << "\"/>\n";
        }
        if (y_bottom - y_top >= 12) {
            auto const& alloc = ba.allocations[a.allocation];
            out << "<text x=\"" << coord(g.left - 4) << "\" y=\"" << coord((y_top + y_bottom) / 2 + 3) << "\" text-anchor=\"end\">"
                << "alloc " << alloc.index << ' ' << short_kind(alloc.kind()) << "</text>\n";
        }
    }
    auto rect = [&](double x0, double x1, double bytes_bottom, double bytes) {
        double const top = ym(bytes_bottom + bytes);
        double const height = std::max(1.0, g.map_height * bytes / map_bytes);
        out << "<rect x=\"" << coord(x0) << "\" y=\"" << coord(std::min(top, g.map_bottom() - height)) << "\" width=\""
            << coord(std::max(0.5, x1 - x0)) << "\" height=\"" << coord(height) << '"';
    };
    out << "<g class=\"band\">\n";
    for (std::size_t k = 0; k < c.bands.size(); ++k) {
        auto const& b = c.bands[k];
        rect(g.x(static_cast<double>(b.range.start)), g.x(static_cast<double>(b.range.end + 1)), static_cast<double>(b.y),
             static_cast<double>(b.height));
        if (ctx.standalone) {
            out << "><title>" << b.values << " small values, " << hlomem::human_bytes(b.bytes) << ", live " << b.range.start << '-'
                << b.range.end << "</title></rect>\n";
        } else {
            out << " data-b=\"" << ctx.first_band + k << "\"/>\n";
        }
    }
    out << "</g>\n";
    // One group per allocation kind, which gives its rectangles their fill.
    for (auto kind : all_kinds) {
        bool any = false;
        for (auto const& b : c.buffers) {
            if (ba.allocations[b.allocation].kind() != kind) continue;
            if (!any) out << "<g class=\"" << kind_class(kind) << "\">\n";
            any = true;
            auto const& v = ba.values[b.value];
            rect(g.x(static_cast<double>(b.range.start)), g.x(static_cast<double>(b.range.end + 1)), static_cast<double>(b.y),
                 static_cast<double>(b.size));
            if (ctx.standalone) {
                out << "><title>" << escape_markup(v.display_name()) << ": " << hlomem::human_bytes(b.size) << ", live "
                    << b.range.start << '-' << b.range.end << "</title></rect>\n";
            } else {
                out << " data-v=\"" << (*ctx.data_index)[b.value] << "\"/>\n";
            }
        }
        if (any) out << "</g>\n";
    }
    write_time_axis(out, g, g.map_bottom());

    // --- the peak, across both charts --------------------------------------------------------
    double const px = g.x(static_cast<double>(c.peak_time) + 0.5);
    bool const label_left = px > g.left + g.plot_width() * 0.6;
    out << "<g class=\"peak\" data-color=\"" << c.color << "\" data-peak-bytes=\"" << c.peak_bytes << "\" data-peak-time=\""
        << c.peak_time << "\"><line x1=\"" << coord(px) << "\" x2=\"" << coord(px) << "\" y1=\"" << coord(g.top) << "\" y2=\""
        << coord(g.map_bottom()) << "\"/><circle cx=\"" << coord(px) << "\" cy=\"" << coord(yc(static_cast<double>(c.peak_bytes)))
        << "\" r=\"3\"/><text x=\"" << coord(px + (label_left ? -5 : 5)) << "\" y=\"" << coord(g.top + 2) << "\" text-anchor=\""
        << (label_left ? "end" : "start") << "\">" << escape_markup(peak_label(c)) << "</text></g>\n";
}

inline panel_geometry geometry_of(hlomem::timeline const& tl, double top) {
    panel_geometry g;
    g.top = top;
    g.steps = static_cast<double>(tl.max + 1);
    return g;
}

/// The legend: one swatch per allocation kind, the aggregated band, and the curves.
inline void write_svg_legend(std::ostream& out, double y) {
    double x = panel_geometry::left;
    for (auto k : all_kinds) {
        out << "<rect class=\"" << kind_class(k) << "\" x=\"" << coord(x) << "\" y=\"" << coord(y - 8) << "\" width=\"10\" height=\"10\"/>"
            << "<text x=\"" << coord(x + 14) << "\" y=\"" << coord(y + 1) << "\">" << hlomem::to_string(k) << "</text>\n";
        x += 28 + 6.0 * static_cast<double>(hlomem::to_string(k).size());
    }
    out << "<rect class=\"band\" x=\"" << coord(x) << "\" y=\"" << coord(y - 8) << "\" width=\"10\" height=\"10\"/><text x=\""
        << coord(x + 14) << "\" y=\"" << coord(y + 1) << "\">small values, aggregated</text>\n";
}

/// The static picture: every color's panel, one under the other, no script.
template <class P>
void write_timeline_svg(std::ostream& os, hlomem::basic_buffer_assignment<P> const& ba, hlomem::timeline const& tl) {
    std::ostringstream out;
    auto const optima = timeline_optima(ba);
    panel_context<P> const ctx{ba, tl, true, nullptr, 0, 0, 0, &optima};
    double y = 36;
    std::ostringstream body;
    for (auto const& c : tl.colors) {
        auto const g = geometry_of(tl, y + 22);
        write_color_panel(body, ctx, c, g);
        y = g.height() + 10;
    }
    write_svg_legend(body, y + 6);
    y += 20;
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1000\" height=\"" << coord(y)
        << "\" viewBox=\"0 0 1000 " << coord(y) << "\">\n<style>" << assets::timeline_css << "</style>\n"
        << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
        << "<text class=\"title\" x=\"8\" y=\"20\">" << escape_markup("memory timeline of " + ba.file) << "</text>\n"
        << body.str() << "</svg>\n";
    os << valid_utf8(out.str());
}

// ---------------------------------------------------------------------------------------------
// The page
// ---------------------------------------------------------------------------------------------

/// The opcode and the metadata of a value's instruction (`s`, from attribute_values: the dump's
/// text joined with its module), the members left out when absent; `origin` in words
/// (origin_text) when its bytes come from elsewhere than its own instruction.
template <class P>
void write_instruction_members(json_writer& json, hlomem::basic_logical_value<P> const& v, hlomem::value_source const& s,
                               hlomem::value_origin const& o) {
    if (!std::string_view(v.instruction_opcode).empty()) json.member("opcode", std::string_view(v.instruction_opcode));
    if (!s.op_name.empty()) json.member("op_name", hlomem::c_unescape(s.op_name));
    if (!s.op_type.empty()) json.member("op_type", hlomem::c_unescape(s.op_type));
    if (!s.source_file.empty()) json.member("source_file", hlomem::c_unescape(s.source_file));
    if (s.source_line != 0) json.member("source_line", s.source_line);
    if (o.kind != hlomem::origin_kind::own && o.kind != hlomem::origin_kind::none) json.member("origin", origin_text(o));
}

/// What the timeline of one color holds, as members of the object being written: its peak and
/// what was drawn (`hlomem timeline --json` and the page's data).
inline void write_color_members(json_writer& json, hlomem::timeline_color const& c) {
    json.member("color", c.color);
    json.member("allocated_bytes", c.allocated_bytes);
    json.member("peak_bytes", c.peak_bytes);
    json.member("peak_time", c.peak_time);
    json.member("peak_instruction", c.peak_instruction);
    json.member("unpadded_bytes_at_peak", c.unpadded_at(c.peak_time));
    json.member("live_at_peak", c.live_at_peak);
    json.member("values", c.ranged_values);
    json.member("drawn", c.buffers.size());
    json.member("aggregated", c.aggregated_values);
    json.member("bands", c.bands.size());
    json.member("unranged_values", c.unranged_values);
}

/// The page's "bands": each band of aggregated small values, its allocations by their position in
/// the page's list (`allocation_index`).
inline void write_timeline_bands(json_writer& json, hlomem::timeline const& tl, std::vector<std::size_t> const& allocation_index) {
    json.key("bands").begin_array();
    for (auto const& c : tl.colors) {
        for (auto const& b : c.bands) {
            json.begin_object();
            json.member("first_alloc", allocation_index[b.first_allocation]);
            json.member("last_alloc", allocation_index[b.last_allocation]);
            if (b.first_allocation == b.last_allocation) {
                // The band's bytes as offsets within its one allocation.
                auto const& a = *std::find_if(c.allocations.begin(), c.allocations.end(),
                                              [&](hlomem::timeline_allocation const& x) { return x.allocation == b.first_allocation; });
                json.member("offset", b.y - a.y);
            }
            json.member("start", b.range.start);
            json.member("end", b.range.end);
            json.member("height", b.height);
            json.member("values", b.values);
            json.member("bytes", b.bytes);
            json.member("largest", b.largest);
            json.end_object();
        }
    }
    json.end_array();
}

/// The page's "colors": each color's figures, its values at the peak and its peak by source line,
/// values by their position in the page's data (`data_index`), lines by `line_index`.
inline void write_timeline_colors(json_writer& json, hlomem::timeline const& tl,
                                  std::vector<std::vector<hlomem::holding_group<hlomem::source_line_key>>> const& by_source,
                                  std::map<hlomem::source_line_key, std::size_t> const& line_index,
                                  std::vector<std::size_t> const& data_index) {
    json.key("colors").begin_array();
    for (auto const& c : tl.colors) {
        json.begin_object();
        write_color_members(json, c);
        json.key("at_peak").begin_array();
        for (auto const& b : c.at_peak) json.value(data_index[b.value]);
        json.end_array();
        json.key("by_source").begin_array();
        for (auto const& g : by_source[static_cast<std::size_t>(&c - tl.colors.data())]) {
            json.begin_object();
            json.member("src", line_index.at(g.key));
            json.member("bytes", g.bytes);
            json.member("count", g.values.size());
            json.key("values").begin_array();
            for (std::size_t v : g.values) {
                if (data_index[v] != hlomem::npos) json.value(data_index[v]);
            }
            json.end_array();
            json.end_object();
        }
        json.end_array();
        json.end_object();
    }
    json.end_array();
}

/// The page's `source_text` (each of `lines`' text, null where its file was not found) and
/// `source_missing` (the files looked for in vain); nothing when no file was found at all.
inline void write_source_text(json_writer& json, std::vector<hlomem::source_line_key> const& lines, hlomem::source_text& text) {
    std::vector<std::optional<std::string>> texts;
    bool any = false;
    for (auto const& key : lines) {
        texts.push_back(key.is_no_source() || key.is_argument() ? std::nullopt : text.line(hlomem::c_unescape(key.source_file), key.source_line));
        any = any || texts.back().has_value();
    }
    if (!any) return;
    json.key("source_text").begin_array();
    for (auto const& t : texts) {
        if (t) json.value(*t); else json.null();
    }
    json.end_array();
    json.key("source_missing").begin_array();
    for (auto const& f : text.missing()) json.value(f);
    json.end_array();
}

/// The page's JSON: allocations, the values drawn or listed at a peak, bands, and each color's
/// peak and table. Values are referred to by their position in `values`. The page's data: every drawn value (with `src`, the index of its source line in `sources`, the
/// page's list of lines, and `frame`, its innermost Python frame in `frames`, when the module's
/// stack tables give it one), and for each color its peak by source line (`by_source`: the line's
/// index, bytes, and the data indices of its values; sums to the color's peak).
template <class P>
std::string timeline_data_json(hlomem::basic_buffer_assignment<P> const& ba, hlomem::timeline const& tl,
                               hlomem::basic_source_attribution<P> const& sources, std::vector<std::size_t>& data_index,
                               hlomem::source_text* text = nullptr) {
    data_index.assign(ba.values.size(), hlomem::npos);
    std::vector<hlomem::timeline_buffer const*> listed;
    auto list = [&](hlomem::timeline_buffer const& b) {
        if (data_index[b.value] != hlomem::npos) return;
        data_index[b.value] = listed.size();
        listed.push_back(&b);
    };
    for (auto const& c : tl.colors) {
        for (auto const& b : c.buffers) list(b);
        for (auto const& b : c.at_peak) list(b);
    }
    // Each color's peak by source line, and the page's list of source lines: those of the peaks
    // first, largest first, then those of the other drawn values.
    std::vector<std::vector<hlomem::holding_group<hlomem::source_line_key>>> by_source;
    std::map<hlomem::source_line_key, std::size_t> line_index;
    std::vector<hlomem::source_line_key> lines;
    auto line_of = [&](hlomem::source_line_key const& key) {
        auto [it, fresh] = line_index.emplace(key, lines.size());
        if (fresh) lines.push_back(key);
        return it->second;
    };
    for (auto const& c : tl.colors) {
        auto const h = hlomem::holdings_at(ba, c.color, c.peak_time, hlomem::sourced_value_first<P, P>{ba, sources});
        // Grouped by line whatever the kind of origin: a line's own values and those that inherit
        // its bytes are one row and one hue family.
        by_source.push_back(hlomem::group_holdings(h, [&](std::size_t v) { return hlomem::origin_line_key(sources.origin_of(v)); }));
        for (auto const& g : by_source.back()) line_of(g.key);
    }
    auto key_of = [&](std::size_t value) { return hlomem::origin_line_key(sources.origin_of(value)); };
    for (auto const* b : listed) line_of(key_of(b->value));
    std::map<hlomem::shape_id, std::size_t> shape_index;
    std::vector<hlomem::shape_id> shapes;
    for (auto const* b : listed) {
        auto const id = ba.values[b->value].shape;
        if (id != hlomem::no_shape && shape_index.emplace(id, shapes.size()).second) shapes.push_back(id);
    }
    // Only the allocations that a listed value or a band refers to, by their position here.
    std::vector<std::size_t> allocation_index(ba.allocations.size(), hlomem::npos), allocations;
    auto refer = [&](std::size_t a) {
        if (allocation_index[a] == hlomem::npos) {
            allocation_index[a] = allocations.size();
            allocations.push_back(a);
        }
        return allocation_index[a];
    };
    for (auto const* b : listed) refer(b->allocation);
    for (auto const& c : tl.colors) {
        for (auto const& b : c.bands) {
            refer(b.first_allocation);
            refer(b.last_allocation);
        }
    }
    std::ostringstream os;
    json_writer json(os, false);
    json.begin_object();
    json.member("file", ba.file);
    json.member("max", tl.max);
    json.member("size_function", hlomem::to_string(tl.sizing));
    json.key("allocations").begin_array();
    for (std::size_t a : allocations) {
        auto const& alloc = ba.allocations[a];
        json.begin_object();
        json.member("i", alloc.index);
        json.member("kind", hlomem::to_string(alloc.kind()));
        json.member("size", alloc.size);
        if (alloc.parameter_number) json.member("parameter", *alloc.parameter_number);
        json.end_object();
    }
    json.end_array();
    json.key("shapes").begin_array();
    for (auto id : shapes) json.value(hlomem::to_string(ba.shapes[id]));
    json.end_array();
    // Values: "first" (the instruction at the start of the live range) only when it is not the
    // value's own defining instruction, as it mostly is.
    auto const& lr = *ba.live_range;
    // The Python stacks of the values (basic_source_attribution::stack_of), their frames by id.
    std::vector<std::pair<std::string, std::size_t>> frames;  // label (frame_label), parent's position
    std::map<std::int64_t, std::size_t> frame_index;           // StackFrames id -> position in `frames`
    auto frame_of = [&](std::vector<hlomem::python_frame> const& stack) {
        std::size_t parent = hlomem::npos;
        for (auto const& f : stack) {  // outermost first: each frame's parent is already there
            auto [it, fresh] = frame_index.emplace(f.frame_id, frames.size());
            if (fresh) frames.emplace_back(hlomem::c_unescape(hlomem::frame_label(f)), parent);
            parent = it->second;
        }
        return parent;
    };
    json.key("values").begin_array();
    for (auto const* b : listed) {
        auto const& v = ba.values[b->value];
        json.begin_object();
        json.member("id", v.id);
        json.member("name", v.display_name());
        json.key("shape");
        if (v.shape == hlomem::no_shape) json.null(); else json.value(shape_index[v.shape]);
        json.member("size", b->size);
        // padded and unpadded: null for tuples, left out when they equal the assigned size.
        if (!b->padded_bytes) {
            json.key("padded").null();
            json.key("unpadded").null();
        } else {
            if (*b->padded_bytes != b->size) json.member("padded", *b->padded_bytes);
            if (*b->unpadded_bytes != b->size) json.member("unpadded", *b->unpadded_bytes);
        }
        json.member("alloc", allocation_index[b->allocation]);
        json.member("offset", v.offset);
        json.member("start", b->range.start);
        json.member("end", b->range.end);
        if (lr.instruction_at(b->range.start) != std::string_view(v.name)) json.member("first", lr.instruction_at(b->range.start));
        json.member("last", lr.instruction_at(b->range.end));
        write_instruction_members(json, v, sources[b->value], sources.origin_of(b->value));
        json.member("src", line_index[key_of(b->value)]);
        if (auto const stack = sources.stack_of(b->value); !stack.empty()) json.member("frame", frame_of(stack));
        json.end_object();
    }
    json.end_array();
    // The Python frames the values' stacks pass through, each once: `frame` of a value is its
    // innermost, and each frame's `parent` the frame that called it (null: outermost).
    json.key("frames").begin_array();
    for (auto const& [label, parent] : frames) {
        json.begin_object();
        json.member("label", label);
        json.key("parent");
        if (parent == hlomem::npos) json.null(); else json.value(parent);
        json.end_object();
    }
    json.end_array();
    json.key("sources").begin_array();
    for (auto const& key : lines) json.value(source_line_text(key));
    json.end_array();
    // `source_text`: each line's text where its file was found (load/source_text.hpp), else null;
    // left out when no file was found, and `source_missing` lists the files that were not.
    if (text) write_source_text(json, lines, *text);
    write_timeline_bands(json, tl, allocation_index);
    write_timeline_colors(json, tl, by_source, line_index, data_index);
    json.end_object();
    return script_safe_json(os.str());
}

/// A page's head, up to its <body>: a Content-Security-Policy that lets it load nothing (its style
/// and script are inline), `title`, `style`, and the script that reports errors on <body>'s
/// data-errors.
inline void write_page_head(std::ostream& out, std::string const& title, std::string const& style) {
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; "
           "style-src 'unsafe-inline'\">\n"
        << "<title>" << escape_markup(title) << "</title>\n"
        << "<style>" << style << "</style>\n"
        << "<script>window.hlomemErrors=[];window.onerror=function(m,s,l,c){window.hlomemErrors.push(String(m)+' (line '+l+':'+c+')');"
           "if(document.body)document.body.setAttribute('data-errors',window.hlomemErrors.join('; '));};</script>\n"
        << "</head>\n<body data-errors=\"\">\n";
}

/// The whole page.
template <class P>
void write_timeline_html(std::ostream& os, hlomem::basic_buffer_assignment<P> const& ba, hlomem::timeline const& tl,
                         hlomem::basic_source_attribution<P> const& sources, hlomem::source_text* text = nullptr) {
    std::vector<std::size_t> data_index;
    std::string const data = timeline_data_json(ba, tl, sources, data_index, text);
    std::ostringstream out;
    write_page_head(out, "memory timeline: " + ba.file, std::string(assets::timeline_css) + assets::page_css);
    out << "<h1>" << escape_markup("memory timeline of " + ba.file) << "</h1>\n";
    std::size_t drawn = 0, aggregated = 0;
    for (auto const& c : tl.colors) {
        drawn += c.buffers.size();
        aggregated += c.aggregated_values;
    }
    out << "<p class=\"summary\">" << ba.allocations.size() << " allocations, " << ba.values.size() << " values, program order 0-"
        << tl.max << "; " << drawn << " values drawn one by one"
        << (aggregated ? ", " + std::to_string(aggregated) + " small ones aggregated into grey bands" : std::string())
        << ". Hover a buffer for its card, click to pin it; hover a source line below a map to see its buffers. Sizes are "
           "assigned bytes; padded and unpadded sizes use the "
        << hlomem::to_string(tl.sizing) << " size function.</p>\n";
    out << "<p class=\"legend\"><label><input type=\"checkbox\" id=\"by-source\"> color the buffers by source line "
           "(one hue family per line; grey: no source)</label></p>\n";
    out << "<p class=\"legend\">";
    for (auto k : all_kinds) {
        out << "<span><svg width=\"11\" height=\"11\" style=\"vertical-align:-1px;margin-right:4px\"><rect class=\"" << kind_class(k)
            << "\" width=\"11\" height=\"11\"/></svg>" << hlomem::to_string(k) << "</span>";
    }
    out << "<span><svg width=\"11\" height=\"11\" style=\"vertical-align:-1px;margin-right:4px\"><rect class=\"band\" width=\"11\" "
           "height=\"11\"/></svg>small values, aggregated</span>";
    if (std::any_of(tl.colors.begin(), tl.colors.end(), [](auto const& c) { return !c.unpadded_live_bytes.empty(); })) {
        out << "<span><svg width=\"22\" height=\"11\" style=\"vertical-align:-1px;margin-right:4px\"><path class=\"unpadded\" "
               "d=\"M0 6H22\"/></svg>live bytes without tiling padding</span>";
    }
    out << "</p>\n";
    std::size_t first_band = 0;
    auto const optima = timeline_optima(ba);
    for (std::size_t k = 0; k < tl.colors.size(); ++k) {
        auto const& c = tl.colors[k];
        out << "<section data-color=\"" << c.color << "\">\n<h2>" << escape_markup(color_heading(c)) << "</h2>\n";
        out << "<p class=\"summary\">" << escape_markup(peak_label(c)) << " = " << c.peak_bytes << " bytes of "
            << hlomem::human_bytes(c.allocated_bytes) << " allocated";
        if (!c.unpadded_live_bytes.empty()) {
            std::int64_t const u = c.unpadded_at(c.peak_time);
            out << "; without tiling padding " << hlomem::human_bytes(u) << " (" << hlomem::human_bytes(c.peak_bytes - u)
                << " of padding at the peak)";
        }
        out << "; " << c.live_at_peak << " values live there";
        if (c.unranged_values) {
            out << "; " << c.unranged_values << " values (" << hlomem::human_bytes(c.unranged_bytes)
                << ") have no live range and are not drawn";
        }
        if (c.aggregated_values) {
            out << "; " << c.aggregated_values << " values of at most " << hlomem::human_bytes(c.largest_aggregated) << " aggregated into "
                << c.bands.size() << " bands";
        }
        out << "</p>\n";
        auto g = geometry_of(tl, 16);
        out << "<svg class=\"timeline\" data-color=\"" << c.color << "\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1000 "
            << coord(g.height()) << "\">\n";
        panel_context<P> const ctx{ba, tl, false, &data_index, first_band, 0, 0, &optima};
        write_color_panel(out, ctx, c, g);
        out << "</svg>\n";
        first_band += c.bands.size();
        out << "<h2>what holds the peak, by source line</h2>\n<div class=\"source-bars\" data-color-index=\"" << k
            << "\"></div>\n";
        out << "<h2>largest values live at the peak (time " << c.peak_time << "; " << c.at_peak.size() << " of " << c.live_at_peak
            << " shown)</h2>\n<table class=\"peak-table\" data-color-index=\"" << k << "\"></table>\n</section>\n";
    }
    out << "<div id=\"card\"></div>\n<script id=\"timeline-data\" type=\"application/json\">" << data << "</script>\n<script>\n"
        << assets::page_js << "</script>\n</body>\n</html>\n";
    os << valid_utf8(out.str());
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_TIMELINE_PAGE_INSTANTIATIONS(EXTERN, P) \
    EXTERN template void write_timeline_svg<P>(std::ostream&, basic_buffer_assignment<P> const&, timeline const&); \
    EXTERN template void write_timeline_html<P>(std::ostream&, basic_buffer_assignment<P> const&, timeline const&, basic_source_attribution<P> const&, source_text*);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_TIMELINE_PAGE_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_TIMELINE_PAGE_HPP
