// hlomem/parser/common.hpp: what every hlomem grammar shares — the iterator type, the skipper,
// integers that refuse to overflow, identifiers, the parse state carried in the X3 context, and
// the conversion of failures into parse_error reports with line and column.
//
// Conventions of all hlomem grammars:
//   - input is contiguous memory parsed with `char const*` iterators;
//   - `>` follows every committing token, so a mismatch after it is an error, never a silent
//     backtrack; the failing rule's name is the error's "expected ..." text, so rules are named
//     for humans ("a dimension size", "',' or ']'");
//   - errors the grammar cannot express as an expectation (an unknown type name, an integer that
//     overflows, a layout that is not a permutation) are thrown as `parser::failure` at the
//     offending position;
//   - nothing in an input is skipped silently: a top-level parse must reach the end.
#ifndef HLOMEM_PARSER_COMMON_HPP
#define HLOMEM_PARSER_COMMON_HPP

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/spirit/home/x3.hpp>

#include <hlomem/core/error.hpp>
#include <hlomem/detail/scan.hpp>

namespace hlomem::parser {

namespace x3 = boost::spirit::x3;

/// All hlomem grammars parse contiguous memory.
using iterator_type = char const*;

/// Every hlomem parser says what it reads, for "expected ..." messages: X3 asks get_info, and the
/// one specialization at the end of this header answers with `description()`.
struct described {};

/// The base of hlomem's leaf parsers: the attribute they produce, and the description of what
/// they read (`static constexpr char const* expected = "a shape index such as {1,0}";`).
template <class Derived, class Attribute>
struct token : x3::parser<Derived>, described {
    using attribute_type = Attribute;
    static bool const has_attribute = !std::is_same_v<Attribute, x3::unused_type>;
    std::string description() const { return Derived::expected; }
};

/// A parse error found by a grammar action rather than an expectation point: where it is, what
/// is wrong and, when it is a mismatch, what was expected.
class failure : public std::exception {
public:
    failure(char const* where, std::string message, std::string expected = {})
        : where_(where), message_(std::move(message)), expected_(std::move(expected)) {}
    char const* where() const noexcept { return where_; }
    std::string const& message() const noexcept { return message_; }
    std::string const& expected() const noexcept { return expected_; }
    char const* what() const noexcept override { return message_.c_str(); }

private:
    char const* where_;
    std::string message_;
    std::string expected_;
};

/// State shared by the rules of one parse, reached through the X3 context under `state_tag`.
struct parse_state {
    std::size_t depth = 0;
};
struct state_tag;

/// Whether T is a std::reference_wrapper.
template <class T>
struct is_reference_wrapper : std::false_type {};
template <class T>
struct is_reference_wrapper<std::reference_wrapper<T>> : std::true_type {};

/// The object a grammar keeps in the X3 context under `Tag` (its builder), whether it was given to
/// x3::with by reference or through std::ref.
template <class Tag, class Context>
auto& context_object(Context const& ctx) {
    auto& held = x3::get<Tag>(ctx);
    if constexpr (is_reference_wrapper<std::decay_t<decltype(held)>>::value) {
        return held.get();
    } else {
        return held;
    }
}

/// Increments the nesting depth at `where`, throwing when it passes detail::max_nesting_depth
/// (<hlomem/detail/scan.hpp>).
template <class Context>
void enter_nesting(Context const& ctx, char const* where) {
    auto& state = x3::get<state_tag>(ctx);
    if constexpr (!std::is_same_v<std::decay_t<decltype(state)>, x3::unused_type>) {
        if (++state.depth > ::hlomem::detail::max_nesting_depth) {
            throw failure(where, "nesting deeper than " + std::to_string(::hlomem::detail::max_nesting_depth) + " levels");
        }
    }
}
template <class Context>
void leave_nesting(Context const& ctx) {
    auto& state = x3::get<state_tag>(ctx);
    if constexpr (!std::is_same_v<std::decay_t<decltype(state)>, x3::unused_type>) --state.depth;
}

// ---------------------------------------------------------------------------------------------
// Skipper: blanks, line ends, `/* ... */` (XLA's `/*index=5*/` markers) and `// ...` comments.
// ---------------------------------------------------------------------------------------------

struct skipper_parser : token<skipper_parser, x3::unused_type> {
    static constexpr char const* expected = "blanks or comments";

