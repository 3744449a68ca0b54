// Byte sizes, padding, tiled physical shapes and linear indices: every vector of
// docs/FORMATS.md 4.5 and the extra vectors after it, plus the sizes the seed dumps state.
#include <hlomem/core/shape_size.hpp>
#include <hlomem/parser.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

using hlomem::parse_shape;

TEST_CASE("padded (ArraySize) and unpadded (ByteSizeOf) sizes of the reference vectors", "[shape_size]") {
    // docs/FORMATS.md 4.5: shape, padded, unpadded
    auto [text, padded, unpadded] = GENERATE(table<char const*, std::int64_t, std::int64_t>({
        {"f32[3,5]{1,0:T(2,2)}", 96, 60},                                  // 1
        {"bf16[4,8]{1,0:T(2,4)(2,1)}", 64, 64},                            // 2
        {"bf16[32,256]{1,0:T(8,128)(2,1,1,1)}", 16384, 16384},             // 3
        {"f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}", 49728, 49280},        // 4
        {"f32[123,456,789]{0,1,2:T(2,*,128)}", 177566720, 177013728},      // 5
        {"bf16[123,456,789]{2,1,0:T(2,*,128)(2,1)}", 89232384, 88506864},  // 6
        {"f32[123,456]{0,1:T(2,128)}", 233472, 224352},                    // 7
        {"s4[123,456]{1,0:T(2,128)E(4)}", 31744, 28044},                   // 8
        {"pred[123,456]{1,0:T(2,128)S(3)}", 63488, 56088},                 // 9
        {"pred[123,456]{1,0:T(2,128)S(3)SC(1:200)}", 31744, 56088},        // 10
        {"pred[123,456]{1,0:SC(1:50,200)}", 56088, 56088},                 // 11
        {"f32[123,456]{1,0:T(16,128)M(1024)}", 262144, 224352},            // 12
        {"s4[64,128]{1,0:E(4)}", 4096, 4096},                              // 13
        {"s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}", 28311552, 28311552},     // 14
        {"s4[0,64,128]{2,1,0:E(4)}", 0, 0},                                // 15
        {"f32[10,20]{1,0}", 800, 800},                                     // 16
        {"f64[10,20]{1,0}", 1600, 1600},                                   // 16
        {"c64[10,20]{1,0}", 1600, 1600},                                   // 16
        {"f32[]", 4, 4},                                                   // 16
        {"bf16[4096,3584]{1,0:T(8,128)(2,1)}", 29360128, 29360128},        // 17 (seed 002)
        {"f32[32,512,4096]{2,1,0:T(8,128)}", 268435456, 268435456},        // 18 (seed 002)
        {"f32[3,5]{1,0:T(8,128)}", 4096, 60},                              // 19
        {"f32[100]{0:T(8,128)}", 4096, 400},                               // 20
        {"f32[1000]{0:T(256)}", 4096, 4000},                               // 21
        {"f32[2,3,5]{2,1,0:T(8,128)}", 8192, 120},                         // 22
        {"f32[130,9]{1,0:T(8,128)}", 69632, 4680},                         // 23
        {"f32[130,9]{0,1:T(8,128)}", 16384, 4680},                         // 24
        {"f32[3,5]{1,0:T(2,2)L(32)}", 128, 60},                            // 25
        {"f32[5]{0:L(16)}", 20, 20},                                       // 26
        {"s4[100,100]{1,0:T(8,128)(2,1)E(4)}", 6656, 5000},                // 27
        {"bf16[3,5]{1,0:T(8,128)(2,1)}", 2048, 30},                        // 28
        {"pred[3,5]{1,0:T(8,128)}", 1024, 15},                             // 29
        {"f32[1024,256]{1,0:T(8,128)SC(0:512)}", 524288, 1048576},         // 30
        {"f32[1000,300]{1,0:T(8,128)SC(1:200)}", 1024000, 1200000},        // 31
        {"f8e4m3fn[7,300]{1,0:T(8,128)(4,1)}", 3072, 2100},                // 32
    }));
    CAPTURE(text);
    auto const s = parse_shape(text);
    CHECK(hlomem::array_size(s) == padded);
    CHECK(hlomem::padded_byte_size(s) == padded);
    CHECK(hlomem::byte_size_of(s) == unpadded);
    // None of these widens elements with E(n), so the XProf unpadded size is ByteSizeOf.
    CHECK(hlomem::unpadded_byte_size(s) == unpadded);
    CHECK(hlomem::xla_size_function{}(s) == padded);
}

