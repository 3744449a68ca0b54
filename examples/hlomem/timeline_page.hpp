// timeline_page.hpp: draws an hlomem::timeline (<hlomem/memory/timeline.hpp>) as SVG, and as one
// self-contained HTML page: the same SVG inline, the data of every drawn value as JSON, and a
// little plain JavaScript for the hover card and the sortable table of the largest values at each
// peak. The page loads nothing from anywhere (its Content-Security-Policy forbids it).
//
// The page reports what it drew on <body>, for tests and for anyone curious:
//   data-rendered="83"          buffer rectangles in the DOM (one per value drawn one by one)
//   data-bands="0"              rectangles of aggregated small values
//   data-peak-bytes="0:2709520384 1:58720256"   each color's peak, read from the drawn markers
//   data-table-rows="23"        rows of the peak tables
//   data-errors=""              script errors (window.onerror) and inconsistencies it found
//   data-card="exp"             the value whose card page.html#value=ID opened
//   data-script-ms="12"         how long the script took
#ifndef HLOMEM_EXAMPLES_TIMELINE_PAGE_HPP
#define HLOMEM_EXAMPLES_TIMELINE_PAGE_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <hlomem/hlomem.hpp>
#include <hlomem/hlo/metadata.hpp>
#include <hlomem/memory/timeline.hpp>

#include "json_writer.hpp"
#include "report_buffer_assignment.hpp"

namespace hlomem_cli {

// ---------------------------------------------------------------------------------------------
// Text that goes into markup
// ---------------------------------------------------------------------------------------------

/// Text for HTML or SVG (XML) content and attribute values.
inline std::string escape_markup(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default:
                // XML 1.0 allows no control characters but tab, newline and carriage return.
                if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
                    out += "\xEF\xBF\xBD";  // U+FFFD
                } else {
                    out += c;
                }
        }
    }
    return out;
}

/// `s` with every byte sequence that is not UTF-8 replaced by U+FFFD, so that names read from a
/// dump in another encoding cannot make the page or the trace invalid.
inline std::string valid_utf8(std::string s) {
    auto const* p = reinterpret_cast<unsigned char const*>(s.data());
    std::size_t const n = s.size();
    std::size_t i = 0;
    std::string out;
    bool changed = false;
    while (i < n) {
        unsigned char const c = p[i];
        std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        bool ok = len > 0 && i + len <= n;
        for (std::size_t k = 1; ok && k < len; ++k) ok = (p[i + k] & 0xC0) == 0x80;
        if (ok && len > 1) {
            std::uint32_t cp = c & (0xFF >> (len + 1));
            for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (p[i + k] & 0x3F);
            static constexpr std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
            ok = cp >= smallest[len] && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
        }
        if (!ok) {
            if (!changed) out.assign(s, 0, i);
            changed = true;
            out += "\xEF\xBF\xBD";
            ++i;
            continue;
        }
        if (changed) out.append(s, i, len);
        i += len;
    }
    return changed ? out : s;
}

/// JSON for inside a <script> element: `<`, `>` and `&` (which JSON writes only inside strings)
/// as \u escapes, so that no `</script>` or `<!--` in a name can end the element.
inline std::string script_safe_json(std::string const& json) {
    std::string out;
    out.reserve(json.size());
    for (char c : json) {
        if (c == '<') {
            out += "\\u003c";
        } else if (c == '>') {
            out += "\\u003e";
        } else if (c == '&') {
            out += "\\u0026";
        } else {
            out += c;
        }
    }
    return out;
}

/// Coordinates with one decimal, without a trailing `.0`: 12.3, 40.
inline std::string coord(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    std::string s = buf;
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    if (s == "-0") s = "0";
    return s;
}

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

