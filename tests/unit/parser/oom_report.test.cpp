// Out-of-memory reports: the two real reports of tests/data/oom (their own figures recomputed),
// the synthetic variants of tests/data/oom/synthetic (log headers, indentation, several reports,
// cut-off entries, shapes without tiles), what is lenient, and the exact notes for damage inside
// a report (which never fails the input). The real pastes of tests/data/oom/pastes and each kind
// of damage they show: oom_pastes.test.cpp.
#include <hlomem/hlomem.hpp>
#include <hlomem/parser/oom_report.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

std::string report_data(std::string const& relative) {
    std::ifstream in(std::string(HLOMEM_TEST_DATA_DIR) + "/" + relative, std::ios::binary);
    REQUIRE(in);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

hlomem::oom_log read_log(std::string const& relative) { return hlomem::parse_oom_reports(report_data(relative), relative); }

/// The notes of the one report in `text` (which the reader always accepts).
std::vector<std::string> notes_in(std::string const& text);

std::vector<std::string> disagreements_of(hlomem::oom_entry_analysis const& a) {
    std::vector<std::string> out;
    for (auto const& d : a.disagreements) {
        CHECK(d.kind == hlomem::diagnostic_kind::size_disagreement);
        out.push_back("Line " + std::to_string(d.line) + ": " + d.message);
    }
    return out;
}

std::vector<std::string> report_notes_of(hlomem::oom_report const& r) {
    std::vector<std::string> out;
    for (auto const& n : r.notes) out.push_back(std::to_string(n.line) + ":" + std::to_string(n.column) + ": " + n.message);
    return out;
}

/// A TPU report around `entries` (entry lines as printed, indented by 2).
std::string tpu_report(std::string const& entries) { return "  Largest program allocations in hbm:\n\n" + entries; }

std::vector<std::string> notes_in(std::string const& text) {
    auto r = hlomem::try_parse_oom_reports(text, "log.txt");
    REQUIRE(r);
    REQUIRE(r->reports.size() == 1);
    return report_notes_of(r->reports[0]);
}

}  // namespace

