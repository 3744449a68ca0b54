// compiled.memory_analysis() reproduced (memory/memory_analysis.hpp): every field JAX 0.11.2
// reported for the five compilations of tests/data/jax_0_11 (the *.memory_analysis.json beside
// each, written by jax on the H100 that compiled them), computed from the dump (its two files, with
// the live ranges of its -live-range.txt or, where XLA wrote none, derived from the module beside
// it) and from the module alone (the buffer assignment hlomem predicts for it); and XLA's rules on
// small assignments made by hand, each checked against the figure the rule gives.
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <regex>
#include <sstream>
#include <string>

#include "test_data.hpp"

namespace {

/// `"key": N` of a memory_analysis.json.
std::int64_t jax_field(std::string const& json, std::string_view key) {
    std::smatch m;
    REQUIRE(std::regex_search(json, m, std::regex("\"" + std::string(key) + "\": (\\d+)")));
    return std::stoll(m[1].str());
}

/// Every field JAX reported, but the code size no text states, equals hlomem's.
void check_against_jax(hlomem::memory_analysis const& m, std::string const& json) {
    for (auto const& f : hlomem::memory_analysis_fields(m)) {
        CAPTURE(f.name);
        if (f.name == "generated_code_size_in_bytes" || f.name == "host_generated_code_size_in_bytes") {
            CHECK_FALSE(f.value);
            continue;
        }
        REQUIRE(f.value);
        CHECK(*f.value == jax_field(json, f.name));
    }
}

}  // namespace

TEST_CASE("memory_analysis: every field JAX 0.11 reported, from the dump and from the module alone",
          "[memory_analysis][jax_0_11]") {
    // name, the live ranges' source, the static part and the heap's peak (worked by hand from the
    // dumps: grad_ckpt's static part is x (4194304) + ws[0..3] (4 x 1048576) + the four live-out
    // gradients (4 x 1048576) + the output tuple's table (32); its heap peaks at step 22 with the
    // cuBLAS workspace custom-call.3{1} (33554432) and five f32[2048,512] activations (4194304 each)).
    auto const [name, has_live_range_file, static_bytes, heap_bytes, time] =
        GENERATE(table<char const*, bool, std::int64_t, std::int64_t, std::int64_t>({
            {"grad_ckpt", true, 12582944, 54525952, 22},
            {"grad_plain", true, 12582944, 54525952, 25},
            {"mlp_step_1024", false, 18890816, 41943040, 35},
            {"scan_loop", false, 18874452, 5242884, 22},
            {"unused_donation", false, 16814080, 0, -1},
        }));
    CAPTURE(name);
    std::string const base = std::string(HLOMEM_TEST_DATA_DIR) + "/jax_0_11/" + name;
    std::string const json = hlomem_test::read_data(std::string("jax_0_11/") + name + ".memory_analysis.json");

    SECTION("from the dump") {
        hlomem::load_options options;
        options.find_live_range = true;
        options.find_module = true;
        auto loaded = hlomem::load(base + "-buffer-assignment.txt", options);
        REQUIRE(loaded);
        CHECK(loaded->live_range_file.has_value() == has_live_range_file);
        // Without a -live-range.txt the live ranges come from the module beside the dump.
        CHECK(loaded->live_ranges_from_module == !has_live_range_file);
        auto const m = hlomem::compute_memory_analysis(*loaded->assignment());
        check_against_jax(m, json);
        CHECK(m.static_bytes == static_bytes);
        CHECK(m.heap_peak_bytes == heap_bytes);
        CHECK(m.peak_time.value_or(-1) == time);
    }
    SECTION("from the module alone") {
        auto const module = hlomem::parse_hlo_module(hlomem_test::read_data(std::string("jax_0_11/") + name + ".txt"), name);
        auto const m = hlomem::predicted_memory_analysis(module);
        check_against_jax(m, json);
        CHECK(m.static_bytes == static_bytes);
        CHECK(m.heap_peak_bytes == heap_bytes);
    }
    SECTION("from the module alone, viewing its text as the report reads it") {
        std::string const text = hlomem_test::read_data(std::string("jax_0_11/") + name + ".txt");
        auto const m = hlomem::predicted_memory_analysis(hlomem::parse_hlo_module<hlomem::view_policy>(text, name));
        check_against_jax(m, json);
        CHECK(m.heap_peak_bytes == heap_bytes);
    }
    SECTION("a dump whose live ranges are not at hand has no peak, and says why") {
        hlomem::load_options options;
        options.live_ranges_from_module = false;
        options.find_module = true;
        auto loaded = hlomem::load(base + "-buffer-assignment.txt", options);
        REQUIRE(loaded);
        auto const m = hlomem::compute_memory_analysis(*loaded->assignment());
        if (heap_bytes > 0) {
            CHECK_FALSE(m.peak_memory_in_bytes);
            CHECK(m.notes.back().find("have no live range") != std::string::npos);
        }
        // What needs no live range is there all the same.
        CHECK(m.total_allocation_bytes == jax_field(json, "total_allocation_bytes"));
    }
}

