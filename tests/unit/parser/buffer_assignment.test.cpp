// Buffer-assignment dumps, live ranges and memory-usage reports: the facts of the seed and
// corpus READMEs, spot checks of single allocations and values, XLA's peak reproduced, the
// format variants of older and newer XLA, and exact error messages.
#include <hlomem/hlomem.hpp>
#include <hlomem/parser/buffer_assignment.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace {

using hlomem_test::read_data;

/// The real dumps and the three synthetic ones of the other print styles (legacy addresses, the
/// newest tuple and simple forms): what the printer must write back byte for byte.
std::vector<std::string> printed_dumps() {
    std::vector<std::string> files = hlomem_test::real_dumps;
    for (char const* f : {"synthetic/legacy_address.txt", "synthetic/newest_tuple-buffer-assignment.txt",
                          "synthetic/newest_simple-buffer-assignment.txt"}) {
        files.emplace_back(f);
    }
    return files;
}

/// The report of a parse error of `text`, or "ok".
std::string dump_error_of(std::string const& text) {
    auto r = hlomem::try_parse_buffer_assignment(text, "dump.txt");
    return r ? std::string("ok") : r.error().to_string();
}

/// Lines strictly between the line starting with `from` and the next one starting with `to`
/// (after indentation): an independent count of a section's entries.
std::size_t lines_between(std::string const& text, std::string const& from, std::string const& to) {
    std::size_t n = 0;
    bool inside = false;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t const eol = std::min(text.find('\n', pos), text.size());
        std::string line = text.substr(pos, eol - pos);
        line.erase(0, line.find_first_not_of(' '));
        if (inside && line.rfind(to, 0) == 0) return n;
        if (inside) ++n;
        if (line.rfind(from, 0) == 0) inside = true;
        pos = eol + 1;
    }
    return n;
}

