// hlomem/placement/problem.hpp: the static memory allocation problem — buffers with a lifespan,
// a size and an alignment, to be given offsets in one arena so that no two buffers live at the same
// time share a byte — and what every allocation algorithm of hlomem shares: the property-map
// interface, the lower bound, and the validity check of a placement.
//
//   time    0   1   2   3   4
//   a       [=======)                 a: [0, 2), 4 bytes
//   b           [===========)         b: [1, 4), 2 bytes
//   c                   [=======)     c: [3, 5), 4 bytes
//   offsets a=0, b=4, c=0 are valid: a and c never live together; the arena needs 6 bytes, which
//   is also the lower bound (a and b are live together at time 1).
//
// Lifespans are half-open, [lower, upper), as MiniMalloc writes them (docs: its CSV files), and
// print as `[lower, upper)`. XLA's live ranges are inclusive at both ends; `to_lifespan` turns
// `param.2{}:0-80` (live at 0..80) into [0, 81).
//
// The algorithms (best_fit.hpp, greedy.hpp, improve.hpp, exact.hpp) are generic in the manner of
// Boost.Graph: they read a problem through four free functions found by argument-dependent lookup,
//
//   std::size_t num_buffers(p);  lifespan lifespan_of(p, i);
//   std::int64_t size_of(p, i);  std::int64_t alignment_of(p, i);
//
// and write the offset of buffer i with `put(offset_map, i, offset)`, so that any container can be
// planned: `allocation_problem` models the concept, and `make_problem_view` adapts Boost property
// maps (an iterator_property_map over a vector of sizes, a function_property_map over a lambda).
// Each algorithm returns the arena size: the largest offset + size.
//
// Sharing groups. Values that XLA lets share storage must keep one offset, whatever the reason
// they share, yet they need not be live all along: a while loop's state (its init, the body's
// parameter, the body's result, the loop's output: one HloBuffer) is dead between the body's last
// read of its parameter and the instruction that writes the body's result, and XLA's heap puts
// other buffers in that gap (GlobalDecreasingSizeBestFitHeap places a buffer with its colocations,
// each over its own live range). A `problem_buffer` is such a group: it is live in `segments`
// (sorted, disjoint, non-empty spans whose hull is `span`), or over all of `span` when `segments`
// is empty, and it has one offset.
//
//   time        21        50       60   64       75      82
//   loop state  [==========)                      [=======)   one buffer, segments [21, 51) [75, 82)
//   solve                           [====)                    may take the same bytes: it never
//                                                             meets the loop state
//
// Every algorithm reads the segments through `segments_of(p, i)` (a pointer to them, or null when
// the buffer is live over its whole span; defined for allocation_problem, optional for other
// problems): the buffers that meet in time, the lower bound and the validity check all follow
// them. The exact search also orders its work by span and proves optimality only for problems
// without segments (plan.hpp).
#ifndef HLOMEM_PLACEMENT_PROBLEM_HPP
#define HLOMEM_PLACEMENT_PROBLEM_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/property_map/property_map.hpp>

#include <hlomem/core/diagnostic.hpp>
#include <hlomem/core/error.hpp>
#include <hlomem/dump/live_range.hpp>
#include <hlomem/memory/interval_sweep.hpp>

namespace hlomem {

/// A half-open span of logical time [lower, upper).
struct lifespan {
    std::int64_t lower = 0;
    std::int64_t upper = 0;

