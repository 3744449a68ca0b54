// hlomem/dump/oom_entry_analysis.hpp: what one entry of an out-of-memory report (dump/oom_log.hpp)
// means: its sizes recomputed from its shape, each reported figure checked against them, where
// the padding comes from and what would remove it (`analyze`).
#ifndef HLOMEM_DUMP_OOM_ENTRY_ANALYSIS_HPP
#define HLOMEM_DUMP_OOM_ENTRY_ANALYSIS_HPP

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
#include <hlomem/dump/oom_log.hpp>

namespace hlomem {

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
    // The allocation of `Allocation (size=N) would exceed memory ...` is a TPU buffer: its shape
    // is sized as a TPU list's entry is.
    if (kind == oom_report_kind::runtime_allocation) kind = oom_report_kind::tpu;
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

}  // namespace hlomem

#endif  // HLOMEM_DUMP_OOM_ENTRY_ANALYSIS_HPP
