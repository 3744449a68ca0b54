// How far a predicted assignment agrees with XLA's dump (assign/compare.hpp), on
// lorrax_donated_param_output_alias's dump, whose text states (grep '^allocation\|^ value:'):
// allocation 0, 31457280 bytes, parameter 0 and maybe-live-out, holding param.1 and
// input_transpose_fusion at 0; allocation 1, 62914560 bytes, preallocated-temp, holding
// input_transpose_fusion.1 at 0 and fft.2.0 at 31457280; `Total bytes used: 94371840`.
#include <hlomem/assign/compare.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include "test_data.hpp"

#include <cstddef>
#include <string>
#include <utility>

namespace {

hlomem::buffer_assignment the_dump() {
    std::string const path = "corpus/lorrax/lorrax_donated_param_output_alias.buffer_assignment.txt";
    return hlomem::parse_buffer_assignment(hlomem_test::read_data(path), path);
}

std::size_t value_named(hlomem::buffer_assignment const& ba, std::string const& name) {
    auto const i = ba.value_index(name, hlomem::shape_index{});
    REQUIRE(i != hlomem::npos);
    return i;
}

}  // namespace

TEST_CASE("assign/compare: a dump against itself agrees in everything", "[assign]") {
    auto const ba = the_dump();
    auto const r = hlomem::compare_assignments(ba, ba);
    CHECK(r.predicted_allocations == 2);
    CHECK(r.actual_allocations == 2);
    CHECK(r.allocations_same_index == 2);
    CHECK(r.allocations_same_multiset);
    CHECK(r.predicted_total == 94371840);
    CHECK(r.actual_total == 94371840);
    CHECK(r.actual_temp == 62914560);
    CHECK(r.values_compared == 4);
    CHECK(r.values_missing == 0);
    CHECK(r.values_extra == 0);
    CHECK(r.values_same_place == 4);
    CHECK(r.values_same_index == 4);
    CHECK(r.exact());
    CHECK(r.same_up_to_order());
}

TEST_CASE("assign/compare: each kind of disagreement is counted where it is", "[assign]") {
    auto const actual = the_dump();
    SECTION("a value at another offset") {
        auto predicted = actual;
        predicted.values[value_named(predicted, "fft.2.0")].offset = 0;
        auto const r = hlomem::compare_assignments(predicted, actual);
        CHECK(r.allocations_same_index == 2);
        CHECK(r.values_same_place == 3);
        CHECK(r.values_same_index == 3);
        CHECK_FALSE(r.exact());
        CHECK_FALSE(r.same_up_to_order());
    }
    SECTION("a value named otherwise: missing from the prediction, and extra in it") {
        auto predicted = actual;
        predicted.values[value_named(predicted, "input_transpose_fusion.1")].name = "renamed";
        auto const r = hlomem::compare_assignments(predicted, actual);
        CHECK(r.values_compared == 3);
        CHECK(r.values_missing == 1);
        CHECK(r.values_extra == 1);
        CHECK(r.values_same_place == 3);  // allocation 1 still corresponds through fft.2.0
        CHECK_FALSE(r.exact());
    }
    SECTION("a larger temp allocation") {
        auto predicted = actual;
        predicted.allocations[1].size += 256;
        auto const r = hlomem::compare_assignments(predicted, actual);
        CHECK(r.allocations_same_index == 1);
        CHECK_FALSE(r.allocations_same_multiset);
        CHECK(r.predicted_total == 94372096);
        CHECK(r.predicted_temp == 62914816);
        CHECK(r.values_same_index == 4);
        CHECK_FALSE(r.exact());
        CHECK_FALSE(r.same_up_to_order());
    }
    SECTION("the two allocations in the other order: the same up to order, not exact") {
        auto predicted = actual;
        std::swap(predicted.allocations[0], predicted.allocations[1]);
        for (auto& v : predicted.values) v.allocation = 1 - v.allocation;
        auto const r = hlomem::compare_assignments(predicted, actual);
        CHECK(r.allocations_same_index == 0);
        CHECK(r.allocations_same_multiset);
        CHECK(r.values_same_place == 4);
        CHECK(r.values_same_index == 0);
        CHECK_FALSE(r.exact());
        CHECK(r.same_up_to_order());
    }
    SECTION("one allocation fewer") {
        auto predicted = actual;
        predicted.allocations.pop_back();
        for (auto& v : predicted.values) {
            if (v.allocation == 1) v.allocation = hlomem::npos;
        }
        auto const r = hlomem::compare_assignments(predicted, actual);
        CHECK(r.predicted_allocations == 1);
        CHECK(r.allocations_same_index == 1);
        CHECK(r.predicted_temp == 0);
        CHECK(r.values_compared == 4);  // found by name, but placed nowhere
        CHECK(r.values_same_place == 2);
        CHECK_FALSE(r.exact());
    }
}