std::size_t count(std::string const& text, std::string const& needle) {
    std::size_t n = 0;
    for (std::size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("the seed dumps hold what their README says", "[buffer_assignment][seeds]") {
    // tests/data/seeds/README.md
    auto [file, allocations, values, ranges, total, human, max, peak, peak_entries] =
        GENERATE(table<char const*, std::size_t, std::size_t, std::size_t, std::int64_t, char const*, std::int64_t, std::int64_t, std::size_t>({
            {"seeds/000_5960cad812240b69.txt", 54, 135, 132, 1093622736, "1.02GiB", 166, 158, 50},
            {"seeds/002_b0117d631587537a.txt", 10, 83, 83, 2885767252, "2.69GiB", 80, 78, 8},
            {"seeds/003_3a38346822a50a7e.txt", 9, 68, 68, 1522, "1.5KiB", 76, 60, 3},
        }));
    CAPTURE(file);
    std::string const text = read_data(file);
    auto const ba = hlomem::parse_buffer_assignment(text, file);
    CHECK(ba.allocations.size() == allocations);
    CHECK(ba.values.size() == values);
    CHECK(std::count_if(ba.values.begin(), ba.values.end(), [](auto const& v) { return v.has_block; }) ==
          static_cast<std::ptrdiff_t>(values));
    CHECK(ba.stated_total_bytes == total);
    CHECK(ba.total_bytes() == total);
    CHECK(ba.stated_total_human == human);
    REQUIRE(ba.live_range);
    CHECK(ba.live_range->max == max);
    CHECK(ba.live_range->instruction_sequence.size() == static_cast<std::size_t>(max));
    CHECK(ba.live_range->buffer_live_ranges.size() == ranges);
    REQUIRE(ba.live_range->stated_peak);
    CHECK(ba.live_range->stated_peak->time == peak);
    CHECK(ba.live_range->stated_peak->entries.size() == peak_entries);
    // Every value line and every defining instruction has a parsed shape.
    for (auto const& v : ba.values) {
        CHECK(v.shape != hlomem::no_shape);
        CHECK(v.instruction_shape != hlomem::no_shape);
    }
    // The dump agrees with itself, and XLA's peak is reproduced exactly: time and every entry.
    CHECK(hlomem::check_consistency(ba).empty());
    auto const computed = hlomem::compute_xla_peak(ba);
    CHECK(computed.time == peak);
    CHECK(computed.values.size() == peak_entries);
    CHECK(hlomem::compare_stated_peak(ba, computed).empty());
    // The view policy reads the same dump with names pointing into the text.
    auto const view = hlomem::parse_buffer_assignment<hlomem::view_policy>(text, file);
    CHECK(view.values.size() == values);
    CHECK(view.values.front().name.data() >= text.data());
    CHECK(view.values.front().name.data() < text.data() + text.size());
}

TEST_CASE("the 14 lorrax dumps and their memory-usage reports hold what the corpus README says",
          "[buffer_assignment][corpus]") {
    // tests/data/corpus/README.md: allocations, value lines, Total bytes used, peak at.
    auto [module, allocations, values, total, peak] = GENERATE(table<char const*, std::size_t, std::size_t, std::int64_t, std::int64_t>({
        {"apply_H_sparse", 14, 41, 224524432, 27},
        {"bse_full_run_large", 82, 347, 846605582, 145},
        {"conditional", 10, 21, 5070040, 30},
        {"cpu_broadcast_in_dim", 2, 2, 14745616, 2},
        {"cpu_true_divide", 3, 3, 14746240, 4},
        {"donated_param_output_alias", 2, 4, 94371840, 4},
        {"fft_cublas_while", 16, 45, 98315080, 46},
        {"iota_tiny", 1, 1, 32, 0},
        {"post_kpath_customcall_tuple", 11, 32, 9903352, 22},
        {"psum_4gpu", 5, 6, 36, 2},
        {"reshard_xfirst_async_collectives", 3, 9, 3666346368, 11},
        {"scan_while_phi", 8, 22, 4170409, 7},
        {"scatter_while_threadlocal", 9, 24, 1552339, 7},
        {"svd_param_maybe_live_out", 5, 12, 58990236, 10},
    }));
    CAPTURE(module);
    std::string const base = std::string("corpus/lorrax/lorrax_") + module;
    std::string const text = read_data(base + ".buffer_assignment.txt");
    auto const ba = hlomem::parse_buffer_assignment(text, base);
    CHECK(ba.allocations.size() == allocations);
    CHECK(ba.values.size() == values);
    CHECK(ba.values.size() == count(text, " value: <"));
    CHECK(ba.stated_total_bytes == total);
    CHECK(ba.total_bytes() == total);
    REQUIRE(ba.live_range);
    CHECK(ba.live_range->buffer_live_ranges.size() == lines_between(text, "BufferLiveRange:", "Live ranges at"));
    CHECK(ba.live_range->instruction_sequence.size() == lines_between(text, "InstructionSequence:", "BufferLiveRange:"));
    CHECK(hlomem::check_consistency(ba).empty());
    auto const computed = hlomem::compute_xla_peak(ba);
    CHECK(computed.time == peak);
    REQUIRE(ba.live_range->stated_peak);
    CHECK(ba.live_range->stated_peak->time == peak);
    CHECK(hlomem::compare_stated_peak(ba, computed).empty());

    // The memory-usage report's first line is the same total, and it agrees with the dump.
    auto const report = hlomem::parse_memory_usage_report(read_data(base + ".memory_usage_report.txt"), base);
    CHECK(report.total_bytes == total);
    CHECK(report.allocation_values.size() == allocations);
    CHECK(hlomem::check_against(report, ba).empty());
}

TEST_CASE("spot checks of allocations and values in the TPU seed dump", "[buffer_assignment][seeds]") {
    auto const ba = hlomem::parse_buffer_assignment(read_data("seeds/002_b0117d631587537a.txt"));
    // allocation 0: size 32, output shape is |(f32[32,512,4096])|, maybe-live-out:
    auto const& a0 = ba.allocations[0];
    CHECK(a0.size == 32);
    CHECK(a0.maybe_live_out);
    REQUIRE(a0.output_shape);
    CHECK(hlomem::to_string(ba.shapes[*a0.output_shape]) == "(f32[32,512,4096])");
    CHECK(a0.kind() == hlomem::allocation_kind::output);
    // allocation 2: size 268435456, parameter 2, shape |f32[32,512,4096]| at ShapeIndex {}:
    auto const& a2 = ba.allocations[2];
    CHECK(a2.parameter_number == 2);
    CHECK(a2.parameter_shape_index.empty());
    CHECK(hlomem::to_string(ba.shapes[a2.parameter_shape]) == "f32[32,512,4096]");
    // allocation 6: size 2114011136, preallocated-temp, with 19 values (count the value lines)
    auto const& a6 = ba.allocations[6];
    CHECK(a6.size == 2114011136);
    CHECK(a6.is_preallocated_temp);
    CHECK(a6.color == 0);
    // The TPU temp arenas of colors 1, 2 and 4 come last.
    CHECK(ba.allocations[7].color == 1);
    CHECK(ba.allocations[9].color == 4);

    // <212 tuple{} @0> (size=32,offset=0): (f32[32,512,4096]{2,1,0:T(8,128)})
    auto const* tuple = ba.find_value(212);
    REQUIRE(tuple);
    CHECK(tuple->name == "tuple");
    CHECK(tuple->index_printed);
    CHECK(tuple->size == 32);
    CHECK(hlomem::to_string(*ba.shape_of(*tuple)) == "(f32[32,512,4096]{2,1,0:T(8,128)})");
    // <153 fusion.10{0} @0> (size=939524096,offset=81920)
    auto const* f = ba.find_value("fusion.10", hlomem::shape_index{0});
    REQUIRE(f);
    CHECK(f->id == 153);
    CHECK(f->offset == 81920);
    CHECK(f->size == 939524096);
    CHECK(ba.allocations[f->allocation].index == 6);
    CHECK(ba.values_of_instruction("fusion.10").size() == 18);  // {} and {0}..{16}: a 17-tuple
    // <135 async-collective-start{2} @4> (size=4096,offset=0): s32[2]{0:S(4)}
    auto const* sflag = ba.find_value(135);
    REQUIRE(sflag);
    CHECK(sflag->color == 4);
    CHECK(sflag->size == 4096);
    // <130 param.2 @0>: uses convert.1, operand 0; live 0-80; defined by
    // %param.2 = f32[3584,4096]{1,0:T(8,128)} parameter(1), sharding={devices=[4,1]0,1,2,3}
    auto const* p2 = ba.find_value(130);
    REQUIRE(p2);
    REQUIRE(p2->uses.size() == 1);
    CHECK(p2->uses[0].instruction == "convert.1");
    CHECK(p2->uses[0].operand_number == 0);
    CHECK(p2->instruction_text == "%param.2 = f32[3584,4096]{1,0:T(8,128)} parameter(1), sharding={devices=[4,1]0,1,2,3}");
    CHECK(hlomem::to_string(*ba.instruction_shape_of(*p2)) == "f32[3584,4096]{1,0:T(8,128)}");
    REQUIRE(p2->live_range);
    CHECK(*p2->live_range == hlomem::live_interval{0, 80});

    // The stated peak list: `param.2: 58720256 bytes`, ..., `fusion.10: 136 bytes` (the 17-tuple's
    // 8-byte pointers), ..., `fusion: 268435456 bytes`.
    auto const& entries = ba.live_range->stated_peak->entries;
    std::vector<std::pair<std::string, std::int64_t>> listed;
    for (auto const& e : entries) listed.emplace_back(e.name, e.bytes);
    CHECK(listed == std::vector<std::pair<std::string, std::int64_t>>{
                        {"param.2", 58720256}, {"param.1", 58720256}, {"param", 268435456}, {"fusion.10", 136},
                        {"param.3", 58720256}, {"fusion.17", 136}, {"async-collective-done.1", 117440512},
                        {"fusion", 268435456}});
}

TEST_CASE("per-color live bytes with the assigned sizes", "[buffer_assignment][peak]") {
    auto const ba = hlomem::parse_buffer_assignment(read_data("seeds/002_b0117d631587537a.txt"));
    auto const colors = hlomem::assigned_live_bytes(ba);
    REQUIRE(colors.size() == 4);  // colors 0, 1, 2, 4
    auto const& c0 = colors[0];
    CHECK(c0.color == 0);
    CHECK(c0.allocated_bytes == 2827042848);
    // At time 78 these eight value lines are live, in disjoint slices:
    // fusion.10{0} and fusion.17{0} (939524096 each, temp arena at offsets 81920 and 939606016),
    // param (268435456), fusion (268435456, allocation 1), async-collective-done.1 (117440512),
    // param.1, param.2, param.3 (58720256 each).
    CHECK(c0.peak_time == 78);
    CHECK(c0.peak_bytes == 2 * 939524096LL + 2 * 268435456LL + 117440512LL + 3 * 58720256LL);
    CHECK(hlomem::values_live_at(ba, 0, 78).size() == 8);
    // Color 1 (likely VMEM) holds convert.1 and convert, 29360128 bytes each, in a 58720256-byte arena.
    CHECK(colors[1].color == 1);
    CHECK(colors[1].peak_bytes == 58720256);
    // Color 4 holds s32[2]{0:S(4)} values at 4096 bytes each, one at a time.
    CHECK(colors[3].color == 4);
    CHECK(colors[3].peak_bytes == 4096);

    // Seed 000: three values live in thread-local reducers and have no live range.
    auto const gpu = hlomem::parse_buffer_assignment(read_data("seeds/000_5960cad812240b69.txt"));
    auto const gpu_colors = hlomem::assigned_live_bytes(gpu);
    REQUIRE(gpu_colors.size() == 1);
    CHECK(gpu_colors[0].unranged_values == 3);
}

TEST_CASE("format variants of older and newer XLA", "[buffer_assignment][variants]") {
    SECTION("phi values, donated parameters and thread-local allocations (real dumps)") {
        auto const phi = hlomem::parse_buffer_assignment(read_data("corpus/lorrax/lorrax_scan_while_phi.buffer_assignment.txt"));
        // <106 param.5{1} (phi) @0> (size=1390080,offset=0): f64[181,960]{1,0}
        auto const* v = phi.find_value(106);
        REQUIRE(v);
        CHECK(v->is_phi);
        CHECK(v->index == hlomem::shape_index{1});
        CHECK(v->uses_as_printed == hlomem::uses_state::empty);  // ` uses:` with nothing under it
        auto const* p = phi.find_value(99);  // param.4.0 appears at 7 positions
        REQUIRE(p);
        CHECK(p->positions.size() == 7);
        CHECK(p->positions[1].instruction == "param.5");
        CHECK(p->positions[1].index == hlomem::shape_index{2});
        // allocation 0: size 30.00MiB, parameter 0, shape |..| at ShapeIndex {}, output shape is |..|, maybe-live-out
        auto const donated = hlomem::parse_buffer_assignment(
            read_data("corpus/lorrax/lorrax_donated_param_output_alias.buffer_assignment.txt"));
        CHECK(donated.allocations[0].parameter_number == 0);
        CHECK(donated.allocations[0].output_shape.has_value());
        CHECK(donated.allocations[0].is_parameter_aliased_with_output());
        auto const tl = hlomem::parse_buffer_assignment(read_data("corpus/lorrax/lorrax_scatter_while_threadlocal.buffer_assignment.txt"));
        CHECK(std::count_if(tl.allocations.begin(), tl.allocations.end(), [](auto const& a) { return a.is_thread_local; }) == 3);
    }
    SECTION("legacy headers with an address and shapes without bars, no @color, no space after 'from instruction:'") {
        auto const ba = hlomem::parse_buffer_assignment(read_data("synthetic/legacy_address.txt"));
        REQUIRE(ba.allocations.size() == 3);
        CHECK(ba.allocations[0].address == 0x27017c46b600ULL);
        CHECK(ba.allocations[0].parameter_number == 0);
        CHECK(hlomem::to_string(ba.shapes[ba.allocations[0].parameter_shape]) == "f32[8192]");
        REQUIRE(ba.allocations[1].output_shape);
        CHECK(hlomem::to_string(ba.shapes[*ba.allocations[1].output_shape]) == "f32[8192]");
        CHECK_FALSE(ba.find_value(2)->color.has_value());
        CHECK(ba.find_value(1)->color == 0);
        CHECK(ba.find_value(2)->instruction_text == "%exp = f32[8192]{0} exponential(f32[8192]{0} %p0)");
        CHECK_FALSE(ba.live_range.has_value());
        CHECK(hlomem::check_consistency(ba).empty());
    }
    SECTION("CRLF line ends") {
        auto const ba = hlomem::parse_buffer_assignment(read_data("synthetic/crlf.txt"));
        CHECK(ba.values.size() == 1);
        CHECK(ba.values[0].instruction_text == "%add.1 = f32[4]{0} add(f32[4]{0} %a, f32[4]{0} %b)");
        CHECK(ba.values[0].uses_as_printed == hlomem::uses_state::none);
        REQUIRE(ba.live_range);
        CHECK(ba.live_range->stated_peak->entries[0].name == "add.1");
        CHECK(hlomem::check_consistency(ba).empty());
    }
    SECTION("the live range in a separate file, and the newest peak list with its stack-trace tree") {
        // The live-range text is XLA's own expected output (hlo_live_range_test.cc,
        // ToStringSimpleComputation); the dump is written to match it.
        auto ba = hlomem::parse_buffer_assignment(read_data("synthetic/newest_simple-buffer-assignment.txt"));
        CHECK_FALSE(ba.live_range.has_value());
        auto lr = hlomem::parse_live_range(read_data("synthetic/newest_simple-live-range.txt"));
        REQUIRE(lr.stated_peak);
        CHECK(lr.stated_peak->sized_by_subshape());
        CHECK(lr.stated_peak->entries[2].cumulative_bytes == 48);
        REQUIRE(lr.stated_peak->stack_trace.size() == 4);
        CHECK(lr.stated_peak->stack_trace_total_bytes == 48);
        auto const& main = lr.stated_peak->stack_trace[0];
        CHECK(main.name == "main");
        CHECK(main.depth == 0);
        CHECK(main.total_bytes == 48);
        auto const& last = lr.stated_peak->stack_trace[3];
        CHECK(last.name == "paramX");
        CHECK(last.depth == 1);
        CHECK(last.percent == Approx(33.3));
        CHECK(last.current_bytes == 16);
        CHECK(last.remaining_bytes == 0);
        hlomem::attach_live_range(ba, std::move(lr));
        CHECK(hlomem::peak_rule_of(ba) == hlomem::peak_size_rule::value_subshape);
        auto const peak = hlomem::compute_xla_peak(ba);
        CHECK(peak.time == 2);
        CHECK(peak.bytes == 48);
        CHECK(hlomem::compare_stated_peak(ba, peak).empty());
        CHECK(hlomem::check_consistency(ba).empty());
    }
    SECTION("the newest peak list sizes each value by its own sub-shape and sorts by size") {
        // XLA's ToStringComputationWithTuple: the tuple's pointer table is 16 bytes, its elements 4
        // and 16; listed at 1: constant{}, constant{1}, paramA{}, constant{0}, 52 bytes in all.
        auto const ba = hlomem::parse_buffer_assignment(read_data("synthetic/newest_tuple-buffer-assignment.txt"));
        CHECK(ba.find_value(2)->uses_as_printed == hlomem::uses_state::not_initialized);
        auto const peak = hlomem::compute_xla_peak(ba);
        CHECK(peak.rule == hlomem::peak_size_rule::value_subshape);
        CHECK(peak.sizes == std::vector<std::int64_t>{16, 16, 16, 4});
        CHECK(hlomem::compare_stated_peak(ba, peak).empty());
        // The moment (ComputePeakMemoryMoment) weighs every value of the tuple by the whole 16-byte
        // table, adds before removes: 16 at 0 (paramA), 64 at 1 (and constant{}, {0}, {1}), then
        // never more (48 after constant{0} ends; 64 again at 3, not more).
        CHECK(peak.time == 1);
        CHECK(peak.bytes == 16 + 16 + 16 + 16);
        // The older listing of the same moment: value order, each the whole table's 16 bytes.
        auto const old = hlomem::compute_xla_peak(ba, hlomem::peak_size_rule::instruction_shape);
        CHECK(old.time == 1);
        CHECK(old.bytes == peak.bytes);
        CHECK(old.sizes == std::vector<std::int64_t>{16, 16, 16, 16});
        CHECK_FALSE(hlomem::compare_stated_peak(ba, old).empty());
    }
}

TEST_CASE("contradictions in a dump are reported, not hidden", "[buffer_assignment][consistency]") {
    std::string text = read_data("seeds/003_3a38346822a50a7e.txt");
    SECTION("a wrong total") {
        auto const at = text.find("Total bytes used: 1522 (1.5KiB)");
        REQUIRE(at != std::string::npos);
        text.replace(at, 31, "Total bytes used: 1523 (1.5KiB)");
        auto const d = hlomem::check_consistency(hlomem::parse_buffer_assignment(text));
        REQUIRE(d.size() == 1);
        CHECK(d[0].message == "Total bytes used states 1523 but the allocation sizes add up to 1522");
    }
    SECTION("a value beyond its allocation") {
        auto ba = hlomem::parse_buffer_assignment(text);
        ba.values[0].offset = ba.allocations[ba.values[0].allocation].size;
        auto const d = hlomem::check_consistency(ba);
        REQUIRE(d.size() == 1);
        CHECK(d[0].message.find("beyond allocation") != std::string::npos);
        CHECK(d[0].line == ba.values[0].line);
    }
    SECTION("a shifted peak") {
        auto const at = text.find("Live ranges at 60 (peak):");
        REQUIRE(at != std::string::npos);
        text.replace(at, 25, "Live ranges at 61 (peak):");
        auto const ba = hlomem::parse_buffer_assignment(text);
        auto const d = hlomem::compare_stated_peak(ba, hlomem::compute_xla_peak(ba));
        REQUIRE(d.size() == 1);
        CHECK(d[0].message == "the dump states the peak at 61; its live ranges put it at 60");
    }
}

TEST_CASE("malformed and truncated dumps give exact line:column errors", "[buffer_assignment][errors]") {
    auto [text, report] = GENERATE(table<std::string, std::string>({
        {"", "dump.txt:1:1: error: expected 'BufferAssignment:'\n\n^"},
        {"BufferAssignment:\nallocation 0: size 32, bogus:\n",
         "dump.txt:2:24: error: expected an allocation flag (color, page, parameter, output shape is, constant, thread-local, "
         "maybe-live-out, preallocated-temp)\nallocation 0: size 32, bogus:\n                       ^"},
        {"BufferAssignment:\nallocation 0: size 32, maybe-live-out:\n value: <1 x @0> (size=32,off",
         "dump.txt:3:27: error: expected 'offset='\n value: <1 x @0> (size=32,off\n                          ^"},
        {"BufferAssignment:\nallocation 0: size 32, maybe-live-out:\n value: <1 x @0> (size=32,offset=0): f32[8,1]{1,1}\n",
         "dump.txt:3:49: error: minor_to_major lists dimension 1 twice; it must be a permutation of 0..1\n value: <1 x @0> "
         "(size=32,offset=0): f32[8,1]{1,1}\n                                                ^"},
        {"BufferAssignment:\nallocation 0: size 32, maybe-live-out:\n garbage here\n",
         "dump.txt:3:2: error: expected an allocation header, a value line, or 'Total bytes used:' after a blank line\n "
         "garbage here\n ^"},
        {"BufferAssignment:\nallocation 0: size 99999999999999999999:\n",
         "dump.txt:2:20: error: integer 99999999999999999999 does not fit in int64\nallocation 0: size "
         "99999999999999999999:\n                   ^"},
        {"BufferAssignment:\n\nTotal bytes used: 0 (0B)\n\nUsed values:\n<1 x @0>\n positions:\n  x\n uses:\n  y, operand\n",
         "dump.txt:10:13: error: expected an integer\n  y, operand\n            ^"},
        {"BufferAssignment:\n\nTotal bytes used: 0 (0B)\n\nUsed values:\n<1 x @0>\n positions:\n  x\n uses:\n  y, operand 0\n oops\n",
         "dump.txt:11:2: error: expected a use such as 'fusion.10, operand 2' or 'from instruction:'\n oops\n ^"},
        {"BufferAssignment:\n\nTotal bytes used: 0 (0B)\n\n\nHloLiveRange (max 1):\n  InstructionSequence:\n    0:x\n  BufferLiveRange:\n    x{}:0-\n",
         "dump.txt:10:11: error: expected an integer\n    x{}:0-\n          ^"},
        {"BufferAssignment:\n\nTotal bytes used: 0 (0B)\n\n\nHloLiveRange (max 1):\n  InstructionSequence:\n    0:x\n  BufferLiveRange:\n    x{}:0-1\n  junk\n",
         "dump.txt:11:3: error: expected a live range such as 'param.2{}:0-80', 'Live ranges at N (peak):', a peak entry or a "
         "blank line\n  junk\n  ^"},
        {"BufferAssignment:\n\nTotal bytes used: 0 (0B)\n\n\nHloLiveRange (max 2):\n  InstructionSequence:\n    0:x\n    5:y\n",
         "dump.txt:9:5: error: InstructionSequence entry 5 where 1 was expected\n    5:y\n    ^"},
        {"BufferAssignment:\nallocation 0: size 8, maybe-live-out:\n value: <1 x @0> (size=8,offset=0): f32[2]{0}\nallocation 1: size 8, "
         "maybe-live-out:\n value: <1 x @0> (size=8,offset=0): f32[2]{0}\n",
         "dump.txt:5:9: error: value 1 is already assigned to allocation 0 on line 3\n value: <1 x @0> (size=8,offset=0): "
         "f32[2]{0}\n        ^"},
    }));
    CAPTURE(text);
    CHECK(dump_error_of(text) == report);
}

TEST_CASE("a seed dump truncated at any line boundary is an error or a reported inconsistency",
          "[buffer_assignment][errors]") {
    // A cut inside a line or section is a parse error with a position in the text. A cut between
    // lines may leave text that parses; then the dump's own checks must notice what is missing
    // (Used-values blocks, the peak), unless the cut fell where an older, shorter dump could end:
    // before the live ranges.
    std::string const text = read_data("seeds/003_3a38346822a50a7e.txt");
    std::size_t errors = 0, noticed = 0, shorter_dumps = 0;
    for (std::size_t cut = text.find('\n'); cut + 1 < text.size(); cut = text.find('\n', cut + 1)) {
        auto r = hlomem::try_parse_buffer_assignment(std::string_view(text.data(), cut + 1), "cut.txt");
        if (!r) {
            ++errors;
            CHECK(r.error().line >= 1);
            continue;
        }
        auto problems = hlomem::check_consistency(*r);
        if (r->live_range && r->live_range->stated_peak) {
            auto more = hlomem::compare_stated_peak(*r, hlomem::compute_xla_peak(*r));
            problems.insert(problems.end(), more.begin(), more.end());
        }
        if (!problems.empty()) {
            ++noticed;
        } else {
            ++shorter_dumps;
            CAPTURE(cut);
            CHECK_FALSE(r->live_range.has_value());
        }
    }
    CHECK(errors > 0);
    CHECK(noticed > 0);
    // The cuts after `Total bytes used` and after the last Used-values block (and the blank lines
    // that follow each) leave complete older-style dumps.
    CHECK(shorter_dumps <= 6);
}

TEST_CASE("every real dump prints back byte for byte", "[buffer_assignment][printer]") {
    auto const file = GENERATE(from_range(printed_dumps()));
    CAPTURE(file);
    std::string const text = read_data(file);
    auto const ba = hlomem::parse_buffer_assignment(text, file);
    std::string const printed = hlomem::to_string(ba);
    if (printed != text) {
        // Show the first differing line.
        std::size_t at = 0;
        while (at < printed.size() && at < text.size() && printed[at] == text[at]) ++at;
        std::size_t const line_start = text.rfind('\n', at == 0 ? 0 : at - 1);
        CAPTURE(text.substr(line_start == std::string::npos ? 0 : line_start, 200));
        CAPTURE(printed.substr(line_start == std::string::npos ? 0 : line_start, 200));
        CHECK(printed == text);
    }
    // And the printed text parses to the same model.
    auto const again = hlomem::parse_buffer_assignment(printed, file);
    CHECK(hlomem::to_string(again) == printed);
}

namespace {

/// Every line number the parser sets in `ba`, and every shape reference as (id, text), in one list.
std::vector<std::string> lines_and_shapes(hlomem::buffer_assignment const& ba) {
    std::vector<std::string> out;
    auto const shape = [&](hlomem::shape_id id) {
        out.push_back(id == hlomem::no_shape ? "none" : std::to_string(id) + " " + hlomem::to_string(ba.shapes[id]));
    };
    for (auto const& a : ba.allocations) {
        out.push_back(std::to_string(a.line));
        shape(a.parameter_shape);
        shape(a.output_shape.value_or(hlomem::no_shape));
    }
    for (auto const& v : ba.values) {
        out.push_back(std::to_string(v.line) + " " + std::to_string(v.block_line));
        shape(v.shape);
        shape(v.instruction_shape);
    }
    out.push_back(std::to_string(ba.shapes.size()) + " shapes");
    if (!ba.live_range) return out;
    out.push_back(std::to_string(ba.live_range->line));
    for (auto const& r : ba.live_range->buffer_live_ranges) out.push_back(std::to_string(r.line));
    if (auto const& peak = ba.live_range->stated_peak) {
        out.push_back(std::to_string(peak->line));
        for (auto const& e : peak->entries) out.push_back(std::to_string(e.line));
        for (auto const& n : peak->stack_trace) out.push_back(std::to_string(n.line));
    }
    return out;
}

}  // namespace

TEST_CASE("renumber_as_printed gives a real dump's model the lines and shape ids its parse has",
          "[buffer_assignment][printer]") {
    auto const file = GENERATE(from_range(printed_dumps()));
    CAPTURE(file);
    auto const parsed = hlomem::parse_buffer_assignment(read_data(file), file);
    // The model as code could make it: no lines, the shapes in the reverse order, and one more
    // shape that nothing names.
    auto made = parsed;
    hlomem::shape_table reversed;
    reversed.insert(hlomem::parse_shape("u8[3]{0}"));
    std::vector<hlomem::shape_id> ids(parsed.shapes.size());
    for (std::size_t id = parsed.shapes.size(); id-- > 0;) {
        ids[id] = reversed.insert(parsed.shapes[static_cast<hlomem::shape_id>(id)]);
    }
    auto const remap = [&](hlomem::shape_id& id) {
        if (id != hlomem::no_shape) id = ids[id];
    };
    for (auto& a : made.allocations) {
        a.line = 0;
        remap(a.parameter_shape);
        if (a.output_shape) remap(*a.output_shape);
    }
    for (auto& v : made.values) {
        v.line = v.block_line = 0;
        remap(v.shape);
        remap(v.instruction_shape);
    }
    made.shapes = reversed;
    if (made.live_range) {
        made.live_range->line = 0;
        for (auto& r : made.live_range->buffer_live_ranges) r.line = 0;
        if (auto& peak = made.live_range->stated_peak) {
            peak->line = 0;
            for (auto& e : peak->entries) e.line = 0;
            for (auto& n : peak->stack_trace) n.line = 0;
        }
    }
    REQUIRE(lines_and_shapes(made) != lines_and_shapes(parsed));
    hlomem::renumber_as_printed(made);
    CHECK(lines_and_shapes(made) == lines_and_shapes(parsed));
    CHECK(hlomem::to_string(made) == hlomem::to_string(parsed));
}

namespace {

/// Line `n` (1-based) of `text`, without its line end ('\n' or "\r\n").
std::string_view text_line(std::string_view text, std::size_t n) {
    std::size_t start = 0;
    for (std::size_t i = 1; i < n && start != std::string_view::npos; ++i) {
        start = text.find('\n', start);
        if (start != std::string_view::npos) ++start;
    }
    if (start == std::string_view::npos || start >= text.size()) return {};
    std::string_view line = text.substr(start, text.find('\n', start) - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
}

bool contains(std::string_view line, std::string const& what) { return line.find(what) != std::string_view::npos; }

/// Every line number the reader gives a value line, a Used-values block, its defining
/// instruction and a BufferLiveRange line, checked against the text at that line. The reader
/// computes most of them from the lines it read before (a value line follows its header or the
/// value line before it; a block's instruction line follows its positions and uses) rather than
/// by counting line ends.
void check_line_numbers(std::string const& text, std::size_t threads) {
    auto const ba = hlomem::parse_buffer_assignment(text, "dump.txt", threads);
    for (auto const& v : ba.values) {
        std::string const key = "<" + std::to_string(v.id) + " " + std::string(std::string_view(v.name));
        INFO("value " << v.id << " line " << v.line << " block " << v.block_line);
        if (v.line != 0) CHECK(contains(text_line(text, v.line), " value: " + key));
        if (!v.has_block) continue;
        CHECK(text_line(text, v.block_line).rfind(key, 0) == 0);
        std::size_t const instruction = v.block_line + 3 + v.positions.size() + v.uses.size() +
                                        (v.uses_as_printed == hlomem::uses_state::none ? 1 : 0);
        CHECK(contains(text_line(text, instruction), "from instruction:"));
    }
    if (!ba.live_range) return;
    for (auto const& r : ba.live_range->buffer_live_ranges) {
        INFO("live range of " << std::string_view(r.name) << " line " << r.line);
        CHECK(contains(text_line(text, r.line), std::string(std::string_view(r.name)) + hlomem::to_string(r.index) + ":" +
                                                    std::to_string(r.range.start) + "-" + std::to_string(r.range.end)));
    }
}

}  // namespace

TEST_CASE("line numbers of values, blocks, instructions and live ranges are the text's", "[buffer_assignment][lines]") {
    std::vector<std::string> files = hlomem_test::real_dumps;
    files.push_back("synthetic/newest_tuple-buffer-assignment.txt");  // `(none)` under ` uses:`
    for (auto const& file : files) {
        INFO(file);
        std::string const text = read_data(file);
        // As XLA wrote it; with CRLF line ends; with a blank line before every block (the
        // grammar allows them there).
        std::string crlf, blank_lines;
        for (char c : text) {
            if (c == '\n') crlf += '\r';
            crlf += c;
        }
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (text[i] == '<' && i > 0 && text[i - 1] == '\n' && text.compare(i, 2, "<=") != 0) blank_lines += '\n';
            blank_lines += text[i];
        }
        for (std::size_t threads : {1, 3}) {
            INFO("threads " << threads);
            check_line_numbers(text, threads);
            check_line_numbers(crlf, threads);
            check_line_numbers(blank_lines, threads);
        }
    }
}
