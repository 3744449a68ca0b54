// hlomem/memory/timeline.hpp: what a memory timeline draws, computed from a buffer assignment with live
// ranges: per color (memory space), the bytes live over program order and the buffer map, in the
// manner of XProf's Memory Viewer. No drawing happens here; `hlomem timeline` turns this into an
// HTML page, an SVG picture or a Chrome/Perfetto trace, and other tools can do their own.
//
//   bytes ^          peak 2.52GiB at 78 (fusion)
//         |             _____|
//         |   ______---      |_           live bytes: the union of the assigned slices of the
//         |__|                 |____      values live at each time (peak.hpp)
//         +------------------------> program order (logical time 0..max)
//
//   offset ^ +--------------------+       buffer map: one rectangle per value, x = its live range
//   alloc 6| |  fusion.10{0}  |   |       (inclusive, so [start, end + 1) on the axis), y = its
//          | +----------------+   |       offset in its allocation; the allocations of a color
//   alloc 2|========== param =====|       are stacked in index order, as peak.hpp measures them
//          +------------------------>
//
// Large dumps stay drawable: when a color has more values than `max_rectangles`, the values
// smaller than `small_fraction` of the color's stacked height (less than a pixel at any usual
// picture height), and beyond that the smallest, are aggregated into *bands*: in a grid of rows
// of the map by columns of time, the bytes they span in each cell, merged along time where the
// span is the same.
//
// Sizes: `size` is what the dump assigns; `padded_bytes` what the shape needs under the dump's size
// function (tiles included); `unpadded_bytes` the shape's data alone (shape_size.hpp
// unpadded_byte_size), as XProf and TPU OOM reports count them. The unpadded curve measures each
// live slice less its tiling padding (memory/analysis.hpp padding_of_values).
#ifndef HLOMEM_MEMORY_TIMELINE_HPP
#define HLOMEM_MEMORY_TIMELINE_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <queue>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/dump/live_range.hpp>
#include <hlomem/memory/analysis.hpp>
#include <hlomem/memory/peak.hpp>
#include <hlomem/memory/soundness.hpp>

namespace hlomem {

struct timeline_options {
    /// The size function of `padded_bytes`; by default the dump's own (size_function_of).
    std::optional<size_function_kind> size_function;
    /// At most this many values of one color are drawn one by one; the rest are aggregated.
    std::size_t max_rectangles = 2000;
    /// Over max_rectangles, values smaller than this fraction of the color's stacked allocation
    /// bytes are aggregated first.
    double small_fraction = 1.0 / 1000;
    /// Aggregated values are summarized in a grid of this many rows of the stacked map (about its
    /// height in pixels) by this many columns of time.
    std::size_t band_rows = 300;
    std::size_t band_columns = 500;
    /// How many of the largest values live at each peak `at_peak` lists.
    std::size_t peak_rows = 50;
};

/// One value placed on the map.
struct timeline_buffer {
    std::size_t value = npos;       ///< index into ba.values
    std::size_t allocation = npos;  ///< index into ba.allocations
    live_interval range;            ///< inclusive, clipped to [0, max]
    std::int64_t y = 0;             ///< the allocation's base in the stacked map + the value's offset
    std::int64_t size = 0;          ///< assigned bytes
    std::optional<std::int64_t> padded_bytes;    ///< what its array shape needs (none for tuples)
    std::optional<std::int64_t> unpadded_bytes;  ///< its array shape's data alone (none for tuples)

