// hlomem/placement/best_fit.hpp: XLA's GlobalDecreasingSizeBestFitHeap, the algorithm that
// places the temp buffers of every XLA program (docs/FORMATS.md 8), and ChooseBestHeapAlgorithm,
// which runs it twice and keeps the smaller heap.
//
// XLA's heap simulator replays the program as a sequence of events — Alloc when a buffer is
// defined, Free after its last use, ShareWith when a value reuses a buffer in place — numbered by
// an event counter (the heap's "time"). At the end it sorts the allocated buffers:
//
//   spatial:  size descending, then (free event − alloc event) descending, then value id;
//   temporal: (last free event of the buffer and everything colocated with it − alloc event)
//             descending, then size descending, then value id;
//
// and gives each, in that order, the smallest free chunk that fits among the buffers already placed
// that live at the same time (a chunk starts at the aligned end of the one below; ties: the lowest
// chunk; the top of the heap is unbounded, so it is used only when no chunk fits). The heap size is
// the largest chunk end. ChooseBestHeapAlgorithm keeps the smaller of spatial and temporal, spatial
// on ties. Sizes are the buffers' own sizes (a colocated group is placed with its largest size).
//
// Event counts are what XLA sorts by, not logical times: several events happen at each time. A
// problem extracted from a dump (temp_arena.hpp) carries XLA's own counts in `heap_key`s; for any
// other problem `heap_keys` replays XLA's events from the lifespans (at each time: allocations in
// order of (start, end, index), then frees in the same order), which is what XLA would do with
// those buffers.
#ifndef HLOMEM_PLACEMENT_BEST_FIT_HPP
#define HLOMEM_PLACEMENT_BEST_FIT_HPP

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <tuple>
#include <vector>

#include <hlomem/placement/free_space.hpp>
#include <hlomem/placement/problem.hpp>

namespace hlomem {

/// How XLA's heap sorts one buffer, in heap events.
struct heap_key {
    std::int64_t size = 0;      ///< the size of the value that allocated the buffer
    std::int64_t duration = 0;  ///< its free event − its alloc event
    std::int64_t span = 0;      ///< the last free event of it or anything colocated with it − its alloc event

    friend bool operator==(heap_key const& a, heap_key const& b) {
        return a.size == b.size && a.duration == b.duration && a.span == b.span;
    }
    friend bool operator!=(heap_key const& a, heap_key const& b) { return !(a == b); }
};

/// The two orders of XLA's GlobalDecreasingSizeBestFitHeap.
enum class heap_order : std::uint8_t { spatial, temporal };

inline char const* to_string(heap_order o) noexcept { return o == heap_order::spatial ? "spatial" : "temporal"; }

namespace detail {

/// XLA's events replayed from lifespans: at each time, the buffers starting then are allocated
/// in (start, end, index) order, then the buffers whose last time it is are freed in that order.
/// Buffers of size 0 make no events.
inline std::vector<heap_key> replay_heap_events(std::vector<alloc_item> const& items) {
    struct event {
        std::int64_t time;
        int kind;  // 0 alloc, 1 free
        std::size_t rank;
        std::size_t item;
    };
    std::vector<std::size_t> by_start;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].size > 0) by_start.push_back(i);
    }
    std::sort(by_start.begin(), by_start.end(), [&](std::size_t a, std::size_t b) {
        return std::tie(items[a].lower, items[a].upper, a) < std::tie(items[b].lower, items[b].upper, b);
    });
    std::vector<event> events;
    events.reserve(2 * by_start.size());
    for (std::size_t r = 0; r < by_start.size(); ++r) {
        std::size_t const i = by_start[r];
        events.push_back({items[i].lower, 0, r, i});
        events.push_back({items[i].upper - 1, 1, r, i});  // the last time it is live
    }
    std::sort(events.begin(), events.end(),
              [](event const& a, event const& b) { return std::tie(a.time, a.kind, a.rank) < std::tie(b.time, b.kind, b.rank); });
    std::vector<heap_key> keys(items.size());
    std::vector<std::int64_t> alloc_event(items.size(), 0);
    for (std::size_t e = 0; e < events.size(); ++e) {
        auto const& ev = events[e];
        auto const counter = static_cast<std::int64_t>(e);
        if (ev.kind == 0) {
            alloc_event[ev.item] = counter;
        } else {
            keys[ev.item].duration = keys[ev.item].span = counter - alloc_event[ev.item];
        }
    }
    for (std::size_t i = 0; i < items.size(); ++i) keys[i].size = items[i].size;
    return keys;
}