    template <class Iterator, class Context, class RContext, class Attribute>
    BOOST_FORCEINLINE bool parse(Iterator& first, Iterator const& last, Context const&, RContext&, Attribute&) const {
        // X3 calls the skipper before every token; most of the time there is nothing to skip.
        if (first == last || (*first > ' ' && *first != '/')) return false;
        return skip(first, last);
    }

private:
    static bool skip(char const*& first, char const* last) {
        char const* const p = ::hlomem::detail::skip_space_and_comments(first, last, [](char const* at) -> char const* {
            throw failure(at, "unterminated comment: '/*' without '*/'");
        });
        bool const skipped = p != first;
        first = p;
        return skipped;
    }
};

inline constexpr skipper_parser skipper{};

// ---------------------------------------------------------------------------------------------
// Line-structured text (dumps): blanks are skipped between tokens, line ends are tokens.
// ---------------------------------------------------------------------------------------------

/// Skips spaces and tabs only, for grammars in which a line end means something.
struct blank_skipper_parser : token<blank_skipper_parser, x3::unused_type> {
    static constexpr char const* expected = "blanks";

    template <class Iterator, class Context, class RContext, class Attribute>
    BOOST_FORCEINLINE bool parse(Iterator& first, Iterator const& last, Context const&, RContext&, Attribute&) const {
        // X3 calls the skipper before every token, and between tokens there is mostly nothing to
        // skip: that answer must cost one comparison.
        if (first == last || (*first != ' ' && *first != '\t')) return false;
        do {
            ++first;
        } while (first != last && (*first == ' ' || *first == '\t'));
        return true;
    }
};
inline constexpr blank_skipper_parser blank_skipper{};

/// x3::skip_over with its usual answer inline. X3 skips before every token, and its skip_over is
/// a function call that, most of the time, finds nothing to skip. hlomem's skippers (skipper,
/// blank_skipper) skip only blanks, line ends and comments: characters at most ' ', or '/'.
/// Any other character means there is nothing to skip, decided here without the call. Blanks
/// (and, for `skipper`, line ends) are skipped here too: X3 backtracks, so the line end and
/// indentation before an HLO instruction are skipped again by every alternative tried there
/// (`ROOT` or a name, another attribute after `,`, the end of the computation), and the call to
/// x3::skip_over for them cost 6% of a module parse. Only a comment ('/') still goes to the
/// skipper, which also reports a `/*` never closed.
template <class Iterator, class Context>
BOOST_FORCEINLINE void skip_before(Iterator& first, Iterator const& last, Context const& ctx) {
    auto const ends_skip = [](char c) { return c > ' ' && c != '/'; };
    if (first == last || ends_skip(*first)) return;
    using skipper_type = std::decay_t<decltype(x3::get<x3::skipper_tag>(ctx))>;
    if constexpr (std::is_same_v<skipper_type, skipper_parser>) {
        Iterator p = first;
        while (p != last && ::hlomem::detail::is_space(*p)) ++p;
        first = p;
        if (p == last || *p != '/') return;
    } else if constexpr (std::is_same_v<skipper_type, blank_skipper_parser>) {
        while (first != last && (*first == ' ' || *first == '\t')) ++first;
        return;
    } else if (*first == ' ' && last - first >= 2 && ends_skip(first[1])) {
        ++first;
        return;
    }
    x3::skip_over(first, last, ctx);
}

/// A literal character, matched as x3::lit(C) matches it and named the same way in messages
/// ("expected '='"), with the skip before it decided inline (skip_before): the instruction rule
/// of an HLO module reads one per attribute.
template <char C>
struct char_parser : token<char_parser<C>, x3::unused_type> {
    static constexpr char quoted[4] = {'\'', C, '\'', '\0'};
    static constexpr char const* expected = quoted;

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute&) const {
        skip_before(first, last, ctx);
        if (first == last || *first != C) return false;
        ++first;
        return true;
    }
};
template <char C>
inline constexpr char_parser<C> ch{};

