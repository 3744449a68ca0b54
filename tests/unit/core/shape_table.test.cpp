// shape_table: each distinct text is held once under a stable id, found by any text of it (core/shape_table.hpp);
// intern_shape, which fills it from text, is tested in tests/unit/parser/intern_shape.test.cpp.
#include <hlomem/core/shape_table.hpp>
#include <hlomem/parser.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

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