    constexpr bool empty() const noexcept { return upper <= lower; }
    /// True when both are live at some time: [0, 2) and [2, 4) do not overlap.
    constexpr bool overlaps(lifespan const& o) const noexcept { return lower < o.upper && o.lower < upper; }
    friend constexpr bool operator==(lifespan const& a, lifespan const& b) noexcept {
        return a.lower == b.lower && a.upper == b.upper;
    }
    friend constexpr bool operator!=(lifespan const& a, lifespan const& b) noexcept { return !(a == b); }
    friend std::ostream& operator<<(std::ostream& os, lifespan const& s) {
        return os << '[' << s.lower << ", " << s.upper << ')';
    }
};

/// XLA's inclusive live range [start, end] as the half-open lifespan [start, end + 1).
constexpr lifespan to_lifespan(live_interval r) noexcept { return {r.start, r.end + 1}; }

/// A non-empty lifespan as XLA's inclusive interval [lower, upper - 1].
constexpr live_interval to_live_interval(lifespan s) noexcept { return {s.lower, s.upper - 1}; }

/// One buffer to place: a row `id,lower,upper,size[,alignment][,offset]` of a MiniMalloc CSV.
struct problem_buffer {
    std::string id;
    lifespan span;
    std::int64_t size = 0;
    std::int64_t alignment = 1;          ///< the offset must be a multiple of it
    std::optional<std::int64_t> offset;  ///< the placement, once solved
    /// A sharing group live in several spans: sorted, disjoint, non-empty, with `span` as their
    /// hull. Empty: live over all of `span`.
    std::vector<lifespan> segments;

    friend bool operator==(problem_buffer const& a, problem_buffer const& b) {
        return a.id == b.id && a.span == b.span && a.size == b.size && a.alignment == b.alignment && a.offset == b.offset &&
               a.segments == b.segments;
    }
    friend bool operator!=(problem_buffer const& a, problem_buffer const& b) { return !(a == b); }
};

/// A whole problem; with offsets, also its solution.
struct allocation_problem {
    std::vector<problem_buffer> buffers;

    friend bool operator==(allocation_problem const& a, allocation_problem const& b) { return a.buffers == b.buffers; }
    friend bool operator!=(allocation_problem const& a, allocation_problem const& b) { return !(a == b); }
};

/// Thrown when a problem cannot be planned: a negative size, an empty lifespan, an alignment
/// below 1, or sizes whose sum overflows.
class allocation_error : public error {
public:
    using error::error;
};

// -- The problem concept, modelled by allocation_problem ------------------------------------------

inline std::size_t num_buffers(allocation_problem const& p) noexcept { return p.buffers.size(); }
inline lifespan lifespan_of(allocation_problem const& p, std::size_t i) { return p.buffers[i].span; }
inline std::int64_t size_of(allocation_problem const& p, std::size_t i) { return p.buffers[i].size; }
inline std::int64_t alignment_of(allocation_problem const& p, std::size_t i) { return p.buffers[i].alignment; }
/// The spans a sharing group is live in, or null when it is live over its whole lifespan.
inline std::vector<lifespan> const* segments_of(allocation_problem const& p, std::size_t i) {
    return p.buffers[i].segments.empty() ? nullptr : &p.buffers[i].segments;
}

/// A writable property map that stores offsets into a problem's buffers:
/// `put(offset_map(problem), i, 4096)` sets `problem.buffers[i].offset = 4096`.
struct problem_offset_map {
    allocation_problem* problem = nullptr;

    friend void put(problem_offset_map const& m, std::size_t i, std::int64_t offset) { m.problem->buffers[i].offset = offset; }
    friend std::optional<std::int64_t> get(problem_offset_map const& m, std::size_t i) { return m.problem->buffers[i].offset; }
};
inline problem_offset_map offset_map(allocation_problem& p) noexcept { return {&p}; }

/// The read-only counterpart: `get(offset_map(problem), i)` on a const problem.
struct problem_offset_reader {
    allocation_problem const* problem = nullptr;

    friend std::optional<std::int64_t> get(problem_offset_reader const& m, std::size_t i) { return m.problem->buffers[i].offset; }
};
inline problem_offset_reader offset_map(allocation_problem const& p) noexcept { return {&p}; }

/// Buffers read through Boost property maps keyed by index 0..n-1 (see make_problem_view).
template <class LifespanMap, class SizeMap, class AlignmentMap>
struct problem_view {
    std::size_t n = 0;
    LifespanMap lifespans;
    SizeMap sizes;
    AlignmentMap alignments;

