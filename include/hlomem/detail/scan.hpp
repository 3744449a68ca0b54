// hlomem/detail/scan.hpp: the lexical layer every hlomem parser shares, on `char const*` and
// without Spirit: blanks, line ends and comments, names, quoted strings, balanced brackets, and
// where the text of a shape ends. The grammars (parser/) build their tokens on these functions;
// code that must read a dump without the grammars (finding a shape's end before a table lookup)
// uses them directly.
//
// Every function takes the position to start at and the end of the input, and returns the
// position after what it skipped; none allocates. They run on every byte of a dump, so where a
// byte's class decides, one table load decides it; identifiers and the digit lists of shapes,
// the longest runs of one class, are classed sixteen bytes at a time where SSE2 is there.
//
//   skip_space_and_comments on "  /*index=5*/ f32[8]" stops at "f32[8]"
//   scan_name               on "fusion.10{1}, ..."     stops at "{1}, ..."
//   scan_identifier         on "custom-call.3(%p)"     stops at "(%p)"
//   skip_quoted             on `"a\"b" rest`            stops at " rest"
//   skip_balanced           on "[8,(2)]{0}"            stops at "{0}"
//   skip_digit_list         on "[8,128]{1,0}"          stops at "{1,0}"
//   scan_raw                on `{"a":"}"}, kind=kLoop` stops at ", kind=kLoop"
//   scan_shape_end          on "f32[8]{0} parameter(0)" stops at " parameter(0)"
#ifndef HLOMEM_DETAIL_SCAN_HPP
#define HLOMEM_DETAIL_SCAN_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace hlomem::detail {

/// Deepest nesting of brackets (tuples, parentheses, braces) any hlomem reader follows: scan_raw
/// here and every grammar of parser/. Deeper input is an error, not a stack overflow; real XLA
/// text nests a handful of levels.
inline constexpr std::size_t max_nesting_depth = 256;

// ---------------------------------------------------------------------------------------------
// Blanks, digits, line ends, comments
// ---------------------------------------------------------------------------------------------

/// A space or a tab: what separates tokens on one line.
inline bool is_blank(char c) noexcept { return c == ' ' || c == '\t'; }
/// A blank or a line end: what separates tokens where a token may wrap onto the next line.
inline bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
inline bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

/// Skips spaces and tabs.
inline char const* skip_blanks(char const* p, char const* last) noexcept {
    while (p < last && is_blank(*p)) ++p;
    return p;
}

/// Skips decimal digits.
inline char const* skip_digits(char const* p, char const* last) noexcept {
    while (p < last && is_digit(*p)) ++p;
    return p;
}

/// The '\n' that ends the line holding `p`; `last` when the line is the last one and has none.
inline char const* line_end(char const* p, char const* last) noexcept {
    auto const* nl = static_cast<char const*>(std::memchr(p, '\n', static_cast<std::size_t>(last - p)));
    return nl ? nl : last;
}

/// The start of the line after the one holding `p`; `last` when there is none.
inline char const* next_line(char const* p, char const* last) noexcept {
    char const* const nl = line_end(p, last);
    return nl == last ? last : nl + 1;
}

/// The number of lines of [p, last): its line ends plus one. (A count in fixed blocks that the
/// compiler vectorises was tried: GCC 12 at -O3 miscounts a byte-wide sum once it is inlined, and
/// with a wider sum it is no faster than memchr between a builder's consecutive lines.)
inline std::size_t count_lines(char const* p, char const* last) noexcept {
    std::size_t lines = 1;
    while ((p = static_cast<char const*>(std::memchr(p, '\n', static_cast<std::size_t>(last - p)))) != nullptr) {
        ++lines;
        ++p;
    }
    return lines;
}