TEST_CASE("memory_analysis: grad_ckpt's heap peak lists the workspace and the activations", "[memory_analysis][jax_0_11]") {
    hlomem::load_options options;
    options.find_live_range = true;
    auto loaded = hlomem::load(std::string(HLOMEM_TEST_DATA_DIR) + "/jax_0_11/grad_ckpt-buffer-assignment.txt", options);
    REQUIRE(loaded);
    auto const m = hlomem::compute_memory_analysis(*loaded->assignment());
    CHECK(m.peak_instruction == "custom-call.3");
    // The tuple custom-call.3{} (16 bytes, live 22-23) has no trace: it is not among them.
    CHECK(m.peak_value_names == std::vector<std::string>{"wrapped_tanh", "wrapped_tanh.1", "wrapped_tanh.2",
                                                          "gemm_fusion_dot_general.18", "custom-call.3{0}", "custom-call.3{1}"});
}

namespace {

/// A one-file dump of the older layout with a BufferLiveRange section, for the rules below.
hlomem::buffer_assignment hand_dump(std::string const& allocations, std::string const& ranges) {
    return hlomem::parse_buffer_assignment("BufferAssignment:\n" + allocations +
                                               "\nTotal bytes used: 0 (0B)\n\nUsed values:\n\nHloLiveRange (max 10):\n"
                                               "  InstructionSequence:\n  BufferLiveRange:\n" +
                                               ranges,
                                           "hand.txt");
}

}  // namespace

