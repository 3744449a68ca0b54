// hlomem/dump/oom_report.hpp: the out-of-memory reports XLA prints, as read from a log, and what their
// figures mean: sizes recomputed from each shape, disagreements with the report, and where the
// padding comes from and what would remove it.
//
// TPU (a compile-time OOM of XLA:TPU; sizes in the TPU runtime's `570.00M` form):
//     Largest program allocations in hbm:
//       1. Size: 570.00M
//          Operator: op_name="..."                                         (optional)
//          Shape: f32[29184,1,2560]{2,1,0:T(2,128)}                     (older runtimes: no tiles)
//          Unpadded size: 285.00M
//          Extra memory due to padding: 285.00M (2.0x expansion)        (only when padded)
//          XLA label: %fusion.10 = (f32[29184,1,2560]{...}, ...) fusion(...), kind=kLoop, ...
//          Allocation type: HLO temp
//          ==========================
// GPU (BufferAssignment::ToVerboseString, docs/FORMATS.md 5.7; sizes in XLA's `6.00MiB` form;
// shapes printed without layouts):
//     BufferAssignment OOM Debugging.
//     BufferAssignment stats:
//                  parameter allocation:    6.00MiB
//                   constant allocation:         0B
//                   ...
//     Peak buffers:
//         Buffer 1:
//             Size: 6.00MiB
//             Operator: op_name="jit(concatenate)/..." source_file="..." source_line=689   (optional)
//             XLA Label: concatenate
//             Shape: f32[4096,128,3]
//             ==========================
//         Buffer 2:
//             Size: 384.0KiB
//             Entry Parameter Subshape: f32[256,128,3]
//             ==========================
//
// TPU summaries, printed before the list (each may come alone in a paste):
//     ... Ran out of memory in memory space hbm. Used 21.95G of 15.48G hbm. Exceeded hbm capacity by 6.47G.
//     Total hbm usage >= 22.47G:                 (then `reserved 530.00M`, `program 21.95G`, `arguments 0B`)
//     Output size 0B; shares 0B with arguments.
//     Program hbm requirement 15.03G:            (then `global 1.14M`, `scoped 4.56M`, `HLO temp 15.02G (...)`)
// and the older runtimes' reservation failure:
//     Attempting to reserve 3.95G at the bottom of memory. That was not possible. There are 1.92G
//     free, 0B reserved, and 1.92G reservable.
//     HBM capacity 8.00G:                        (then `Top-of-Memory reserved:  529.00M (554,696,704 bytes)`, ...)
//
// The reader (parser/oom_report.hpp) finds every such piece in a longer log or a damaged paste and
// fills the types below; `analyze` recomputes each entry. Reported sizes agree with a recomputed byte count when
// it prints as them (printed_size.hpp states the rule); a reported expansion `2.0x` agrees when the
// recomputed padded/unpadded ratio rounds to it, within half a unit of its last decimal.
#ifndef HLOMEM_DUMP_OOM_REPORT_HPP
#define HLOMEM_DUMP_OOM_REPORT_HPP

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <hlomem/core/diagnostic.hpp>
#include <hlomem/core/error.hpp>
#include <hlomem/core/layout.hpp>
#include <hlomem/core/padding.hpp>
#include <hlomem/core/policy.hpp>
#include <hlomem/core/printed_size.hpp>
#include <hlomem/core/shape.hpp>
#include <hlomem/core/shape_size.hpp>
#include <hlomem/core/size_function.hpp>

namespace hlomem {

// ---------------------------------------------------------------------------------------------
// The reports as read
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Analysis
// ---------------------------------------------------------------------------------------------

/// One figure of the report next to hlomem's.
struct figure_check {
    bool reported = false;        ///< the report states it
    bool agrees = true;           ///< the recomputed value prints as the reported one
    std::int64_t recomputed = 0;  ///< bytes
};

/// What hlomem makes of one entry.
template <class P = default_policy>
struct basic_oom_entry_analysis {
    bool has_shape = false;            ///< false when the entry is cut off before its shape
    basic_shape<P> shape;              ///< as analyzed: the entry's shape, with the tiling inferred when it has none
    bool tiling_inferred = false;      ///< a TPU shape printed without tiles got the default TPU tiling
    bool layout_inferred = false;      ///< a GPU shape printed without a layout got XLA's default layout
    std::string undefined_reason;      ///< why no size could be computed (an unbounded dimension)
    std::int64_t padded_bytes = 0;
    std::int64_t unpadded_bytes = 0;
    std::optional<padding_breakdown> padding;       ///< arrays
    std::vector<basic_padding_fix<P>> fixes;        ///< what would remove the padding
    figure_check size;                 ///< `Size:` against padded_bytes
    figure_check unpadded;             ///< `Unpadded size:` against unpadded_bytes
    figure_check padding_bytes;        ///< `Extra memory due to padding:` against their difference
    bool expansion_reported = false;
    bool expansion_agrees = true;      ///< `(2.0x expansion)` against padded/unpadded
    std::vector<diagnostic> disagreements;   ///< size_disagreement: one per figure that does not agree
    std::vector<std::string> explanation;    ///< plain sentences: sizes, padding, the label
    std::vector<std::string> suggestions;    ///< one sentence per fix

