// hlomem/parser/oom_lines.hpp: the lines of a log that out-of-memory reports are pasted from, as
// the OOM grammar (parser/oom_report.hpp) sees them: the log header in front of a line, what the
// text of a line is (a field, a `====` line, an entry's first line, a blank line or anything
// else), and whether a report goes on after a line. No Spirit: plain scans on `char const*`.
//
//   E1121 10:03:12.123456 12345 pjrt_stream_executor_client.cc:2826]      (glog, absl)
//   2024-05-01 10:00:00.000000: W external/xla/xla/service/gpu/gpu_compiler.cc:1573]  (TensorFlow)
#ifndef HLOMEM_PARSER_OOM_LINES_HPP
#define HLOMEM_PARSER_OOM_LINES_HPP

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <hlomem/detail/scan.hpp>
#include <hlomem/dump/oom_report.hpp>

namespace hlomem::parser::oom {

using ::hlomem::detail::is_blank;
using ::hlomem::detail::is_digit;
using ::hlomem::detail::next_line;
using ::hlomem::detail::skip_blanks;
using ::hlomem::detail::skip_digits;

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
    if (end - p >= 11 && is_digit(p[0]) && is_digit(p[1]) && is_digit(p[2]) && is_digit(p[3]) && p[4] == '-' &&
        is_digit(p[5]) && is_digit(p[6]) && p[7] == '-' && is_digit(p[8]) && is_digit(p[9]) && (p[10] == ' ' || p[10] == 'T')) {
        if (char const* t = time_end(p + 11)) {
            char const* q = skip_blanks(t, end);
            if (end - q >= 2 && (*q == 'I' || *q == 'W' || *q == 'E' || *q == 'F') && is_blank(q[1])) {
                if (char const* out = source_location_end(q + 1, end, false)) return out;
            }
        }
    }
    return p;
}

/// Where the text of the line starting at `line` begins: after indentation, a log header and
/// more indentation.
inline char const* line_content(char const* line, char const* end) {
    return skip_blanks(skip_log_header(skip_blanks(line, end), end), end);
}

inline bool starts_with(char const* p, char const* end, std::string_view s) {
    return static_cast<std::size_t>(end - p) >= s.size() && std::string_view(p, s.size()) == s;
}

/// The field names of both report kinds, as printed.
inline constexpr std::string_view known_fields[] = {
    "Size:", "Operator:", "Shape:", "Unpadded size:", "Extra memory due to padding:", "XLA label:", "XLA Label:",
    "Allocation type:", "Entry Parameter Subshape:",
};

/// `2. Size:` (TPU).
inline bool is_tpu_entry_head(char const* p, char const* end) {
    char const* q = skip_digits(p, end);
    if (q == p || q == end || *q != '.') return false;
    return starts_with(skip_blanks(q + 1, end), end, "Size:");
}

/// `Buffer 2:` (GPU).
inline bool is_gpu_entry_head(char const* p, char const* end) {
    if (!starts_with(p, end, "Buffer")) return false;
    char const* q = skip_blanks(p + 6, end);
    char const* digits = q;
    q = skip_digits(q, end);
    return q != digits && q < end && *q == ':';
}

/// What the text of a line (from line_content) is, for a report of `kind`.
enum class line_kind : std::uint8_t { blank, field, separator, entry_head, other };

inline line_kind classify(char const* content, char const* end, oom_report_kind kind) {
    if (content == end || *content == '\n' || *content == '\r') return line_kind::blank;
    if (*content == '=') return line_kind::separator;
    for (auto field : known_fields) {
        if (starts_with(content, end, field)) return line_kind::field;
    }
    bool const head = kind == oom_report_kind::tpu ? is_tpu_entry_head(content, end) : is_gpu_entry_head(content, end);
    return head ? line_kind::entry_head : line_kind::other;
}

/// True when, after the line holding `p`, the next non-blank line belongs to an entry of a
/// `kind` report (a known field, a `====` line, an entry's first line): the report goes on.
inline bool report_continues_after(char const* p, char const* end, oom_report_kind kind) {
    for (char const* line = next_line(p, end); line < end; line = next_line(line, end)) {
        line_kind const k = classify(line_content(line, end), end, kind);
        if (k != line_kind::blank) return k != line_kind::other;
    }
    return false;
}

}  // namespace hlomem::parser::oom

#endif  // HLOMEM_PARSER_OOM_LINES_HPP
