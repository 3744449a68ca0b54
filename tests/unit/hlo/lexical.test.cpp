// The lexical errors of HLO text (hlo/lexical.hpp): each at the byte the problem is at, with the
// message the parser prints, as XLA's HloLexer reads strings and brackets; and its small helpers.
#include <hlomem/hlo/lexical.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <string>

namespace {

/// The hlo_text_error `scan` throws on `text` (the test fails when it throws none).
template <class Scan>
hlomem::hlo_text_error lexical_error_of(std::string const& text, Scan scan) {
    try {
        scan(text.data(), text.data() + text.size());
    } catch (hlomem::hlo_text_error const& e) {
        return e;
    }
    FAIL("no hlo_text_error");
    return hlomem::hlo_text_error(nullptr, "");
}

}  // namespace

TEST_CASE("hlo/lexical: brackets and strings that do not close are errors where they are", "[hlo][lexical]") {
    // The header's example on a line of its own: `{` is byte 62 of the second line.
    std::string const mismatched = "x\n%fusion.3 = f32[8]{0} fusion(%p), kind=kLoop, backend_config={\"a\":\"}\"]";
    auto const e = lexical_error_of(mismatched, [&](char const* first, char const* last) {
        hlomem::hlo_lex::scan_raw(first + mismatched.find("{\"a\""), last, first);
    });
    CHECK(std::string(e.what()) == "']' does not match the '{' at column 62; expected '}'");
    CHECK(e.where() - mismatched.data() == static_cast<std::ptrdiff_t>(mismatched.size() - 1));

    std::string const unclosed = "{a, (b";  // the outermost opener is named
    auto const u = lexical_error_of(unclosed, [](char const* first, char const* last) { hlomem::hlo_lex::scan_raw(first, last, first); });
    CHECK(std::string(u.what()) == "'{' is never closed: expected '}' before the end of the input");
    CHECK(u.where() == unclosed.data());

    std::string const deep = std::string(hlomem::detail::max_nesting_depth + 1, '(');
    auto const d = lexical_error_of(deep, [](char const* first, char const* last) { hlomem::hlo_lex::scan_raw(first, last, first); });
    CHECK(std::string(d.what()) == "nesting deeper than 256 levels");
    CHECK(d.where() - deep.data() == 256);

    std::string const open_string = "key=\"abc";
    auto const s = lexical_error_of(open_string, [](char const* first, char const* last) { hlomem::hlo_lex::skip_string(first + 4, last); });
    CHECK(std::string(s.what()) == "unterminated string: '\"' without a closing '\"'");
    CHECK(s.where() - open_string.data() == 4);

    // What reads: a C-escaped string, and a value up to the ',' outside its brackets.
    std::string const escaped = "\"a\\\"b\" rest";
    CHECK(hlomem::hlo_lex::skip_string(escaped.data(), escaped.data() + escaped.size()) - escaped.data() == 6);
    std::string const value = "{\"a\":\"}\"}, kind=kLoop";
    CHECK(hlomem::hlo_lex::scan_raw(value.data(), value.data() + value.size(), value.data()) - value.data() == 9);
}

TEST_CASE("hlo/lexical: is_word matches the whole key, quote cuts names after 80 bytes", "[hlo][lexical]") {
    CHECK(hlomem::hlo_lex::is_word("metadata", "metadata"));
    CHECK_FALSE(hlomem::hlo_lex::is_word("metadat", "metadata"));
    CHECK_FALSE(hlomem::hlo_lex::is_word("metadatas", "metadata"));
    CHECK_FALSE(hlomem::hlo_lex::is_word("", "op_name"));
    CHECK(hlomem::hlo_lex::quote("add.3") == "'add.3'");
    std::string const eighty(80, 'a');
    CHECK(hlomem::hlo_lex::quote(eighty) == "'" + eighty + "'");
    CHECK(hlomem::hlo_lex::quote(eighty + "bc") == "'" + eighty + "...'");
}
