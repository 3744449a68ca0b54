// The memory timeline's data (timeline.hpp) and instruction metadata (hlo/metadata.hpp):
// peaks per color as peak.hpp computes them and `hlomem report` prints them (tests/cli
// report_tpu_seed.out pins 2.52GiB at 78 (fusion) for seed 002), the buffer map's placement,
// the unpadded curve of a tiled dump, aggregation of small values, trace lanes, metadata.
#include <hlomem/hlo/metadata.hpp>
#include <hlomem/hlomem.hpp>
#include <hlomem/memory/timeline.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace {

using hlomem_test::read_data;

hlomem::buffer_assignment dump(std::string const& relative) {
    return hlomem::parse_buffer_assignment(read_data(relative), relative);
}

hlomem::timeline_color const& color_of(hlomem::timeline const& tl, std::int64_t color) {
    auto it = std::find_if(tl.colors.begin(), tl.colors.end(), [&](auto const& c) { return c.color == color; });
    REQUIRE(it != tl.colors.end());
    return *it;
}

}  // namespace

TEST_CASE("the timeline of each seed dump has the peaks hlomem report prints", "[timeline][seeds]") {
    // Peak bytes, time and instruction per color, and how many values are live there: `hlomem
    // report` (and --json) on each seed. (For 003 the assigned peak, at 68, is not XLA's, at 60.)
    auto [file, color, peak, human, time, instruction, drawn, live_at_peak] =
        GENERATE(table<char const*, std::int64_t, std::int64_t, char const*, std::int64_t, char const*, std::size_t, std::size_t>({
            {"seeds/000_5960cad812240b69.txt", 0, 1092637220, "1.02GiB", 158, "tuple", 132, 50},
            {"seeds/002_b0117d631587537a.txt", 0, 2709520384, "2.52GiB", 78, "fusion", 23, 8},
            {"seeds/002_b0117d631587537a.txt", 1, 58720256, "56.00MiB", 5, "convert.1", 7, 2},
            {"seeds/002_b0117d631587537a.txt", 2, 52, "52B", 40, "copy-start", 49, 13},
            {"seeds/002_b0117d631587537a.txt", 4, 4096, "4.0KiB", 8, "async-collective-start", 4, 1},
            {"seeds/003_3a38346822a50a7e.txt", 0, 1210, "1.2KiB", 68, "tuple.2", 68, 7},
        }));
    CAPTURE(file, color);
    auto const ba = dump(file);
    auto const tl = hlomem::make_timeline(ba);
    auto const& c = color_of(tl, color);
    CHECK(c.peak_bytes == peak);
    CHECK(hlomem::human_bytes(c.peak_bytes) == human);
    CHECK(c.peak_time == time);
    CHECK(c.peak_instruction == instruction);
    CHECK(c.buffers.size() == drawn);  // every value with a live range, none aggregated
    CHECK(c.ranged_values == drawn);
    CHECK(c.bands.empty());
    CHECK(c.live_at_peak == live_at_peak);
    CHECK(tl.max == ba.live_range->max);
    CHECK(c.unpadded_live_bytes.empty());  // no tiling padding in the seeds (report: "padding ... none")

    // The curve is peak.hpp's, and the peak table is values_live_at's order.
    auto const live = hlomem::assigned_live_bytes(ba);
    std::int64_t const wanted = color;  // structured bindings cannot be captured in C++17
    auto const same = std::find_if(live.begin(), live.end(), [&](auto const& x) { return x.color == wanted; });
    REQUIRE(same != live.end());
    CHECK(c.live_bytes == same->bytes_at);
    CHECK(*std::max_element(c.live_bytes.begin(), c.live_bytes.end()) == peak);
    auto const at_peak = hlomem::values_live_at(ba, color, time);
    REQUIRE(c.at_peak.size() == std::min<std::size_t>(at_peak.size(), 50));
    for (std::size_t k = 0; k < c.at_peak.size(); ++k) CHECK(c.at_peak[k].value == at_peak[k]);
}

