// hlomem/memory/soundness.hpp: is a buffer assignment sound? Two values that are live at the same time
// in the same allocation must not share bytes, no value may run past its allocation, every value
// must be as large as its shape needs, and colors must agree.
//
// Sharing that XLA does on purpose is not a violation. The rule, derived from what the dump
// itself states (Used values and live ranges) and checked on every real dump we have (278 pairs of
// values that overlap in time and bytes across the 20 dumps of tests/data; all follow it):
//
//   Values A and B may share bytes when
//     1. they occupy the same slice: the same allocation, offset and size (XLA gives values that
//        share storage one buffer, whose size is printed for each of them),
//     2. their live ranges meet at exactly one time t, where A ends and B starts (XLA's ranges are
//        inclusive, so [5, 7] and [7, 10] both hold time 7),
//     3. B is defined at t: the instruction at t in the InstructionSequence is B's; or B is a
//        parameter scheduled at or after t: HloLiveRange::CalculateBufferStartEndMap starts a
//        parameter's range at the start of its computation's span (the first instruction of the
//        computation in the flattened sequence), not where the parameter itself is listed, so
//        that nothing scheduled before it can clobber it (`param.11.0{1}:8-80` with
//        `9:param.11.0`: the while body's first instruction, `8:constant_366_0`, starts it), and
//     4. the dump shows why they share:
//          - in place: the instruction at t uses A (A's Used-values block lists it) and may write
//            its result into that operand: when it declares output_to_operand_aliasing
//            (`{{2}: (1, {})}`: output {2} reuses operand 1), B's output must be declared to reuse
//            exactly A's operand; a custom call without it shares only what its backend's
//            buffer-sharing hint allows (gpu_backend_hint, memory/buffer_sharing_hints.hpp);
//            otherwise its opcode must be one XLA updates in place — dynamic-update-slice,
//            scatter, sort, all-reduce(-start), an elementwise op other than copy, or a loop or
//            input fusion (kLoop, kInput): updates_in_place, from memory/opcode_classes.hpp;
//          - loop or branch state: A or B is a phi value (while and conditional merge values, which
//            XLA keeps in one HloBuffer and whose ranges it normalizes so that they only touch:
//            HloLiveRange::NormalizeAliasedBuffers ends each value of a buffer where the next
//            starts). This covers the parameters of a while's condition and body: the condition's
//            `param.8.0{1}` (5-8) hands the loop state over to the body's `param.11.0{1}` (8-80);
//          - one instruction: A and B are outputs of the same instruction aliased to each other.
//     A use through a bitcast counts as a use of A: a bitcast defines no value of its own, so
//     A's block lists the bitcast's user (`custom-call.12.0, operand 0` for
//     `custom-call(%bitcast.928.0)`).
//
//      time   5   6   7   8   9  10
//      copy.9 [=======]                  A: ends at 7, offset 0
//      param.5{1}     [===========]      B: phi, starts at 7, offset 0   -> legal hand-over
//
// What the rule cannot see: whether a loop fusion or elementwise op really reads its operand
// elementwise (the fusion body is not in the dump). Giving such an op's output its operand's exact
// slice at the operand's last use looks like XLA's own in-place sharing and is accepted.
// Every other overlap — ranges that share more than one time, a different offset or size, a value
// starting where no instruction of its own runs — is reported.
#ifndef HLOMEM_MEMORY_SOUNDNESS_HPP
#define HLOMEM_MEMORY_SOUNDNESS_HPP

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <hlomem/core/diagnostic.hpp>
#include <hlomem/core/shape_size.hpp>
#include <hlomem/core/size_function.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/memory/buffer_sharing_hints.hpp>
#include <hlomem/memory/interval_sweep.hpp>
#include <hlomem/memory/opcode_classes.hpp>