/// The style both the page and the standalone SVG use.
inline constexpr char const* timeline_style =
    ".k-parameter{fill:#4e79a7}.k-output{fill:#59a14f}.k-temp{fill:#f28e2b}.k-constant{fill:#9c755f}"
    ".k-thread-local{fill:#bab0ac}.k-other{fill:#b07aa1}.band{fill:#7f7f7f;fill-opacity:.45}"
    "g[class^=k-] rect{stroke:#fff;stroke-width:.4}"
    ".live{fill:#c6dbef;stroke:#2171b5;stroke-width:1}.unpadded{fill:none;stroke:#cb181d;stroke-width:1.2;stroke-dasharray:4 2}"
    ".axis{stroke:#555;stroke-width:.6}.grid{stroke:#ddd;stroke-width:.5}.sep{stroke:#fff;stroke-width:.6}"
    ".peak line{stroke:#d62728;stroke-width:1;stroke-dasharray:3 2}.peak circle{fill:#d62728}"
    ".alloc-line{stroke:#9e9e9e;stroke-width:.8;stroke-dasharray:1 2}"
    "text{font-family:sans-serif;font-size:10px;fill:#333}.title{font-size:13px;font-weight:bold}"
    ".peak text{fill:#d62728;font-weight:bold}.map-bg{fill:#f4f4f4}";

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
/// (the page's JSON; -1 for the standalone SVG, which carries <title>s instead).
struct panel_context {
    hlomem::buffer_assignment const& ba;
    hlomem::timeline const& tl;
    bool standalone = false;
    std::vector<std::size_t> const* data_index = nullptr;  // by value index; the page's JSON position
    std::size_t first_band = 0;                            // the page's index of this color's first band
};

inline std::string color_heading(hlomem::timeline_color const& c) {
    return "color " + std::to_string(c.color) + (c.color == 0 ? " (device memory)" : " (memory space " + std::to_string(c.color) + ")");
}

inline std::string peak_label(hlomem::timeline_color const& c) {
    std::string s = "peak " + hlomem::human_bytes(c.peak_bytes) + " at " + std::to_string(c.peak_time);
    if (!c.peak_instruction.empty()) s += " (" + c.peak_instruction + ")";
    return s;
}

