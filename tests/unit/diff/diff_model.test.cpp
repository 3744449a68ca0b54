// The figures of a diff (diff/diff_model.hpp): byte deltas and percentages with their sign, as
// the diff reports print them, the temp bytes above the bound, and when a diff is identical.
#include <hlomem/diff/diff_model.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

TEST_CASE("diff/diff_model: a byte delta with its sign, in XLA's units", "[diff]") {
    // tsl's HumanReadableNumBytes (core/human_bytes.hpp) of the magnitude, a sign before it.
    CHECK(hlomem::signed_human_bytes(0) == "0B");
    CHECK(hlomem::signed_human_bytes(-512) == "-512B");
    CHECK(hlomem::signed_human_bytes(1536) == "+1.5KiB");
    CHECK(hlomem::signed_human_bytes(1610612736) == "+1.50GiB");     // 1.5 * 2^30
    CHECK(hlomem::signed_human_bytes(-1047527424) == "-999.00MiB");  // 999 * 2^20
    // The most negative delta has no positive counterpart in int64: 2^63 bytes are 8 EiB.
    CHECK(hlomem::signed_human_bytes(std::numeric_limits<std::int64_t>::min()) == "-8.00EiB");
    CHECK(hlomem::signed_human_bytes(std::numeric_limits<std::int64_t>::max()) == "+8.00EiB");
}

TEST_CASE("diff/diff_model: a percentage of A with its sign, none of nothing", "[diff]") {
    CHECK(hlomem::signed_percent(25, 200) == "+12.50%");
    CHECK(hlomem::signed_percent(-1, 3) == "-33.33%");
    CHECK(hlomem::signed_percent(0, 7) == "+0.00%");
    CHECK(hlomem::signed_percent(300, 100) == "+300.00%");
    CHECK(hlomem::signed_percent(5, 0).empty());
}

TEST_CASE("diff/diff_model: deltas, the temp bytes above the bound, and an identical diff", "[diff]") {
    CHECK(hlomem::byte_pair{100, 40}.delta() == -60);
    hlomem::color_diff c;
    c.temp_allocated_bytes = {985504, 900000};
    c.temp_lower_bound_bytes = {851968, 900000};
    CHECK(c.temp_above_bound().a == 133536);  // seed 000's arena against its bound (exact.test.cpp)
    CHECK(c.temp_above_bound().b == 0);

    hlomem::assignment_diff d;
    CHECK(d.identical());
    d.colors.push_back({});
    d.colors.back().peak_live_bytes = {64, 64};
    d.total_bytes = {1024, 1024};
    CHECK(d.identical());  // equal figures on both sides
    d.colors.back().peak_live_bytes.b = 65;
    CHECK_FALSE(d.identical());
    d.colors.back().peak_live_bytes.b = 64;
    d.matching.only_in_b.push_back(0);
    CHECK_FALSE(d.identical());
    d.matching.only_in_b.clear();
    d.total_bytes.b = 2048;
    CHECK_FALSE(d.identical());
}
