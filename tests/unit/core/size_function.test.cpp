// The size functions: their names, the bytes of a shape under each, and which one a set of shapes
// was written with (core/size_function.hpp).
#include <hlomem/core/size_function.hpp>

#include <hlomem/core/printed_size.hpp>
#include <hlomem/hlo/liveness.hpp>  // derived_sizes_name
#include <hlomem/parser.hpp>

#include <catch2/catch.hpp>

#include <vector>

using hlomem::parse_shape;

TEST_CASE("one enum names the size functions, one detector tells them apart", "[shape_size][size_function]") {
    using hlomem::size_function_kind;
    CHECK(hlomem::to_string(size_function_kind::xla) == "xla");
    CHECK(hlomem::to_string(size_function_kind::tpu) == "tpu");
    CHECK(hlomem::to_string(size_function_kind::unpadded) == "unpadded");
    // The report's word for a module-derived model's sizes: XLA's generic ones are "padded".
    CHECK(hlomem::derived_sizes_name(size_function_kind::xla) == "padded");
    CHECK(hlomem::derived_sizes_name(size_function_kind::tpu) == "tpu");
    CHECK(hlomem::derived_sizes_name(size_function_kind::unpadded) == "unpadded");

    auto const array = parse_shape("f32[3,5]{1,0:T(2,2)}");
    CHECK(hlomem::bytes_under(array, size_function_kind::xla) == 96);
    CHECK(hlomem::bytes_under(array, size_function_kind::tpu) == 96);
    CHECK(hlomem::bytes_under(array, size_function_kind::unpadded) == 60);
    auto const tuple = parse_shape("(f32[8]{0}, s32[])");
    CHECK(hlomem::bytes_under(tuple, size_function_kind::xla) == 16);
    CHECK(hlomem::bytes_under(tuple, size_function_kind::tpu) == 32);
    CHECK(hlomem::bytes_under(tuple, size_function_kind::unpadded) == 16);
    CHECK(hlomem::format_size(1572864, size_function_kind::tpu) == "1.50M");
    CHECK(hlomem::format_size(1572864, size_function_kind::xla) == "1.50MiB");
    CHECK(hlomem::format_size(1572864, size_function_kind::unpadded) == "1.50MiB");

    std::vector<hlomem::shape> shapes{parse_shape("f32[8]{0}"), parse_shape("(s32[], f32[8]{0})")};
    CHECK(hlomem::size_function_of(shapes) == size_function_kind::xla);
    CHECK(hlomem::size_function_of(std::vector<hlomem::shape>{}) == size_function_kind::xla);
    // A tiled layout anywhere, inside a tuple too, makes the shapes TPU's.
    shapes.push_back(parse_shape("(s32[], (bf16[16,128]{1,0:T(8,128)(2,1)}))"));
    CHECK(hlomem::size_function_of(shapes) == size_function_kind::tpu);
}
