// hlomem/placement/greedy.hpp: two one-pass allocators.
//
// greedy_by_size — TensorFlow Lite's arena planner ("greedy by size", Pisarchyk and Lee, 2020):
//   buffers in order of size, largest first (ties: earlier start first, then index); each goes into
//   the smallest gap between the buffers already placed that live at the same time, measured from
//   the unaligned end of the buffer below (SimpleMemoryArena::Allocate), the lowest gap on ties;
//   above all of them when no gap fits.
//
// first_fit_by_start — what an online allocator does: buffers in order of their start (ties:
//   index), each at the lowest aligned offset where it fits.
//
//   time     0   1   2   3
//   a (4)    [=======)             greedy_by_size: a=0, c=0 (a and c never meet), b=4 → 6 bytes
//   b (2)        [=======)         first_fit_by_start: a=0, b=4, c=0 → 6 bytes
//   c (4)            [=======)
//
// Both are deterministic, O(n log n + E log E) for E pairs of buffers live at the same time.
#ifndef HLOMEM_PLACEMENT_GREEDY_HPP
#define HLOMEM_PLACEMENT_GREEDY_HPP

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include <hlomem/placement/free_space.hpp>
#include <hlomem/placement/problem.hpp>

namespace hlomem {

namespace detail {

inline std::int64_t greedy_by_size(std::vector<alloc_item> const& items, std::vector<std::int64_t>& offsets) {
    std::vector<std::size_t> order(items.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (items[a].size != items[b].size) return items[a].size > items[b].size;
        if (items[a].lower != items[b].lower) return items[a].lower < items[b].lower;
        return a < b;
    });
    return place_in_order(items, time_neighbors(items), order, offsets, [](auto const& used, alloc_item const& item) {
        return best_fit(used, item.size, item.alignment, gap_measure::from_raw_start);
    });
}

inline std::int64_t first_fit_by_start(std::vector<alloc_item> const& items, std::vector<std::int64_t>& offsets) {
    std::vector<std::size_t> order(items.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return items[a].lower < items[b].lower; });
    return place_in_order(items, time_neighbors(items), order, offsets, [](auto const& used, alloc_item const& item) {
        return lowest_fit(used, item.size, item.alignment);
    });
}

}  // namespace detail

/// TensorFlow Lite's greedy-by-size placement (see the top of this header); returns the arena size.
template <class Problem, class OffsetMap>
std::int64_t greedy_by_size(Problem const& problem, OffsetMap offsets) {
    auto const items = detail::read_items(problem);
    std::vector<std::int64_t> at;
    detail::greedy_by_size(items, at);
    return detail::write_offsets(items, at, offsets);
}
inline std::int64_t greedy_by_size(allocation_problem& problem) { return greedy_by_size(problem, offset_map(problem)); }

/// First fit in order of start time (see the top of this header); returns the arena size.
template <class Problem, class OffsetMap>
std::int64_t first_fit_by_start(Problem const& problem, OffsetMap offsets) {
    auto const items = detail::read_items(problem);
    std::vector<std::int64_t> at;
    detail::first_fit_by_start(items, at);
    return detail::write_offsets(items, at, offsets);
}
inline std::int64_t first_fit_by_start(allocation_problem& problem) {
    return first_fit_by_start(problem, offset_map(problem));
}

}  // namespace hlomem

#endif  // HLOMEM_PLACEMENT_GREEDY_HPP
