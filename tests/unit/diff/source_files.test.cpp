// The peak by source line of a diff whose two sides put one file under different roots
// (hlomem/hlo/source_path.hpp, diff/assignment_diff.hpp): one row per line.
//
// tests/data/corpus/regressions holds jit__batched_chol compiled from two checkouts:
//   06a294ff: source_file="/global/homes/j/jackm/software/lorrax_B/src/common/cholesky_2d.py"
//   68697f6f: source_file="/pscratch/sd/j/jackm/lorrax_sandbox/sources/lorrax_D/src/common/cholesky_2d.py"
// Line 204's bytes at each peak (A at 72, B at 73: custom-call.6.0, the cuBLAS gemm), added up
// from the dumps' value lines and live ranges (the values whose ` from instruction:` states
// source_line=204 and whose range holds the peak; their offsets differ, so no byte is shared):
//   A: loop_complex_dynamic_slice_fusion{0} 921600 (67-72), {1} 921600 (67-72),
//      custom-call.6.0{} 16 (72-73), {0} 921600 (72-74), {1} 1843200 (72-72)  = 4608016
//   B: the same five, c128[320,320] for c128[240,240]: 1638400 + 1638400 + 16 + 1638400 + 3276800 = 8192016
#include <hlomem/diff.hpp>
#include <hlomem/hlomem.hpp>
#include <catch2/catch.hpp>
#include "test_data.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

using hlomem_test::read_data;

namespace {

struct source_side {
    hlomem::buffer_assignment ba;
    hlomem::source_attribution sources;
};

source_side source_side_of(std::string const& text, std::string const& name, std::vector<std::string> roots = {}) {
    source_side s{hlomem::parse_buffer_assignment(text, name), {}};
    s.sources = hlomem::attribute_values(s.ba);
    hlomem::strip_source_roots(s.sources, std::move(roots));
    return s;
}

std::string const chol_a = "corpus/regressions/jit__batched_chol_06a294ff.buffer_assignment.txt";
std::string const chol_b = "corpus/regressions/jit__batched_chol_68697f6f.buffer_assignment.txt";

hlomem::source_line_bytes const& line(hlomem::color_diff const& c, std::int64_t n) {
    auto it = std::find_if(c.peak_by_source.begin(), c.peak_by_source.end(),
                           [&](hlomem::source_line_bytes const& l) { return l.known && l.source_line == n; });
    REQUIRE(it != c.peak_by_source.end());
    return *it;
}

std::size_t rows_of_line(hlomem::color_diff const& c, std::int64_t n) {
    return static_cast<std::size_t>(std::count_if(c.peak_by_source.begin(), c.peak_by_source.end(),
                                                  [&](hlomem::source_line_bytes const& l) { return l.known && l.source_line == n; }));
}

}  // namespace

TEST_CASE("diff of the two checkouts of jit__batched_chol: one row per source line") {
    source_side const a = source_side_of(read_data(chol_a), "a"), b = source_side_of(read_data(chol_b), "b");
    auto const d = hlomem::diff_assignments(a.ba, a.sources, b.ba, b.sources);
    REQUIRE(d.colors.size() == 1);
    auto const& c = d.colors[0];
    // Lines 253, 204, 161, 221 and 133, argument 0 (all_C_q) and 16 bytes with no source; each
    // line was two rows before, one per checkout, each with the other side's bytes 0. Before
    // origins (hlo/origin.hpp) the 112.5 MiB of A's loop state (param.12.0, fed by all_C_q) and
    // its copies were one row `values with no source`.
    CHECK(c.peak_by_source.size() == 7);
    for (std::int64_t n : {133, 161, 204, 221, 253}) CHECK(rows_of_line(c, n) == 1);
    auto const argument = std::find_if(c.peak_by_source.begin(), c.peak_by_source.end(),
                                       [](hlomem::source_line_bytes const& l) { return l.argument == 0; });
    REQUIRE(argument != c.peak_by_source.end());
    CHECK(hlomem::line_label(*argument) == "argument 0 (all_C_q)");
    CHECK(argument->bytes.a == 58982400);
    CHECK(argument->bytes.b == 14745600);
    CHECK(line(c, 253).bytes.a == 58982400);
    auto const& l204 = line(c, 204);
    CHECK(l204.bytes.a == 4608016);
    CHECK(l204.bytes.b == 8192016);
    CHECK(l204.bytes.delta() == 3584000);
    CHECK(l204.source_file == "/global/homes/j/jackm/software/lorrax_B/src/common/cholesky_2d.py");
    CHECK(l204.source_file_b == "/pscratch/sd/j/jackm/lorrax_sandbox/sources/lorrax_D/src/common/cholesky_2d.py");
    CHECK(l204.relative_file == "src/common/cholesky_2d.py");
    CHECK(hlomem::line_label(l204) == "src/common/cholesky_2d.py:204");
    // Line 161: input_transpose_fusion's c128[240,240] at A's peak, c128[320,320] at B's.
    CHECK(line(c, 161).bytes.a == 921600);
    CHECK(line(c, 161).bytes.b == 1638400);
    // Values are matched by metadata whatever the root of their file: 69 of the 75 pairs, as
    // with both roots stripped (the same source_file text on both sides); 29 before, those whose
    // metadata names no file.
    CHECK(d.matching.count(hlomem::match_rule::metadata) == 69);
    CHECK(d.matching.pairs.size() == 75);
    // Each side's lines still add up to its peak.
    std::int64_t sum_a = 0, sum_b = 0;
    for (auto const& l : c.peak_by_source) sum_a += l.bytes.a, sum_b += l.bytes.b;
    CHECK(sum_a == c.peak_live_bytes.a);
    CHECK(sum_b == c.peak_live_bytes.b);
}