    /// Tiling padding: padded − unpadded, 0 when unknown.
    std::int64_t padding_bytes() const noexcept {
        return padded_bytes && unpadded_bytes ? *padded_bytes - *unpadded_bytes : 0;
    }
};

/// Small values aggregated over a stretch of time and of the stacked map: `values` of them, live
/// at some time of `range`, within the bytes [y, y + height).
struct timeline_band {
    live_interval range;   ///< inclusive: the first start and last end of its values, within its columns
    std::int64_t y = 0;
    std::int64_t height = 0;
    std::size_t first_allocation = npos;  ///< its values lie in allocations first..last (stacked in order)
    std::size_t last_allocation = npos;
    std::size_t values = 0;
    std::int64_t bytes = 0;    ///< Σ of its values' bytes within [y, y + height)
    std::int64_t largest = 0;  ///< the largest assigned size among its values
};

/// Where an allocation sits in its color's stacked map: bytes [y, y + size).
struct timeline_allocation {
    std::size_t allocation = npos;
    std::int64_t y = 0;
    std::int64_t size = 0;
};

/// Everything drawn for one color.
struct timeline_color {
    std::int64_t color = 0;
    std::int64_t allocated_bytes = 0;            ///< Σ allocation sizes: the map's height
    std::vector<std::int64_t> live_bytes;        ///< at each time 0..max (peak.hpp assigned_live_bytes)
    /// The same without tiling padding; empty when it equals live_bytes (nothing live is padded).
    std::vector<std::int64_t> unpadded_live_bytes;
    logical_time peak_time = 0;                  ///< first time live_bytes reaches its maximum
    std::int64_t peak_bytes = 0;
    std::string peak_instruction;                ///< the instruction at peak_time (InstructionSequence)
    std::vector<timeline_allocation> allocations;
    std::vector<timeline_buffer> buffers;        ///< drawn one by one, in value order
    std::vector<timeline_band> bands;            ///< the aggregated rest, by row of the map, then time
    std::size_t ranged_values = 0;               ///< values on the time axis: buffers + aggregated
    std::size_t aggregated_values = 0;           ///< how many of them the bands hold
    std::int64_t largest_aggregated = 0;         ///< the largest assigned size among those
    std::vector<timeline_buffer> at_peak;        ///< the largest values live at peak_time, largest first
    std::size_t live_at_peak = 0;                ///< how many values are live at peak_time
    std::int64_t unranged_values = 0;            ///< values without a live range: not on the time axis
    std::int64_t unranged_bytes = 0;

    /// Bytes without tiling padding at `t` (the assigned bytes where nothing is padded).
    std::int64_t unpadded_at(logical_time t) const {
        auto const& curve = unpadded_live_bytes.empty() ? live_bytes : unpadded_live_bytes;
        return t >= 0 && static_cast<std::size_t>(t) < curve.size() ? curve[static_cast<std::size_t>(t)] : 0;
    }
};

struct timeline {
    logical_time max = 0;  ///< the time axis runs over 0..max (HloLiveRange's max), inclusive
    size_function_kind sizing = size_function_kind::xla;
    std::vector<timeline_color> colors;  ///< by color number
};

namespace detail {

/// The sizes timeline_buffer reports for every value: padded and unpadded bytes of sized arrays.
template <class P>
struct timeline_sizes {
    std::vector<std::optional<std::int64_t>> padded, unpadded;

