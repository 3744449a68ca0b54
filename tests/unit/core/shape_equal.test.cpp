// XLA's Shape::Equal with its fluent options (core/shape_equal.hpp).
#include <hlomem/core/shape_equal.hpp>

#include <hlomem/parser.hpp>

#include <catch2/catch.hpp>

using hlomem::parse_shape;

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