TEST_CASE("memory_analysis: XLA's rules on assignments made by hand", "[memory_analysis]") {
    SECTION("a value counts at both ends of its inclusive live range; the peak is static + the heap's highest point") {
        // a (100 bytes) lives 0-2, b (200) 2-4: both are live at 2 (HeapSimulator allocates what
        // starts at a step before it frees what ends there): 300 at 2.
        auto const ba = hand_dump(
            "allocation 0: size 64, parameter 0, shape |f32[16]| at ShapeIndex {}:\n"
            " value: <0 p @0> (size=64,offset=0): f32[16]{0}\n"
            "allocation 1: size 304, preallocated-temp:\n"
            " value: <1 a @0> (size=100,offset=0): u8[100]{0}\n"
            " value: <2 b @0> (size=200,offset=104): u8[200]{0}\n",
            "    p{}:0-10\n    a{}:0-2\n    b{}:2-4\n");
        auto const m = hlomem::compute_memory_analysis(ba);
        CHECK(m.static_bytes == 64);
        CHECK(m.heap_peak_bytes == 300);
        CHECK(m.peak_time == 2);
        CHECK(m.peak_memory_in_bytes == 364);
        CHECK(m.argument_size_in_bytes == 64);
        CHECK(m.temp_size_in_bytes == 304);
        CHECK(m.indefinite_allocations == 64);
        CHECK(m.total_allocation_bytes == 368);
    }
    SECTION("a value that takes the place of one still live shares its buffer (SHARE_WITH): counted once, with the root's size") {
        // b sits where a sits and starts when a ends (an in-place user): one buffer of a's 100
        // bytes from 0 to 4, and c beside it: 100 + 50.
        auto const ba = hand_dump(
            "allocation 0: size 160, preallocated-temp:\n"
            " value: <0 a @0> (size=100,offset=0): u8[100]{0}\n"
            " value: <1 b @0> (size=100,offset=0): u8[100]{0}\n"
            " value: <2 c @0> (size=50,offset=104): u8[50]{0}\n",
            "    a{}:0-2\n    b{}:2-4\n    c{}:1-3\n");
        auto const m = hlomem::compute_memory_analysis(ba);
        CHECK(m.heap_peak_bytes == 150);
        CHECK(m.peak_values.size() == 2);
        // The same offset after a value has ended is a new buffer: d after a, not sharing.
        auto const later = hand_dump(
            "allocation 0: size 100, preallocated-temp:\n"
            " value: <0 a @0> (size=100,offset=0): u8[100]{0}\n"
            " value: <1 d @0> (size=100,offset=0): u8[100]{0}\n",
            "    a{}:0-2\n    d{}:3-4\n");
        CHECK(hlomem::compute_memory_analysis(later).heap_peak_bytes == 100);
    }
    SECTION("colors are replayed one after another: the heap's peak is the highest color's, not their sum") {
        auto const ba = hand_dump(
            "allocation 0: size 100, color 1, preallocated-temp:\n"
            " value: <0 a @1> (size=100,offset=0): u8[100]{0:S(1)}\n"
            "allocation 1: size 80, preallocated-temp:\n"
            " value: <1 b @0> (size=80,offset=0): u8[80]{0}\n",
            "    a{}:0-4\n    b{}:0-4\n");
        auto const m = hlomem::compute_memory_analysis(ba);
        CHECK(m.heap_peak_bytes == 100);
        CHECK(m.peak_color == 1);
        // total_allocation_bytes and indefinite_allocations count color 0 only.
        CHECK(m.total_allocation_bytes == 80);
    }
    SECTION("host memory S(5), aliased parameters, live-out and thread-local allocations") {
        auto const ba = hand_dump(
            "allocation 0: size 64, color 5, parameter 0, shape |f32[16]| at ShapeIndex {}:\n"
            " value: <0 p @5> (size=64,offset=0): f32[16]{0:S(5)}\n"
            "allocation 1: size 32, parameter 1, shape |f32[8]| at ShapeIndex {}, maybe-live-out:\n"
            " value: <1 q @0> (size=32,offset=0): f32[8]{0}\n"
            "allocation 2: size 4, thread-local:\n"
            " value: <2 r @0> (size=4,offset=0): f32[]\n"
            "allocation 3: size 16, output shape is |(f32[8], f32[8])|, maybe-live-out:\n"
            " value: <3 t @0> (size=16,offset=0): (f32[8]{0}, f32[8]{0})\n",
            "    p{}:0-10\n    q{}:0-10\n    t{}:9-10\n");
        auto const m = hlomem::compute_memory_analysis(ba);
        CHECK(m.host_argument_size_in_bytes == 64);
        CHECK(m.argument_size_in_bytes == 32);
        CHECK(m.alias_size_in_bytes == 32);
        CHECK(m.output_size_in_bytes == 32 + 16);
        CHECK(m.temp_size_in_bytes == 0);
        // Indefinite: color 0's parameter, thread-local and live-out allocations.
        CHECK(m.indefinite_allocations == 32 + 4 + 16);
        // Static: every color's parameter and live-out allocations, thread-local ones left out.
        CHECK(m.static_bytes == 64 + 32 + 16);
        CHECK(m.peak_memory_in_bytes == 112);
    }
    SECTION("unpadded sizes dig one level into the instruction's tuple, by the last index") {
        hlomem::shape const whole = hlomem::parse_shape("(f32[4]{0}, (f32[100]{0}, f32[2]{0}), s8[7]{0})");
        std::vector<std::int64_t> const nested{1, 0};
        // {1,0} names f32[100], but XLA's ComputeLogicalBufferUnpaddedSizes takes element 0 of the
        // top level: f32[4], 16 bytes.
        CHECK(hlomem::detail::default_layout_byte_size(hlomem::detail::unpadded_subshape(whole, nested)) == 16);
        std::vector<std::int64_t> const last{2};
        CHECK(hlomem::detail::default_layout_byte_size(hlomem::detail::unpadded_subshape(whole, last)) == 7);
        // The default layout: no tiling padding.
        CHECK(hlomem::detail::default_layout_byte_size(hlomem::parse_shape("f32[3,5]{1,0:T(8,128)}")) == 60);
    }
}