TEST_CASE("the real TPU report: every figure recomputed from its shape", "[oom_report]") {
    // tests/data/oom/tpu_oom_pytorch_xla_3041.txt (pytorch/xla issue 3041): indented, cut off after
    // the second entry, whose '====' line is shortened to 7 characters.
    auto const log = read_log("oom/tpu_oom_pytorch_xla_3041.txt");
    REQUIRE(log.reports.size() == 1);
    auto const& r = log.reports[0];
    CHECK(r.kind == hlomem::oom_report_kind::tpu);
    CHECK(r.line == 1);  // its summary: `Total hbm usage >= 8.74G:`
    CHECK(r.list_line == 9);
    CHECK(r.memory_space == "hbm");
    CHECK_FALSE(r.cut_off);
    CHECK(r.total_usage->text == "8.74G");
    CHECK(r.program_requirement->text == "1.68G");
    auto const summary = hlomem::analyze_summary(r);
    CHECK(summary.agrees());
    CHECK(summary.checks.size() == 3);  // total = its lines, requirement = its lines, requirement = program
    REQUIRE(summary.share);
    CHECK(summary.share->listed_bytes == 2 * 597688320);  // 570.00M twice, of 1.68G
    CHECK(summary.share->of == "program requirement");
    CHECK(r.notes.empty());
    REQUIRE(r.entries.size() == 2);

    auto const& first = r.entries[0];
    CHECK(first.number == 1);
    CHECK(first.line == 10);
    CHECK(first.size->text == "570.00M");
    CHECK(first.size->line == 10);
    CHECK(first.unpadded_size->text == "570.00M");
    CHECK_FALSE(first.padding_size);
    CHECK_FALSE(first.expansion);
    CHECK(hlomem::to_string(*first.shape) == "f32[29184,2,2560]{2,1,0:T(2,128)}");
    CHECK(first.shape_line == 11);
    CHECK(first.allocation_type == "HLO temp");
    REQUIRE(first.label_instruction);
    CHECK(first.label_instruction->name == "fusion.11");
    CHECK(first.label_instruction->opcode == "fusion");
    CHECK(*first.label_instruction->shape == *first.shape);
    CHECK(first.complete);

    auto const& second = r.entries[1];
    CHECK(second.number == 2);
    CHECK(second.size->text == "570.00M");
    CHECK(second.unpadded_size->text == "285.00M");
    CHECK(second.padding_size->text == "285.00M");
    CHECK(second.padding_size->line == 19);
    REQUIRE(second.expansion);
    CHECK(second.expansion->text == "2.0");
    CHECK(second.expansion->value() == 2.0);
    CHECK(second.label_instruction->name == "fusion.10.remat3");
    CHECK(second.label_instruction->shape->tuple_shapes_size() == 2);
    CHECK(second.complete);

    auto const a1 = hlomem::analyze(first, r.kind);
    CHECK(a1.padded_bytes == 597688320);  // 570.00M
    CHECK(a1.unpadded_bytes == 597688320);
    CHECK(a1.size.reported);
    CHECK(a1.size.agrees);
    CHECK(a1.unpadded.agrees);
    CHECK_FALSE(a1.padding_bytes.reported);
    CHECK(a1.agrees());
    CHECK(a1.fixes.empty());

    auto const a2 = hlomem::analyze(second, r.kind);
    CHECK(a2.padded_bytes == 597688320);    // 570.00M
    CHECK(a2.unpadded_bytes == 298844160);  // 285.00M
    CHECK(a2.padding_bytes.recomputed == 298844160);  // Extra memory due to padding: 285.00M
    CHECK(a2.expansion() == 2.0);            // (2.0x expansion)
    CHECK(a2.size.agrees);
    CHECK(a2.unpadded.agrees);
    CHECK(a2.padding_bytes.agrees);
    CHECK(a2.expansion_reported);
    CHECK(a2.expansion_agrees);
    CHECK_FALSE(a2.tiling_inferred);
    CHECK(a2.explanation.back() ==
          "The XLA label's instruction fusion.10.remat3 returns a tuple of 2 elements; this allocation holds element {0} or "
          "{1} (both have this shape).");
    CHECK(a2.suggestions.size() == 3);
}

