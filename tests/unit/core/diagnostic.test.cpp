// The one diagnostic type: the stable names of kinds and severities, and a diagnostic built in
// steps (core/diagnostic.hpp).
#include <hlomem/core/diagnostic.hpp>

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <utility>
#include <vector>

using hlomem::diagnostic;
using hlomem::diagnostic_kind;
using hlomem::severity;

TEST_CASE("core/diagnostic: each kind's name is its enumerator with '-' for '_', all distinct", "[diagnostic]") {
    // The enumerator's own spelling (#k), turned into the name JSON output uses.
#define HLOMEM_TEST_KIND(k) {diagnostic_kind::k, #k}
    std::vector<std::pair<diagnostic_kind, std::string>> const kinds = {
        HLOMEM_TEST_KIND(overlap),         HLOMEM_TEST_KIND(overrun),          HLOMEM_TEST_KIND(undersized),
        HLOMEM_TEST_KIND(color_mismatch),  HLOMEM_TEST_KIND(memory_space_mismatch),
        HLOMEM_TEST_KIND(unknown_live_range), HLOMEM_TEST_KIND(missing_offset), HLOMEM_TEST_KIND(negative_offset),
        HLOMEM_TEST_KIND(misaligned),      HLOMEM_TEST_KIND(over_capacity),    HLOMEM_TEST_KIND(inconsistent_dump),
        HLOMEM_TEST_KIND(invalid_shape),   HLOMEM_TEST_KIND(size_disagreement), HLOMEM_TEST_KIND(partial_read),
        HLOMEM_TEST_KIND(invalid_module),  HLOMEM_TEST_KIND(assumption),
    };
#undef HLOMEM_TEST_KIND
    std::set<std::string> names;
    for (auto const& [kind, spelling] : kinds) {
        std::string expected = spelling;
        for (char& c : expected) c = c == '_' ? '-' : c;
        CHECK(std::string(hlomem::to_string(kind)) == expected);
        names.insert(expected);
    }
    CHECK(names.size() == kinds.size());
    // The list above is every kind: the last enumerator is the 16th.
    CHECK(static_cast<std::size_t>(diagnostic_kind::assumption) + 1 == kinds.size());
    CHECK(hlomem::to_string(static_cast<diagnostic_kind>(200)) == "?");
}

TEST_CASE("core/diagnostic: severities order note < warning < error and have their names", "[diagnostic]") {
    CHECK(hlomem::to_string(severity::note) == "note");
    CHECK(hlomem::to_string(severity::warning) == "warning");
    CHECK(hlomem::to_string(severity::error) == "error");
    CHECK(severity::note < severity::warning);
    CHECK(severity::warning < severity::error);
    CHECK(hlomem::to_string(static_cast<severity>(9)) == "?");
}

TEST_CASE("core/diagnostic: built in steps, unset subjects are none and an unset place is 0", "[diagnostic]") {
    auto const plain = hlomem::make_diagnostic(diagnostic_kind::partial_read, severity::warning, "cut off");
    CHECK(plain.kind == diagnostic_kind::partial_read);
    CHECK(plain.severity == severity::warning);
    CHECK(plain.message == "cut off");
    CHECK(plain.line == 0);
    CHECK(plain.column == 0);
    CHECK(plain.first == diagnostic::none);
    CHECK(plain.second == diagnostic::none);
    CHECK(plain.allocation == diagnostic::none);

    auto const d = hlomem::make_diagnostic(diagnostic_kind::overlap, severity::error, "share bytes").about(12, 14, 3).at(7, 9);
    CHECK(d.first == 12);
    CHECK(d.second == 14);
    CHECK(d.allocation == 3);
    CHECK(d.line == 7);
    CHECK(d.column == 9);
    // about() with one subject clears the others; at() with one argument sets column 0.
    auto const one = hlomem::make_diagnostic(diagnostic_kind::overrun, severity::error, "m").about(5).at(2);
    CHECK(one.second == diagnostic::none);
    CHECK(one.allocation == diagnostic::none);
    CHECK(one.line == 2);
    CHECK(one.column == 0);
}
