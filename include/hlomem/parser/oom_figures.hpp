// hlomem/parser/oom_figures.hpp: the figures of an out-of-memory report as the reader
// (parser/oom_report.hpp) finds them in a line: a printed size (`570.00M`, `6.00MiB`, `-2.55G`),
// an exact byte count in parentheses, a line of figures (`reserved        530.00M`), and a field
// of an entry that hlomem does not know (`Source file: ...`).
#ifndef HLOMEM_PARSER_OOM_FIGURES_HPP
#define HLOMEM_PARSER_OOM_FIGURES_HPP

#include <cctype>
#include <cstdint>
#include <optional>
#include <string_view>

#include <hlomem/core/printed_size.hpp>
#include <hlomem/detail/checked.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/oom_lines.hpp>

namespace hlomem::parser::oom {

/// A printed size at `p` (after blanks): the size and its text, or nullopt. `-2.55G` reads with
/// `negative` set when `allow_negative`.
struct size_token {
    printed_size size;
    std::string_view text;
    bool negative = false;
    char const* end = nullptr;
};

inline std::optional<size_token> read_size(char const* p, char const* end, bool allow_negative = false) {
    p = skip_blanks(p, end);
    size_token t;
    char const* q = p;
    if (allow_negative && q < end && *q == '-') {
        t.negative = true;
        ++q;
    }
    char const* stop = scan_printed_size(q, end, t.size);
    if (!stop) return std::nullopt;
    t.text = std::string_view(p, static_cast<std::size_t>(stop - p));
    t.end = stop;
    return t;
}

/// `(     554,696,704 bytes)` or `(  -2,735,391,744 bytes)` at `p`: the byte count, or nullopt.
inline std::optional<std::int64_t> read_exact_bytes(char const* p, char const* end) {
    p = skip_blanks(p, end);
    if (p == end || *p != '(') return std::nullopt;
    p = skip_blanks(p + 1, end);
    bool negative = false;
    if (p < end && *p == '-') {
        negative = true;
        ++p;
    }
    std::int64_t v = 0;
    bool any = false;
    for (; p < end && (is_digit(*p) || *p == ','); ++p) {
        if (*p == ',') continue;
        if (!::hlomem::detail::checked_mul(v, std::int64_t{10}, &v) || !::hlomem::detail::checked_add(v, std::int64_t{*p - '0'}, &v)) {
            return std::nullopt;
        }
        any = true;
    }
    p = skip_blanks(p, end);
    if (!any || !starts_with(p, end, "bytes)")) return std::nullopt;
    return negative ? -v : v;
}

/// A line of figures: `reserved        530.00M`, `HLO temp 14.31G (100.0% utilization...)`,
/// `arguments       unknown size`, `Top-of-Memory reserved:  529.00M (554,696,704 bytes)`,
/// `total fragmentation:  0B (0.00%)`: a name (words, possibly with parentheses), then a size.
struct usage_line {
    std::string_view name;
    std::optional<size_token> size;
    bool unknown = false;                 ///< `unknown size`
    std::optional<std::int64_t> exact;
    std::string_view detail;              ///< what follows the size
};

inline std::optional<usage_line> read_usage_line(char const* content, char const* end) {
    if (content == end || !(std::isalpha(static_cast<unsigned char>(*content)))) return std::nullopt;
    usage_line out;
    auto name_up_to = [&](char const* q) {
        char const* n = q;
        while (n > content && is_blank(n[-1])) --n;
        if (n > content && n[-1] == ':') --n;
        return std::string_view(content, static_cast<std::size_t>(n - content));
    };
    for (char const* q = content; q < end; ++q) {
        if (!is_blank(*q)) continue;
        char const* token = skip_blanks(q, end);
        if (token == end) break;
        if (starts_with(token, end, "unknown")) {
            out.name = name_up_to(q);
            out.unknown = true;
            return out.name.empty() ? std::nullopt : std::optional<usage_line>(out);
        }
        if (auto s = read_size(token, end, true)) {
            if (s->end < end && !is_blank(*s->end) && *s->end != '(' && *s->end != ',') continue;
            out.name = name_up_to(q);
            if (out.name.empty() || out.name.size() > 64) return std::nullopt;
            out.size = s;
            out.exact = read_exact_bytes(s->end, end);
            char const* d = skip_blanks(s->end, end);
            out.detail = std::string_view(d, static_cast<std::size_t>(end - d));
            return out;
        }
        q = token - 1;
    }
    // A name alone (`overlays`): its value was not copied.
    for (char const* q = content; q < end; ++q) {
        if (!std::isalnum(static_cast<unsigned char>(*q)) && !is_blank(*q) && *q != '_' && *q != '-') return std::nullopt;
    }
    if (end - content > 40) return std::nullopt;
    out.name = std::string_view(content, static_cast<std::size_t>(end - content));
    return out;
}

/// `Name: value`, a name of up to three words of letters, the first capitalized (`Source file:
/// /home/user/model.py:212`): a field of an entry that hlomem does not know. Returns the colon
/// after the name; nullptr when the line is not one (`Execution of replica 0 failed: ...`).
inline char const* unknown_field_end(char const* p, char const* end) {
    if (p == end || !std::isupper(static_cast<unsigned char>(*p))) return nullptr;
    char const* q = p;
    int words = 1;
    while (q < end && q - p < 40 && (std::isalpha(static_cast<unsigned char>(*q)) || *q == ' ' || *q == '_')) {
        if (*q == ' ') ++words;
        ++q;
    }
    if (q == end || *q != ':' || q[-1] == ' ' || words > 3) return nullptr;
    if (q + 1 < end && !is_blank(q[1])) return nullptr;
    return q;
}

}  // namespace hlomem::parser::oom

#endif  // HLOMEM_PARSER_OOM_FIGURES_HPP
