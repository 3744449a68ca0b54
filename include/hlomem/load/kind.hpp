// hlomem/load/kind.hpp: which XLA text a file holds, told from its content alone.
//
// XLA names its dumps (`module-buffer-assignment.txt`, `module-live-range.txt`, ...), but a dump
// that was renamed, pasted into an issue or piped in still says what it is in its first line:
//
//   BufferAssignment:                   a buffer-assignment dump (BufferAssignment::ToString)
//   HloLiveRange (max 6):               live ranges on their own (HloLiveRange::ToString)
//   Total bytes used: 1024 (1.0KiB)     the older memory-usage report (BufferAssignment::ToVerboseString),
//                                       or, with `Used values:` next, the second half of a dump
//                                       that JAX 0.11's XLA writes in two files
//   Memory Space: default (color=0)     the newer memory-usage report (JAX 0.11's XLA)
//   HloModule name, is_scheduled=true   one HLO module, or several one after the other
//   id,lower,upper,size                 a MiniMalloc CSV problem or solution (any column order)
//
// and an out-of-memory report sits anywhere in a longer log, behind log headers:
//
//   Largest program allocations in hbm:   TPU (its runtime's allocation report)
//   BufferAssignment OOM Debugging.       GPU (BufferAssignment stats and Peak buffers)
#ifndef HLOMEM_LOAD_KIND_HPP
#define HLOMEM_LOAD_KIND_HPP

#include <cstdint>
#include <string_view>

namespace hlomem {

/// Which XLA text an input holds. The order is that of basic_loaded's model variant.
enum class dump_kind : std::uint8_t {
    buffer_assignment,    ///< `BufferAssignment:`
    live_range,           ///< `HloLiveRange (max N):` (a separate `-live-range.txt`)
    memory_usage_report,  ///< `Total bytes used:` first (the older `-memory-usage-report.txt`)
    hlo_module,           ///< `HloModule name, ...` (one module or several)
    oom_log,              ///< a log holding a TPU or GPU out-of-memory report
    minimalloc_csv,       ///< `id,lower,upper,size[,alignment][,offset]`
    unknown,
};

inline std::string_view to_string(dump_kind k) {
    switch (k) {
        case dump_kind::buffer_assignment: return "buffer_assignment";
        case dump_kind::live_range: return "live_range";
        case dump_kind::memory_usage_report: return "memory_usage_report";
        case dump_kind::hlo_module: return "hlo_module";
        case dump_kind::oom_log: return "oom_log";
        case dump_kind::minimalloc_csv: return "minimalloc_csv";
        case dump_kind::unknown: return "unknown";
    }
    return "unknown";
}

/// Whether `text` looks like a MiniMalloc CSV: its first line names columns, `lower` and `upper`
/// among them (a UTF-8 byte order mark before it is allowed).
inline bool looks_like_minimalloc_csv(std::string_view text) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    std::string_view const first_line = text.substr(0, text.find('\n'));
    return first_line.find("lower") != std::string_view::npos && first_line.find("upper") != std::string_view::npos &&
           first_line.find(',') != std::string_view::npos;
}

/// Whether `text` holds a line that opens an out-of-memory report anywhere, as the OOM reader
/// looks for them (parser/oom_report.hpp): TPU's `Largest program allocations in` and summaries
/// (`Ran out of memory in memory space`, `Attempting to reserve`), GPU's `BufferAssignment OOM
/// Debugging.`, `BufferAssignment stats:`, `Peak buffers:` or `Out of memory while trying to
/// allocate`.
inline bool looks_like_oom_log(std::string_view text) {
    for (std::string_view marker : {"Largest program allocations in", "BufferAssignment OOM Debugging.",
                                    "BufferAssignment stats:", "Peak buffers:", "Ran out of memory in memory space ",
                                    "Attempting to reserve ", "Out of memory while trying to allocate "}) {
        if (text.find(marker) != std::string_view::npos) return true;
    }
    return false;
}

/// The kind of `text`: by its first non-blank line, else a MiniMalloc CSV header, else an
/// out-of-memory report anywhere in it.
inline dump_kind detect_dump_kind(std::string_view text) {
    std::size_t p = 0;
    while (p < text.size() && (text[p] == ' ' || text[p] == '\t' || text[p] == '\r' || text[p] == '\n')) ++p;
    auto starts = [&](std::string_view s) { return text.substr(p, s.size()) == s; };
    if (starts("BufferAssignment:")) return dump_kind::buffer_assignment;
    if (starts("HloLiveRange")) return dump_kind::live_range;
    if (starts("Memory Space:")) return dump_kind::memory_usage_report;  // the newer layout
    if (starts("Total bytes used:")) {
        // The values half of a dump in two files (JAX 0.11's XLA, load/loaded.hpp) goes on with
        // `Used values:`; the older memory-usage report with `Allocations sorted by size:`.
        std::size_t const used = text.find("\nUsed values:"), sorted = text.find("\nAllocations sorted by size");
        return used < sorted ? dump_kind::buffer_assignment : dump_kind::memory_usage_report;
    }
    if (starts("HloModule ")) return dump_kind::hlo_module;
    if (looks_like_minimalloc_csv(text)) return dump_kind::minimalloc_csv;
    if (looks_like_oom_log(text)) return dump_kind::oom_log;
    return dump_kind::unknown;
}

}  // namespace hlomem

#endif  // HLOMEM_LOAD_KIND_HPP