/// The end of a line: `\n`, `\r\n`, or the end of the input (a last line without newline).
struct end_of_line_parser : token<end_of_line_parser, x3::unused_type> {
    static constexpr char const* expected = "the end of the line";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute&) const {
        skip_before(first, last, ctx);
        if (first == last) return true;
        if (*first == '\n') {
            ++first;
            return true;
        }
        if (*first == '\r' && last - first >= 2 && first[1] == '\n') {
            first += 2;
            return true;
        }
        return false;
    }
};
inline constexpr end_of_line_parser end_of_line{};

/// A line with nothing but blanks on it (not the end of the input).
struct blank_line_parser : token<blank_line_parser, x3::unused_type> {
    static constexpr char const* expected = "a blank line";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const&, RContext&, Attribute&) const {
        Iterator p = ::hlomem::detail::skip_blanks(first, last);
        if (p != last && *p == '\r') ++p;
        if (p == last || *p != '\n') return false;
        first = p + 1;
        return true;
    }
};
inline constexpr blank_line_parser blank_line{};

/// The rest of the line (without its line end), as a view: `from instruction: %x = ...`.
struct rest_of_line_parser : token<rest_of_line_parser, std::string_view> {
    static constexpr char const* expected = "the rest of the line";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        skip_before(first, last, ctx);
        // Trailing blanks and the '\r' of a CRLF line end are left for end_of_line.
        Iterator end = ::hlomem::detail::line_end(first, last);
        if (end != first && end[-1] == '\r') --end;
        while (end != first && (end[-1] == ' ' || end[-1] == '\t')) --end;
        x3::traits::move_to(std::string_view(first, static_cast<std::size_t>(end - first)), attr);
        first = end;
        return true;
    }
};
inline constexpr rest_of_line_parser rest_of_line{};

/// An instruction or computation name as dumps print it (`fusion.10`, `custom-call.37.0`,
/// `p5.32.0`): detail::scan_name, up to a blank, a line end or one of `{}<>,:`.
struct name_parser : token<name_parser, std::string_view> {
    static constexpr char const* expected = "a name";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        skip_before(first, last, ctx);
        Iterator const p = ::hlomem::detail::scan_name(first, last);
        if (p == first) return false;
        x3::traits::move_to(std::string_view(first, static_cast<std::size_t>(p - first)), attr);
        first = p;
        return true;
    }
};
inline constexpr name_parser name{};

/// 1-based line and column numbers of positions in one text, for builders that record where each
/// part of a model was read. Positions asked for in increasing order cost amortized O(1); an
/// earlier one restarts the count from the beginning.
class line_counter {
public:
    explicit line_counter(char const* begin) : begin_(begin), counted_(begin) {}

    std::size_t line_of(char const* where) {
        if (where < counted_) {
            counted_ = begin_;
            line_ = 1;
        }
        if (counted_ < where) {
            line_ += ::hlomem::detail::count_lines(counted_, where) - 1;
            counted_ = where;
        }
        return line_;
    }

    /// Counts on from `where`, known to be on line `line`: a part of a text read apart from the
    /// rest starts where the lines before it are already counted.
    void start_at(char const* where, std::size_t line) {
        counted_ = where;
        line_ = line;
    }

    /// Counted in bytes from the start of the line.
    std::size_t column_of(char const* where) const {
        char const* line = where;
        while (line > begin_ && line[-1] != '\n') --line;
        return static_cast<std::size_t>(where - line) + 1;
    }

private:
    char const* begin_;
    char const* counted_;  // line_ is the line of this position
    std::size_t line_ = 1;
};

