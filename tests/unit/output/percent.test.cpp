// How every output writes a percentage or a ratio (output/percent.hpp): two decimals, and "-" for
// a share of nothing.
#include <hlomem/output/percent.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

TEST_CASE("output/percent: two decimals, rounded", "[output][percent]") {
    CHECK(hlomem::fixed2(12.5) == "12.50");
    CHECK(hlomem::fixed2(1.0 / 3.0) == "0.33");
    CHECK(hlomem::fixed2(2.0 / 3.0) == "0.67");
    CHECK(hlomem::fixed2(-0.125) == "-0.12");  // 0.125 is exact: a tie, printf rounds it to even
    CHECK(hlomem::fixed2(1e12) == "1000000000000.00");
}

TEST_CASE("output/percent: a part of a whole, or - when the whole is not positive", "[output][percent]") {
    CHECK(hlomem::share_text(3, 8) == "37.50%");
    CHECK(hlomem::share_text(2, 3) == "66.67%");
    CHECK(hlomem::share_text(0, 7) == "0.00%");
    CHECK(hlomem::share_text(5, 4) == "125.00%");  // a part larger than its whole is not clamped
    CHECK(hlomem::share_text(1, 0) == "-");
    CHECK(hlomem::share_text(1, -5) == "-");
    // Seed 002's parameter bytes of its total (tests/cli/report_tpu_seed.out, output_layer.test.cpp):
    // 444596224 / 2885767252 = 15.4065...%.
    CHECK(hlomem::share_text(444596224, 2885767252) == "15.41%");
    std::int64_t const most = std::numeric_limits<std::int64_t>::max();
    CHECK(hlomem::share_text(most, most) == "100.00%");
}
