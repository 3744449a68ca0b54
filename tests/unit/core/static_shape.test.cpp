// Compile-time shapes: their sizes are constant expressions and agree with the runtime ones.
#include <hlomem/core/static_shape.hpp>
#include <hlomem/parser.hpp>

#include <catch2/catch.hpp>

namespace ct = hlomem::compile_time;
using hlomem::primitive_type;

// docs/FORMATS.md 4.5, row 17 (seed 002's value size) and row 1.
using bf16_weights = ct::array<primitive_type::bf16, ct::extents<4096, 3584>, ct::minor_to_major<1, 0>,
                               ct::tiles<ct::tile<8, 128>, ct::tile<2, 1>>>;
static_assert(bf16_weights::padded_bytes == 29360128);
static_assert(bf16_weights::unpadded_bytes == 29360128);
static_assert(bf16_weights::element_count == 14680064);

using small_tiled = ct::array<primitive_type::f32, ct::extents<3, 5>, ct::minor_to_major<1, 0>, ct::tiles<ct::tile<2, 2>>>;
static_assert(small_tiled::padded_bytes == 96 && small_tiled::unpadded_bytes == 60 && small_tiled::padding_bytes == 36);

// Row 4: the combine dimension.
using combined = ct::array<primitive_type::f32, ct::extents<2, 7, 8, 11, 10>, ct::default_minor_to_major,
                           ct::tiles<ct::tile<ct::combine, ct::combine, 2, ct::combine, 3>>>;
static_assert(combined::padded_bytes == 49728 && combined::byte_size_of == 49280);

// Row 14: packed int4 with E(4).
using packed = ct::array<primitive_type::s4, ct::extents<9216, 6144>, ct::minor_to_major<1, 0>,
                         ct::tiles<ct::tile<64, 128>, ct::tile<8, 1>>, 4>;
static_assert(packed::padded_bytes == 28311552);

// Row 25: L(32).
using tail_padded = ct::array<primitive_type::f32, ct::extents<3, 5>, ct::minor_to_major<1, 0>, ct::tiles<ct::tile<2, 2>>, 0, 32>;
static_assert(tail_padded::padded_bytes == 128);

// The E(32) pred example: padding by element width.
using wide_pred = ct::array<primitive_type::pred, ct::extents<64, 512, 2048>, ct::default_minor_to_major,
                            ct::tiles<ct::tile<8, 128>>, 32>;
static_assert(wide_pred::padded_bytes == 268435456 && wide_pred::unpadded_bytes == 67108864);

// A scalar with a tile (row 21's scalar cousin) and a tuple of pointers.
using tiled_scalar = ct::array<primitive_type::bf16, ct::extents<>, ct::default_minor_to_major, ct::tiles<ct::tile<256>>>;
static_assert(tiled_scalar::padded_bytes == 512);
using pair = ct::tuple<small_tiled, bf16_weights>;
static_assert(pair::byte_size_of == 16 && pair::total_padded_bytes == 96 + 29360128);

// A static allocator can size an arena with them.
alignas(64) static unsigned char arena[small_tiled::padded_bytes + tail_padded::padded_bytes];
static_assert(sizeof(arena) == 224);

TEMPLATE_TEST_CASE("compile-time and runtime sizes agree", "[static_shape]", bf16_weights, small_tiled, combined, packed,
                   tail_padded, wide_pred, tiled_scalar) {
    hlomem::shape const s = TestType::to_shape();
    CAPTURE(hlomem::to_string(s));
    CHECK(hlomem::array_size(s) == TestType::padded_bytes);
    CHECK(hlomem::byte_size_of(s) == TestType::byte_size_of);
    CHECK(hlomem::unpadded_byte_size(s) == TestType::unpadded_bytes);
    CHECK(hlomem::element_count(s) == TestType::element_count);
    // The text form parses back to the same shape.
    CHECK(hlomem::parse_shape(TestType::to_string()) == s);
}

TEST_CASE("compile-time shapes print their XLA text", "[static_shape]") {
    CHECK(bf16_weights::to_string() == "bf16[4096,3584]{1,0:T(8,128)(2,1)}");
    CHECK(combined::to_string() == "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}");
    CHECK(packed::to_string() == "s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}");
    CHECK(tiled_scalar::to_string() == "bf16[]{:T(256)}");
    CHECK(pair::to_string() == "(f32[3,5]{1,0:T(2,2)}, bf16[4096,3584]{1,0:T(8,128)(2,1)})");
    // Place the second buffer right after the first, as a static allocator would.
    unsigned char* second = arena + small_tiled::padded_bytes;
    second[tail_padded::padded_bytes - 1] = 1;
    CHECK(arena[sizeof(arena) - 1] == 1);
}
