// hlomem/hlo/metadata.hpp: the `metadata={...}` of an instruction, its model and its one reader,
// used by the module parser (<hlomem/parser/hlo_module.hpp>) for every instruction and by the
// tools for the text a buffer-assignment dump keeps raw after ` from instruction: `
// (logical_value::instruction_text):
//
//   %dynamic-update-slice.2 = f32[4,8]{1,0} dynamic-update-slice(...), metadata={op_type="xla__update_slice"
//       op_name="xla__update_slice" source_file="/code/model_runner.py" source_line=1401}
//
// XLA prints it with OpMetadataToString (xla/service/hlo_instruction.cc): `key=value` fields
// separated by blanks, strings C-escaped between double quotes, numbers bare. Strings are kept as
// written between the quotes, escapes and all, as <hlomem/hlo/module.hpp> keeps every string;
// c_unescape reads them back. No Spirit: dumps carry metadata for only some instructions (TPU
// dumps often for none), and a tool that shows it wants whatever is there.
#ifndef HLOMEM_HLO_METADATA_HPP
#define HLOMEM_HLO_METADATA_HPP

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include <hlomem/core/policy.hpp>
#include <hlomem/detail/scan.hpp>
#include <hlomem/hlo/lexical.hpp>

namespace hlomem {

/// The parts of an instruction's `metadata={...}` that tools show: where the operation came from.
template <class P = default_policy>
struct basic_hlo_metadata {
    typename P::string_type op_type;      ///< `op_type="aten__mm"` (torch_xla)
    typename P::string_type op_name;      ///< `op_name="jit(f)/jit(main)/dot_general"`
    typename P::string_type source_file;  ///< `source_file="/x/model.py"`
    std::int64_t source_line = 0;         ///< `source_line=88`; 0 when absent
    std::int64_t stack_frame_id = 0;      ///< `stack_frame_id=20` into the StackFrames table; 0 when absent
};

using hlo_metadata = basic_hlo_metadata<>;

namespace detail {

/// `1401` -> 1401, `-3` -> -3, as XLA prints an int64; nullopt for anything else (letters,
/// overflow).
inline std::optional<std::int64_t> metadata_integer(std::string_view s) {
    bool const negative = !s.empty() && s[0] == '-';
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
    if (s.empty()) return std::nullopt;
    std::uint64_t const limit = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + (negative ? 1 : 0);
    std::uint64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        auto const d = static_cast<std::uint64_t>(c - '0');
        if (v > (limit - d) / 10) return std::nullopt;
        v = v * 10 + d;
    }
    return negative ? static_cast<std::int64_t>(0 - v) : static_cast<std::int64_t>(v);
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

/// Reads the fields of a `metadata={...}` from its '{' at `open` into `m` and returns the
/// position after the closing '}'. `skip(p)` moves `p` over what may stand between two tokens
/// (the parser: blanks, line ends and comments). Fields other than those basic_hlo_metadata
/// keeps are skipped whatever their value. Throws hlo_text_error at a field that is not
/// `key=value`, at a string or bracket that is not closed and, when `strict`, at a source_line or
/// stack_frame_id that is not an integer (else that field stays 0). `text_begin` is where the
/// text starts, for the columns errors name.
template <class P, class Skip>
char const* read_metadata(char const* open, char const* last, char const* text_begin, Skip&& skip,
                          basic_hlo_metadata<P>& m, bool strict = true) {
    using string_type = typename P::string_type;
    char const* p = open + 1;
    for (;;) {
        skip(p);
        if (p != last && *p == '}') return p + 1;
        char const* const key_start = p;
        p = detail::scan_identifier(key_start, last);
        if (p == key_start) {
            throw hlo_text_error(key_start, "expected a metadata field such as op_name=\"...\", or '}'",
                                 "a metadata field such as op_name=\"...\", or '}'");
        }
        std::string_view const key(key_start, static_cast<std::size_t>(p - key_start));
        skip(p);
        if (p == last || *p != '=') throw hlo_text_error(p, "expected '='", "'='");
        ++p;
        skip(p);
        char const* const value = p;
        bool const quoted = value != last && *value == '"';
        if (quoted) {
            p = hlo_lex::skip_string(value, last);
        } else {
            // `source_line=168 `: a number ends at the blank or '}' after it, where scan_raw,
            // which reads any value kept as text, would end it too.
            p = detail::skip_digits(value + (value != last && *value == '-'), last);
            if (p == value || (p != last && *p != ' ' && *p != '}')) p = hlo_lex::scan_raw(value, last, text_begin);
        }
        if (p == value) throw hlo_text_error(value, "expected a metadata value", "a metadata value");
        if (quoted) {
            std::string_view const text(value + 1, static_cast<std::size_t>(p - value - 2));
            if (hlo_lex::is_word(key, "op_name")) m.op_name = string_type(text);
            else if (hlo_lex::is_word(key, "source_file")) m.source_file = string_type(text);
            else if (hlo_lex::is_word(key, "op_type")) m.op_type = string_type(text);
        } else if (hlo_lex::is_word(key, "source_line") || hlo_lex::is_word(key, "stack_frame_id")) {
            std::string_view const text(value, static_cast<std::size_t>(p - value));
            auto const v = detail::metadata_integer(text);
            if (!v && strict) {
                throw hlo_text_error(value, "metadata " + std::string(key) + " must be an integer, not " + hlo_lex::quote(text));
            }
            (hlo_lex::is_word(key, "source_line") ? m.source_line : m.stack_frame_id) = v.value_or(0);
        }
    }
}

namespace detail {

/// The bytes the search for an instruction's `metadata={` stops at: a '"' that opens a string
/// and the three opening brackets (top level), and inside brackets also the closing ones.
struct metadata_scan_classes {
    std::uint8_t of[256];
};
enum : std::uint8_t { metadata_plain = 0, metadata_quote = 1, metadata_open = 2, metadata_close = 3 };
constexpr metadata_scan_classes make_metadata_scan_classes() {
    metadata_scan_classes t{};
    t.of[static_cast<unsigned char>('"')] = metadata_quote;
    t.of[static_cast<unsigned char>('(')] = t.of[static_cast<unsigned char>('[')] = t.of[static_cast<unsigned char>('{')] = metadata_open;
    t.of[static_cast<unsigned char>(')')] = t.of[static_cast<unsigned char>(']')] = t.of[static_cast<unsigned char>('}')] = metadata_close;
    return t;
}
inline constexpr metadata_scan_classes metadata_scan_class = make_metadata_scan_classes();

#if defined(__SSE2__)
/// Bit k set when byte k of the 16 at `p` is one of `"([{`, or of `)]}` too when `closers`. Four
/// compares: '(' and ')' differ in bit 0 only, '[' and '{' (and ']' and '}') in bit 5 only.
inline unsigned metadata_specials_16(char const* p, bool closers) noexcept {
    __m128i const v = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p));
    __m128i const folded = _mm_or_si128(v, _mm_set1_epi8(0x20));  // '[' -> '{', ']' -> '}'
    __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(folded, _mm_set1_epi8('{')));
    if (closers) {
        m = _mm_or_si128(m, _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(1)), _mm_set1_epi8(')')));  // '(' or ')'
        m = _mm_or_si128(m, _mm_cmpeq_epi8(folded, _mm_set1_epi8('}')));
    } else {
        m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('(')));
    }
    return static_cast<unsigned>(_mm_movemask_epi8(m));
}
#endif

