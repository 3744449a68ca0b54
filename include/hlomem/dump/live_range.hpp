// hlomem/dump/live_range.hpp: XLA's HloLiveRange text — the flattened instruction sequence, each
// logical value's live range, and the peak moment XLA states — as a model.
//
//   HloLiveRange (max 80):
//     InstructionSequence:
//       0:param.2
//     BufferLiveRange:
//       param.2{}:0-80
//     Live ranges at 78 (peak):
//       param.2: 58720256 bytes
//
// Logical time is a position in the flattened sequence; `max` is one past the last position.
// Live ranges are *inclusive* at both ends, as XLA prints them: `param.2{}:0-80` is live at
// every time from 0 to 80. (hlomem's own half-open intervals are always named so.)
#ifndef HLOMEM_DUMP_LIVE_RANGE_HPP
#define HLOMEM_DUMP_LIVE_RANGE_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <hlomem/core/policy.hpp>
#include <hlomem/core/shape.hpp>

namespace hlomem {

/// A position in the flattened instruction sequence.
using logical_time = std::int64_t;

/// XLA's TimeBound: live from `start` to `end`, both included.
struct live_interval {
    logical_time start = 0;
    logical_time end = 0;

    /// True when the two ranges share a time (inclusive ends, as XLA's interference).
    constexpr bool overlaps(live_interval const& o) const noexcept { return start <= o.end && o.start <= end; }
    constexpr bool contains(logical_time t) const noexcept { return start <= t && t <= end; }
    friend constexpr bool operator==(live_interval const& a, live_interval const& b) noexcept {
        return a.start == b.start && a.end == b.end;
    }
    friend constexpr bool operator!=(live_interval const& a, live_interval const& b) noexcept { return !(a == b); }
};

/// Index "not found / none" used by the models' index fields.
inline constexpr std::size_t npos = static_cast<std::size_t>(-1);

/// One `name{index}:start-end` line of the BufferLiveRange section.
template <class P = default_policy>
struct basic_buffer_live_range {
    typename P::string_type name;
    basic_shape_index<P> index;
    live_interval range;
    std::size_t value = npos;  ///< the logical value it names, once resolved against a dump
    std::size_t line = 0;      ///< 1-based source line
};

/// One entry of the peak list. Older XLA prints `name: N bytes` (no index; the value sized by its
/// whole defining instruction's shape); newer XLA prints `name{index}: N bytes (cumulative: M
/// bytes)`, sorted by size, each value sized by its own sub-shape.
template <class P = default_policy>
struct basic_peak_entry {
    typename P::string_type name;
    std::optional<basic_shape_index<P>> index;
    std::int64_t bytes = 0;
    std::optional<std::int64_t> cumulative_bytes;
    std::size_t line = 0;
};

/// One line of the newest `Stack trace breakdown for peak usage` tree:
/// `├── multiply (33.3%, total: 16 bytes, current: 16 bytes, remaining: 32 bytes)`. The name is
/// owned under every policy: the breakdown hlomem derives from a module makes names its text does
/// not hold (`dot_general{1}`, hlo/stack_trace_breakdown.hpp).
template <class P = default_policy>
struct basic_stack_trace_node {
    std::string name;
    int depth = 0;            ///< 0 for the top-level nodes
    double percent = 0;       ///< of the breakdown's total, as printed (one decimal)
    std::int64_t total_bytes = 0;
    std::int64_t current_bytes = 0;
    std::int64_t remaining_bytes = 0;
    std::size_t line = 0;
};

/// `Live ranges at N (peak):` and what follows it.
template <class P = default_policy>
struct basic_stated_peak {
    logical_time time = 0;
    typename P::template vector_type<basic_peak_entry<P>> entries;
    std::optional<std::int64_t> stack_trace_total_bytes;
    /// The newest XLA groups the digits of the breakdown's byte counts with spaces (`1 234 567
    /// bytes`, FormatBytesWithSpaces); the entries above it are plain (`%lld`).
    bool spaced_numbers = false;
    typename P::template vector_type<basic_stack_trace_node<P>> stack_trace;
    std::size_t line = 0;

    /// The newest format: entries carry indices and cumulative sums.
    bool sized_by_subshape() const {
        return !entries.empty() && entries.front().cumulative_bytes.has_value();
    }
};

/// The line that stands for the peak when it cannot be computed (basic_hlo_live_range::peak_undetermined).
inline constexpr char const* peak_undetermined_text = "Peak memory could not be determined due to unbounded dynamic shape.";

/// The whole HloLiveRange text.
template <class P = default_policy>
struct basic_hlo_live_range {
    /// schedule_end_time: the number of flattened instructions.
    logical_time max = 0;
    /// The instruction at each logical time, as `InstructionSequence` lists it.
    typename P::template vector_type<typename P::string_type> instruction_sequence;
    typename P::template vector_type<basic_buffer_live_range<P>> buffer_live_ranges;
    std::optional<basic_stated_peak<P>> stated_peak;
    /// `HloLiveRange not available (finalized or constructed from proto)`: newer XLA writes this
    /// line alone when it has no live ranges to print.
    bool not_available = false;
    /// The newest XLA ends the text with peak_undetermined_text instead of `Live ranges at N
    /// (peak):` when a value's shape has an unbounded dynamic dimension (`f32[?]`): its size, and
    /// so the peak, is not known at compile time.
    bool peak_undetermined = false;
    std::size_t peak_undetermined_line = 0;
    std::size_t line = 0;

    /// The instruction at `t`, or an empty view when `t` is outside the sequence.
    std::string_view instruction_at(logical_time t) const {
        if (t < 0 || static_cast<std::size_t>(t) >= instruction_sequence.size()) return {};
        return std::string_view(instruction_sequence[static_cast<std::size_t>(t)]);
    }
};

using live_range_text = basic_hlo_live_range<>;
using buffer_live_range = basic_buffer_live_range<>;
using peak_entry = basic_peak_entry<>;
using stack_trace_node = basic_stack_trace_node<>;

}  // namespace hlomem

#endif  // HLOMEM_DUMP_LIVE_RANGE_HPP
