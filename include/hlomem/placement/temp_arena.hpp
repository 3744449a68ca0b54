// hlomem/placement/temp_arena.hpp: the allocation problem XLA solved for each temp arena of a
// buffer assignment (its `preallocated-temp` allocations), extracted so that other algorithms can
// solve it again, and the way back: a new placement written into a copy of the dump.
//
//   allocation 53: size 985504, preallocated-temp:
//    value: <580 custom-call.19.0{0} @0> (size=393216,offset=2176): bf16[32,6144]{1,0}
//    ...
//   becomes one problem: a buffer per shared buffer, with its lifespan, size and alignment, and
//   XLA's offsets as the given placement.
//
// The rule for what one buffer is. Values that XLA placed at the same allocation and offset
// *because they share storage* form one buffer: in-place updates (a fusion writing into the operand
// whose last use it is), loop and branch state (phi values), aliased outputs of one instruction —
// exactly the pairs soundness.hpp accepts as legal sharing (memory/analysis.hpp `shared_buffers`).
// Its lifespan is the union of the values' live ranges (they touch, so the union is one interval),
// its size the largest value's size. Any placement of these buffers is then legal: values that
// share storage move together, and buffers that share nothing never share bytes.
//
// One more case: loop state. A while loop's HloBuffer (its init, body parameter, body result and
// output) must keep one slice across iterations, yet in the flattened live ranges a body
// parameter need not touch the body result (param.12.0{1} ends at 186, collective-permute-start.1{1}
// starts at 187). Shared buffers of one allocation at the same offset and size that both hold
// loop or branch state (phi values) are therefore one buffer, a sharing group (problem.hpp). It is
// live only where its values are: when their ranges leave a gap, the buffer has segments, and
// other buffers may use its bytes in the gap, as XLA's heap lets them (its colocated buffers each
// keep their own live range):
//
//   jit__batched_chol_68697f6f, allocation 14, offset 6553600 (1638400 bytes):
//     loop_dynamic_slice_fusion 21-34, param.9.0{1} 34-37, param.10.0{1} 37-50   the loop state
//     triangular-solve.4.0{0} 60-63, loop_complex_dynamic_slice_fusion{0} 68-73  XLA's, in the gap
//     input_transpose_fusion 75-79 (the body's result), while.11.0{1} 79-81       the loop state
//   → one buffer over [21, 82) with segments [21, 51) and [75, 82); taking the hull instead would
//     make XLA's own placement invalid and put the lower bound above XLA's arena.
//
// Limits of the rule:
//   - values without a live range (none in the dumps we have) are given the whole program,
//     [0, max + 1), which is safe but may cost space;
//   - two values that XLA colocated although the dump does not show why (no in-place use, no phi)
//     become two buffers that may not share bytes: the problem is then harder than XLA's, never
//     easier, and every placement found for it is still legal;
//   - the alignment is not in the dump. XLA aligns every chunk of a color to the backend's
//     `color_alignment`; `infer_alignment` takes the largest power of two dividing every offset in
//     the allocation (128 on the GPU seeds, 16384 for the TPU seed's HBM), which is at least the
//     true alignment and equal to it whenever the offsets are varied enough. It can be overridden.
//
// How XLA laid the arena out (docs/FORMATS.md 5.4). Not every buffer of a temp arena went
// through the heap simulator: a tuple-shaped buffer (a pointer table, `(f32[8], s32[])`) gets an
// allocation of its own, and CombineTempAllocations then concatenates the heap and these
// allocations, each at the aligned end of the one before:
//
//   seed 000:  [0, 16) [128, 144) ... [2048, 2064)   17 pointer tables of custom-calls
//              [2176, 985216)                         the heap: 983040 bytes
//              [985216, 985232) ... [985472, 985504)  3 more tables → 985504 bytes
//
// `layout` records these pieces in arena order; reproduce_xla_arena re-runs the heap on the heap's
// buffers and lays the pieces out again. hlomem's own problem treats pointer tables like any other
// buffer (their live ranges are as honest as any), so its algorithms may place them in reused
// memory.
//
// XLA's heap keys. GlobalDecreasingSizeBestFitHeap sorts by heap *events* (best_fit.hpp). They are
// replayed here from the dump as XLA's HeapSimulator::RunComputation issues them: values in
// (start, end, id) order; at each time, definitions first — a value whose shared buffer already has
// a value is shared with it (ShareWith), after freeing, first, the operand it updates in place
// (CanShareOperandBufferWithUser; not when the instruction declares output_to_operand_aliasing,
// which makes the two one HloBuffer) — then the frees of the values whose last time it is.
#ifndef HLOMEM_PLACEMENT_TEMP_ARENA_HPP
#define HLOMEM_PLACEMENT_TEMP_ARENA_HPP

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/memory/analysis.hpp>
#include <hlomem/memory/soundness.hpp>
#include <hlomem/placement/best_fit.hpp>
#include <hlomem/placement/problem.hpp>