/// The first byte at or after `p` that is one of `"([{`, or of `)]}` too when `closers` (inside
/// brackets; at the top level a closing bracket is text like any other), or `last`. With SSE2,
/// sixteen bytes are classed at a time (metadata_specials_16); else eight, with a table, before
/// one branch: most of an instruction's text is names and digits.
inline char const* skip_metadata_plain(char const* p, char const* last, bool closers) noexcept {
#if defined(__SSE2__)
    for (; last - p >= 16; p += 16) {
        if (unsigned const m = metadata_specials_16(p, closers)) return p + __builtin_ctz(m);
    }
#endif
    auto const special = [closers](char c) -> unsigned {  // 0 or 1, to be or-ed without a branch
        std::uint8_t const k = metadata_scan_class.of[static_cast<unsigned char>(c)];
        return k != metadata_plain && (closers || k != metadata_close);
    };
    while (last - p >= 8) {
        if (special(p[0]) | special(p[1]) | special(p[2]) | special(p[3]) | special(p[4]) | special(p[5]) | special(p[6]) |
            special(p[7])) {
            break;
        }
        p += 8;
    }
    while (p != last && !special(*p)) ++p;
    return p;
}

/// The brackets metadata_closing has opened and not yet closed, and what one byte of `"([{)]}`
/// does to them.
struct metadata_brackets {
    char const* openers[max_nesting_depth];
    std::size_t depth = 0;
    enum class step { go_on, closed, bad };
    /// The special byte at `q` (not a quote): an opener is pushed; a closer closes the innermost
    /// opener (of its kind, else the text is `bad`), or is the close looked for (`closed`).
    step at(char const* q) noexcept {
        if (metadata_scan_class.of[static_cast<unsigned char>(*q)] == metadata_open) {
            if (depth == max_nesting_depth) return step::bad;
            openers[depth++] = q;
            return step::go_on;
        }
        if (depth == 0) return step::closed;
        if (closing_bracket(*openers[depth - 1]) != *q) return step::bad;
        --depth;
        return step::go_on;
    }
};