    friend std::size_t num_buffers(problem_view const& v) noexcept { return v.n; }
    friend lifespan lifespan_of(problem_view const& v, std::size_t i) {
        using boost::get;
        return lifespan(get(v.lifespans, i));
    }
    friend std::int64_t size_of(problem_view const& v, std::size_t i) {
        using boost::get;
        return static_cast<std::int64_t>(get(v.sizes, i));
    }
    friend std::int64_t alignment_of(problem_view const& v, std::size_t i) {
        using boost::get;
        return static_cast<std::int64_t>(get(v.alignments, i));
    }
};

/// Adapts property maps to the problem concept; every buffer aligned to `alignment`:
///
///   std::vector<hlomem::lifespan> spans = ...;  std::vector<std::int64_t> sizes = ...;
///   auto view = hlomem::make_problem_view(spans.size(), spans.data(), sizes.data());
///   std::vector<std::int64_t> offsets(spans.size());
///   std::int64_t arena = hlomem::first_fit_by_start(view, offsets.data());
template <class LifespanMap, class SizeMap>
problem_view<LifespanMap, SizeMap, boost::static_property_map<std::int64_t>> make_problem_view(
    std::size_t n, LifespanMap lifespans, SizeMap sizes, std::int64_t alignment = 1) {
    return {n, lifespans, sizes, boost::static_property_map<std::int64_t>(alignment)};
}
/// The same with one alignment per buffer, read through a property map.
template <class LifespanMap, class SizeMap, class AlignmentMap, std::enable_if_t<!std::is_arithmetic_v<AlignmentMap>, int> = 0>
problem_view<LifespanMap, SizeMap, AlignmentMap> make_problem_view(std::size_t n, LifespanMap lifespans, SizeMap sizes,
                                                                  AlignmentMap alignments) {
    return {n, lifespans, sizes, alignments};
}

// -- What every algorithm shares ----------------------------------------------------------------

namespace detail {

/// A buffer as the algorithms see it.
struct alloc_item {
    std::int64_t lower = 0;
    std::int64_t upper = 0;
    std::int64_t size = 0;
    std::int64_t alignment = 1;
    /// A sharing group's spans (into the problem, which outlives the items); null: [lower, upper).
    std::vector<lifespan> const* segments = nullptr;
};

template <class Problem, class = void>
struct has_segments : std::false_type {};
template <class Problem>
struct has_segments<Problem, std::void_t<decltype(segments_of(std::declval<Problem const&>(), std::size_t{}))>>
    : std::true_type {};

/// `segments_of(p, i)` when the problem defines it, else null (live over the whole lifespan).
template <class Problem>
std::vector<lifespan> const* segments_or_null(Problem const& p, std::size_t i) {
    if constexpr (has_segments<Problem>::value) {
        return segments_of(p, i);
    } else {
        (void)p;
        (void)i;
        return nullptr;
    }
}

/// The spans buffer i is live in: its segments, or its lifespan.
template <class Problem>
std::vector<lifespan> live_spans(Problem const& p, std::size_t i) {
    if (auto const* s = segments_or_null(p, i)) return *s;
    return {lifespan_of(p, i)};
}

/// Every span of every buffer as (XLA-style inclusive interval, buffer): one per buffer without
/// segments, one per segment otherwise. Buffers of size 0 or with an empty lifespan are left out.
template <class Problem>
std::vector<std::pair<live_interval, std::size_t>> live_pieces(Problem const& p) {
    std::vector<std::pair<live_interval, std::size_t>> out;
    for (std::size_t i = 0, n = num_buffers(p); i < n; ++i) {
        if (size_of(p, i) <= 0 || lifespan_of(p, i).empty()) continue;
        for (lifespan const& s : live_spans(p, i)) out.emplace_back(to_live_interval(s), i);
    }
    return out;
}

/// x rounded up to a multiple of a (a >= 1; x >= 0).
constexpr std::int64_t align_up(std::int64_t x, std::int64_t a) noexcept {
    return a <= 1 ? x : (x + a - 1) / a * a;
}

/// Sizes and alignments are summed by the algorithms; this keeps every sum far from overflow.
inline constexpr std::int64_t max_total_bytes = std::int64_t{1} << 61;

}  // namespace detail

/// What makes a problem impossible to plan (not merely hard): one message per defect, naming the
/// buffer. Empty when every algorithm accepts the problem.
template <class Problem>
std::vector<std::string> problem_defects(Problem const& p) {
    std::vector<std::string> out;
    std::int64_t total = 0;
    bool overflow = false;
    for (std::size_t i = 0, n = num_buffers(p); i < n; ++i) {
        lifespan const s = lifespan_of(p, i);
        std::int64_t const size = size_of(p, i), align = alignment_of(p, i);
        auto const name = "buffer " + std::to_string(i);
        if (s.empty()) out.push_back(name + ": empty lifespan [" + std::to_string(s.lower) + ", " + std::to_string(s.upper) + ")");
        if (size < 0) out.push_back(name + ": negative size " + std::to_string(size));
        if (align < 1) out.push_back(name + ": alignment " + std::to_string(align) + " (must be at least 1)");
        if (auto const* segments = detail::segments_or_null(p, i)) {
            for (std::size_t k = 0; k < segments->size(); ++k) {
                lifespan const& g = (*segments)[k];
                bool const ordered = k == 0 || (*segments)[k - 1].upper < g.lower;
                if (g.empty() || g.lower < s.lower || g.upper > s.upper || !ordered) {
                    out.push_back(name + ": segment " + std::to_string(k) + " [" + std::to_string(g.lower) + ", " +
                                  std::to_string(g.upper) + ") is empty, outside the lifespan, or not after the one before");
                    break;
                }
            }
            if (!segments->empty() && (segments->front().lower != s.lower || segments->back().upper != s.upper)) {
                out.push_back(name + ": its segments do not span its lifespan [" + std::to_string(s.lower) + ", " +
                              std::to_string(s.upper) + ")");
            }
        }
        if (size > 0 && align >= 1 && !overflow) {
            if (size > detail::max_total_bytes - total || align > detail::max_total_bytes - total - size) {
                overflow = true;
            } else {
                total += size + align;
            }
        }
    }
    if (overflow) out.push_back("sizes and alignments add up to more than 2^61 bytes");
    return out;
}

namespace detail {

/// Reads a problem into the algorithms' form; throws allocation_error when it has a defect.
template <class Problem>
std::vector<alloc_item> read_items(Problem const& p) {
    auto const defects = problem_defects(p);
    if (!defects.empty()) throw allocation_error("hlomem: cannot plan this problem: " + defects.front());
    std::vector<alloc_item> items(num_buffers(p));
    for (std::size_t i = 0; i < items.size(); ++i) {
        lifespan const s = lifespan_of(p, i);
        items[i] = {s.lower, s.upper, size_of(p, i), alignment_of(p, i), segments_or_null(p, i)};
    }
    return items;
}

/// Writes offsets through the caller's map and returns the arena size.
template <class OffsetMap>
std::int64_t write_offsets(std::vector<alloc_item> const& items, std::vector<std::int64_t> const& offsets, OffsetMap map) {
    using boost::put;
    std::int64_t arena = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
        put(map, i, offsets[i]);
        if (items[i].size > 0) arena = std::max(arena, offsets[i] + items[i].size);
    }
    return arena;
}

/// For each buffer, the buffers live at the same time as it (sizes > 0 only), by an endpoint sweep
/// in O(n log n + E).
inline std::vector<std::vector<std::size_t>> time_neighbors(std::vector<alloc_item> const& items) {
    if (std::any_of(items.begin(), items.end(), [](alloc_item const& it) { return it.segments != nullptr; })) {
        // Sharing groups: two buffers meet when any of their spans do.
        std::vector<std::pair<live_interval, std::size_t>> pieces;
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (items[i].size <= 0) continue;
            if (!items[i].segments) {
                pieces.emplace_back(to_live_interval({items[i].lower, items[i].upper}), i);
                continue;
            }
            for (lifespan const& s : *items[i].segments) pieces.emplace_back(to_live_interval(s), i);
        }
        std::vector<std::vector<std::size_t>> out(items.size());
        for_each_overlapping_pair(
            pieces.size(), [&](std::size_t k) { return pieces[k].first; },
            [&](std::size_t x, std::size_t y) {
                std::size_t const a = pieces[x].second, b = pieces[y].second;
                if (a == b) return;
                out[a].push_back(b);
                out[b].push_back(a);
            });
        for (auto& list : out) {
            std::sort(list.begin(), list.end());
            list.erase(std::unique(list.begin(), list.end()), list.end());
        }
        return out;
    }
    std::vector<std::size_t> live;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].size > 0) live.push_back(i);
    }
    std::vector<std::vector<std::size_t>> out(items.size());
    for_each_overlapping_pair(
        live.size(), [&](std::size_t k) { return to_live_interval({items[live[k]].lower, items[live[k]].upper}); },
        [&](std::size_t x, std::size_t y) {
            out[live[x]].push_back(live[y]);
            out[live[y]].push_back(live[x]);
        });
    return out;
}

