// `hlomem check` from the library (output/check_report.hpp): check_loaded's findings on the
// synthetic unsound dump and their text and JSON, as tests/cli/check_unsound.out states them.
#include <hlomem/output/check_report.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include <sstream>
#include <string>

TEST_CASE("check_loaded and print_check_text: the unsound synthetic dump", "[output]") {
    auto loaded = hlomem::load(std::string(HLOMEM_TEST_DATA_DIR) + "/synthetic/unsound.txt");
    REQUIRE(loaded);
    auto const r = hlomem::check_loaded(*loaded, "data/synthetic/unsound.txt");
    CHECK(r.violations.size() == 4);
    CHECK(r.sharing.in_place == 1);
    std::ostringstream text;
    hlomem::print_check_text(text, r);
    CHECK(text.str().rfind("data/synthetic/unsound.txt: 2 allocations, 4 values, xla size function\n", 0) == 0);
    CHECK(text.str().find("  4 violations\n") != std::string::npos);
    std::ostringstream json;
    hlomem::print_check_json(json, r);
    CHECK(json.str().find("\"sound\": false") != std::string::npos);
}
