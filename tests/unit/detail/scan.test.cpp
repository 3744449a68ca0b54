// detail/scan.hpp: the lexical layer the parsers share (blanks, comments, names, strings,
// brackets, the end of a shape's text).
#include <hlomem/detail/scan.hpp>
#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <cstdint>
#include <utility>
#include <vector>

namespace {

/// Runs `scan` over `text` and returns what is left after it (nullptr: "<none>").
template <class Scan>
std::string_view rest(std::string_view text, Scan scan) {
    char const* const last = text.data() + text.size();
    char const* const p = scan(text.data(), last);
    if (p == nullptr) return "<none>";
    return std::string_view(p, static_cast<std::size_t>(last - p));
}

}  // namespace

TEST_CASE("skip_blanks skips spaces and tabs only", "[scan]") {
    CHECK(rest(" \t x", hlomem::detail::skip_blanks) == "x");
    CHECK(rest(" \n x", hlomem::detail::skip_blanks) == "\n x");
    CHECK(rest("", hlomem::detail::skip_blanks).empty());
}

TEST_CASE("skip_space_and_comments skips line ends and both kinds of comments", "[scan]") {
    auto skip = [](char const* p, char const* last) { return hlomem::detail::skip_space_and_comments(p, last); };
    CHECK(rest("  /*index=5*/ f32[8]", skip) == "f32[8]");
    CHECK(rest("// a comment\n\r\n\tx", skip) == "x");
    CHECK(rest("/* a */ // b\n/* c */y", skip) == "y");
    CHECK(rest("/x", skip) == "/x");
    // A '/*' that is never closed is left for the caller to report.
    CHECK(rest("  /* never closed", skip) == "/* never closed");
    CHECK(rest("// to the end", skip).empty());
}

TEST_CASE("scan_name stops at blanks, line ends and {}<>,:", "[scan]") {
    auto name = hlomem::detail::scan_name;
    CHECK(rest("fusion.10{1}, x", name) == "{1}, x");
    CHECK(rest("custom-call.37.0 @0>", name) == " @0>");
    CHECK(rest("p5.32.0:0-80", name) == ":0-80");
    CHECK(rest("a<b", name) == "<b");
    CHECK(rest(",x", name) == ",x");
    CHECK(rest("last", name).empty());
}

