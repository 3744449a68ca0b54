// Planning by algorithm name (placement/plan.hpp).
#include <hlomem/placement/plan.hpp>

#include <catch2/catch.hpp>

TEST_CASE("algorithm names round-trip", "[allocation]") {
    for (auto a : hlomem::all_allocation_algorithms) CHECK(hlomem::allocation_algorithm_named(hlomem::to_string(a)) == a);
    CHECK_FALSE(hlomem::allocation_algorithm_named("best_fit").has_value());
}
