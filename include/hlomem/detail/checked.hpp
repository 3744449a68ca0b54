// hlomem/detail/checked.hpp: int64 arithmetic that reports overflow instead of wrapping.
// Every size hlomem computes goes through these, so that a shape whose byte size does not fit
// in int64 is an error rather than a wrong number. All are constexpr: the compile-time shapes
// of static_shape.hpp use them too.
#ifndef HLOMEM_DETAIL_CHECKED_HPP
#define HLOMEM_DETAIL_CHECKED_HPP

#include <cstdint>

namespace hlomem::detail {

/// *out = a * b; returns false (and leaves *out unspecified) when the product overflows.
constexpr bool checked_mul(std::int64_t a, std::int64_t b, std::int64_t* out) noexcept {
    return !__builtin_mul_overflow(a, b, out);
}

/// *out = a + b; returns false when the sum overflows.
constexpr bool checked_add(std::int64_t a, std::int64_t b, std::int64_t* out) noexcept {
    return !__builtin_add_overflow(a, b, out);
}

/// *out = roundup(a, m) for a >= 0, m > 0; returns false on overflow.
constexpr bool checked_round_up(std::int64_t a, std::int64_t m, std::int64_t* out) noexcept {
    std::int64_t const rem = a % m;
    if (rem == 0) {
        *out = a;
        return true;
    }
    return checked_add(a, m - rem, out);
}

/// ceil(a / b) for a >= 0, b > 0, without overflow.
constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) noexcept {
    return a / b + (a % b != 0 ? 1 : 0);
}

}  // namespace hlomem::detail

#endif  // HLOMEM_DETAIL_CHECKED_HPP