/// Writes the panel of one color: the live-bytes chart above the buffer map, sharing the time
/// axis, with the peak marked across both. The panel starts at y = g.top.
inline void write_color_panel(std::ostream& out, panel_context const& ctx, hlomem::timeline_color const& c,
                              panel_geometry const& g) {
    auto const& ba = ctx.ba;
    if (ctx.standalone) {
        out << "<text class=\"title\" x=\"" << coord(g.left) << "\" y=\"" << coord(g.top - 14) << "\">"
            << escape_markup(color_heading(c) + ": " + peak_label(c) + ", allocated " + hlomem::human_bytes(c.allocated_bytes))
            << "</text>\n";
    }
    // --- live bytes ------------------------------------------------------------------------
    double const top_bytes = std::max<double>(1.0, static_cast<double>(c.peak_bytes) * 1.1);
    auto yc = [&](double bytes) { return g.curve_bottom() - g.curve_height * bytes / top_bytes; };
    double unit = 1;
    char const* suffix = "B";
    for (char const* s : {"KiB", "MiB", "GiB", "TiB", "PiB"}) {
        if (top_bytes / (unit * 1024) < 1) break;
        unit *= 1024;
        suffix = s;
    }
    double const step = nice_step(top_bytes / unit, 4) * unit;
    for (double b = 0; b <= top_bytes; b += step) {
        out << "<line class=\"grid\" x1=\"" << coord(g.left) << "\" x2=\"" << coord(g.width - g.right) << "\" y1=\"" << coord(yc(b))
            << "\" y2=\"" << coord(yc(b)) << "\"/><text x=\"" << coord(g.left - 4) << "\" y=\"" << coord(yc(b) + 3)
            << "\" text-anchor=\"end\">" << byte_tick(b, unit, suffix) << "</text>\n";
    }
    auto columns = hlomem::curve_columns(c.live_bytes, static_cast<std::size_t>(g.plot_width()) * 2);
    out << "<path class=\"live\" d=\"M" << coord(g.x(0)) << ' ' << coord(yc(0));
    for (auto const& col : columns) {
        out << "L" << coord(g.x(static_cast<double>(col.first))) << ' ' << coord(yc(static_cast<double>(col.high))) << "L"
            << coord(g.x(static_cast<double>(col.last + 1))) << ' ' << coord(yc(static_cast<double>(col.high)));
    }
    out << "L" << coord(g.x(g.steps)) << ' ' << coord(yc(0)) << "Z\"/>\n";
    if (!c.unpadded_live_bytes.empty()) {
        auto const unpadded = hlomem::curve_columns(c.unpadded_live_bytes, static_cast<std::size_t>(g.plot_width()) * 2);
        out << "<path class=\"unpadded\" d=\"";
        char command = 'M';
        for (auto const& col : unpadded) {
            out << command << coord(g.x(static_cast<double>(col.first))) << ' ' << coord(yc(static_cast<double>(col.high))) << "L"
                << coord(g.x(static_cast<double>(col.last + 1))) << ' ' << coord(yc(static_cast<double>(col.high)));
            command = 'L';
        }
        out << "\"/>\n";
    }
    if (static_cast<double>(c.allocated_bytes) <= top_bytes) {
        out << "<line class=\"alloc-line\" x1=\"" << coord(g.left) << "\" x2=\"" << coord(g.width - g.right) << "\" y1=\""
            << coord(yc(static_cast<double>(c.allocated_bytes))) << "\" y2=\"" << coord(yc(static_cast<double>(c.allocated_bytes)))
            << "\"/><text x=\"" << coord(g.left + 4) << "\" y=\"" << coord(yc(static_cast<double>(c.allocated_bytes)) - 3)
            << "\">allocated " << hlomem::human_bytes(c.allocated_bytes) << "</text>\n";
    }
    out << "<line class=\"axis\" x1=\"" << coord(g.left) << "\" x2=\"" << coord(g.left) << "\" y1=\"" << coord(g.top) << "\" y2=\""
        << coord(g.curve_bottom()) << "\"/><line class=\"axis\" x1=\"" << coord(g.left) << "\" x2=\"" << coord(g.width - g.right)
        << "\" y1=\"" << coord(g.curve_bottom()) << "\" y2=\"" << coord(g.curve_bottom()) << "\"/>\n";
    out << "<text x=\"4\" y=\"" << coord(g.top + 8) << "\">live bytes</text>\n";

    // --- buffer map ------------------------------------------------------------------------
    double const map_bytes = std::max<double>(1.0, static_cast<double>(c.allocated_bytes));
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
                out << "><title>" << escape_markup(value_label(v)) << ": " << hlomem::human_bytes(b.size) << ", live "
                    << b.range.start << '-' << b.range.end << "</title></rect>\n";
            } else {
                out << " data-v=\"" << (*ctx.data_index)[b.value] << "\"/>\n";
            }
        }
        if (any) out << "</g>\n";
    }
    out << "<line class=\"axis\" x1=\"" << coord(g.left) << "\" x2=\"" << coord(g.width - g.right) << "\" y1=\""
        << coord(g.map_bottom()) << "\" y2=\"" << coord(g.map_bottom()) << "\"/>\n";
    double const tick = nice_step(g.steps, 8);
    for (double t = 0; t <= g.steps; t += tick) {
        out << "<line class=\"axis\" x1=\"" << coord(g.x(t)) << "\" x2=\"" << coord(g.x(t)) << "\" y1=\"" << coord(g.map_bottom())
            << "\" y2=\"" << coord(g.map_bottom() + 4) << "\"/><text x=\"" << coord(g.x(t)) << "\" y=\"" << coord(g.map_bottom() + 14)
            << "\" text-anchor=\"middle\">" << static_cast<std::int64_t>(t) << "</text>\n";
    }
    out << "<text x=\"" << coord(g.width - g.right) << "\" y=\"" << coord(g.map_bottom() + 26)
        << "\" text-anchor=\"end\">program order (logical time)</text>\n";

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
inline void write_timeline_svg(std::ostream& os, hlomem::buffer_assignment const& ba, hlomem::timeline const& tl) {
    std::ostringstream out;
    panel_context const ctx{ba, tl, true, nullptr, 0};
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
        << "\" viewBox=\"0 0 1000 " << coord(y) << "\">\n<style>" << timeline_style << "</style>\n"
        << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
        << "<text class=\"title\" x=\"8\" y=\"20\">" << escape_markup("memory timeline of " + ba.file) << "</text>\n"
        << body.str() << "</svg>\n";
    os << valid_utf8(out.str());
}

// ---------------------------------------------------------------------------------------------
// The page
// ---------------------------------------------------------------------------------------------