TEST_CASE("the buffer map stacks a color's allocations in index order", "[timeline][seeds]") {
    auto const ba = dump("seeds/002_b0117d631587537a.txt");
    auto const tl = hlomem::make_timeline(ba);
    auto const& c = color_of(tl, 0);
    // Color 0 holds allocations 0-6: 32 + 268435456 + 268435456 + 3 × 58720256 bytes below allocation 6.
    REQUIRE(c.allocations.size() == 7);
    CHECK(c.allocations[6].allocation == 6);
    CHECK(c.allocations[6].y == 713031712);
    CHECK(c.allocations[6].size == 2114011136);
    CHECK(c.allocated_bytes == 2827042848);
    // <153 fusion.10{0} @0> (size=939524096,offset=81920), live 24-78.
    auto it = std::find_if(c.buffers.begin(), c.buffers.end(), [&](auto const& b) { return ba.values[b.value].id == 153; });
    REQUIRE(it != c.buffers.end());
    CHECK(it->y == 713031712 + 81920);
    CHECK(it->size == 939524096);
    CHECK(it->range == hlomem::live_interval{24, 78});
    CHECK(it->padded_bytes == 939524096);  // f32[32,512,14336]{2,1,0:T(8,128)}: no padding
    CHECK(it->unpadded_bytes == 939524096);
    // Tuples have no padded or unpadded size: <152 fusion.10{} @0> (size=96,offset=0).
    auto tuple = std::find_if(c.buffers.begin(), c.buffers.end(), [&](auto const& b) { return ba.values[b.value].id == 152; });
    REQUIRE(tuple != c.buffers.end());
    CHECK_FALSE(tuple->padded_bytes.has_value());
    CHECK(tuple->padding_bytes() == 0);
}

TEST_CASE("a tiled dump has an unpadded curve beside the assigned one", "[timeline][padding]") {
    // f32[3,100]{1,0:T(8,128)}: 4096 bytes for 1200; bf16[5,300]{1,0:T(8,128)(2,1)}: 6144 for 3000.
    // Live: p0 0-4, exp 1-2, fusion 2-3, add.1 3-4.
    auto const ba = dump("synthetic/tpu_padded-buffer-assignment.txt");
    auto const tl = hlomem::make_timeline(ba);
    CHECK(tl.sizing == hlomem::size_function_kind::tpu);
    auto const& c = color_of(tl, 0);
    CHECK(c.live_bytes == std::vector<std::int64_t>{4096, 8192, 14336, 16384, 10240});
    CHECK(c.unpadded_live_bytes == std::vector<std::int64_t>{1200, 2400, 5400, 7200, 4200});
    CHECK(c.peak_bytes == 16384);
    CHECK(c.peak_time == 3);
    CHECK(c.peak_instruction == "add.1");
    // hlomem report: "at the peak (time 3) 9.0KiB" of padding.
    CHECK(c.peak_bytes - c.unpadded_at(c.peak_time) == 9184);
    CHECK(hlomem::human_bytes(9184) == "9.0KiB");
    auto exp = std::find_if(c.buffers.begin(), c.buffers.end(), [&](auto const& b) { return ba.values[b.value].name == "exp"; });
    REQUIRE(exp != c.buffers.end());
    CHECK(exp->padded_bytes == 4096);
    CHECK(exp->unpadded_bytes == 1200);
    CHECK(exp->padding_bytes() == 2896);

    auto const points = hlomem::counter_points(c);
    REQUIRE(points.size() == 6);
    CHECK(points[3].time == 3);
    CHECK(points[3].bytes == 16384);
    CHECK(points[3].unpadded_bytes == 7200);
    CHECK(points[5].time == 5);  // max + 1: nothing live after the program
    CHECK(points[5].bytes == 0);
}

