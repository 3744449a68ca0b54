// hlomem/placement/improve.hpp: a local search that improves a placement, in the manner of Arm
// Vela's search allocator (ethos-u-vela's hill-climb allocator).
//
// A placement is represented by an order: buffers placed one after the other, each at the lowest
// aligned offset where it fits among those already placed (first fit in that order). The search
// starts from the given placement's order — buffers by offset, which places each at or below where
// it was, so it never starts worse — and repeatedly takes the buffer that sets the arena size (the
// one whose end is highest) and moves it earlier in the order, or swaps it with an earlier buffer
// that lives at the same time, at a position chosen by a fixed pseudo-random sequence. A move is
// kept when the arena does not grow; after many moves without improvement the search returns to
// the best order so far. Only the buffers from the first changed position on are placed again.
//
// Deterministic: the same problem, start and iteration count give the same placement on every
// machine. A time limit, when set, can stop it earlier (and then the result depends on the machine).
#ifndef HLOMEM_PLACEMENT_IMPROVE_HPP
#define HLOMEM_PLACEMENT_IMPROVE_HPP

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <optional>
#include <vector>

#include <hlomem/placement/free_space.hpp>
#include <hlomem/placement/problem.hpp>

namespace hlomem {

struct improve_options {
    std::uint64_t iterations = 2000;                     ///< moves tried
    std::optional<std::chrono::milliseconds> time_limit; ///< stops earlier when reached
    std::uint64_t seed = 0x5eed;                         ///< of the pseudo-random move sequence
    std::uint64_t restart_after = 200;                   ///< moves without improvement before returning to the best order
};

struct improve_result {
    std::int64_t start_bytes = 0;  ///< the given placement's arena
    std::int64_t bytes = 0;        ///< the best arena found (never more than start_bytes)
    std::uint64_t iterations = 0;  ///< moves tried
};

namespace detail {

/// SplitMix64: a fixed, portable sequence (std::uniform_int_distribution differs between
/// standard libraries).
struct splitmix64 {
    std::uint64_t state;
    std::uint64_t next() noexcept {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    std::size_t below(std::size_t n) noexcept { return static_cast<std::size_t>(next() % n); }
};

/// First fit in a given order, placing again only positions [from, n).
class order_placer {
public:
    order_placer(std::vector<alloc_item> const& items, std::vector<std::vector<std::size_t>> const& neighbors)
        : items_(items), neighbors_(neighbors), offsets_(items.size(), 0), position_(items.size(), 0) {}

    /// Places order[from..]; order[..from) keep their offsets. Returns the arena size.
    std::int64_t place(std::vector<std::size_t> const& order, std::size_t from) {
        for (std::size_t p = 0; p < order.size(); ++p) position_[order[p]] = p;
        for (std::size_t p = from; p < order.size(); ++p) {
            std::size_t const b = order[p];
            if (items_[b].size == 0) {
                offsets_[b] = 0;
                continue;
            }
            used_.clear();
            for (std::size_t o : neighbors_[b]) {
                if (position_[o] < p) used_.emplace_back(offsets_[o], offsets_[o] + items_[o].size);
            }
            std::sort(used_.begin(), used_.end());
            offsets_[b] = lowest_fit(used_, items_[b].size, items_[b].alignment);
        }
        return arena_of(items_, offsets_);
    }

