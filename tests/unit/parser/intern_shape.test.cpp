// Shapes embedded in other text read into a shape table, each distinct text parsed once, plain
// arrays and tuples without the grammar (parser/intern_shape.hpp).
#include <hlomem/parser/intern_shape.hpp>

#include <hlomem/detail/scan.hpp>
#include <hlomem/parser.hpp>

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "test_data.hpp"

namespace {

/// Interns `text` into `table` and checks the result against the shape grammar (parse_shape on
/// the same text): equal shape, equal canonical text, and the whole text consumed.
hlomem::shape_id intern_like_the_grammar(hlomem::shape_table& table, std::string const& text) {
    char const* p = text.data();
    auto const id = hlomem::intern_shape(table, p, text.data() + text.size(), "<test>", text.data());
    auto const expected = hlomem::parse_shape(text);
    INFO(text);
    CHECK(p == text.data() + text.size());
    CHECK(table[id] == expected);
    CHECK(hlomem::to_string(table[id]) == hlomem::to_string(expected));
    return id;
}

}  // namespace

TEST_CASE("intern_shape parses a text once and reuses its id", "[shape_table]") {
    hlomem::shape_table table;
    std::string const text = "bf16[8,128]{1,0:T(8,128)(2,1)} %a, bf16[8,128]{1,0:T(8,128)(2,1)} %b, f32[] %c";
    char const* p = text.data();
    char const* const end = p + text.size();
    auto const a = hlomem::intern_shape(table, p, end, "<test>", text.data());
    CHECK(std::string(p, 3) == " %a");
    p = text.data() + text.find("bf16", 10);
    auto const b = hlomem::intern_shape(table, p, end, "<test>", text.data());
    p = text.data() + text.find("f32");
    auto const c = hlomem::intern_shape(table, p, end, "<test>", text.data());
    CHECK(a == b);
    CHECK(a != c);
    CHECK(table.size() == 2);
    CHECK(hlomem::to_string(table[a]) == "bf16[8,128]{1,0:T(8,128)(2,1)}");
    CHECK(std::string(p) == " %c");
}

TEST_CASE("a malformed shape is reported against the whole input", "[shape_table][errors]") {
    hlomem::shape_table table;
    std::string const text = "line one\n  %x = f32[8,1]{1,1} add()";
    char const* p = text.data() + text.find("f32");
    try {
        (void)hlomem::intern_shape(table, p, text.data() + text.size(), "m.hlo", text.data());
        FAIL("no error");
    } catch (hlomem::parse_error const& e) {
        CHECK(e.line() == 2);
        CHECK(e.column() == 19);
        CHECK(e.message() == "minor_to_major lists dimension 1 twice; it must be a permutation of 0..1");
    }
}

TEST_CASE("intern_shape builds the grammar's shape for plain arrays, tuples and everything else", "[shape_table]") {
    // Plain arrays and tuples of them are read without the grammar; the others (blanks inside,
    // leading zeros, dynamic dimensions, layout attributes, tokens, buffers) by the grammar.
    for (std::string const text :
         {"f32[]", "s32[1]{0}", "bf16[1,4,8192,6144]{3,2,1,0}", "pred[2,3]{0,1}", "u8[0]{0}", "f8e4m3fn[16]",
          "(f32[], s32[2]{0})", "(s32[], f32[8]{0}, f32[8]{0}, f32[8]{0}, f32[8]{0}, /*index=5*/f32[8]{0})",
          "((f32[]), ())", "()", "( f32[] ,s32[] )", "f32[08]{0}", "f32[8]{ 0}", "f32[8] {0}", "f32[<=8]",
          "f32[?,2]", "f32[8,128]{1,0:T(8,128)}", "token[]", "(f32[], token[])", "b(f32[8])", "(b(f32[8]), f32[])"}) {
        hlomem::shape_table table;
        intern_like_the_grammar(table, text);
    }
}

TEST_CASE("a shape read without the grammar shares its id with the same shape read by it", "[shape_table]") {
    hlomem::shape_table table;
    auto const plain = intern_like_the_grammar(table, "f32[8]{0}");
    CHECK(intern_like_the_grammar(table, "f32[08]{0}") == plain);  // the grammar's text, canonically equal
    CHECK(intern_like_the_grammar(table, "f32[8]{ 0 }") == plain);
    auto const tuple = intern_like_the_grammar(table, "(f32[8]{0}, s32[])");
    CHECK(intern_like_the_grammar(table, "(f32[8]{0},s32[])") == tuple);
    CHECK(table.size() == 2);  // f32[8]{0} and the tuple: s32[] was only read inside the tuple
    CHECK_FALSE(table.find("s32[]").has_value());
}

TEST_CASE("plain-looking shapes that are not valid get the grammar's error at the grammar's position",
          "[shape_table][errors]") {
    struct bad {
        std::string text;
        std::size_t column;
        std::string message;
    };
    for (bad const& b : std::vector<bad>{
             {"f32[8,1]{1,1}", 12, "minor_to_major lists dimension 1 twice; it must be a permutation of 0..1"},
             {"(s32[], f32[8]{1})", 16, "minor_to_major entry 1 is not a dimension of a rank-1 shape"},
             {"f32[99999999999999999999]", 5, "integer 99999999999999999999 does not fit in int64"},
             {"f32[4611686018427387904,4]", 1, "the element count of this array overflows int64"},
             {"f33[8]", 1, "unknown primitive type 'f33'"},
         }) {
        INFO(b.text);
        auto const grammar = hlomem::try_parse_shape(b.text, "<test>");
        REQUIRE_FALSE(grammar);
        hlomem::shape_table table;
        char const* p = b.text.data();
        try {
            (void)hlomem::intern_shape(table, p, b.text.data() + b.text.size(), "<test>", b.text.data());
            FAIL("no error");
        } catch (hlomem::parse_error const& e) {
            CHECK(e.message() == grammar.error().message);
            CHECK(e.column() == grammar.error().column);
            CHECK(e.message() == b.message);
            CHECK(e.column() == b.column);
        }
    }
}

TEST_CASE("every instruction shape of the seed modules and dumps interns as the grammar reads it", "[shape_table][seeds]") {
    // The shape after `= ` on each instruction line (and in each dump's `from instruction:` text):
    // thousands of real shapes, most of them plain, some tuples of over a hundred elements.
    std::size_t shapes = 0, distinct = 0;
    for (char const* file : {"seeds/000_5960cad812240b69.txt", "seeds/001_a0c5460ce1af2dbe.txt",
                             "seeds/002_b0117d631587537a.txt", "seeds/004_c00fd3afea504246.txt"}) {
        std::string const text = hlomem_test::read_data(file);
        hlomem::shape_table table;
        std::set<std::string> seen;
        for (std::size_t at = text.find(" = "); at != std::string::npos; at = text.find(" = ", at + 3)) {
            char const* const start = text.data() + at + 3;
            char const* const end = hlomem::scan_shape_end(start, text.data() + text.size());
            if (end == start || (*start != '(' && !hlomem::detail::is_identifier_start(*start))) continue;
            std::string const shape_text(start, end);
            ++shapes;
            if (!seen.insert(shape_text).second) continue;
            if (!hlomem::try_parse_shape(shape_text, "<seed>")) continue;  // `= ` before something else
            intern_like_the_grammar(table, shape_text);
            ++distinct;
        }
    }
    CHECK(shapes > 10000);
    CHECK(distinct > 500);
}