/// What the dump says of a value's defining instruction, as members of the object being written:
/// opcode, and op_name, op_type, source_file and source_line from its metadata where it has them.
inline void write_instruction_members(json_writer& json, hlomem::logical_value const& v) {
    if (!std::string_view(v.instruction_opcode).empty()) json.member("opcode", std::string_view(v.instruction_opcode));
    if (auto m = hlomem::instruction_metadata(v.instruction_text)) {
        if (!m->op_name.empty()) json.member("op_name", hlomem::c_unescape(m->op_name));
        if (!m->op_type.empty()) json.member("op_type", hlomem::c_unescape(m->op_type));
        if (!m->source_file.empty()) json.member("source_file", hlomem::c_unescape(m->source_file));
        if (m->source_line != 0) json.member("source_line", m->source_line);
    }
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

/// The page's JSON: allocations, the values drawn or listed at a peak, bands, and each color's
/// peak and table. Values are referred to by their position in `values`.
inline std::string timeline_data_json(hlomem::buffer_assignment const& ba, hlomem::timeline const& tl,
                                      std::vector<std::size_t>& data_index) {
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
    json.key("values").begin_array();
    for (auto const* b : listed) {
        auto const& v = ba.values[b->value];
        json.begin_object();
        json.member("id", v.id);
        json.member("name", value_label(v));
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
        write_instruction_members(json, v);
        json.end_object();
    }
    json.end_array();
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
    json.key("colors").begin_array();
    for (auto const& c : tl.colors) {
        json.begin_object();
        write_color_members(json, c);
        json.key("at_peak").begin_array();
        for (auto const& b : c.at_peak) json.value(data_index[b.value]);
        json.end_array();
        json.end_object();
    }
    json.end_array();
    json.end_object();
    return script_safe_json(os.str());
}

/// The page's script: the hover card, the peak tables, and the report on <body>.
inline constexpr char const* timeline_script = R"JS(
(function () {
  'use strict';
  var started = performance.now();
  var body = document.body;
  var data = JSON.parse(document.getElementById('timeline-data').textContent);
  data.values.forEach(function (v) {  // sizes left out of the data equal the assigned size
    if (v.padded === undefined) v.padded = v.size;
    if (v.unpadded === undefined) v.unpadded = v.size;
  });
  var card = document.getElementById('card');
  var pinned = false;

  function human(b) {  // XLA's HumanReadableNumBytes, as hlomem::human_bytes
    if (b < 1024) return b + 'B';
    var units = 'KMGTPE', u = 0, v = b;
    while (v >= 1048576) { v = Math.floor(v / 1024); ++u; }
    return (v / 1024).toFixed(u === 0 ? 1 : 2) + units[u] + 'iB';
  }
  function exact(b) { return b.toLocaleString('en-US') + ' bytes (' + human(b) + ')'; }
  function allocText(i) {
    var a = data.allocations[i];
    return 'allocation ' + a.i + ' (' + a.kind + (a.parameter !== undefined ? ' ' + a.parameter : '') + ', ' + human(a.size) + ')';
  }
  function row(table, label, text) {
    var tr = table.insertRow(), th = document.createElement('th'), td = tr.insertCell();
    th.textContent = label; tr.insertBefore(th, td); td.textContent = text;
  }
  function fill(title, rows) {
    card.textContent = '';
    var h = document.createElement('div'); h.className = 'card-title'; h.textContent = title; card.appendChild(h);
    var t = document.createElement('table'); card.appendChild(t);
    rows.forEach(function (r) { if (r[1] !== null && r[1] !== undefined) row(t, r[0], r[1]); });
    var note = document.createElement('div'); note.className = 'card-note';
    note.textContent = pinned ? 'pinned: click anywhere else to release' : 'click to pin'; card.appendChild(note);
  }
  function valueCard(k) {
    var v = data.values[k];
    var padding = v.padded !== null && v.unpadded !== null ? v.padded - v.unpadded : null;
    fill('value ' + v.id + ': ' + v.name, [
      ['shape', v.shape === null ? '?' : data.shapes[v.shape]],
      ['assigned', exact(v.size)],
      ['padded', v.padded === null ? 'tuple: a table of pointers' : exact(v.padded)],
      ['unpadded', v.unpadded === null ? null : exact(v.unpadded)],
      ['padding', padding === null ? null : padding === 0 ? 'none' : exact(padding) + (v.unpadded > 0 ? ', ' + (v.padded / v.unpadded).toFixed(2) + 'x the unpadded size' : '')],
      ['allocation', allocText(v.alloc) + ', offset ' + v.offset.toLocaleString('en-US')],
      ['live', v.start + '-' + v.end + ' (from ' + (v.first || v.name.replace(/\{[0-9,]*\}$/, '')) + ' to ' + v.last + ')'],
      ['instruction', v.opcode || null],
      ['op_name', v.op_name || null],
      ['op_type', v.op_type || null],
      ['source', v.source_file ? v.source_file + (v.source_line ? ':' + v.source_line : '') : null]
    ]);
  }
  function bandCard(k) {
    var b = data.bands[k];
    var where = b.first_alloc === b.last_alloc
      ? allocText(b.first_alloc) + ', offsets ' + b.offset.toLocaleString('en-US') + '-' + (b.offset + b.height).toLocaleString('en-US')
      : 'allocations ' + data.allocations[b.first_alloc].i + ' to ' + data.allocations[b.last_alloc].i + ', ' + human(b.height) + ' of the stacked map';
    fill(b.values + ' small values, aggregated', [
      ['bytes', exact(b.bytes) + ' in all'],
      ['largest', exact(b.largest)],
      ['where', where],
      ['live', b.start + '-' + b.end]
    ]);
  }
  function place(e) {
    var x = e.clientX + 14, y = e.clientY + 14;
    card.style.display = 'block';
    if (x + card.offsetWidth > window.innerWidth) x = Math.max(0, e.clientX - card.offsetWidth - 14);
    if (y + card.offsetHeight > window.innerHeight) y = Math.max(0, e.clientY - card.offsetHeight - 14);
    card.style.left = x + 'px'; card.style.top = y + 'px';
  }
  var highlighted = null;
  function highlight(el) {
    if (highlighted) highlighted.classList.remove('hl');
    highlighted = el; if (el) el.classList.add('hl');
  }
  function show(target, e) {
    if (target.hasAttribute('data-v')) valueCard(+target.getAttribute('data-v'));
    else bandCard(+target.getAttribute('data-b'));
    highlight(target); place(e);
  }
  document.querySelectorAll('svg.timeline').forEach(function (svg) {
    svg.addEventListener('mousemove', function (e) {
      if (pinned) return;
      var t = e.target;
      if (t.hasAttribute && (t.hasAttribute('data-v') || t.hasAttribute('data-b'))) show(t, e);
      else { card.style.display = 'none'; highlight(null); }
    });
    svg.addEventListener('mouseleave', function () { if (!pinned) { card.style.display = 'none'; highlight(null); } });
  });
  document.addEventListener('click', function (e) {
    var t = e.target;
    if (t.hasAttribute && (t.hasAttribute('data-v') || t.hasAttribute('data-b'))) { pinned = true; show(t, e); return; }
    var tr = t.closest ? t.closest('tr[data-k]') : null;
    if (tr) { pinned = true; rowCard(tr, e); return; }
    if (!card.contains(t)) { pinned = false; card.style.display = 'none'; highlight(null); }
  });

  // The largest values at each peak: one table per color, sortable by its column headers.
  var columns = [
    ['#', function (v, r) { return r; }, null],
    ['value', function (v) { return v.name; }, null],
    ['shape', function (v) { return v.shape === null ? '?' : data.shapes[v.shape]; }, null],
    ['size', function (v) { return v.size; }, human],
    ['unpadded', function (v) { return v.unpadded === null ? -1 : v.unpadded; }, function (x) { return x < 0 ? '-' : human(x); }],
    ['padding', function (v) { return v.padded === null || v.unpadded === null ? 0 : v.padded - v.unpadded; }, human],
    ['live (program order)', function (v) { return v.start; }, null],
    ['allocation', function (v) { return v.alloc; }, null]
  ];
  var tableRows = 0;
  function rowCard(tr, e) { valueCard(+tr.getAttribute('data-k')); highlight(document.querySelector('rect[data-v="' + tr.getAttribute('data-k') + '"]')); place(e); }
  document.querySelectorAll('table.peak-table').forEach(function (table) {
    var color = data.colors[+table.getAttribute('data-color-index')];
    var head = table.createTHead().insertRow();
    var state = { column: 3, descending: true };
    columns.forEach(function (c, i) {
      var th = document.createElement('th'); th.textContent = c[0];
      if (i === 0 || i === 3 || i === 4 || i === 5 || i === 6) {
        th.className = 'sortable';
        th.addEventListener('click', function () {
          state.descending = state.column === i ? !state.descending : i !== 6 && i !== 0;
          state.column = i; draw();
        });
      }
      head.appendChild(th);
    });
    var tbody = table.createTBody();
    var entries = color.at_peak.map(function (k, r) { return { k: k, rank: r + 1 }; });
    tableRows += entries.length;
    function draw() {
      var key = columns[state.column][1];
      entries.sort(function (a, b) {
        var x = key(data.values[a.k], a.rank), y = key(data.values[b.k], b.rank);
        var d = x < y ? -1 : x > y ? 1 : 0;
        return d === 0 ? a.rank - b.rank : state.descending ? -d : d;  // ties keep the order by size
      });
      tbody.textContent = '';
      entries.forEach(function (en) {
        var v = data.values[en.k], tr = tbody.insertRow();
        tr.setAttribute('data-k', en.k);
        columns.forEach(function (c, i) {
          var x = c[1](v, en.rank), td = tr.insertCell();
          td.textContent = i === 7 ? allocText(x) : i === 6 ? v.start + '-' + v.end : c[2] ? c[2](x) : x;
          if (i >= 3 && i <= 5) td.className = 'num';
        });
        tr.addEventListener('mouseenter', function () { highlight(document.querySelector('rect[data-v="' + en.k + '"]')); });
      });
      head.querySelectorAll('th').forEach(function (th, i) {
        th.setAttribute('aria-sort', i === state.column ? (state.descending ? 'descending' : 'ascending') : 'none');
      });
    }
    draw();
  });

  // page.html#value=ID opens the card of value ID, pinned beside its rectangle: a link to a buffer.
  function openFromHash() {
    var m = /^#value=(\d+)$/.exec(window.location.hash);
    if (!m) return;
    var k = -1;
    data.values.forEach(function (v, i) { if (v.id === +m[1]) k = i; });
    if (k < 0) { window.hlomemErrors.push('no value ' + m[1] + ' in this page'); return; }
    var target = document.querySelector('rect[data-v="' + k + '"]');
    var box = target ? target.getBoundingClientRect() : { right: 20, bottom: 20 };
    pinned = true; valueCard(k); highlight(target);
    place({ clientX: box.right, clientY: box.bottom });
    body.setAttribute('data-card', data.values[k].name);
  }
  openFromHash();
  window.addEventListener('hashchange', function () { pinned = false; openFromHash(); });

  // What the page drew, checked against its data.
  var problems = [];
  var drawn = 0, peaks = [];
  data.colors.forEach(function (c) {
    var svg = document.querySelector('svg.timeline[data-color="' + c.color + '"]');
    if (!svg) { problems.push('color ' + c.color + ' has no picture'); return; }
    var n = svg.querySelectorAll('rect[data-v]').length;
    if (n !== c.drawn) problems.push('color ' + c.color + ': ' + n + ' rectangles for ' + c.drawn + ' values');
    drawn += n;
    var marker = svg.querySelector('g.peak');
    var peak = marker ? marker.getAttribute('data-peak-bytes') : 'none';
    if (peak !== String(c.peak_bytes)) problems.push('color ' + c.color + ': the marker shows ' + peak + ', the data ' + c.peak_bytes);
    peaks.push(c.color + ':' + peak);
  });
  body.setAttribute('data-rendered', String(drawn));
  body.setAttribute('data-bands', String(document.querySelectorAll('svg.timeline rect[data-b]').length));
  body.setAttribute('data-peak-bytes', peaks.join(' '));
  body.setAttribute('data-table-rows', String(tableRows));
  window.hlomemErrors = window.hlomemErrors.concat(problems);
  body.setAttribute('data-errors', window.hlomemErrors.join('; '));
  body.setAttribute('data-script-ms', String(Math.round(performance.now() - started)));
})();
)JS";