// ---------------------------------------------------------------------------------------------
// Integers
// ---------------------------------------------------------------------------------------------

/// The digits of a number, for messages; very long ones are cut.
inline std::string quote_number(char const* first, char const* last) {
    std::string text(first, last);
    if (text.size() > 40) text = text.substr(0, 20) + "..." + text.substr(text.size() - 8);
    return text;
}

/// A decimal integer that must fit in int64: `-?[0-9]+`. Overflow is an error at the number
/// ("integer 99999999999999999999 does not fit in int64"), never a wrap or a silent mismatch.
/// With Signed = false a leading '-' does not match.
template <bool Signed>
struct int64_parser : token<int64_parser<Signed>, std::int64_t> {
    static constexpr char const* expected = Signed ? "an integer" : "a non-negative integer";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        skip_before(first, last, ctx);
        Iterator p = first;
        bool negative = false;
        if (Signed && p != last && *p == '-') {
            negative = true;
            ++p;
        }
        if (p == last || *p < '0' || *p > '9') return false;
        std::uint64_t value = 0;
        std::uint64_t const limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
        // value * 10 + digit > limit exactly when value passes limit / 10, or equals it and the
        // digit passes limit % 10: both fixed for the loop, so no division per digit.
        std::uint64_t const limit_tens = limit / 10, limit_units = limit % 10;
        Iterator const digits = p;
        for (; p != last && *p >= '0' && *p <= '9'; ++p) {
            auto const digit = static_cast<std::uint64_t>(*p - '0');
            if (value > limit_tens || (value == limit_tens && digit > limit_units)) {
                while (p != last && *p >= '0' && *p <= '9') ++p;
                throw failure(first, "integer " + std::string(negative ? "-" : "") + quote_number(digits, p) +
                                         " does not fit in int64");
            }
            value = value * 10 + digit;
        }
        std::int64_t const result =
            negative ? (value == (std::uint64_t{1} << 63) ? std::numeric_limits<std::int64_t>::min()
                                                           : -static_cast<std::int64_t>(value))
                     : static_cast<std::int64_t>(value);
        x3::traits::move_to(result, attr);
        first = p;
        return true;
    }
};

/// `-?[0-9]+` into int64, overflow is an error.
inline constexpr int64_parser<true> int64_{};
/// `[0-9]+` into int64, overflow is an error.
inline constexpr int64_parser<false> uint64_{};

/// Narrows an int64 to the policy's int_type, or throws at `where`.
template <class Int>
Int narrow_int(std::int64_t v, char const* where) {
    if (v < static_cast<std::int64_t>(std::numeric_limits<Int>::min()) ||
        v > static_cast<std::int64_t>(std::numeric_limits<Int>::max())) {
        throw failure(where, "integer " + std::to_string(v) + " does not fit in the policy's int_type");
    }
    return static_cast<Int>(v);
}

// ---------------------------------------------------------------------------------------------
// Running a parse and reporting failures
// ---------------------------------------------------------------------------------------------

/// Runs `parse` (which throws x3::expectation_failure or parser::failure on error) and turns a
/// failure into a parse_error_info for the input [begin, end) named `file`.
template <class T, class Parse>
parse_result<T> run_parse(std::string_view file, char const* begin, char const* end, Parse&& parse) {
    try {
        return parse_result<T>(parse());
    } catch (x3::expectation_failure<iterator_type> const& e) {
        // X3 reports the position before the blanks it would have skipped; point at the token.
        char const* where = e.where();
        while (where < end && (*where == ' ' || *where == '\t')) ++where;
        // X3 names a literal string "offset=" and a literal character ']'; hlomem quotes every
        // literal the same way: expected 'offset='.
        std::string which = e.which();
        if (which.size() >= 2 && which.front() == '"' && which.back() == '"') {
            which.front() = '\'';
            which.back() = '\'';
        }
        return parse_result<T>(::hlomem::detail::make_parse_error(file, begin, end, where, "expected " + which, which));
    } catch (failure const& e) {
        return parse_result<T>(::hlomem::detail::make_parse_error(file, begin, end, e.where(), e.message(), e.expected()));
    } catch (parse_error const& e) {
        // A nested parse (a shape inside a dump line) already located its error in the same text.
        return parse_result<T>(e.info());
    }
}