TEST_CASE("memory_analysis: kept by snapshots and compared by diffs", "[memory_analysis][snapshot][diff][jax_0_11]") {
    hlomem::load_options options;
    options.find_live_range = true;
    auto plain = hlomem::load(std::string(HLOMEM_TEST_DATA_DIR) + "/jax_0_11/grad_plain-buffer-assignment.txt", options);
    auto ckpt = hlomem::load(std::string(HLOMEM_TEST_DATA_DIR) + "/jax_0_11/grad_ckpt-buffer-assignment.txt", options);
    REQUIRE(plain);
    REQUIRE(ckpt);
    auto const& a = *plain->assignment();
    auto const& b = *ckpt->assignment();

    // A snapshot keeps every figure, and reads them back as written.
    auto const snapshot = hlomem::make_snapshot(b, hlomem::attribute_values(b));
    REQUIRE(snapshot.memory);
    CHECK(snapshot.memory->peak_memory_in_bytes == 67108896);
    std::ostringstream json;
    hlomem::write_snapshot_json(json, snapshot);
    auto const back = hlomem::read_snapshot(json.str());
    REQUIRE(back.memory);
    for (auto const& f : hlomem::memory_analysis_members) {
        CAPTURE(f.name);
        CHECK(hlomem::value_of(*back.memory, f) == hlomem::value_of(*snapshot.memory, f));
    }
    CHECK(back.memory->peak_time == 22);
    CHECK(back.memory->peak_value_names == snapshot.memory->peak_value_names);
    // A snapshot written before memory_analysis was kept reads without it.
    std::string older = json.str();
    older.erase(older.find(",\n  \"memory_analysis\""), older.rfind('}') - older.find(",\n  \"memory_analysis\""));
    CHECK_FALSE(hlomem::read_snapshot(older).memory);

    // The diff of the two compilations: checkpointing keeps the peak JAX reports (67108896 both)
    // and grows the temp arena by 4196360 bytes (58723864 against 54527504, jax's figures).
    auto const sources_a = hlomem::attribute_values(a), sources_b = hlomem::attribute_values(b);
    auto const d = hlomem::diff_assignments(a, sources_a, b, sources_b);
    REQUIRE(d.memory_a);
    REQUIRE(d.memory_b);
    CHECK(d.memory_a->temp_size_in_bytes == 54527504);
    CHECK(d.memory_b->temp_size_in_bytes == 58723864);
    std::ostringstream text;
    hlomem::print_memory_analysis_diff_text(text, d);
    CHECK(text.str().find("memory_analysis() peak") != std::string::npos);
    CHECK(text.str().find("67108896      67108896") != std::string::npos);
    auto const sd = hlomem::diff_snapshots(hlomem::make_snapshot(a, hlomem::attribute_values(a)), snapshot);
    std::ostringstream out;
    hlomem::print_diff_json(out, hlomem::diff_document<hlomem::default_policy>{"a", "b", sd.d, sd.a.donations, sd.b.donations, nullptr,
                                                                             nullptr, &sd.not_compared});
    CHECK(out.str().find("\"temp_size_in_bytes\": {\n      \"a\": 54527504,\n      \"b\": 58723864,\n      \"delta\": 4196360") !=
          std::string::npos);
}
