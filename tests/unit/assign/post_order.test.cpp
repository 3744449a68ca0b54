// The position ComparePosition gives each instruction (assign/post_order.hpp), worked out by hand
// from XLA's rules on a small module: BufferAssigner::AssignBuffersForComputations numbers the
// instructions of each computation in MakeInstructionPostOrder (every instruction without users,
// in instruction order, depth first with the first operand first), the computations in the
// reverse of CallGraph::VisitNodes' post order (callers first, the last callee first); an
// async-start in syntax sugar calls a computation the text does not show: its parameters, then
// its root.
#include <hlomem/assign/post_order.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include <cstdint>
#include <map>
#include <string>

namespace {

char const* const module_text = R"(HloModule m, is_scheduled=true

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(f32[] %a, f32[] %b)
}

%max (c: f32[], d: f32[]) -> f32[] {
  %c = f32[] parameter(0)
  %d = f32[] parameter(1)
  ROOT %x = f32[] maximum(f32[] %c, f32[] %d)
}

ENTRY %main (p: f32[8], q: f32[8]) -> (f32[], f32[], f32[8]) {
  %p = f32[8]{0} parameter(0)
  %q = f32[8]{0} parameter(1)
  %n = f32[8]{0} negate(f32[8]{0} %q)
  %m = f32[8]{0} multiply(f32[8]{0} %p, f32[8]{0} %n)
  %dead = f32[8]{0} exponential(f32[8]{0} %p)
  %z = f32[] constant(0)
  %r1 = f32[] reduce(f32[8]{0} %m, f32[] %z), dimensions={0}, to_apply=%add
  %r2 = f32[] reduce(f32[8]{0} %p, f32[] %z), dimensions={0}, to_apply=%max
  %a2s = ((f32[8]{0}), f32[8]{0}) all-to-all-start(f32[8]{0} %p), replica_groups={}, dimensions={0}
  %a2d = f32[8]{0} all-to-all-done(((f32[8]{0}), f32[8]{0}) %a2s)
  ROOT %t = (f32[], f32[], f32[8]{0}) tuple(f32[] %r1, f32[] %r2, f32[8]{0} %a2d)
}
)";

}  // namespace

TEST_CASE("assign/post_order: callers first, each computation in instruction post order", "[assign]") {
    auto const m = hlomem::parse_hlo_module(module_text, "m");
    auto const table = hlomem::detail::post_order_positions(m);
    REQUIRE(table.instruction.size() == m.instruction_count());
    std::map<std::string, std::int64_t> position;
    for (hlomem::instruction_id i = 0; i < m.instruction_count(); ++i) {
        position[std::string(m.instruction(i).name)] = table.instruction[i];
    }
    // main: %dead has no users and comes first in the list (p, dead); then the root: r1 reaches
    // m (p done, then n and its q), z; r2 (p, z done); a2d through a2s; t.
    // Then the computation a2s hides (its parameter 11, its root 12), %max, %add: CallGraph
    // visits main's callees in instruction order (add, max, the hidden one) and the order is
    // reversed.
    std::map<std::string, std::int64_t> const expected = {
        {"p", 0},  {"dead", 1}, {"q", 2},  {"n", 3},  {"m", 4},  {"z", 5},  {"r1", 6}, {"r2", 7}, {"a2s", 8}, {"a2d", 9},
        {"t", 10}, {"c", 13},   {"d", 14}, {"x", 15}, {"a", 16}, {"b", 17}, {"s", 18}};
    CHECK(position == expected);
}

TEST_CASE("assign/post_order: only a sugared async-start has the root of a hidden computation", "[assign]") {
    auto const m = hlomem::parse_hlo_module(module_text, "m");
    auto const table = hlomem::detail::post_order_positions(m);
    for (hlomem::instruction_id i = 0; i < m.instruction_count(); ++i) {
        std::string const name(m.instruction(i).name);
        CAPTURE(name);
        bool const sugared = name == "a2s";
        CHECK(hlomem::detail::is_sugared_async_start(m, i) == sugared);
        CHECK(table.async_root[i] == (sugared ? 12 : -1));
    }
}
