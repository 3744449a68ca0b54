// May a user's result take its operand's buffer (assign/buffer_sharing.hpp,
// CanShareOperandBufferWithUser with GPU's hint), on a real module.
#include <hlomem/assign/buffer_sharing.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include "test_data.hpp"

using hlomem_test::read_data;

TEST_CASE("assign: GPU's buffer-sharing hint reads a custom call's target", "[assign]") {
    // CanShareBufferHint (xla/service/gpu/buffer_sharing.cc): cuSOLVER's Cholesky writes its
    // factor (output {0}) over its operand. In ritz_and_residuals XLA puts custom-call.12.0{0} in
    // the allocation of input_transpose_fusion, which it reads through bitcast.928.0 and whose
    // live range ends where its own starts; the hint once looked for the target among the
    // attributes, where the parser does not keep it, and the two took separate allocations.
    auto const text = read_data("corpus/regressions/jit__ritz_and_residuals_0dec5fcd.after_opt.hlo");
    auto const m = hlomem::parse_hlo_module(text, "ritz");
    hlomem::hlo_liveness const live(m, {});
    auto const operand = m.find_instruction("bitcast.928.0");
    auto const cholesky = m.find_instruction("custom-call.12.0");
    REQUIRE(operand);
    REQUIRE(cholesky);
    CHECK(hlomem::can_share_operand_buffer_with_user(live.alias_analysis(), *operand, {}, *cholesky, {0}, true));
    CHECK_FALSE(hlomem::can_share_operand_buffer_with_user(live.alias_analysis(), *operand, {}, *cholesky, {1}, true));
    // Without the GPU hint, a custom call never shares.
    CHECK_FALSE(hlomem::can_share_operand_buffer_with_user(live.alias_analysis(), *operand, {}, *cholesky, {0}, false));
}
