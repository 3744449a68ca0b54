// GPU's fusion heroes (assign/fusion_hero.hpp) and the alias rule that asks them, on the real
// module where the rule decides: regressions/jit_apply_H_k_2764be8d. Its multi-output kInput
// fusion `input_add_transpose_fusion` reads `input_transpose_fusion` (through
// `get-tuple-element.10`, operand 1, fused parameter `param_1.73`) on elementwise paths to both
// of its outputs; the second output's hero is a tiled transpose. XLA shares neither output's
// allocation with that operand (GpuAliasInfo's FusionCanShareBufferHint) and puts it in the temp
// heap, 14,698,944 bytes that hlomem once reused from output {1}'s allocation.
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <cstdint>
#include <string>
#include <vector>

using hlomem_test::read_data;

namespace {

std::string const base = "corpus/regressions/jit_apply_H_k_2764be8d";

}  // namespace

TEST_CASE("fusion hero: the transpose emitter's tiled transposes and each output's hero", "[assign][fusion_hero]") {
    auto const m = hlomem::parse_hlo_module(read_data(base + ".after_opt.hlo"), "apply_H_k");
    auto const fused = m.find_computation("fused_add_transpose");
    REQUIRE(fused);
    auto at = [&](char const* name) {
        auto const i = m.find_instruction(*fused, name);
        REQUIRE(i);
        return *i;
    };
    // [9,1963,52] -> [9,52,1963], dimensions={0,2,1}: the minor dimension moves, 52 and 1963 both
    // at least 16 (kMinDimensionToTransposeTiled).
    CHECK(hlomem::detail::is_tiled_transpose(m, at("transpose.75.7.clone.1")));
    // [9,2,26,1963] -> [9,26,2,1963], dimensions={0,2,1,3}: the minor dimension stays, and
    // 128 bits x 1963 exceeds the 64 bits of kMaxBitsInMostMinorDimension.
    CHECK_FALSE(hlomem::detail::is_tiled_transpose(m, at("transpose.83.3")));
    CHECK_FALSE(hlomem::detail::is_tiled_transpose(m, at("transpose.80.3.clone.1")));
    auto const t = hlomem::detail::normalized_logical_transpose(m.shape_of(m.operands(at("transpose.83.3"))[0]),
                                                                m.shape_of(at("transpose.83.3")), m.dimensions(at("transpose.83.3")));
    REQUIRE(t);
    CHECK(t->dimensions == std::vector<std::int64_t>{9, 26, 2, 1963});
    CHECK(t->permutation == std::vector<std::int64_t>{0, 2, 1, 3});
    // Output {0}, add.19.1, finds no tiled transpose: its hero is itself. Output {1},
    // add.18.1.clone.1, reaches transpose.75.7.clone.1 through elementwise ops and a bitcast.
    CHECK(hlomem::detail::fusion_hero(m, at("add.19.1")) == at("add.19.1"));
    CHECK(hlomem::detail::fusion_hero(m, at("add.18.1.clone.1")) == at("transpose.75.7.clone.1"));
    // A transpose root that is no tiled transpose is its own hero, a transpose all the same.
    auto const loop = m.find_computation("fused_transpose");
    REQUIRE(loop);
    auto const root = m.computation(*loop).root;
    CHECK(m.instruction(root).opcode == hlomem::hlo_opcode::transpose);
    CHECK(hlomem::detail::fusion_hero(m, root) == root);
}

TEST_CASE("fusion hero: a parameter reaching two outputs, one with a transpose hero, shares neither", "[assign][fusion_hero]") {
    auto const text = read_data(base + ".after_opt.hlo");
    auto const m = hlomem::parse_hlo_module(text, "apply_H_k");
    hlomem::hlo_liveness const live(m, {});
    auto const operand = m.find_instruction("get-tuple-element.10");
    auto const fusion = m.find_instruction("input_add_transpose_fusion");
    REQUIRE(operand);
    REQUIRE(fusion);
    CHECK_FALSE(hlomem::can_share_operand_buffer_with_user(live.alias_analysis(), *operand, {}, *fusion, {0}, true));
    CHECK_FALSE(hlomem::can_share_operand_buffer_with_user(live.alias_analysis(), *operand, {}, *fusion, {1}, true));
    // Without GPU's rules the paths are elementwise, and the generic rule allows both.
    CHECK(hlomem::can_share_operand_buffer_with_user(live.alias_analysis(), *operand, {}, *fusion, {1}, false));
}

TEST_CASE("fusion hero: jit_apply_H_k assigned exactly as XLA's dump", "[assign][fusion_hero][corpus]") {
    auto const text = read_data(base + ".after_opt.hlo");
    auto const m = hlomem::parse_hlo_module(text, "apply_H_k");
    auto const actual = hlomem::parse_buffer_assignment(read_data(base + ".buffer_assignment.txt"), "apply_H_k");
    hlomem::assign_options options;
    options.module_text = text;
    options.alignment = hlomem::alignment_of_dump(actual, hlomem::xla_backend::gpu);  // an older XLA's 128
    REQUIRE(options.alignment == 128);
    auto const predicted = hlomem::assign_buffers(m, options);
    REQUIRE(predicted.allocations.size() == 15);
    REQUIRE(actual.allocations.size() == 15);
    // Every allocation's size, in XLA's order: the 14 before the temp arena, then the arena.
    std::vector<std::int64_t> const sizes = {345047040, 28832544, 28832544, 14698944, 14698944, 665856, 368640, 141336,
                                             141336,    70668,    70668,    70668,    17667,    16,       734192064};
    for (std::size_t k = 0; k < sizes.size(); ++k) {
        CAPTURE(k);
        CHECK(actual.allocations[k].size == sizes[k]);
        CHECK(predicted.allocations[k].size == sizes[k]);
    }
    CHECK(predicted.allocations.back().is_preallocated_temp);
    CHECK(predicted.total_bytes() == 1167848935);
    REQUIRE(predicted.stated_total_bytes);
    CHECK(*predicted.stated_total_bytes == *actual.stated_total_bytes);
    // input_transpose_fusion in the arena at XLA's offset, not in an output's allocation.
    auto const* v = predicted.find_value("input_transpose_fusion", {});
    REQUIRE(v);
    CHECK(v->allocation == 14);
    CHECK(v->offset == 690095104);
    CHECK(hlomem::compare_assignments(predicted, actual).exact());
}
