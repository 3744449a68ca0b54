// hlomem/parser/hlo_tokens.hpp: what the HLO module grammar (<hlomem/parser/hlo_module.hpp>)
// reads with: the reader its actions reach through the X3 context (the module builder, the text,
// and the parts of entries read piece by piece), and its tokens — keywords, names, strings and
// values kept as text — as X3 parsers over the scanners of <hlomem/detail/scan.hpp>, whose
// failures <hlomem/hlo/lexical.hpp> turns into errors. Shapes are read by parser/shape.hpp's
// table_shape_parser into the module's shape table (`hlo_shape`):
//
//   ROOT %fusion.3 = f32[8]{0} fusion(%p), kind=kLoop, backend_config={"a":"}"}
//   ^^^^ keyword     ^^^^^^^^^ hlo_shape               ^^^^^^^^^^^^^^^^^^^^^^^^ raw value
#ifndef HLOMEM_PARSER_HLO_TOKENS_HPP
#define HLOMEM_PARSER_HLO_TOKENS_HPP

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/detail/scan.hpp>
#include <hlomem/hlo/lexical.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/hlo/module_builder.hpp>
#include <hlomem/parser/api.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/shape.hpp>

namespace hlomem::parser {

// ---------------------------------------------------------------------------------------------
// The reader: the builder, the text it reads, and what the grammar holds between actions
// ---------------------------------------------------------------------------------------------

struct hlo_reader_tag;

/// The state of one parse of [begin, end) named `file`: a module builder fed with offsets into
/// the text, the modules built, and the entries of tables read in parts (a shape index, an
/// alias, a slice) until they are whole.
template <class P>
struct hlo_text_reader {
    hlo_text_reader(std::string_view file, char const* begin, char const* end)
        : file_name(file), begin(begin), end(end), builder(std::string_view(begin, static_cast<std::size_t>(end - begin))) {}

    /// The builder's location of `p`: its offset in the text.
    std::size_t at(char const* p) const noexcept { return static_cast<std::size_t>(p - begin); }

    /// What table_shape_parser and intern_shape read shapes into and name in their errors.
    basic_shape_table<P>& shapes() noexcept { return builder.shapes(); }
    std::string_view file() const noexcept { return file_name; }
    char const* text_begin() const noexcept { return begin; }

    std::string_view file_name;
    char const* begin;
    char const* end;
    basic_hlo_module_builder<P> builder;
    std::vector<basic_hlo_module<P>> modules;
    std::vector<char const*> module_starts;  // where each module's `HloModule` keyword is

    basic_shape_index<P> index;               // `{1,0}`, taken by the alias that reads it
    basic_input_output_alias<P> io_alias;     // an entry of input_output_alias=
    char const* io_alias_where = nullptr;     //   its parameter number
    std::int64_t donor_parameter = 0;         // an entry of buffer_donor=
    char const* donor_where = nullptr;        //   its parameter number
    basic_output_operand_alias<P> operand_alias;
    hlo_slice slice;
    std::string_view frame_key;               // `line` of FileLocations' `line=3`
    char const* entry_keyword = nullptr;      // `ENTRY` before the computation's name
    char const* root_keyword = nullptr;       // `ROOT` before the instruction's name
};

template <class Context>
auto& reader_of(Context const& ctx) {
    return x3::get<hlo_reader_tag>(ctx);
}

// ---------------------------------------------------------------------------------------------
// Tokens: X3 parsers over the lexical helpers
// ---------------------------------------------------------------------------------------------

/// A word that must not run on into an identifier: `ROOT`, `ENTRY`, `HloModule`, `may-alias`.
struct keyword_parser : token<keyword_parser, x3::unused_type> {
    std::string description() const { return std::string("'") + word + "'"; }

    constexpr explicit keyword_parser(char const* word) : word(word) {}

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute&) const {
        skip_before(first, last, ctx);
        std::string_view const w(word);
        if (static_cast<std::size_t>(last - first) < w.size() || std::string_view(first, w.size()) != w) return false;
        if (first + w.size() != last && ::hlomem::detail::is_identifier_char(first[w.size()])) return false;
        first += w.size();
        return true;
    }

    char const* word;
};
constexpr keyword_parser hlo_keyword(char const* word) { return keyword_parser(word); }

/// Where a token lies: its text [first, last), and where the input continues after it (which
/// is past `last` for a string's closing quote or a name's '%'). `next == nullptr`: no token.
struct lexeme {
    char const* first = nullptr;
    char const* last = nullptr;
    char const* next = nullptr;
};

/// A token read by `Lexer::scan(p, last, ctx)` at p (after blanks), whose attribute is its text
/// as a view into the input; `Lexer::expectation` names it in "expected ..." messages.
template <class Lexer>
struct token_parser : token<token_parser<Lexer>, std::string_view> {
    static constexpr char const* expected = Lexer::expectation;

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        skip_before(first, last, ctx);
        lexeme const t = Lexer::scan(first, last, ctx);
        if (t.next == nullptr) return false;
        x3::traits::move_to(std::string_view(t.first, static_cast<std::size_t>(t.last - t.first)), attr);
        first = t.next;
        return true;
    }
};

/// `[A-Za-z_][A-Za-z0-9_.-]*`.
struct identifier_lexer {
    static constexpr char const* expectation = "an identifier";
    template <class Context>
    static lexeme scan(char const* p, char const* last, Context const&) {
        char const* const end = ::hlomem::detail::scan_identifier(p, last);
        return end == p ? lexeme{} : lexeme{p, end, end};
    }
};
inline constexpr token_parser<identifier_lexer> hlo_identifier{};

/// An instruction or computation name, with or without XLA's `%` sigil; the view excludes it.
struct name_lexer {
    static constexpr char const* expectation = "a name";
    template <class Context>
    static lexeme scan(char const* p, char const* last, Context const&) {
        char const* const start = p != last && *p == '%' ? p + 1 : p;
        char const* const end = ::hlomem::detail::scan_identifier(start, last);
        return end == start ? lexeme{} : lexeme{start, end, end};
    }
};
inline constexpr token_parser<name_lexer> hlo_name{};

/// `"..."`; the view is the text between the quotes, escapes left as written.
struct string_lexer {
    static constexpr char const* expectation = "a string in double quotes";
    template <class Context>
    static lexeme scan(char const* p, char const* last, Context const&) {
        if (p == last || *p != '"') return lexeme{};
        char const* const end = hlo_lex::skip_string(p, last);
        return lexeme{p + 1, end - 1, end};
    }
};
inline constexpr token_parser<string_lexer> hlo_string{};

/// An attribute value kept as text (detail::scan_raw, its failures thrown by hlo_lex::scan_raw);
/// never empty.
struct raw_value_lexer {
    static constexpr char const* expectation = "an attribute value";
    template <class Context>
    static lexeme scan(char const* p, char const* last, Context const& ctx) {
        char const* const end = hlo_lex::scan_raw(p, last, reader_of(ctx).begin);
        return end == p ? lexeme{} : lexeme{p, end, end};
    }
};
inline constexpr token_parser<raw_value_lexer> hlo_raw_value{};

/// A shape, read into the module's shape table; the attribute is its shape_id. Text that does
/// not start with '(' or a letter is no match (an operand without a shape).
inline constexpr table_shape_parser<hlo_reader_tag, shape_presence::optional> hlo_shape{};

}  // namespace hlomem::parser

#endif  // HLOMEM_PARSER_HLO_TOKENS_HPP
