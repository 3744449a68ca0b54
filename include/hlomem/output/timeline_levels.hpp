// hlomem/output/timeline_levels.hpp: the horizontal lines across a color's live-bytes chart on the
// timeline page: what XLA allocated for the color, the most bytes live at once (what any allocator
// needs: the peak with no fragmentation), and what the color would take with the smallest temp
// arenas hlomem's exact search finds (placement/temp_optimum.hpp). The cost of fragmentation is
// the distance between the lines:
//
//   - - - - - - - - - - - - - - - - - - - - - - - -  allocated 1.02GiB
//   - - - - - - - - - - - - - - - - - - - - - - - -  with hlomem's temp arena 1.02GiB (proven)
//   ________/\____________/\_____ - - - - - - - - -  most live at once 1.02GiB
//
// Each line's text sits at another place along it (left, middle, right), so that lines a few
// pixels apart keep their texts apart.
#ifndef HLOMEM_OUTPUT_TIMELINE_LEVELS_HPP
#define HLOMEM_OUTPUT_TIMELINE_LEVELS_HPP

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/memory/timeline.hpp>
#include <hlomem/output/markup.hpp>
#include <hlomem/placement/temp_optimum.hpp>

namespace hlomem {

struct timeline_level {
    std::int64_t bytes = 0;
    std::string text;
};

/// The lines across color `c`'s chart: allocated; with `optima` (temp_optima of the dump; null:
/// allocated alone, as the diff page draws), the most bytes live at once, and the allocated
/// bytes with the color's temp arenas at the smallest hlomem finds, where it searched them all.
inline std::vector<timeline_level> timeline_levels(timeline_color const& c, std::vector<color_temp_optimum> const* optima) {
    std::vector<timeline_level> out{{c.allocated_bytes, "allocated " + human_bytes(c.allocated_bytes)}};
    if (!optima) return out;
    for (auto const& o : *optima) {
        if (o.color != c.color || o.unsearched > 0) continue;
        std::int64_t const with = c.allocated_bytes - o.xla_bytes + o.smallest_bytes;
        out.push_back({with, "with hlomem's temp arena " + human_bytes(with) + (o.proven ? " (proven smallest)" : " (found)")});
    }
    out.push_back({c.peak_bytes, "most live at once " + human_bytes(c.peak_bytes)});
    return out;
}

/// What the page draws the last two levels from: temp_optima of `ba` (none without live ranges).
template <class P>
std::vector<color_temp_optimum> timeline_optima(basic_buffer_assignment<P> const& ba) {
    if (!ba.live_range) return {};
    return temp_optima(ba);
}

/// Draws each level at or below `top_bytes` from x = `left` to `right`, at the height `y(bytes)`.
template <class Y>
void write_timeline_levels(std::ostream& out, std::vector<timeline_level> const& levels, double left, double right, double top_bytes,
                           Y y) {
    char const* const anchors[] = {"start", "middle", "end"};
    double const xs[] = {left + 4, (left + right) / 2, right - 4};
    for (std::size_t k = 0; k < levels.size(); ++k) {
        auto const& l = levels[k];
        if (static_cast<double>(l.bytes) > top_bytes) continue;
        double const at = y(static_cast<double>(l.bytes));
        out << "<line class=\"alloc-line\" x1=\"" << coord(left) << "\" x2=\"" << coord(right) << "\" y1=\"" << coord(at) << "\" y2=\""
            << coord(at) << "\"/><text x=\"" << coord(xs[k % 3]) << "\" y=\"" << coord(at - 3) << "\""
            << (k % 3 == 0 ? "" : std::string(" text-anchor=\"") + anchors[k % 3] + "\"") << ">" << escape_markup(l.text)
            << "</text>\n";
    }
}

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_TIMELINE_LEVELS_HPP