/// A hash of a text for the tables that intern names and shape texts (hlo/name_table.hpp,
/// core/shape_table.hpp, the value names of dump/buffer_assignment.hpp): eight bytes at a time,
/// each word mixed in with one multiplication, the last bytes read as one word that overlaps the
/// one before (or as two halves, or three bytes, for texts under eight), so that no loop over
/// single bytes depends on the length. std::hash of a string_view hashes with Murmur, and a parse
/// that looks up every shape and every name paid for it on every line.
inline std::size_t hash_text(char const* p, std::size_t n) noexcept {
    auto const load8 = [](char const* q) {
        std::uint64_t w;
        std::memcpy(&w, q, 8);
        return w;
    };
    auto const load4 = [](char const* q) {
        std::uint32_t w;
        std::memcpy(&w, q, 4);
        return std::uint64_t{w};
    };
    std::uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    auto const mix = [&h](std::uint64_t w) {
        h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 29;
    };
    if (n > 8) {
        char const* const tail = p + n - 8;
        for (; p < tail; p += 8) mix(load8(p));
        mix(load8(tail));
    } else if (n >= 4) {
        mix(load4(p) | load4(p + n - 4) << 32);
    } else if (n > 0) {
        auto const byte = [](char c) { return std::uint64_t{static_cast<unsigned char>(c)}; };
        mix(byte(p[0]) | byte(p[n / 2]) << 8 | byte(p[n - 1]) << 16);
    }
    h *= 0x94d049bb133111ebull;
    return static_cast<std::size_t>(h ^ (h >> 32));
}

/// Whether the text at `p` opens a comment: `/*` (XLA's `/*index=5*/` markers) or `//`.
inline bool at_comment(char const* p, char const* last) noexcept {
    return last - p >= 2 && p[0] == '/' && (p[1] == '*' || p[1] == '/');
}

/// From a comment's opening (at_comment), the position after it: after `*/`, or at the line end
/// of a `//` comment. nullptr for a `/*` that is never closed.
inline char const* comment_end(char const* p, char const* last) noexcept {
    if (p[1] == '/') return line_end(p, last);
    char const* q = p + 2;
    while (last - q >= 2 && !(q[0] == '*' && q[1] == '/')) ++q;
    return last - q < 2 ? nullptr : q + 2;
}

/// Skips blanks, line ends, and `/* */` and `//` comments. At a `/*` that is never closed it
/// returns `unclosed(position of the '/*')`: the X3 skipper throws there, others stop.
template <class Unclosed>
inline char const* skip_space_and_comments(char const* p, char const* last, Unclosed unclosed) {
    while (p < last) {
        char const c = *p;
        if (is_space(c)) {
            ++p;
        } else if (c == '/' && at_comment(p, last)) {
            char const* const end = comment_end(p, last);
            if (!end) return unclosed(p);
            p = end;
        } else {
            break;
        }
    }
    return p;
}

/// Skips blanks, line ends, and `/* */` and `//` comments. A `/*` that is never closed is not
/// skipped: the result points at it.
inline char const* skip_space_and_comments(char const* p, char const* last) noexcept {
    return skip_space_and_comments(p, last, [](char const* at) noexcept { return at; });
}

// ---------------------------------------------------------------------------------------------
// Names and strings
// ---------------------------------------------------------------------------------------------

/// The bytes that end a name in a dump: blanks, line ends and `{}<>,:`.
struct name_stops {
    bool at[256];
};
constexpr name_stops make_name_stops() {
    name_stops t{};
    for (char c : {' ', '\t', '\n', '\r', '{', '}', '<', '>', ',', ':'}) t.at[static_cast<unsigned char>(c)] = true;
    return t;
}
inline constexpr name_stops name_stop = make_name_stops();

/// The end of the instruction or computation name at `p` as dumps print it (`fusion.10`,
/// `custom-call.37.0`, `p5.32.0`): everything up to a blank, a line end or one of `{}<>,:`.
/// `p` when there is none. Names are most of a dump's Used-values blocks.
inline char const* scan_name(char const* p, char const* last) noexcept {
    while (p != last && !name_stop.at[static_cast<unsigned char>(*p)]) ++p;
    return p;
}