inline std::int64_t xla_best_fit(std::vector<alloc_item> const& items, std::vector<heap_key> const& keys, heap_order order,
                                 std::vector<std::vector<std::size_t>> const& neighbors, std::vector<std::int64_t>& offsets) {
    std::vector<std::size_t> sorted(items.size());
    std::iota(sorted.begin(), sorted.end(), std::size_t{0});
    std::sort(sorted.begin(), sorted.end(), [&](std::size_t a, std::size_t b) {
        heap_key const& x = keys[a];
        heap_key const& y = keys[b];
        if (order == heap_order::spatial) {
            return std::make_tuple(-x.size, -x.duration, a) < std::make_tuple(-y.size, -y.duration, b);
        }
        return std::make_tuple(-x.span, -x.size, a) < std::make_tuple(-y.span, -y.size, b);
    });
    return place_in_order(items, neighbors, sorted, offsets, [](auto const& used, alloc_item const& item) {
        return best_fit(used, item.size, item.alignment, gap_measure::from_aligned_start);
    });
}

inline std::vector<heap_key> keys_or_replay(std::vector<alloc_item> const& items, std::vector<heap_key> const& keys) {
    if (keys.empty()) return replay_heap_events(items);
    if (keys.size() != items.size()) {
        throw allocation_error("hlomem: " + std::to_string(keys.size()) + " heap keys for " + std::to_string(items.size()) +
                               " buffers");
    }
    return keys;
}

}  // namespace detail

/// XLA's event counts replayed from a problem's lifespans (see the top of this header).
template <class Problem>
std::vector<heap_key> heap_keys(Problem const& problem) {
    return detail::replay_heap_events(detail::read_items(problem));
}

/// GlobalDecreasingSizeBestFitHeap in one order; `keys` as XLA counted them (empty: replayed from
/// the lifespans). Returns the heap size.
template <class Problem, class OffsetMap>
std::int64_t xla_best_fit(Problem const& problem, OffsetMap offsets, heap_order order, std::vector<heap_key> const& keys = {}) {
    auto const items = detail::read_items(problem);
    std::vector<std::int64_t> at;
    detail::xla_best_fit(items, detail::keys_or_replay(items, keys), order, detail::time_neighbors(items), at);
    return detail::write_offsets(items, at, offsets);
}
inline std::int64_t xla_best_fit(allocation_problem& problem, heap_order order, std::vector<heap_key> const& keys = {}) {
    return xla_best_fit(problem, offset_map(problem), order, keys);
}

/// What ChooseBestHeapAlgorithm kept.
struct best_fit_result {
    std::int64_t bytes = 0;
    heap_order order = heap_order::spatial;  ///< the order that won (spatial on ties)
    std::int64_t spatial_bytes = 0;
    std::int64_t temporal_bytes = 0;
};

/// ChooseBestHeapAlgorithm over the spatial and the temporal heap, as XLA's buffer assignment runs
/// it for every color: the smaller heap, spatial on ties. Writes the winner's offsets.
template <class Problem, class OffsetMap>
best_fit_result xla_choose_best_fit(Problem const& problem, OffsetMap offsets, std::vector<heap_key> const& keys = {}) {
    auto const items = detail::read_items(problem);
    auto const k = detail::keys_or_replay(items, keys);
    auto const neighbors = detail::time_neighbors(items);
    std::vector<std::int64_t> spatial, temporal;
    best_fit_result r;
    r.spatial_bytes = detail::xla_best_fit(items, k, heap_order::spatial, neighbors, spatial);
    r.temporal_bytes = detail::xla_best_fit(items, k, heap_order::temporal, neighbors, temporal);
    r.order = r.temporal_bytes < r.spatial_bytes ? heap_order::temporal : heap_order::spatial;
    r.bytes = detail::write_offsets(items, r.order == heap_order::spatial ? spatial : temporal, offsets);
    return r;
}
inline best_fit_result xla_choose_best_fit(allocation_problem& problem, std::vector<heap_key> const& keys = {}) {
    return xla_choose_best_fit(problem, offset_map(problem), keys);
}

}  // namespace hlomem

#endif  // HLOMEM_PLACEMENT_BEST_FIT_HPP