namespace hlomem {

/// One piece of an arena as XLA laid it out: its heap, or an allocation of its own.
struct arena_piece {
    std::int64_t offset = 0;             ///< where XLA put it in the arena
    std::int64_t bytes = 0;              ///< its size: the heap size, or the buffer's size
    bool heap = false;
    std::vector<std::size_t> buffers;    ///< indices into the arena's problem
    /// For the heap, its buffers' keys as XLA's heap simulator counted them: over the heap's
    /// buffers only (allocations of their own make no heap events).
    std::vector<heap_key> heap_keys;
};

/// One temp allocation of a dump as an allocation problem.
struct temp_arena {
    std::size_t allocation = npos;  ///< index into buffer_assignment::allocations
    std::int64_t color = 0;
    std::int64_t xla_bytes = 0;     ///< the allocation's size: XLA's heap
    std::int64_t alignment = 1;     ///< every buffer's alignment
    bool alignment_inferred = true; ///< from the offsets (infer_alignment), not given
    /// One buffer per shared buffer, ordered by the id of the value XLA allocated it for; `id` is
    /// that value's id, `offset` XLA's offset.
    allocation_problem problem;
    std::vector<std::vector<std::size_t>> values;  ///< per buffer, its values (indices into values, by id)
    /// Per buffer, XLA's sort keys in heap events, as XLA would count them with every buffer of the
    /// arena in its heap (the keys of the buffers XLA's heap really held are in the layout).
    std::vector<heap_key> heap_keys;
    std::vector<arena_piece> layout;               ///< XLA's heap and own allocations, by offset
    std::size_t values_without_live_range = 0;
};

struct temp_arena_options {
    std::optional<std::int64_t> alignment;  ///< instead of infer_alignment
    /// Allocations that hold more values are left out (a caller that searches each arena bounds
    /// its work so: placement/temp_optimum.hpp).
    std::size_t most_values = std::numeric_limits<std::size_t>::max();
};

/// The largest power of two that divides every value offset in allocation `ai` (1 when every
/// offset is 0): XLA's chunk alignment for its color, or a multiple of it.
template <class P>
std::int64_t infer_alignment(basic_buffer_assignment<P> const& ba, std::size_t ai) {
    std::uint64_t bits = 0;
    for (std::size_t vi : ba.allocations[ai].values) bits |= static_cast<std::uint64_t>(ba.values[vi].offset);
    if (bits == 0) return 1;
    return static_cast<std::int64_t>(bits & (~bits + 1));
}

namespace detail {

/// XLA's heap keys for the buffers of one arena (see the top of this header).
template <class P>
std::vector<heap_key> xla_heap_keys(basic_buffer_assignment<P> const& ba, std::vector<std::vector<std::size_t>> const& groups) {
    // Per value (indices into ba.values): its group and place in it, its events. Vectors, not
    // maps: a heap of a million values is replayed in O(n log n).
    std::size_t const n = ba.values.size();
    std::vector<std::size_t> group_of(n, npos), place_in_group(n, npos);
    std::vector<std::size_t> ranged;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        for (std::size_t k = 0; k < groups[g].size(); ++k) {
            std::size_t const v = groups[g][k];
            if (!ba.values[v].live_range || ba.values[v].size == 0) continue;
            group_of[v] = g;
            place_in_group[v] = k;
            ranged.push_back(v);
        }
    }
    auto range = [&](std::size_t v) { return *ba.values[v].live_range; };
    std::sort(ranged.begin(), ranged.end(), [&](std::size_t a, std::size_t b) {
        return std::make_tuple(range(a).start, range(a).end, ba.values[a].id) <
               std::make_tuple(range(b).start, range(b).end, ba.values[b].id);
    });
    std::map<logical_time, std::vector<std::size_t>> defined, freed;  // in (start, end, id) order
    for (std::size_t v : ranged) {
        defined[range(v).start].push_back(v);
        freed[range(v).end].push_back(v);
    }
    std::vector<logical_time> times;
    for (auto const& [t, vs] : defined) times.push_back(t);
    for (auto const& [t, vs] : freed) times.push_back(t);
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());

