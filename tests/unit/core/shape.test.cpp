// The shape model: construction, canonical printing, equality, shape_equal, validation, indices.
#include <hlomem/core/shape.hpp>
#include <hlomem/parser.hpp>

#include <catch2/catch.hpp>

using hlomem::parse_shape;
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

TEST_CASE("shape_equal compares the way XLA's Shape::Equal does", "[shape]") {
    auto const a = parse_shape("bf16[4096,3584]{1,0:T(8,128)(2,1)S(1)}");
    auto const b = parse_shape("bf16[4096,3584]{1,0:T(8,128)(2,1)}");
    auto const c = parse_shape("bf16[4096,3584]");
    auto const d = parse_shape("f32[4096,3584]{1,0}");
    CHECK_FALSE(hlomem::shape_equal()(a, b));
    CHECK(hlomem::shape_equal().ignore_memory_space_in_layout()(a, b));
    CHECK(hlomem::shape_equal().ignore_layout()(a, c));
    CHECK(hlomem::shape_equal().ignore_tiles_in_layout()(b, c));  // no layout = default {1,0}
    CHECK(hlomem::shape_equal().minor_to_major_only_in_layout()(a, c));
    CHECK_FALSE(hlomem::shape_equal().ignore_layout()(c, d));
    CHECK(hlomem::shape_equal().ignore_layout().ignore_fp_precision()(c, d));
    CHECK(hlomem::shape_equal().ignore_layout().ignore_element_type()(c, parse_shape("s8[4096,3584]")));
    CHECK_FALSE(hlomem::shape_equal().ignore_layout().ignore_fp_precision()(c, parse_shape("s16[4096,3584]")));
    CHECK(hlomem::shape_equal().ignore_dynamic_dimension()(parse_shape("f32[<=3]"), parse_shape("f32[3]")));
    CHECK(hlomem::shape_equal().ignore_dimensions()(parse_shape("f32[3]"), parse_shape("f32[4]")));
    CHECK_FALSE(hlomem::shape_equal()(parse_shape("(f32[3])"), parse_shape("(f32[3], f32[])")));
    CHECK(hlomem::shape_equal().ignore_layout()(parse_shape("(f32[3]{0:S(1)})"), parse_shape("(f32[3])")));
    // Policies may differ.
    CHECK(hlomem::shape_equal()(hlomem::parse_shape<hlomem::view_policy>("f32[3]{0}"), parse_shape("f32[3]")));
}

TEST_CASE("validation reports what XLA's validator rejects", "[shape]") {
    auto problem = [](shape const& s) {
        auto p = hlomem::validate(s);
        return p ? p->message : std::string("ok");
    };
    hlomem::layout l;
    l.minor_to_major = {0, 0};
    CHECK(problem(shape::make_array(primitive_type::f32, {2, 3}, l)) ==
          "minor_to_major lists dimension 0 twice; it must be a permutation of 0..1");
    l.minor_to_major = {0};
    CHECK(problem(shape::make_array(primitive_type::f32, {2, 3}, l)) ==
          "layout has 1 minor_to_major entries but the shape has rank 2");
    CHECK(problem(shape::make_array(primitive_type::f32, {-2})) == "dimension 0 has a negative extent -2");
    CHECK(problem(shape::make_buffer(shape::make_tuple({}))) == "a buffer shape must hold exactly one array shape");
    CHECK(problem(shape()) == "the shape has no element type");
    CHECK(problem(parse_shape("(f32[3]{0}, token[])")) == "ok");
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
