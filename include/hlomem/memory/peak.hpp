// hlomem/memory/peak.hpp: the peak memory moment of a buffer assignment, two ways.
//
// 1. XLA's own (xla/hlo/utils/hlo_live_range.cc, docs/FORMATS.md 6.2), reproduced exactly so that
//    it can be checked against the `Live ranges at N (peak):` the dump states.
//    The moment (HloLiveRange::ComputePeakMemoryMoment), one rule in every XLA version:
//      - events (start, add) and (end + 1, remove) for every value with a live range, sorted as
//        tuples (time, is_end, value): at equal times adds come before removes, so a value that
//        ended at t - 1 still counts at t;
//      - each event weighs ShapeUtil::ByteSizeOf(value->instruction()->shape(), 8): the defining
//        instruction's *whole* shape, so every value of a tuple-shaped instruction weighs the
//        tuple's whole pointer table;
//      - a running sum; the peak is the time of the first event at which it strictly exceeds
//        every earlier sum (`if (peak_usage < memory_usage)`), 0 when nothing is ever live.
//    The listing that follows it (HloLiveRange::ToString) is every value with start <= peak <= end,
//    in one of two forms, each a part of the dump's text (peak_size_rule):
//      - older XLA: `    name: N bytes`, in value order, N the whole instruction's ByteSizeOf;
//      - newest XLA: `    name{index}: N bytes (cumulative: M bytes)`, N = ByteSizeOf(
//        value->shape(), 8), the value's own sub-shape, sorted by N descending, then by
//        (instruction name, shape index) ascending, M the running total.
//    These sizes are unpadded and use no TPU tiling: they are XLA's estimate, not the memory.
//
// 2. What the hardware holds: for each color (memory space), the bytes that live values occupy
//    at each logical time, with their *assigned* slices [offset, offset + size) in their
//    allocations. Slices that share memory (aliases, in-place updates) count once.
#ifndef HLOMEM_MEMORY_PEAK_HPP
#define HLOMEM_MEMORY_PEAK_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/core/shape_size.hpp>
#include <hlomem/detail/interval_union.hpp>
#include <hlomem/dump/buffer_assignment.hpp>