TEST_CASE("the real GPU report: sizes of f32 buffers, stats, and the buffer cut off in its Size", "[oom_report]") {
    // tests/data/oom/gpu_oom_jax_13428.txt (jax-ml/jax issue 13428): cut off at `Size: 384`.
    auto const log = read_log("oom/gpu_oom_jax_13428.txt");
    REQUIRE(log.reports.size() == 1);
    auto const& r = log.reports[0];
    CHECK(r.kind == hlomem::oom_report_kind::gpu);
    CHECK(r.line == 1);  // `Out of memory while trying to allocate 6291456 bytes.`
    CHECK(r.requested->size.nominal_bytes == 6291456);
    CHECK(r.has_peak_buffers);
    CHECK(r.cut_off);
    REQUIRE(r.stats.size() == 6);
    CHECK(r.stats[0].name == "parameter allocation");
    CHECK(r.stats[0].size.text == "6.00MiB");
    CHECK(r.stats[0].size.size.nominal_bytes == 6291456);
    CHECK(r.stats[2].name == "maybe_live_out allocation");
    CHECK(r.stats[4].name == "total allocation");
    CHECK(r.stats[4].size.text == "12.00MiB");
    CHECK(r.stats[5].name == "total fragmentation");
    CHECK(r.stats[5].size.text == "0B");
    CHECK(r.stats[5].percent == "0.00%");
    REQUIRE(r.entries.size() == 3);

    auto const& b1 = r.entries[0];
    CHECK(b1.line == 11);
    CHECK(b1.size->text == "6.00MiB");
    CHECK(b1.operator_text ==
          "op_name=\"jit(concatenate)/jit(main)/concatenate[dimension=0]\" "
          "source_file=\"/media/gccrcv/Data/Opensources/multinerf/internal/models.py\" source_line=689");
    CHECK(b1.label == "concatenate");
    CHECK_FALSE(b1.label_instruction);
    CHECK(hlomem::to_string(*b1.shape) == "f32[4096,128,3]");
    CHECK_FALSE(b1.entry_parameter);
    CHECK(b1.complete);
    auto const a1 = hlomem::analyze(b1, r.kind);
    CHECK(a1.padded_bytes == 6291456);  // 4096·128·3·4 = 6.00MiB
    CHECK(a1.size.agrees);
    CHECK(a1.layout_inferred);  // printed without a layout: the default one, said so
    CHECK(a1.explanation == std::vector<std::string>{
                                "The report prints the shape without a layout, as GPU reports do; hlomem took XLA's default "
                                "layout {2,1,0} (the last dimension most minor), which does not change the size of an untiled "
                                "GPU buffer.",
                                "GPU buffers are not tiled: 4096 x 128 x 3 x 4 bytes = 6291456 bytes (6.00MiB)."});

    auto const& b2 = r.entries[1];
    CHECK(b2.size->text == "384.0KiB");
    CHECK(b2.entry_parameter);
    CHECK(hlomem::to_string(*b2.shape) == "f32[256,128,3]");
    auto const a2 = hlomem::analyze(b2, r.kind);
    CHECK(a2.padded_bytes == 393216);  // 384.0KiB
    CHECK(a2.size.agrees);

    auto const& b3 = r.entries[2];
    CHECK(b3.number == 3);
    CHECK_FALSE(b3.size);
    CHECK_FALSE(b3.shape);
    CHECK_FALSE(b3.complete);
    CHECK_FALSE(hlomem::analyze(b3, r.kind).has_shape);
    CHECK(report_notes_of(r) == std::vector<std::string>{
                             "24:23: the Size of buffer 3 does not read as a size: '384'",
                             "24:26: the input ends inside buffer 3, before its '====' line",
                         });
}

TEST_CASE("a TPU report behind glog headers on every line", "[oom_report]") {
    auto const log = read_log("oom/synthetic/tpu_glog_prefixed.txt");
    REQUIRE(log.reports.size() == 1);
    auto const& r = log.reports[0];
    CHECK(r.line == 2);  // `... Ran out of memory in memory space hbm. ...`
    CHECK_FALSE(r.cut_off);
    CHECK(hlomem::analyze_summary(r).agrees());
    REQUIRE(r.entries.size() == 4);
    // shape, Size, Unpadded size, padded and unpadded bytes (tests/data/oom/synthetic/README.md)
    struct expected {
        char const* shape;
        std::int64_t padded, unpadded;
    };
    expected const want[] = {
        {"bf16[8,2048,50257]{2,1,0:T(8,128)(2,1)}", 1648361472, 1646821376},  // 1.54G, 1.53G, 1.47M, 1.0x
        {"f32[64,56,56,3]{3,0,2,1:T(8,128)}", 102760448, 2408448},            // 98.00M, 2.30M, 95.70M, 42.7x
        {"pred[64,512,2048]{2,1,0:T(8,128)E(32)}", 268435456, 67108864},      // 256.00M, 64.00M, 192.00M, 4.0x
        {"f32[16,1024,1024]{2,1,0:T(8,128)}", 67108864, 67108864},            // 64.00M, 64.00M
    };
    for (std::size_t i = 0; i < 4; ++i) {
        CAPTURE(i);
        auto const& e = r.entries[i];
        CHECK(e.complete);
        CHECK(hlomem::to_string(*e.shape) == want[i].shape);
        auto const a = hlomem::analyze(e, r.kind);
        CHECK(a.padded_bytes == want[i].padded);
        CHECK(a.unpadded_bytes == want[i].unpadded);
        CHECK(a.agrees());
        CHECK(a.expansion_reported == (i < 3));
    }
    CHECK(r.entries[0].operator_text.substr(0, 40) == "op_name=\"jit(train_step)/jit(main)/trans");
    CHECK(r.entries[2].expansion->text == "4.0");
    CHECK(hlomem::analyze(r.entries[3], r.kind).explanation.back() ==
          "The XLA label's instruction fusion.3 returns a tuple of 2 elements; this allocation holds element {0}.");
}