TEST_CASE("E(n) that widens an element is padding in the XProf unpadded size, packing is not", "[shape_size]") {
    // From the issue: pred[64,512,2048]{2,1,0:T(8,128)E(32)} is 256 MiB padded, 64 MiB unpadded.
    auto const widened = parse_shape("pred[64,512,2048]{2,1,0:T(8,128)E(32)}");
    CHECK(hlomem::array_size(widened) == 256 * 1024 * 1024);
    CHECK(hlomem::unpadded_byte_size(widened) == 64 * 1024 * 1024);
    CHECK(hlomem::byte_size_of(widened) == 256 * 1024 * 1024);  // XLA's ByteSizeOf honours E
    auto const packed = parse_shape("s4[64,128]{1,0:E(4)}");
    CHECK(hlomem::unpadded_byte_size(packed) == 4096);  // 64·128/2
    auto const unpacked = parse_shape("s4[64,128]{1,0}");
    CHECK(hlomem::unpadded_byte_size(unpacked) == 8192);  // a sub-byte type without E takes a byte
    CHECK(hlomem::byte_size_of(unpacked) == 8192);
}

TEST_CASE("tuples, tokens and opaque handles", "[shape_size]") {
    CHECK(hlomem::byte_size_of(parse_shape("(f32[2], s32[])")) == 16);
    std::string seventeen = "(";
    for (int i = 0; i < 17; ++i) seventeen += i ? ", f32[]" : "f32[]";
    seventeen += ")";
    CHECK(hlomem::byte_size_of(parse_shape(seventeen)) == 136);  // seed 002 peak list: fusion.10: 136 bytes
    CHECK(hlomem::byte_size_of(parse_shape("(f32[2], s32[])"), 4) == 8);
    CHECK(hlomem::byte_size_of(parse_shape("token[]")) == 0);
    CHECK(hlomem::byte_size_of(parse_shape("opaque[]")) == 8);
    CHECK(hlomem::byte_size_of(parse_shape("()")) == 0);
    CHECK(hlomem::byte_size_of(parse_shape("b(f32[8])")) == 32);
}

TEST_CASE("the TPU size function sizes tuple tables as roundup(4n, 32)", "[shape_size]") {
    // docs/FORMATS.md 4.6: 1, 3, 15, 17 elements take 32, 32, 64, 96 bytes in seed 002.
    auto [n, bytes] = GENERATE(table<int, std::int64_t>({{1, 32}, {3, 32}, {15, 64}, {17, 96}}));
    std::string text = "(";
    for (int i = 0; i < n; ++i) text += i ? ", u32[]" : "u32[]";
    text += ")";
    CHECK(hlomem::tpu_size_function{}(parse_shape(text)) == bytes);
    CHECK(hlomem::xla_size_function{}(parse_shape(text)) == 8 * n);
    // Arrays are sized by ArraySize under both.
    CHECK(hlomem::tpu_size_function{}(parse_shape("bf16[4096,3584]{1,0:T(8,128)(2,1)}")) == 29360128);
}

TEST_CASE("array data size excludes trailing padding", "[shape_size]") {
    CHECK(hlomem::array_data_size(parse_shape("f32[3,5]{1,0:T(2,2)}")) == 84);     // last element at 20
    CHECK(hlomem::array_data_size(parse_shape("f32[130,9]{1,0:T(8,128)}")) == 66084);
    CHECK(hlomem::array_data_size(parse_shape("s4[64,128]{1,0:E(4)}")) == 4096);  // Int4ShapeSize
    CHECK(hlomem::array_data_size(parse_shape("s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}")) == 28311552);
    CHECK(hlomem::array_data_size(parse_shape("s4[0,64,128]{2,1,0:E(4)}")) == 0);
}

TEST_CASE("linear index of an element in a tiled layout", "[shape_size]") {
    // docs/tiled_layout.md: F32[3,5] with a 2x2 tile puts (2,3) at 17; 8x8 with (2,4)(2,1,1,1)
    // puts (6,5) at 51.
    CHECK(hlomem::linear_index(parse_shape("f32[3,5]{1,0:T(2,2)}"), {2, 3}) == 17);
    CHECK(hlomem::linear_index(parse_shape("f32[8,8]{1,0:T(2,4)(2,1,1,1)}"), {6, 5}) == 51);
    // Untiled: row-major under minor_to_major.
    CHECK(hlomem::linear_index(parse_shape("f32[3,5]{1,0}"), {2, 3}) == 13);
    CHECK(hlomem::linear_index(parse_shape("f32[3,5]{0,1}"), {2, 3}) == 11);
    CHECK_THROWS_AS(hlomem::linear_index(parse_shape("f32[3,5]{1,0}"), {3, 0}), hlomem::shape_error);
    CHECK_THROWS_AS(hlomem::linear_index(parse_shape("f32[3,5]{1,0}"), {1}), hlomem::shape_error);
}

