// The analyses of a buffer assignment (memory/analysis.hpp): shared buffers, lower bounds and
// fragmentation, padding per value and per color, and live bytes summed over shared buffers
// against the union of live slices (memory/peak.hpp), on real dumps, a mutated one and by hand.
#include <hlomem/memory/analysis.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

#include "dump_edits.hpp"
#include "test_data.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace {

using hlomem_test::read_data;

using hlomem_test::real_dumps;

}  // namespace

namespace {

void check_same_live_bytes(std::vector<hlomem::color_live_bytes> const& got, std::vector<hlomem::color_live_bytes> const& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t c = 0; c < got.size(); ++c) {
        CAPTURE(want[c].color);
        CHECK(got[c].color == want[c].color);
        CHECK(got[c].allocated_bytes == want[c].allocated_bytes);
        CHECK(got[c].bytes_at == want[c].bytes_at);
        CHECK(got[c].peak_time == want[c].peak_time);
        CHECK(got[c].peak_bytes == want[c].peak_bytes);
        CHECK(got[c].unranged_values == want[c].unranged_values);
        CHECK(got[c].unranged_bytes == want[c].unranged_bytes);
    }
}

}  // namespace

TEST_CASE("the lower bound never exceeds what XLA allocated", "[bounds][seeds][corpus]") {
    for (auto const& file : real_dumps) {
        CAPTURE(file);
        auto const ba = hlomem::parse_buffer_assignment(read_data(file), file);
        auto const buffers = hlomem::shared_buffers(ba);
        for (auto const& c : hlomem::lower_bounds(ba, buffers)) {
            CAPTURE(c.color);
            CHECK(c.temp.bytes <= c.temp_allocated_bytes);
            CHECK(c.all.bytes <= c.allocated_bytes);
        }
        for (auto const& f : hlomem::fragmentation(ba, buffers)) CHECK(f.fragmentation_bytes >= 0);
    }
}

TEST_CASE("shared buffers, bounds and fragmentation of a while loop, by hand", "[bounds]") {
    // lorrax_scan_while_phi, allocation 7 (size 129, preallocated-temp): pred[] loop_compare_fusion
    // (live 9-10) at offset 128, and five 24-byte tuple tables of the loop state at offset 0:
    // tuple.14{} (6-7) hands over to the phi param.5{} (7-10) and then param.1.0{} (10-14);
    // tuple.16{} (16-17) hands over to the phi while.2.0{} (17-20). Two shared buffers at offset
    // 0, one at 128; at most one table and the predicate are live at once: 25 bytes of 129.
    auto const ba = hlomem::parse_buffer_assignment(read_data("corpus/lorrax/lorrax_scan_while_phi.buffer_assignment.txt"));
    auto const buffers = hlomem::shared_buffers(ba);
    std::vector<hlomem::shared_buffer> in7;
    for (auto const& b : buffers) {
        if (ba.allocations[b.allocation].index == 7) in7.push_back(b);
    }
    REQUIRE(in7.size() == 3);
    std::vector<std::pair<hlomem::live_interval, std::size_t>> tables;
    for (auto const& b : in7) {
        if (b.offset == 0) tables.emplace_back(*b.range, b.values.size());
    }
    std::sort(tables.begin(), tables.end(), [](auto const& p, auto const& q) { return p.first.start < q.first.start; });
    REQUIRE(tables.size() == 2);
    CHECK(tables[0].first == hlomem::live_interval{6, 14});
    CHECK(tables[0].second == 3);
    CHECK(tables[1].first == hlomem::live_interval{16, 20});
    CHECK(tables[1].second == 2);
    auto const frag = hlomem::fragmentation(ba, buffers);
    CHECK(frag[7].size == 129);
    CHECK(frag[7].max_live_bytes == 25);
    CHECK(frag[7].fragmentation_bytes == 104);
    auto const bounds = hlomem::lower_bounds(ba, buffers);
    REQUIRE(bounds.size() == 1);
    CHECK(bounds[0].temp.bytes == 25);
    CHECK(bounds[0].temp_allocated_bytes == 129);
}