    std::int64_t counter = 0;
    std::vector<std::int64_t> start_event(n, -1), end_event(n, -1);
    std::vector<std::optional<std::size_t>> root(groups.size());
    std::vector<char> freed_early(n, 0);
    for (logical_time t : times) {
        if (auto it = defined.find(t); it != defined.end()) {
            for (std::size_t v : it->second) {
                std::size_t const g = group_of[v];
                if (root[g] && ba.values[v].output_to_operand_aliasing.empty()) {
                    // ShareWith; an operand updated in place is freed just before. (A declared
                    // output_to_operand_aliasing makes one HloBuffer instead: no early free.) The
                    // first such value of the group, in the group's order, among those freed now.
                    std::size_t chosen = npos;
                    if (auto ending = freed.find(t); ending != freed.end()) {
                        for (std::size_t a : ending->second) {
                            if (a == v || group_of[a] != g || freed_early[a]) continue;
                            if (chosen != npos && place_in_group[a] > place_in_group[chosen]) continue;
                            if (legal_sharing(ba, a, v) == sharing_reason::in_place) chosen = a;
                        }
                    }
                    if (chosen != npos) {
                        end_event[chosen] = counter++;
                        freed_early[chosen] = 1;
                    }
                }
                if (!root[g]) root[g] = v;
                start_event[v] = counter++;
            }
        }
        if (auto it = freed.find(t); it != freed.end()) {
            for (std::size_t v : it->second) {
                if (!freed_early[v]) end_event[v] = counter++;
            }
        }
    }
    std::vector<heap_key> keys(groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (!root[g]) continue;
        std::size_t const r = *root[g];
        keys[g].size = ba.values[r].size;
        keys[g].duration = end_event[r] - start_event[r];
        std::int64_t last = end_event[r];
        for (std::size_t v : groups[g]) last = std::max(last, end_event[v]);
        keys[g].span = last - start_event[r];
    }
    return keys;
}

/// The union of the values' live ranges as half-open spans, when it is more than one span (a
/// sharing group with gaps); empty when it is one span or some value has no live range.
template <class P>
std::vector<lifespan> live_segments(basic_buffer_assignment<P> const& ba, std::vector<std::size_t> const& values) {
    std::vector<lifespan> spans;
    for (std::size_t v : values) {
        if (!ba.values[v].live_range) return {};
        spans.push_back(to_lifespan(*ba.values[v].live_range));
    }
    std::sort(spans.begin(), spans.end(), [](lifespan const& a, lifespan const& b) {
        return a.lower != b.lower ? a.lower < b.lower : a.upper < b.upper;
    });
    std::vector<lifespan> merged;
    for (lifespan const& s : spans) {
        if (!merged.empty() && s.lower <= merged.back().upper) {
            merged.back().upper = std::max(merged.back().upper, s.upper);
        } else {
            merged.push_back(s);
        }
    }
    if (merged.size() <= 1) merged.clear();
    return merged;
}

