// XLA's ValidateShape: the first problem of a shape as a diagnostic (core/shape_validate.hpp).
#include <hlomem/core/shape_validate.hpp>

#include <hlomem/parser.hpp>

#include <catch2/catch.hpp>

#include <string>

using hlomem::parse_shape;
using hlomem::primitive_type;
using hlomem::shape;

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
