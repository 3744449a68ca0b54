// shape_table and intern_shape: each distinct text is parsed once, ids are stable.
#include <hlomem/core/shape_table.hpp>
#include <hlomem/parser.hpp>

#include <catch2/catch.hpp>

#include <string>

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

TEST_CASE("texts that differ only in blanks share one shape", "[shape_table]") {
    hlomem::shape_table table;
    auto const a = table.insert("f32[ 3 ]{0}", hlomem::parse_shape("f32[ 3 ]{0}"));
    auto const b = table.insert("f32[3]{0}", hlomem::parse_shape("f32[3]{0}"));
    CHECK(a == b);
    CHECK(table.size() == 1);
    CHECK(table.find("f32[ 3 ]{0}") == a);
    CHECK_FALSE(table.find("f32[3]").has_value());
}

TEST_CASE("copies and moves of a table keep their lookups", "[shape_table]") {
    hlomem::shape_table table;
    for (int i = 1; i <= 50; ++i) table.insert(hlomem::parse_shape("f32[" + std::to_string(i) + "]"));
    hlomem::shape_table copy = table;
    hlomem::shape_table moved = std::move(table);
    for (auto* t : {&copy, &moved}) {
        CHECK(t->size() == 50);
        auto const id = t->find("f32[37]");
        REQUIRE(id.has_value());
        CHECK(hlomem::to_string((*t)[*id]) == "f32[37]");
    }
}

TEST_CASE("a table that grows past its first slots finds every text, and only those", "[shape_table]") {
    // The lookup table starts with 64 slots and doubles at half full: 1,000 shapes (each also
    // known by a second, spaced text) make it grow five times.
    hlomem::shape_table table;
    for (int i = 1; i <= 1000; ++i) {
        std::string const dims = std::to_string(i) + ",8";
        auto const id = table.insert("f32[" + dims + "]{1,0}", hlomem::parse_shape("f32[" + dims + "]{1,0}"));
        CHECK(table.insert("f32[ " + dims + " ]{1,0}", hlomem::parse_shape("f32[" + dims + "]{1,0}")) == id);
    }
    CHECK(table.size() == 1000);
    for (int i = 1; i <= 1000; ++i) {
        auto const id = table.find("f32[ " + std::to_string(i) + ",8 ]{1,0}");
        REQUIRE(id.has_value());
        CHECK(hlomem::to_string(table[*id]) == "f32[" + std::to_string(i) + ",8]{1,0}");
    }
    CHECK_FALSE(table.find("f32[1001,8]{1,0}").has_value());
    CHECK_FALSE(table.find("").has_value());
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
