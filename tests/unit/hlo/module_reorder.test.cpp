// A computation's instructions reordered (hlo/module_reorder.hpp): the names of tuple elements
// that JAX 0.11's XLA prints as operands (`%custom-call.1#0`), and the get-tuple-elements made
// for them placed right behind the tuple, by index, where that XLA's live-range files schedule
// them (tests/data/jax_0_11/grad_plain-live-range.txt: `5:custom-call.1`, `6:get-tuple-element`).
#include <hlomem/hlo/module_reorder.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

TEST_CASE("hlo/module_reorder: split_element_name reads NAME#INDEX, the last index first", "[hlo][module_reorder]") {
    using parts = std::pair<std::string_view, std::int64_t>;
    CHECK(hlomem::split_element_name("custom-call.1#0") == parts{"custom-call.1", 0});
    CHECK(hlomem::split_element_name("x#1#0") == parts{"x#1", 0});
    CHECK(hlomem::split_element_name("x#123456789") == parts{"x", 123456789});
    CHECK_FALSE(hlomem::split_element_name("x#1234567890"));  // more than 9 digits
    CHECK_FALSE(hlomem::split_element_name("x"));
    CHECK_FALSE(hlomem::split_element_name("x#"));
    CHECK_FALSE(hlomem::split_element_name("#1"));
    CHECK_FALSE(hlomem::split_element_name("x#1a"));
    CHECK_FALSE(hlomem::split_element_name("x#-1"));
}

TEST_CASE("hlo/module_reorder: made elements follow their tuple by index, and operands follow them", "[hlo][module_reorder]") {
    // t#1 is read first, t#0 second; both are scheduled behind t, #0 before #1.
    auto const m = hlomem::parse_hlo_module(R"(HloModule reorder, is_scheduled=true

ENTRY %main (p: f32[4]) -> (f32[4], f32[4]) {
  %p = f32[4]{0} parameter(0)
  %t = (f32[4]{0}, f32[4]{0}) custom-call(%p), custom_call_target="foo"
  %n = f32[4]{0} negate(%t#1)
  %a = f32[4]{0} add(%t#0, %n)
  ROOT %r = (f32[4]{0}, f32[4]{0}) tuple(%a, %n)
}
)");
    auto const main = *m.find_computation("main");
    std::vector<std::string> order;
    for (auto i : m.computation(main).instructions()) order.emplace_back(std::string_view(m.instruction(i).name));
    CHECK(order == std::vector<std::string>{"p", "t", "t#0", "t#1", "n", "a", "r"});
    auto const t = *m.find_instruction("t");
    auto const e1 = *m.find_instruction("t#1");
    CHECK(m.instruction(e1).tuple_index == 1);
    CHECK(m.operands(e1)[0] == t);
    CHECK(m.operands(*m.find_instruction("n"))[0] == e1);
    CHECK(m.operands(*m.find_instruction("a"))[0] == *m.find_instruction("t#0"));
    CHECK(std::string_view(m.instruction(m.computation(main).root).name) == "r");
}
