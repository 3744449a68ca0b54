// hlomem/placement/arena_bound.hpp: which arena sizes a problem's smallest placement can have, and
// a lower bound on it stronger than the most bytes live at once. What exact_minimize (exact.hpp)
// starts from and rounds its proofs up to.
//
// Canonical placements. Take a valid placement and, in order of offset, move each buffer down to
// the lowest offset its alignment allows above the buffers already moved that live with it (0 when
// none does). No buffer moves up, no two that live together meet, and the arena does not grow (the
// exact search's canonical sequences, exact.hpp). So some smallest placement is canonical, and in
// a canonical placement every offset is built from sizes and alignments:
//
//   - with g the gcd of every size and every alignment above 1, each alignment is 1 or a
//     multiple of g, and every offset is a multiple of g (by induction: 0, or the end of a buffer
//     below it, which is a multiple of g, rounded up to the buffer's alignment). MiniMalloc's
//     challenging instances have sizes in multiples of 1024 and alignment 1: g = 1024, and a
//     proof that 1,024,000 bytes do not fit proves that 1,025,023 do not either;
//   - buffer i's offset is a multiple of m_i: its alignment when above 1, else g;
//   - the arena is o + s of its top buffer: of the form k * m_i + s_i for some buffer i.
//
// Buffers that must stack. Let a be the gcd of every m_i (it divides every canonical offset). At
// any moment, the buffers live sit one above the other; each but the highest is followed by an
// offset that is a multiple of a, so it takes at least its size rounded up to a:
//
//   live at t: 24 bytes and 1 byte, alignment 128      arena >= 128 + 1 = 129
//
// so the arena is at least, at each moment, the rounded bytes live less the most rounding any one
// of them adds (lower_bound_bytes takes that most over every buffer; here it is per moment). The
// bound is then raised to the smallest arena size of the form above (arena_lower_bound).
//
// Sharing groups (problem.hpp) follow the same rules: a group is one buffer with one offset, and it
// counts at a moment only where one of its segments is live.
#ifndef HLOMEM_PLACEMENT_ARENA_BOUND_HPP
#define HLOMEM_PLACEMENT_ARENA_BOUND_HPP

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

#include <hlomem/placement/problem.hpp>

namespace hlomem {

namespace detail {

/// The sizes a canonical placement's arena can take: the pairs (s_i mod m_i, m_i) of every buffer
/// (size > 0), smallest size per pair, and the gcds g and a of the file's header comment.
struct arena_values {
    std::int64_t granularity = 1;  ///< g: every canonical offset and arena is a multiple of it
    std::int64_t step = 1;         ///< a: the gcd of every buffer's offset step m_i
    /// (m_i, s_i mod m_i) -> the smallest s_i with them: the top buffer's arena is s_i + k * m_i.
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> tops;

    /// The smallest arena a canonical placement can have that is at least `x`.
    std::int64_t at_least(std::int64_t x) const {
        if (tops.empty()) return std::max<std::int64_t>(x, 0);
        std::int64_t best = std::numeric_limits<std::int64_t>::max();
        for (auto const& [key, size] : tops) {
            std::int64_t const m = key.first;
            best = std::min(best, size + align_up(std::max<std::int64_t>(0, x - size), m));
        }
        return best;
    }
};

inline arena_values arena_values_of(std::vector<alloc_item> const& items) {
    arena_values out;
    std::int64_t g = 0;
    for (auto const& it : items) {
        if (it.size <= 0) continue;
        g = std::gcd(g, it.size);
        if (it.alignment > 1) g = std::gcd(g, it.alignment);
    }
    out.granularity = g > 0 ? g : 1;
    std::int64_t a = 0;
    for (auto const& it : items) {
        if (it.size <= 0) continue;
        std::int64_t const m = it.alignment > 1 ? it.alignment : out.granularity;
        a = std::gcd(a, m);
        auto const key = std::make_pair(m, it.size % m);
        auto const found = out.tops.find(key);
        if (found == out.tops.end() || it.size < found->second) out.tops[key] = it.size;
    }
    out.step = a > 0 ? a : 1;
    return out;
}

/// The most, over every moment, of the bytes live rounded up to `step` less the most rounding
/// of one buffer live then: buffers live together stack, and each but the top one is followed by
/// an offset that is a multiple of `step`.
inline std::int64_t stacked_bytes(std::vector<alloc_item> const& items, std::int64_t step) {
    // Events (time, open?, piece): closes before opens at one time, spans being half-open.
    struct event {
        std::int64_t time;
        bool open;
        std::int64_t rounded, rounding;
    };
    std::vector<event> events;
    for (auto const& it : items) {
        if (it.size <= 0) continue;
        std::int64_t const rounded = align_up(it.size, step);
        auto add = [&](std::int64_t lower, std::int64_t upper) {
            if (upper <= lower) return;
            events.push_back({lower, true, rounded, rounded - it.size});
            events.push_back({upper, false, rounded, rounded - it.size});
        };
        if (it.segments) {
            for (lifespan const& s : *it.segments) add(s.lower, s.upper);
        } else {
            add(it.lower, it.upper);
        }
    }
    std::sort(events.begin(), events.end(), [](event const& x, event const& y) {
        return x.time != y.time ? x.time < y.time : x.open < y.open;
    });
    std::multiset<std::int64_t> roundings;
    std::int64_t live = 0, best = 0;
    for (std::size_t k = 0; k < events.size(); ++k) {
        auto const& e = events[k];
        if (e.open) {
            live += e.rounded;
            roundings.insert(e.rounding);
        } else {
            live -= e.rounded;
            roundings.erase(roundings.find(e.rounding));
        }
        // A moment: after the last event at this time.
        if (k + 1 < events.size() && events[k + 1].time == e.time) continue;
        if (!roundings.empty()) best = std::max(best, live - *roundings.rbegin());
    }
    return best;
}

}  // namespace detail

/// g: every offset of a canonical placement, and so the smallest arena, is a multiple of it (the
/// gcd of every size and every alignment above 1). 1024 for each of MiniMalloc's challenging
/// instances.
template <class Problem>
std::int64_t arena_granularity(Problem const& p) {
    return detail::arena_values_of(detail::read_items(p)).granularity;
}

/// No placement of `p` is smaller: the bytes that must stack at one moment (the header comment),
/// at least lower_bound_bytes, raised to the smallest arena size a canonical placement can have.
///
///   live at once: 24 bytes and 1 byte, alignment 128: 129
///   MiniMalloc's C (sizes multiples of 1024, 1039360 live at most): 1039360
template <class Problem>
std::int64_t arena_lower_bound(Problem const& p) {
    auto const items = detail::read_items(p);
    auto const values = detail::arena_values_of(items);
    std::int64_t const bound = std::max(lower_bound_bytes(p), detail::stacked_bytes(items, values.step));
    return values.at_least(bound);
}

}  // namespace hlomem

#endif  // HLOMEM_PLACEMENT_ARENA_BOUND_HPP
