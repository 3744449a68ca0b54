// hlomem/dump/oom_log.hpp: the out-of-memory reports XLA prints, as the reader
// (parser/oom_report.hpp) reads them from a log: each report's summary figures, its entries
// (TPU) or peak buffers (GPU) with their fields as printed, and the reader's notes.
// dump/oom_report.hpp shows the texts.
#ifndef HLOMEM_DUMP_OOM_LOG_HPP
#define HLOMEM_DUMP_OOM_LOG_HPP

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/core/diagnostic.hpp>
#include <hlomem/core/policy.hpp>
#include <hlomem/core/printed_size.hpp>
#include <hlomem/core/shape.hpp>
#include <hlomem/core/size_function.hpp>

namespace hlomem {

/// Which message a report is. The first two are the compile-time lists; the others are one-line
/// messages (dump/oom_report.hpp shows each text) and the GPU BFC allocator's log.
enum class oom_report_kind : std::uint8_t {
    tpu,                 ///< `Largest program allocations in hbm:`, `Ran out of memory in memory space hbm.`,
                         ///< `Attempting to reserve ...` (E0101 when `Error loading program` precedes it)
    gpu,                 ///< `BufferAssignment OOM Debugging.` / `Peak buffers:`
    device_allocation,   ///< E0100 `Error allocating device buffer: Attempting to allocate 8.00M. ...`
    sparsecore,          ///< E1000 `TPU TensorCore Hbm usage: 34.82G, SparseCore Hbm usage 174.10G, ...`
    runtime_allocation,  ///< `Allocation (size=N) would exceed memory (size=M) :: #allocation7 [...]`
    utilization,         ///< `1.3% utilization: Unpadded (294.49M) Padded (23.01G)`
    bfc,                 ///< the BFC allocator's log: `Bin (256): Total Chunks: ...`, chunks, `Stats:`
    rematerialization,   ///< `Can't reduce memory use below X (N bytes) by rematerialization; only reduced to ...`
    hlo_temporaries,     ///< `total memory required for HLO temporaries (X) exceeds available HBM (Y)`
};

inline std::string_view to_string(oom_report_kind k) {
    switch (k) {
        case oom_report_kind::tpu: return "tpu";
        case oom_report_kind::gpu: return "gpu";
        case oom_report_kind::device_allocation: return "device_allocation";
        case oom_report_kind::sparsecore: return "sparsecore";
        case oom_report_kind::runtime_allocation: return "runtime_allocation";
        case oom_report_kind::utilization: return "utilization";
        case oom_report_kind::bfc: return "bfc";
        case oom_report_kind::rematerialization: return "rematerialization";
        case oom_report_kind::hlo_temporaries: return "hlo_temporaries";
    }
    return "tpu";
}

/// The size function whose printer a kind of report uses for sizes (core/printed_size.hpp): the
/// TPU runtime's `8.00M` or XLA's `6.00MiB` (HumanReadableNumBytes: GPU reports, the BFC
/// allocator, hlo_rematerialization.cc).
inline size_function_kind size_style_of(oom_report_kind k) {
    switch (k) {
        case oom_report_kind::gpu:
        case oom_report_kind::bfc:
        case oom_report_kind::rematerialization: return size_function_kind::xla;
        default: return size_function_kind::tpu;
    }
}

/// A size field as printed (`Size: 570.00M`): its text, what it stands for, and its line.
template <class P = default_policy>
struct basic_reported_size {
    typename P::string_type text;
    printed_size size;
    std::size_t line = 0;
};

/// The `2.0` of `(2.0x expansion)`.
template <class P = default_policy>
struct basic_reported_ratio {
    typename P::string_type text;  ///< `2.0`
    std::int64_t digits = 0;       ///< 20
    int decimals = 0;              ///< 1
    std::size_t line = 0;

    double value() const { return static_cast<double>(digits) / std::pow(10.0, decimals); }
    /// True when `ratio` rounds to the printed value: |ratio·10^d − digits| ≤ 1/2.
    bool covers(double ratio) const { return std::fabs(ratio * std::pow(10.0, decimals) - static_cast<double>(digits)) <= 0.5 + 1e-9; }
};

/// What the parser could read of a TPU `XLA label:` (an HLO instruction):
/// `%fusion.10.remat3 = (f32[29184,1,2560]{...}, f32[...]) fusion(...), kind=kLoop, ...`.
template <class P = default_policy>
struct basic_label_instruction {
    typename P::string_type name;          ///< `fusion.10.remat3`, without `%`
    std::optional<basic_shape<P>> shape;   ///< its result shape, when the label prints it whole
    typename P::string_type opcode;        ///< `fusion`; empty when the label is cut before it
};

/// A `Name: value` line inside an entry that hlomem does not know, kept as read.
template <class P = default_policy>
struct basic_oom_field {
    typename P::string_type name;
    typename P::string_type value;
    std::size_t line = 0;
};

/// One entry: `2. Size: ...` (TPU) or `Buffer 2:` (GPU) and the fields up to its `====` line.
template <class P = default_policy>
struct basic_oom_entry {
    using string_type = typename P::string_type;

