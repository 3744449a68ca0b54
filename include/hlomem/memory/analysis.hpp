// hlomem/memory/analysis.hpp: what a buffer assignment costs and what it could cost — shared
// buffers, the lower bound no allocator can beat, each allocation's fragmentation, and padding.
//
// A *shared buffer* is a set of values that legally share one slice (soundness.hpp: in-place
// updates, loop state, aliased outputs). Its size is the largest of its values' sizes and its live
// range the union of theirs, which for XLA's touching ranges is one interval. Shared buffers are
// what an allocator places: placing each at its own offset is always legal.
#ifndef HLOMEM_MEMORY_ANALYSIS_HPP
#define HLOMEM_MEMORY_ANALYSIS_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include <hlomem/core/size_function.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/memory/interval_sweep.hpp>
#include <hlomem/memory/peak.hpp>
#include <hlomem/memory/soundness.hpp>

namespace hlomem {

struct shared_buffer {
    std::vector<std::size_t> values;     ///< value indices, by id
    std::size_t allocation = npos;
    std::int64_t color = 0;
    std::int64_t offset = 0;
    std::int64_t size = 0;               ///< the largest value's size
    std::optional<live_interval> range;  ///< the union of the values' ranges; none if no value has one
};

/// Groups the values of every allocation into shared buffers (union of legal sharing pairs).
template <class P>
std::vector<shared_buffer> shared_buffers(basic_buffer_assignment<P> const& ba) {
    std::vector<std::size_t> parent(ba.values.size());
    std::iota(parent.begin(), parent.end(), std::size_t{0});
    auto find = [&](std::size_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    for (auto const& a : ba.allocations) {
        for_each_same_slice_pair_live_together(ba, a.values, [&](std::size_t i, std::size_t j) {
            if (legal_sharing(ba, i, j)) parent[find(i)] = find(j);
        });
    }
    std::vector<std::size_t> group_of_root(ba.values.size(), npos);  // by root value: its buffer (a vector, not a map: 10^6 values)
    std::vector<shared_buffer> out;
    for (std::size_t i = 0; i < ba.values.size(); ++i) {
        auto const& v = ba.values[i];
        if (v.allocation == npos) continue;
        std::size_t& group = group_of_root[find(i)];
        if (group == npos) {
            group = out.size();
            shared_buffer b;
            b.allocation = v.allocation;
            b.color = ba.allocations[v.allocation].color;
            b.offset = v.offset;
            out.push_back(std::move(b));
        }
        auto& b = out[group];
        b.values.push_back(i);
        b.size = std::max(b.size, v.size);
        if (v.live_range) {
            if (!b.range) {
                b.range = v.live_range;
            } else {
                b.range->start = std::min(b.range->start, v.live_range->start);
                b.range->end = std::max(b.range->end, v.live_range->end);
            }
        }
    }
    return out;
}

/// assigned_live_bytes, from the shared buffers of `ba` (shared_buffers) and its soundness check
/// (check_soundness), in O(n + max) instead of a segment tree's O(n log n): when the check finds
/// no overlap and no overrun, two slices of a color live at the same time are either disjoint or
/// one slice of a shared buffer (legal_sharing accepts only the same allocation, offset and
/// size), so the union of the live slices at t is the sum of the sizes of the buffers live at t,
/// a difference array over time. Each buffer counts over the union of its values' live ranges,
/// with the same values left out as live_slice_bytes leaves out (no bytes; a range that ends
/// before 0 or before it starts). With an overlap or an overrun, the general measure.
template <class P>
std::vector<color_live_bytes> assigned_live_bytes(basic_buffer_assignment<P> const& ba, std::vector<shared_buffer> const& buffers,
                                                  std::vector<diagnostic> const& soundness) {
    bool const disjoint = std::none_of(soundness.begin(), soundness.end(), [](diagnostic const& d) {
        return d.kind == diagnostic_kind::overlap || d.kind == diagnostic_kind::overrun;
    });
    if (!disjoint || !ba.live_range) return assigned_live_bytes(ba);
    std::vector<color_live_bytes> out;
    std::vector<std::int64_t> colors;  // out's colors, sorted, as live_slice_bytes lists them
    for (auto const& a : ba.allocations) colors.push_back(a.color);
    std::sort(colors.begin(), colors.end());
    colors.erase(std::unique(colors.begin(), colors.end()), colors.end());
    out.resize(colors.size());
    for (std::size_t k = 0; k < colors.size(); ++k) out[k].color = colors[k];
    auto slot = [&](std::int64_t color) {
        return static_cast<std::size_t>(std::lower_bound(colors.begin(), colors.end(), color) - colors.begin());
    };
    for (auto const& a : ba.allocations) out[slot(a.color)].allocated_bytes += a.size;
    logical_time const horizon = std::max<logical_time>(ba.live_range->max, 0);
    std::vector<std::vector<std::int64_t>> change(colors.size());  // per color: bytes_at[t] - bytes_at[t - 1]
    std::vector<live_interval> ranges;                              // one buffer's, while it is summed
    for (auto const& b : buffers) {
        std::size_t const c = slot(b.color);
        auto& result = out[c];
        std::int64_t bytes = 0;
        ranges.clear();
        for (std::size_t vi : b.values) {
            auto const& v = ba.values[vi];
            if (v.size <= 0) continue;
            if (!v.live_range) {
                ++result.unranged_values;
                result.unranged_bytes += v.size;
                continue;
            }
            if (v.live_range->start > v.live_range->end || v.live_range->end < 0) continue;
            bytes = std::max(bytes, v.size);
            ranges.push_back({std::max<logical_time>(v.live_range->start, 0), std::min(v.live_range->end, horizon)});
        }
        if (ranges.empty()) continue;
        auto& delta = change[c];
        if (delta.empty()) delta.assign(static_cast<std::size_t>(horizon) + 2, 0);
        // The union of the buffer's ranges (one interval for XLA's touching ranges), piece by piece.
        if (ranges.size() > 1) {
            std::sort(ranges.begin(), ranges.end(), [](live_interval const& x, live_interval const& y) { return x.start < y.start; });
        }
        for (std::size_t k = 0; k < ranges.size();) {
            logical_time const start = ranges[k].start;
            logical_time end = ranges[k].end;
            for (++k; k < ranges.size() && ranges[k].start <= end + 1; ++k) end = std::max(end, ranges[k].end);
            if (start > end) continue;  // starts after the last time
            delta[static_cast<std::size_t>(start)] += bytes;
            delta[static_cast<std::size_t>(end) + 1] -= bytes;
        }
    }
    for (std::size_t c = 0; c < out.size(); ++c) {
        auto& result = out[c];
        result.bytes_at.assign(static_cast<std::size_t>(horizon) + 1, 0);
        if (change[c].empty()) continue;
        std::int64_t running = 0;
        for (logical_time t = 0; t <= horizon; ++t) {
            running += change[c][static_cast<std::size_t>(t)];
            result.bytes_at[static_cast<std::size_t>(t)] = running;
            if (running > result.peak_bytes) {
                result.peak_bytes = running;
                result.peak_time = t;
            }
        }
    }
    return out;
}

/// assigned_live_bytes of a model in which every value fills its allocation (offset 0, the
/// allocation's size), as the models derive_buffer_assignment builds from a module do (one
/// allocation per HloBuffer, hlo/liveness.hpp): two slices of a color are then one slice or
/// disjoint, so the allocations are the shared buffers and the sum over them above is exact, in
/// O(n + max) instead of a segment tree's O(n log n), with no soundness check to run first. Any
/// other model (a value smaller than its allocation, or at an offset) gets the general measure.
template <class P>
std::vector<color_live_bytes> whole_allocation_live_bytes(basic_buffer_assignment<P> const& ba) {
    std::vector<shared_buffer> buffers(ba.allocations.size());
    std::size_t listed = 0;
    for (std::size_t k = 0; k < ba.allocations.size(); ++k) {
        auto const& a = ba.allocations[k];
        auto& b = buffers[k];
        b.allocation = k;
        b.color = a.color;
        b.size = a.size;
        b.values.assign(a.values.begin(), a.values.end());
        for (std::size_t i : a.values) {
            auto const& v = ba.values[i];
            if (v.allocation != k || v.offset != 0 || v.size != a.size) return assigned_live_bytes(ba);
            if (!v.live_range) continue;
            if (!b.range) {
                b.range = v.live_range;
            } else {
                b.range->start = std::min(b.range->start, v.live_range->start);
                b.range->end = std::max(b.range->end, v.live_range->end);
            }
        }
        listed += a.values.size();
    }
    // Every value placed in an allocation is in its list.
    std::size_t const placed = static_cast<std::size_t>(
        std::count_if(ba.values.begin(), ba.values.end(), [](auto const& v) { return v.allocation != npos; }));
    if (placed != listed) return assigned_live_bytes(ba);
    return assigned_live_bytes(ba, buffers, std::vector<diagnostic>{});
}

/// The most bytes that must be live at one time: a lower bound for any placement of `buffers`.
struct live_bytes_bound {
    std::int64_t bytes = 0;
    logical_time time = 0;
    std::vector<std::size_t> buffers;  ///< indices into the buffers given, live at `time`
};

/// The heaviest moment of the shared buffers selected by `keep(buffer)`; buffers without a live
/// range (thread-local values) count as live throughout.
template <class Keep>
live_bytes_bound max_live_bytes(std::vector<shared_buffer> const& buffers, Keep keep) {
    std::vector<std::size_t> ranged;
    std::int64_t always = 0;
    std::vector<std::size_t> always_live;
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        if (!keep(buffers[i])) continue;
        if (buffers[i].range) {
            ranged.push_back(i);
        } else {
            always += buffers[i].size;
            always_live.push_back(i);
        }
    }
    auto const moment = max_weight_moment(
        ranged.size(), [&](std::size_t k) { return *buffers[ranged[k]].range; },
        [&](std::size_t k) { return buffers[ranged[k]].size; });
    live_bytes_bound out;
    out.bytes = moment.weight + always;
    out.time = moment.time;
    for (std::size_t k : moment.items) out.buffers.push_back(ranged[k]);
    out.buffers.insert(out.buffers.end(), always_live.begin(), always_live.end());
    std::sort(out.buffers.begin(), out.buffers.end());
    return out;
}

/// The allocations of one color and kind: how many, and their bytes.
struct kind_totals {
    std::int64_t color = 0;
    allocation_kind kind = allocation_kind::other;
    std::int64_t count = 0;
    std::int64_t bytes = 0;
};

/// Per color and allocation kind, by color and then kind: the report's "allocations by color and
/// kind", the diff's bytes by kind. Written once, so that the two always add up alike.
template <class P>
std::vector<kind_totals> allocation_totals(basic_buffer_assignment<P> const& ba) {
    std::map<std::pair<std::int64_t, allocation_kind>, kind_totals> groups;
    for (auto const& a : ba.allocations) {
        auto& g = groups[{a.color, a.kind()}];
        g.color = a.color;
        g.kind = a.kind();
        ++g.count;
        g.bytes += a.size;
    }
    std::vector<kind_totals> out;
    out.reserve(groups.size());
    for (auto const& entry : groups) out.push_back(entry.second);
    return out;
}

/// Per color: the lower bound for any allocator of the color's buffers (the maximum-weight clique
/// of their interval graph), and the same for the color's temp arena (preallocated-temp
/// allocations only), next to what XLA allocated for each.
struct color_bounds {
    std::int64_t color = 0;
    std::int64_t allocated_bytes = 0;       ///< Σ allocation sizes of the color
    live_bytes_bound all;                   ///< over every buffer of the color
    std::int64_t temp_allocated_bytes = 0;  ///< Σ preallocated-temp allocation sizes of the color
    live_bytes_bound temp;                  ///< over the temp arena's buffers
};

/// The bounds of every color of `ba`; with `over_all_buffers` false, only the temp arena's (`all`
/// stays empty): what a caller that compares temp arenas alone, as the diff does, needs.
template <class P>
std::vector<color_bounds> lower_bounds(basic_buffer_assignment<P> const& ba, std::vector<shared_buffer> const& buffers,
                                       bool over_all_buffers = true) {
    std::map<std::int64_t, color_bounds> by_color;
    for (auto const& a : ba.allocations) {
        auto& c = by_color[a.color];
        c.color = a.color;
        c.allocated_bytes += a.size;
        if (a.kind() == allocation_kind::temp) c.temp_allocated_bytes += a.size;
    }
    std::vector<color_bounds> out;
    for (auto& [color, c] : by_color) {
        std::int64_t const col = color;
        if (over_all_buffers) c.all = max_live_bytes(buffers, [&](shared_buffer const& b) { return b.color == col; });
        c.temp = max_live_bytes(buffers, [&](shared_buffer const& b) {
            return b.color == col && ba.allocations[b.allocation].kind() == allocation_kind::temp;
        });
        out.push_back(std::move(c));
    }
    return out;
}

/// An allocation's size against the most bytes live inside it at once.
struct allocation_fragmentation {
    std::size_t allocation = npos;
    std::int64_t size = 0;
    std::int64_t max_live_bytes = 0;
    logical_time time = 0;
    std::int64_t fragmentation_bytes = 0;  ///< size − max_live_bytes
};

template <class P>
std::vector<allocation_fragmentation> fragmentation(basic_buffer_assignment<P> const& ba,
                                                    std::vector<shared_buffer> const& buffers) {
    std::vector<std::vector<std::size_t>> of_allocation(ba.allocations.size());
    for (std::size_t i = 0; i < buffers.size(); ++i) of_allocation[buffers[i].allocation].push_back(i);
    std::vector<allocation_fragmentation> out;
    for (std::size_t ai = 0; ai < ba.allocations.size(); ++ai) {
        std::vector<shared_buffer> mine;
        for (std::size_t b : of_allocation[ai]) mine.push_back(buffers[b]);
        auto const bound = max_live_bytes(mine, [](shared_buffer const&) { return true; });
        std::int64_t const size = ba.allocations[ai].size;
        out.push_back({ai, size, bound.bytes, bound.time, size - bound.bytes});
    }
    return out;
}

/// Padding of one value: its bytes under the size function minus the unpadded bytes of the same
/// shape (no tiling; an E(n) that widens an element counts as padding), as XProf counts it.
/// Tuples (pointer tables) have no padding.
struct value_padding {
    std::size_t value = npos;
    std::int64_t padded_bytes = 0;
    std::int64_t unpadded_bytes = 0;
    std::int64_t padding_bytes() const noexcept { return padded_bytes - unpadded_bytes; }
};

template <class P>
std::vector<value_padding> padding_of_values(basic_buffer_assignment<P> const& ba, size_function_kind sizing) {
    // Sizes per shape of the table, computed once: a dump has far fewer shapes than values.
    struct sizes {
        bool known = false, sized = false;
        std::int64_t padded = 0, unpadded = 0;
    };
    std::vector<sizes> of_shape(ba.shapes.size());
    std::vector<value_padding> out;
    for (std::size_t i = 0; i < ba.values.size(); ++i) {
        auto const id = ba.values[i].shape;
        if (id == no_shape) continue;
        auto& z = of_shape[static_cast<std::size_t>(id)];
        if (!z.known) {
            z.known = true;
            auto const& shape = ba.shapes[id];
            z.sized = shape.is_array() && std::none_of(shape.dimensions().begin(), shape.dimensions().end(),
                                                       [](auto d) { return detail::is_unbounded_extent(d); });
            if (z.sized) {
                z.padded = bytes_under(shape, sizing);
                z.unpadded = unpadded_byte_size(shape);
            }
        }
        if (z.sized) out.push_back({i, z.padded, z.unpadded});
    }
    return out;
}

/// Padding totals of one color: over all its values (each shared buffer counted once, by its
/// most padded value) and over the values live at the color's peak of assigned bytes.
struct color_padding {
    std::int64_t color = 0;
    std::int64_t padded_bytes = 0;
    std::int64_t unpadded_bytes = 0;
    logical_time peak_time = 0;
    std::int64_t peak_padded_bytes = 0;
    std::int64_t peak_unpadded_bytes = 0;
};

/// The same, with the colors' live bytes (assigned_live_bytes) already at hand.
template <class P>
std::vector<color_padding> padding_by_color(basic_buffer_assignment<P> const& ba, std::vector<shared_buffer> const& buffers,
                                            size_function_kind sizing, std::vector<color_live_bytes> const& colors) {
    auto const per_value = padding_of_values(ba, sizing);
    std::vector<std::size_t> where(ba.values.size(), npos);
    for (std::size_t k = 0; k < per_value.size(); ++k) where[per_value[k].value] = k;
    std::map<std::int64_t, color_padding> by_color;
    for (auto const& a : ba.allocations) by_color[a.color].color = a.color;
    for (auto const& b : buffers) {
        value_padding const* best = nullptr;
        for (std::size_t vi : b.values) {
            if (where[vi] == npos) continue;
            auto const* p = &per_value[where[vi]];
            if (!best || p->padding_bytes() > best->padding_bytes()) best = p;
        }
        if (!best) continue;
        auto& c = by_color[b.color];
        c.padded_bytes += best->padded_bytes;
        c.unpadded_bytes += best->unpadded_bytes;
        auto it = std::find_if(colors.begin(), colors.end(), [&](auto const& x) { return x.color == b.color; });
        if (it != colors.end() && b.range && b.range->contains(it->peak_time)) {
            c.peak_time = it->peak_time;
            c.peak_padded_bytes += best->padded_bytes;
            c.peak_unpadded_bytes += best->unpadded_bytes;
        }
    }
    std::vector<color_padding> out;
    for (auto& [color, c] : by_color) out.push_back(c);
    return out;
}

template <class P>
std::vector<color_padding> padding_by_color(basic_buffer_assignment<P> const& ba, std::vector<shared_buffer> const& buffers,
                                            size_function_kind sizing) {
    return padding_by_color(ba, buffers, sizing, assigned_live_bytes(ba));
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_ANALYSIS_INSTANTIATIONS(EXTERN, P) \
    EXTERN template std::vector<color_live_bytes> assigned_live_bytes<P>(basic_buffer_assignment<P> const&, std::vector<shared_buffer> const&, std::vector<diagnostic> const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_ANALYSIS_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_MEMORY_ANALYSIS_HPP