TEST_CASE("two GPU reports behind TensorFlow log headers, the second cut off by a log line", "[oom_report]") {
    auto const log = read_log("oom/synthetic/gpu_tf_prefixed_two_reports.txt");
    // The third is the second's failed allocation, raised again by Python after the report.
    REQUIRE(log.reports.size() == 3);
    CHECK(log.reports[2].line == 55);
    CHECK(log.reports[2].requested->size.nominal_bytes == 3221225472);
    CHECK(log.reports[2].entries.empty());
    auto const& first = log.reports[0];
    CHECK(first.line == 3);
    CHECK_FALSE(first.cut_off);
    REQUIRE(first.stats.size() == 7);
    CHECK(first.stats[4].name == "preallocated temp fragmentation");
    CHECK(first.stats[4].percent == "0.00%");
    CHECK(first.stats[6].size.text == "112B");
    REQUIRE(first.entries.size() == 4);
    std::int64_t const bytes[] = {1610612736, 805306368, 16, 100663296};  // 1.50GiB, 768.00MiB, 16B, 96.00MiB
    for (std::size_t i = 0; i < 4; ++i) {
        CAPTURE(i);
        auto const a = hlomem::analyze(first.entries[i], first.kind);
        CHECK(a.padded_bytes == bytes[i]);
        CHECK(a.size.agrees);
    }
    CHECK(first.entries[1].entry_parameter);
    CHECK(first.entries[2].shape->is_tuple());  // (f32[4096,3072], s8[33554432]): its 2 pointers

    auto const& second = log.reports[1];
    CHECK(second.line == 38);
    CHECK(second.cut_off);
    REQUIRE(second.entries.size() == 1);
    CHECK(second.entries[0].size->text == "3.00GiB");
    CHECK(second.entries[0].label == "fusion");
    CHECK_FALSE(second.entries[0].shape);
    CHECK(report_notes_of(second) ==
          std::vector<std::string>{"51:1: buffer 1 is cut off here, before its '====' line; the rest is not part of the report"});
}

TEST_CASE("TPU shapes printed without tiles get the default TPU tiling, and the report's figures agree", "[oom_report]") {
    auto const log = read_log("oom/synthetic/tpu_untiled_indented.txt");
    REQUIRE(log.reports.size() == 1);
    auto const& r = log.reports[0];
    REQUIRE(r.entries.size() == 3);
    char const* const analyzed[] = {"f32[32,128,32,64]{3,0,2,1:T(8,128)}", "bf16[1024,1000]{1,0:T(8,128)(2,1)}",
                                    "f32[16,2]{1,0:T(8,128)}"};
    std::int64_t const padded[] = {67108864, 2097152, 8192};      // 64.00M, 2.00M, 8.0K
    std::int64_t const unpadded[] = {33554432, 2048000, 128};     // 32.00M, 1.95M, 128B
    for (std::size_t i = 0; i < 3; ++i) {
        CAPTURE(i);
        auto const a = hlomem::analyze(r.entries[i], r.kind);
        CHECK(a.tiling_inferred);
        CHECK(hlomem::to_string(a.shape) == analyzed[i]);
        CHECK(a.padded_bytes == padded[i]);
        CHECK(a.unpadded_bytes == unpadded[i]);
        CHECK(a.agrees());
    }
    CHECK(hlomem::analyze(r.entries[0], r.kind).explanation[0] ==
          "The report prints the shape without tiles, as older TPU runtimes do; hlomem inferred the default TPU tiling "
          "T(8,128) for f32 (XLA's tiled_layout.md), which reproduces the reported Size 64.00M.");
}

