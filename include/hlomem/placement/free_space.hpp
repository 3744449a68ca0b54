// hlomem/placement/free_space.hpp: where one more buffer can go, given the byte ranges of the buffers
// already placed that live at the same time — the step every greedy allocator repeats.
//
//   used     [0, 100)  [100, 160)        [300, 400)
//   gaps                         [160, 300)           [400, ∞)
//   a 96-byte buffer aligned to 64: lowest fit 192 (the first gap, aligned); best fit 192 too,
//   since the gap [192, 300) is smaller than the unbounded top.
#ifndef HLOMEM_PLACEMENT_FREE_SPACE_HPP
#define HLOMEM_PLACEMENT_FREE_SPACE_HPP

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include <hlomem/placement/problem.hpp>

namespace hlomem::detail {

/// A used byte range [offset, end).
using byte_range = std::pair<std::int64_t, std::int64_t>;

/// How best fit measures a gap when it compares them.
enum class gap_measure : std::uint8_t {
    from_aligned_start,  ///< XLA's heap: a free chunk starts at the aligned end of the chunk below
    from_raw_start,      ///< TensorFlow Lite's arena: from the unaligned end of the chunk below
};

/// The lowest aligned offset at which `size` bytes fit between `used` (sorted by offset).
inline std::int64_t lowest_fit(std::vector<byte_range> const& used, std::int64_t size, std::int64_t alignment) {
    std::int64_t cursor = 0;
    for (auto const& [offset, end] : used) {
        std::int64_t const candidate = align_up(cursor, alignment);
        if (candidate + size <= offset) return candidate;
        cursor = std::max(cursor, end);
    }
    return align_up(cursor, alignment);
}

/// Best fit: the gap between `used` (sorted by offset) that fits `size` bytes at its aligned start
/// and is smallest by `measure` (the lowest such gap on ties); when none fits, just above the
/// highest used byte. The top is unbounded, so a bounded gap always wins over it.
inline std::int64_t best_fit(std::vector<byte_range> const& used, std::int64_t size, std::int64_t alignment,
                             gap_measure measure) {
    std::int64_t cursor = 0;
    std::int64_t best = -1;
    std::int64_t best_gap = std::numeric_limits<std::int64_t>::max();
    for (auto const& [offset, end] : used) {
        std::int64_t const candidate = align_up(cursor, alignment);
        if (candidate + size <= offset) {
            std::int64_t const gap = offset - (measure == gap_measure::from_aligned_start ? candidate : cursor);
            if (best < 0 || gap < best_gap) {
                best = candidate;
                best_gap = gap;
            }
        }
        cursor = std::max(cursor, end);
    }
    return best >= 0 ? best : align_up(cursor, alignment);
}

/// Places the buffers in `order`, each where `choose(used, item)` says, given the byte ranges of
/// the already placed buffers that live at the same time (sorted by offset). Buffers of size 0 go
/// to offset 0. `offsets` receives every offset; returns the arena size.
template <class Choose>
std::int64_t place_in_order(std::vector<alloc_item> const& items, std::vector<std::vector<std::size_t>> const& neighbors,
                            std::vector<std::size_t> const& order, std::vector<std::int64_t>& offsets, Choose choose) {
    offsets.assign(items.size(), 0);
    std::vector<char> placed(items.size(), 0);
    std::vector<byte_range> used;
    std::int64_t arena = 0;
    for (std::size_t b : order) {
        placed[b] = 1;
        if (items[b].size == 0) continue;
        used.clear();
        for (std::size_t o : neighbors[b]) {
            if (placed[o]) used.emplace_back(offsets[o], offsets[o] + items[o].size);
        }
        std::sort(used.begin(), used.end());
        offsets[b] = choose(used, items[b]);
        arena = std::max(arena, offsets[b] + items[b].size);
    }
    return arena;
}

}  // namespace hlomem::detail

#endif  // HLOMEM_PLACEMENT_FREE_SPACE_HPP
