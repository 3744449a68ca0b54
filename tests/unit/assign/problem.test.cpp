// The options and decisions of an assignment problem (assign/problem.hpp): the options a user
// names, each wrong one refused with its reason; the names of the kinds of place an HloBuffer
// gets; the analyses BufferAssigner reads; shapes as allocation headers print them.
#include <hlomem/assign/problem.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace {

/// The message assign_options_named throws for these arguments, or "" when it accepts them.
std::string refusal(std::optional<std::string_view> backend, std::optional<std::string_view> algorithm,
                    std::optional<std::int64_t> alignment, double seconds) {
    try {
        (void)hlomem::assign_options_named(backend, algorithm, alignment, seconds);
    } catch (hlomem::error const& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("assign/problem: the options a user names, as hlomem assign reads them", "[assign]") {
    auto const none = hlomem::assign_options_named(std::nullopt, std::nullopt, std::nullopt, 1.5);
    CHECK_FALSE(none.backend);  // inferred later (infer_backend)
    CHECK_FALSE(none.alignment);
    CHECK(none.algorithm == hlomem::allocation_algorithm::best_fit);
    CHECK(none.plan.improve.time_limit == std::chrono::milliseconds(1500));
    CHECK(none.plan.exact.time_limit == std::chrono::milliseconds(1500));

    auto const all = hlomem::assign_options_named("tpu", "exact", 1024, 86400);
    CHECK(all.backend == hlomem::xla_backend::tpu);
    CHECK(all.algorithm == hlomem::allocation_algorithm::exact);
    CHECK(all.alignment == 1024);
    CHECK(all.plan.exact.time_limit == std::chrono::milliseconds(86400000));
    CHECK(hlomem::assign_options_named("cpu", std::nullopt, 1, 1).alignment == 1);  // 2^0
}

TEST_CASE("assign/problem: each wrong option is refused with its reason", "[assign]") {
    // tests/cli/assign_bad_backend.err prints the first.
    CHECK(refusal("npu", std::nullopt, std::nullopt, 1) == "unknown backend 'npu' (gpu, cpu or tpu)");
    CHECK(refusal("GPU", std::nullopt, std::nullopt, 1) == "unknown backend 'GPU' (gpu, cpu or tpu)");
    CHECK(refusal(std::nullopt, "best_fit", std::nullopt, 1) == "unknown algorithm 'best_fit'");
    // XLA's BufferAssigner takes power-of-two alignments only.
    for (std::int64_t bad : {std::int64_t{0}, std::int64_t{-128}, std::int64_t{96}, std::numeric_limits<std::int64_t>::min()}) {
        CAPTURE(bad);
        CHECK(refusal(std::nullopt, std::nullopt, bad, 1) == "the alignment must be a power of two, not " + std::to_string(bad));
    }
    CHECK(refusal(std::nullopt, std::nullopt, std::int64_t{1} << 62, 1).empty());
    for (double bad : {0.0, -1.0, 86400.5, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
        CAPTURE(bad);
        CHECK(refusal(std::nullopt, std::nullopt, std::nullopt, bad) ==
              "the time limit must be a positive number of seconds, at most 86400");
    }
}

TEST_CASE("assign/problem: kinds by name, fusion bodies left out, shapes without layouts", "[assign]") {
    CHECK(hlomem::to_string(hlomem::buffer_assignment_kind::entry_parameter) == "entry-parameter");
    CHECK(hlomem::to_string(hlomem::buffer_assignment_kind::thread_local_) == "thread-local");
    CHECK(hlomem::to_string(hlomem::buffer_assignment_kind::heap) == "heap");

    hlomem::liveness_options given;
    given.dataflow.fusion_body_values = true;
    CHECK_FALSE(hlomem::assignment_liveness_options(given).dataflow.fusion_body_values);

    // ShapeUtil::HumanString, as allocation headers print a parameter's shape: every layout gone,
    // tuple elements' too, tiling included.
    auto const s = hlomem::parse_shape("(f32[8,128]{1,0:T(8,128)}, (s32[2]{0}, pred[]))");
    auto const bare = hlomem::detail::without_layouts(s);
    CHECK(hlomem::to_string(bare) == "(f32[8,128], (s32[2], pred[]))");
    CHECK(hlomem::human_string(bare) == hlomem::human_string(s));
}
