// The data of the page before and after edits (output/whatif_page.hpp): both curves on the edited
// module's time axis, their peaks the what-if's before and after, and the edited values marked.
#include <hlomem/hlomem.hpp>
#include <hlomem/output/whatif_page.hpp>
#include <hlomem/whatif.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>

using hlomem_test::read_data;

namespace {

hlomem::instruction_id named(hlomem::hlo_module const& m, std::string const& name) {
    for (hlomem::computation_id c = 0; c < m.computation_count(); ++c) {
        if (auto i = m.find_instruction(c, name)) return *i;
    }
    FAIL("no instruction " << name);
    return hlomem::no_instruction;
}

std::int64_t highest(std::vector<std::int64_t> const& curve) { return *std::max_element(curve.begin(), curve.end()); }

// Each color: both curves one value per time of the edited module, each peak what the what-if
// gives before and after (the peak before at its time moved by the inserted instructions).
void check_curves(hlomem::what_if const& w, hlomem::what_if_peaks const& before, hlomem::what_if_page_data const& d) {
    CHECK(d.max == w.max());
    REQUIRE(d.colors.size() == w.colors().size());
    for (auto const& c : d.colors) {
        CAPTURE(c.color);
        REQUIRE(c.before.size() == static_cast<std::size_t>(w.max()) + 1);
        REQUIRE(c.after.size() == c.before.size());
        auto const was = std::find_if(before.colors.begin(), before.colors.end(), [&](auto const& p) { return p.first == c.color; });
        std::int64_t const before_bytes = was == before.colors.end() ? 0 : was->second.bytes;
        CHECK(c.before_peak.bytes == before_bytes);
        CHECK(highest(c.before) == before_bytes);
        CHECK(c.after_peak.bytes == w.color_peak(c.color).bytes);
        CHECK(c.after_peak.time == w.color_peak(c.color).time);
        CHECK(highest(c.after) == c.after_peak.bytes);
        if (before_bytes > 0) {
            CHECK(c.before_peak.time == w.edited_time(was->second.time));
            CHECK(c.before[static_cast<std::size_t>(c.before_peak.time)] == before_bytes);
        }
    }
}

}  // namespace

TEST_CASE("whatif page: an offload's curves before and after, and the value marked", "[whatif][output]") {
    // hlomem whatif --offload fft.8.0 (tests/cli/whatif_fft_cublas_while.out): color 0's live
    // peak 98314552 bytes before, 74230072 after; color 5 holds 26214400 bytes on the host.
    auto const m = hlomem::parse_hlo_module(read_data("corpus/lorrax/lorrax_fft_cublas_while.after_opt.hlo"), "fft");
    hlomem::what_if w(m);
    auto const before = w.peaks();
    REQUIRE(w.apply(hlomem::what_if_edit::offload(named(m, "fft.8.0"), w.peak_time_original())).accepted);
    auto const after = w.peaks();
    auto const d = hlomem::what_if_page(w);
    check_curves(w, before, d);
    // The page took the edit back and applied it again: the what-if is as it was.
    CHECK(w.edits().size() == 1);
    CHECK(w.peaks().xla.bytes == after.xla.bytes);
    CHECK(w.peaks().xla.time == after.xla.time);
    CHECK(d.inserted == 4);  // copy-start, copy-done to the host and back
    REQUIRE(d.colors.size() == 2);
    CHECK(d.colors[0].before_peak.bytes == 98314552);
    CHECK(d.colors[0].after_peak.bytes == 74230072);
    CHECK(d.colors[1].color == 5);
    CHECK(d.colors[1].before_peak.bytes == 0);
    CHECK(d.colors[1].after_peak.bytes == 26214400);
    REQUIRE(d.marks.size() == 1);
    auto const& mark = d.marks[0];
    CHECK(mark.name == "fft.8.0");
    CHECK(mark.kind == hlomem::what_if_kind::offload);
    CHECK(mark.edit == "offload fft.8.0 from 46");
    CHECK(mark.color == 0);
    CHECK(mark.saved == 98314552 - 74230072);
    // Not held from after its last read before 46 until its copy back starts.
    auto const range = w.edited_range(w.value_of(named(m, "fft.8.0")));
    REQUIRE(range);
    CHECK(mark.first == range->second + 1);
    CHECK(mark.first <= mark.last);
    CHECK(mark.last < w.max());
    std::ostringstream html;
    hlomem::write_what_if_html(html, d);
    CHECK(html.str().find("data-curve=\"before\" data-color=\"0\" data-peak-bytes=\"98314552\"") != std::string::npos);
    CHECK(html.str().find("data-curve=\"after\" data-color=\"0\" data-peak-bytes=\"74230072\"") != std::string::npos);
    CHECK(html.str().find("<g class=\"mark mark-offload\" data-name=\"fft.8.0\"") != std::string::npos);
}

TEST_CASE("whatif page: advice's set applied, each edit's bytes saved in order, the budget kept", "[whatif][output]") {
    auto const m = hlomem::parse_hlo_module(read_data("jax_0_11/grad_plain.txt"), "grad_plain");
    hlomem::what_if w(m);
    auto const before = w.peaks();
    auto const a = hlomem::advise(w);
    REQUIRE(!a.chosen.empty());
    std::map<std::int64_t, std::int64_t> budgets;
    for (auto const& c : a.colors) budgets[c.color] = c.budget;
    auto const d = hlomem::what_if_page(w, budgets);
    check_curves(w, before, d);
    REQUIRE(d.marks.size() == a.chosen.size());
    std::int64_t saved = 0;
    for (std::size_t j = 0; j < d.marks.size(); ++j) {
        auto const& o = a.candidates[a.chosen[j]].outcome;
        CHECK(d.marks[j].kind == o.edit.kind);
        CHECK(d.marks[j].edit == hlomem::detail::edit_text(m, o.edit));
        CHECK(d.marks[j].color == 0);
        saved += d.marks[j].saved;
    }
    // The edits' savings, one after the other, add up to the peak's drop.
    auto const& c0 = d.colors[0];
    CHECK(c0.color == 0);
    CHECK(saved == c0.before_peak.bytes - c0.after_peak.bytes);
    REQUIRE(c0.budget);
    CHECK(*c0.budget == a.colors[0].budget);
    CHECK(c0.after_peak.bytes == a.colors[0].after.bytes);
}
