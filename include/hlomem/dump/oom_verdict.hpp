// hlomem/dump/oom_verdict.hpp: what an out-of-memory report (dump/oom_log.hpp) says happened, in
// a sentence and a few words (`verdict_of`): compile time or run time; the program does not fit,
// or it fits but the free memory is fragmented; a program load blocked by the buffers that hold
// the memory (E0101); which of TensorCore and SparseCore is over (E1000); how far
// rematerialization fell short; and what the message does not tell.
//
// The reading of each message follows XLA's error pages (openxla.org/xla/errors/error_0100, 0101,
// 1000) and the code that prints it: the BFC allocator fails a request larger than its largest
// free chunk even when the free chunks add up to more (bfc_allocator.cc, FindChunkPtr), and the
// TPU runtime privileges buffers over loaded programs, so a program that loaded before fails to
// load when buffers hold the memory (error_0101).
#ifndef HLOMEM_DUMP_OOM_VERDICT_HPP
#define HLOMEM_DUMP_OOM_VERDICT_HPP

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/core/printed_size.hpp>
#include <hlomem/dump/oom_log.hpp>
#include <hlomem/dump/oom_summary_analysis.hpp>

namespace hlomem {

/// What a report says happened.
struct oom_verdict {
    std::string time;      ///< `compile time`, `run time`, or `not told`
    std::string outcome;   ///< does_not_fit, fragmented, program_load_blocked, sparsecore_over, tensorcore_over,
                           ///< tensorcore_and_sparsecore_over, rematerialization_short, padding, not_a_failure, fits, not_told
    std::optional<std::int64_t> over_by;  ///< bytes the need exceeds what there is (nominal values of printed sizes)
    std::string text;      ///< the verdict in sentences
    std::vector<std::string> not_told;  ///< what the message does not tell
};

namespace detail {

template <class P>
std::optional<std::int64_t> usage_bytes(basic_oom_report<P> const& r, std::string_view name) {
    auto const* u = usage_named(r, oom_usage_part::other, name);
    return u ? u->bytes() : std::nullopt;
}

template <class P>
std::string printed(std::optional<basic_reported_size<P>> const& r) {
    return r ? std::string(std::string_view(r->text)) : std::string("?");
}

/// The bins of a BFC log that hold free bytes, most first: `1.50GiB in 3 chunks of bin 256.0MiB`.
template <class P>
std::string free_bins_text(basic_bfc_log<P> const& b) {
    std::vector<std::pair<std::int64_t, basic_bfc_bin<P> const*>> free;
    for (auto const& bin : b.bins) {
        if (!bin.allocated || !bin.in_use) continue;
        std::int64_t const bytes = bin.allocated->size.nominal_bytes - bin.in_use->size.nominal_bytes;
        if (bytes > 0 && bin.total_chunks > bin.chunks_in_use) free.emplace_back(bytes, &bin);
    }
    std::stable_sort(free.begin(), free.end(), [](auto const& a, auto const& c) { return a.first > c.first; });
    std::string out;
    for (std::size_t i = 0; i < free.size() && i < 3; ++i) {
        auto const& bin = *free[i].second;
        std::int64_t const chunks = bin.total_chunks - bin.chunks_in_use;
        out += (i == 0 ? "" : ", ") + format_size(free[i].first, size_function_kind::xla) + " in " + std::to_string(chunks) +
               (chunks == 1 ? " chunk" : " chunks") + " of bin " + format_size(bin.bin_size, size_function_kind::xla);
    }
    return out;
}

template <class P>
oom_verdict bfc_verdict(basic_oom_report<P> const& r) {
    auto const& b = r.bfc;
    oom_verdict v{"run time", "not_told", std::nullopt, "", {}};
    auto const xla = [](std::int64_t x) { return format_size(x, size_function_kind::xla); };
    std::optional<std::int64_t> const limit = b.stat("Limit") ? b.stat("Limit") : b.memory_limit;
    std::optional<std::int64_t> in_use = b.stat("InUse");
    if (!in_use && b.sum_in_use) in_use = b.sum_in_use->size.nominal_bytes;
    std::optional<std::int64_t> largest = b.stat("LargestFreeBlock");
    if (!largest && b.pool_largest_free) largest = b.pool_largest_free->size.nominal_bytes;
    if (!largest && b.chunks_free > 0) largest = b.largest_free_chunk;
    std::string const where = free_bins_text(b);
    if (!r.requested) v.not_told.push_back("the size that failed (the 'ran out of memory trying to allocate' line is not in the input)");
    if (!limit) v.not_told.push_back("the memory limit (the Stats: lines are not in the input)");
    if (!largest) v.not_told.push_back("the largest free block (newer XLA prints LargestFreeBlock; this log lists no free chunks)");
    v.not_told.push_back("which operation asked for the memory (the allocator does not know)");
    if (b.not_a_failure && !limit) {
        v.outcome = "not_a_failure";
        v.text = "The BFC allocator" + (std::string_view(b.allocator).empty() ? std::string() : " " + std::string(std::string_view(b.allocator))) +
                 " could not serve " + printed(r.requested) + "; the caller says this is not a failure (it falls back and may be slower).";
        return v;
    }
    if (r.requested && limit && in_use) {
        std::int64_t const need = b.rounded_request ? *b.rounded_request : r.requested->size.nominal_bytes;
        std::int64_t const free = *limit - *in_use;
        if (need > free) {
            v.outcome = "does_not_fit";
            v.over_by = need - free;
            v.text = "The request of " + printed(r.requested) + " is more than the " + xla(free) + " free under the limit " + xla(*limit) +
                     " (" + xla(*in_use) + " in use): it does not fit, short by " + xla(need - free) + ".";
        } else if (largest && need > *largest) {
            v.outcome = "fragmented";
            v.text = "The request of " + printed(r.requested) + " is below the " + xla(free) + " free under the limit but above the largest free block " +
                     xla(*largest) + ": it fits in total but memory is fragmented." + (where.empty() ? "" : " The free bytes are in: " + where + ".");
        } else {
            v.outcome = "fits";
            v.text = "The request of " + printed(r.requested) + " is below the " + xla(free) + " free under the limit" +
                     (largest ? " and the largest free block " + xla(*largest) : std::string()) +
                     ": the log does not show why it failed (the memory may have been freed since, or held outside the allocator).";
        }
        return v;
    }
    v.text = "The BFC allocator's log" + std::string(limit && in_use ? ": " + xla(*in_use) + " in use of the limit " + xla(*limit) : "") +
             (where.empty() ? "." : "; the free bytes are in: " + where + ".");
    return v;
}

}  // namespace detail

/// The verdict on a TPU report: a reservation (program load) or a compile-time summary or list.
template <class P>
oom_verdict tpu_verdict(basic_oom_report<P> const& r) {
    oom_verdict v;
    std::string const space = std::string_view(r.memory_space).empty() ? std::string("memory") : std::string(std::string_view(r.memory_space));
    if (r.requested) {
        // `Attempting to reserve X at the bottom of memory`: the runtime reserving the program's
        // memory as it loads it (error_0101).
        v.time = "run time";
        v.outcome = "program_load_blocked";
        auto const reservable = detail::usage_bytes(r, "reservable");
        auto const free = detail::usage_bytes(r, "free");
        std::string const program = std::string_view(r.program_name).empty() ? std::string("the program") : "program '" + std::string(std::string_view(r.program_name)) + "'";
        v.text = "Loading " + program + " needs " + detail::printed(r.requested) + " at the bottom of memory, but only " +
                 (reservable ? format_size(*reservable, size_function_kind::tpu) : std::string("?")) + " is reservable" +
                 (free ? " (" + format_size(*free, size_function_kind::tpu) + " free)" : std::string()) +
                 ": buffers hold the memory, and the runtime keeps buffers over loaded programs. Free or donate buffers, or make the program smaller.";
        if (reservable) v.over_by = r.requested->size.nominal_bytes - *reservable;
        bool const capacity_lines = std::any_of(r.usage.begin(), r.usage.end(), [](auto const& u) { return u.part == oom_usage_part::capacity; });
        if (!capacity_lines) v.not_told.push_back("how much the buffers hold (the HBM capacity lines are not in the input)");
        v.not_told.push_back("which buffers hold the memory (tpu_log_allocations_on_oom dumps them)");
        return v;
    }
    v.time = "compile time";
    v.outcome = "does_not_fit";
    if (r.used && r.capacity) {
        v.over_by = r.exceeded ? r.exceeded->size.nominal_bytes : r.used->size.nominal_bytes - r.capacity->size.nominal_bytes;
        v.text = "The program needs " + detail::printed(r.used) + " of " + space + " but there is " + detail::printed(r.capacity) +
                 ": it does not fit, over by " + format_size(*v.over_by, size_function_kind::tpu) + ".";
    } else if (!r.entries.empty()) {
        v.text = "The largest " + space + " allocations of a program that does not fit.";
        v.not_told.push_back("the capacity and by how much the program is over (the summary is not in the input)");
    } else {
        v.text = "A program that does not fit in " + space + ".";
        if (!r.capacity) v.not_told.push_back("the capacity (the 'Used ... of ...' line is not in the input)");
    }
    if (r.entries.empty()) v.not_told.push_back("which allocations make up the usage (the list of largest allocations is not in the input)");
    else v.not_told.push_back("the allocations below the listed ones");
    return v;
}

/// The verdict on `r`, of any kind.
template <class P>
oom_verdict verdict_of(basic_oom_report<P> const& r) {
    auto const tpu = [](std::int64_t x) { return format_size(x, size_function_kind::tpu); };
    auto const xla = [](std::int64_t x) { return format_size(x, size_function_kind::xla); };
    oom_verdict v;
    switch (r.kind) {
        case oom_report_kind::tpu: return tpu_verdict(r);
        case oom_report_kind::gpu: {
            v.time = "run time";
            v.outcome = "does_not_fit";
            v.text = r.requested ? "Allocating " + detail::printed(r.requested) + " for the program's buffers failed as it ran."
                                 : "The buffer assignment of a program whose buffers did not fit as it ran.";
            if (!r.requested) v.not_told.push_back("the size that failed (the 'Out of memory while trying to allocate' line is not in the input)");
            v.not_told.push_back("how much memory was free and what held it (the BFC allocator's log says, when printed)");
            return v;
        }
        case oom_report_kind::device_allocation: {
            v.time = "run time";
            auto const free = detail::usage_bytes(r, "free");
            if (r.requested && free && r.requested->size.min_bytes > *free) {
                v.outcome = "does_not_fit";
                v.over_by = r.requested->size.nominal_bytes - *free;
                v.text = "Allocating a buffer of " + detail::printed(r.requested) + " needs more than the " + tpu(*free) + " free: it does not fit, short by " +
                         tpu(*v.over_by) + ".";
            } else {
                v.outcome = "fragmented";
                v.text = "Allocating a buffer of " + detail::printed(r.requested) + " failed although " + (free ? tpu(*free) : std::string("?")) +
                         " is free: no single free block is large enough (fragmentation).";
            }
            v.not_told.push_back("the largest free block and which buffers hold the memory (tpu_log_allocations_on_oom dumps them)");
            return v;
        }
        case oom_report_kind::sparsecore: {
            v.time = "compile time";
            auto const tc = detail::usage_bytes(r, "TensorCore");
            auto const sc = detail::usage_bytes(r, "SparseCore");
            if (!tc || !sc || !r.capacity) {
                v.outcome = "not_told";
                v.text = "A TensorCore and SparseCore usage report, cut off before its figures.";
                return v;
            }
            std::int64_t const available = r.capacity->size.nominal_bytes;
            v.over_by = *tc + *sc - available;
            bool const tc_over = *tc > available, sc_over = *sc > available;
            v.outcome = tc_over && sc_over ? "tensorcore_and_sparsecore_over" : sc_over ? "sparsecore_over" : tc_over ? "tensorcore_over" : "tensorcore_and_sparsecore_over";
            v.text = "TensorCore uses " + tpu(*tc) + " and SparseCore " + tpu(*sc) + " of HBM, " + tpu(*tc + *sc) + " together against " + tpu(available) +
                     " available: over by " + tpu(*v.over_by) + ". " +
                     (sc_over && !tc_over   ? "SparseCore alone exceeds the available bytes (by " + tpu(*sc - available) + "): reduce its usage first."
                      : tc_over && !sc_over ? "TensorCore alone exceeds the available bytes (by " + tpu(*tc - available) + "): reduce its usage first."
                      : tc_over             ? "Each alone exceeds the available bytes."
                                            : "Neither alone exceeds the available bytes; together they do: balance them.");
            v.not_told.push_back("which allocations of either core make up its usage");
            return v;
        }
        case oom_report_kind::runtime_allocation: {
            v.time = "compile time";
            v.outcome = "does_not_fit";
            if (r.requested && r.capacity) v.over_by = r.requested->size.nominal_bytes - r.capacity->size.nominal_bytes;
            std::string what = "one allocation";
            if (!r.entries.empty()) {
                auto const& e = r.entries.front();
                what = "allocation #" + std::to_string(e.number) + (e.shape_text.empty() ? std::string() : " " + std::string(std::string_view(e.shape_text))) +
                       (std::string_view(e.label).empty() ? std::string() : " (" + std::string(std::string_view(e.label)) + ")");
            }
            v.text = "A single buffer, " + what + ", needs " + (r.requested ? tpu(r.requested->size.nominal_bytes) : std::string("?")) +
                     ", more than the whole memory of " + (r.capacity ? tpu(r.capacity->size.nominal_bytes) : std::string("?")) +
                     ": no schedule fits it. Shrink, shard or split that value.";
            v.not_told.push_back("the other allocations live with it");
            v.not_told.push_back("the source of the value (the message has <no-hlo-instruction>; --module joins the tag with the module)");
            return v;
        }
        case oom_report_kind::utilization: {
            v.time = "not told";
            v.outcome = "padding";
            auto const unpadded = detail::usage_bytes(r, "Unpadded");
            auto const padded = detail::usage_bytes(r, "Padded");
            if (unpadded && padded) {
                v.text = tpu(*padded) + " of padded buffers hold " + tpu(*unpadded) + " of data: " + tpu(*padded - *unpadded) +
                         " is padding of the tiled layouts.";
            } else {
                v.text = "A utilization line, cut off before its sizes.";
            }
            v.not_told.push_back("which allocations are padded (the report's list of largest allocations says)");
            return v;
        }
        case oom_report_kind::bfc: return detail::bfc_verdict(r);
        case oom_report_kind::rematerialization: {
            v.time = "compile time";
            v.outcome = "rematerialization_short";
            auto const limit = detail::usage_bytes(r, "limit");
            auto const reduced = detail::usage_bytes(r, "reduced to");
            auto const original = detail::usage_bytes(r, "originally");
            if (limit && reduced) {
                v.over_by = *reduced - *limit;
                v.text = "Rematerialization reduced the program's memory to " + xla(*reduced) +
                         (original ? " from " + xla(*original) + " (saving " + xla(*original - *reduced) + ")" : std::string()) + ", still " +
                         std::to_string(*v.over_by) + " bytes (" + xla(*v.over_by) + ") above the limit " + xla(*limit) +
                         ". Compilation goes on; the program needs that much more memory than the limit.";
            } else {
                v.text = "A rematerialization warning, cut off before its figures.";
            }
            v.not_told.push_back("which values are live at the peak");
            if (!original) v.not_told.push_back("the memory before rematerialization (older XLA does not print it)");
            return v;
        }
        case oom_report_kind::hlo_temporaries: {
            v.time = "compile time";
            v.outcome = "does_not_fit";
            auto const temps = detail::usage_bytes(r, "HLO temporaries");
            if (temps && r.capacity) {
                v.over_by = *temps - r.capacity->size.nominal_bytes;
                v.text = "The program's HLO temporaries need " + tpu(*temps) + " but " + detail::printed(r.capacity) + " of HBM is available: over by " +
                         tpu(*v.over_by) + ".";
            } else {
                v.text = "HLO temporaries that exceed the available HBM.";
            }
            v.not_told.push_back("which temporaries are live at the peak");
            return v;
        }
    }
    return v;
}

}  // namespace hlomem

#endif  // HLOMEM_DUMP_OOM_VERDICT_HPP
