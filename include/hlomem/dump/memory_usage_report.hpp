// hlomem/dump/memory_usage_report.hpp: the text `*-memory-usage-report.txt` as a model (the older
// layout below; the newer one at basic_memory_usage_report).
//
//   Total bytes used: 4170409 (3.98MiB)
//
//   Allocations sorted by size:
//
//   cumulative_size; total_size - cumulative_size; allocation
//   ------------------------------------------------------------------------------
//      1.33MiB( 33%);    2.65MiB; allocation 0: size 1.33MiB, maybe-live-out:
//   ...
//   Allocations sorted by size with their values:
//   allocation 7: size 129B, preallocated-temp:
//
//   	cumulative_size;       size;       offset; used_by_n_values; shapes_list
//   	------------------------------------------------------------
//   	      24B( 96%);        24B;            0;                5; 5×(s64[], f64[181,960], f64[181,960])
//
// Sizes are printed in XLA's human form (`1.33MiB`), so they are kept as text next to their
// approximate byte value; exact figures come from the buffer-assignment dump of the same module,
// which `check_against` compares with the report.
#ifndef HLOMEM_DUMP_MEMORY_USAGE_REPORT_HPP
#define HLOMEM_DUMP_MEMORY_USAGE_REPORT_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/core/memory_space.hpp>
#include <hlomem/core/policy.hpp>
#include <hlomem/core/shape_table.hpp>
#include <hlomem/dump/buffer_assignment.hpp>

