// The strict JSON reader of snapshots: integers only, UTF-8 from \u escapes, every error at its
// line and column (detail/json_value.hpp).
#include <hlomem/detail/json_value.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

using hlomem::detail::json_error;
using hlomem::detail::json_value;
using hlomem::detail::parse_json;

namespace {

/// "line:column: message" of the error reading `text`, or "ok".
std::string error_of(std::string const& text) {
    try {
        (void)parse_json(text);
        return "ok";
    } catch (json_error const& e) {
        return std::to_string(e.line) + ":" + std::to_string(e.column) + " " + e.what();
    }
}

}  // namespace

TEST_CASE("detail/json_value: objects keep their order, arrays their items, integers all of int64", "[json_value]") {
    auto const v = parse_json(" {\"format_version\": 1, \"peak\": -9223372036854775808,\n"
                              "  \"names\": [\"a\", true, false, null, []], \"max\": 9223372036854775807, \"o\": {}}\r\n");
    REQUIRE(v.kind() == json_value::type::object);
    REQUIRE(v.members().size() == 5);
    CHECK(v.members()[2].first == "names");
    CHECK(v.at("format_version").integer() == 1);
    CHECK(v.at("peak").integer() == INT64_MIN);
    CHECK(v.at("max").integer() == INT64_MAX);
    auto const& names = v.at("names").array();
    REQUIRE(names.size() == 5);
    CHECK(names[0].string() == "a");
    CHECK(names[1].boolean());
    CHECK_FALSE(names[2].boolean());
    CHECK(names[3].is_null());
    CHECK(names[4].array().empty());
    CHECK(v.at("o").members().empty());
    CHECK(v.find("absent") == nullptr);
}

TEST_CASE("detail/json_value: escapes, and \\u escapes written back as UTF-8", "[json_value]") {
    // RFC 8259 section 7; U+00E9 is C3 A9, U+20AC is E2 82 AC, U+1F600 (the pair D83D DE00) F0 9F 98 80.
    CHECK(parse_json(R"("a\"b\\c\/d\n\t\r\b\f")").string() == "a\"b\\c/d\n\t\r\b\f");
    CHECK(parse_json(R"("\u00e9\u20AC\ud83d\ude00\u0041")").string() == "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80" "A");
    CHECK(error_of(R"("\ud83d x")") == "1:8 line 1, column 8: a high surrogate without its low one");
    CHECK(error_of(R"("\ude00")") == "1:8 line 1, column 8: a low surrogate alone");
    CHECK(error_of(R"("\u12g4")") == "1:6 line 1, column 6: expected four hexadecimal digits after \\u");
    CHECK(error_of(R"("\q")") == "1:3 line 1, column 3: an unknown escape in a string");
    CHECK(error_of("\"ends in a backslash\\") == "1:22 line 1, column 22: an unknown escape in a string");
    CHECK(error_of("\"tab\there\"") == "1:5 line 1, column 5: a control character in a string");
    CHECK(error_of("\"open") == "1:6 line 1, column 6: a string without its closing quote");
}

TEST_CASE("detail/json_value: what is not strict JSON is an error at its line and column", "[json_value][errors]") {
    CHECK(error_of("") == "1:1 line 1, column 1: unexpected end of text");
    CHECK(error_of("[1,\n 2,]") == "2:4 line 2, column 4: expected a JSON value");
    CHECK(error_of("{\"a\":1,\"a\":2}") == "1:8 line 1, column 8: the key 'a' twice in one object");
    CHECK(error_of("{\"a\" 1}") == "1:6 line 1, column 6: expected ':' after a key");
    CHECK(error_of("{1:2}") == "1:2 line 1, column 2: expected a key (a string)");
    CHECK(error_of("[1 2]") == "1:4 line 1, column 4: expected ',' or ']'");
    CHECK(error_of("{} {}") == "1:4 line 1, column 4: text after the JSON value");
    CHECK(error_of("// c\n1") == "1:1 line 1, column 1: expected a JSON value");
    CHECK(error_of("tru") == "1:1 line 1, column 1: expected a JSON value");
    CHECK(error_of("012") == "1:1 line 1, column 1: a number with a leading zero");
    CHECK(error_of("-") == "1:2 line 1, column 2: expected a digit");
    CHECK(error_of("1.5") == "1:2 line 1, column 2: a number with a fraction or an exponent (only integers are read)");
    CHECK(error_of("9223372036854775808") == "1:19 line 1, column 19: an integer out of the range of int64");
    CHECK(error_of("-9223372036854775809") == "1:20 line 1, column 20: an integer out of the range of int64");
    // At most 64 levels below the document: [[...[1]...]] with 64 brackets reads, 100 do not.
    CHECK(error_of(std::string(64, '[') + "1" + std::string(64, ']')) == "ok");
    CHECK(error_of(std::string(100, '[') + std::string(100, ']')) == "1:66 line 1, column 66: nested more than 64 deep");
}

TEST_CASE("detail/json_value: a value of the wrong type or a missing key is a json_error without a place",
          "[json_value][errors]") {
    auto const v = parse_json(R"({"n": "12"})");
    CHECK_THROWS_WITH(v.at("n").integer(), "expected an integer");
    CHECK_THROWS_WITH(v.at("m"), "no member 'm'");
    CHECK_THROWS_WITH(v.array(), "expected an array");
    CHECK_THROWS_WITH(v.at("n").members(), "expected an object");
    try {
        (void)v.at("n").boolean();
        FAIL("no error");
    } catch (json_error const& e) {
        CHECK(e.line == 0);
        CHECK(e.column == 0);
    }
}
