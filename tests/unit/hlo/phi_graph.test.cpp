// The phi graph (hlo/phi_graph.hpp, XLA's PhiGraph): phis that merge one value are that value.
#include <hlomem/hlo/phi_graph.hpp>

#include <catch2/catch.hpp>

#include <vector>

TEST_CASE("the phi graph: a phi that merges one value and itself is that value", "[liveness][dataflow][phi_graph]") {
    hlomem::phi_graph g;
    g.register_phi(7, {3, 7});  // a loop state: the initial value 3 and the phi itself
    g.register_phi(8, {3, 5});  // two distinct values: stays a phi
    g.register_phi(9, {7, 3});  // fed by phi 7 and value 3: value 3 once 7 is
    CHECK(g.inputs(8) == std::vector<hlomem::value_id>{3, 5});
    g.optimize();
    CHECK(g.optimized_value(7) == 3);
    CHECK(g.optimized_value(8) == 8);
    CHECK(g.optimized_value(9) == 3);
    CHECK(g.optimized_value(42) == 42);  // never registered
}