/// Matches the end of the input (after skipping blanks and comments); named for error messages.
struct end_of_input_parser : token<end_of_input_parser, x3::unused_type> {
    static constexpr char const* expected = "end of input";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute&) const {
        skip_before(first, last, ctx);
        return first == last;
    }
};
inline constexpr end_of_input_parser end_of_input{};

/// Gives an expression a name for error messages without changing how it parses (unlike a
/// rule, it keeps the enclosing rule's `_val`): `named("',' or ']'", lit(']'))` makes a failed
/// expectation on it read "expected ',' or ']'".
/// Runs `f(ctx, attribute, where)` when `subject` matches, where `where` is the first character
/// of the match (after blanks). X3 1.74's own actions only see the input after the match, and
/// error messages need the start: `on_match(uint64_, record_dimension)`.
template <class Subject, class F>
struct on_match_parser : x3::unary_parser<Subject, on_match_parser<Subject, F>>, described {
    using base_type = x3::unary_parser<Subject, on_match_parser<Subject, F>>;
    using attribute_type = x3::unused_type;
    static bool const has_attribute = false;
    static bool const has_action = true;

    constexpr on_match_parser(Subject const& subject, F f) : base_type(subject), f(f) {}

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext& rctx, Attribute&) const {
        Iterator const before_blanks = first;
        skip_before(first, last, ctx);
        Iterator const start = first;
        typename x3::traits::attribute_of<Subject, Context>::type value{};
        if (!this->subject.parse(first, last, ctx, rctx, value)) return false;
        // An empty match (eps) consumes nothing, not even the blanks before it, so that a shape
        // parsed from the middle of a text ends right after its last character.
        if (first == start) first = before_blanks;
        // As X3's own actions do: `_val(ctx)` is the enclosing rule's attribute.
        auto const val_ctx = x3::make_context<x3::rule_val_context_tag>(rctx, ctx);
        f(val_ctx, value, static_cast<char const*>(start));
        return true;
    }

    std::string description() const { return x3::what(this->subject); }

    F f;
};

template <class Subject, class F>
constexpr auto on_match(Subject const& subject, F f) {
    using parser_type = typename x3::extension::as_parser<Subject>::value_type;
    return on_match_parser<parser_type, F>(x3::as_parser(subject), f);
}

template <class Subject>
struct named_parser : x3::unary_parser<Subject, named_parser<Subject>>, described {
    using base_type = x3::unary_parser<Subject, named_parser<Subject>>;
    static bool const is_pass_through_unary = true;
    static bool const handles_container = Subject::handles_container;

    constexpr named_parser(Subject const& subject, char const* name) : base_type(subject), name(name) {}

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext& rctx, Attribute& attr) const {
        return this->subject.parse(first, last, ctx, rctx, attr);
    }

    std::string description() const { return name; }

    char const* name;
};

template <class Subject>
constexpr auto named(char const* name, Subject const& subject) {
    using parser_type = typename x3::extension::as_parser<Subject>::value_type;
    return named_parser<parser_type>(x3::as_parser(subject), name);
}

}  // namespace hlomem::parser

namespace boost::spirit::x3 {
/// "expected ..." for every hlomem parser: its description().
template <class Parser>
struct get_info<Parser, std::enable_if_t<std::is_base_of_v<hlomem::parser::described, Parser>>> {
    using result_type = std::string;
    std::string operator()(Parser const& p) const { return p.description(); }
};
}  // namespace boost::spirit::x3

#endif  // HLOMEM_PARSER_COMMON_HPP
