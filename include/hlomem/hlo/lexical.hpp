// hlomem/hlo/lexical.hpp: the lexical rules of HLO text that need no grammar, for the parser
// (<hlomem/parser/hlo_module.hpp>) and for the readers of text kept raw in dumps
// (<hlomem/hlo/metadata.hpp>): names, strings, values kept as text.
//
//   %fusion.3 = f32[8]{0} fusion(%p), kind=kLoop, backend_config={"a":"}"}, metadata={op_name="x"}
//    ^^^^^^^^ a name                              ^^^^^^^^^^^^^^^^ a raw value  ^^^ a string
//
// A problem is a `hlo_text_error` at the byte it is about; the parser turns it into a parse
// error naming file, line and column. Follows XLA's HloLexer (xla/hlo/parser/hlo_lexer.cc):
// identifiers are `[A-Za-z_][A-Za-z0-9_.-]*`, strings are C-escaped between double quotes.
#ifndef HLOMEM_HLO_LEXICAL_HPP
#define HLOMEM_HLO_LEXICAL_HPP

#include <array>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include <hlomem/core/error.hpp>

namespace hlomem {

/// A lexical error in HLO text: where it is, what is wrong and, for a mismatch, what was expected.
class hlo_text_error : public error {
public:
    hlo_text_error(char const* where, std::string const& message, std::string expected = {})
        : error(message), where_(where), expected_(std::move(expected)) {}
    char const* where() const noexcept { return where_; }
    std::string const& expected() const noexcept { return expected_; }

private:
    char const* where_;
    std::string expected_;
};

namespace hlo_lex {

/// Deepest bracket nesting a raw value may have (the grammars' parser::max_nesting_depth).
inline constexpr std::size_t max_nesting_depth = 256;

inline bool is_identifier_start(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
inline bool is_identifier_char(char c) noexcept {
    return is_identifier_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '-';
}
inline bool is_blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// The end of the identifier `[A-Za-z_][A-Za-z0-9_.-]*` at `p`; `p` when there is none.
inline char const* scan_identifier(char const* p, char const* last) noexcept {
    if (p == last || !is_identifier_start(*p)) return p;
    ++p;
    while (p != last && is_identifier_char(*p)) ++p;
    return p;
}

/// From the '"' at `p`, the position after the closing '"'. Backslash escapes are skipped, not
/// decoded. An unterminated string is an error at its opening quote.
inline char const* skip_string(char const* p, char const* last) {
    char const* q = p + 1;
    for (;;) {
        q = static_cast<char const*>(std::memchr(q, '"', static_cast<std::size_t>(last - q)));
        if (q == nullptr) throw hlo_text_error(p, "unterminated string: '\"' without a closing '\"'");
        char const* b = q;
        while (b > p + 1 && b[-1] == '\\') --b;
        if ((q - b) % 2 == 0) return q + 1;
        ++q;
    }
}

/// The end of a raw value at `p`: brackets of the three kinds nest and must match, strings are
/// skipped whole, and the value ends before a closing bracket it did not open or, outside
/// brackets, before a ',' or a blank. With `to_close` set, ',' and blanks do not end it (the
/// payload of `constant(...)`). Errors: a mismatched or unclosed bracket, nesting deeper than
/// max_nesting_depth. `text_begin` (where the input starts) is only used to name columns.
inline char const* scan_raw(char const* p, char const* last, char const* text_begin, bool to_close = false) {
    std::array<char, max_nesting_depth> closers;
    std::array<char const*, max_nesting_depth> openers;
    std::size_t depth = 0;
    while (p != last) {
        char const c = *p;
        switch (c) {
            case '"':
                p = skip_string(p, last);
                continue;
            case '{':
            case '[':
            case '(':
                if (depth == max_nesting_depth) {
                    throw hlo_text_error(p, "nesting deeper than " + std::to_string(max_nesting_depth) + " levels");
                }
                closers[depth] = c == '{' ? '}' : c == '[' ? ']' : ')';
                openers[depth++] = p;
                break;
            case '}':
            case ']':
            case ')':
                if (depth == 0) return p;
                if (closers[depth - 1] != c) {
                    char const* line_start = openers[depth - 1];
                    while (line_start != text_begin && line_start[-1] != '\n') --line_start;
                    throw hlo_text_error(p, std::string("'") + c + "' does not match the '" + *openers[depth - 1] +
                                                "' at column " + std::to_string(openers[depth - 1] - line_start + 1) +
                                                "; expected '" + closers[depth - 1] + "'");
                }
                --depth;
                break;
            case ',':
            case ' ':
            case '\t':
            case '\n':
            case '\r':
                if (depth == 0 && !to_close) return p;
                break;
            default:
                break;
        }
        ++p;
    }
    if (depth > 0) {
        throw hlo_text_error(openers[0], std::string("'") + *openers[0] + "' is never closed: expected '" + closers[0] +
                                             "' before the end of the input");
    }
    return p;
}

/// The number of lines of [p, last): its line ends plus one.
inline std::size_t count_lines(char const* p, char const* last) noexcept {
    std::size_t lines = 1;
    while ((p = static_cast<char const*>(std::memchr(p, '\n', static_cast<std::size_t>(last - p)))) != nullptr) {
        ++lines;
        ++p;
    }
    return lines;
}

/// `'name'` for messages, cut after 80 bytes.
inline std::string quote(std::string_view s) {
    return "'" + std::string(s.substr(0, 80)) + (s.size() > 80 ? "...'" : "'");
}

}  // namespace hlo_lex
}  // namespace hlomem

#endif  // HLOMEM_HLO_LEXICAL_HPP
