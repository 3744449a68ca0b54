// Two sides of a diff compared (diff/side.hpp: diff_side_of, diff_sides) on the bundled
// scan_window pair (tests/data/corpus/compilations: scan_window_a grows a c128 window of 20 rows
// to 21, 463,688 bytes more at the peak): two dumps are compared value by value; a dump and a
// snapshot of the other are compared as snapshots, with the same peaks, and say what they cannot
// compare.
#include <hlomem/hlomem.hpp>
#include <catch2/catch.hpp>
#include "test_data.hpp"

#include <memory>
#include <string>

namespace {

/// A dump's side, the model viewing a text the side keeps alive (as open_diff_side's do).
hlomem::basic_diff_side<hlomem::view_policy> dump_side(std::string const& relative) {
    auto text = std::make_shared<std::string const>(hlomem_test::read_data(relative));
    auto ba = std::make_shared<hlomem::basic_buffer_assignment<hlomem::view_policy> const>(
        hlomem::parse_buffer_assignment<hlomem::view_policy>(*text, relative));
    auto owner = std::make_shared<std::pair<decltype(text), decltype(ba)>>(text, ba);
    return hlomem::diff_side_of<hlomem::view_policy>(relative, owner, *ba, nullptr);
}

}  // namespace

TEST_CASE("diff sides: two dumps compare value by value, a dump and a snapshot as snapshots") {
    auto const base = dump_side("corpus/compilations/scan_window_b.buffer_assignment.txt");
    auto const grown = dump_side("corpus/compilations/scan_window_a.buffer_assignment.txt");
    CHECK(base.assignment->values.size() == 110);
    auto const full = hlomem::diff_sides(base, grown);
    REQUIRE(full.values_known());
    CHECK(full.not_compared().empty());
    CHECK(full.d().total_bytes.delta() == 463688);
    REQUIRE(full.d().colors.size() == 1);
    CHECK(full.d().colors[0].peak_live_bytes.a == 268295276);
    CHECK(full.d().colors[0].peak_live_bytes.b == 268758964);
    CHECK(full.d().matching.pairs.size() == 110);
    CHECK(full.d().matching.only_in_b.size() == 1);

    hlomem::basic_diff_side<hlomem::view_policy> snapshot;
    snapshot.name = "base.hlomem.json";
    snapshot.snapshot = base.to_snapshot(10);
    CHECK(snapshot.is_snapshot());
    CHECK(snapshot.snapshot->total_bytes == 268297668);
    auto const half = hlomem::diff_sides(snapshot, grown);
    REQUIRE_FALSE(half.values_known());
    CHECK(half.not_compared().size() == 3);
    CHECK(half.d().matching.pairs.empty());
    REQUIRE(half.d().colors.size() == 1);
    CHECK(half.d().colors[0].peak_live_bytes.a == full.d().colors[0].peak_live_bytes.a);
    CHECK(half.d().colors[0].peak_live_bytes.delta() == 463688);
    CHECK(half.donations_a.used.size() == full.donations_a.used.size());
}