/// From an opening bracket at `open`, its closing bracket: scan_raw(open + 1, last, true)'s end
/// when it finds one (the first closing bracket outside the brackets and strings it opens, of
/// whatever kind), nullptr when scan_raw reports a problem or reaches `last`. The same rules, the
/// special bytes of sixteen found at once (metadata_specials_16) and taken one by one from the
/// mask: an operand list `(f32[8,128]{1,0} %a, ...)` holds one every few bytes.
inline char const* metadata_closing(char const* open, char const* last) noexcept {
    metadata_brackets brackets;
    char const* p = open + 1;
#if defined(__SSE2__)
    while (last - p >= 16) {
        unsigned m = metadata_specials_16(p, true);
        char const* next = p + 16;
        for (; m != 0; m &= m - 1) {
            char const* const q = p + __builtin_ctz(m);
            if (*q == '"') {  // the string's end may lie past these 16 bytes: go on from there
                next = skip_quoted(q, last);
                if (next == nullptr) return nullptr;
                break;
            }
            auto const step = brackets.at(q);
            if (step == metadata_brackets::step::closed) return q;
            if (step == metadata_brackets::step::bad) return nullptr;
        }
        p = next;
    }
#endif
    for (;;) {
        p = skip_metadata_plain(p, last, true);
        if (p == last) return nullptr;
        if (*p == '"') {
            p = skip_quoted(p, last);
            if (p == nullptr) return nullptr;
            continue;
        }
        auto const step = brackets.at(p);
        if (step == metadata_brackets::step::closed) return p;
        if (step == metadata_brackets::step::bad) return nullptr;
        ++p;
    }
}

}  // namespace detail

/// The `metadata={...}` attribute of an instruction's text: op_type, op_name, source_file,
/// source_line and stack_frame_id. nullopt when the text has no metadata attribute or it is not
/// closed. The attribute is the first `metadata={` outside strings and brackets whose last
/// non-blank byte before it is a ',', so that a `metadata=` inside a backend_config string or an
/// operand list is not taken for it; text before it with a string or bracket that is not closed
/// has none. Read leniently: a field whose value is not what XLA prints (a source_line that is
/// not a number) is left at its default, and reading stops at text that is not `key=value`.
///
/// XLA prints it after every other attribute but backend_config (HloInstruction::
/// PrintWithCanonicalNameMap: PrintExtraAttributes, then `, metadata={`, then
/// `, backend_config=`), so the search crosses most of the text before it. It runs on every
/// value of a dump (attribute_values), so it jumps: from one string or opening bracket of the top
/// level to the next (a candidate is the '{' after `metadata=`; the byte before its `metadata`
/// is then read backwards over blanks), and across each bracket to its close
/// (detail::metadata_closing). The attribute's fields are read once, up to its '}': when they
/// read to the end as `key=value` fields, that '}' is the bracket's close.
inline std::optional<basic_hlo_metadata<view_policy>> instruction_metadata(std::string_view text) {
    constexpr std::string_view key = "metadata=";
    char const* const first = text.data();
    char const* const last = first + text.size();
    char const* open = nullptr;  // the '{' of the attribute
    char const* p = first;
    while (open == nullptr) {
        char const* const stop = detail::skip_metadata_plain(p, last, false);
        if (stop == last) return std::nullopt;
        if (*stop == '{' && static_cast<std::size_t>(stop - p) >= key.size() &&
            std::string_view(stop - key.size(), key.size()) == key) {
            char const* before = stop - key.size();
            while (before != first && detail::is_blank(before[-1])) --before;
            if (before != first && before[-1] == ',') {
                open = stop;
                break;
            }
        }
        if (*stop == '"') {
            p = detail::skip_quoted(stop, last);
            if (p == nullptr) return std::nullopt;  // a string that is not closed
        } else {
            char const* const close = detail::metadata_closing(stop, last);
            if (close == nullptr) return std::nullopt;
            p = close + 1;
        }
    }
    basic_hlo_metadata<view_policy> m;
    auto skip_blanks_to = [](char const* end) {
        return [end](char const*& q) {
            while (q != end && detail::is_space(*q)) ++q;
        };
    };
    try {
        read_metadata(open, last, first, skip_blanks_to(last), m, false);
        return m;
    } catch (hlo_text_error const&) {
        // Not `key=value` to the end: the attribute still counts when its bracket is closed, with
        // the fields read before the text that is not.
    }
    char const* const close = detail::metadata_closing(open, last);
    if (close == nullptr) return std::nullopt;
    m = basic_hlo_metadata<view_policy>{};
    try {
        read_metadata(open, close + 1, first, skip_blanks_to(close), m, false);
    } catch (hlo_text_error const&) {
    }
    return m;
}

}  // namespace hlomem

#endif  // HLOMEM_HLO_METADATA_HPP
