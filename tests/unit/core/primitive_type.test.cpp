// primitive_type: names, enum numbers, widths and predicates of every type in
// docs/FORMATS.md table 1.2.
#include <hlomem/core/primitive_type.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <tuple>

using hlomem::primitive_type;

TEST_CASE("every type of the reference table has its XLA name, number and widths", "[primitive_type]") {
    // name, enum number, BitWidth, ByteWidth, sub-byte: docs/FORMATS.md 1.2
    auto [name, number, bits, bytes, sub_byte] = GENERATE(table<char const*, int, int, int, bool>({
        {"pred", 1, 1, 1, false},        {"s1", 30, 1, 1, true},        {"s2", 26, 2, 1, true},
        {"s4", 21, 4, 1, true},          {"s8", 2, 8, 1, false},        {"s16", 3, 16, 2, false},
        {"s32", 4, 32, 4, false},        {"s64", 5, 64, 8, false},      {"u1", 31, 1, 1, true},
        {"u2", 27, 2, 1, true},          {"u4", 22, 4, 1, true},        {"u8", 6, 8, 1, false},
        {"u16", 7, 16, 2, false},        {"u32", 8, 32, 4, false},      {"u64", 9, 64, 8, false},
        {"f16", 10, 16, 2, false},       {"bf16", 16, 16, 2, false},    {"f32", 11, 32, 4, false},
        {"f64", 12, 64, 8, false},       {"f8e5m2", 19, 8, 1, false},   {"f8e4m3", 28, 8, 1, false},
        {"f8e4m3fn", 20, 8, 1, false},   {"f8e4m3b11fnuz", 23, 8, 1, false},
        {"f8e3m4", 29, 8, 1, false},     {"f8e5m2fnuz", 24, 8, 1, false},
        {"f8e4m3fnuz", 25, 8, 1, false}, {"f4e2m1fn", 32, 4, 1, true},  {"f8e8m0fnu", 33, 8, 1, false},
        {"c64", 15, 64, 8, false},       {"c128", 18, 128, 16, false},
    }));
    CAPTURE(name);
    auto const t = hlomem::primitive_type_from_string(name);
    REQUIRE(t.has_value());
    CHECK(static_cast<int>(*t) == number);
    CHECK(hlomem::to_string(*t) == name);
    CHECK(hlomem::bit_width(*t) == bits);
    CHECK(hlomem::byte_width(*t) == bytes);
    CHECK(hlomem::is_sub_byte(*t) == sub_byte);
    CHECK(hlomem::is_array_type(*t));
}

TEST_CASE("container and handle types have names but no element width", "[primitive_type]") {
    auto [name, number] = GENERATE(table<char const*, int>({{"tuple", 13}, {"opaque", 14}, {"token", 17}, {"buffer", 34}}));
    CAPTURE(name);
    auto const t = hlomem::primitive_type_from_string(name);
    REQUIRE(t.has_value());
    CHECK(static_cast<int>(*t) == number);
    CHECK_FALSE(hlomem::is_array_type(*t));
    CHECK(hlomem::bit_width(*t) == 0);
    CHECK(hlomem::byte_width(*t) == 0);
}

TEST_CASE("names are case-sensitive and opaque_type is not a name", "[primitive_type]") {
    CHECK_FALSE(hlomem::primitive_type_from_string("F32").has_value());
    CHECK_FALSE(hlomem::primitive_type_from_string("opaque_type").has_value());
    CHECK_FALSE(hlomem::primitive_type_from_string("invalid").has_value());
    CHECK_FALSE(hlomem::primitive_type_from_string("").has_value());
    CHECK_FALSE(hlomem::primitive_type_from_string("f3").has_value());
}

TEST_CASE("all_primitive_types lists the 34 named types and each round-trips", "[primitive_type]") {
    auto const all = hlomem::all_primitive_types();
    CHECK(all.size() == 34);
    for (auto t : all) {
        CAPTURE(hlomem::to_string(t));
        CHECK(hlomem::primitive_type_from_string(hlomem::to_string(t)) == t);
    }
}

TEST_CASE("kind predicates", "[primitive_type]") {
    CHECK(hlomem::is_unsigned_integral(primitive_type::u4));
    CHECK_FALSE(hlomem::is_unsigned_integral(primitive_type::s4));
    CHECK(hlomem::is_integral(primitive_type::s64));
    CHECK_FALSE(hlomem::is_integral(primitive_type::pred));
    CHECK(hlomem::is_floating_point(primitive_type::bf16));
    CHECK(hlomem::is_floating_point(primitive_type::f8e8m0fnu));
    CHECK(hlomem::is_complex(primitive_type::c128));
    CHECK_FALSE(hlomem::is_sub_byte(primitive_type::pred));  // excluded explicitly by XLA
    static_assert(hlomem::byte_width(primitive_type::c128) == 16);
    static_assert(hlomem::primitive_type_from_string("f8e4m3fn") == primitive_type::f8e4m3fn);
}