TEST_CASE("over max_rectangles, the largest values are drawn and the rest aggregated", "[timeline][aggregation]") {
    auto const ba = dump("seeds/002_b0117d631587537a.txt");
    hlomem::timeline_options options;
    options.max_rectangles = 10;
    auto const tl = hlomem::make_timeline(ba, options);

    SECTION("color 0: 23 values, the 10 largest drawn") {
        auto const& c = color_of(tl, 0);
        CHECK(c.buffers.size() == 10);
        CHECK(c.aggregated_values == 13);
        std::int64_t smallest_drawn = INT64_MAX;
        for (auto const& b : c.buffers) smallest_drawn = std::min(smallest_drawn, b.size);
        CHECK(smallest_drawn >= c.largest_aggregated);
        CHECK_FALSE(c.bands.empty());
        // The peak and the curve do not depend on what is drawn.
        CHECK(c.peak_bytes == 2709520384);
        CHECK(c.at_peak.size() == 8);
    }
    SECTION("color 2: 49 values of 4 bytes; one band per row and column holds them all") {
        hlomem::timeline_options one_cell = options;
        one_cell.band_rows = 1;
        one_cell.band_columns = 1;
        auto const coarse = hlomem::make_timeline(ba, one_cell);
        auto const& c = color_of(coarse, 2);
        REQUIRE(c.buffers.size() == 10);
        REQUIRE(c.bands.size() == 1);
        auto const& b = c.bands.front();
        CHECK(b.values == 39);
        CHECK(b.bytes == 39 * 4);
        CHECK(b.largest == 4);
        CHECK(b.first_allocation == 8);
        CHECK(b.last_allocation == 8);
        // The band spans the times and bytes of exactly the values not drawn.
        hlomem::live_interval range{INT64_MAX, -1};
        std::int64_t lo = INT64_MAX, hi = -1;
        std::vector<bool> drawn(ba.values.size());
        for (auto const& x : c.buffers) drawn[x.value] = true;
        for (std::size_t i : ba.allocations[8].values) {
            auto const& v = ba.values[i];
            if (drawn[i]) continue;
            range.start = std::min(range.start, v.live_range->start);
            range.end = std::max(range.end, v.live_range->end);
            lo = std::min(lo, v.offset);
            hi = std::max(hi, v.offset + v.size);
        }
        CHECK(b.range == range);
        CHECK(b.y == lo);
        CHECK(b.height == hi - lo);
    }
    SECTION("the default grid: each band lies in one row and counts its values") {
        auto const& c = color_of(tl, 2);  // 52 bytes high: rows of 1 byte
        std::size_t counted = 0;
        for (auto const& b : c.bands) {
            CHECK(b.height == 1);
            CHECK(b.bytes == static_cast<std::int64_t>(b.values));  // one byte of each value per row
            counted += b.values;
        }
        CHECK(counted >= 39 * 4);  // each 4-byte value meets at least four rows
    }
}

TEST_CASE("trace slices: one per value on the time axis, lanes never overlap", "[timeline][trace]") {
    auto const file = GENERATE("seeds/000_5960cad812240b69.txt", "seeds/002_b0117d631587537a.txt", "seeds/003_3a38346822a50a7e.txt");
    CAPTURE(file);
    auto const ba = dump(file);
    auto const slices = hlomem::trace_slices(ba);
    auto const tl = hlomem::make_timeline(ba);
    std::size_t ranged = 0;
    for (auto const& c : tl.colors) ranged += c.ranged_values;
    CHECK(slices.size() == ranged);
    std::map<std::pair<std::int64_t, std::size_t>, hlomem::logical_time> lane_end;
    std::map<std::int64_t, std::size_t> lanes;
    for (auto const& s : slices) {
        auto [it, fresh] = lane_end.try_emplace({s.color, s.lane}, s.range.end);
        if (!fresh) {
            CHECK(it->second < s.range.start);
            it->second = s.range.end;
        }
        lanes[s.color] = std::max(lanes[s.color], s.lane + 1);
    }
    // As many lanes as values live at once, and no more (greedy interval partitioning is optimal).
    for (auto const& c : tl.colors) {
        std::size_t most = 0;
        for (hlomem::logical_time t = 0; t <= tl.max; ++t) {
            std::size_t n = 0;
            for (auto const& s : slices) n += s.color == c.color && s.range.contains(t);
            most = std::max(most, n);
        }
        CHECK(lanes[c.color] == most);
    }
}