TEST_CASE("skip_quoted skips escapes and reports an unclosed string", "[scan]") {
    auto quoted = hlomem::detail::skip_quoted;
    CHECK(rest(R"("abc" rest)", quoted) == " rest");
    CHECK(rest(R"("a\"b" rest)", quoted) == " rest");
    CHECK(rest(R"("a\\" rest)", quoted) == " rest");
    CHECK(rest(R"("a\\\"b" rest)", quoted) == " rest");
    CHECK(rest(R"("never closed)", quoted) == "<none>");
    CHECK(rest(R"("a\")", quoted) == "<none>");
}

TEST_CASE("skip_balanced nests all three kinds of brackets and skips comments", "[scan]") {
    auto balanced = hlomem::detail::skip_balanced;
    CHECK(rest("[8,(2)]{0}", balanced) == "{0}");
    CHECK(rest("(f32[8]{0}, (s32[], pred[2])) x", balanced) == " x");
    CHECK(rest("[8 /* ] */ ,2] x", balanced) == " x");
    CHECK(rest("[8, // ]\n 2] x", balanced) == " x");
    CHECK(rest("[8,2", balanced).empty());
    CHECK(rest("[8, /* never closed ]", balanced).empty());
}

TEST_CASE("scan_shape_end stops where the shape grammar does", "[scan]") {
    auto end = hlomem::detail::scan_shape_end;
    CHECK(rest("f32[8]{0} parameter(0)", end) == " parameter(0)");
    CHECK(rest("bf16[4096,3584]{1,0:T(8,128)(2,1)}, x", end) == ", x");
    // A '{' after the dimensions is a layout only when an integer or ':' follows.
    CHECK(rest("f32[8] {0}", end).empty());
    CHECK(rest("f32[8] {x=1}", end) == " {x=1}");
    CHECK(rest("f32[8]{:T(8)} x", end) == " x");
    CHECK(rest("(f32[8], s32[]) tuple(", end) == " tuple(");
    CHECK(rest("b(f32[8]) x", end) == " x");
    CHECK(rest("token[] after-all()", end) == " after-all()");
    CHECK(rest("f32[] x", end) == " x");
    CHECK(rest("%x", end) == "%x");
    CHECK(rest("", end).empty());
}

TEST_CASE("line_end, next_line and count_lines find line ends", "[scan]") {
    CHECK(rest("ab\ncd", hlomem::detail::line_end) == "\ncd");
    CHECK(rest("ab", hlomem::detail::line_end).empty());
    CHECK(rest("ab\ncd", hlomem::detail::next_line) == "cd");
    CHECK(rest("ab", hlomem::detail::next_line).empty());
    auto lines = [](std::string_view s) { return hlomem::detail::count_lines(s.data(), s.data() + s.size()); };
    CHECK(lines("") == 1);
    CHECK(lines("a\nb") == 2);
    CHECK(lines("a\nb\n") == 3);
    // Every length up to a few hundred bytes, line ends at irregular places, and texts made only
    // of line ends (a vectorised count once got these wrong: scan.hpp, count_lines).
    for (std::size_t n = 0; n <= 3 * 128 + 17; ++n) {
        std::string text(n, 'x');
        std::size_t ends = 0;
        for (std::size_t i = 0; i < n; i += 1 + i % 7) {
            text[i] = '\n';
            ++ends;
        }
        CHECK(lines(text) == ends + 1);
        CHECK(lines(std::string(n, '\n')) == n + 1);
    }
}

TEST_CASE("hash_text depends on every byte and on the length", "[scan]") {
    auto hash = [](std::string_view s) { return hlomem::detail::hash_text(s.data(), s.size()); };
    CHECK(hash("f32[8]{0}") == hash(std::string("f32[8]{0}")));
    CHECK(hash("f32[8]{0}") != hash("f32[9]{0}"));
    // The same bytes in the last word, padded with zeros, differ by length.
    CHECK(hash(std::string_view("ab\0", 3)) != hash("ab"));
    CHECK(hash("") != hash(std::string_view("\0", 1)));
    // A change in the first of several words, and in a tail after full words.
    CHECK(hash("bf16[32,6144]{1,0:T(8,128)}") != hash("cf16[32,6144]{1,0:T(8,128)}"));
    CHECK(hash("bf16[32,6144]{1,0:T(8,128)}") != hash("bf16[32,6144]{1,0:T(8,128))"));
}

TEST_CASE("scan_identifier reads [A-Za-z_][A-Za-z0-9_.-]*", "[scan]") {
    auto identifier = hlomem::detail::scan_identifier;
    CHECK(rest("custom-call.3(%p)", identifier) == "(%p)");
    CHECK(rest("_x1 = y", identifier) == " = y");
    CHECK(rest("3x", identifier) == "3x");
    CHECK(rest("%x", identifier) == "%x");
    CHECK(rest("", identifier).empty());
}

TEST_CASE("scan_identifier classes every byte as XLA's lexer does, in names of any length", "[scan]") {
    // Names of 1 to 40 bytes, so that the end falls at every place of the sixteen-byte blocks
    // scan_identifier classes at once, followed by every byte value: XLA's HloLexer
    // (hlo_lexer.cc) continues an identifier with [a-zA-Z0-9_.-] only.
    auto const continues = [](int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
    };
    std::string const body = "fusion.12_custom-call.3_ABCxyz-0123456789";
    for (std::size_t length = 1; length <= 40; ++length) {
        for (int c = 0; c < 256; ++c) {
            std::string text = body.substr(0, length);
            text += static_cast<char>(c);
            text += "(%p) and more text after it";
            char const* const end = hlomem::detail::scan_identifier(text.data(), text.data() + text.size());
            auto const read = static_cast<std::size_t>(end - text.data());
            INFO("length " << length << ", then byte " << c);
            CHECK(read == (continues(c) ? length + 1 : length));
        }
        // An identifier that runs to the end of the input.
        std::string const whole = body.substr(0, length);
        CHECK(rest(whole, hlomem::detail::scan_identifier).empty());
    }
}

TEST_CASE("scan_shape_end reads long dimension and layout lists, and hands others to skip_balanced", "[scan]") {
    auto end = hlomem::detail::scan_shape_end;
    CHECK(rest("bf16[1,2,4,8192,6144,1024,65536]{6,5,4,3,2,1,0} x", end) == " x");
    CHECK(rest("bf16[1,2,4,8192,6144,1024,65536]{6,5,4,3,2,1,0}", end).empty());
    CHECK(rest("f32[1234567890123456,1]{1,0:T(8,128)(2,1)} x", end) == " x");
    CHECK(rest("f32[8,/* ] */16]{1,0} x", end) == " x");
    CHECK(rest("f32[8,16 // ]\n]{1,/* } */0} x", end) == " x");
    CHECK(rest("f32[<=1234567890,16]{1,0} x", end) == " x");
    CHECK(rest("f32[1234567890,1234567890,1]{2,1,0", end).empty());  // a layout never closed
    CHECK(rest("f32[1234567890,1234567890,1", end).empty());
}

TEST_CASE("scan_raw keeps brackets matched and strings whole", "[scan]") {
    using hlomem::detail::raw_scan;
    auto scan = [](std::string_view s, bool to_close = false) {
        return hlomem::detail::scan_raw(s.data(), s.data() + s.size(), to_close);
    };
    auto after = [](std::string_view s, raw_scan const& r) { return s.substr(static_cast<std::size_t>(r.end - s.data())); };
    std::string_view const value = R"({"a":"}"}, kind=kLoop)";
    raw_scan r = scan(value);
    CHECK(r.problem == raw_scan::none);
    CHECK(after(value, r) == ", kind=kLoop");
    std::string_view const wide = "[2,8]<=[16] x";
    CHECK(after(wide, scan(wide)) == " x");
    std::string_view const payload = "{1, 2}, {3} ) rest";  // with to_close, ',' and blanks do not end it
    CHECK(after(payload, scan(payload, true)) == ") rest");
    std::string_view const mismatched = "{a]";
    r = scan(mismatched);
    CHECK(r.problem == raw_scan::mismatched);
    CHECK(after(mismatched, r) == "]");
    CHECK(r.opener == mismatched.data());
    std::string_view const unclosed = "x{(a)";
    r = scan(unclosed);
    CHECK(r.problem == raw_scan::unclosed);
    CHECK(r.opener == unclosed.data() + 1);
    std::string_view const string = R"({"never closed})";
    r = scan(string);
    CHECK(r.problem == raw_scan::unclosed_string);
    CHECK(r.end == string.data() + 1);
    std::string const deep(hlomem::detail::max_nesting_depth + 1, '(');
    r = hlomem::detail::scan_raw(deep.data(), deep.data() + deep.size());
    CHECK(r.problem == raw_scan::too_deep);
    CHECK(r.end == deep.data() + hlomem::detail::max_nesting_depth);
}