    bool sized() const noexcept { return has_shape && undefined_reason.empty(); }
    bool agrees() const noexcept { return disagreements.empty(); }
    double expansion() const noexcept {
        return unpadded_bytes > 0 ? static_cast<double>(padded_bytes) / static_cast<double>(unpadded_bytes) : 1.0;
    }
};

using oom_entry_analysis = basic_oom_entry_analysis<>;

namespace detail {

/// A figure of the report that the shape does not give: a warning at the figure's line.
inline diagnostic size_disagreement(std::size_t line, std::string message) {
    return make_diagnostic(diagnostic_kind::size_disagreement, severity::warning, std::move(message)).at(line);
}

/// `4096 x 128 x 3 x 4 bytes`.
template <class P>
std::string product_text(basic_shape<P> const& s) {
    std::string out;
    for (std::size_t i = 0; i < s.rank(); ++i) out += std::to_string(s.dimension(i)) + " x ";
    return out + std::to_string(byte_width(s.element_type())) + " bytes";
}

/// Compares a reported size with a recomputed byte count; adds a sentence when they disagree.
template <class P>
figure_check check_figure(std::optional<basic_reported_size<P>> const& reported, std::int64_t recomputed, char const* field,
                          char const* what, size_function_kind style, std::vector<diagnostic>& disagreements) {
    figure_check c;
    c.recomputed = recomputed;
    if (!reported) return c;
    c.reported = true;
    c.agrees = reported->size.covers(recomputed);
    if (!c.agrees) {
        disagreements.push_back(size_disagreement(
            reported->line, std::string("the report's ") + field + " " + std::string(std::string_view(reported->text)) +
                                " stands for " + std::to_string(reported->size.min_bytes) + " to " +
                                std::to_string(reported->size.max_bytes) + " bytes, but the " + what +
                                " recomputed from the shape is " + bytes_text(recomputed, style) + "."));
    }
    return c;
}

/// "The XLA label's instruction fusion.10 returns a tuple of 2 elements; this allocation holds
/// element {0} or {1} (both f32[...])."
template <class P>
std::optional<std::string> label_sentence(basic_label_instruction<P> const& label, basic_shape<P> const& shape) {
    if (!label.shape) return std::nullopt;
    std::string const name = std::string(std::string_view(label.name));
    if (!label.shape->is_tuple()) {
        if (*label.shape == shape) return std::nullopt;
        return "The XLA label's instruction " + name + " returns " + to_string(*label.shape) + ", not this shape.";
    }
    std::vector<std::size_t> matches;
    for (std::size_t i = 0; i < label.shape->tuple_shapes_size(); ++i) {
        if (label.shape->tuple_shape(i) == shape) matches.push_back(i);
    }
    std::string out = "The XLA label's instruction " + name + " returns a tuple of " +
                      std::to_string(label.shape->tuple_shapes_size()) + " elements; ";
    if (matches.empty()) return out + "none of them has this allocation's shape.";
    out += "this allocation holds element ";
    for (std::size_t i = 0; i < matches.size(); ++i) {
        out += (i == 0 ? "" : i + 1 == matches.size() ? " or " : ", ") + std::string("{") + std::to_string(matches[i]) + "}";
    }
    if (matches.size() == 2) return out + " (both have this shape).";
    return out + (matches.size() > 2 ? " (all have this shape)." : ".");
}

}  // namespace detail

/// Recomputes one entry of a `kind` report from its shape:
///   TPU arrays: padded = array_size, unpadded = unpadded_byte_size (a shape printed without tiles
///               gets the default TPU tiling first, see with_default_tpu_tiling); TPU tuples:
///               their index table, roundup(4n, 32) bytes (tpu_size_function, [INFERRED]).
///   GPU:        byte_size_of with 8-byte tuple pointers (GPU buffers are not tiled), which is
///               what BufferAssignment sizes a buffer of that shape.
/// Then compares the reported Size, Unpadded size, Extra memory and expansion with them, explains
/// the padding in sentences and lists what would remove it.
template <class P>
basic_oom_entry_analysis<P> analyze(basic_oom_entry<P> const& entry, oom_report_kind kind) {
    basic_oom_entry_analysis<P> a;
    size_function_kind const style = size_style_of(kind);
    if (!entry.shape) {
        a.explanation.push_back(!entry.shape_text.empty() ? "The entry's shape does not read (cut off or damaged): nothing to recompute."
                                : !entry.has_head     ? "The entry's Shape line is not in the input (the paste starts after it): nothing to recompute."
                                                      : "The entry has no shape (the report is cut off before it): nothing to recompute.");
        return a;
    }
    a.has_shape = true;
    a.shape = *entry.shape;
    if (kind == oom_report_kind::gpu && a.shape.is_array() && !a.shape.has_layout()) {
        // GPU reports print shapes without layouts (ShapeUtil::HumanString); the buffer has the
        // layout the compiler chose, which for the sizes here is any: GPU buffers are not tiled.
        a.shape.set_layout(default_layout<P>(a.shape.rank()));
        a.layout_inferred = true;
    }
    if (kind == oom_report_kind::tpu && a.shape.is_array() && !(a.shape.has_layout() && !a.shape.layout().tiles.empty())) {
        if (auto tiled = with_default_tpu_tiling(a.shape)) {
            a.shape = std::move(*tiled);
            a.tiling_inferred = true;
        }
    }
    try {
        if (kind == oom_report_kind::tpu) {
            a.padded_bytes = tpu_size_function{}(a.shape);
            a.unpadded_bytes = a.shape.is_tuple() ? a.padded_bytes : unpadded_byte_size(a.shape);
        } else {
            a.padded_bytes = padded_byte_size(a.shape, 8);
            a.unpadded_bytes = unpadded_byte_size(a.shape, 8);
        }
        if (a.shape.is_array()) {
            a.padding = padding_breakdown_of(a.shape);
            a.fixes = padding_fixes(a.shape);
        }
    } catch (shape_error const& e) {
        a.undefined_reason = e.what();
        a.explanation.push_back(std::string("No size can be computed: ") + e.what() + ".");
        return a;
    }

    // The figures.
    a.size = detail::check_figure(entry.size, a.padded_bytes, "Size", "size", style, a.disagreements);
    a.unpadded = detail::check_figure(entry.unpadded_size, a.unpadded_bytes, "Unpadded size", "unpadded size", style,
                                      a.disagreements);
    a.padding_bytes = detail::check_figure(entry.padding_size, a.padded_bytes - a.unpadded_bytes, "Extra memory due to padding",
                                           "padding", style, a.disagreements);
    if (entry.expansion) {
        a.expansion_reported = true;
        a.expansion_agrees = entry.expansion->covers(a.expansion());
        if (!a.expansion_agrees) {
            a.disagreements.push_back(detail::size_disagreement(
                entry.expansion->line, "the report's expansion " + std::string(std::string_view(entry.expansion->text)) +
                                           "x is not the recomputed " + format_expansion(a.expansion()) + "."));
        }
    }

    // The explanation.
    if (a.layout_inferred && a.shape.rank() > 0) {
        std::string const layout = to_string(a.shape.layout());
        a.explanation.push_back("The report prints the shape without a layout, as GPU reports do; hlomem took XLA's default "
                                "layout " + layout + " (the last dimension most minor), which does not change the size of an "
                                "untiled GPU buffer.");
    }
    if (a.tiling_inferred) {
        std::string const tiles = to_string(a.shape.layout()).substr(to_string(a.shape.layout()).find(':') + 1);
        std::string sentence = "The report prints the shape without tiles, as older TPU runtimes do; hlomem inferred the "
                               "default TPU tiling " + tiles.substr(0, tiles.size() - 1) + " for " +
                               std::string(to_string(a.shape.element_type())) + " (XLA's tiled_layout.md), which ";
        if (!entry.size) {
            sentence += "gives " + detail::bytes_text(a.padded_bytes, style) + ".";
        } else if (a.size.agrees) {
            sentence += "reproduces the reported Size " + std::string(std::string_view(entry.size->text)) + ".";
        } else {
            sentence += "does not reproduce the reported Size " + std::string(std::string_view(entry.size->text)) + ".";
        }
        a.explanation.push_back(sentence);
    } else if (kind == oom_report_kind::tpu && a.shape.is_array() && a.shape.rank() >= 2 &&
               !(a.shape.has_layout() && !a.shape.layout().tiles.empty())) {
        a.explanation.push_back("The report prints the shape without tiles and hlomem knows no default TPU tiling for " +
                                std::string(to_string(a.shape.element_type())) + ": the sizes below are untiled.");
    }
    if (a.shape.is_tuple()) {
        a.explanation.push_back(kind == oom_report_kind::tpu
                                    ? "A tuple allocation holds its index table, 4 bytes per element rounded up to 32: " +
                                          detail::bytes_text(a.padded_bytes, style) + " (the TPU rule inferred from TPU dumps)."
                                    : "A tuple buffer holds its pointer table, 8 bytes per element: " +
                                          detail::bytes_text(a.padded_bytes, style) + ".");
    } else if (a.padding) {
        bool const tiled = !a.padding->tile.empty();
        if (kind == oom_report_kind::gpu && !tiled) {
            a.explanation.push_back(std::string(entry.entry_parameter ? "An entry parameter; " : "") +
                                    "GPU buffers are not tiled: " + detail::product_text(a.shape) + " = " +
                                    detail::bytes_text(a.padded_bytes, style) + ".");
        } else {
            auto sentences = describe_padding(a.shape, *a.padding, style);
            a.explanation.insert(a.explanation.end(), sentences.begin(), sentences.end());
        }
    }
    if (entry.label_instruction) {
        if (auto sentence = detail::label_sentence(*entry.label_instruction, *entry.shape)) a.explanation.push_back(*sentence);
    }
    for (auto const& fix : a.fixes) a.suggestions.push_back(describe(fix, a.shape, style));
    return a;
}

// ---------------------------------------------------------------------------------------------
// Summaries
// ---------------------------------------------------------------------------------------------

/// One relation between a report's figures that XLA's printing must satisfy, checked on the
/// printed (rounded) values: each figure stands for a range of byte counts, and a relation holds
/// when the ranges allow it.
struct oom_summary_check {
    std::string relation;   ///< `used - capacity = exceeded`
    bool agrees = true;
    std::size_t line = 0;   ///< of the figure the relation is about
    std::string message;    ///< the figures and what they give, in a sentence
};

/// What the listed entries account for: the sum of their reported sizes against a total the
/// report states (TPU: the program requirement, or the `program` usage line; GPU: the `total
/// allocation` stat).
struct oom_entries_share {
    std::size_t entries = 0;        ///< entries with a reported size
    std::int64_t listed_bytes = 0;  ///< the sum of their sizes (nominal values of the printed sizes)
    std::string of;                 ///< `program requirement`, `program`, `total allocation`
    std::int64_t of_bytes = 0;
    double share() const noexcept { return of_bytes > 0 ? static_cast<double>(listed_bytes) / static_cast<double>(of_bytes) : 0.0; }
};

/// What hlomem makes of a report's summary.
struct oom_summary_analysis {
    std::vector<oom_summary_check> checks;
    std::optional<oom_entries_share> share;