/// The page's own style, besides timeline_style.
inline constexpr char const* page_style =
    "body{font-family:sans-serif;margin:16px 24px;color:#222;max-width:1100px}"
    "h1{font-size:18px;margin:0 0 4px}h2{font-size:15px;margin:22px 0 4px}"
    ".summary{color:#555;font-size:13px;margin:2px 0}.legend span{display:inline-block;margin-right:14px;font-size:12px}"
    ".legend i{display:inline-block;width:11px;height:11px;margin-right:4px;vertical-align:-1px}"
    "svg.timeline{width:100%;height:auto;display:block}"
    "rect.hl{stroke:#000;stroke-width:1.5;fill-opacity:1}"
    "#card{position:fixed;display:none;background:#fff;border:1px solid #888;box-shadow:0 2px 8px rgba(0,0,0,.25);"
    "padding:6px 8px;font-size:12px;max-width:560px;z-index:10;pointer-events:auto}"
    "#card th{text-align:left;color:#666;font-weight:normal;padding-right:8px;vertical-align:top}"
    "#card td{word-break:break-all}.card-title{font-weight:bold;margin-bottom:4px;word-break:break-all}"
    ".card-note{color:#999;font-size:10px;margin-top:4px}"
    "table.peak-table{border-collapse:collapse;font-size:12px;margin-top:6px;width:100%}"
    "table.peak-table th,table.peak-table td{border-bottom:1px solid #e4e4e4;padding:2px 6px;text-align:left}"
    "table.peak-table td.num{text-align:right;white-space:nowrap}table.peak-table td:nth-child(3){word-break:break-all}"
    "table.peak-table th.sortable{cursor:pointer;text-decoration:underline dotted}"
    "table.peak-table tbody tr:hover{background:#fff3cd;cursor:pointer}";

