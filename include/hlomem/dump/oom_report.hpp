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
// The parser (parser/oom_report.hpp) finds every such block in a longer log and fills the types
// below; `analyze` recomputes each entry. Reported sizes agree with a recomputed byte count when
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

    std::int64_t number = 0;  ///< as printed, 1-based
    std::size_t line = 0;     ///< of `2. Size:` or `Buffer 2:`
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

/// One report block found in the input.
template <class P = default_policy>
struct basic_oom_report {
    oom_report_kind kind = oom_report_kind::tpu;
    std::size_t line = 0;                       ///< its first line
    typename P::string_type memory_space;       ///< TPU: `hbm` of `Largest program allocations in hbm:`
    std::vector<basic_oom_stat<P>> stats;       ///< GPU `BufferAssignment stats:`
    bool has_peak_buffers = false;              ///< GPU: `Peak buffers:` was read
    std::vector<basic_oom_entry<P>> entries;
    std::vector<diagnostic> notes;
    /// The input ends or other text starts inside an entry, or before the first entry.
    bool cut_off = false;
};

/// Every report block of one input, in order.
template <class P = default_policy>
struct basic_oom_log {
    std::string file;
    std::vector<basic_oom_report<P>> reports;

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
        a.explanation.push_back(entry.shape_text.empty() ? "The entry has no shape (the report is cut off before it): nothing to recompute."
                                                         : "The entry's shape is cut off: nothing to recompute.");
        return a;
    }
    a.has_shape = true;
    a.shape = *entry.shape;
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

}  // namespace hlomem

#endif  // HLOMEM_DUMP_OOM_REPORT_HPP
