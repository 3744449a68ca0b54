// int64 arithmetic that reports overflow instead of wrapping (detail/checked.hpp).
#include <hlomem/detail/checked.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

using hlomem::detail::ceil_div;
using hlomem::detail::checked_add;
using hlomem::detail::checked_mul;
using hlomem::detail::checked_round_up;

namespace {
constexpr std::int64_t max64 = std::numeric_limits<std::int64_t>::max();  // 9223372036854775807
constexpr std::int64_t min64 = std::numeric_limits<std::int64_t>::min();
}  // namespace

TEST_CASE("detail/checked: products and sums at int64's limits", "[checked]") {
    std::int64_t out = 0;
    // floor(sqrt(2^63 - 1)) = 3037000499: its square fits, the next one does not.
    CHECK(checked_mul(3037000499, 3037000499, &out));
    CHECK(out == 9223372030926249001);
    CHECK_FALSE(checked_mul(3037000500, 3037000500, &out));
    CHECK_FALSE(checked_mul(max64, 2, &out));
    CHECK(checked_mul(min64, 1, &out));
    CHECK(out == min64);
    CHECK_FALSE(checked_mul(min64, -1, &out));  // 2^63 does not fit
    CHECK(checked_mul(-4, 5, &out));
    CHECK(out == -20);
    CHECK(checked_add(max64 - 1, 1, &out));
    CHECK(out == max64);
    CHECK_FALSE(checked_add(max64, 1, &out));
    CHECK_FALSE(checked_add(min64, -1, &out));
}

TEST_CASE("detail/checked: round_up and ceil_div, exact and at the limit", "[checked]") {
    std::int64_t out = -1;
    CHECK(checked_round_up(0, 8, &out));
    CHECK(out == 0);
    CHECK(checked_round_up(10, 8, &out));
    CHECK(out == 16);
    CHECK(checked_round_up(16, 8, &out));
    CHECK(out == 16);
    // 2^63 - 1 is 7 mod 8: 2^63 - 8 is the largest multiple of 8; any more rounds past int64.
    CHECK(checked_round_up(max64 - 7, 8, &out));
    CHECK(out == max64 - 7);
    CHECK_FALSE(checked_round_up(max64 - 6, 8, &out));
    CHECK(checked_round_up(max64, 1, &out));
    CHECK(out == max64);

    CHECK(ceil_div(0, 5) == 0);
    CHECK(ceil_div(7, 2) == 4);
    CHECK(ceil_div(8, 2) == 4);
    CHECK(ceil_div(max64, 1) == max64);
    CHECK(ceil_div(max64, 2) == 4611686018427387904);  // 2^62, without forming a + b - 1
    // The shapes of static_shape.hpp need them at compile time.
    STATIC_REQUIRE(ceil_div(9, 4) == 3);
}
