// hlomem/core/primitive_type.hpp: XLA's element types, their text names and widths.
//
// The enumerators carry XLA's own enum numbers (xla_data.proto), so a value can be converted to
// and from XLA's PrimitiveType without a table. The text name of a type is its enumerator's name
// (`f8e4m3fn`, `bf16`), except OPAQUE_TYPE, which XLA writes `opaque`.
#ifndef HLOMEM_CORE_PRIMITIVE_TYPE_HPP
#define HLOMEM_CORE_PRIMITIVE_TYPE_HPP

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>

namespace hlomem {

/// An XLA element type. `invalid` (0) has no text name; `tuple`, `opaque`, `token` and `buffer`
/// are container or handle types with no element width.
enum class primitive_type : std::uint8_t {
    invalid = 0,
    pred = 1,
    s1 = 30, s2 = 26, s4 = 21, s8 = 2, s16 = 3, s32 = 4, s64 = 5,
    u1 = 31, u2 = 27, u4 = 22, u8 = 6, u16 = 7, u32 = 8, u64 = 9,
    f16 = 10, bf16 = 16, f32 = 11, f64 = 12,
    f8e5m2 = 19, f8e4m3 = 28, f8e4m3fn = 20, f8e4m3b11fnuz = 23, f8e3m4 = 29,
    f8e5m2fnuz = 24, f8e4m3fnuz = 25,
    f4e2m1fn = 32, f8e8m0fnu = 33,
    c64 = 15, c128 = 18,
    tuple = 13, opaque = 14, token = 17, buffer = 34,
};

/// What kind of element a type holds.
enum class primitive_kind : std::uint8_t {
    invalid, boolean, signed_integral, unsigned_integral, floating_point, complex, tuple, opaque,
    token, buffer,
};

namespace detail {

struct primitive_type_info {
    primitive_type type;
    std::string_view name;
    int bit_width;  // 0 for types without elements (tuple, opaque, token, buffer)
    primitive_kind kind;
};

// One row per type of the reference table (docs/FORMATS.md 1.2), in enum-number order.
inline constexpr std::array<primitive_type_info, 35> primitive_type_table{{
    {primitive_type::invalid, "invalid", 0, primitive_kind::invalid},
    {primitive_type::pred, "pred", 1, primitive_kind::boolean},
    {primitive_type::s8, "s8", 8, primitive_kind::signed_integral},
    {primitive_type::s16, "s16", 16, primitive_kind::signed_integral},
    {primitive_type::s32, "s32", 32, primitive_kind::signed_integral},
    {primitive_type::s64, "s64", 64, primitive_kind::signed_integral},
    {primitive_type::u8, "u8", 8, primitive_kind::unsigned_integral},
    {primitive_type::u16, "u16", 16, primitive_kind::unsigned_integral},
    {primitive_type::u32, "u32", 32, primitive_kind::unsigned_integral},
    {primitive_type::u64, "u64", 64, primitive_kind::unsigned_integral},
    {primitive_type::f16, "f16", 16, primitive_kind::floating_point},
    {primitive_type::f32, "f32", 32, primitive_kind::floating_point},
    {primitive_type::f64, "f64", 64, primitive_kind::floating_point},
    {primitive_type::tuple, "tuple", 0, primitive_kind::tuple},
    {primitive_type::opaque, "opaque", 0, primitive_kind::opaque},
    {primitive_type::c64, "c64", 64, primitive_kind::complex},
    {primitive_type::bf16, "bf16", 16, primitive_kind::floating_point},
    {primitive_type::token, "token", 0, primitive_kind::token},
    {primitive_type::c128, "c128", 128, primitive_kind::complex},
    {primitive_type::f8e5m2, "f8e5m2", 8, primitive_kind::floating_point},
    {primitive_type::f8e4m3fn, "f8e4m3fn", 8, primitive_kind::floating_point},
    {primitive_type::s4, "s4", 4, primitive_kind::signed_integral},
    {primitive_type::u4, "u4", 4, primitive_kind::unsigned_integral},
    {primitive_type::f8e4m3b11fnuz, "f8e4m3b11fnuz", 8, primitive_kind::floating_point},
    {primitive_type::f8e5m2fnuz, "f8e5m2fnuz", 8, primitive_kind::floating_point},
    {primitive_type::f8e4m3fnuz, "f8e4m3fnuz", 8, primitive_kind::floating_point},
    {primitive_type::s2, "s2", 2, primitive_kind::signed_integral},
    {primitive_type::u2, "u2", 2, primitive_kind::unsigned_integral},
    {primitive_type::f8e4m3, "f8e4m3", 8, primitive_kind::floating_point},
    {primitive_type::f8e3m4, "f8e3m4", 8, primitive_kind::floating_point},
    {primitive_type::s1, "s1", 1, primitive_kind::signed_integral},
    {primitive_type::u1, "u1", 1, primitive_kind::unsigned_integral},
    {primitive_type::f4e2m1fn, "f4e2m1fn", 4, primitive_kind::floating_point},
    {primitive_type::f8e8m0fnu, "f8e8m0fnu", 8, primitive_kind::floating_point},
    {primitive_type::buffer, "buffer", 0, primitive_kind::buffer},
}};

constexpr bool table_is_indexed_by_enum_number() noexcept {
    for (std::size_t i = 0; i < primitive_type_table.size(); ++i) {
        if (static_cast<std::size_t>(primitive_type_table[i].type) != i) return false;
    }
    return true;
}
static_assert(table_is_indexed_by_enum_number(), "hlomem: primitive_type_table out of order");

constexpr primitive_type_info const& info(primitive_type t) noexcept {
    auto const i = static_cast<std::size_t>(t);
    return i < primitive_type_table.size() ? primitive_type_table[i] : primitive_type_table[0];
}

}  // namespace detail

/// Every type that has a text name, in enum-number order (for tests and tables).
inline constexpr std::array<primitive_type, 34> all_primitive_types() noexcept {
    std::array<primitive_type, 34> out{};
    for (std::size_t i = 1; i < detail::primitive_type_table.size(); ++i) {
        out[i - 1] = detail::primitive_type_table[i].type;
    }
    return out;
}

/// The kind of element `t` holds (`primitive_kind::floating_point` for `bf16`).
constexpr primitive_kind kind_of(primitive_type t) noexcept { return detail::info(t).kind; }

/// The text name XLA prints: `f32`, `bf16`, `f8e4m3fn`, `opaque`. `invalid` has no text name
/// in XLA; it is returned as "invalid" so that printing never fails.
constexpr std::string_view to_string(primitive_type t) noexcept { return detail::info(t).name; }

/// Looks a text name up: "f32" -> primitive_type::f32. Names are case-sensitive; "invalid",
/// "opaque_type" and unknown names give nullopt.
constexpr std::optional<primitive_type> primitive_type_from_string(std::string_view name) noexcept {
    if (name.empty()) return std::nullopt;
    for (std::size_t i = 1; i < detail::primitive_type_table.size(); ++i) {
        // Length and first letter rule out almost every row before a full comparison.
        std::string_view const candidate = detail::primitive_type_table[i].name;
        if (candidate.size() == name.size() && candidate[0] == name[0] && candidate == name) {
            return detail::primitive_type_table[i].type;
        }
    }
    return std::nullopt;
}

/// True for types whose shapes are arrays of elements (everything but invalid, tuple, opaque,
/// token, buffer).
constexpr bool is_array_type(primitive_type t) noexcept { return detail::info(t).bit_width > 0; }

/// XLA's `primitive_util::BitWidth`: 1 for pred and s1, 4 for s4, 16 for bf16, 128 for c128.
/// 0 for types without elements.
constexpr int bit_width(primitive_type t) noexcept { return detail::info(t).bit_width; }

/// XLA's `primitive_util::ByteWidth` = ceil(bit_width / 8): what one element costs when no
/// `E(n)` packs it. 1 for pred and every sub-byte type, 0 for types without elements.
constexpr int byte_width(primitive_type t) noexcept { return (bit_width(t) + 7) / 8; }

/// XLA's `IsSubByteNonPredType`: an array type narrower than a byte that is not pred
/// (s1, s2, s4, u1, u2, u4, f4e2m1fn).
constexpr bool is_sub_byte(primitive_type t) noexcept {
    return t != primitive_type::pred && is_array_type(t) && bit_width(t) < 8;
}

constexpr bool is_integral(primitive_type t) noexcept {
    return kind_of(t) == primitive_kind::signed_integral ||
           kind_of(t) == primitive_kind::unsigned_integral;
}
constexpr bool is_unsigned_integral(primitive_type t) noexcept {
    return kind_of(t) == primitive_kind::unsigned_integral;
}
constexpr bool is_floating_point(primitive_type t) noexcept {
    return kind_of(t) == primitive_kind::floating_point;
}
constexpr bool is_complex(primitive_type t) noexcept { return kind_of(t) == primitive_kind::complex; }

inline std::ostream& operator<<(std::ostream& os, primitive_type t) { return os << to_string(t); }

}  // namespace hlomem

#endif  // HLOMEM_CORE_PRIMITIVE_TYPE_HPP