/// What each byte may be in an identifier as XLA's HloLexer reads it (xla/hlo/parser/hlo_lexer.cc,
/// `[a-zA-Z_][a-zA-Z0-9_.-]*`): its first byte, a later byte, or neither. One table load per byte
/// decides: names, opcodes and attribute keys are a third of an HLO module's bytes, and the
/// chain of range comparisons cost 17% of its parse.
struct identifier_classes {
    // first implies later; type_name: `[A-Za-z0-9_]`, the bytes of a primitive type's name.
    enum : std::uint8_t { none = 0, later = 1, first = 3, type_name = 4 };
    std::uint8_t of[256];
};
constexpr identifier_classes make_identifier_classes() {
    identifier_classes t{};
    for (int c = 0; c < 256; ++c) {
        bool const start = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        bool const later = start || (c >= '0' && c <= '9') || c == '.' || c == '-';
        bool const type_name = start || (c >= '0' && c <= '9');
        int const cls = (start ? int{identifier_classes::first} : later ? int{identifier_classes::later} : 0) |
                        (type_name ? int{identifier_classes::type_name} : 0);
        t.of[c] = static_cast<std::uint8_t>(cls);
    }
    return t;
}
inline constexpr identifier_classes identifier_class = make_identifier_classes();

/// The first byte of an identifier: `[A-Za-z_]`.
inline bool is_identifier_start(char c) noexcept {
    return (identifier_class.of[static_cast<unsigned char>(c)] & identifier_classes::first) == identifier_classes::first;
}
/// The later bytes of an identifier: `[A-Za-z0-9_.-]`.
inline bool is_identifier_char(char c) noexcept {
    return (identifier_class.of[static_cast<unsigned char>(c)] & identifier_classes::later) != 0;
}

#if defined(__SSE2__)
/// Which of the 16 bytes of `x` lie in [lo, lo + n), as 0xff or 0: x - lo < n unsigned, which
/// SSE2's signed compare reads with both sides offset by 0x80: (x + 0x80 - lo) < (n - 0x80).
inline __m128i bytes_in_range(__m128i x, char lo, int n) noexcept {
    __m128i const shifted = _mm_add_epi8(x, _mm_set1_epi8(static_cast<char>(0x80 - static_cast<unsigned char>(lo))));
    return _mm_cmplt_epi8(shifted, _mm_set1_epi8(static_cast<char>(n - 128)));
}

/// The first of the 16 bytes at `p` that is not `[A-Za-z0-9_.-]`, or p + 16.
inline char const* identifier_chars_16(char const* p) noexcept {
        __m128i const v = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p));
    __m128i const letter = bytes_in_range(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 26);  // 'A' | 0x20 == 'a'
    __m128i const digit_dash_dot = _mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('/')), bytes_in_range(v, '-', 13));  // [-./0-9]
    __m128i const underscore = _mm_cmpeq_epi8(v, _mm_set1_epi8('_'));
    auto const ok = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(letter, digit_dash_dot), underscore)));
    return p + __builtin_ctz(~ok | 0x10000u);
}
#endif

/// The end of the identifier `[A-Za-z_][A-Za-z0-9_.-]*` at `p` (an HLO name, opcode or attribute
/// key: `fusion.3`, `custom-call`, `op_name`); `p` when there is none. Names, opcodes and keys
/// are a third of a module's bytes: with SSE2, sixteen bytes are classed at a time, one branch
/// for a name of up to 15 bytes after its first.
inline char const* scan_identifier(char const* p, char const* last) noexcept {
    if (p == last || !is_identifier_start(*p)) return p;
    ++p;
#if defined(__SSE2__)
    while (last - p >= 16) {
        char const* const end = identifier_chars_16(p);
        if (end != p + 16) return end;
        p = end;
    }
#endif
    while (p != last && is_identifier_char(*p)) ++p;
    return p;
}