    std::vector<std::int64_t> const& offsets() const noexcept { return offsets_; }

private:
    std::vector<alloc_item> const& items_;
    std::vector<std::vector<std::size_t>> const& neighbors_;
    std::vector<std::int64_t> offsets_;
    std::vector<std::size_t> position_;
    std::vector<byte_range> used_;
};

inline improve_result improve(std::vector<alloc_item> const& items, std::vector<std::int64_t>& offsets,
                              improve_options const& options) {
    using clock = std::chrono::steady_clock;
    bool const timed = options.time_limit.has_value();
    clock::time_point const deadline = timed ? clock::now() + *options.time_limit : clock::time_point{};
    improve_result r;
    r.start_bytes = arena_of(items, offsets);
    auto const neighbors = time_neighbors(items);
    std::vector<std::size_t> order(items.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return offsets[a] < offsets[b]; });
    order_placer placer(items, neighbors);
    std::int64_t current = placer.place(order, 0);
    std::int64_t best = current;
    std::vector<std::size_t> best_order = order;
    std::vector<std::int64_t> best_offsets = placer.offsets();
    if (r.start_bytes <= best) {  // the gravity pass cannot be worse; keep the given one on ties
        best = r.start_bytes;
        best_offsets = offsets;
    }
    splitmix64 random{options.seed};
    std::vector<std::size_t> position(items.size());
    std::uint64_t stale = 0;
    for (; r.iterations < options.iterations && items.size() > 1; ++r.iterations) {
        if (timed && (r.iterations & 15) == 0 && clock::now() >= deadline) break;
        // The buffer that sets the arena size; the first in order on ties.
        auto const& at = placer.offsets();
        for (std::size_t p = 0; p < order.size(); ++p) position[order[p]] = p;
        std::size_t peak = order.front();
        for (std::size_t b : order) {
            if (items[b].size > 0 && at[b] + items[b].size == current) {
                peak = b;
                break;
            }
        }
        std::size_t const p = position[peak];
        if (p == 0) {
            // Already first: swap the first two so that the search moves on.
            std::swap(order[0], order[1]);
            current = placer.place(order, 0);
        } else {
            std::vector<std::size_t> const before = order;
            std::size_t to = random.below(p);
            bool const swap = (random.next() & 1) != 0;
            if (swap && !neighbors[peak].empty()) {
                // Swap with an earlier buffer that lives at the same time, when there is one.
                std::size_t const pick = neighbors[peak][random.below(neighbors[peak].size())];
                if (position[pick] < p) to = position[pick];
                std::swap(order[to], order[p]);
            } else {
                order.erase(order.begin() + static_cast<std::ptrdiff_t>(p));
                order.insert(order.begin() + static_cast<std::ptrdiff_t>(to), peak);
            }
            std::int64_t const moved = placer.place(order, to);
            if (moved <= current) {
                current = moved;
            } else {
                order = before;
                current = placer.place(order, to);
            }
        }
        if (current < best) {
            best = current;
            best_order = order;
            best_offsets = placer.offsets();
            stale = 0;
        } else if (++stale >= options.restart_after) {
            order = best_order;
            current = placer.place(order, 0);
            stale = 0;
        }
    }
    offsets = best_offsets;
    r.bytes = best;
    return r;
}

}  // namespace detail

/// Improves the placement given by `start` (a valid offset for every buffer, e.g. from
/// xla_choose_best_fit); writes the best placement found through `offsets`.
template <class Problem, class OffsetMap>
improve_result improve_placement(Problem const& problem, std::vector<std::int64_t> start, OffsetMap offsets,
                                 improve_options const& options = {}) {
    auto const items = detail::read_items(problem);
    if (start.size() != items.size()) {
        throw allocation_error("hlomem: improve_placement needs a start offset for each of the " +
                               std::to_string(items.size()) + " buffers, got " + std::to_string(start.size()));
    }
    auto r = detail::improve(items, start, options);
    detail::write_offsets(items, start, offsets);
    return r;
}

/// Improves a solved problem's own placement in place.
inline improve_result improve_placement(allocation_problem& problem, improve_options const& options = {}) {
    std::vector<std::int64_t> start;
    for (auto const& b : problem.buffers) {
        if (!b.offset) throw allocation_error("hlomem: improve_placement needs a placed problem; buffer '" + b.id + "' has no offset");
        start.push_back(*b.offset);
    }
    return improve_placement(problem, std::move(start), offset_map(problem), options);
}

}  // namespace hlomem

#endif  // HLOMEM_PLACEMENT_IMPROVE_HPP
