// The sharing rules of the soundness check (memory/soundness.hpp), one real case each, with the
// change that breaks the rule and makes the same bytes a violation; and every real dump under
// tests/data checked with no violation.
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace {

using hlomem_test::read_data;

std::string const ritz = "corpus/regressions/jit__ritz_and_residuals_0dec5fcd.buffer_assignment.txt";
std::string const chol = "corpus/regressions/jit__batched_chol_06a294ff.buffer_assignment.txt";

/// The index into ba.values of the value with id `id`.
std::size_t value_with_id(hlomem::buffer_assignment const& ba, std::int64_t id) {
    auto const it = std::find_if(ba.values.begin(), ba.values.end(), [&](auto const& v) { return v.id == id; });
    REQUIRE(it != ba.values.end());
    return static_cast<std::size_t>(it - ba.values.begin());
}

/// Replaces the first `from` after `anchor` (both must exist) in `text`.
void replace_after(std::string& text, std::string const& anchor, std::string const& from, std::string const& to) {
    auto const a = text.find(anchor);
    REQUIRE(a != std::string::npos);
    auto const at = text.find(from, a);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
}

std::vector<hlomem::diagnostic> overlaps(hlomem::buffer_assignment const& ba) {
    auto found = hlomem::check_soundness(ba);
    found.erase(std::remove_if(found.begin(), found.end(),
                               [](auto const& d) { return d.kind != hlomem::diagnostic_kind::overlap; }),
                found.end());
    return found;
}

}  // namespace

TEST_CASE("GPU hint: a cuSOLVER Cholesky writes its factor over its operand, reached through a bitcast",
          "[soundness][sharing]") {
    // Allocation 4: input_transpose_fusion (value 244, live 22-24) is read by
    // `%custom-call.12.0 = (...) custom-call(%bitcast.928.0), custom_call_target="__cusolver$cholesky"`
    // at 24 (its block lists `custom-call.12.0, operand 0`: the bitcast defines no value), and
    // custom-call.12.0{0} (value 246, live 24-51) takes its bytes [0, 25600).
    std::string text = read_data(ritz);
    auto const ba = hlomem::parse_buffer_assignment(text, ritz);
    std::size_t const operand = value_with_id(ba, 244), factor = value_with_id(ba, 246);
    CHECK(hlomem::legal_sharing(ba, operand, factor) == hlomem::sharing_reason::in_place);
    CHECK(hlomem::check_soundness(ba).empty());
    auto const summary = hlomem::summarize_sharing(ba);
    CHECK(summary.in_place == 10);  // 9 before the rule, and this one
    CHECK(summary.total() == 10);

    // Another target has no such hint: the same bytes are then a violation.
    replace_after(text, "\n<246 custom-call.12.0{0} @0>", "__cusolver$cholesky", "__cusolver$getrf");
    auto const other = hlomem::parse_buffer_assignment(text, ritz);
    auto const found = overlaps(other);
    REQUIRE(found.size() == 1);
    CHECK(((found[0].first == operand && found[0].second == factor) || (found[0].first == factor && found[0].second == operand)));
}

TEST_CASE("GPU hint: which output of which custom call may take which operand", "[soundness][sharing]") {
    // The texts of real instructions (seed 004 and the regression above).
    auto const ba = hlomem::parse_buffer_assignment(read_data(ritz), ritz);
    std::string_view const cholesky = ba.values[value_with_id(ba, 246)].instruction_text;
    CHECK(hlomem::instruction_attribute(cholesky, "custom_call_target") == "__cusolver$cholesky");
    CHECK(hlomem::gpu_backend_hint(cholesky, hlomem::shape_index{0}) == std::optional<std::int64_t>(0));
    CHECK_FALSE(hlomem::gpu_backend_hint(cholesky, hlomem::shape_index{1}));  // the workspace shares nothing
    CHECK_FALSE(hlomem::gpu_backend_hint(cholesky, hlomem::shape_index{}));

    // cuBLASLt matmul: the bias (operand 2) is overwritten only when beta is not zero.
    std::string const module = read_data("seeds/004_c00fd3afea504246.txt");
    auto line_of = [&](std::string const& name) {
        auto const at = module.find("\n  %" + name + " = ");
        REQUIRE(at != std::string::npos);
        return module.substr(at + 1, module.find('\n', at + 1) - at - 1);
    };
    std::string const with_bias = line_of("cublas-lt-matmul.36");
    CHECK(with_bias.find("\"beta\":1") != std::string::npos);
    CHECK(hlomem::gpu_backend_hint(with_bias, hlomem::shape_index{0}) == std::optional<std::int64_t>(2));
    std::string const plain = line_of("cublas-lt-matmul.37");
    CHECK(plain.find("\"beta\":0") != std::string::npos);
    CHECK_FALSE(hlomem::gpu_backend_hint(plain, hlomem::shape_index{0}));
    CHECK_FALSE(hlomem::gemm_beta_nonzero(R"({"alpha_real":1,"beta":0.0,"dot_dimension_numbers":{}})"));
    CHECK(hlomem::gemm_beta_nonzero(R"({"beta":0.5})"));
}