TEST_CASE("diff of the two checkouts with their roots stripped: the same rows, shown below the roots") {
    source_side const a = source_side_of(read_data(chol_a), "a", {"/global/homes/j/jackm/software/lorrax_B"});
    source_side const b = source_side_of(read_data(chol_b), "b", {"/pscratch/sd/j/jackm/lorrax_sandbox/sources/lorrax_D/"});
    auto const d = hlomem::diff_assignments(a.ba, a.sources, b.ba, b.sources);
    auto const& c = d.colors.at(0);
    CHECK(c.peak_by_source.size() == 7);
    auto const& l204 = line(c, 204);
    CHECK(l204.source_file == "src/common/cholesky_2d.py");
    CHECK(l204.source_file_b == "src/common/cholesky_2d.py");
    CHECK(l204.relative_file == "src/common/cholesky_2d.py");
    CHECK(l204.bytes.delta() == 3584000);
    CHECK(d.matching.count(hlomem::match_rule::metadata) == 69);
}

TEST_CASE("diff of a dump against a copy with its paths moved to another root: no source line changes") {
    // sed 's|/global/homes/j/jackm/software/lorrax_B/|/home/runner/work/lorrax/|' on a copy.
    std::string const text = read_data("corpus/compilations/sternheimer_core_a.buffer_assignment.txt");
    std::string moved = text;
    std::string const from = "/global/homes/j/jackm/software/lorrax_B/", to = "/home/runner/work/lorrax/";
    std::size_t rewritten = 0;
    for (std::size_t at = moved.find(from); at != std::string::npos; at = moved.find(from, at + to.size()), ++rewritten) {
        moved.replace(at, from.size(), to);
    }
    REQUIRE(rewritten == 89);  // every source_file of the dump (grep -c lorrax_B)
    source_side const a = source_side_of(text, "a"), b = source_side_of(moved, "b"), a2 = source_side_of(text, "a2");
    auto const d = hlomem::diff_assignments(a.ba, a.sources, b.ba, b.sources);
    auto const self = hlomem::diff_assignments(a.ba, a.sources, a2.ba, a2.sources);
    REQUIRE(d.colors.size() == self.colors.size());
    for (std::size_t k = 0; k < d.colors.size(); ++k) {
        auto const& c = d.colors[k];
        auto const& s = self.colors[k];
        // The rows of the diff against itself, in its order, each with no change.
        REQUIRE(c.peak_by_source.size() == s.peak_by_source.size());
        for (std::size_t r = 0; r < c.peak_by_source.size(); ++r) {
            auto const& l = c.peak_by_source[r];
            CHECK(l.source_line == s.peak_by_source[r].source_line);
            CHECK(l.source_file == s.peak_by_source[r].source_file);
            CHECK(l.bytes.a == l.bytes.b);
            CHECK(l.bytes.a == s.peak_by_source[r].bytes.a);
            if (l.known && l.argument < 0) {  // an argument's row names no file
                CHECK(l.source_file_b.rfind(to, 0) == 0);
                CHECK(l.relative_file.rfind("src/", 0) == 0);  // src/psp/dft_operators.py, ...
            }
        }
        CHECK(c.peak_live_bytes.delta() == 0);
    }
    CHECK(d.total_bytes.delta() == 0);
    // Every value matched as against itself, by the same rules, and none changed.
    CHECK(d.matching.by_rule == self.matching.by_rule);
    CHECK(d.matching.pairs.size() == a.ba.values.size());
    CHECK(d.changes.empty());
    CHECK(d.identical());
}
