// Edits written into a module's own text (whatif/apply.hpp): the header without its
// input_output_alias, and the line surgery emit_module does (an instruction's operand list, an
// operand renamed, the line at an offset). emit_module itself is checked by what_if.test.cpp,
// which reads every edited module back.
#include <hlomem/whatif/apply.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include "test_data.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

TEST_CASE("whatif/apply: the header's input_output_alias removed, every other byte kept", "[whatif]") {
    // jax_0_11/mlp_step_1024.txt donates eight parameters; its header's `, input_output_alias={
    // {0}: (0, {}, may-alias), ..., {7}: (7, {}, may-alias) }` is 223 bytes (counted with Python).
    auto const text = hlomem_test::read_data("jax_0_11/mlp_step_1024.txt");
    REQUIRE(hlomem::parse_hlo_module(text, "mlp").input_output_aliases().size() == 8);
    auto const bare = hlomem::without_input_output_alias(text);
    CHECK(bare.size() == text.size() - 223);
    CHECK(bare.rfind("HloModule jit_mlp_step, is_scheduled=true, entry_computation_layout={(f32[1024,1024]{1,0}, ", 0) == 0);
    CHECK(bare.substr(bare.find('\n')) == text.substr(text.find('\n')));
    CHECK(hlomem::parse_hlo_module(bare, "mlp").input_output_aliases().empty());
    CHECK(hlomem::without_input_output_alias(bare) == bare);
    // Only the header is read: an alias named on another line stays.
    std::string const later = "HloModule m\n// , input_output_alias={ {0}: (0, {}, may-alias) }\n";
    CHECK(hlomem::without_input_output_alias(later) == later);
    CHECK(hlomem::without_input_output_alias("HloModule m, input_output_alias={ {}: (0, {}, must-alias) }") == "HloModule m");
    // Braces that do not close on the header line: an error, not a read past the text (without a
    // newline) or a header joined to the next line (with one).
    CHECK_THROWS_WITH(hlomem::without_input_output_alias("HloModule m, input_output_alias={ {0}: (0, {}"),
                      "the HloModule line's input_output_alias={ is not closed on that line");
    CHECK_THROWS_AS(hlomem::without_input_output_alias("HloModule m, input_output_alias={ {0}\nENTRY %e {}"), hlomem::error);
}

TEST_CASE("whatif/apply: an instruction's operand list, past a tuple shape with comments", "[whatif]") {
    std::string_view const line =
        "  %t = (f32[8]{0}, /*index=1*/f32[8]{0}) tuple(f32[8]{0} %a, f32[8]{0} %b), metadata={op_name=\"x(y)\"}";
    auto const [open, close] = hlomem::detail::operand_list(line);
    CHECK(line.substr(open, close + 1 - open) == "(f32[8]{0} %a, f32[8]{0} %b)");
    CHECK(hlomem::detail::operand_list("ENTRY %main () -> f32[] {") == std::pair<std::size_t, std::size_t>{0, 0});
    CHECK(hlomem::detail::operand_list("  %p = f32[]") == std::pair<std::size_t, std::size_t>{0, 0});
}

TEST_CASE("whatif/apply: an operand renamed where it is a whole name inside the operand list", "[whatif]") {
    using hlomem::detail::rename_operand;
    // %p and %p.1 are different instructions; `pred` holds a p; calls= and metadata are no operands.
    CHECK(rename_operand("  %f = pred[8]{0} fusion(f32[8]{0} %p, f32[8]{0} %p.1, f32[8]{0} %p), kind=kLoop, calls=%p, "
                         "metadata={op_name=\"p\"}",
                         "p", "p.remat") ==
          "  %f = pred[8]{0} fusion(f32[8]{0} %p.remat, f32[8]{0} %p.1, f32[8]{0} %p.remat), kind=kLoop, calls=%p, "
          "metadata={op_name=\"p\"}");
    CHECK(rename_operand("  %n = f32[8]{0} negate(f32[8]{0} %x-y)", "x", "z") == "  %n = f32[8]{0} negate(f32[8]{0} %x-y)");
    CHECK(rename_operand("  %n = f32[8]{0} negate(f32[8]{0} %x)", "absent", "z") == "  %n = f32[8]{0} negate(f32[8]{0} %x)");
    CHECK(rename_operand("no instruction here (x)", "x", "z") == "no instruction here (x)");
    CHECK(rename_operand("  %n = f32[8]{0} negate(f32[8]{0} %x)", "", "z") == "  %n = f32[8]{0} negate(f32[8]{0} %x)");
}

TEST_CASE("whatif/apply: the line of an offset, without its newline", "[whatif]") {
    std::string_view const text = "first\n  %a = f32[] constant(1)\nlast";
    CHECK(hlomem::detail::line_at(text, 0) == std::pair<std::size_t, std::size_t>{0, 5});
    CHECK(hlomem::detail::line_at(text, 8) == std::pair<std::size_t, std::size_t>{6, 30});  // at %a
    CHECK(hlomem::detail::line_at(text, 6) == std::pair<std::size_t, std::size_t>{6, 30});  // a line's first byte
    CHECK(hlomem::detail::line_at(text, 31) == std::pair<std::size_t, std::size_t>{31, 35});  // the last, unterminated
}