/// The arena size of a placement: the largest offset + size.
inline std::int64_t arena_of(std::vector<alloc_item> const& items, std::vector<std::int64_t> const& offsets) {
    std::int64_t arena = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].size > 0) arena = std::max(arena, offsets[i] + items[i].size);
    }
    return arena;
}

}  // namespace detail

/// A size no placement can go below: the most bytes live at one time (for an interval graph, the
/// weight of its maximum-weight clique; a sharing group counts in its segments only), raised by
/// alignment when every alignment is a power of two.
/// Then all offsets are multiples of the smallest alignment a, so of the buffers live at one time,
/// each but the highest takes its size rounded up to a: the bound is also the most rounded bytes live
/// at one time, less the most any one buffer's rounding adds.
///
///   a 24-byte and a 1-byte buffer live together, alignment 128: at least 128 + 1 = 129 bytes.
template <class Problem>
std::int64_t lower_bound_bytes(Problem const& p) {
    auto const live = detail::live_pieces(p);  // a group's segments never meet, so none counts twice
    std::int64_t align = std::numeric_limits<std::int64_t>::max();
    bool powers_of_two = true;
    for (auto const& piece : live) {
        std::int64_t const a = alignment_of(p, piece.second);
        powers_of_two = powers_of_two && a >= 1 && (a & (a - 1)) == 0;
        align = std::min(align, a);
    }
    auto span = [&](std::size_t k) { return live[k].first; };
    std::int64_t const plain =
        max_weight_moment(live.size(), span, [&](std::size_t k) { return size_of(p, live[k].second); }).weight;
    if (live.empty() || !powers_of_two || align <= 1) return plain;
    std::int64_t most_rounding = 0;
    for (auto const& piece : live) {
        most_rounding = std::max(most_rounding, detail::align_up(size_of(p, piece.second), align) - size_of(p, piece.second));
    }
    std::int64_t const rounded =
        max_weight_moment(live.size(), span, [&](std::size_t k) { return detail::align_up(size_of(p, live[k].second), align); })
            .weight;
    return std::max(plain, rounded - most_rounding);
}

