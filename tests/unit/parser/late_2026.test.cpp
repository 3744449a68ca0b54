// The texts of late-2026 XLA that older ones do not write: an allocation's values of another
// color (` reused by buffers of a different color:`, BufferAllocation::ToString), a live-range
// text whose peak cannot be computed (an unbounded dynamic shape), and the newer memory-usage
// report, which names memory spaces with TPU's names and leaves out small allocations past 50.
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "test_data.hpp"

namespace {

// A GPU temp allocation of collective memory (color 1) that a default-memory value (@0) reuses,
// as BufferAllocation::ToString prints it, and its live ranges with a peak XLA cannot compute.
std::string const cross_color_dump =
    "BufferAssignment:\n"
    "allocation 0: size 1024, parameter 0, shape |f32[256]| at ShapeIndex {}:\n"
    " value: <0 p @0> (size=1024,offset=0): f32[256]{0}\n"
    "allocation 1: size 2048, color 1, preallocated-temp:\n"
    " value: <1 all-reduce @1> (size=1024,offset=0): f32[256]{0:S(1)}\n"
    " value: <2 add @0> (size=1024,offset=1024): f32[256]{0}\n"
    " reused by buffers of a different color:\n"
    "  value: <2 add @0> (color=0)\n"
    "\n"
    "Total bytes used: 3072 (3.0KiB)\n";

std::string const undetermined_live_range =
    "HloLiveRange (max 3):\n"
    "  InstructionSequence:\n"
    "    0:p\n"
    "    1:all-reduce\n"
    "    2:add\n"
    "  BufferLiveRange:\n"
    "    p{}:0-3\n"
    "    all-reduce{}:1-2\n"
    "    add{}:2-3\n"
    "  Peak memory could not be determined due to unbounded dynamic shape.\n";

std::string replaced(std::string text, std::string const& from, std::string const& to) {
    auto const at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

std::vector<hlomem::diagnostic> of_kind(std::vector<hlomem::diagnostic> const& all, hlomem::diagnostic_kind kind) {
    std::vector<hlomem::diagnostic> out;
    for (auto const& d : all) {
        if (d.kind == kind) out.push_back(d);
    }
    return out;
}

}  // namespace

TEST_CASE("late 2026: values of another color reusing a temp allocation", "[parser][late_2026]") {
    // The printer separates the live ranges by two blank lines, as XLA's dumps of this form do.
    std::string const text = cross_color_dump + "\n\n" + undetermined_live_range;
    auto const ba = hlomem::parse_buffer_assignment(text, "cross_color");
    REQUIRE(ba.allocations.size() == 2);
    auto const* add = ba.find_value(2);
    auto const* all_reduce = ba.find_value(1);
    REQUIRE(add);
    REQUIRE(all_reduce);
    CHECK(add->cross_color);
    CHECK(*add->color == 0);
    CHECK_FALSE(all_reduce->cross_color);
    CHECK(hlomem::check_consistency(ba).empty());
    CHECK(of_kind(hlomem::check_soundness(ba), hlomem::diagnostic_kind::color_mismatch).empty());
    CHECK(hlomem::to_string(ba) == text);  // printed back as XLA wrote it

    // The same value without the block: a color XLA would have listed there.
    auto const unlisted =
        hlomem::parse_buffer_assignment(replaced(text, " reused by buffers of a different color:\n  value: <2 add @0> (color=0)\n", ""));
    CHECK(of_kind(hlomem::check_soundness(unlisted), hlomem::diagnostic_kind::color_mismatch).size() == 1);
    REQUIRE(hlomem::check_consistency(unlisted).size() == 1);
    CHECK(hlomem::check_consistency(unlisted)[0].message ==
          "value 2 has color 0 but allocation 1 has color 1 and does not list it as reused by a different color");

    // An input or output allocation keeps its color (BufferAssigner::MaybeAssignBuffer).
    std::string const in_parameter =
        "BufferAssignment:\n"
        "allocation 0: size 1024, color 1, parameter 0, shape |f32[256]| at ShapeIndex {}:\n"
        " value: <0 p @0> (size=1024,offset=0): f32[256]{0}\n"
        " reused by buffers of a different color:\n"
        "  value: <0 p @0> (color=0)\n"
        "\n"
        "Total bytes used: 1024 (1.0KiB)\n";
    auto const mismatches =
        of_kind(hlomem::check_soundness(hlomem::parse_buffer_assignment(in_parameter)), hlomem::diagnostic_kind::color_mismatch);
    REQUIRE(mismatches.size() == 1);
    CHECK(mismatches[0].message.find("use a temp allocation only, never a parameter or output") != std::string::npos);
}

TEST_CASE("late 2026: a cross-color block that contradicts its allocation is an error at its line", "[parser][late_2026]") {
    // A value of another allocation.
    auto r = hlomem::try_parse_buffer_assignment(replaced(cross_color_dump, "  value: <2 add @0> (color=0)", "  value: <0 p @0> (color=0)"),
                                                 "bad");
    REQUIRE_FALSE(r);
    CHECK(r.error().line == 8);
    CHECK(r.error().message == "value 0 is listed as reused by a different color of allocation 1 but has no value line in it; "
                               "XLA lists only the values above");
    // Its key's color and the color after it differ.
    r = hlomem::try_parse_buffer_assignment(replaced(cross_color_dump, "(color=0)", "(color=2)"), "bad");
    REQUIRE_FALSE(r);
    CHECK(r.error().line == 8);
    CHECK(r.error().message == "value 2 is @0 but (color=2)");
    // Another value under its id.
    r = hlomem::try_parse_buffer_assignment(replaced(cross_color_dump, "  value: <2 add @0>", "  value: <2 mul @0>"), "bad");
    REQUIRE_FALSE(r);
    CHECK(r.error().line == 8);
    CHECK(r.error().column == 10);
    CHECK(r.error().message == "value 2 is add{} on its value line but mul{} here");
}

TEST_CASE("late 2026: a live range whose peak an unbounded dynamic shape hides", "[parser][late_2026]") {
    auto const lr = hlomem::parse_live_range(undetermined_live_range, "undetermined");
    CHECK(lr.peak_undetermined);
    CHECK(lr.peak_undetermined_line == 10);
    CHECK_FALSE(lr.stated_peak);
    // Not taken for a text cut short.
    auto const ba = hlomem::parse_buffer_assignment(cross_color_dump + "\n" + undetermined_live_range);
    CHECK(hlomem::check_consistency(ba).empty());
    // Without that line, it is.
    auto const cut = hlomem::parse_buffer_assignment(
        cross_color_dump + "\n" + replaced(undetermined_live_range, "  Peak memory could not be determined due to unbounded dynamic shape.\n", ""));
    REQUIRE(hlomem::check_consistency(cut).size() == 1);
    CHECK(hlomem::check_consistency(cut)[0].message.find("looks truncated") != std::string::npos);
}

TEST_CASE("late 2026: the newer memory-usage report against its dump", "[parser][late_2026][jax_0_11]") {
    for (std::string name : {"grad_ckpt", "grad_plain", "mlp_step_1024", "scan_loop", "unused_donation"}) {
        CAPTURE(name);
        std::string const base = "jax_0_11/" + name;
        auto const ba = hlomem::parse_buffer_assignment(hlomem_test::read_data(base + "-buffer-assignment.txt") +
                                                            hlomem_test::read_data(base + "-buffer-assignment-values.txt"),
                                                        base);
        std::string const text = hlomem_test::read_data(base + "-memory-usage-report.txt");
        auto const report = hlomem::parse_memory_usage_report(text, base);
        // Every table is the allocation XLA's order puts there, down to its offsets and counts.
        CHECK(hlomem::check_against(report, ba).empty());
        if (name != "grad_ckpt") continue;
        // Without its last table, the report is one short of what XLA lists.
        auto const last = text.rfind("  cumulative_size;");
        REQUIRE(last != std::string::npos);
        auto const short_one = hlomem::parse_memory_usage_report(text.substr(0, last), base);
        auto const found = hlomem::check_against(short_one, ba);
        REQUIRE(found.size() == 1);
        CHECK(found[0].message == "memory space 0 has 22 allocation tables; XLA lists 23 of its 23 allocations");
        // A space named otherwise than XLA names its color: a note, since the number is what counts.
        auto const renamed = hlomem::parse_memory_usage_report(replaced(text, "Memory Space: default", "Memory Space: hbm"), base);
        auto const said = hlomem::check_against(renamed, ba);
        REQUIRE(said.size() == 1);
        CHECK(said[0].severity == hlomem::severity::note);
        CHECK(said[0].message == "the report names color 0 'hbm'; XLA's GetMemorySpaceName names it 'default'");
    }
}

TEST_CASE("late 2026: XLA's report lists 50 allocations and then stops at 95% of the bytes", "[parser][late_2026]") {
    // GetMemoryUsageReportProto's rule, worked independently for these dumps: by size, then index,
    // it stops after the 51st allocation, once the rest hold under 5% of the color's bytes.
    struct expected {
        char const* file;
        std::size_t allocations, listed;
        std::int64_t last;
    };
    for (auto const& e : {expected{"seeds/000_5960cad812240b69.txt", 54, 51, 49},
                          expected{"corpus/lorrax/lorrax_bse_full_run_large.buffer_assignment.txt", 82, 51, 47}}) {
        CAPTURE(e.file);
        auto const ba = hlomem::parse_buffer_assignment(hlomem_test::read_data(e.file), e.file);
        CHECK(ba.allocations.size() == e.allocations);
        auto const listed = hlomem::usage_report_allocations(ba, 0);
        REQUIRE(listed.size() == e.listed);
        CHECK(ba.allocations[listed.back()].index == e.last);
    }
    // The names are labels of numbers: color 5 is `cmem` in the report and host memory on a GPU.
    CHECK(hlomem::memory_space_name(5) == "cmem");
    CHECK(hlomem::gpu_memory_space_meaning(5) == "host memory");
    CHECK(hlomem::memory_space_name(7) == "color_7");
    CHECK(hlomem::gpu_memory_space_meaning(1) == "collective memory");
}