namespace hlomem {

/// The size function a dump was written with: TPU dumps carry tiled layouts (`T(8,128)`), GPU and
/// CPU dumps do not (core/size_function.hpp).
template <class P>
size_function_kind size_function_of(basic_buffer_assignment<P> const& ba) {
    return size_function_of(ba.shapes);
}

/// Why two values may share bytes (see the rule at the top of this header).
enum class sharing_reason : std::uint8_t { in_place, phi, same_instruction };

inline std::string_view to_string(sharing_reason r) noexcept {
    switch (r) {
        case sharing_reason::in_place: return "in place";
        case sharing_reason::phi: return "phi";
        case sharing_reason::same_instruction: return "same instruction";
    }
    return "?";
}

/// Where value `v`'s instruction is listed in the InstructionSequence, if it is.
template <class P>
std::optional<logical_time> scheduled_time(basic_hlo_live_range<P> const& lr, std::string_view name) {
    for (std::size_t t = 0; t < lr.instruction_sequence.size(); ++t) {
        if (std::string_view(lr.instruction_sequence[t]) == name) return static_cast<logical_time>(t);
    }
    return std::nullopt;
}

/// Whether values `a` and `b` (indices into ba.values) may share bytes, and why.
template <class P>
std::optional<sharing_reason> legal_sharing(basic_buffer_assignment<P> const& ba, std::size_t a, std::size_t b) {
    auto const* first = &ba.values[a];
    auto const* second = &ba.values[b];
    if (!first->live_range || !second->live_range || !ba.live_range) return std::nullopt;
    if (first->allocation != second->allocation || first->offset != second->offset || first->size != second->size) {
        return std::nullopt;
    }
    // Order so that `first` ends where `second` starts.
    if (first->live_range->end != second->live_range->start) std::swap(first, second);
    live_interval const r1 = *first->live_range, r2 = *second->live_range;
    if (r1.end != r2.start) return std::nullopt;
    logical_time const t = r1.end;
    std::string_view const at = ba.live_range->instruction_at(t);
    if (at.empty()) return std::nullopt;
    if (at != std::string_view(second->name)) {
        // A parameter starts at the start of its computation (rule 3), before it is listed;
        // what hands storage over to it then is loop or branch state.
        if (!is_parameter_opcode(second->instruction_opcode) || !(first->is_phi || second->is_phi)) {
            return std::nullopt;
        }
        auto const listed = scheduled_time(*ba.live_range, std::string_view(second->name));
        if (!listed || *listed < t) return std::nullopt;
        return sharing_reason::phi;
    }
    if (std::string_view(first->name) == std::string_view(second->name)) return sharing_reason::same_instruction;
    if (first->is_phi || second->is_phi) return sharing_reason::phi;
    if (second->output_to_operand_aliasing.empty() && is_custom_call_opcode(second->instruction_opcode)) {
        auto const operand = gpu_backend_hint(std::string_view(second->instruction_text), second->index);
        if (!operand) return std::nullopt;
        for (auto const& use : first->uses) {
            if (std::string_view(use.instruction) == at && use.operand_number == *operand) return sharing_reason::in_place;
        }
        return std::nullopt;
    }
    if (!second->output_to_operand_aliasing.empty()) {
        for (auto const& alias : second->output_to_operand_aliasing) {
            if (alias.output_index != second->index) continue;
            for (auto const& use : first->uses) {
                if (std::string_view(use.instruction) == at && use.operand_number == alias.operand_number &&
                    use.operand_index == alias.operand_index) {
                    return sharing_reason::in_place;
                }
            }
        }
        return std::nullopt;
    }
    if (!updates_in_place(std::string_view(second->instruction_opcode), std::string_view(second->fusion_kind))) {
        return std::nullopt;
    }
    for (auto const& use : first->uses) {
        if (std::string_view(use.instruction) == at) return sharing_reason::in_place;
    }
    return std::nullopt;
}

/// How many pairs of values share bytes legally, by reason, in the whole dump.
struct sharing_summary {
    std::size_t in_place = 0;
    std::size_t phi = 0;
    std::size_t same_instruction = 0;
    std::size_t total() const noexcept { return in_place + phi + same_instruction; }
};

/// Calls `visit(i, j)` (indices into ba.values) for every two of `values` (an allocation's) whose
/// live ranges meet. Values without a live range are left out.
template <class P, class Values, class Visit>
void for_each_pair_live_together(basic_buffer_assignment<P> const& ba, Values const& values, Visit visit) {
    auto const counts = [&](std::size_t vi) { return ba.values[vi].live_range.has_value(); };
    // Most allocations of a large dump hold one or two values: no sweep (and no memory) for them.
    std::size_t pair[2] = {npos, npos}, n = 0;
    for (std::size_t vi : values) {
        if (!counts(vi)) continue;
        if (n < 2) pair[n] = vi;
        if (++n > 2) break;
    }
    if (n < 2) return;
    if (n == 2) {
        for_each_overlapping_pair(
            2, [&](std::size_t k) { return *ba.values[pair[k]].live_range; },
            [&](std::size_t x, std::size_t y) { visit(pair[x], pair[y]); });
        return;
    }
    std::vector<std::size_t> ranged;
    for (std::size_t vi : values) {
        if (counts(vi)) ranged.push_back(vi);
    }
    for_each_overlapping_pair(
        ranged.size(), [&](std::size_t k) { return *ba.values[ranged[k]].live_range; },
        [&](std::size_t x, std::size_t y) { visit(ranged[x], ranged[y]); });
}

/// Calls visit(i, j) for the pairs of `values` (indices into ba.values, of one allocation) that
/// are live together *and* occupy the same slice (offset and size): the only pairs legal_sharing
/// can accept. Grouping by slice first avoids visiting every pair live together, which in a
/// temp allocation of thousands of values reusing the same bytes over time is most of them.
template <class P, class Values, class Visit>
void for_each_same_slice_pair_live_together(basic_buffer_assignment<P> const& ba, Values const& values, Visit visit) {
    if (std::size(values) < 2) return;
    // Each value's slice read once into a list sorted by it (stably: equal slices keep the order
    // of `values`), not read again from the value records, far apart, at every comparison.
    struct keyed {
        std::int64_t offset, size;
        std::size_t value;
    };
    std::vector<keyed> slices;
    slices.reserve(std::size(values));
    for (std::size_t vi : values) slices.push_back({ba.values[vi].offset, ba.values[vi].size, vi});
    std::stable_sort(slices.begin(), slices.end(), [](keyed const& x, keyed const& y) {
        return x.offset != y.offset ? x.offset < y.offset : x.size < y.size;
    });
    std::vector<std::size_t> sorted(slices.size());
    for (std::size_t k = 0; k < slices.size(); ++k) sorted[k] = slices[k].value;
    struct run {
        std::size_t const* first;
        std::size_t const* last;
        std::size_t const* begin() const { return first; }
        std::size_t const* end() const { return last; }
        std::size_t size() const { return static_cast<std::size_t>(last - first); }
    };
    for (std::size_t k = 0; k < sorted.size();) {
        std::size_t e = k + 1;
        while (e < sorted.size() && slices[e].offset == slices[k].offset && slices[e].size == slices[k].size) ++e;
        if (e - k > 1) for_each_pair_live_together(ba, run{sorted.data() + k, sorted.data() + e}, visit);
        k = e;
    }
}

template <class P>
sharing_summary summarize_sharing(basic_buffer_assignment<P> const& ba) {
    sharing_summary out;
    for (auto const& a : ba.allocations) {
        for_each_same_slice_pair_live_together(ba, a.values, [&](std::size_t i, std::size_t j) {
            switch (legal_sharing(ba, i, j).value_or(static_cast<sharing_reason>(255))) {
                case sharing_reason::in_place: ++out.in_place; break;
                case sharing_reason::phi: ++out.phi; break;
                case sharing_reason::same_instruction: ++out.same_instruction; break;
                default: break;
            }
        });
    }
    return out;
}

// check_soundness reports diagnostics (core/diagnostic.hpp), all errors, of kind overlap,
// overrun, undersized, color_mismatch, memory_space_mismatch and unknown_live_range: `first` is
// the value (the BufferLiveRange line's index for unknown_live_range), `second` the other value
// of an overlap, `allocation` the allocation's index, `line` where the dump says it.

struct soundness_options {
    /// The size function for the undersized check; by default the dump's own (size_function_of).
    std::optional<size_function_kind> size_function;
};

namespace detail {

/// Asks the processor to fetch what `p` points to ahead of its use: a hint, nothing where the
/// compiler has no such builtin.
inline void prefetch(void const* p) noexcept {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

template <class P>
std::string describe_value(basic_buffer_assignment<P> const& ba, std::size_t i) {
    auto const& v = ba.values[i];
    std::string s = "value " + std::to_string(v.id) + " " + v.display_name();
    if (v.live_range) s += " (live " + std::to_string(v.live_range->start) + "-" + std::to_string(v.live_range->end);
    else s += " (no live range";
    s += ", bytes [" + std::to_string(v.offset) + ", " + std::to_string(v.offset + v.size) + "))";
    return s;
}

}  // namespace detail

/// Checks a buffer assignment; empty when sound. Overlaps are found per allocation by an endpoint
/// sweep over live ranges (O(n log n + E) for E pairs live at the same time), never by testing all
/// pairs.
template <class P>
std::vector<diagnostic> check_soundness(basic_buffer_assignment<P> const& ba, soundness_options const& options = {}) {
    std::vector<diagnostic> out;
    auto fail = [&](diagnostic_kind kind, std::size_t first, std::size_t second, std::size_t allocation,
                    std::size_t line, std::string message) {
        out.push_back(make_diagnostic(kind, severity::error, std::move(message)).about(first, second, allocation).at(line));
    };
    size_function_kind const sizing = options.size_function.value_or(size_function_of(ba));
    std::int64_t constexpr unknown = -2, unsized = -1;
    std::vector<std::int64_t> needed_of_shape(ba.shapes.size(), unknown);
    std::vector<std::int64_t> space_of_shape(ba.shapes.size(), 0);
    std::vector<char> space_known(ba.shapes.size(), 0);
    // An allocation's values lie anywhere among the dump's (they are in id order): a dump of 10^6
    // values spends most of the check waiting for them, one cache miss after another, unless the
    // values of the allocations a few ahead are fetched while this one is checked.
    constexpr std::size_t ahead = 8;
    // The values of the allocation at hand that can share bytes (a live range, some bytes), as the
    // overlap sweep reads them: read from the value once, while it is checked, and then compared
    // here, instead of looked up again in ba.values (records of hundreds of bytes, anywhere in
    // memory) for every pair live together. One buffer for every allocation.
    struct ranged_value {
        live_interval range;
        std::int64_t offset, end;
        std::size_t value;
    };
    std::vector<ranged_value> ranged;
    for (std::size_t ai = 0; ai < ba.allocations.size(); ++ai) {
        auto const& a = ba.allocations[ai];
        if (ai + ahead < ba.allocations.size()) {
            // What the check reads of a value lies in its record's first 64 bytes (from the live
            // range to the color): one or two cache lines.
            for (std::size_t vi : ba.allocations[ai + ahead].values) {
                auto const& v = ba.values[vi];
                detail::prefetch(&v.live_range);
                detail::prefetch(reinterpret_cast<char const*>(&v.color + 1) - 1);
            }
        }
        ranged.clear();
        for (std::size_t vi : a.values) {
            auto const& v = ba.values[vi];
            if (v.live_range && v.size > 0) ranged.push_back({*v.live_range, v.offset, v.offset + v.size, vi});
            if (v.offset < 0 || v.size < 0 || v.offset + v.size > a.size) {
                fail(diagnostic_kind::overrun, vi, npos, ai, v.line,
                     "allocation " + std::to_string(a.index) + " (size " + std::to_string(a.size) + "): " +
                         detail::describe_value(ba, vi) + " reaches " +
                         std::to_string(v.offset + v.size - a.size) + " bytes past its end");
            }
            // A value of another color may use a temp allocation, as the dump states under
            // ` reused by buffers of a different color:`; an input or output allocation keeps its
            // color (BufferAssigner::MaybeAssignBuffer: IsInputOrOutput and the colors differ).
            if (v.color && *v.color != a.color &&
                (!v.cross_color || a.parameter_number || a.maybe_live_out)) {
                fail(diagnostic_kind::color_mismatch, vi, npos, ai, v.line,
                     detail::describe_value(ba, vi) + " has color " + std::to_string(*v.color) +
                         " but allocation " + std::to_string(a.index) + " has color " + std::to_string(a.color) +
                         (v.cross_color ? "; XLA lets a value of another color use a temp allocation only, never a "
                                          "parameter or output"
                                        : ""));
            }
            if (auto const* shape = ba.shape_of(v)) {
                if (v.color && shape->is_array()) {
                    // Each shape's memory space read once (a shape without a layout makes its default).
                    auto const s = static_cast<std::size_t>(v.shape);
                    if (!space_known[s]) {
                        space_known[s] = 1;
                        space_of_shape[s] = shape->layout_or_default().memory_space;
                    }
                    if (space_of_shape[s] != *v.color) {
                        fail(diagnostic_kind::memory_space_mismatch, vi, npos, ai, v.line,
                             detail::describe_value(ba, vi) + " has color " + std::to_string(*v.color) +
                                 " but its shape " + to_string(*shape) + " is in memory space " +
                                 std::to_string(space_of_shape[s]));
                    }
                }
                // The size each shape needs, computed once per shape of the table: a large dump
                // names a few hundred shapes for a hundred thousand values. -1: not sized.
                std::int64_t& needed = needed_of_shape[v.shape];
                if (needed == unknown) {
                    bool const sized = std::none_of(shape->dimensions().begin(), shape->dimensions().end(),
                                                    [](auto d) { return detail::is_unbounded_extent(d); });
                    needed = sized ? bytes_under(*shape, sizing) : unsized;
                }
                if (needed != unsized) {
                    if (v.size < needed) {
                        fail(diagnostic_kind::undersized, vi, npos, ai, v.line,
                             detail::describe_value(ba, vi) + " has " + std::to_string(v.size) +
                                 " bytes but its shape " + to_string(*shape) + " needs " + std::to_string(needed) +
                                 " (" + std::string(to_string(sizing)) + " size function)");
                    }
                }
            }
        }
        // Overlaps: pairs live at the same time (for_each_pair_live_together's pairs, in its order),
        // then those that share bytes, then the legal ones.
        auto overlap = [&](ranged_value const& x, ranged_value const& y) {
            std::int64_t const lo = std::max(x.offset, y.offset);
            std::int64_t const hi = std::min(x.end, y.end);
            if (lo >= hi || legal_sharing(ba, x.value, y.value)) return;
            auto const& vi = ba.values[x.value];
            auto const& vj = ba.values[y.value];
            logical_time const from = std::max(x.range.start, y.range.start);
            logical_time const to = std::min(x.range.end, y.range.end);
            std::size_t const first = vi.id < vj.id ? x.value : y.value, second = vi.id < vj.id ? y.value : x.value;
            fail(diagnostic_kind::overlap, first, second, ai, std::max(vi.line, vj.line),
                 "allocation " + std::to_string(a.index) + ": " + detail::describe_value(ba, first) + " and " +
                     detail::describe_value(ba, second) + " share bytes [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + ") while both are live at " + std::to_string(from) +
                     (to > from ? "-" + std::to_string(to) : std::string()));
        };
        for_each_overlapping_pair(
            ranged.size(), [&](std::size_t k) { return ranged[k].range; },
            [&](std::size_t x, std::size_t y) { overlap(ranged[x], ranged[y]); });
    }
    if (ba.live_range) {
        auto const& ranges = ba.live_range->buffer_live_ranges;
        for (std::size_t r = 0; r < ranges.size(); ++r) {
            if (ranges[r].value != npos) continue;
            fail(diagnostic_kind::unknown_live_range, r, npos, npos, ranges[r].line,
                 "BufferLiveRange names " + std::string(std::string_view(ranges[r].name)) +
                     to_string(ranges[r].index) + ", which is not a value of this dump");
        }
    }
    std::stable_sort(out.begin(), out.end(), [](auto const& x, auto const& y) { return x.line < y.line; });
    return out;
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_SOUNDNESS_INSTANTIATIONS(EXTERN, P) \
    EXTERN template std::vector<diagnostic> check_soundness<P>(basic_buffer_assignment<P> const&, soundness_options const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_SOUNDNESS_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_MEMORY_SOUNDNESS_HPP