/// The arena a solved problem needs: the largest offset + size (0 when nothing is placed).
inline std::int64_t arena_size(allocation_problem const& p) {
    std::int64_t arena = 0;
    for (auto const& b : p.buffers) {
        if (b.offset && b.size > 0) arena = std::max(arena, *b.offset + b.size);
    }
    return arena;
}

/// Copies offsets found by an algorithm into `p` (for algorithms run on a copy).
inline void copy_offsets(allocation_problem const& from, allocation_problem& to) {
    for (std::size_t i = 0; i < to.buffers.size() && i < from.buffers.size(); ++i) to.buffers[i].offset = from.buffers[i].offset;
}

// -- Validity of a placement --------------------------------------------------------------------

// check_placement reports diagnostics (core/diagnostic.hpp) of kind missing_offset,
// negative_offset, misaligned, over_capacity and overlap; `first` is the buffer, `second` the
// other buffer of an overlap (the same buffer otherwise).

namespace detail {

template <class Problem, class OffsetMap, class Name>
std::vector<diagnostic> check_placement(Problem const& p, OffsetMap offsets, std::int64_t const* capacity,
                                        Name name) {
    // `capacity` by pointer (null: none), not as an optional: GCC 12 inlines an optional made at
    // the call into this and warns that its empty value may be read uninitialized.
    using boost::get;
    std::size_t const n = num_buffers(p);
    std::vector<diagnostic> out;
    auto fail = [&](diagnostic_kind kind, std::size_t i, std::size_t j, std::string message) {
        out.push_back(make_diagnostic(kind, severity::error, std::move(message)).about(i, j));
    };
    std::vector<std::int64_t> at(n, 0);
    std::vector<char> placed(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        std::optional<std::int64_t> const o = get(offsets, i);
        if (!o) {
            fail(diagnostic_kind::missing_offset, i, i, name(i) + " has no offset");
            continue;
        }
        at[i] = *o;
        std::int64_t const size = size_of(p, i), align = alignment_of(p, i);
        if (*o < 0) fail(diagnostic_kind::negative_offset, i, i, name(i) + " has offset " + std::to_string(*o));
        if (align > 1 && *o % align != 0) {
            fail(diagnostic_kind::misaligned, i, i,
                 name(i) + " at offset " + std::to_string(*o) + " is not a multiple of its alignment " +
                     std::to_string(align));
        }
        if (capacity && size > 0 && *o + size > *capacity) {
            fail(diagnostic_kind::over_capacity, i, i,
                 name(i) + " ends at " + std::to_string(*o + size) + ", past the capacity " + std::to_string(*capacity));
        }
        placed[i] = 1;
    }
    // Sharing groups meet where their segments do; each pair is reported once, at the first
    // segments found to meet (a buffer without segments shows its lifespan).
    std::vector<std::pair<live_interval, std::size_t>> pieces;
    for (auto const& piece : detail::live_pieces(p)) {
        if (placed[piece.second]) pieces.push_back(piece);
    }
    bool const grouped = std::any_of(pieces.begin(), pieces.end(), [&](auto const& piece) {
        return detail::segments_or_null(p, piece.second) != nullptr;
    });
    std::set<std::pair<std::size_t, std::size_t>> reported;
    for_each_overlapping_pair(
        pieces.size(), [&](std::size_t k) { return pieces[k].first; },
        [&](std::size_t x, std::size_t y) {
            if (pieces[x].second == pieces[y].second) return;
            bool const swap = pieces[x].second > pieces[y].second;
            auto const& first = swap ? pieces[y] : pieces[x];
            auto const& second = swap ? pieces[x] : pieces[y];
            std::size_t const i = first.second, j = second.second;
            std::int64_t const lo = std::max(at[i], at[j]);
            std::int64_t const hi = std::min(at[i] + size_of(p, i), at[j] + size_of(p, j));
            if (lo >= hi) return;
            if (grouped && !reported.emplace(i, j).second) return;
            std::ostringstream what;
            what << name(i) << ' ' << to_lifespan(first.first) << " and " << name(j) << ' ' << to_lifespan(second.first)
                 << " share bytes [" << lo << ", " << hi << ")";
            fail(diagnostic_kind::overlap, i, j, what.str());
        });
    return out;
}

}  // namespace detail