    bool agrees() const noexcept {
        for (auto const& c : checks) {
            if (!c.agrees) return false;
        }
        return true;
    }
};

namespace detail {

/// The byte counts a printed figure stands for.
struct figure_range {
    std::int64_t min = 0;
    std::int64_t max = 0;
    figure_range operator+(figure_range const& o) const { return {min + o.min, max + o.max}; }
    figure_range operator-(figure_range const& o) const { return {min - o.max, max - o.min}; }
    bool meets(figure_range const& o) const { return min <= o.max && o.min <= max; }
};

template <class P>
figure_range range_of(basic_reported_size<P> const& r) {
    return {r.size.min_bytes, r.size.max_bytes};
}

template <class P>
std::optional<figure_range> range_of(basic_oom_usage<P> const& u) {
    if (u.exact_bytes) return figure_range{*u.exact_bytes, *u.exact_bytes};
    if (!u.size) return std::nullopt;
    figure_range r = range_of(*u.size);
    return u.negative ? figure_range{-r.max, -r.min} : r;
}

/// `11733560320 to 11755591677 bytes (10.93G to 10.95G)`
inline std::string range_text(figure_range r, size_function_kind style) {
    auto one = [&](std::int64_t b) { return b < 0 ? "-" + format_size(-b, style) : format_size(b, style); };
    if (r.min == r.max) return std::to_string(r.min) + " bytes (" + one(r.min) + ")";
    return std::to_string(r.min) + " to " + std::to_string(r.max) + " bytes (" + one(r.min) + " to " + one(r.max) + ")";
}

/// The sum of the usage lines of `part`, or nullopt with the name of a line without a value.
template <class P>
std::optional<figure_range> sum_of(basic_oom_report<P> const& r, oom_usage_part part, std::string& missing, std::size_t& count) {
    figure_range sum;
    count = 0;
    for (auto const& u : r.usage) {
        if (u.part != part) continue;
        auto range = range_of(u);
        if (!range) {
            missing = std::string(std::string_view(u.name));
            return std::nullopt;
        }
        sum = sum + *range;
        ++count;
    }
    return sum;
}

template <class P>
basic_oom_usage<P> const* usage_named(basic_oom_report<P> const& r, oom_usage_part part, std::string_view name) {
    for (auto const& u : r.usage) {
        if (u.part == part && std::string_view(u.name) == name) return &u;
    }
    return nullptr;
}

}  // namespace detail

/// Checks the figures of `r`'s summary against each other where XLA's printing makes them add up:
///   - `Used U of C hbm. Exceeded hbm capacity by E.`: U - C = E;
///   - `Total hbm usage >= T:` is the sum of its lines (reserved, program, arguments, ...);
///   - `Program hbm requirement R:` is the sum of its lines (global, scoped, HLO temp, ...);
///   - R is the `program` line of the total;
///   - U is T (older runtimes) or T less its `reserved` line (newer ones);
///   - `HBM capacity C:` less its lines (Top-of-Memory reserved, Currently allocated, Program
///     requirement) is its `Available after request` line;
///   - `Attempting to reserve X ... There are ... V reservable.`: X > V (why it failed);
///   - GPU stats: no allocation stat exceeds `total allocation`.
/// A relation whose figures are not all in the paste is not checked; one whose lines lack a value
/// (`unknown size`, a line cut off) is listed as not checkable, agreeing. Then the share of the
/// program that the listed entries account for.
template <class P>
oom_summary_analysis analyze_summary(basic_oom_report<P> const& r) {
    using detail::figure_range;
    using detail::range_of;
    size_function_kind const style = size_style_of(r.kind);
    auto range_text = [&](detail::figure_range x) { return detail::range_text(x, style); };
    oom_summary_analysis out;
    auto text = [](auto const& reported) { return std::string(std::string_view(reported.text)); };
    auto add = [&](std::string relation, bool agrees, std::size_t line, std::string message) {
        out.checks.push_back(oom_summary_check{std::move(relation), agrees, line, std::move(message)});
    };

    if (r.used && r.capacity && r.exceeded) {
        figure_range const d = range_of(*r.used) - range_of(*r.capacity);
        bool const ok = d.meets(range_of(*r.exceeded));
        add("used - capacity = exceeded", ok, r.exceeded->line,
            "Used " + text(*r.used) + " less capacity " + text(*r.capacity) + " is " + range_text(d) + "; the report says exceeded by " +
                text(*r.exceeded) + (ok ? "." : ", which is not in that range."));
    }
    auto sum_check = [&](std::optional<basic_reported_size<P>> const& total, oom_usage_part part, char const* relation, char const* what) {
        if (!total) return;
        std::string missing;
        std::size_t count = 0;
        auto sum = detail::sum_of(r, part, missing, count);
        if (!sum) {
            add(relation, true, total->line,
                std::string(what) + " " + text(*total) + " cannot be checked: its line '" + missing + "' has no value.");
            return;
        }
        if (count == 0) return;
        bool const ok = sum->meets(range_of(*total));
        add(relation, ok, total->line,
            "The " + std::to_string(count) + " lines under " + what + " " + text(*total) + " add up to " + range_text(*sum) +
                (ok ? "." : ", which " + text(*total) + " (" + range_text(range_of(*total)) + ") does not cover."));
    };
    sum_check(r.total_usage, oom_usage_part::total, "total usage = sum of its lines", "the total usage");
    sum_check(r.program_requirement, oom_usage_part::program, "program requirement = sum of its lines", "the program requirement");

    auto const* program_line = detail::usage_named(r, oom_usage_part::total, "program");
    if (r.program_requirement && program_line && program_line->size) {
        bool const ok = range_of(*r.program_requirement).meets(*range_of(*program_line));
        add("program requirement = program", ok, r.program_requirement->line,
            "The program requirement " + text(*r.program_requirement) + (ok ? " is" : " is not") + " the total's program line " +
                text(*program_line->size) + ".");
    }
    if (r.used && r.total_usage) {
        figure_range const used = range_of(*r.used);
        figure_range const total = range_of(*r.total_usage);
        auto const* reserved = detail::usage_named(r, oom_usage_part::total, "reserved");
        std::optional<figure_range> const reserved_range = reserved ? range_of(*reserved) : std::nullopt;
        bool const as_total = used.meets(total);
        bool const as_less_reserved = reserved_range && used.meets(total - *reserved_range);
        add("used = total usage (- reserved)", as_total || as_less_reserved, r.used->line,
            "Used " + text(*r.used) + (as_less_reserved ? " is the total usage " + text(*r.total_usage) + " less its reserved line"
                                       : as_total     ? " is the total usage " + text(*r.total_usage)
                                                      : " is neither the total usage " + text(*r.total_usage) +
                                                            " nor that less its reserved line") +
                ".");
    }
    if (r.capacity) {
        auto const* available = [&]() -> basic_oom_usage<P> const* {
            for (auto const& u : r.usage) {
                if (u.part == oom_usage_part::capacity && std::string_view(u.name).substr(0, 9) == "Available") return &u;
            }
            return nullptr;
        }();
        if (available && range_of(*available)) {
            figure_range rest = range_of(*r.capacity);
            bool complete = true;
            for (auto const& u : r.usage) {
                if (u.part != oom_usage_part::capacity || &u == available) continue;
                auto range = range_of(u);
                if (!range) complete = false;
                else rest = rest - *range;
            }
            if (complete) {
                bool const ok = rest.meets(*range_of(*available));
                add("capacity - allocations = available", ok, available->line,
                    "Capacity " + text(*r.capacity) + " less the lines above it leaves " + range_text(rest) + "; the report says " +
                        (ok ? "" : "otherwise: ") + std::string(std::string_view(available->name)) + " " +
                        text(*available->size) + ".");
            }
        }
    }
    if (r.requested) {
        if (auto const* reservable = detail::usage_named(r, oom_usage_part::other, "reservable"); reservable && reservable->size) {
            bool const ok = range_of(*r.requested).max > range_of(*reservable->size).min;
            add("requested > reservable", ok, r.requested->line,
                "The reservation of " + text(*r.requested) + (ok ? " exceeds" : " does not exceed") + " the " +
                    text(*reservable->size) + " reservable" + (ok ? ", which is why it failed." : "."));
        }
    }
    if (r.kind == oom_report_kind::gpu) {
        basic_oom_stat<P> const* total = nullptr;
        for (auto const& st : r.stats) {
            if (std::string_view(st.name) == "total allocation") total = &st;
        }
        if (total && !std::string_view(total->size.text).empty()) {
            for (auto const& st : r.stats) {
                std::string_view const name(st.name);
                if (&st == total || std::string_view(st.size.text).empty() || name.find("allocation") == std::string_view::npos) continue;
                bool const ok = range_of(st.size).min <= range_of(total->size).max;
                add(std::string(name) + " <= total allocation", ok, st.size.line,
                    std::string(name) + " " + text(st.size) + (ok ? " is within" : " exceeds") + " the total allocation " +
                        text(total->size) + ".");
            }
        }
    }

    // The share of the program that the listed entries account for.
    oom_entries_share share;
    for (auto const& e : r.entries) {
        if (!e.size) continue;
        ++share.entries;
        share.listed_bytes += e.size->size.nominal_bytes;
    }
    if (share.entries > 0) {
        if (r.program_requirement) {
            share.of = "program requirement";
            share.of_bytes = r.program_requirement->size.nominal_bytes;
        } else if (program_line && program_line->size) {
            share.of = "program";
            share.of_bytes = program_line->size->size.nominal_bytes;
        } else {
            for (auto const& st : r.stats) {
                if (std::string_view(st.name) == "total allocation" && !std::string_view(st.size.text).empty()) {
                    share.of = "total allocation";
                    share.of_bytes = st.size.size.nominal_bytes;
                }
            }
        }
        if (share.of_bytes > 0) out.share = share;
    }
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_DUMP_OOM_REPORT_HPP