namespace hlomem {

/// A size as the report prints it: `1.33MiB` (text) and its approximate value in bytes.
template <class P = default_policy>
struct basic_human_size {
    typename P::string_type text;
    double approx_bytes = 0;
};

/// The short allocation header of the report: `allocation 6: size 512.0KiB, preallocated-temp:`.
template <class P = default_policy>
struct basic_report_allocation {
    std::int64_t index = 0;
    basic_human_size<P> size;
    std::int64_t color = 0;
    std::optional<std::int64_t> page;  ///< `page N`, as basic_allocation::page
    std::optional<std::int64_t> parameter_number;
    basic_shape_index<P> parameter_shape_index;
    shape_id parameter_shape = no_shape;
    std::optional<shape_id> output_shape;
    bool shapes_in_bars = true;
    bool is_constant = false;
    bool is_thread_local = false;
    bool maybe_live_out = false;
    bool is_preallocated_temp = false;
    std::size_t line = 0;
};

/// A row of `Allocations sorted by size`.
template <class P = default_policy>
struct basic_report_allocation_row {
    basic_human_size<P> cumulative;
    int percent = 0;  ///< of the total, rounded
    basic_human_size<P> remaining;
    basic_report_allocation<P> allocation;
};

/// `N×shape` in a shapes_list.
struct report_shape_count {
    std::int64_t count = 1;
    shape_id shape = no_shape;
};

/// A row of an allocation's value table: one slice and the values that use it.
template <class P = default_policy>
struct basic_report_slice {
    basic_human_size<P> cumulative;
    int percent = 0;
    basic_human_size<P> size;
    std::int64_t offset = 0;
    std::int64_t used_by_n_values = 0;
    typename P::template vector_type<report_shape_count> shapes;
    std::size_t line = 0;
};

/// `allocation N: ...` of `Allocations sorted by size with their values`, with its table.
template <class P = default_policy>
struct basic_report_allocation_values {
    basic_report_allocation<P> allocation;
    typename P::template vector_type<basic_report_slice<P>> slices;
    std::optional<std::int64_t> values_not_shown;  ///< `The rest K values are less than P% ...`
    std::optional<int> values_not_shown_percent;
};

/// `Memory Space: default (color=0)` and its `Total bytes: N (...)` in the newer layout.
template <class P = default_policy>
struct basic_report_memory_space {
    typename P::string_type name;
    std::int64_t color = 0;
    std::int64_t total_bytes = 0;
    typename P::string_type total_human;
    std::size_t line = 0;
};

/// Both layouts XLA writes. The older one: `Total bytes used`, `Allocations sorted by size` and the
/// value tables under their allocation headers. The newer one (JAX 0.11's XLA), per memory space:
///
///   Memory Space: default (color=0)
///   Total bytes: 16814092 (16.04MiB)
///     cumulative_size;       size;       offset; used_by_n_values; shapes_list
///     ------------------------------------------------------------
///      16.00MiB(100%);   16.00MiB;            0;                1; f32[4096,1024]
///
/// then one value table per allocation, without its header: such tables are allocation_values
/// whose allocation.index is -1 and whose allocation.color is the space's. total_bytes is the sum
/// of the spaces' totals.
template <class P = default_policy>
struct basic_memory_usage_report {
    std::int64_t total_bytes = 0;
    typename P::string_type total_human;
    typename P::template vector_type<basic_report_allocation_row<P>> allocations;
    std::optional<std::int64_t> allocations_not_shown;  ///< `The rest K allocations are less than P% ...`
    std::optional<int> allocations_not_shown_percent;
    typename P::template vector_type<basic_report_allocation_values<P>> allocation_values;
    typename P::template vector_type<basic_report_memory_space<P>> memory_spaces;  ///< the newer layout only
    basic_shape_table<P> shapes;
    std::string file;
};

using memory_usage_report = basic_memory_usage_report<>;

/// The allocations of color `color` that XLA's newer memory-usage report lists, in its order
/// (BufferAssignment::GetMemoryUsageReportProto, xla/service/buffer_assignment.cc): by size,
/// larger first, then by index; after each, the list stops once more than `more_than_k` are listed
/// and the rest hold less than `percentile` of the color's bytes (the float product XLA computes).
/// The defaults are MemoryUsageReport's, which the dump is written with. Indices into ba.allocations.
template <class Q>
std::vector<std::size_t> usage_report_allocations(basic_buffer_assignment<Q> const& ba, std::int64_t color,
                                                  float percentile = 0.05f, std::int64_t more_than_k = 50) {
    std::vector<std::size_t> of_color;
    std::int64_t total = 0;
    for (std::size_t i = 0; i < ba.allocations.size(); ++i) {
        if (ba.allocations[i].color != color) continue;
        of_color.push_back(i);
        total += ba.allocations[i].size;
    }
    std::stable_sort(of_color.begin(), of_color.end(), [&](std::size_t x, std::size_t y) {
        auto const& a = ba.allocations[x];
        auto const& b = ba.allocations[y];
        return a.size != b.size ? a.size > b.size : a.index < b.index;
    });
    std::vector<std::size_t> listed;
    std::int64_t cumulative = 0;
    for (std::size_t i : of_color) {
        cumulative += ba.allocations[i].size;
        listed.push_back(i);
        if (static_cast<std::int64_t>(listed.size()) > more_than_k &&
            static_cast<float>(total - cumulative) < static_cast<float>(total) * percentile) {
            break;
        }
    }
    return listed;
}

/// Checks a memory-usage report against the buffer-assignment dump of the same module:
/// the totals are equal, every listed allocation exists with the same human size and flags,
/// and every slice row's offset and value count match the values the dump assigns there. In the
/// newer layout, whose tables name no allocation, each space must name its color as XLA does
/// (memory_space_name; another name is a note) and hold the tables of usage_report_allocations, in
/// that order; the allocations that rule leaves out are a note (severity note), not a difference.
template <class P, class Q>
std::vector<diagnostic> check_against(basic_memory_usage_report<P> const& report,
                                           basic_buffer_assignment<Q> const& ba) {
    std::vector<diagnostic> out;
    if (report.total_bytes != ba.total_bytes()) {
        out.push_back(dump_inconsistency(1, "the report's total " + std::to_string(report.total_bytes) + " differs from the dump's " +
                              std::to_string(ba.total_bytes())));
    }
    auto check_header = [&](basic_report_allocation<P> const& h) -> basic_allocation<Q> const* {
        if (h.index < 0 || static_cast<std::size_t>(h.index) >= ba.allocations.size()) {
            out.push_back(dump_inconsistency(h.line, "the report lists allocation " + std::to_string(h.index) + ", which the dump does not have"));
            return nullptr;
        }
        auto const& a = ba.allocations[static_cast<std::size_t>(h.index)];
        std::string const human = human_bytes(a.size);
        if (std::string_view(h.size.text) != human) {
            out.push_back(dump_inconsistency(h.line, "allocation " + std::to_string(h.index) + " has size " + std::to_string(a.size) +
                                       " (" + human + ") in the dump but " + std::string(std::string_view(h.size.text)) +
                                       " in the report"));
        }
        if (h.color != a.color || h.parameter_number != a.parameter_number || h.is_constant != a.is_constant ||
            h.is_thread_local != a.is_thread_local || h.maybe_live_out != a.maybe_live_out ||
            h.is_preallocated_temp != a.is_preallocated_temp) {
            out.push_back(dump_inconsistency(h.line, "allocation " + std::to_string(h.index) + " has other flags in the dump"));
        }
        return &a;
    };
    auto check_slices = [&](auto const& av, basic_allocation<Q> const& a) {
        for (auto const& slice : av.slices) {
            std::int64_t n = 0;
            for (std::size_t vi : a.values) {
                if (ba.values[vi].offset == slice.offset) ++n;
            }
            if (n != slice.used_by_n_values) {
                out.push_back(dump_inconsistency(slice.line, "allocation " + std::to_string(a.index) + " has " + std::to_string(n) +
                                                                 " values at offset " + std::to_string(slice.offset) +
                                                                 " in the dump; the report says " +
                                                                 std::to_string(slice.used_by_n_values)));
            }
        }
    };
    for (auto const& space : report.memory_spaces) {
        // A name is a label of the number: another one (an XLA that renamed its spaces) is said,
        // and changes nothing that is checked.
        std::string const xla_name = memory_space_name(space.color);
        if (std::string_view(space.name) != xla_name) {
            out.push_back(make_diagnostic(diagnostic_kind::partial_read, severity::note,
                                          "the report names color " + std::to_string(space.color) + " '" +
                                              std::string(std::string_view(space.name)) + "'; XLA's GetMemorySpaceName names it '" +
                                              xla_name + "'")
                              .at(space.line));
        }
        std::vector<std::size_t> const expected = usage_report_allocations(ba, space.color);
        std::vector<basic_report_allocation_values<P> const*> tables;
        for (auto const& av : report.allocation_values) {
            if (av.allocation.index < 0 && av.allocation.color == space.color) tables.push_back(&av);
        }
        std::size_t of_color = 0;
        std::int64_t bytes = 0;
        for (auto const& a : ba.allocations) {
            if (a.color != space.color) continue;
            ++of_color;
            bytes += a.size;
        }
        if (tables.size() != expected.size()) {
            out.push_back(dump_inconsistency(space.line, "memory space " + std::to_string(space.color) + " has " +
                                                             std::to_string(tables.size()) + " allocation tables; XLA lists " +
                                                             std::to_string(expected.size()) + " of its " +
                                                             std::to_string(of_color) + " allocations"));
        } else {
            for (std::size_t k = 0; k < tables.size(); ++k) check_slices(*tables[k], ba.allocations[expected[k]]);
            if (expected.size() < of_color) {
                out.push_back(make_diagnostic(diagnostic_kind::partial_read, severity::note,
                                              "memory space " + std::to_string(space.color) + " lists " +
                                                  std::to_string(expected.size()) + " of its " + std::to_string(of_color) +
                                                  " allocations: XLA stops after 50 once the rest hold under 5% of the "
                                                  "space (GetMemoryUsageReportProto), so the " +
                                                  std::to_string(of_color - expected.size()) +
                                                  " smallest are in the dump only")
                                  .at(space.line));
            }
        }
        if (bytes != space.total_bytes) {
            out.push_back(dump_inconsistency(space.line, "memory space " + std::string(std::string_view(space.name)) + " (color " +
                                                             std::to_string(space.color) + ") totals " + std::to_string(space.total_bytes) +
                                                             " bytes in the report but " + std::to_string(bytes) + " in the dump"));
        }
    }
    for (auto const& row : report.allocations) check_header(row.allocation);
    for (auto const& av : report.allocation_values) {
        if (av.allocation.index < 0) continue;  // a table of the newer layout names no allocation
        if (auto const* a = check_header(av.allocation)) check_slices(av, *a);
    }
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_DUMP_MEMORY_USAGE_REPORT_HPP