TEST_CASE("Loop state: a while body's parameter starts at the body's first instruction, not where it is listed",
          "[soundness][sharing]") {
    // while.12.0's condition parameter param.8.0{1} (value 244, live 5-8) hands the loop state over
    // to the body's parameter param.11.0{1} (value 247, live 8-80): both phi, bytes [0, 58982400) of
    // allocation 0. The body's first instruction is `8:constant_366_0`; the parameter is listed at
    // `9:param.11.0`, and XLA starts a parameter's range with its computation.
    std::string text = read_data(chol);
    auto const ba = hlomem::parse_buffer_assignment(text, chol);
    CHECK(ba.live_range->instruction_at(8) == "constant_366_0");
    CHECK(ba.live_range->instruction_at(9) == "param.11.0");
    std::size_t const cond = value_with_id(ba, 244), body = value_with_id(ba, 247);
    CHECK(hlomem::legal_sharing(ba, cond, body) == hlomem::sharing_reason::phi);
    CHECK(hlomem::legal_sharing(ba, value_with_id(ba, 223), value_with_id(ba, 224)) == hlomem::sharing_reason::phi);  // {}
    CHECK(hlomem::legal_sharing(ba, value_with_id(ba, 243), value_with_id(ba, 246)) == hlomem::sharing_reason::phi);  // {0}
    CHECK(hlomem::check_soundness(ba).empty());

    SECTION("a parameter cannot start after it is listed") {
        replace_after(text, "BufferLiveRange:", "param.8.0{1}:5-8", "param.8.0{1}:5-10");
        replace_after(text, "BufferLiveRange:", "param.11.0{1}:8-80", "param.11.0{1}:10-80");
        auto const moved = hlomem::parse_buffer_assignment(text, chol);
        CHECK_FALSE(hlomem::legal_sharing(moved, cond, body));
        auto const found = overlaps(moved);
        REQUIRE(found.size() == 1);
        CHECK(found[0].allocation == moved.values[cond].allocation);
    }
    SECTION("ranges that share more than one time are never shared on purpose") {
        replace_after(text, "BufferLiveRange:", "param.8.0{1}:5-8", "param.8.0{1}:5-9");
        auto const longer = hlomem::parse_buffer_assignment(text, chol);
        CHECK_FALSE(hlomem::legal_sharing(longer, cond, body));
        CHECK(overlaps(longer).size() == 1);
    }
}

TEST_CASE("every real buffer-assignment dump under tests/data is sound", "[soundness][corpus]") {
    // Found by content, so that a dump added later is checked too; the synthetic and malformed
    // dumps are made by hand and left out.
    std::size_t dumps = 0;
    for (auto const& folder : {"seeds", "corpus"}) {
        for (auto const& entry : std::filesystem::recursive_directory_iterator(std::string(HLOMEM_TEST_DATA_DIR) + "/" + folder)) {
            if (!entry.is_regular_file()) continue;
            auto const relative = std::filesystem::relative(entry.path(), HLOMEM_TEST_DATA_DIR).generic_string();
            std::string const text = read_data(relative);
            if (text.rfind("BufferAssignment:", 0) != 0) continue;
            CAPTURE(relative);
            ++dumps;
            auto const ba = hlomem::parse_buffer_assignment(text, relative);
            for (auto const& d : hlomem::check_soundness(ba)) {
                CAPTURE(d.message);
                CHECK(false);
            }
            CHECK(std::find(hlomem_test::real_dumps.begin(), hlomem_test::real_dumps.end(), relative) !=
                  hlomem_test::real_dumps.end());
        }
    }
    CHECK(dumps == hlomem_test::real_dumps.size());
    CHECK(dumps == 27);
}