/// The pieces XLA concatenated into the arena (see the top of this header): one per offset held by
/// tuple-shaped buffers, and the heap, spanning its buffers' offsets.
template <class P>
std::vector<arena_piece> xla_layout(basic_buffer_assignment<P> const& ba, temp_arena const& arena) {
    std::map<std::int64_t, arena_piece> own;
    arena_piece heap;
    heap.heap = true;
    std::int64_t heap_end = 0;
    for (std::size_t i = 0; i < arena.values.size(); ++i) {
        auto const& b = arena.problem.buffers[i];
        bool const pointer_table = std::any_of(arena.values[i].begin(), arena.values[i].end(), [&](std::size_t v) {
            auto const* shape = ba.shape_of(ba.values[v]);
            return shape && shape->is_tuple();
        });
        if (pointer_table) {
            auto& piece = own[*b.offset];
            piece.offset = *b.offset;
            piece.bytes = std::max(piece.bytes, b.size);
            piece.buffers.push_back(i);
        } else {
            heap.offset = heap.buffers.empty() ? *b.offset : std::min(heap.offset, *b.offset);
            heap_end = std::max(heap_end, *b.offset + b.size);
            heap.buffers.push_back(i);
        }
    }
    std::vector<arena_piece> out;
    for (auto& [offset, piece] : own) out.push_back(std::move(piece));
    if (!heap.buffers.empty()) {
        heap.bytes = heap_end - heap.offset;
        std::vector<std::vector<std::size_t>> heap_values;
        for (std::size_t i : heap.buffers) heap_values.push_back(arena.values[i]);
        heap.heap_keys = xla_heap_keys(ba, heap_values);
        out.insert(std::upper_bound(out.begin(), out.end(), heap.offset,
                                    [](std::int64_t o, arena_piece const& p) { return o < p.offset; }),
                   std::move(heap));
    }
    return out;
}

}  // namespace detail

/// XLA's arena computed again: the heap re-run on the buffers XLA's heap simulator placed (with
/// XLA's keys and the arena's alignment), and the layout's pieces concatenated in XLA's order.
struct xla_reproduction {
    best_fit_result heap;            ///< ChooseBestHeapAlgorithm on the heap's buffers
    std::int64_t xla_heap_bytes = 0; ///< the heap's size in the dump
    std::int64_t arena_bytes = 0;    ///< the pieces laid out again with the heap re-run
    std::size_t heap_buffers = 0;
    std::size_t own_allocations = 0; ///< pieces that are not the heap
    /// Heap buffers whose offset within the heap differs from XLA's (0 when reproduced exactly).
    std::size_t offsets_differing = 0;
};

inline xla_reproduction reproduce_xla_arena(temp_arena const& arena) {
    xla_reproduction r;
    std::int64_t cursor = 0;
    for (auto const& piece : arena.layout) {
        std::int64_t bytes = piece.bytes;
        if (piece.heap) {
            allocation_problem heap;
            for (std::size_t i : piece.buffers) heap.buffers.push_back(arena.problem.buffers[i]);
            r.heap = xla_choose_best_fit(heap, piece.heap_keys);
            r.xla_heap_bytes = piece.bytes;
            r.heap_buffers = piece.buffers.size();
            for (std::size_t k = 0; k < piece.buffers.size(); ++k) {
                if (*heap.buffers[k].offset != *arena.problem.buffers[piece.buffers[k]].offset - piece.offset) {
                    ++r.offsets_differing;
                }
            }
            bytes = r.heap.bytes;
        } else {
            ++r.own_allocations;
        }
        cursor = detail::align_up(cursor, arena.alignment) + bytes;
    }
    r.arena_bytes = cursor;
    return r;
}