/// The whole page.
inline void write_timeline_html(std::ostream& os, hlomem::buffer_assignment const& ba, hlomem::timeline const& tl) {
    std::vector<std::size_t> data_index;
    std::string const data = timeline_data_json(ba, tl, data_index);
    std::ostringstream out;
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; "
           "style-src 'unsafe-inline'\">\n"
        << "<title>" << escape_markup("memory timeline: " + ba.file) << "</title>\n"
        << "<style>" << timeline_style << page_style << "</style>\n"
        << "<script>window.hlomemErrors=[];window.onerror=function(m,s,l,c){window.hlomemErrors.push(String(m)+' (line '+l+':'+c+')');"
           "if(document.body)document.body.setAttribute('data-errors',window.hlomemErrors.join('; '));};</script>\n"
        << "</head>\n<body data-errors=\"\">\n";
    out << "<h1>" << escape_markup("memory timeline of " + ba.file) << "</h1>\n";
    std::size_t drawn = 0, aggregated = 0;
    for (auto const& c : tl.colors) {
        drawn += c.buffers.size();
        aggregated += c.aggregated_values;
    }
    out << "<p class=\"summary\">" << ba.allocations.size() << " allocations, " << ba.values.size() << " values, program order 0-"
        << tl.max << "; " << drawn << " values drawn one by one"
        << (aggregated ? ", " + std::to_string(aggregated) + " small ones aggregated into grey bands" : std::string())
        << ". Hover a buffer for its card, click to pin it. Sizes are assigned bytes; padded and unpadded sizes use the "
        << hlomem::to_string(tl.sizing) << " size function.</p>\n";
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
        panel_context const ctx{ba, tl, false, &data_index, first_band};
        write_color_panel(out, ctx, c, g);
        out << "</svg>\n";
        first_band += c.bands.size();
        out << "<h2>largest values live at the peak (time " << c.peak_time << "; " << c.at_peak.size() << " of " << c.live_at_peak
            << " shown)</h2>\n<table class=\"peak-table\" data-color-index=\"" << k << "\"></table>\n</section>\n";
    }
    out << "<div id=\"card\"></div>\n<script id=\"timeline-data\" type=\"application/json\">" << data << "</script>\n<script>"
        << timeline_script << "</script>\n</body>\n</html>\n";
    os << valid_utf8(out.str());
}

}  // namespace hlomem_cli

#endif  // HLOMEM_EXAMPLES_TIMELINE_PAGE_HPP
