// hlomem/diff/diff_model.hpp: the figures a diff of two compilations holds (diff/assignment_diff.hpp
// computes them, diff/snapshot_diff.hpp from snapshots): A's and B's of each measure, per color
// the peak, its moment and its values, the peak by source line, the changed values, the verdict
// and the knobs (diff/knob_verdict.hpp).
#ifndef HLOMEM_DIFF_DIFF_MODEL_HPP
#define HLOMEM_DIFF_DIFF_MODEL_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/diff/knob_verdict.hpp>
#include <hlomem/diff/match.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/hlo/donation.hpp>
#include <hlomem/memory/memory_analysis.hpp>
#include <hlomem/memory/peak_holdings.hpp>

namespace hlomem {

/// A figure of A and of B.
struct byte_pair {
    std::int64_t a = 0;
    std::int64_t b = 0;
    std::int64_t delta() const noexcept { return b - a; }
};

/// Bytes allocated to one kind of allocation.
struct kind_bytes {
    allocation_kind kind = allocation_kind::other;
    byte_pair bytes;
};

/// Bytes live at each side's peak that come from one source line.
struct source_line_bytes {
    /// The file's paths, unescaped (c_unescape): A's (B's when only B has the file) and B's
    /// (empty when only A has it); empty for values without a source (`known` false).
    std::string source_file, source_file_b;
    /// How the file is shown: the tail of its two paths when they differ (two checkouts, two
    /// machines), else its path (below a stripped root when one was: strip_source_roots).
    std::string relative_file;
    std::int64_t source_line = 0;
    /// Argument N of the function the bytes are traced to (hlo/origin.hpp), its label in
    /// relative_file; -1 for a source line.
    std::int64_t argument = -1;
    bool known = false;
    byte_pair bytes;
    std::vector<std::size_t> values_a;  ///< A's values of the line live at A's peak
    std::vector<std::size_t> values_b;
};

/// One side's peak in one color.
struct side_peak {
    bool measured = false;  ///< false without live ranges or without the color
    logical_time time = 0;
    std::string instruction;  ///< the instruction at `time`
    std::vector<std::size_t> live;  ///< values live there, largest first
    std::vector<value_holding> holdings;  ///< the bytes of the peak each live value holds, by value index
};

/// XLA's own peak of one side (memory/peak.hpp compute_xla_peak: HloLiveRange's unpadded
/// estimate over all colors), next to the one the dump states.
struct side_xla_peak {
    bool measured = false;  ///< false without live ranges
    logical_time time = 0;
    std::int64_t bytes = 0;  ///< Σ of the sizes XLA lists at its peak
    std::optional<logical_time> stated_time;  ///< `Live ranges at N (peak):`, when the dump states it
};

struct color_diff {
    std::int64_t color = 0;
    byte_pair allocated_bytes;
    std::vector<kind_bytes> allocated_by_kind;  ///< kinds present on either side, in allocation_kind order
    byte_pair peak_live_bytes;
    side_peak peak_a, peak_b;
    std::vector<source_line_bytes> peak_by_source;  ///< largest |delta| first
    byte_pair padded_bytes, unpadded_bytes;          ///< padding_by_color on each side
    byte_pair temp_allocated_bytes, temp_lower_bound_bytes;

    /// Fragmentation of the temp arena: what XLA allocated above the lower bound.
    byte_pair temp_above_bound() const noexcept {
        return {temp_allocated_bytes.a - temp_lower_bound_bytes.a, temp_allocated_bytes.b - temp_lower_bound_bytes.b};
    }
};

/// A matched pair whose size, shape or live range differ.
struct value_change {
    value_pair pair;
    bool size_changed = false;
    bool shape_changed = false;
    bool live_range_changed = false;
    byte_pair size;
};

struct diff_options {
    /// How many values each of the largest new, removed, grown and shrunk lists hold.
    std::size_t top = 10;
    /// Each side's donations (analyze_donations with the module it was assigned from), for the
    /// knobs; null: read from the dump alone, which does not say which donors went unused.
    donation_analysis const* donations_a = nullptr;
    donation_analysis const* donations_b = nullptr;
};

struct assignment_diff {
    byte_pair total_bytes;  ///< Σ allocation sizes
    side_xla_peak xla_peak_a, xla_peak_b;
    /// What compiled.memory_analysis() would report for each side (memory/memory_analysis.hpp);
    /// nullopt for a snapshot written before it was kept.
    std::optional<memory_analysis> memory_a, memory_b;
    std::vector<color_diff> colors;  ///< by color number, every color of either side
    value_matching matching;
    std::vector<value_change> changes;  ///< by A's value index
    std::vector<std::size_t> largest_new;      ///< B's values only in B, largest first
    std::vector<std::size_t> largest_removed;  ///< A's values only in A, largest first
    std::vector<std::size_t> largest_grown;    ///< indices into changes, most grown first
    std::vector<std::size_t> largest_shrunk;   ///< indices into changes, most shrunk first
    std::vector<std::string> verdict;          ///< the one or two lines that explain most of the change
    std::vector<knob_verdict> knobs;           ///< diff/knobs.hpp: the settings the changes look like, largest move at the peak first

    bool identical() const noexcept {
        return total_bytes.delta() == 0 && changes.empty() && matching.only_in_a.empty() && matching.only_in_b.empty() &&
               std::all_of(colors.begin(), colors.end(), [](color_diff const& c) { return c.peak_live_bytes.delta() == 0; });
    }
};

/// `+1.50GiB`, `-512B`, `0B`: a byte delta as XLA prints sizes, with its sign.
inline std::string signed_human_bytes(std::int64_t delta) {
    if (delta == 0) return "0B";
    std::uint64_t const magnitude = delta < 0 ? 0 - static_cast<std::uint64_t>(delta) : static_cast<std::uint64_t>(delta);
    return (delta < 0 ? "-" : "+") + human_bytes(static_cast<std::int64_t>(std::min<std::uint64_t>(magnitude, static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))));
}

/// `+12.34%` of `base`; empty when base is 0.
inline std::string signed_percent(std::int64_t delta, std::int64_t base) {
    if (base == 0) return std::string();
    char buf[48];
    std::snprintf(buf, sizeof buf, "%+.2f%%", 100.0 * static_cast<double>(delta) / static_cast<double>(base));
    return buf;
}

}  // namespace hlomem

#endif  // HLOMEM_DIFF_DIFF_MODEL_HPP
