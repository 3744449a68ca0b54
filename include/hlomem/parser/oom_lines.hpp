// hlomem/parser/oom_lines.hpp: the lines of a log or an issue that out-of-memory reports are
// pasted from, as the OOM reader (parser/oom_report.hpp) sees them: what stands in front of the
// text of a line (log headers, quote markers, colour codes, process tags) and what the text of a
// line is. No Spirit: plain scans on `char const*`.
//
//   E1121 10:03:12.123456 12345 pjrt_stream_executor_client.cc:2826]      (glog, absl)
//   2024-05-01 10:00:00.000000: W external/xla/xla/service/gpu/gpu_compiler.cc:1573]  (TensorFlow)
//   2020-05-04 09:05:40.721128: E    1578 tensorflow/compiler/xla/xla_client/xla_util.cc:76]
//   > (a markdown quote)   [rank3]:   [error]   (pid=123)   (MeshHostWorker pid=489)
//   71[2m[36m   (a viewer's line number before a colour code whose escape byte was lost)
//   INFO:absl:   ERROR:root:   (Python logging's default format)
#ifndef HLOMEM_PARSER_OOM_LINES_HPP
#define HLOMEM_PARSER_OOM_LINES_HPP

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include <hlomem/detail/scan.hpp>
#include <hlomem/dump/oom_report.hpp>

