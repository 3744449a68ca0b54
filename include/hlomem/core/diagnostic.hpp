// hlomem/core/diagnostic.hpp: one type for every finding hlomem reports without failing — a
// soundness violation, an invalid placement, a dump that contradicts itself, a shape XLA would
// reject, a skipped line of a log, a construct an analysis models only approximately.
//
//   diagnostic{kind, severity, line, column, message, first, second, allocation}
//
//   error    overlap              <12 fusion.3 @0> [0, 512) and <14 copy.1 @0> [256, 768) share bytes
//   warning  inconsistent_dump    Total bytes used states 4170409 but the allocation sizes add up to 4170408
//   warning  partial_read         3:1: the report ends before its first entry
//
// A parse error is not a diagnostic: it stops the parse and is thrown or returned as
// hlomem::parse_error (error.hpp). A diagnostic is what a checker or a tolerant reader collects
// while it goes on. `kind` says which of the subject fields are set and what they index (values
// of a dump, buffers of a problem, dimensions of a shape, ...); `to_string(kind)` is the stable
// name that JSON output and tests use.
#ifndef HLOMEM_CORE_DIAGNOSTIC_HPP
#define HLOMEM_CORE_DIAGNOSTIC_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace hlomem {

/// How much a diagnostic matters: an error makes the thing checked wrong (an unsound assignment,
/// an invalid placement), a warning says the input contradicts itself or was read only in part,
/// a note says how something was understood.
enum class severity : std::uint8_t { note, warning, error };

inline std::string_view to_string(severity s) noexcept {
    switch (s) {
        case severity::note: return "note";
        case severity::warning: return "warning";
        case severity::error: return "error";
    }
    return "?";
}

/// What a diagnostic is about, grouped by the checker that reports it.
enum class diagnostic_kind : std::uint8_t {
    // memory/soundness.hpp (first, second: value indices; allocation: allocation index)
    overlap,                ///< two values (or buffers) live at the same time share bytes
    overrun,                ///< a value reaches past the end of its allocation
    undersized,             ///< a value is smaller than its shape needs
    color_mismatch,         ///< a value's color differs from its allocation's
    memory_space_mismatch,  ///< a value's color differs from the memory space S(n) of its shape
    unknown_live_range,     ///< a BufferLiveRange line names no value of the dump (first: its index)
    // placement/problem.hpp check_placement (first: buffer index; second: the other of an overlap)
    missing_offset,   ///< a buffer has no offset
    negative_offset,  ///< a buffer's offset is below zero
    misaligned,       ///< the offset is not a multiple of the buffer's alignment
    over_capacity,    ///< offset + size exceeds the capacity asked for
    // dump/ and memory/peak.hpp: what a dump states disagrees with what it lists
    inconsistent_dump,
    // core/shape_validate.hpp (first: the index within the part, e.g. the dimension)
    invalid_shape,
    // dump/oom_report.hpp and the readers of logs
    size_disagreement,  ///< a size a report prints is not the size its shape takes
    partial_read,       ///< text read only in part: cut off, a line missing, an unknown field
    // hlo/: the module breaks a rule XLA checks; the analysis goes on its own way (first: the
    // instruction or value, second: the computation)
    invalid_module,
    // what an analysis assumed because the input did not say (a module without a schedule)
    assumption,
};

inline std::string_view to_string(diagnostic_kind k) noexcept {
    switch (k) {
        case diagnostic_kind::overlap: return "overlap";
        case diagnostic_kind::overrun: return "overrun";
        case diagnostic_kind::undersized: return "undersized";
        case diagnostic_kind::color_mismatch: return "color-mismatch";
        case diagnostic_kind::memory_space_mismatch: return "memory-space-mismatch";
        case diagnostic_kind::unknown_live_range: return "unknown-live-range";
        case diagnostic_kind::missing_offset: return "missing-offset";
        case diagnostic_kind::negative_offset: return "negative-offset";
        case diagnostic_kind::misaligned: return "misaligned";
        case diagnostic_kind::over_capacity: return "over-capacity";
        case diagnostic_kind::inconsistent_dump: return "inconsistent-dump";
        case diagnostic_kind::invalid_shape: return "invalid-shape";
        case diagnostic_kind::size_disagreement: return "size-disagreement";
        case diagnostic_kind::partial_read: return "partial-read";
        case diagnostic_kind::invalid_module: return "invalid-module";
        case diagnostic_kind::assumption: return "assumption";
    }
    return "?";
}

/// One finding. Locations are 1-based; 0 means "no single place in the text".
///
///   out.push_back(make_diagnostic(diagnostic_kind::overrun, severity::error, "...").about(v, diagnostic::none, a).at(line));
struct diagnostic {
    static constexpr std::size_t none = static_cast<std::size_t>(-1);

    diagnostic_kind kind = diagnostic_kind::inconsistent_dump;
    hlomem::severity severity = hlomem::severity::error;
    std::size_t line = 0;    ///< line of the text the subject was read from
    std::size_t column = 0;  ///< byte column on that line
    std::string message;     ///< a sentence that names the subjects, without the location
    std::size_t first = none;       ///< the subject (what it indexes depends on `kind`)
    std::size_t second = none;      ///< the other subject of a pair
    std::size_t allocation = none;  ///< the allocation (or other container) concerned

    /// Sets the location of a diagnostic being built.
    diagnostic&& at(std::size_t at_line, std::size_t at_column = 0) && {
        line = at_line;
        column = at_column;
        return std::move(*this);
    }
    /// Sets the subjects of a diagnostic being built.
    diagnostic&& about(std::size_t subject, std::size_t other = none, std::size_t in_allocation = none) && {
        first = subject;
        second = other;
        allocation = in_allocation;
        return std::move(*this);
    }
};

inline diagnostic make_diagnostic(diagnostic_kind kind, severity level, std::string message) {
    diagnostic d;
    d.kind = kind;
    d.severity = level;
    d.message = std::move(message);
    return d;
}

}  // namespace hlomem

#endif  // HLOMEM_CORE_DIAGNOSTIC_HPP
