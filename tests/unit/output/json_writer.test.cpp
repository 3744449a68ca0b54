// The JSON writer's strings (<hlomem/output/json_writer.hpp>): RFC 8259's escapes, for strings
// that the writer copies 16 or 8 bytes at a time (copy_plain's block tests) and for those it copies a
// byte at a time, with the character to escape at every position of a word, next to UTF-8 bytes
// (0x80 and above, which stay as they are).
#include <hlomem/output/json_writer.hpp>

#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <string_view>

namespace {

std::string written(std::string_view s) {
    std::ostringstream out;
    {
        hlomem::json_writer json(out, false);
        json.value(s);
    }
    return out.str();
}

}  // namespace

TEST_CASE("json_writer: strings without escapes are copied whole, of every length", "[output][json]") {
    std::string const text = "/usr/lib/python3/site-packages/jax/_src/numpy/lax_numpy.py \xc3\xa9\xe2\x82\xac\x7f";
    for (std::size_t n = 0; n <= text.size(); ++n) {
        CHECK(written(text.substr(0, n)) == "\"" + text.substr(0, n) + "\"");
    }
}

TEST_CASE("json_writer: each character that needs an escape, at every place in a word", "[output][json]") {
    struct escape {
        char c;
        std::string_view as;
    };
    for (auto const& e : {escape{'"', "\\\""}, escape{'\\', "\\\\"}, escape{'\n', "\\n"}, escape{'\r', "\\r"},
                          escape{'\t', "\\t"}, escape{'\x01', "\\u0001"}, escape{'\x1f', "\\u001f"}, escape{'\0', "\\u0000"}}) {
        // 40 bytes: two blocks of 16 (SSE2), then a word of 8 and bytes one by one.
        for (std::size_t at = 0; at < 40; ++at) {
            std::string s(40, 'a');
            s[at] = e.c;
            s[(at + 3) % 40] = '\xc3';  // a UTF-8 lead byte in the same word
            std::string expected = s.substr(0, at) + std::string(e.as) + s.substr(at + 1);
            CHECK(written(s) == "\"" + expected + "\"");
        }
    }
    // 0x20 (a space) and 0x21, 0x23, 0x5b, 0x5d next to '"' and '\\' are not escaped.
    CHECK(written("  !#[]{}~\x7f  !#[]") == "\"  !#[]{}~\x7f  !#[]\"");
}

TEST_CASE("json_writer: commas, empty containers and two spaces of indent a level, at any depth", "[output][json]") {
    // A document spelled out by hand: keys, a null, an empty array and object, and nesting from
    // one level to 40 (the indent is one fixed copy up to 15 levels, written in runs past it).
    for (std::size_t depth : {std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{40}}) {
        INFO(depth);
        std::ostringstream out;
        {
            hlomem::json_writer json(out);
            for (std::size_t d = 0; d < depth; ++d) json.begin_array();
            json.begin_object().member("a", 1).key("b").null().key("c").begin_array().end_array().key("d").begin_object().end_object().end_object();
            json.value(std::string_view("x"));
            for (std::size_t d = 0; d < depth; ++d) json.end_array();
            json.finish();
        }
        auto indent = [](std::size_t levels) { return std::string(2 * levels, ' '); };
        std::string expected;
        for (std::size_t d = 0; d < depth; ++d) expected += (d ? "\n" + indent(d) : std::string()) + "[";
        expected += "\n" + indent(depth) + "{";
        expected += "\n" + indent(depth + 1) + "\"a\": 1,";
        expected += "\n" + indent(depth + 1) + "\"b\": null,";
        expected += "\n" + indent(depth + 1) + "\"c\": [],";
        expected += "\n" + indent(depth + 1) + "\"d\": {}";
        expected += "\n" + indent(depth) + "},";
        expected += "\n" + indent(depth) + "\"x\"";
        for (std::size_t d = depth; d-- > 0;) expected += "\n" + indent(d) + "]";
        expected += "\n";
        CHECK(out.str() == expected);
    }
}

TEST_CASE("json_writer: a value written once by a nested writer and copied equals the value written", "[output][json]") {
    // What a report does for an origin repeated across values (output/sources.hpp,
    // value_text_cache): the object is written by a nested_value writer at the document's here()
    // and copied with raw_value; the document must not change, at any depth, indented or not.
    auto object = [](hlomem::json_writer& json) {
        json.begin_object().member("kind", "own").key("how").null().key("stack").begin_array();
        json.begin_object().member("line", 3).end_object().end_array().end_object();
    };
    for (bool pretty : {true, false}) {
        for (std::size_t depth : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{16}, std::size_t{20}}) {
            INFO(pretty << " " << depth);
            std::ostringstream direct, copied;
            for (auto* out : {&direct, &copied}) {
                hlomem::json_writer json(*out, pretty);
                for (std::size_t d = 0; d < depth; ++d) json.begin_array();
                json.begin_object().member("id", 1).key("origin");
                if (out == &direct) {
                    object(json);
                } else {
                    std::ostringstream text;
                    {
                        hlomem::json_writer nested(text, json.here());
                        object(nested);
                    }
                    json.raw_value(text.str());
                }
                json.member("after", 2).end_object();
                for (std::size_t d = 0; d < depth; ++d) json.end_array();
                json.finish();
            }
            CHECK(copied.str() == direct.str());
        }
    }
}

TEST_CASE("json_writer: plain_value writes only what needs no escape", "[output][json]") {
    for (std::string_view s : {"", "model.py", "a long path of more than sixteen bytes/to/a/file.py"}) {
        std::ostringstream out;
        {
            hlomem::json_writer json(out, false);
            CHECK(json.plain_value(s));
        }
        CHECK(out.str() == "\"" + std::string(s) + "\"");
    }
    for (std::string_view s : {"a\\b", "quote \" at 7", "sixteen bytes then \t a tab", "\n"}) {
        std::ostringstream out;
        {
            hlomem::json_writer json(out, false);
            CHECK_FALSE(json.plain_value(s));
        }
        CHECK(out.str().empty());
    }
    // Nothing written means no separator either: the value written after it is the first.
    std::ostringstream out;
    {
        hlomem::json_writer json(out, false);
        json.begin_array();
        CHECK_FALSE(json.plain_value("a\\"));
        json.value("b").end_array();
    }
    CHECK(out.str() == "[\"b\"]");
}