/// From the '"' at `p`, the position after the closing '"'. Backslash escapes are skipped, not
/// decoded (`"a\"b"` is one string). nullptr when the string is never closed.
inline char const* skip_quoted(char const* p, char const* last) noexcept {
    char const* q = p + 1;
    for (;;) {
#if defined(__SSE2__)
        // Most strings are short (an op_name, a path): sixteen bytes compared in place cost less
        // than a call into the C library's memchr, which the rest of a long string goes to.
        if (last - q >= 16) {
            __m128i const v = _mm_loadu_si128(reinterpret_cast<__m128i const*>(q));
            auto const m = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"'))));
            if (m != 0) {
                q += __builtin_ctz(m);
            } else {
                q = static_cast<char const*>(std::memchr(q + 16, '"', static_cast<std::size_t>(last - q - 16)));
            }
        } else {
            q = static_cast<char const*>(std::memchr(q, '"', static_cast<std::size_t>(last - q)));
        }
#else
        q = static_cast<char const*>(std::memchr(q, '"', static_cast<std::size_t>(last - q)));
#endif
        if (q == nullptr) return nullptr;
        char const* b = q;
        while (b > p + 1 && b[-1] == '\\') --b;
        if ((q - b) % 2 == 0) return q + 1;
        ++q;
    }
}

// ---------------------------------------------------------------------------------------------
// Brackets and shapes
// ---------------------------------------------------------------------------------------------

/// The closing bracket of the opening bracket `c`.
inline char closing_bracket(char c) noexcept { return c == '{' ? '}' : c == '[' ? ']' : ')'; }

/// What skip_balanced looks for in each byte: brackets and the '/' that may open a comment.
enum bracket_class : std::uint8_t { not_bracket, opening, closing, slash };
struct bracket_classes {
    std::uint8_t of[256];
};
constexpr bracket_classes make_bracket_classes() {
    bracket_classes t{};
    t.of[static_cast<unsigned char>('(')] = t.of[static_cast<unsigned char>('[')] = t.of[static_cast<unsigned char>('{')] = opening;
    t.of[static_cast<unsigned char>(')')] = t.of[static_cast<unsigned char>(']')] = t.of[static_cast<unsigned char>('}')] = closing;
    t.of[static_cast<unsigned char>('/')] = slash;
    return t;
}
inline constexpr bracket_classes bracket_class = make_bracket_classes();

/// From an opening bracket at `p`, the position after its matching close; brackets of all three
/// kinds nest, comments are skipped. `last` when unbalanced. Every shape a dump line holds is
/// scanned this way before its table lookup, so one table load per byte decides.
inline char const* skip_balanced(char const* p, char const* last) noexcept {
    int depth = 0;
    while (p < last) {
        std::uint8_t const k = bracket_class.of[static_cast<unsigned char>(*p)];
        if (k == not_bracket) {
            ++p;
            continue;
        }
        if (k == slash) {
            if (at_comment(p, last)) {
                char const* const next = skip_space_and_comments(p, last);
                if (next == p) return last;  // a '/*' never closed
                p = next;
                continue;
            }
        } else if (k == opening) {
            ++depth;
        } else if (--depth == 0) {
            return p + 1;
        }
        ++p;
    }
    return last;
}

/// From the '[' of an array's dimensions or the '{' of its layout at `open`, the position after
/// its close: `[8,128]` and `{1,0}` hold only digits and commas, and are read so, sixteen bytes at
/// a time with SSE2; any other byte before the close (a tiling's ':', a '<=' bound, a comment,
/// a bracket) leaves the text to skip_balanced, which ends at the same close where both apply.
inline char const* skip_digit_list(char const* open, char const* last) noexcept {
    char const* p = open + 1;
#if defined(__SSE2__)
    while (last - p >= 16) {
        __m128i const v = _mm_loadu_si128(reinterpret_cast<__m128i const*>(p));
        __m128i const digit_or_comma = _mm_or_si128(bytes_in_range(v, '0', 10), _mm_cmpeq_epi8(v, _mm_set1_epi8(',')));
        auto const ok = static_cast<unsigned>(_mm_movemask_epi8(digit_or_comma));
        if (ok != 0xffffu) {
            p += __builtin_ctz(~ok);
            break;
        }
        p += 16;
    }
#endif
    while (p != last && (is_digit(*p) || *p == ',')) ++p;
    if (p != last && *p == closing_bracket(*open)) return p + 1;
    return skip_balanced(open, last);
}