    std::int64_t number = 0;  ///< as printed, 1-based; 0 when the paste starts inside it and no later entry tells it
    std::size_t line = 0;     ///< of `2. Size:` or `Buffer 2:`, or of its first field when its head is not in the paste
    bool has_head = true;          ///< false: the paste starts inside this entry (its first line was not copied)
    bool number_inferred = false;  ///< `number` is the next entry's number minus one
    std::optional<basic_reported_size<P>> size;           ///< `Size:`
    std::optional<basic_reported_size<P>> unpadded_size;  ///< TPU `Unpadded size:`
    std::optional<basic_reported_size<P>> padding_size;   ///< TPU `Extra memory due to padding:`
    std::optional<basic_reported_ratio<P>> expansion;     ///< TPU `(2.0x expansion)`
    std::optional<basic_shape<P>> shape;                  ///< `Shape:` or GPU `Entry Parameter Subshape:`
    string_type shape_text;                               ///< as printed (also when cut off)
    std::size_t shape_line = 0;
    bool entry_parameter = false;                         ///< the shape came from `Entry Parameter Subshape:`
    string_type operator_text;                            ///< `Operator:`
    string_type label;                                    ///< `XLA label:` (TPU instruction) / `XLA Label:` (GPU opcode)
    std::optional<basic_label_instruction<P>> label_instruction;  ///< TPU labels that read as an instruction
    string_type allocation_type;                          ///< TPU `Allocation type:`
    std::vector<basic_oom_field<P>> other_fields;
    bool complete = false;                                ///< its `====` line was read
};

/// A line of the GPU `BufferAssignment stats:`: `total fragmentation:  0B (0.00%)`.
template <class P = default_policy>
struct basic_oom_stat {
    typename P::string_type name;     ///< `total fragmentation`
    basic_reported_size<P> size;
    typename P::string_type percent;  ///< `0.00%`; empty when not printed
};

/// Something the reader noticed at a place in the input (a diagnostic of kind partial_read, a
/// warning, at its line and column): where a report is cut off, an entry without its `====` line,
/// a field hlomem does not know.
inline diagnostic oom_reader_note(std::size_t line, std::size_t column, std::string message) {
    return make_diagnostic(diagnostic_kind::partial_read, severity::warning, std::move(message)).at(line, column);
}

/// Which part of a summary a usage line belongs to.
enum class oom_usage_part : std::uint8_t {
    total,       ///< under `Total hbm usage >= 22.47G:` (reserved, program, arguments, heap allocations)
    program,     ///< under `Program hbm requirement 15.03G:` (global, scoped, HLO temp, reserved, overlays)
    heap,        ///< under `Heap allocator status:` (Max free chunk)
    persistent,  ///< under `Persistent allocations include some or all of:` (arguments, output)
    capacity,    ///< under `HBM capacity 8.00G:` (Top-of-Memory reserved, Currently allocated, ...)
    other,       ///< figures in sentences: `There are 1.92G free, 0B reserved, and 1.92G reservable.`,
                 ///< `Output size 0B; shares 0B with arguments.`
};

inline std::string_view to_string(oom_usage_part p) {
    switch (p) {
        case oom_usage_part::total: return "total";
        case oom_usage_part::program: return "program";
        case oom_usage_part::heap: return "heap";
        case oom_usage_part::persistent: return "persistent";
        case oom_usage_part::capacity: return "capacity";
        case oom_usage_part::other: return "other";
    }
    return "total";
}

/// One figure of a summary: `reserved 530.00M`, `HLO temp 15.02G (98.4% utilization...)`,
/// `arguments unknown size`, `Available after request: -2.55G (-2,735,391,744 bytes)`.
template <class P = default_policy>
struct basic_oom_usage {
    typename P::string_type name;                  ///< as printed: `HLO temp`, `reserved(Infeed/Outfeed/Continuations)`
    oom_usage_part part = oom_usage_part::total;
    std::optional<basic_reported_size<P>> size;    ///< nullopt: `unknown size`, or the value was not copied
    bool negative = false;                         ///< `-2.55G`
    std::optional<std::int64_t> exact_bytes;       ///< `(     554,696,704 bytes)`, when printed
    typename P::string_type detail;                ///< what follows the size: `(98.4% utilization: ...)`
    std::size_t line = 0;

