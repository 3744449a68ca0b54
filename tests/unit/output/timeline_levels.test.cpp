// The lines across a color's live-bytes chart (output/timeline_levels.hpp): allocated alone
// without optima; with them, the bytes with the smallest temp arena and the most live at once,
// each drawn with its text, those above the chart's top left out.
#include <hlomem/output/timeline_levels.hpp>

#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace {

std::size_t level_text_count(std::string const& text, std::string const& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("timeline levels: allocated, the smallest temp arena, the most live at once", "[output][timeline]") {
    hlomem::timeline_color c;
    c.color = 0;
    c.allocated_bytes = 1000;
    c.peak_bytes = 700;
    auto const alone = hlomem::timeline_levels(c, nullptr);
    REQUIRE(alone.size() == 1);
    CHECK(alone[0].text == "allocated 1000B");

    // XLA's temp arena of 300 bytes against 250 proven smallest: the color would take 950.
    std::vector<hlomem::color_temp_optimum> optima(1);
    optima[0].color = 0;
    optima[0].xla_bytes = 300;
    optima[0].smallest_bytes = 250;
    optima[0].arenas = 1;
    auto const levels = hlomem::timeline_levels(c, &optima);
    REQUIRE(levels.size() == 3);
    CHECK(levels[1].bytes == 950);
    CHECK(levels[1].text == "with hlomem's temp arena 950B (proven smallest)");
    CHECK(levels[2].bytes == 700);
    CHECK(levels[2].text == "most live at once 700B");

    // Another color's optimum, or an arena not searched, draws no such line.
    optima[0].color = 1;
    CHECK(hlomem::timeline_levels(c, &optima).size() == 2);
    optima[0].color = 0;
    optima[0].unsearched = 1;
    CHECK(hlomem::timeline_levels(c, &optima).size() == 2);

    // Drawn (the texts escaped as markup): a chart 100 pixels high for 0..960 bytes leaves
    // allocated out (above its top).
    std::ostringstream svg;
    hlomem::write_timeline_levels(svg, levels, 96, 984, 960, [](double bytes) { return 100 - 100 * bytes / 960; });
    CHECK(level_text_count(svg.str(), "<line class=\"alloc-line\"") == 2);
    CHECK(level_text_count(svg.str(), "allocated") == 0);
    CHECK(level_text_count(svg.str(), ">with hlomem&#39;s temp arena 950B (proven smallest)</text>") == 1);
    CHECK(level_text_count(svg.str(), "text-anchor=\"end\">most live at once 700B</text>") == 1);
}
