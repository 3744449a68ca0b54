// The gate of a diff (diff/threshold.hpp): `--fail-above` as bytes or a percentage of A's peak,
// what is neither, and when a growth exceeds it.
#include <hlomem/diff/threshold.hpp>

#include <catch2/catch.hpp>

TEST_CASE("diff_threshold_named: bytes and percentages, and what is neither", "[output][diff]") {
    CHECK(hlomem::diff_threshold_named("1048576")->bytes == 1048576);
    CHECK(*hlomem::diff_threshold_named("5%")->percent == 5.0);
    CHECK(*hlomem::diff_threshold_named("2.5%")->percent == 2.5);
    for (char const* bad : {"", "%", ".%", "1.2.3%", "-5", "5 %", "1e3", "1234567890123456789"}) {
        INFO(bad);
        CHECK_FALSE(hlomem::diff_threshold_named(bad));
    }
    hlomem::diff_threshold t = *hlomem::diff_threshold_named("10%");
    CHECK_FALSE(t.exceeded({100, 110}));
    CHECK(t.exceeded({100, 111}));
    CHECK_FALSE(t.exceeded({100, 50}));
    CHECK(t.exceeded({0, 1}));  // from nothing, any growth exceeds a percentage
}