/// What scan_raw found: where the value ends, or the problem that stopped it and where.
struct raw_scan {
    enum problem_kind : std::uint8_t {
        none,             ///< `end` is where the value ends
        unclosed_string,  ///< `end` is a '"' that is never closed
        mismatched,       ///< `end` is a closing bracket that does not match `opener`
        unclosed,         ///< `opener` is never closed
        too_deep,         ///< `end` is an opening bracket past max_nesting_depth
    };
    char const* end;
    problem_kind problem;
    char const* opener;
};

/// The end of a value kept as text at `p` (an HLO attribute value: `{"a":"}"}`, `[2,8]<=[16]`,
/// `bf_io->bf`): brackets of the three kinds nest and must match, quoted strings are skipped
/// whole (skip_quoted), and the value ends before a closing bracket it did not open or, outside
/// brackets, before a ',' or a blank or line end. With `to_close` set, ',' and blanks do not end
/// it (the text up to the bracket that closes the one before `p`).
///   scan_raw on `{"a":"}"}, kind=kLoop` stops at ", kind=kLoop"
inline raw_scan scan_raw(char const* p, char const* last, bool to_close = false) noexcept {
    char const* openers[max_nesting_depth];  // the opening brackets not yet closed
    std::size_t depth = 0;
    while (p != last) {
        char const c = *p;
        switch (c) {
            case '"': {
                char const* const end = skip_quoted(p, last);
                if (end == nullptr) return {p, raw_scan::unclosed_string, nullptr};
                p = end;
                continue;
            }
            case '{':
            case '[':
            case '(':
                if (depth == max_nesting_depth) return {p, raw_scan::too_deep, nullptr};
                openers[depth++] = p;
                break;
            case '}':
            case ']':
            case ')':
                if (depth == 0) return {p, raw_scan::none, nullptr};
                if (closing_bracket(*openers[depth - 1]) != c) return {p, raw_scan::mismatched, openers[depth - 1]};
                --depth;
                break;
            case ',':
            case ' ':
            case '\t':
            case '\n':
            case '\r':
                if (depth == 0 && !to_close) return {p, raw_scan::none, nullptr};
                break;
            default:
                break;
        }
        ++p;
    }
    if (depth > 0) return {openers[0], raw_scan::unclosed, openers[0]};
    return {p, raw_scan::none, nullptr};
}

/// Where the shape text starting at `first` ends, by the same rules as the shape grammar
/// (parser/shape.hpp: a `{` after the dimensions is a layout only when an integer or ':'
/// follows), without building anything. For malformed text the result is only a guess; the
/// parser then reports the error.
///   scan_shape_end on "f32[8]{0} parameter(0)" stops after "{0}"
inline char const* scan_shape_end(char const* first, char const* last) noexcept {
    char const* p = first;
    if (p == last) return p;
    if (*p == '(') return skip_balanced(p, last);
    // Every shape a dump or module line holds is scanned here before its table lookup: the type
    // name is decided by a table, and the blanks between tokens, mostly absent, by one comparison.
    auto const gap = [last](char const* at) {
        return at < last && (is_space(*at) || *at == '/') ? skip_space_and_comments(at, last) : at;
    };
    char const* q = p;
    while (q < last && (identifier_class.of[static_cast<unsigned char>(*q)] & identifier_classes::type_name)) ++q;
    if (q == p) return p;
    q = gap(q);
    if (q < last && *q == '(') return skip_balanced(q, last);  // b(...)
    if (q == last || *q != '[') return q;
    char const* end = skip_digit_list(q, last);
    char const* brace = gap(end);
    if (brace < last && *brace == '{') {
        char const* next = gap(brace + 1);
        if (next < last && (is_digit(*next) || *next == ':')) end = skip_digit_list(brace, last);
    }
    return end;
}

}  // namespace hlomem::detail

#endif  // HLOMEM_DETAIL_SCAN_HPP
