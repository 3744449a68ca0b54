// Parse errors: where they are (line, byte column), the quoted line cut to a window, control bytes
// made printable, the compiler-style report, and the exception that carries it (core/error.hpp).
#include <hlomem/core/error.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <utility>

using hlomem::parse_error_info;
using hlomem::detail::make_parse_error;

namespace {

/// The error at byte `at` of `text`.
parse_error_info error_at(std::string_view text, std::ptrdiff_t at, std::string message = "expected ','") {
    return make_parse_error("dump.txt", text.data(), text.data() + text.size(), text.data() + at, std::move(message));
}

}  // namespace

TEST_CASE("core/error: line and byte column of the error, and the report with its caret", "[error]") {
    std::string const text = "BufferAssignment:\nallocation 2: size 8x\n";
    auto const e = error_at(text, static_cast<std::ptrdiff_t>(text.find('x')));
    CHECK(e.line == 2);
    CHECK(e.column == 21);  // "allocation 2: size 8" is 20 bytes
    CHECK(e.source_line == "allocation 2: size 8x");
    CHECK(e.caret == 20);
    CHECK(e.to_string() == "dump.txt:2:21: error: expected ','\nallocation 2: size 8x\n" + std::string(20, ' ') + "^");
    // CRLF: the '\r' is not part of the quoted line.
    auto const crlf = error_at("a\r\nbc\r\n", 4);
    CHECK(crlf.line == 2);
    CHECK(crlf.column == 2);
    CHECK(crlf.source_line == "bc");
    // At the very end, after the last line end: an empty line 2.
    auto const end = error_at("ab\n", 3);
    CHECK(end.line == 2);
    CHECK(end.column == 1);
    CHECK(end.source_line.empty());
}

TEST_CASE("core/error: a place outside the text is clamped to it", "[error]") {
    std::string const text = "f32[8";
    auto const before = make_parse_error("<shape>", text.data() + 2, text.data() + 5, text.data(), "m");
    CHECK(before.line == 1);
    CHECK(before.column == 1);
    CHECK(before.source_line == "2[8");
    auto const after = make_parse_error("<shape>", text.data(), text.data() + 3, text.data() + 5, "m");
    CHECK(after.column == 4);
    CHECK(after.source_line == "f32");
}

TEST_CASE("core/error: tabs stay under the caret, control bytes print as '?'", "[error]") {
    auto const tab = error_at("\tx = f33[2]", 5, "unknown primitive type 'f33'");
    CHECK(tab.column == 6);
    CHECK(tab.to_string() == "dump.txt:1:6: error: unknown primitive type 'f33'\n\tx = f33[2]\n\t    ^");
    auto const binary = error_at(std::string_view("a\x01" "b\x7f" "c\0d", 7), 6);
    CHECK(binary.source_line == "a?b?c?d");
    CHECK(binary.column == 7);
}

TEST_CASE("core/error: a long line is quoted as a window of 160 bytes around the error", "[error]") {
    std::string line(1000, 'a');
    line[500] = 'X';
    auto const middle = error_at(line, 500);
    CHECK(middle.column == 501);
    // 80 bytes before the error, 80 from it on, "..." on both sides.
    CHECK(middle.source_line == "..." + std::string(80, 'a') + "X" + std::string(79, 'a') + "...");
    CHECK(middle.caret == 83);
    CHECK(middle.to_string().size() < 400);
    auto const near_start = error_at(line, 10);
    CHECK(near_start.source_line == std::string(160, 'a') + "...");
    CHECK(near_start.caret == 10);
    auto const near_end = error_at(line, 990);
    CHECK(near_end.source_line == "..." + std::string(90, 'a'));
    CHECK(near_end.caret == 83);
}

TEST_CASE("core/error: parse_error carries the report; equality ignores the caret", "[error]") {
    auto info = error_at("f32[8,128{1,0}", 9, "expected ']'");
    info.expected = "']'";
    try {
        hlomem::throw_error(info);
        FAIL("no exception");
    } catch (hlomem::error const& base) {
        auto const& e = dynamic_cast<hlomem::parse_error const&>(base);
        CHECK(std::string(e.what()) == "dump.txt:1:10: error: expected ']'\nf32[8,128{1,0}\n         ^");
        CHECK(e.line() == 1);
        CHECK(e.column() == 10);
        CHECK(e.expected() == "']'");
        CHECK(e.info() == info);
    }
    auto moved_caret = info;
    moved_caret.caret = 0;
    CHECK(moved_caret == info);
    auto other_line = info;
    other_line.line = 2;
    CHECK_FALSE(other_line == info);
}
