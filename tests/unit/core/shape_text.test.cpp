// XLA's canonical text of shapes built in code (core/shape_text.hpp).
#include <hlomem/core/shape_text.hpp>

#include <catch2/catch.hpp>

#include <vector>

using hlomem::primitive_type;
using hlomem::shape;

TEST_CASE("shapes built in code print as XLA prints them", "[shape]") {
    // xla/shape_test.cc
    auto const a = shape::make_array(primitive_type::u32, {1, 2}, hlomem::default_layout(2));
    hlomem::layout l;
    l.minor_to_major = {0, 1};
    auto const b = shape::make_array(primitive_type::s32, {3, 4}, l);
    auto const t = shape::make_tuple({shape::make_opaque(), shape::make_array(primitive_type::f32, {}), a, b});
    CHECK(hlomem::to_string(a) == "u32[1,2]{1,0}");
    CHECK(hlomem::to_string(b) == "s32[3,4]{0,1}");
    CHECK(hlomem::to_string(t) == "(opaque[], f32[], u32[1,2]{1,0}, s32[3,4]{0,1})");
    auto const nested = shape::make_tuple({t, a, shape::make_token()});
    CHECK(hlomem::to_string(nested) == "((opaque[], f32[], u32[1,2]{1,0}, s32[3,4]{0,1}), u32[1,2]{1,0}, token[])");
    CHECK(hlomem::human_string(nested) == "((opaque[], f32[], u32[1,2], s32[3,4]), u32[1,2], token[])");
}

TEST_CASE("long tuples carry an index marker before every fifth element", "[shape]") {
    std::vector<shape> elements(7, shape::make_array(primitive_type::f32, {}));
    CHECK(hlomem::to_string(shape::make_tuple(elements)) ==
          "(f32[], f32[], f32[], f32[], f32[], /*index=5*/f32[], f32[])");
    std::vector<shape> eleven(11, shape::make_array(primitive_type::u32, {}));
    CHECK(hlomem::to_string(shape::make_tuple(eleven)) ==
          "(u32[], u32[], u32[], u32[], u32[], /*index=5*/u32[], u32[], u32[], u32[], u32[], /*index=10*/u32[])");
}
