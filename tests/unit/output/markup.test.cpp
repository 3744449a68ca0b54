// Text for the timeline's SVG, HTML and trace (output/markup.hpp): markup escapes and the control
// characters XML 1.0 forbids, UTF-8 validated as RFC 3629 defines it, JSON that cannot end a
// <script> element, and coordinates.
#include <hlomem/output/markup.hpp>

#include <catch2/catch.hpp>

#include <string>

namespace {

std::string const fffd = "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER

std::string times(std::string const& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
}

}  // namespace

TEST_CASE("output/markup: the five markup characters are escaped, forbidden controls replaced", "[output][markup]") {
    CHECK(hlomem::escape_markup("a<b>&\"'z") == "a&lt;b&gt;&amp;&quot;&#39;z");
    CHECK(hlomem::escape_markup("").empty());
    // XML 1.0 (Char production): of C0 controls only tab, newline and carriage return are allowed.
    CHECK(hlomem::escape_markup("\t\n\r") == "\t\n\r");
    CHECK(hlomem::escape_markup(std::string("a\0b", 3)) == "a" + fffd + "b");
    CHECK(hlomem::escape_markup("\x01\x1F") == fffd + fffd);
    // Bytes of UTF-8 sequences (negative chars) pass unchanged: "é" and "€".
    CHECK(hlomem::escape_markup("\xC3\xA9\xE2\x82\xAC") == "\xC3\xA9\xE2\x82\xAC");
}

TEST_CASE("output/markup: valid UTF-8 is kept, up to each boundary RFC 3629 sets", "[output][markup]") {
    for (char const* s : {"", "plain ascii", "\xDF\xBF" /* U+07FF */, "\xE0\xA0\x80" /* U+0800 */,
                          "\xED\x9F\xBF" /* U+D7FF */, "\xEE\x80\x80" /* U+E000 */, "\xEF\xBF\xBF" /* U+FFFF */,
                          "\xF0\x90\x80\x80" /* U+10000 */, "\xF4\x8F\xBF\xBF" /* U+10FFFF */}) {
        CAPTURE(s);
        CHECK(hlomem::valid_utf8(s) == s);
    }
}

TEST_CASE("output/markup: what is not UTF-8 becomes U+FFFD, the text around it kept", "[output][markup]") {
    // Each expectation is the Unicode Standard's recommended substitution (chapter 3, "U+FFFD
    // Substitution of Maximal Subparts", table 3-8): one U+FFFD per byte that cannot begin or
    // continue a well-formed sequence.
    CHECK(hlomem::valid_utf8("a\x80z") == "a" + fffd + "z");                 // lone continuation byte
    CHECK(hlomem::valid_utf8("\xC0\xAF") == times(fffd, 2));                 // overlong '/'
    CHECK(hlomem::valid_utf8("\xF0\x8F\xBF\xBF") == times(fffd, 4));         // overlong U+FFFF
    CHECK(hlomem::valid_utf8("\xED\xA0\x80") == times(fffd, 3));             // surrogate U+D800
    CHECK(hlomem::valid_utf8("\xF4\x90\x80\x80") == times(fffd, 4));         // U+110000, past Unicode
    CHECK(hlomem::valid_utf8("\xF8\x88\x80\x80\x80") == times(fffd, 5));     // a five-byte form
    CHECK(hlomem::valid_utf8("\xFF" "ab\xC3\xA9") == fffd + "ab\xC3\xA9");   // the valid é after it kept
    // A sequence cut off by the end of the text: what is left is valid and holds no raw lead byte.
    auto const cut = hlomem::valid_utf8("ab\xE2\x82");
    CHECK(cut.rfind("ab" + fffd, 0) == 0);
    CHECK(cut.find('\xE2') == std::string::npos);
    CHECK(hlomem::valid_utf8(cut) == cut);
}

TEST_CASE("output/markup: JSON in a script element has no <, > or & left", "[output][markup]") {
    CHECK(hlomem::script_safe_json(R"({"n":"</script><!--&"})") == R"({"n":"\u003c/script\u003e\u003c!--\u0026"})");
    CHECK(hlomem::script_safe_json(R"({"a":[1,2]})") == R"({"a":[1,2]})");
}

TEST_CASE("output/markup: coordinates have one decimal and no trailing .0", "[output][markup]") {
    CHECK(hlomem::coord(12.34) == "12.3");
    CHECK(hlomem::coord(40.0) == "40");
    CHECK(hlomem::coord(7.96) == "8");
    CHECK(hlomem::coord(-3.5) == "-3.5");
    CHECK(hlomem::coord(0.0) == "0");
    CHECK(hlomem::coord(-0.04) == "0");  // "-0.0" would be a negative zero
    CHECK(hlomem::coord(1e6) == "1000000");
}