    /// The bytes it stands for (the exact count when printed, else the printed size's nominal value).
    std::optional<std::int64_t> bytes() const {
        if (exact_bytes) return *exact_bytes;
        if (!size) return std::nullopt;
        return negative ? -size->size.nominal_bytes : size->size.nominal_bytes;
    }
};

/// One `Bin (256): Total Chunks: 94, Chunks in use: 94. 23.5KiB allocated for chunks. 23.5KiB in use
/// in bin. 9.0KiB client-requested in use in bin.` of the BFC allocator's log
/// (xla/tsl/framework/bfc_allocator.cc, BFCAllocator::DumpMemoryLog); older builds print `Chunks
/// in use: 0 0B allocated for chunks. 0B client-requested for chunks. 0B in use in bin. ...`.
template <class P = default_policy>
struct basic_bfc_bin {
    std::int64_t bin_size = 0;       ///< the 256 of `Bin (256)`: the smallest chunk the bin holds
    std::int64_t total_chunks = 0;
    std::int64_t chunks_in_use = 0;
    std::optional<basic_reported_size<P>> allocated;                ///< `23.5KiB allocated for chunks`
    std::optional<basic_reported_size<P>> client_requested;         ///< older builds: `0B client-requested for chunks`
    std::optional<basic_reported_size<P>> in_use;                   ///< `23.5KiB in use in bin`
    std::optional<basic_reported_size<P>> client_requested_in_use;  ///< `9.0KiB client-requested in use in bin`
    std::size_t line = 0;
};

/// `9 Chunks of size 256 totalling 2.2KiB`: the summary of the chunks in use by size.
template <class P = default_policy>
struct basic_bfc_chunk_sizes {
    std::int64_t count = 0;
    std::int64_t size = 0;
    std::optional<basic_reported_size<P>> total;
    std::size_t line = 0;
};

/// The chunks in use that one executable asked for: newer BFC logs tag each chunk with its
/// allocation annotation (`InUse at 302000200 of size 1073741824 tag lower allocation_annotation
/// xla.execute{executable=jit_broadcast_in_dim} next 3`).
template <class P = default_policy>
struct basic_bfc_owner {
    typename P::string_type executable;  ///< `jit_broadcast_in_dim`; the annotation as printed when it names no executable
    std::int64_t chunks = 0;
    std::int64_t bytes = 0;
};

/// What the BFC allocator's log says (bfc_allocator.cc: `Allocator (GPU_0_bfc) ran out of memory
/// trying to allocate 84.50MiB`, DumpMemoryLog's bins, chunks, chunk sizes and `Stats:`).
template <class P = default_policy>
struct basic_bfc_log {
    typename P::string_type allocator;               ///< `GPU_0_bfc`; empty when not printed
    /// `The caller indicates that this is not a failure, but ...`: the caller retries or falls back.
    bool not_a_failure = false;
    std::optional<std::int64_t> rounded_request;     ///< newer XLA: `allocate 1.00GiB (rounded to 1073741824)`
    std::vector<basic_bfc_bin<P>> bins;
    std::int64_t chunks_in_use = 0;                  ///< `InUse at 703b12d00 of size 256 next 275` lines
    std::int64_t chunks_free = 0;                    ///< `Free at ... of size N next M` lines
    std::int64_t in_use_chunk_bytes = 0;
    std::int64_t free_chunk_bytes = 0;
    std::int64_t largest_free_chunk = 0;
    /// The in-use chunks by the executable of their annotation, in the order first seen; chunks
    /// without an annotation (older logs) are in none.
    std::vector<basic_bfc_owner<P>> in_use_by_executable;
    std::vector<basic_bfc_chunk_sizes<P>> chunk_sizes;
    std::optional<basic_reported_size<P>> sum_in_use;  ///< `Sum Total of in-use chunks: 4.16GiB`
    std::optional<std::int64_t> region_allocated;      ///< `total_region_allocated_bytes_: 8590983168`
    std::optional<std::int64_t> memory_limit;          ///< `memory_limit_: 10562958132`
    std::optional<std::int64_t> available;             ///< `available bytes: 1971974964`
    std::optional<std::int64_t> region_allocation;     ///< `curr_region_allocation_bytes_: 8589934592`
    /// Newer XLA's `Allocator memory summary: rounded request 1.00GiB, total free in pool
    /// 394.00MiB, largest free chunk usable by lower end 394.00MiB, unallocated bytes 0B, pool
    /// size 59.38GiB, pool limit 59.38GiB`.
    std::optional<basic_reported_size<P>> pool_free;
    std::optional<basic_reported_size<P>> pool_largest_free;
    std::optional<basic_reported_size<P>> pool_size;
    std::optional<basic_reported_size<P>> pool_limit;
    /// `Stats:` lines (AllocatorStats::DebugString): Limit, InUse, MaxInUse, NumAllocs,
    /// MaxAllocSize, Reserved, PeakReserved, LargestFreeBlock, as printed.
    /// Byte counts in older XLA (`Limit:  10562958132`), sizes in newer (`Limit:  59.38GiB`).
    std::vector<std::pair<typename P::string_type, basic_reported_size<P>>> stats;