TEST_CASE("curve columns keep each stretch's lowest and highest value", "[timeline]") {
    std::vector<std::int64_t> const curve{5, 1, 9, 2, 2, 7, 0, 3, 8, 4};
    auto const three = hlomem::curve_columns(curve, 3);
    REQUIRE(three.size() == 3);
    CHECK(three[0].first == 0);
    CHECK(three[0].last == 2);
    CHECK(three[0].low == 1);
    CHECK(three[0].high == 9);
    CHECK(three[1].first == 3);
    CHECK(three[1].last == 5);
    CHECK(three[1].low == 2);
    CHECK(three[1].high == 7);
    CHECK(three[2].first == 6);
    CHECK(three[2].last == 9);
    CHECK(three[2].high == 8);
    auto const all = hlomem::curve_columns(curve, 100);
    REQUIRE(all.size() == curve.size());
    for (std::size_t t = 0; t < curve.size(); ++t) CHECK(all[t].high == curve[t]);
}

TEST_CASE("instruction metadata is read from the instruction text", "[timeline][metadata]") {
    SECTION("a seed's fusion") {
        auto const ba = dump("seeds/003_3a38346822a50a7e.txt");
        auto const* v = ba.find_value("loop_pad_fusion", {});
        REQUIRE(v != nullptr);
        auto const m = hlomem::instruction_metadata(v->instruction_text);
        REQUIRE(m);
        CHECK(m->op_type == "xla__update_slice");
        CHECK(m->op_name == "xla__update_slice");
        CHECK(m->source_file == "/code/github_code/xla_vllm/vllm/vllm/v1/worker/xla_gpu_model_runner.py");
        CHECK(m->source_line == 1401);
        // tuple.2 has no metadata.
        auto const* tuple = ba.find_value("tuple.2", {});
        REQUIRE(tuple != nullptr);
        CHECK_FALSE(hlomem::instruction_metadata(tuple->instruction_text));
    }
    SECTION("strings and brackets are skipped") {
        auto const ba = dump("synthetic/tpu_padded-buffer-assignment.txt");
        // backend_config="{\"metadata={op_name=\\\"not this\\\"}\"}" is a string, not the attribute.
        CHECK_FALSE(hlomem::instruction_metadata(ba.find_value("fusion", {})->instruction_text));
        auto const m = hlomem::instruction_metadata(ba.find_value("exp", {})->instruction_text);
        REQUIRE(m);
        CHECK(m->op_name == "jit(<lambda>)/exp");
        CHECK(m->source_file == R"(/src/model & \"friends\".py)");  // as written
        CHECK(hlomem::c_unescape(m->source_file) == R"(/src/model & "friends".py)");
        CHECK(m->source_line == 12);
    }
    SECTION("text that is not metadata") {
        CHECK_FALSE(hlomem::instruction_metadata("%a = f32[] add(f32[] %b, f32[] %c)"));
        CHECK_FALSE(hlomem::instruction_metadata("%a = f32[] negate(f32[] %b), metadata={op_name=\"unterminated"));
        CHECK_FALSE(hlomem::instruction_metadata("%metadata={op_name=\"x\"} = f32[] negate(f32[] %b)"));  // not after a comma
        auto const m = hlomem::instruction_metadata("%a = f32[] negate(f32[] %b), metadata={source_line=99999999999999999999 op_name=\"n\"}");
        REQUIRE(m);
        CHECK(m->source_line == 0);  // overflows: not a line
        CHECK(m->op_name == "n");
    }
    SECTION("C escapes") {
        CHECK(hlomem::c_unescape(R"(a\"b\\c\n\101\x42\q)") == "a\"b\\c\nAB\\q");
        CHECK(hlomem::c_unescape("trailing\\") == "trailing\\");
    }
}
