// hlomem/memory/interval_sweep.hpp: endpoint sweeps over live intervals — every overlapping pair in
// O(n log n + E), and the heaviest moment (the maximum-weight clique of an interval graph) in
// O(n) after a radix sort of the endpoints (detail/radix_sort.hpp). No Boost.Graph here; the
// graph headers and the soundness check build on these.
//
//   time   0   1   2   3   4   5
//   a      [=======]                 a: [0, 2]
//   b          [===========]         b: [1, 4]
//   c                  [=======]     c: [3, 5]
//   overlapping pairs: (a, b), (b, c); heaviest moment: any time covered by two intervals.
//
// Intervals are XLA's live ranges: inclusive at both ends, so [0, 2] and [2, 4] overlap at 2.
#ifndef HLOMEM_MEMORY_INTERVAL_SWEEP_HPP
#define HLOMEM_MEMORY_INTERVAL_SWEEP_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <queue>
#include <utility>
#include <vector>

#include <hlomem/detail/radix_sort.hpp>
#include <hlomem/dump/live_range.hpp>

namespace hlomem {

/// Calls `visit(i, j)` once for every pair of items whose intervals overlap, i visited before j
/// in start order. `interval(i)` gives item i's live_interval for i in [0, n). Items are swept in
/// start order while a min-heap on end time holds the ones still open, so the cost is
/// O(n log n + E) where E is the number of pairs visited (the heap's log n; the start order is a
/// radix sort).
template <class IntervalOf, class Visit>
void for_each_overlapping_pair(std::size_t n, IntervalOf interval, Visit visit) {
    // Most allocations of a large dump hold one or two values: no sweep (and no memory) for them.
    if (n < 2) return;
    if (n == 2) {
        live_interval const a = interval(0), b = interval(1);
        if (b.start < a.start) {
            if (b.end >= a.start) visit(1, 0);
        } else if (a.end >= b.start) {
            visit(0, 1);
        }
        return;
    }
    // Each interval read once: `interval` may look far into memory (a value of a large dump), and
    // the sort would otherwise call it O(n log n) times.
    std::vector<live_interval> ranges(n);
    for (std::size_t i = 0; i < n; ++i) ranges[i] = interval(i);
    // Start order, items of one start by index: a stable radix sort of the starts' distance from
    // the first (no overflow whatever the times).
    logical_time first = ranges[0].start;
    for (live_interval const& r : ranges) first = std::min(first, r.start);
    struct started {
        std::uint64_t since_first;
        std::size_t item;
    };
    std::vector<started> starts(n);
    for (std::size_t i = 0; i < n; ++i) {
        starts[i] = {static_cast<std::uint64_t>(ranges[i].start) - static_cast<std::uint64_t>(first), i};
    }
    detail::radix_sort(starts, [](started const& e) { return e.since_first; });
    using entry = std::pair<logical_time, std::size_t>;  // (end, item)
    std::priority_queue<entry, std::vector<entry>, std::greater<entry>> ends;
    std::vector<std::size_t> open;      // items not yet closed, in start order
    std::vector<bool> closed(n, false);
    for (started const& e : starts) {
        std::size_t const i = e.item;
        live_interval const r = ranges[i];
        // Close everything that ended before this start (inclusive ends: end < start).
        bool any_closed = false;
        while (!ends.empty() && ends.top().first < r.start) {
            closed[ends.top().second] = true;
            ends.pop();
            any_closed = true;
        }
        if (any_closed) {
            open.erase(std::remove_if(open.begin(), open.end(), [&](std::size_t k) { return closed[k]; }), open.end());
        }
        for (std::size_t j : open) visit(j, i);
        open.push_back(i);
        ends.emplace(r.end, i);
    }
}

/// The heaviest moment of a set of weighted intervals: the earliest time at which the total
/// weight of the intervals covering it is largest — for an interval graph, the weight of its
/// maximum-weight clique, which no allocator can go below.
struct heaviest_moment {
    logical_time time = 0;
    std::int64_t weight = 0;
    std::vector<std::size_t> items;  ///< the items covering `time`, in index order
};

/// max_weight_moment of `weight`, and in the same sweep the largest total of `other_weight` over
/// the same intervals (at whatever time it is reached), written to `other_max`: one sort of the
/// events for both (compute_memory_analysis replays its chains with the padded and the unpadded
/// sizes).
template <class IntervalOf, class WeightOf, class OtherWeightOf>
heaviest_moment max_weight_moment(std::size_t n, IntervalOf interval, WeightOf weight, OtherWeightOf other_weight,
                                  std::int64_t& other_max) {
    heaviest_moment best;
    other_max = 0;
    // With no negative weight, the running sum is highest after a time's opens, in whatever order
    // they come: the weight covering each time is what matters, and when the times span little
    // more than there are intervals, a difference array over them gives it in O(n + span), with
    // no sort. The earliest time of the largest cover is the moment the sorted events give.
    logical_time first = 0, last = -1;
    bool negative = false;
    for (std::size_t i = 0; i < n; ++i) {
        live_interval const r = interval(i);
        if (r.start > r.end) continue;
        negative = negative || weight(i) < 0 || other_weight(i) < 0;
        if (last < first) first = r.start, last = r.end;
        first = std::min(first, r.start);
        last = std::max(last, r.end);
    }
    if (last < first) return best;
    if (!negative && static_cast<std::uint64_t>(last) - static_cast<std::uint64_t>(first) <= 4 * static_cast<std::uint64_t>(n) + 1024) {
        struct change {
            std::int64_t weight = 0, other = 0;
        };
        std::vector<change> changes(static_cast<std::size_t>(last - first) + 2);
        for (std::size_t i = 0; i < n; ++i) {
            live_interval const r = interval(i);
            if (r.start > r.end) continue;
            std::int64_t const w = weight(i), o = other_weight(i);
            auto& open = changes[static_cast<std::size_t>(r.start - first)];
            auto& close = changes[static_cast<std::size_t>(r.end - first) + 1];
            open.weight += w;
            close.weight -= w;
            open.other += o;
            close.other -= o;
        }
        std::int64_t running = 0, other_running = 0;
        for (std::size_t t = 0; t + 1 < changes.size(); ++t) {
            running += changes[t].weight;
            other_running += changes[t].other;
            other_max = std::max(other_max, other_running);
            if (running > best.weight) {
                best.weight = running;
                best.time = first + static_cast<logical_time>(t);
            }
        }
    } else {
        // Events keyed by their distance from the first time (no overflow whatever the times),
        // the opens listed before the closes: the sort is stable, so that at one time the opens
        // come first ([0,2] and [2,4] meet at 2), each kind in item order.
        struct event {
            std::uint64_t since_first;
            std::size_t item;
            bool close;
        };
        std::vector<event> events;
        events.reserve(2 * n);
        for (int close = 0; close < 2; ++close) {
            for (std::size_t i = 0; i < n; ++i) {
                live_interval const r = interval(i);
                if (r.start > r.end) continue;
                logical_time const t = close ? r.end : r.start;
                events.push_back({static_cast<std::uint64_t>(t) - static_cast<std::uint64_t>(first), i, close != 0});
            }
        }
        detail::radix_sort(events, [](event const& e) { return e.since_first; });
        std::int64_t running = 0, other_running = 0;
        for (auto const& e : events) {
            if (e.close) {
                running -= weight(e.item);
                other_running -= other_weight(e.item);
            } else {
                running += weight(e.item);
                other_running += other_weight(e.item);
                other_max = std::max(other_max, other_running);
                if (running > best.weight) {
                    best.weight = running;
                    best.time = static_cast<logical_time>(static_cast<std::uint64_t>(first) + e.since_first);
                }
            }
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (interval(i).contains(best.time) && best.weight > 0) best.items.push_back(i);
    }
    return best;
}

template <class IntervalOf, class WeightOf>
heaviest_moment max_weight_moment(std::size_t n, IntervalOf interval, WeightOf weight) {
    std::int64_t unused = 0;
    return max_weight_moment(n, interval, weight, [](std::size_t) { return std::int64_t{0}; }, unused);
}

}  // namespace hlomem

#endif  // HLOMEM_MEMORY_INTERVAL_SWEEP_HPP