    bool empty() const noexcept {
        return bins.empty() && chunks_in_use + chunks_free == 0 && chunk_sizes.empty() && !sum_in_use && !memory_limit && stats.empty();
    }
    /// The stat `name`: its bytes (the nominal value of a printed size), or nullopt.
    std::optional<std::int64_t> stat(std::string_view name) const {
        auto const* s = printed_stat(name);
        return s ? std::optional<std::int64_t>(s->size.nominal_bytes) : std::nullopt;
    }
    basic_reported_size<P> const* printed_stat(std::string_view name) const {
        for (auto const& s : stats) {
            if (std::string_view(s.first) == name) return &s.second;
        }
        return nullptr;
    }
};

/// One report found in the input: a summary, a list of entries, or both.
template <class P = default_policy>
struct basic_oom_report {
    oom_report_kind kind = oom_report_kind::tpu;
    std::size_t line = 0;                       ///< its first line
    typename P::string_type memory_space;       ///< `hbm` of `Largest program allocations in hbm:`, of `Ran out of
                                                ///< memory in memory space hbm.`, of `Total hbm usage`; empty when not said
    std::size_t list_line = 0;                  ///< of `Largest program allocations in hbm:` / `Peak buffers:`; 0 when not in the paste
    // The summary (TPU): `Ran out of memory in memory space hbm. Used 21.95G of 15.48G hbm. Exceeded hbm capacity by 6.47G.`
    std::optional<basic_reported_size<P>> used;
    std::optional<basic_reported_size<P>> capacity;   ///< also `HBM capacity 8.00G:`
    std::optional<basic_reported_size<P>> exceeded;
    std::optional<basic_reported_size<P>> total_usage;          ///< `Total hbm usage >= 22.47G:`
    std::optional<basic_reported_size<P>> program_requirement;  ///< `Program hbm requirement 15.03G:`
    std::optional<basic_reported_size<P>> requested;  ///< `Attempting to reserve 3.95G`; GPU `trying to allocate 6291456 bytes`
    std::vector<basic_oom_usage<P>> usage;
    std::vector<basic_oom_stat<P>> stats;       ///< GPU `BufferAssignment stats:`
    bool has_peak_buffers = false;              ///< GPU: `Peak buffers:` was read
    std::vector<basic_oom_entry<P>> entries;
    /// `Error loading program 'jit_step':` before `Attempting to reserve` (E0101): a program load.
    bool program_load = false;
    typename P::string_type program_name;       ///< `jit_step`; empty when not printed
    typename P::string_type device;             ///< E0100 `(0x0x1_HBM0)`, `(1x0x0_HBM0)`
    basic_bfc_log<P> bfc;                       ///< kind bfc
    std::optional<basic_reported_ratio<P>> utilization;  ///< the `1.3` of `1.3% utilization: Unpadded (...) Padded (...)`
    std::vector<diagnostic> notes;
    /// The input ends or other text starts inside an entry, or before the first entry.
    bool cut_off = false;
};

/// Every report of one input, in order.
template <class P = default_policy>
struct basic_oom_log {
    std::string file;
    std::vector<basic_oom_report<P>> reports;
    /// What the reader skipped or noticed outside any report's own notes.
    std::vector<diagnostic> warnings;

    std::size_t entry_count() const {
        std::size_t n = 0;
        for (auto const& r : reports) n += r.entries.size();
        return n;
    }
};

using reported_size = basic_reported_size<>;
using oom_entry = basic_oom_entry<>;
using oom_report = basic_oom_report<>;
using oom_log = basic_oom_log<>;

}  // namespace hlomem

#endif  // HLOMEM_DUMP_OOM_LOG_HPP
