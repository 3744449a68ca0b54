// hlomem/hlo/lexical.hpp: the lexical errors of HLO text, for the parser
// (<hlomem/parser/hlo_module.hpp>) and for the readers of text kept raw in dumps
// (<hlomem/hlo/metadata.hpp>). The scanning itself is <hlomem/detail/scan.hpp>'s (identifiers,
// quoted strings, values kept as text); this header turns what it cannot read into a
// `hlo_text_error` at the byte the problem is at, which the parser turns into a parse error
// naming file, line and column:
//
//   %fusion.3 = f32[8]{0} fusion(%p), kind=kLoop, backend_config={"a":"}"]
//                                                                       ^ ']' does not match the
//                                                                         '{' at column 48; expected '}'
//
// Follows XLA's HloLexer (xla/hlo/parser/hlo_lexer.cc): strings are C-escaped between double
// quotes.
#ifndef HLOMEM_HLO_LEXICAL_HPP
#define HLOMEM_HLO_LEXICAL_HPP

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include <hlomem/core/error.hpp>
#include <hlomem/detail/scan.hpp>

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

/// The error for the string whose opening '"' is at `quote` and that is never closed.
inline hlo_text_error unterminated_string(char const* quote) {
    return hlo_text_error(quote, "unterminated string: '\"' without a closing '\"'");
}

/// From the '"' at `p`, the position after the closing '"' (detail::skip_quoted). An
/// unterminated string is an error at its opening quote.
inline char const* skip_string(char const* p, char const* last) {
    if (char const* const end = detail::skip_quoted(p, last)) return end;
    throw unterminated_string(p);
}

/// The end of a raw value at `p` (detail::scan_raw). Errors: a mismatched or unclosed bracket,
/// an unterminated string, nesting deeper than detail::max_nesting_depth. `text_begin` (where
/// the input starts) is only used to name columns.
inline char const* scan_raw(char const* p, char const* last, char const* text_begin, bool to_close = false) {
    detail::raw_scan const r = detail::scan_raw(p, last, to_close);
    switch (r.problem) {
        case detail::raw_scan::none:
            return r.end;
        case detail::raw_scan::unclosed_string:
            throw unterminated_string(r.end);
        case detail::raw_scan::too_deep:
            throw hlo_text_error(r.end, "nesting deeper than " + std::to_string(detail::max_nesting_depth) + " levels");
        case detail::raw_scan::mismatched: {
            char const* line_start = r.opener;
            while (line_start != text_begin && line_start[-1] != '\n') --line_start;
            throw hlo_text_error(r.end, std::string("'") + *r.end + "' does not match the '" + *r.opener + "' at column " +
                                            std::to_string(r.opener - line_start + 1) + "; expected '" +
                                            detail::closing_bracket(*r.opener) + "'");
        }
        case detail::raw_scan::unclosed:
            break;
    }
    throw hlo_text_error(r.opener, std::string("'") + *r.opener + "' is never closed: expected '" +
                                       detail::closing_bracket(*r.opener) + "' before the end of the input");
}

/// Whether `s` is the literal `word` (a key such as `metadata` or `op_name`): a size test and a
/// comparison of known length, which the compiler does inline, where string_view's == calls
/// memcmp through compare() for every key whose size matches.
template <std::size_t N>
inline bool is_word(std::string_view s, char const (&word)[N]) noexcept {
    return s.size() == N - 1 && std::memcmp(s.data(), word, N - 1) == 0;
}

/// `'name'` for messages, cut after 80 bytes.
inline std::string quote(std::string_view s) {
    return "'" + std::string(s.substr(0, 80)) + (s.size() > 80 ? "...'" : "'");
}

}  // namespace hlo_lex
}  // namespace hlomem

#endif  // HLOMEM_HLO_LEXICAL_HPP