namespace hlomem {

/// Which of XLA's two listings of the values at the peak (HloLiveRange::ToString) to reproduce.
/// The peak moment itself does not depend on it (compute_xla_peak).
enum class peak_size_rule : std::uint8_t {
    instruction_shape,  ///< older XLA: `name: N bytes`, value order, ByteSizeOf(whole defining instruction shape, 8)
    value_subshape,     ///< newest XLA: `name{index}: N bytes (cumulative: M bytes)`, by size, ByteSizeOf(own sub-shape, 8)
};

/// The listing a dump's stated peak was printed in (the newest carries cumulative sums); the
/// older one when the dump states no peak.
template <class P>
peak_size_rule peak_rule_of(basic_buffer_assignment<P> const& ba) {
    if (ba.live_range && ba.live_range->stated_peak && ba.live_range->stated_peak->sized_by_subshape()) {
        return peak_size_rule::value_subshape;
    }
    return peak_size_rule::instruction_shape;
}

/// The size of `v` in XLA's listing of the peak under `rule`, or nullopt when the dump lacks the
/// shape it needs (no Used-values block). Under instruction_shape it is also the weight of `v`'s
/// events in the peak moment (compute_xla_peak).
template <class P>
std::optional<std::int64_t> xla_peak_size(basic_buffer_assignment<P> const& ba, basic_logical_value<P> const& v,
                                          peak_size_rule rule) {
    auto const* instruction = ba.instruction_shape_of(v);
    if (rule == peak_size_rule::instruction_shape) {
        if (instruction) return byte_size_of(*instruction, 8);
        // A top-level value's own shape is its instruction's shape.
        if (v.index.empty()) {
            if (auto const* own = ba.shape_of(v)) return byte_size_of(*own, 8);
        }
        return std::nullopt;
    }
    if (instruction) return byte_size_of(instruction->subshape(v.index), 8);
    if (auto const* own = ba.shape_of(v)) return byte_size_of(*own, 8);
    return std::nullopt;
}

/// XLA's peak moment and its listing, reproduced.
struct xla_peak {
    logical_time time = 0;
    std::int64_t bytes = 0;                 ///< the running sum at the peak event (whole instruction shapes)
    std::vector<std::size_t> values;        ///< live at `time`, in the order XLA lists them under `rule`
    std::vector<std::int64_t> sizes;        ///< each one's size in the listing under `rule`
    peak_size_rule rule = peak_size_rule::instruction_shape;
    std::vector<std::size_t> unsized;       ///< values with a live range but no size (no block)
};

/// XLA's peak moment (HloLiveRange::ComputePeakMemoryMoment, hlo_live_range.cc):
///
///   events.emplace_back(it->second.start, false, value);
///   events.emplace_back(it->second.end + 1, true, value);
///   std::sort(events.begin(), events.end());
///   ... auto buffer_size = ShapeUtil::ByteSizeOf(value->instruction()->shape(), 8);
///   ... if (peak_usage < memory_usage) { peak_usage = memory_usage; peak_time = time; }
///
/// and the values live there (start <= peak <= end) in the listing `rule` names
/// (HloLiveRange::ToString): value order with whole-instruction sizes, or each value's own
/// sub-shape, sorted by size descending, then by (instruction name, shape index) ascending.
template <class P>
xla_peak compute_xla_peak(basic_buffer_assignment<P> const& ba, peak_size_rule rule) {
    xla_peak out;
    out.rule = rule;
    // Each sized value once, in value order: its live range as events [start, end + 1), its
    // weight in the moment, its size in the listing and its index. Everything after the one pass
    // over the values (whose records a dump of 10^6 values holds in some 300 MB) reads these 40
    // bytes a value: the running sum, the values live at the peak and their sizes.
    struct sized_value {
        logical_time start;
        logical_time end;  // exclusive: the time of its remove event
        std::int64_t bytes;   // ByteSizeOf(value->instruction()->shape(), 8)
        std::int64_t listed;  // its size in the listing under `rule`
        std::size_t value;
    };
    std::vector<sized_value> sized;
    sized.reserve(ba.values.size());
    // xla_peak_size, with ByteSizeOf of each whole shape of the table computed once (a large dump
    // names a few hundred shapes for a million values); only a tuple element's sub-shape is sized
    // for its value alone.
    std::vector<std::int64_t> whole_size(ba.shapes.size(), -1);
    auto size_of_shape = [&](shape_id id) {
        std::int64_t& z = whole_size[static_cast<std::size_t>(id)];
        if (z < 0) z = byte_size_of(ba.shapes[id], 8);
        return z;
    };
    auto cached_size = [&](basic_logical_value<P> const& v, peak_size_rule r) -> std::optional<std::int64_t> {
        if (v.instruction_shape != no_shape && (r == peak_size_rule::instruction_shape || v.index.empty())) {
            return size_of_shape(v.instruction_shape);
        }
        if (v.instruction_shape == no_shape && v.shape != no_shape && (r == peak_size_rule::value_subshape || v.index.empty())) {
            return size_of_shape(v.shape);
        }
        return xla_peak_size(ba, v, r);
    };
    logical_time first_time = 0, last_time = 0;
    bool negative = false;
    for (std::size_t i = 0; i < ba.values.size(); ++i) {
        auto const& v = ba.values[i];
        if (!v.live_range) continue;
        auto const weight = cached_size(v, peak_size_rule::instruction_shape);
        auto const listed = rule == peak_size_rule::instruction_shape ? weight : cached_size(v, rule);
        if (!weight || !listed) {
            out.unsized.push_back(i);
            continue;
        }
        negative = negative || *weight < 0;
        logical_time const end = v.live_range->end + 1;
        if (sized.empty()) first_time = last_time = v.live_range->start;
        first_time = std::min({first_time, v.live_range->start, end});
        last_time = std::max({last_time, v.live_range->start, end});
        sized.push_back({v.live_range->start, end, *weight, *listed, i});
    }
    std::int64_t running = 0, peak = 0;
    if (!negative && first_time >= 0 && static_cast<std::size_t>(last_time) <= 8 * sized.size() + 1024) {
        // Sizes are not negative and adds come first, so within one time the running sum is
        // highest right after that time's adds, in whatever order they come: only each time's
        // total added and removed matter. Times of a dump run from 0 to max + 1; summed in
        // buckets, in O(n + max), they give the moment the sorted events give.
        struct bucket {
            std::int64_t added = 0, removed = 0;
        };
        std::vector<bucket> at(static_cast<std::size_t>(last_time) + 1);
        for (auto const& s : sized) {
            at[static_cast<std::size_t>(s.start)].added += s.bytes;
            at[static_cast<std::size_t>(s.end)].removed += s.bytes;
        }
        for (std::size_t t = 0; t < at.size(); ++t) {
            running += at[t].added;
            if (running > peak) {
                peak = running;
                out.time = static_cast<logical_time>(t);
            }
            running -= at[t].removed;
        }
    } else {
        struct event {
            logical_time time;
            bool remove;  // adds (false) sort before removes (true) at equal times
            std::int64_t bytes;
        };
        std::vector<event> events;
        events.reserve(2 * sized.size());
        for (auto const& s : sized) {
            events.push_back({s.start, false, s.bytes});
            events.push_back({s.end, true, s.bytes});
        }
        std::stable_sort(events.begin(), events.end(), [](event const& a, event const& b) {
            if (a.time != b.time) return a.time < b.time;
            return !a.remove && b.remove;
        });
        for (auto const& e : events) {
            running += e.remove ? -e.bytes : e.bytes;
            if (running > peak) {
                peak = running;
                out.time = e.time;
            }
        }
    }
    out.bytes = peak;
    // The values live at the peak, in value order, with their sizes in the listing.
    std::vector<std::pair<std::size_t, std::int64_t>> live;
    for (auto const& s : sized) {
        if (s.start <= out.time && out.time < s.end) live.emplace_back(s.value, s.listed);
    }
    if (rule == peak_size_rule::value_subshape) {
        std::stable_sort(live.begin(), live.end(), [&](auto const& a, auto const& b) {
            if (a.second != b.second) return a.second > b.second;
            auto const& va = ba.values[a.first];
            auto const& vb = ba.values[b.first];
            int const c = std::string_view(va.name).compare(std::string_view(vb.name));
            return c != 0 ? c < 0 : va.index < vb.index;
        });
    }
    out.values.reserve(live.size());
    out.sizes.reserve(live.size());
    for (auto const& [value, bytes] : live) {
        out.values.push_back(value);
        out.sizes.push_back(bytes);
    }
    return out;
}

/// XLA's peak with the listing the dump states its peak in (peak_rule_of).
template <class P>
xla_peak compute_xla_peak(basic_buffer_assignment<P> const& ba) {
    return compute_xla_peak(ba, peak_rule_of(ba));
}

/// Compares the peak a dump states with the reproduced one: time, then each entry's name,
/// index (when printed), bytes and running total (when printed: the newest listing), in order.
/// Either listing is read; `computed` should be in the dump's (compute_xla_peak(ba) is). Empty
/// when they agree.
template <class P>
std::vector<diagnostic> compare_stated_peak(basic_buffer_assignment<P> const& ba, xla_peak const& computed) {
    std::vector<diagnostic> out;
    if (!ba.live_range || !ba.live_range->stated_peak) return out;
    auto const& stated = *ba.live_range->stated_peak;
    if (stated.time != computed.time) {
        out.push_back(dump_inconsistency(stated.line, "the dump states the peak at " + std::to_string(stated.time) +
                                        "; its live ranges put it at " + std::to_string(computed.time)));
        return out;
    }
    if (stated.entries.size() != computed.values.size()) {
        out.push_back(dump_inconsistency(stated.line, "the dump lists " + std::to_string(stated.entries.size()) +
                                        " values at the peak; its live ranges give " +
                                        std::to_string(computed.values.size())));
    }
    std::size_t const n = std::min(stated.entries.size(), computed.values.size());
    std::int64_t cumulative = 0;
    for (std::size_t i = 0; i < n; ++i) {
        auto const& e = stated.entries[i];
        auto const& v = ba.values[computed.values[i]];
        cumulative += computed.sizes[i];
        bool const same = std::string_view(e.name) == std::string_view(v.name) && (!e.index || *e.index == v.index) &&
                          e.bytes == computed.sizes[i] && (!e.cumulative_bytes || *e.cumulative_bytes == cumulative);
        if (!same) {
            out.push_back(dump_inconsistency(e.line, "peak entry " + std::to_string(i + 1) + " is " + std::string(std::string_view(e.name)) +
                                       (e.index ? to_string(*e.index) : std::string()) + ": " + std::to_string(e.bytes) +
                                       " bytes" +
                                       (e.cumulative_bytes ? " (cumulative: " + std::to_string(*e.cumulative_bytes) + " bytes)" : std::string()) +
                                       "; the live ranges give " + std::string(std::string_view(v.name)) +
                                       to_string(v.index) + ": " + std::to_string(computed.sizes[i]) + " bytes" +
                                       (e.cumulative_bytes ? " (cumulative: " + std::to_string(cumulative) + " bytes)" : std::string())));
            break;
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// What the hardware holds
// ---------------------------------------------------------------------------------------------

/// Bytes occupied over logical time in one color (memory space).
struct color_live_bytes {
    std::int64_t color = 0;
    std::int64_t allocated_bytes = 0;     ///< Σ sizes of the color's allocations
    std::vector<std::int64_t> bytes_at;   ///< bytes_at[t] for t in [0, max] (inclusive)
    logical_time peak_time = 0;           ///< first time the peak is reached
    std::int64_t peak_bytes = 0;
    std::int64_t unranged_values = 0;     ///< values of this color without a live range
    std::int64_t unranged_bytes = 0;      ///< and their assigned bytes
};

/// For each color, the bytes that live values occupy at each time, measured as the union of
/// slices [offset, offset + slice_bytes(i)) of the values i (allocations never overlap; within
/// one, shared slices count once). `slice_bytes(i)` (i an index into ba.values) is normally the
/// assigned size (assigned_live_bytes); a smaller one measures part of each slice, e.g. its
/// bytes without tiling padding (timeline.hpp). Values without a live range (thread-local
/// reducers) are not on the time axis; their count and bytes are reported. Empty when the dump
/// has no live ranges. O(n log n + max · colors).
/// Where each allocation starts when the allocations of a color are placed end to end, in
/// allocation order (negative sizes count as 0): the one coordinate system in which slices of
/// different allocations never share a byte, used to measure the union of live slices.
template <class P>
std::vector<std::int64_t> allocation_bases(basic_buffer_assignment<P> const& ba) {
    std::map<std::int64_t, std::int64_t> next_base;
    std::vector<std::int64_t> base(ba.allocations.size(), 0);
    for (std::size_t i = 0; i < ba.allocations.size(); ++i) {
        auto const& a = ba.allocations[i];
        base[i] = next_base[a.color];
        next_base[a.color] += std::max<std::int64_t>(a.size, 0);
    }
    return base;
}

template <class P, class SliceBytes>
std::vector<color_live_bytes> live_slice_bytes(basic_buffer_assignment<P> const& ba, SliceBytes slice_bytes) {
    std::map<std::int64_t, color_live_bytes> by_color;
    for (auto const& a : ba.allocations) {
        auto& c = by_color[a.color];
        c.color = a.color;
        c.allocated_bytes += a.size;
    }
    std::vector<std::int64_t> const base = allocation_bases(ba);
    if (!ba.live_range) return {};
    logical_time const horizon = std::max<logical_time>(ba.live_range->max, 0);
    std::vector<color_live_bytes> out;
    for (auto& [color, result] : by_color) {
        struct item {
            std::int64_t begin, end;
            live_interval range;
        };
        std::vector<item> items;
        std::vector<std::int64_t> coordinates;
        for (std::size_t i = 0; i < ba.values.size(); ++i) {
            auto const& v = ba.values[i];
            if (v.allocation == npos || ba.allocations[v.allocation].color != color) continue;
            std::int64_t const bytes = slice_bytes(i);
            if (bytes <= 0) continue;
            if (!v.live_range) {
                ++result.unranged_values;
                result.unranged_bytes += bytes;
                continue;
            }
            if (v.live_range->start > v.live_range->end || v.live_range->end < 0) continue;  // reported by check_consistency
            std::int64_t const begin = base[v.allocation] + v.offset;
            live_interval range = *v.live_range;
            range.start = std::max<logical_time>(range.start, 0);
            items.push_back({begin, begin + bytes, range});
            coordinates.push_back(begin);
            coordinates.push_back(begin + bytes);
        }
        detail::interval_union live(std::move(coordinates));
        // Each slice's endpoints as positions in the union's tree, found once (a slice is added
        // and removed once each); starts and ends in time order, as (time, item) pairs.
        std::vector<std::pair<std::size_t, std::size_t>> position(items.size());
        std::vector<std::pair<logical_time, std::size_t>> by_start(items.size()), by_end(items.size());
        for (std::size_t i = 0; i < items.size(); ++i) {
            position[i] = {live.position(items[i].begin), live.position(items[i].end)};
            by_start[i] = {items[i].range.start, i};
            by_end[i] = {items[i].range.end, i};
        }
        std::sort(by_start.begin(), by_start.end());
        std::sort(by_end.begin(), by_end.end());
        result.bytes_at.assign(static_cast<std::size_t>(horizon) + 1, 0);
        std::size_t next_start = 0, next_end = 0;
        for (logical_time t = 0; t <= horizon; ++t) {
            // Live at t: start <= t <= end. Every item is added (at its start) before it is removed
            // (once its end has passed), so the counts never go negative.
            while (next_start < by_start.size() && by_start[next_start].first <= t) {
                auto const& at = position[by_start[next_start++].second];
                live.update_positions(at.first, at.second, +1);
            }
            while (next_end < by_end.size() && by_end[next_end].first < t) {
                auto const& at = position[by_end[next_end++].second];
                live.update_positions(at.first, at.second, -1);
            }
            std::int64_t const bytes = live.covered();
            result.bytes_at[static_cast<std::size_t>(t)] = bytes;
            if (bytes > result.peak_bytes) {
                result.peak_bytes = bytes;
                result.peak_time = t;
            }
        }
        out.push_back(std::move(result));
    }
    return out;
}

/// For each color, the bytes that live values occupy at each time: the union of their assigned
/// slices [offset, offset + size) (live_slice_bytes with the assigned sizes).
template <class P>
std::vector<color_live_bytes> assigned_live_bytes(basic_buffer_assignment<P> const& ba) {
    return live_slice_bytes(ba, [&](std::size_t i) { return ba.values[i].size; });
}

/// The values of `color` live at time `t`, largest assigned size first (ties by id).
template <class P>
std::vector<std::size_t> values_live_at(basic_buffer_assignment<P> const& ba, std::int64_t color, logical_time t) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < ba.values.size(); ++i) {
        auto const& v = ba.values[i];
        if (v.allocation == npos || !v.live_range || !v.live_range->contains(t)) continue;
        if (ba.allocations[v.allocation].color != color) continue;
        out.push_back(i);
    }
    std::stable_sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) { return ba.values[a].size > ba.values[b].size; });
    return out;
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_PEAK_INSTANTIATIONS(EXTERN, P) \
    EXTERN template xla_peak compute_xla_peak<P>(basic_buffer_assignment<P> const&, peak_size_rule); \
    EXTERN template xla_peak compute_xla_peak<P>(basic_buffer_assignment<P> const&); \
    EXTERN template std::vector<diagnostic> compare_stated_peak<P>(basic_buffer_assignment<P> const&, xla_peak const&); \
    EXTERN template std::vector<color_live_bytes> assigned_live_bytes<P>(basic_buffer_assignment<P> const&); \
    EXTERN template std::vector<std::size_t> values_live_at<P>(basic_buffer_assignment<P> const&, std::int64_t, logical_time);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_PEAK_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_MEMORY_PEAK_HPP