TEST_CASE("tiled physical shape", "[shape_size]") {
    auto physical = [](char const* text) { return hlomem::to_string(hlomem::tiled_physical_shape(parse_shape(text))); };
    // Figure 1 of the tiling doc: F32[3,5] in 2x2 tiles is 2x3 tiles of 2x2.
    CHECK(physical("f32[3,5]{1,0:T(2,2)}") == "f32[2,3,2,2]");
    // The combine example is F32[112,110] tiled by (2,3).
    CHECK(physical("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}") == "f32[56,37,2,3]");
    // bf16 TPU tiling: 512x28 tiles of (8,128), each stored as 4x128 pairs of rows.
    CHECK(physical("bf16[4096,3584]{1,0:T(8,128)(2,1)}") == "bf16[512,28,4,128,2,1]");
    // A tile longer than the array adds a major dimension of 1, padded to 8.
    CHECK(physical("f32[100]{0:T(8,128)}") == "f32[1,1,8,128]");
    // Untiled arrays come out in physical order, major first.
    CHECK(physical("f32[3,5]{0,1}") == "f32[5,3]");
    CHECK(physical("(f32[3,5]{1,0:T(2,2)}, s32[])") == "(f32[2,3,2,2], s32[])");
}

TEST_CASE("byte strides of untiled arrays", "[shape_size]") {
    CHECK(hlomem::byte_strides(parse_shape("f32[3,5,7]")) == std::vector<std::int64_t>{140, 28, 4});
    CHECK(hlomem::byte_strides(parse_shape("f16[5,7,9]")) == std::vector<std::int64_t>{126, 18, 2});
    CHECK(hlomem::byte_strides(parse_shape("f32[3,5]{0,1}")) == std::vector<std::int64_t>{4, 12});
    CHECK_THROWS_AS(hlomem::byte_strides(parse_shape("f32[3,5]{1,0:T(2,2)}")), hlomem::shape_error);
}

TEST_CASE("element counts and totals of shape trees", "[shape_size]") {
    CHECK(hlomem::element_count(parse_shape("f32[<=23,44]")) == 23 * 44);  // a bound counts
    auto const t = hlomem::totals_of(parse_shape("(f32[3,5]{1,0:T(8,128)}, (s32[2]{0}, pred[]))"));
    CHECK(t.elements == 18);
    CHECK(t.unpadded_bytes == 60 + 8 + 1);
    CHECK(t.padded_bytes == 4096 + 8 + 1);
    CHECK(t.tuple_table_bytes == 16 + 16);
    CHECK(t.arrays == 3);
}

TEST_CASE("sizes that have no answer throw shape_error", "[shape_size]") {
    auto const unbounded = parse_shape("f32[?,784]");
    CHECK_THROWS_WITH(hlomem::byte_size_of(unbounded),
                      "byte size of f32[?,784] is undefined: it has an unbounded dimension");
    CHECK_THROWS_AS(hlomem::array_size(unbounded), hlomem::shape_error);
    // A shape built in code (the parser rejects these) whose size overflows.
    auto const huge = hlomem::shape::make_array(hlomem::primitive_type::f64, {std::int64_t{1} << 31, std::int64_t{1} << 31});
    CHECK_THROWS_WITH(hlomem::byte_size_of(huge), "byte size of f64[2147483648,2147483648] overflows int64");
    CHECK_THROWS_AS(hlomem::array_size(parse_shape("(f32[])")), hlomem::shape_error);
}

TEST_CASE("byte counts near int64's limit are computed without overflowing the bit count", "[shape_size][fuzz]") {
    // Found by the shape fuzz target: s8[2147421474836483648] parses (2.1e18 bytes fit in int64)
    // but its unpadded size was computed through the bit count, 8 times larger, and overflowed.
    auto const s8 = hlomem::parse_shape("s8[2147421474836483648]");
    CHECK(hlomem::unpadded_byte_size(s8) == 2147421474836483648);
    CHECK(hlomem::byte_size_of(s8) == 2147421474836483648);
    // Sub-byte elements: ceil(n·4 / 8) for n = 2^62 + 1 elements of 4 bits.
    auto const s4 = hlomem::parse_shape("s4[4611686018427387905]{0:E(4)}");
    CHECK(hlomem::byte_size_of(s4) == 2305843009213693953);
    CHECK(hlomem::unpadded_byte_size(s4) == 2305843009213693953);
}
