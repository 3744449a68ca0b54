// The call graph (hlo/call_graph.hpp, XLA's CallGraph): call contexts, computations callees
// first, instructions operands first, on tests/data/hand/liveness_while_phi.hlo.
#include <hlomem/hlo/call_graph.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include "test_data.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace {

using hlomem_test::read_data;

}  // namespace

TEST_CASE("the call graph: call contexts, computations callees first, instructions operands first",
          "[liveness][dataflow][call_graph]") {
    auto const text = read_data("hand/liveness_while_phi.hlo");
    auto const m = hlomem::parse_hlo_module(text, "liveness_while_phi.hlo");
    hlomem::call_graph const g(m);
    auto const cond = *m.find_computation("cond");
    auto const body = *m.find_computation("body");
    auto const main = *m.find_computation("main");
    CHECK(g.context(cond) == hlomem::call_context::control_flow);
    CHECK(g.context(body) == hlomem::call_context::control_flow);
    CHECK(g.context(main) == hlomem::call_context::control_flow);
    CHECK(g.computation_post_order() == std::vector<hlomem::computation_id>{cond, body, main});
    auto const w = *m.find_instruction("w");
    CHECK(g.called(w, hlomem::call_kind::while_body) == body);
    CHECK(g.called(w, hlomem::call_kind::while_condition) == cond);
    CHECK(g.called(w, hlomem::call_kind::fusion) == hlomem::no_computation);
    CHECK(g.async_wrapped_computation(w) == hlomem::no_computation);
    std::vector<std::string> order;
    for (auto i : g.instruction_post_order(body)) order.emplace_back(std::string_view(m.instruction(i).name));
    CHECK(order == std::vector<std::string>{"p.b", "i.b", "one", "next", "x.b", "y", "t.b"});
}