TEST_CASE("a TPU report cut off in the middle of a Shape", "[oom_report]") {
    auto const log = read_log("oom/synthetic/tpu_cut_mid_shape.txt");
    REQUIRE(log.reports.size() == 1);
    auto const& r = log.reports[0];
    CHECK(r.cut_off);
    REQUIRE(r.entries.size() == 2);
    CHECK(r.entries[0].complete);
    CHECK_FALSE(r.entries[1].complete);
    CHECK(r.entries[1].size->text == "570.00M");
    CHECK_FALSE(r.entries[1].shape);
    CHECK(r.entries[1].shape_text == "f32[29184,1,25");
    CHECK(report_notes_of(r) == std::vector<std::string>{
                             "11:13: the Shape of entry 2 does not read (expected ',' or ']'): 'f32[29184,1,25'",
                             "11:27: the input ends inside entry 2, before its '====' line",
                         });
    CHECK(hlomem::analyze(r.entries[1], r.kind).explanation ==
          std::vector<std::string>{"The entry's shape does not read (cut off or damaged): nothing to recompute."});
}

TEST_CASE("figures that disagree with the shape are flagged with the bytes they stand for", "[oom_report]") {
    auto const log = hlomem::parse_oom_reports(tpu_report("  1. Size: 4.0K\n"
                                                          "     Shape: f32[16,2]{1,0:T(8,128)}\n"
                                                          "     Unpadded size: 128B\n"
                                                          "     Extra memory due to padding: 3.9K (32.0x expansion)\n"
                                                          "     ==========================\n"));
    auto const a = hlomem::analyze(log.reports.at(0).entries.at(0), hlomem::oom_report_kind::tpu);
    CHECK_FALSE(a.size.agrees);
    CHECK(a.unpadded.agrees);
    CHECK_FALSE(a.padding_bytes.agrees);
    CHECK_FALSE(a.expansion_agrees);
    CHECK(disagreements_of(a) ==
          std::vector<std::string>{
              "Line 3: the report's Size 4.0K stands for 4045 to 4147 bytes, but the size recomputed from the shape is 8192 "
              "bytes (8.0K).",
              "Line 6: the report's Extra memory due to padding 3.9K stands for 3943 to 4044 bytes, but the padding "
              "recomputed from the shape is 8064 bytes (7.9K).",
              "Line 6: the report's expansion 32.0x is not the recomputed 64.00x.",
          });
}