/// Every temp allocation of `ba` as a problem, in allocation order (see the top of this header).
template <class P>
std::vector<temp_arena> temp_arenas(basic_buffer_assignment<P> const& ba, std::vector<shared_buffer> const& shared,
                                    temp_arena_options const& options = {}) {
    logical_time const program_end = ba.live_range ? ba.live_range->max : 0;
    std::vector<temp_arena> out;
    for (std::size_t ai = 0; ai < ba.allocations.size(); ++ai) {
        auto const& a = ba.allocations[ai];
        if (a.kind() != allocation_kind::temp || a.values.size() > options.most_values) continue;
        temp_arena arena;
        arena.allocation = ai;
        arena.color = a.color;
        arena.xla_bytes = a.size;
        arena.alignment_inferred = !options.alignment;
        arena.alignment = options.alignment.value_or(infer_alignment(ba, ai));

        // The shared buffers of this allocation; loop state at one offset and size joined.
        struct group {
            std::vector<std::size_t> values;
            std::int64_t offset = 0;
            std::int64_t size = 0;
            std::optional<live_interval> range;
            std::size_t root = npos;  // the value XLA allocated it for: first in (start, end, id) order
        };
        std::vector<group> groups;
        std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> loop_state;
        for (auto const& b : shared) {
            if (b.allocation != ai) continue;
            bool const phi = std::any_of(b.values.begin(), b.values.end(), [&](std::size_t v) { return ba.values[v].is_phi; });
            std::size_t gi = groups.size();
            if (phi && b.range) {
                auto [it, fresh] = loop_state.emplace(std::make_pair(b.offset, b.size), gi);
                if (!fresh) gi = it->second;
            }
            if (gi == groups.size()) groups.push_back({{}, b.offset, b.size, std::nullopt, npos});
            auto& g = groups[gi];
            g.values.insert(g.values.end(), b.values.begin(), b.values.end());
            if (b.range) {
                g.range = g.range ? live_interval{std::min(g.range->start, b.range->start), std::max(g.range->end, b.range->end)}
                                  : *b.range;
            }
        }
        auto order_key = [&](std::size_t v) {
            auto const& x = ba.values[v];
            return std::make_tuple(!x.live_range, x.live_range ? x.live_range->start : 0, x.live_range ? x.live_range->end : 0, x.id);
        };
        for (auto& g : groups) {
            std::sort(g.values.begin(), g.values.end(), [&](std::size_t x, std::size_t y) { return ba.values[x].id < ba.values[y].id; });
            g.root = *std::min_element(g.values.begin(), g.values.end(),
                                       [&](std::size_t x, std::size_t y) { return order_key(x) < order_key(y); });
        }
        std::sort(groups.begin(), groups.end(),
                  [&](group const& x, group const& y) { return ba.values[x.root].id < ba.values[y.root].id; });
        for (auto& g : groups) {
            problem_buffer pb;
            pb.id = std::to_string(ba.values[g.root].id);
            if (g.range) {
                pb.span = to_lifespan(*g.range);
                pb.segments = detail::live_segments(ba, g.values);
            } else {
                pb.span = {0, program_end + 1};
                arena.values_without_live_range += g.values.size();
            }
            pb.size = g.size;
            pb.alignment = arena.alignment;
            pb.offset = g.offset;
            arena.problem.buffers.push_back(std::move(pb));
            arena.values.push_back(std::move(g.values));
        }
        arena.heap_keys = detail::xla_heap_keys(ba, arena.values);
        arena.layout = detail::xla_layout(ba, arena);
        // Buffers XLA never simulated (no live range) keep their size as their key.
        for (std::size_t i = 0; i < arena.heap_keys.size(); ++i) {
            if (arena.heap_keys[i].size == 0) arena.heap_keys[i].size = arena.problem.buffers[i].size;
        }
        out.push_back(std::move(arena));
    }
    return out;
}
/// The same, with the dump's shared buffers (shared_buffers) found here.
template <class P>
std::vector<temp_arena> temp_arenas(basic_buffer_assignment<P> const& ba, temp_arena_options const& options = {}) {
    return temp_arenas(ba, shared_buffers(ba), options);
}

/// A copy of `ba` with the placement in `placed` (the arena's problem with new offsets) written
/// into the arena's values, and the arena's allocation resized to the new arena size. `Total bytes
/// used` is left as the dump states it. check_soundness on the copy checks the placement the way it
/// checks XLA's own.
template <class P>
basic_buffer_assignment<P> with_placement(basic_buffer_assignment<P> ba, temp_arena const& arena, allocation_problem const& placed) {
    for (std::size_t i = 0; i < arena.values.size() && i < placed.buffers.size(); ++i) {
        std::int64_t const offset = placed.buffers[i].offset.value_or(0);
        for (std::size_t v : arena.values[i]) ba.values[v].offset = offset;
    }
    ba.allocations[arena.allocation].size = arena_size(placed);
    return ba;
}

}  // namespace hlomem

#endif  // HLOMEM_PLACEMENT_TEMP_ARENA_HPP
