// The shape model: construction, dynamic dimensions, equality, subshapes and indices (core/shape.hpp); printing,
// shape_equal and validation have files of their own (shape_text, shape_equal, shape_validate).
#include <hlomem/core/shape.hpp>
#include <hlomem/parser.hpp>

#include <catch2/catch.hpp>

using hlomem::parse_shape;
using hlomem::primitive_type;
using hlomem::shape;

TEST_CASE("dynamic dimensions print as <=N and ?", "[shape]") {
    auto s = shape::make_array(primitive_type::f32, {});
    s.add_dimension(23, true);
    s.add_dimension(44);
    s.add_dimension(55, true);
    CHECK(hlomem::to_string(s) == "f32[<=23,44,<=55]");
    CHECK(s.is_dynamic());
    CHECK(s.is_dynamic_dimension(0));
    CHECK_FALSE(s.is_dynamic_dimension(1));
    auto u = shape::make_array(primitive_type::f32, {});
    u.add_dimension(shape::unbounded_size, true);
    u.add_dimension(784);
    CHECK(hlomem::to_string(u) == "f32[?,784]");
    CHECK(u.is_unbounded_dynamic_dimension(0));
}

TEST_CASE("a scalar's empty layout is not printed and compares equal to none", "[shape]") {
    auto with_empty = shape::make_array(primitive_type::f32, {}, hlomem::layout{});
    auto without = shape::make_array(primitive_type::f32, {});
    CHECK(hlomem::to_string(with_empty) == "f32[]");
    CHECK(with_empty == without);
    hlomem::layout tiled;
    tiled.tiles.push_back(hlomem::tile{{256}});
    auto scalar_tiled = shape::make_array(primitive_type::f32, {}, tiled);
    CHECK(hlomem::to_string(scalar_tiled) == "f32[]{:T(256)}");
    CHECK(scalar_tiled != without);
}

TEST_CASE("operator== compares what the text shows", "[shape]") {
    CHECK(parse_shape("f32[3]{0}") == parse_shape("f32[3]{0}"));
    CHECK(parse_shape("f32[3]{0}") != parse_shape("f32[3]"));  // one shows a layout
    CHECK(parse_shape("f32[<=3]") != parse_shape("f32[3]"));
    CHECK(parse_shape("(f32[3]{0})") != parse_shape("(f32[3]{0}, f32[])"));
    CHECK(parse_shape("f32[3]{0:S(1)}") != parse_shape("f32[3]{0}"));
}

TEST_CASE("subshapes by shape index", "[shape]") {
    auto const s = parse_shape("(f32[3]{0}, (s32[], pred[2]{0}))");
    CHECK(hlomem::to_string(s.subshape({})) == "(f32[3]{0}, (s32[], pred[2]{0}))");
    CHECK(hlomem::to_string(s.subshape({1, 1})) == "pred[2]{0}");
    CHECK_THROWS_WITH(s.subshape({2}), "shape index {2} is not valid for shape (f32[3]{0}, (s32[], pred[2]{0}))");
    CHECK_THROWS_AS(s.subshape({0, 0}), hlomem::shape_error);
}

TEST_CASE("shape indices print as XLA prints them and order lexicographically", "[shape]") {
    CHECK(hlomem::to_string(hlomem::shape_index{}) == "{}");
    CHECK(hlomem::to_string(hlomem::shape_index{1, 0}) == "{1,0}");
    CHECK(hlomem::shape_index{} < hlomem::shape_index{0});
    CHECK(hlomem::shape_index{0, 1} < hlomem::shape_index{1});
    CHECK(hlomem::parse_shape_index("{ 1, 0 }") == hlomem::shape_index{1, 0});
    CHECK(hlomem::parse_shape_index("{}").empty());
}