TEST_CASE("lenient reading: log headers, indentation, tabs, CRLF, fields in any order, unknown fields", "[oom_report]") {
    SECTION("headers only on some lines, tabs and CRLF") {
        std::string const text =
            "E1121 10:03:12.123456 12345 tpu_compiler.cc:99] \tLargest program allocations in hbm:\r\n"
            "\t1. Size: 8.0K\r\n"
            "2024-05-01 10:00:00.000000: W external/xla/xla/pjrt/pjrt_stream_executor_client.cc:2826] \t\tAllocation type: HLO temp\r\n"
            "\t\tShape: f32[16,2]{1,0:T(8,128)}\r\n"
            "\t\t=====\r\n";
        auto const log = hlomem::parse_oom_reports(text);
        REQUIRE(log.reports.size() == 1);
        auto const& e = log.reports[0].entries.at(0);
        CHECK(e.complete);
        CHECK(e.allocation_type == "HLO temp");
        CHECK(hlomem::analyze(e, hlomem::oom_report_kind::tpu).size.agrees);
    }
    SECTION("a field hlomem does not know is kept, with a note") {
        // No real report is known to print `Source file:`; a newer runtime may add fields.
        auto const log = hlomem::parse_oom_reports(tpu_report("  1. Size: 8.0K\n"
                                                              "     Source file: /home/user/model.py:212\n"
                                                              "     Shape: f32[16,2]{1,0:T(8,128)}\n"
                                                              "     ====\n"));
        auto const& r = log.reports.at(0);
        REQUIRE(r.entries.at(0).other_fields.size() == 1);
        CHECK(r.entries[0].other_fields[0].name == "Source file");
        CHECK(r.entries[0].other_fields[0].value == "/home/user/model.py:212");
        CHECK(report_notes_of(r) == std::vector<std::string>{"4:6: 'Source file:' is not a field hlomem knows; kept as read"});
    }
    SECTION("an entry that runs into the next one without its '====' line") {
        auto const log = hlomem::parse_oom_reports(tpu_report("  1. Size: 8.0K\n"
                                                              "     Shape: f32[16,2]{1,0:T(8,128)}\n"
                                                              "  2. Size: 8.0K\n"
                                                              "     Shape: f32[16,2]{1,0:T(8,128)}\n"
                                                              "     ====\n"));
        auto const& r = log.reports.at(0);
        REQUIRE(r.entries.size() == 2);
        CHECK_FALSE(r.entries[0].complete);
        CHECK(r.entries[1].complete);
        CHECK_FALSE(r.cut_off);
        CHECK(report_notes_of(r) == std::vector<std::string>{"5:3: entry 1 has no '====' line before the next entry"});
    }
    SECTION("a report whose text stops after its header") {
        auto const log = hlomem::parse_oom_reports("  Largest program allocations in hbm:\nTraceback (most recent call last):\n");
        auto const& r = log.reports.at(0);
        CHECK(r.entries.empty());
        CHECK(r.cut_off);
        CHECK(report_notes_of(r) == std::vector<std::string>{"1:1: the report ends before its first entry"});
    }
    SECTION("GPU pastes that start at the stats or at 'Peak buffers:'") {
        auto const stats = hlomem::parse_oom_reports("BufferAssignment stats:\n  total allocation:   12.00MiB\n\nDone.\n");
        REQUIRE(stats.reports.size() == 1);
        CHECK(stats.reports[0].stats.size() == 1);
        CHECK(stats.reports[0].cut_off);
        CHECK(report_notes_of(stats.reports[0]) == std::vector<std::string>{"1:1: the report ends before its 'Peak buffers:' line"});
        auto const peak = hlomem::parse_oom_reports("Peak buffers:\n\tBuffer 1:\n\t\tSize: 16B\n\t\tShape: (f32[2], s32[])\n\t\t===\n");
        REQUIRE(peak.reports.size() == 1);
        CHECK(peak.reports[0].has_peak_buffers);
        CHECK(hlomem::analyze(peak.reports[0].entries.at(0), hlomem::oom_report_kind::gpu).padded_bytes == 16);
    }
    SECTION("text without any report") {
        auto const log = hlomem::parse_oom_reports(report_data("seeds/002_b0117d631587537a.txt"));
        CHECK(log.reports.empty());
        CHECK(hlomem::parse_oom_reports("").reports.empty());
    }
}