    timeline_sizes(basic_buffer_assignment<P> const& ba, size_function_kind sizing)
        : padded(ba.values.size()), unpadded(ba.values.size()) {
        for (auto const& p : padding_of_values(ba, sizing)) {
            padded[p.value] = p.padded_bytes;
            unpadded[p.value] = p.unpadded_bytes;
        }
    }
    /// The value's assigned bytes less its tiling padding (never below 0, never above its size).
    std::int64_t unpadded_slice(basic_buffer_assignment<P> const& ba, std::size_t i) const {
        std::int64_t const size = ba.values[i].size;
        if (!padded[i] || !unpadded[i]) return size;
        std::int64_t const padding = std::clamp<std::int64_t>(*padded[i] - *unpadded[i], 0, std::max<std::int64_t>(size, 0));
        return size - padding;
    }
};

/// A value the time axis shows: placed in an allocation, with bytes and a live range that meets
/// [0, max]. Values with a reversed or negative range are left to check_consistency to report.
template <class P>
bool on_time_axis(basic_logical_value<P> const& v, logical_time max) {
    return v.allocation != npos && v.size > 0 && v.live_range && v.live_range->start <= v.live_range->end &&
           v.live_range->end >= 0 && v.live_range->start <= max;
}

/// Aggregates the values `small` (indices into ba.values) into bands. The color's stacked map
/// (`height` bytes over times 0..max) is cut into a grid of `rows` × `columns` cells; each cell
/// keeps the span [lowest, highest) of the bytes of the small values live in it, and neighbouring
/// cells of a row with the same span become one band. A value counts in every band it meets, with
/// its bytes inside the band's row. O(Σ cells each value meets): for a sound dump, whose values
/// share a place on the map only when they share memory on purpose, about the number of values
/// plus the cells of the grid.
template <class P>
std::vector<timeline_band> aggregate_bands(basic_buffer_assignment<P> const& ba, std::vector<std::size_t> const& small,
                                           std::vector<std::int64_t> const& base, logical_time max, std::int64_t height,
                                           std::size_t rows, std::size_t columns) {
    std::vector<timeline_band> bands;
    if (small.empty()) return bands;
    std::int64_t const row_count = static_cast<std::int64_t>(std::max<std::size_t>(rows, 1));
    std::int64_t const column_count = static_cast<std::int64_t>(std::max<std::size_t>(columns, 1));
    std::int64_t const row_height = std::max<std::int64_t>(1, (std::max<std::int64_t>(height, 1) + row_count - 1) / row_count);
    std::int64_t const width = (max + 1 + column_count - 1) / column_count;  // times per column
    struct cell {
        std::int64_t lo, hi;
        std::size_t band = npos;
    };
    auto key = [&](std::int64_t row, std::int64_t column) {
        return static_cast<std::uint64_t>(row) * static_cast<std::uint64_t>(column_count) + static_cast<std::uint64_t>(column);
    };
    // Calls visit(row, column, lo, hi) for every cell the value meets, row by row, with the part
    // [lo, hi) of its bytes inside the row.
    auto for_each_cell = [&](std::size_t i, auto visit) {
        auto const& v = ba.values[i];
        std::int64_t const lo = base[v.allocation] + v.offset, hi = lo + v.size;
        std::int64_t const first = std::max<logical_time>(v.live_range->start, 0) / width;
        std::int64_t const last = std::min(v.live_range->end, max) / width;
        for (std::int64_t row = lo / row_height; row <= (hi - 1) / row_height; ++row) {
            std::int64_t const row_lo = std::max(lo, row * row_height), row_hi = std::min(hi, (row + 1) * row_height);
            for (std::int64_t column = first; column <= last; ++column) visit(row, column, row_lo, row_hi);
        }
    };
    std::unordered_map<std::uint64_t, cell> cells;
    for (std::size_t i : small) {
        for_each_cell(i, [&](std::int64_t row, std::int64_t column, std::int64_t lo, std::int64_t hi) {
            auto [it, fresh] = cells.try_emplace(key(row, column), cell{lo, hi});
            if (!fresh) {
                it->second.lo = std::min(it->second.lo, lo);
                it->second.hi = std::max(it->second.hi, hi);
            }
        });
    }
    std::vector<std::uint64_t> keys;
    keys.reserve(cells.size());
    for (auto const& entry : cells) keys.push_back(entry.first);
    std::sort(keys.begin(), keys.end());
    for (std::size_t k = 0; k < keys.size(); ++k) {
        auto& c = cells[keys[k]];
        if (k > 0 && keys[k] == keys[k - 1] + 1 && keys[k] % static_cast<std::uint64_t>(column_count) != 0) {
            auto const& left = cells[keys[k - 1]];
            if (left.lo == c.lo && left.hi == c.hi) {
                c.band = left.band;
                continue;
            }
        }
        c.band = bands.size();
        timeline_band b;
        b.range = {max + 1, -1};
        b.y = c.lo;
        b.height = c.hi - c.lo;
        bands.push_back(b);
    }
    for (std::size_t i : small) {
        auto const& v = ba.values[i];
        std::size_t previous = npos;
        for_each_cell(i, [&](std::int64_t, std::int64_t column, std::int64_t lo, std::int64_t hi) {
            std::size_t const index = cells[key(lo / row_height, column)].band;
            auto& b = bands[index];
            if (index != previous) {
                ++b.values;
                b.bytes += hi - lo;
                b.largest = std::max(b.largest, v.size);
                b.first_allocation = std::min(b.first_allocation, v.allocation);
                b.last_allocation = b.last_allocation == npos ? v.allocation : std::max(b.last_allocation, v.allocation);
                previous = index;
            }
            b.range.start = std::min(b.range.start, std::max(v.live_range->start, column * width));
            b.range.end = std::max(b.range.end, std::min({v.live_range->end, column * width + width - 1, max}));
        });
    }
    return bands;
}

}  // namespace detail

/// The data of a memory timeline of `ba`: no colors when the dump has no live ranges.
template <class P>
timeline make_timeline(basic_buffer_assignment<P> const& ba, timeline_options const& options = {}) {
    timeline out;
    out.sizing = options.size_function.value_or(size_function_of(ba));
    if (!ba.live_range) return out;
    out.max = std::max<logical_time>(ba.live_range->max, 0);
    detail::timeline_sizes<P> const sizes(ba, out.sizing);
    auto const assigned = assigned_live_bytes(ba);
    auto const unpadded = live_slice_bytes(ba, [&](std::size_t i) { return sizes.unpadded_slice(ba, i); });

    // Allocations of a color stacked in index order, as live_slice_bytes places them.
    std::vector<std::int64_t> base(ba.allocations.size(), 0);
    std::map<std::int64_t, std::vector<timeline_allocation>> stacked;
    for (std::size_t a = 0; a < ba.allocations.size(); ++a) {
        auto& column = stacked[ba.allocations[a].color];
        base[a] = column.empty() ? 0 : column.back().y + column.back().size;
        column.push_back({a, base[a], std::max<std::int64_t>(ba.allocations[a].size, 0)});
    }
    auto placed = [&](std::size_t i) {
        auto const& v = ba.values[i];
        timeline_buffer b;
        b.value = i;
        b.allocation = v.allocation;
        b.range = *v.live_range;
        b.range.start = std::max<logical_time>(b.range.start, 0);
        b.range.end = std::min(b.range.end, out.max);
        b.y = base[v.allocation] + v.offset;
        b.size = v.size;
        b.padded_bytes = sizes.padded[i];
        b.unpadded_bytes = sizes.unpadded[i];
        return b;
    };

    for (std::size_t k = 0; k < assigned.size(); ++k) {
        auto const& live = assigned[k];
        timeline_color c;
        c.color = live.color;
        c.allocated_bytes = live.allocated_bytes;
        c.live_bytes = live.bytes_at;
        if (unpadded[k].bytes_at != live.bytes_at) c.unpadded_live_bytes = unpadded[k].bytes_at;
        c.peak_time = live.peak_time;
        c.peak_bytes = live.peak_bytes;
        c.peak_instruction = std::string(ba.live_range->instruction_at(live.peak_time));
        c.allocations = stacked[live.color];
        c.unranged_values = live.unranged_values;
        c.unranged_bytes = live.unranged_bytes;

        // The values on the time axis, as live_slice_bytes counts them.
        std::vector<std::size_t> ranged;
        for (std::size_t i = 0; i < ba.values.size(); ++i) {
            auto const& v = ba.values[i];
            if (detail::on_time_axis(v, out.max) && ba.allocations[v.allocation].color == c.color) ranged.push_back(i);
        }
        c.ranged_values = ranged.size();
        std::vector<std::size_t> drawn = ranged, small;
        if (ranged.size() > options.max_rectangles) {
            // Largest first (ties: earlier value first); keep those above the threshold, up to the limit.
            auto const threshold = static_cast<std::int64_t>(static_cast<double>(c.allocated_bytes) * options.small_fraction);
            std::stable_sort(drawn.begin(), drawn.end(), [&](std::size_t a, std::size_t b) { return ba.values[a].size > ba.values[b].size; });
            std::size_t keep = 0;
            while (keep < drawn.size() && keep < options.max_rectangles && ba.values[drawn[keep]].size >= threshold) ++keep;
            small.assign(drawn.begin() + static_cast<std::ptrdiff_t>(keep), drawn.end());
            drawn.resize(keep);
            std::sort(drawn.begin(), drawn.end());
            c.aggregated_values = small.size();
            c.largest_aggregated = ba.values[small.front()].size;
            std::sort(small.begin(), small.end());
        }
        c.buffers.reserve(drawn.size());
        for (std::size_t i : drawn) c.buffers.push_back(placed(i));
        c.bands = detail::aggregate_bands(ba, small, base, out.max, c.allocated_bytes, options.band_rows, options.band_columns);

        auto const live_now = values_live_at(ba, c.color, c.peak_time);
        c.live_at_peak = live_now.size();
        for (std::size_t r = 0; r < live_now.size() && r < options.peak_rows; ++r) c.at_peak.push_back(placed(live_now[r]));
        out.colors.push_back(std::move(c));
    }
    return out;
}

/// A stretch of the time axis summarized for a picture narrower than the program: the lowest and
/// highest value of a curve over the times first..last.
struct curve_column {
    logical_time first = 0;
    logical_time last = 0;
    std::int64_t low = 0;
    std::int64_t high = 0;
};

/// `curve` (one value per time) in at most `columns` columns of consecutive times; one column per
/// time when the curve is that short. Drawing each column's `high` never hides the peak.
inline std::vector<curve_column> curve_columns(std::vector<std::int64_t> const& curve, std::size_t columns) {
    std::vector<curve_column> out;
    std::size_t const n = curve.size();
    std::size_t const k = std::min(n, std::max<std::size_t>(columns, 1));
    out.reserve(k);
    for (std::size_t c = 0; c < k; ++c) {
        std::size_t const first = c * n / k, last = (c + 1) * n / k - 1;
        auto const [low, high] = std::minmax_element(curve.begin() + static_cast<std::ptrdiff_t>(first),
                                                      curve.begin() + static_cast<std::ptrdiff_t>(last) + 1);
        out.push_back({static_cast<logical_time>(first), static_cast<logical_time>(last), *low, *high});
    }
    return out;
}

/// One sample of a counter track: the bytes from `time` until the next sample.
struct counter_point {
    logical_time time = 0;
    std::int64_t bytes = 0;
    std::int64_t unpadded_bytes = 0;
};

/// The color's curves where they change: a sample at 0, one wherever either curve changes, and a
/// last one at max + 1 with nothing live, so that the last time keeps its width.
inline std::vector<counter_point> counter_points(timeline_color const& c) {
    std::vector<counter_point> out;
    for (std::size_t t = 0; t < c.live_bytes.size(); ++t) {
        auto const time = static_cast<logical_time>(t);
        counter_point const p{time, c.live_bytes[t], c.unpadded_at(time)};
        if (out.empty() || out.back().bytes != p.bytes || out.back().unpadded_bytes != p.unpadded_bytes) out.push_back(p);
    }
    out.push_back({static_cast<logical_time>(c.live_bytes.size()), 0, 0});
    return out;
}

/// One value as a slice of a trace: on `lane` (0, 1, ... within its color) over its live range.
/// Slices of one lane never share a time, so that trace viewers, which nest the slices of a
/// thread, show each on its own.
struct trace_slice {
    std::size_t value = npos;  ///< index into ba.values
    std::int64_t color = 0;
    std::size_t lane = 0;
    live_interval range;  ///< inclusive, clipped to [0, max]
};

/// Every value on the time axis as a trace slice, by color, then start, then value. Lanes are
/// given greedily in order of start, reusing the lane freed earliest: a color needs as many lanes
/// as it has values live at once, and no more.
template <class P>
std::vector<trace_slice> trace_slices(basic_buffer_assignment<P> const& ba) {
    std::vector<trace_slice> out;
    if (!ba.live_range) return out;
    logical_time const max = std::max<logical_time>(ba.live_range->max, 0);
    for (std::size_t i = 0; i < ba.values.size(); ++i) {
        auto const& v = ba.values[i];
        if (!detail::on_time_axis(v, max)) continue;
        live_interval range{std::max<logical_time>(v.live_range->start, 0), std::min(v.live_range->end, max)};
        out.push_back({i, ba.allocations[v.allocation].color, 0, range});
    }
    std::sort(out.begin(), out.end(), [](trace_slice const& a, trace_slice const& b) {
        return std::tie(a.color, a.range.start, a.value) < std::tie(b.color, b.range.start, b.value);
    });
    using lane_end = std::pair<logical_time, std::size_t>;  // (last time used, lane)
    std::priority_queue<lane_end, std::vector<lane_end>, std::greater<>> busy;
    std::size_t lanes = 0;
    for (std::size_t k = 0; k < out.size(); ++k) {
        if (k > 0 && out[k].color != out[k - 1].color) {
            busy = {};
            lanes = 0;
        }
        if (!busy.empty() && busy.top().first < out[k].range.start) {
            out[k].lane = busy.top().second;
            busy.pop();
        } else {
            out[k].lane = lanes++;
        }
        busy.push({out[k].range.end, out[k].lane});
    }
    return out;
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_TIMELINE_INSTANTIATIONS(EXTERN, P) \
    EXTERN template timeline make_timeline<P>(basic_buffer_assignment<P> const&, timeline_options const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_TIMELINE_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_MEMORY_TIMELINE_HPP