TEST_CASE("padding per value and per color", "[padding]") {
    // A dump whose values pad under TPU tiling: f32[3,5]{1,0:T(8,128)} takes 4096 bytes for 60 of
    // data (docs/FORMATS.md 4.5, row 19); bf16[4096,3584]{1,0:T(8,128)(2,1)} pads nothing (row 17).
    std::string const text =
        "BufferAssignment:\n"
        "allocation 0: size 33554432, preallocated-temp:\n"
        " value: <1 a @0> (size=4096,offset=0): f32[3,5]{1,0:T(8,128)}\n"
        " value: <2 b @0> (size=29360128,offset=4096): bf16[4096,3584]{1,0:T(8,128)(2,1)}\n"
        "\n"
        "Total bytes used: 33554432 (32.00MiB)\n"
        "\n"
        "Used values:\n"
        "<1 a @0>\n positions:\n  a\n uses:\n  b, operand 0\n from instruction: %a = f32[3,5]{1,0:T(8,128)} parameter(0)\n"
        "<2 b @0>\n positions:\n  b\n uses:\n  (none)\n from instruction: %b = bf16[4096,3584]{1,0:T(8,128)(2,1)} fusion(%a)\n"
        "\n\n"
        "HloLiveRange (max 2):\n  InstructionSequence:\n    0:a\n    1:b\n  BufferLiveRange:\n    a{}:0-1\n    b{}:1-2\n"
        "  Live ranges at 1 (peak):\n    a: 60 bytes\n    b: 29360128 bytes\n";
    auto const ba = hlomem::parse_buffer_assignment(text);
    CHECK(hlomem::check_soundness(ba).empty());
    CHECK(hlomem::compare_stated_peak(ba, hlomem::compute_xla_peak(ba)).empty());
    auto const per_value = hlomem::padding_of_values(ba, hlomem::size_function_kind::tpu);
    REQUIRE(per_value.size() == 2);
    CHECK(per_value[0].padded_bytes == 4096);
    CHECK(per_value[0].unpadded_bytes == 60);
    CHECK(per_value[1].padding_bytes() == 0);
    auto const colors = hlomem::padding_by_color(ba, hlomem::shared_buffers(ba), hlomem::size_function_kind::tpu);
    REQUIRE(colors.size() == 1);
    CHECK(colors[0].padded_bytes == 4096 + 29360128);
    CHECK(colors[0].unpadded_bytes == 60 + 29360128);
    CHECK(colors[0].peak_time == 1);
    CHECK(colors[0].peak_padded_bytes - colors[0].peak_unpadded_bytes == 4036);
}

TEST_CASE("live bytes summed over shared buffers equal the union of live slices", "[peak][seeds][corpus]") {
    // Every real dump is sound, so the sum over shared buffers is what is taken: it must give
    // the segment tree's union at every time, in every color.
    for (auto const& file : real_dumps) {
        CAPTURE(file);
        auto const ba = hlomem::parse_buffer_assignment(read_data(file), file);
        auto const soundness = hlomem::check_soundness(ba);
        REQUIRE(soundness.empty());
        check_same_live_bytes(hlomem::assigned_live_bytes(ba, hlomem::shared_buffers(ba), soundness), hlomem::assigned_live_bytes(ba));
    }
}

TEST_CASE("live bytes of a dump with an overlap are the union, not the sum", "[peak][mutation]") {
    // Seed 000's first two values of one allocation that are live together in disjoint slices:
    // the second moved onto the first's offset overlaps it, so summing their buffers would count
    // the shared bytes twice.
    std::string const file = "seeds/000_5960cad812240b69.txt";
    std::string const text = read_data(file);
    auto const ba = hlomem::parse_buffer_assignment(text, file);
    std::string mutated;
    for (auto const& a : ba.allocations) {
        for (std::size_t x : a.values) {
            for (std::size_t y : a.values) {
                auto const& vx = ba.values[x];
                auto const& vy = ba.values[y];
                if (!mutated.empty() || x == y || !vx.live_range || !vy.live_range || !vx.live_range->overlaps(*vy.live_range)) continue;
                if (vx.size == 0 || vy.size == 0 || vx.offset + vx.size > vy.offset || vx.offset + vy.size > a.size) continue;
                // Live together at more than one time: no sharing rule can accept the move.
                if (std::min(vx.live_range->end, vy.live_range->end) <= std::max(vx.live_range->start, vy.live_range->start)) continue;
                std::string const prefix = value_line_key(vy) + (vy.color ? " @" + std::to_string(*vy.color) : std::string()) +
                                           "> (size=" + std::to_string(vy.size) + ",offset=";
                mutated = text;
                replace_once(mutated, prefix + std::to_string(vy.offset) + ")", prefix + std::to_string(vx.offset) + ")");
            }
        }
    }
    REQUIRE(!mutated.empty());
    auto const m = hlomem::parse_buffer_assignment(mutated, file);
    auto const soundness = hlomem::check_soundness(m);
    REQUIRE(std::any_of(soundness.begin(), soundness.end(), [](auto const& d) { return d.kind == hlomem::diagnostic_kind::overlap; }));
    auto const buffers = hlomem::shared_buffers(m);
    auto const unioned = hlomem::assigned_live_bytes(m);
    check_same_live_bytes(hlomem::assigned_live_bytes(m, buffers, soundness), unioned);
    // Told it was sound, the sum counts the overlap twice somewhere: the check is what keeps it right.
    auto const summed = hlomem::assigned_live_bytes(m, buffers, {});
    bool differs = false;
    for (std::size_t c = 0; c < summed.size(); ++c) differs = differs || summed[c].bytes_at != unioned[c].bytes_at;
    CHECK(differs);
}