TEST_CASE("damage inside a report is a note at its place, and the rest is read", "[oom_report][errors]") {
    // A malformed Shape (tests/data/oom/synthetic/tpu_malformed_shape.txt): kept as text.
    auto const malformed = hlomem::parse_oom_reports(report_data("oom/synthetic/tpu_malformed_shape.txt"), "log.txt");
    REQUIRE(malformed.reports.size() == 1);
    CHECK(report_notes_of(malformed.reports[0]) ==
          std::vector<std::string>{"4:13: the Shape of entry 1 does not read (minor_to_major lists dimension 1 twice; it must be "
                                   "a permutation of 0..1): 'f32[1024,1024]{1,1:T(8,128)}'"});
    CHECK(malformed.reports[0].entries.at(0).shape_text == "f32[1024,1024]{1,1:T(8,128)}");
    CHECK(malformed.reports[0].entries.at(0).allocation_type == "HLO temp");
    // A line that is no field between two fields: skipped, and the entry goes on.
    CHECK(notes_in(tpu_report("  1. Size: 8.0K\n"
                              "     Shape: f32[16,2]{1,0:T(8,128)}\n"
                              "     this line does not belong here\n"
                              "     Unpadded size: 128B\n"
                              "     ====\n")) ==
          std::vector<std::string>{"5:1: line 5 inside the report is not part of it and was skipped: 'this line does not belong here'"});
    // A value that does not read.
    CHECK(notes_in(tpu_report("  1. Size: 8.0K\n"
                              "     Unpadded size: 12 8B\n"
                              "     Shape: f32[16,2]{1,0:T(8,128)}\n")) ==
          std::vector<std::string>{"4:21: the Unpadded size of entry 1 does not read as a size: '12 8B'",
                                   "5:36: the input ends inside entry 1, before its '====' line"});
    CHECK(notes_in(tpu_report("  1. Size: 8.0K (approximately)\n")) ==
          std::vector<std::string>{"3:17: the text after the Size of entry 1 is not part of it: '(approximately)'",
                                   "3:32: the input ends inside entry 1, before its '====' line"});
    CHECK(notes_in(tpu_report("  1. Size: 8.0K\n"
                              "     Shape: f32[16,2{1,0}\n"
                              "     Unpadded size: 128B\n")) ==
          std::vector<std::string>{"4:13: the Shape of entry 1 does not read (expected ',' or ']'): 'f32[16,2{1,0}'",
                                   "5:25: the input ends inside entry 1, before its '====' line"});
    // An expansion that does not read.
    CHECK(notes_in(tpu_report("  1. Size: 8.0K\n"
                              "     Extra memory due to padding: 7.9K (64.0 x expansion)\n"
                              "     Shape: f32[16,2]{1,0:T(8,128)}\n")) ==
          std::vector<std::string>{"4:40: the expansion of entry 1 does not read: '(64.0 x expansion)'",
                                   "5:36: the input ends inside entry 1, before its '====' line"});
    // Two Shapes in one entry: the second starts an entry whose first line was not copied.
    CHECK(notes_in(tpu_report("  1. Size: 8.0K\n"
                              "     Shape: f32[16,2]{1,0:T(8,128)}\n"
                              "     Shape: f32[16,2]{1,0:T(8,128)}\n")) ==
          std::vector<std::string>{"5:6: entry 1 has no '====' line before a second 'Shape:' line, which starts an entry whose "
                                   "first line was not copied",
                                   "5:6: an entry starts without its first line: its fields from 'Shape:' on are kept",
                                   "5:36: the input ends inside the entry at line 5, before its '====' line"});
    // A field right after the header, and a field after a buffer's '====' line.
    CHECK(notes_in(tpu_report("     Shape: f32[16,2]{1,0:T(8,128)}\n")) ==
          std::vector<std::string>{"3:6: the paste starts inside an entry: its fields from 'Shape:' on are kept",
                                   "3:36: the input ends inside the entry at line 3, before its '====' line"});
    CHECK(notes_in("Peak buffers:\n\tBuffer 1:\n\t\tSize: 16B\n\t\t===\n\t\tShape: (f32[2], s32[])\n") ==
          std::vector<std::string>{"5:3: an entry starts without its first line: its fields from 'Shape:' on are kept",
                                   "5:25: the input ends inside the buffer at line 5, before its '====' line"});
    // A stat whose percentage is printed oddly is kept as printed.
    auto const stats = hlomem::parse_oom_reports("BufferAssignment stats:\n  total fragmentation:  0B (0.00 %)\n");
    CHECK(stats.reports.at(0).stats.at(0).percent == "0.00 %");
    // A list header without its colon.
    CHECK(notes_in("  Largest program allocations in hbm\n") == std::vector<std::string>{"1:1: the report ends before its first entry"});
}

TEST_CASE("with the view policy, the report's strings are views into the input", "[oom_report]") {
    std::string const text = report_data("oom/tpu_oom_pytorch_xla_3041.txt");
    auto const log = hlomem::parse_oom_reports<hlomem::view_policy>(text, "tpu.txt");
    auto const& e = log.reports.at(0).entries.at(1);
    CHECK(e.size->text == "570.00M");
    CHECK(e.size->text.data() >= text.data());
    CHECK(e.size->text.data() < text.data() + text.size());
    CHECK(e.label_instruction->name == "fusion.10.remat3");
    auto const a = hlomem::analyze(e, hlomem::oom_report_kind::tpu);
    CHECK(a.padded_bytes == 597688320);
    CHECK(a.unpadded_bytes == 298844160);
    CHECK(a.agrees());
}
