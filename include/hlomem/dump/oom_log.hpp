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
#include <vector>

#include <hlomem/core/diagnostic.hpp>
#include <hlomem/core/policy.hpp>
#include <hlomem/core/printed_size.hpp>
#include <hlomem/core/shape.hpp>
#include <hlomem/core/size_function.hpp>

namespace hlomem {

/// Which compiler printed a report.
enum class oom_report_kind : std::uint8_t {
    tpu,  ///< `Largest program allocations in hbm:`
    gpu,  ///< `BufferAssignment OOM Debugging.` / `Peak buffers:`
};

inline std::string_view to_string(oom_report_kind k) { return k == oom_report_kind::tpu ? "tpu" : "gpu"; }

/// The size function whose printer a kind of report uses for sizes (core/printed_size.hpp).
inline size_function_kind size_style_of(oom_report_kind k) {
    return k == oom_report_kind::tpu ? size_function_kind::tpu : size_function_kind::xla;
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