/// Checks a placement: every buffer has an aligned, non-negative offset, ends within `capacity`
/// when one is given, and no two buffers that live at the same time share a byte (buffers of size
/// 0 share nothing). Overlaps come from an endpoint sweep, O(n log n + E). Empty when valid.
/// Messages name buffers by index: `buffer 0 [0, 2) and buffer 1 [1, 4) share bytes [3, 4)`.
template <class Problem, class OffsetMap,
          std::enable_if_t<!std::is_convertible_v<OffsetMap, std::optional<std::int64_t>>, int> = 0>
std::vector<diagnostic> check_placement(Problem const& p, OffsetMap offsets,
                                        std::optional<std::int64_t> capacity = std::nullopt) {
    return detail::check_placement(p, offsets, capacity ? &*capacity : nullptr,
                                   [](std::size_t i) { return "buffer " + std::to_string(i); });
}

/// check_placement on a problem's own offsets; messages name buffers by id: `buffer 'b2' [3, 9)`.
inline std::vector<diagnostic> check_placement(allocation_problem const& p,
                                               std::optional<std::int64_t> capacity = std::nullopt) {
    return detail::check_placement(p, offset_map(p), capacity ? &*capacity : nullptr,
                                   [&](std::size_t i) { return "buffer '" + p.buffers[i].id + "'"; });
}

}  // namespace hlomem

#endif  // HLOMEM_PLACEMENT_PROBLEM_HPP
