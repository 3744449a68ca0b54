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
        p = quoted ? hlo_lex::skip_string(value, last) : hlo_lex::scan_raw(value, last, text_begin);
        if (p == value) throw hlo_text_error(value, "expected a metadata value", "a metadata value");
        if (quoted) {
            std::string_view const text(value + 1, static_cast<std::size_t>(p - value - 2));
            if (key == "op_name") m.op_name = string_type(text);
            else if (key == "source_file") m.source_file = string_type(text);
            else if (key == "op_type") m.op_type = string_type(text);
        } else if (key == "source_line" || key == "stack_frame_id") {
            std::string_view const text(value, static_cast<std::size_t>(p - value));
            auto const v = detail::metadata_integer(text);
            if (!v && strict) {
                throw hlo_text_error(value, "metadata " + std::string(key) + " must be an integer, not " + hlo_lex::quote(text));
            }
            (key == "source_line" ? m.source_line : m.stack_frame_id) = v.value_or(0);
        }
    }
}

/// The `metadata={...}` attribute of an instruction's text: op_type, op_name, source_file,
/// source_line and stack_frame_id. nullopt when the text has no metadata attribute or it is not
/// closed. The attribute is looked for after a ',' outside strings and brackets, so that a
/// `metadata=` inside a backend_config string or an operand list is not taken for it. Read
/// leniently: a field whose value is not what XLA prints (a source_line that is not a number) is
/// left at its default, and reading stops at text that is not `key=value`.
inline std::optional<basic_hlo_metadata<view_policy>> instruction_metadata(std::string_view text) {
    constexpr std::string_view key = "metadata={";
    char const* const first = text.data();
    char const* const last = first + text.size();
    // From an opening bracket, its closing bracket; nullptr when it has none or the text up to it
    // holds a string or bracket that is not closed.
    auto closing = [&](char const* open) -> char const* {
        detail::raw_scan const r = detail::scan_raw(open + 1, last, true);
        return r.problem != detail::raw_scan::none || r.end == last ? nullptr : r.end;
    };
    basic_hlo_metadata<view_policy> m;
    char const* p = first;
    char previous = 0;  // the last character before p that is not a blank
    while (p != last && !(previous == ',' && std::string_view(p, static_cast<std::size_t>(last - p)).substr(0, key.size()) == key)) {
        char const c = *p;
        if (c == '"') {
            p = detail::skip_quoted(p, last);
            if (p == nullptr) return std::nullopt;  // a string that is not closed
            previous = '"';
        } else if (c == '(' || c == '{' || c == '[') {
            char const* const close = closing(p);
            if (close == nullptr) return std::nullopt;
            previous = *close;
            p = close + 1;
        } else {
            if (!detail::is_blank(c)) previous = c;
            ++p;
        }
    }
    if (p == last) return std::nullopt;
    char const* const open = p + key.size() - 1;
    char const* const close = closing(open);
    if (close == nullptr) return std::nullopt;
    auto skip_blanks = [close](char const*& q) {
        while (q != close && detail::is_space(*q)) ++q;
    };
    try {
        read_metadata(open, close + 1, first, skip_blanks, m, false);
    } catch (hlo_text_error const&) {
        // Text that is not `key=value`: keep the fields read before it.
    }
    return m;
}

}  // namespace hlomem

#endif  // HLOMEM_HLO_METADATA_HPP
