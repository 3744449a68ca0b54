// hlomem/hlo/metadata.hpp: the `metadata={...}` of one instruction's HLO text, as a
// buffer-assignment dump keeps it raw after ` from instruction: ` (logical_value::instruction_text):
//
//   %dynamic-update-slice.2 = f32[4,8]{1,0} dynamic-update-slice(...), metadata={op_type="xla__update_slice"
//       op_name="xla__update_slice" source_file="/code/model_runner.py" source_line=1401}
//
// This reads the text without a grammar (no Spirit): dumps carry metadata for only some
// instructions (TPU dumps often for none), and a tool that shows it wants whatever is there. The
// scan skips quoted strings and bracketed parts, so `metadata=` inside a backend_config string or
// an operand list is not mistaken for the attribute. Strings are views into the text, with XLA's C
// escapes left as written, as <hlomem/hlo/module.hpp> keeps them; c_unescape reads them back.
#ifndef HLOMEM_HLO_METADATA_HPP
#define HLOMEM_HLO_METADATA_HPP

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include <hlomem/hlo/module.hpp>
#include <hlomem/core/policy.hpp>

namespace hlomem {

namespace detail {

/// One past the closing quote of the string that starts at `i` (text[i] == '"'); npos when it
/// is not closed. Backslash escapes (`\"`, `\\`) are skipped.
inline std::size_t skip_quoted(std::string_view text, std::size_t i) {
    for (++i; i < text.size(); ++i) {
        if (text[i] == '\\') {
            ++i;
        } else if (text[i] == '"') {
            return i + 1;
        }
    }
    return std::string_view::npos;
}

/// One past the bracket that closes the one at `i` ('(', '{' or '['), skipping strings; npos
/// when it is not closed.
inline std::size_t skip_bracketed(std::string_view text, std::size_t i) {
    int depth = 0;
    while (i < text.size()) {
        char const c = text[i];
        if (c == '"') {
            i = skip_quoted(text, i);
            if (i == std::string_view::npos) return i;
            continue;
        }
        if (c == '(' || c == '{' || c == '[') ++depth;
        if ((c == ')' || c == '}' || c == ']') && --depth == 0) return i + 1;
        ++i;
    }
    return std::string_view::npos;
}

/// `1401` -> 1401; nullopt for anything else (sign, letters, overflow).
inline std::optional<std::int64_t> decimal(std::string_view s) {
    if (s.empty()) return std::nullopt;
    std::int64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        int const d = c - '0';
        if (v > (std::numeric_limits<std::int64_t>::max() - d) / 10) return std::nullopt;
        v = v * 10 + d;
    }
    return v;
}

}  // namespace detail

/// A string as XLA's CEscape wrote it, read back: `\"` `\'` `\\` `\n` `\r` `\t`, octal `\NNN` and
/// hex `\xNN`; a backslash before anything else is kept as written.
///   c_unescape(R"(/src/model \"v2\".py)") == R"(/src/model "v2".py)"
inline std::string c_unescape(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); };
    auto digit = [](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\\' || i + 1 == s.size()) {
            out += s[i];
            continue;
        }
        char const c = s[i + 1];
        if (c == '"' || c == '\'' || c == '\\') {
            out += c;
            ++i;
        } else if (c == 'n' || c == 'r' || c == 't') {
            out += c == 'n' ? '\n' : c == 'r' ? '\r' : '\t';
            ++i;
        } else if (c >= '0' && c <= '7') {
            int v = 0;
            std::size_t k = i + 1;
            for (; k < s.size() && k < i + 4 && s[k] >= '0' && s[k] <= '7'; ++k) v = v * 8 + (s[k] - '0');
            out += static_cast<char>(v & 0xFF);
            i = k - 1;
        } else if (c == 'x' && i + 2 < s.size() && hex(s[i + 2])) {
            int v = 0;
            std::size_t k = i + 2;
            for (; k < s.size() && k < i + 4 && hex(s[k]); ++k) v = v * 16 + digit(s[k]);
            out += static_cast<char>(v);
            i = k - 1;
        } else {
            out += '\\';
        }
    }
    return out;
}

/// The `metadata={...}` attribute of an instruction's text: op_type, op_name, source_file,
/// source_line and stack_frame_id (other fields, such as scheduling_name, are skipped). nullopt
/// when the text has no metadata attribute or it is not closed. A field whose value is not what
/// XLA prints (a source_line that is not a number) is left at its default.
inline std::optional<basic_hlo_metadata<view_policy>> instruction_metadata(std::string_view text) {
    constexpr std::string_view key = "metadata={";
    std::size_t i = 0;
    std::size_t open = std::string_view::npos;
    char previous = 0;  // the last character before i that is not a blank
    while (i < text.size()) {
        char const c = text[i];
        if (c == '"' || c == '(' || c == '{' || c == '[') {
            std::size_t const next = c == '"' ? detail::skip_quoted(text, i) : detail::skip_bracketed(text, i);
            if (next == std::string_view::npos) return std::nullopt;
            previous = text[next - 1];
            i = next;
            continue;
        }
        if (previous == ',' && text.compare(i, key.size(), key) == 0) {
            open = i + key.size() - 1;
            break;
        }
        if (c != ' ' && c != '\t') previous = c;
        ++i;
    }
    if (open == std::string_view::npos) return std::nullopt;
    std::size_t const close = detail::skip_bracketed(text, open);
    if (close == std::string_view::npos) return std::nullopt;

    basic_hlo_metadata<view_policy> m;
    std::string_view const body = text.substr(open + 1, close - open - 2);
    std::size_t p = 0;
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (p < body.size()) {
        while (p < body.size() && blank(body[p])) ++p;
        if (p >= body.size()) break;
        std::size_t const name_begin = p;
        while (p < body.size() && body[p] != '=' && !blank(body[p])) ++p;
        std::string_view const name = body.substr(name_begin, p - name_begin);
        if (p >= body.size() || body[p] != '=') break;  // not `key=value`: stop reading
        ++p;
        std::string_view value;
        if (p < body.size() && (body[p] == '"' || body[p] == '{')) {
            std::size_t const end = body[p] == '"' ? detail::skip_quoted(body, p) : detail::skip_bracketed(body, p);
            if (end == std::string_view::npos) break;
            value = body[p] == '"' ? body.substr(p + 1, end - p - 2) : body.substr(p, end - p);
            p = end;
        } else {
            std::size_t const begin = p;
            while (p < body.size() && !blank(body[p])) ++p;
            value = body.substr(begin, p - begin);
        }
        if (name == "op_type") {
            m.op_type = value;
        } else if (name == "op_name") {
            m.op_name = value;
        } else if (name == "source_file") {
            m.source_file = value;
        } else if (name == "source_line") {
            m.source_line = detail::decimal(value).value_or(0);
        } else if (name == "stack_frame_id") {
            m.stack_frame_id = detail::decimal(value).value_or(0);
        }
    }
    return m;
}

}  // namespace hlomem

#endif  // HLOMEM_HLO_METADATA_HPP