namespace hlomem::parser::oom {

using ::hlomem::detail::is_blank;
using ::hlomem::detail::is_digit;
using ::hlomem::detail::next_line;
using ::hlomem::detail::skip_blanks;
using ::hlomem::detail::skip_digits;

inline bool starts_with(char const* p, char const* end, std::string_view s) {
    return static_cast<std::size_t>(end - p) >= s.size() && std::string_view(p, s.size()) == s;
}

/// After the time of a log header: blanks, optionally a thread id and blanks (glog), then the
/// source location `file.cc:123]` and one optional space. nullptr when it is not there.
inline char const* source_location_end(char const* p, char const* end, bool thread_id) {
    char const* q = skip_blanks(p, end);
    if (q == p) return nullptr;
    if (thread_id) {
        char const* digits = q;
        q = skip_digits(q, end);
        if (q == digits || q == end || !is_blank(*q)) return nullptr;
        q = skip_blanks(q, end);
    }
    char const* file = q;
    while (q < end && *q != ']' && !is_blank(*q) && *q != '\n') ++q;
    if (q == end || *q != ']') return nullptr;
    char const* colon = q;
    while (colon > file && is_digit(colon[-1])) --colon;
    if (colon == q || colon - file < 2 || colon[-1] != ':') return nullptr;
    ++q;
    return q < end && *q == ' ' ? q + 1 : q;
}

/// The log header at `p`, if any; returns where the message starts (p when there is none).
///   glog/absl:   `E1121 10:03:12.123456 12345 file.cc:2826] `   level, MMDD, time, thread, file:line
///   TensorFlow:  `2024-05-01 10:00:00.000000: W external/xla/xla/pjrt/file.cc:123] `
/// Lenient on the digits (absl may print more than four after the level, or epoch seconds as time).
inline char const* skip_log_header(char const* p, char const* end) {
    auto time_end = [&](char const* q) {
        char const* start = q;
        while (q < end && (is_digit(*q) || *q == ':' || *q == '.')) ++q;
        return q == start ? nullptr : q;
    };
    if (p < end && (*p == 'I' || *p == 'W' || *p == 'E' || *p == 'F')) {
        char const* q = skip_digits(p + 1, end);
        if (q - p >= 5 && q < end && is_blank(*q)) {
            if (char const* t = time_end(skip_blanks(q, end))) {
                if (char const* out = source_location_end(t, end, true)) return out;
            }
        }
    }
    // Older TensorFlow glog without the date: `I tensorflow/core/common_runtime/bfc_allocator.cc:643] `.
    if (end - p >= 2 && (*p == 'I' || *p == 'W' || *p == 'E' || *p == 'F') && p[1] == ' ') {
        if (char const* out = source_location_end(p + 1, end, false)) return out;
    }
    if (end - p >= 11 && is_digit(p[0]) && is_digit(p[1]) && is_digit(p[2]) && is_digit(p[3]) && p[4] == '-' &&
        is_digit(p[5]) && is_digit(p[6]) && p[7] == '-' && is_digit(p[8]) && is_digit(p[9]) && (p[10] == ' ' || p[10] == 'T')) {
        if (char const* t = time_end(p + 11)) {
            char const* q = skip_blanks(t, end);
            if (end - q >= 2 && (*q == 'I' || *q == 'W' || *q == 'E' || *q == 'F') && is_blank(q[1])) {
                // Older TensorFlow builds print the thread id too: `: E    1578 file.cc:76]`.
                if (char const* out = source_location_end(q + 1, end, false)) return out;
                if (char const* out = source_location_end(q + 1, end, true)) return out;
            }
        }
    }
    return p;
}

/// A terminal colour code at `p`, with its escape byte or without it (GitHub drops the byte:
/// `[2m[36m`, `[0m`); returns its end, or nullptr.
inline char const* colour_code_end(char const* p, char const* end) {
    char const* q = p;
    if (q < end && *q == '\x1b') ++q;
    if (q == end || *q != '[') return nullptr;
    ++q;
    char const* digits = q;
    while (q < end && (is_digit(*q) || *q == ';')) ++q;
    if (q == digits || q == end || *q != 'm') return nullptr;
    return q + 1;
}

/// A tag that a launcher puts in front of every line: `[rank3]:`, `[error]`, `[1,0]<stderr>:`,
/// `(pid=123)`, `(MeshHostWorker pid=489)`, `INFO:absl:`; returns its end, or nullptr. A tag is
/// short, has no blank inside brackets, and is followed by a blank or the end of the line.
inline char const* launcher_tag_end(char const* p, char const* end) {
    // A tag ends at a colon (`[rank3]:`, `[1,0]<stderr>:`, which may be glued to the next tag:
    // `[1,0]<stderr>:ERROR:root:`), or before a blank, a colour code or another tag.
    auto followed = [&](char const* q) -> char const* {
        if (starts_with(q, end, "<stderr>:") || starts_with(q, end, "<stdout>:")) return q + 9;
        if (q < end && *q == ':') return q + 1;
        return q == end || is_blank(*q) || *q == '\n' || *q == '\r' || *q == '[' || *q == '(' || *q == '\x1b' ? q : nullptr;
    };
    if (p < end && *p == '[') {
        char const* q = p + 1;
        while (q < end && q - p < 40 && *q != ']' && *q != '[' && !is_blank(*q) && *q != '\n') ++q;
        if (q == end || *q != ']' || q == p + 1) return nullptr;
        return followed(q + 1);
    }
    if (p < end && *p == '(') {
        char const* q = p + 1;
        bool pid = false;
        while (q < end && q - p < 120 && *q != ')' && *q != '(' && *q != '\n') {
            if (starts_with(q, end, "pid=")) pid = true;
            ++q;
        }
        if (!pid || q == end || *q != ')') return nullptr;
        return followed(q + 1);
    }
    // Python logging's default `LEVEL:logger:`.
    for (std::string_view level : {"DEBUG:", "INFO:", "WARNING:", "ERROR:", "CRITICAL:"}) {
        if (!starts_with(p, end, level)) continue;
        char const* q = p + level.size();
        while (q < end && (std::isalnum(static_cast<unsigned char>(*q)) || *q == '_' || *q == '.')) ++q;
        if (q < end && *q == ':') return q + 1;
    }
    return nullptr;
}

/// Where the text of the line starting at `line` begins: after whatever a log, a launcher, a
/// terminal or a markdown quote put in front of it (any of the forms at the top of this file,
/// in any order, repeated), and after indentation.
inline char const* line_content(char const* line, char const* end) {
    char const* p = skip_blanks(line, end);
    for (int round = 0; round < 16; ++round) {
        char const* q = skip_blanks(skip_log_header(p, end), end);
        if (q < end && *q == '>') q = skip_blanks(q + 1, end);  // a markdown quote
        if (char const* c = colour_code_end(q, end)) q = c;
        if (char const* t = launcher_tag_end(q, end)) q = t;
        // A viewer's line number glued to a colour code: `71[2m`.
        char const* digits_end = skip_digits(q, end);
        if (digits_end != q && colour_code_end(digits_end, end)) q = digits_end;
        q = skip_blanks(q, end);
        if (q == p) break;
        p = q;
    }
    return p;
}


/// The fields of an entry, as printed.
enum class field_name : std::uint8_t {
    size, unpadded_size, padding_size, shape, parameter_shape, operator_text, tpu_label, gpu_label, allocation_type,
};

struct known_field {
    std::string_view text;
    field_name name;
};

inline constexpr known_field known_fields[] = {
    {"Size:", field_name::size},
    {"Unpadded size:", field_name::unpadded_size},
    {"Extra memory due to padding:", field_name::padding_size},
    {"Shape:", field_name::shape},
    {"Entry Parameter Subshape:", field_name::parameter_shape},
    {"Operator:", field_name::operator_text},
    {"XLA label:", field_name::tpu_label},
    {"XLA Label:", field_name::gpu_label},
    {"Allocation type:", field_name::allocation_type},
};

/// What the text of a line is. The report headers and summaries are XLA's (TPU runtime and
/// BufferAssignment::ToVerboseString); `other` is anything else, read again by the reader where
/// a report expects more (a usage line, a wrapped field, a field hlomem does not know).
enum class text_kind : std::uint8_t {
    blank,
    fence,               ///< a markdown code fence: "```", "~~~"
    separator,           ///< `==========================` (3 or more)
    tpu_entry_head,      ///< `17. Size: 64.00M` (also `17\. Size:`, markdown's escaped list number)
    gpu_entry_head,      ///< `Buffer 13:`
    field,               ///< one of known_fields
    tpu_list,            ///< `Largest program allocations in hbm:`
    gpu_header,          ///< `BufferAssignment OOM Debugging.`
    gpu_stats,           ///< `BufferAssignment stats:`
    gpu_peak,            ///< `Peak buffers:`
    gpu_allocate,        ///< `... Out of memory while trying to allocate 6291456 bytes.` (anywhere in the line)
    ran_out,             ///< `... Ran out of memory in memory space hbm. Used ...` (anywhere in the line)
    used_tail,           ///< `Used 21.95G of 15.48G hbm.` or `Exceeded hbm capacity by 6.47G.` opening a line
    reservation,         ///< `... Attempting to reserve 3.95G at the bottom of memory. ...` (anywhere)
    capacity,            ///< `HBM capacity 8.00G:`
    total_usage,         ///< `Total hbm usage >= 22.47G:`
    program_requirement, ///< `Program hbm requirement 15.03G:`
    heap_status,         ///< `Heap allocator status:`
    persistent,          ///< `Persistent allocations include some or all of:`
    output_size,         ///< `Output size 0B; shares 0B with arguments.` / `Output size unknown.`
    rule,                ///< `------------` under the capacity lines
    // One-line messages (parser/oom_messages.hpp), found anywhere in a line:
    device_allocation,   ///< `Error allocating device buffer: Attempting to allocate 8.00M. ...` (E0100)
    sparsecore,          ///< `TPU TensorCore Hbm usage: 34.82G, SparseCore Hbm usage 174.10G, ...` (E1000)
    runtime_allocation,  ///< `Allocation (size=107374182400) would exceed memory (size=17179869184) :: ...`
    utilization,         ///< `1.3% utilization: Unpadded (294.49M) Padded (23.01G)` opening a line
    rematerialization,   ///< `Can't reduce memory use below 13.58GiB (14583876403 bytes) by rematerialization; ...`
    hlo_temporaries,     ///< `total memory required for HLO temporaries (X) exceeds available HBM (Y)`
    // The BFC allocator's log (xla/tsl/framework/bfc_allocator.cc):
    bfc_header,          ///< `Allocator (GPU_0_bfc) ran out of memory trying to allocate 84.50MiB` (anywhere)
    bfc_bin,             ///< `Bin (256): Total Chunks: 94, Chunks in use: 94. ...`
    bfc_heading,         ///< `Bin for 392.00MiB was 256.00MiB, Chunk State:`, `Next region of size 8589934592`,
                         ///< `Summary of in-use Chunks by size:`
    bfc_chunk,           ///< `InUse at 703b12d00 of size 256 next 275`, `Free at ...`
    bfc_chunk_sizes,     ///< `9 Chunks of size 256 totalling 2.2KiB`
    bfc_sum,             ///< `Sum Total of in-use chunks: 4.16GiB`
    bfc_region,          ///< `total_region_allocated_bytes_: 8590983168 memory_limit_: ... available bytes: ...`
    bfc_stats,           ///< `Stats:`
    bfc_stat,            ///< `Limit:                 10562958132` (and InUse, MaxInUse, ...)
    bfc_map,             ///< `*****_____*****`: the memory map BFC prints last
    bfc_pool,            ///< `Allocator memory summary: rounded request 1.00GiB, total free in pool 394.00MiB, ...`
    other,
};

/// A classified line: its kind, the field for `field`, the number of an entry head, and where
/// the rest of the text starts (after the field name, the head, or the key phrase).
struct classified {
    text_kind kind = text_kind::other;
    field_name field = field_name::size;
    std::int64_t number = 0;
    char const* rest = nullptr;
};

/// `17. Size:` / `17\. Size:`: the number, and where the size starts; nullptr when not a head.
inline char const* tpu_entry_head_end(char const* p, char const* end, std::int64_t& number) {
    char const* q = skip_digits(p, end);
    if (q == p || q - p > 9) return nullptr;
    number = 0;
    for (char const* d = p; d < q; ++d) number = number * 10 + (*d - '0');
    if (q < end && *q == '\\') ++q;
    if (q == end || *q != '.') return nullptr;
    q = skip_blanks(q + 1, end);
    return starts_with(q, end, "Size:") ? q + 5 : nullptr;
}

/// `Buffer 13:`: the number; nullptr when not a head.
inline char const* gpu_entry_head_end(char const* p, char const* end, std::int64_t& number) {
    if (!starts_with(p, end, "Buffer")) return nullptr;
    char const* q = skip_blanks(p + 6, end);
    char const* digits = q;
    q = skip_digits(q, end);
    if (q == digits || q - digits > 9 || q == end || *q != ':') return nullptr;
    number = 0;
    for (char const* d = digits; d < q; ++d) number = number * 10 + (*d - '0');
    return q + 1;
}

/// Where `phrase` occurs in [p, end), or nullptr.
inline char const* find_in(char const* p, char const* end, std::string_view phrase) {
    std::string_view const text(p, static_cast<std::size_t>(end - p));
    auto const at = text.find(phrase);
    return at == std::string_view::npos ? nullptr : p + at;
}

/// `Total hbm usage >=` / `Program hbm requirement`: `first WORD second`, the word a memory space.
inline char const* space_phrase_end(char const* p, char const* end, std::string_view first, std::string_view second) {
    if (!starts_with(p, end, first)) return nullptr;
    char const* q = p + first.size();
    char const* word = q;
    while (q < end && (std::isalnum(static_cast<unsigned char>(*q)) || *q == '_')) ++q;
    if (q == word || !starts_with(q, end, second)) return nullptr;
    return q + second.size();
}

/// The names AllocatorStats::DebugString prints (xla/tsl/framework/allocator.cc), each as
/// `Name: <number>`.
inline constexpr std::string_view bfc_stat_names[] = {"Limit", "InUse", "MaxInUse", "NumAllocs", "MaxAllocSize", "Reserved",
                                                     "PeakReserved", "PeakAllocated", "LargestFreeBlock"};

/// `Limit:                 10562958132` (newer XLA: `Limit:   59.38GiB`): the name's length, or 0.
inline std::size_t bfc_stat_name_length(char const* p, char const* end) {
    for (std::string_view name : bfc_stat_names) {
        if (!starts_with(p, end, name) || p + name.size() == end || p[name.size()] != ':') continue;
        char const* q = skip_blanks(p + name.size() + 1, end);
        if (q == end || !is_digit(*q)) continue;
        while (q < end && (is_digit(*q) || *q == '.')) ++q;
        while (q < end && std::isalpha(static_cast<unsigned char>(*q))) ++q;  // a unit: `GiB`, `B`
        if (skip_blanks(q, end) == end) return name.size();
    }
    return 0;
}

/// The one-line messages and the BFC allocator's lines; `rest` is set to where the figures start.
inline std::optional<text_kind> classify_message(char const* content, char const* end, char const*& rest) {
    auto found = [&](std::string_view phrase) -> bool {
        char const* at = find_in(content, end, phrase);
        if (at) rest = at + phrase.size();
        return at != nullptr;
    };
    if (found("Error allocating device buffer: Attempting to allocate ")) return text_kind::device_allocation;
    if (found("TensorCore Hbm usage: ")) return text_kind::sparsecore;
    if (found("Allocation (size=")) return text_kind::runtime_allocation;
    if (found("Can't reduce memory use below ")) return text_kind::rematerialization;
    if (found("memory required for HLO temporaries (")) return text_kind::hlo_temporaries;
    if (found("out of memory trying to allocate ")) return text_kind::bfc_header;
    rest = content;
    char const* digits = skip_digits(content, end);
    if (digits != content) {
        char const* q = digits < end && *digits == '.' ? skip_digits(digits + 1, end) : digits;
        if (starts_with(q, end, "% utilization: Unpadded (")) return text_kind::utilization;
        if (starts_with(digits, end, " Chunks of size ")) return text_kind::bfc_chunk_sizes;
    }
    if (starts_with(content, end, "Bin (") && find_in(content, end, "Total Chunks:")) return text_kind::bfc_bin;
    if (starts_with(content, end, "Bin for ") || starts_with(content, end, "Next region of size ") ||
        starts_with(content, end, "Summary of in-use Chunks by size")) {
        return text_kind::bfc_heading;
    }
    if (starts_with(content, end, "InUse at ") || starts_with(content, end, "Free at ") || starts_with(content, end, "Free  at ")) {
        return text_kind::bfc_chunk;
    }
    // Newer XLA's lines around the dump: what to try, the headings, the pool's summary.
    for (std::string_view heading : {"Current allocation summary follows", "If this is caused by memory fragmentation",
                                     "BFCAllocator dump for ", "Spatial partitioning summary", "Allocator region growth hint"}) {
        if (starts_with(content, end, heading)) return text_kind::bfc_heading;
    }
    if (starts_with(content, end, "Allocator memory summary: ")) return text_kind::bfc_pool;
    if (starts_with(content, end, "Sum Total of in-use chunks: ")) return text_kind::bfc_sum;
    if (starts_with(content, end, "total_region_allocated_bytes_: ")) return text_kind::bfc_region;
    if (starts_with(content, end, "Stats:") && skip_blanks(content + 6, end) == end) return text_kind::bfc_stats;
    if (bfc_stat_name_length(content, end) != 0) return text_kind::bfc_stat;
    if (*content == '*' || *content == '_') {
        char const* q = content;
        while (q < end && (*q == '*' || *q == '_')) ++q;
        if (q == end && end - content >= 8) return text_kind::bfc_map;
    }
    return std::nullopt;
}

/// What the text [content, end) of a line is (content from line_content, end its line end).
inline classified classify(char const* content, char const* end) {
    classified out;
    out.rest = content;
    auto is = [&](text_kind k, char const* rest) {
        out.kind = k;
        out.rest = rest;
        return out;
    };
    if (content == end) return is(text_kind::blank, content);
    if (starts_with(content, end, "```") || starts_with(content, end, "~~~")) return is(text_kind::fence, end);
    if (starts_with(content, end, "===")) {
        char const* q = content;
        while (q < end && *q == '=') ++q;
        if (skip_blanks(q, end) == end) return is(text_kind::separator, end);
    }
    if (starts_with(content, end, "---")) {
        char const* q = content;
        while (q < end && *q == '-') ++q;
        if (skip_blanks(q, end) == end) return is(text_kind::rule, end);
    }
    // A chunk of the BFC log's `Bin for X was Y, Chunk State:` (`Size: 1.00GiB | Requested Size:
    // 1.00GiB | in_use: 0 | ...`), not an entry's `Size:` field.
    if (starts_with(content, end, "Size: ") && find_in(content, end, " | Requested Size: ")) return is(text_kind::bfc_heading, content);
    if (char const* r = tpu_entry_head_end(content, end, out.number)) return is(text_kind::tpu_entry_head, r);
    if (char const* r = gpu_entry_head_end(content, end, out.number)) return is(text_kind::gpu_entry_head, r);
    for (auto const& f : known_fields) {
        if (starts_with(content, end, f.text)) {
            out.field = f.name;
            return is(text_kind::field, content + f.text.size());
        }
    }
    if (starts_with(content, end, "Largest program allocations in ")) return is(text_kind::tpu_list, content + 31);
    if (starts_with(content, end, "BufferAssignment OOM Debugging.")) return is(text_kind::gpu_header, content + 31);
    if (starts_with(content, end, "BufferAssignment stats:")) return is(text_kind::gpu_stats, content + 23);
    if (starts_with(content, end, "Peak buffers:")) return is(text_kind::gpu_peak, content + 13);
    if (starts_with(content, end, "Used ") || starts_with(content, end, "Exceeded ")) return is(text_kind::used_tail, content);
    if (char const* r = space_phrase_end(content, end, "Total ", " usage >=")) return is(text_kind::total_usage, r);
    if (char const* r = space_phrase_end(content, end, "Program ", " requirement")) return is(text_kind::program_requirement, r);
    if (starts_with(content, end, "Heap allocator status:")) return is(text_kind::heap_status, content + 22);
    if (starts_with(content, end, "Persistent allocations include")) return is(text_kind::persistent, content + 30);
    if (starts_with(content, end, "Output size ")) return is(text_kind::output_size, content + 12);
    if (char const* r = space_phrase_end(content, end, "", " capacity ")) {
        if (r > content + 10) return is(text_kind::capacity, r);
    }
    if (auto k = classify_message(content, end, out.rest)) {
        out.kind = *k;
        return out;
    }
    // Phrases that open a summary wherever they stand in a line (after `RESOURCE_EXHAUSTED: `,
    // inside quotes or a sentence).
    if (char const* at = find_in(content, end, "Ran out of memory in memory space ")) return is(text_kind::ran_out, at + 34);
    if (char const* at = find_in(content, end, "Attempting to reserve ")) return is(text_kind::reservation, at + 22);
    if (char const* at = find_in(content, end, "Out of memory while trying to allocate ")) return is(text_kind::gpu_allocate, at + 39);
    return out;
}

}  // namespace hlomem::parser::oom

#endif  // HLOMEM_PARSER_OOM_LINES_HPP
