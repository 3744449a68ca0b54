// Out-of-memory reports as people paste them (issue 16): the collection of real pastes in
// tests/data/oom/pastes/ (each file's first line names its public source) read with no failure,
// every entry head found, every recomputed size compared with the reported one; then one test per
// kind of damage that pastes show (excerpts, summaries alone, log prefixes, markdown, text in
// between, GPU peak buffers and stats alone), on the real pastes and on small texts.
#include <hlomem/hlomem.hpp>
#include <hlomem/parser/oom_report.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <cstdint>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using hlomem_test::read_data;

hlomem::oom_log read_paste(std::string const& name) {
    return hlomem::parse_oom_reports(read_data("oom/pastes/" + name), name);
}

std::vector<std::string> notes_of(hlomem::oom_report const& r) {
    std::vector<std::string> out;
    for (auto const& n : r.notes) out.push_back(std::to_string(n.line) + ":" + std::to_string(n.column) + ": " + n.message);
    return out;
}

std::vector<std::string> checks_of(hlomem::oom_report const& r) {
    std::vector<std::string> out;
    for (auto const& c : hlomem::analyze_summary(r).checks) out.push_back((c.agrees ? "ok: " : "NO: ") + c.relation);
    return out;
}

/// The entry heads of a text, found without hlomem: `17. Size:` (also `17\. Size:`) and
/// `Buffer 13:` anywhere in a line, as (kind, number).
std::multiset<std::pair<char, std::int64_t>> entry_heads_in(std::string const& text) {
    static std::regex const tpu(R"((?:^|[\s>\]])(\d+)\\?\.\s+Size:)");
    static std::regex const gpu(R"((?:^|[\s>\]])Buffer (\d+):)");
    std::multiset<std::pair<char, std::int64_t>> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::smatch m;
        if (std::regex_search(line, m, tpu)) out.insert({'t', std::stoll(m[1])});
        if (std::regex_search(line, m, gpu)) out.insert({'g', std::stoll(m[1])});
    }
    return out;
}

/// One paste of the collection and what reading it must give.
struct paste {
    char const* file;
    std::size_t reports;
    std::size_t entries;        ///< entries read, with or without their head
    std::size_t summaries;      ///< reports with summary figures (used, total usage, requirement, request, stats)
    std::size_t sized;          ///< entries whose shape reads, so that their sizes are recomputed
};

// The collection (tests/data/oom/pastes/README.md). Every count here was read off the paste by
// hand: the entries it shows (whole or in part), the summaries, and the entries whose Shape line
// is whole.
paste const collection[] = {
    {"afprofile_8.txt", 1, 0, 1, 0},          {"alpa_759.txt", 1, 1, 1, 1},
    {"alphafold_392_a.txt", 1, 3, 0, 3},      {"alphafold_392_b.txt", 1, 3, 0, 2},
    {"colabfold_62.txt", 1, 3, 0, 1},         {"easydel_142.txt", 1, 2, 1, 1},
    {"easydel_166.txt", 1, 2, 1, 1},          {"easydel_78.txt", 1, 0, 1, 0},
    {"elixir_xla_32.txt", 2, 2, 1, 1},        {"enzyme_jax_2422.txt", 1, 0, 1, 0},
    {"flax_1733.txt", 1, 1, 1, 0},            {"flowpm_27.txt", 1, 1, 1, 1},
    {"lwm_60.txt", 1, 0, 1, 0},               {"pytorch_xla_1735.txt", 1, 0, 1, 0},
    {"pytorch_xla_1965_a.txt", 1, 1, 0, 1},   {"pytorch_xla_1965_b.txt", 1, 2, 0, 1},
    {"pytorch_xla_3470.txt", 2, 0, 2, 0},     {"pytorch_xla_3532.txt", 1, 0, 1, 0},
    {"pytorch_xla_9524_a.txt", 1, 4, 0, 4},   {"pytorch_xla_9524_b.txt", 1, 0, 1, 0},
    {"scenic_1005.txt", 1, 1, 0, 1},          {"speedppi_1_a.txt", 1, 3, 0, 2},
    {"speedppi_1_b.txt", 1, 3, 0, 2},         {"t5x_870_a.txt", 2, 3, 1, 3},
    {"t5x_870_b.txt", 2, 1, 2, 0},            {"tapnet_48.txt", 1, 6, 0, 6},
    {"tensor2tensor_1382.txt", 1, 2, 0, 1},   {"tensorflow_30803.txt", 1, 3, 0, 2},
    {"tensorflow_tpu_598.txt", 2, 0, 2, 0},   {"thera_10.txt", 1, 1, 0, 1},
    {"transformers_22328.txt", 3, 0, 3, 0},   {"trax_1343.txt", 1, 4, 0, 3},
    {"vllm_8318.txt", 1, 0, 1, 0},
};

bool has_summary(hlomem::oom_report const& r) {
    return r.used || r.capacity || r.exceeded || r.total_usage || r.program_requirement || r.requested || !r.stats.empty() ||
           !r.usage.empty();
}

}  // namespace

TEST_CASE("the collection of real pastes: every entry head found, every size compared", "[oom_report][pastes]") {
    std::size_t entries = 0, summaries = 0, figures = 0, agreeing = 0, checks = 0;
    for (auto const& p : collection) {
        CAPTURE(p.file);
        std::string const text = read_data(std::string("oom/pastes/") + p.file);
        CHECK(text.rfind("# source: ", 0) == 0);  // the first line names the source
        auto const parsed = hlomem::try_parse_oom_reports(text, p.file);
        REQUIRE(parsed);  // never a failure
        auto const& log = *parsed;
        CHECK(log.reports.size() == p.reports);
        CHECK(log.entry_count() == p.entries);

        // Every entry head in the file is an entry with its head, with the same number.
        std::multiset<std::pair<char, std::int64_t>> read;
        std::size_t sized = 0, with_summary = 0;
        for (auto const& r : log.reports) {
            with_summary += has_summary(r) ? 1 : 0;
            for (auto const& c : hlomem::analyze_summary(r).checks) {
                CAPTURE(c.message);
                CHECK(c.agrees);  // no summary of the collection contradicts itself
                ++checks;
            }
            for (auto const& e : r.entries) {
                if (e.has_head) read.insert({r.kind == hlomem::oom_report_kind::tpu ? 't' : 'g', e.number});
                auto const a = hlomem::analyze(e, r.kind);
                if (!a.sized()) continue;
                ++sized;
                // Every reported figure is compared with the recomputed one.
                for (auto const* f : {&a.size, &a.unpadded, &a.padding_bytes}) {
                    if (!f->reported) continue;
                    ++figures;
                    agreeing += f->agrees ? 1 : 0;
                }
                if (a.expansion_reported) {
                    ++figures;
                    agreeing += a.expansion_agrees ? 1 : 0;
                }
                CAPTURE(e.line);
                CHECK(a.agrees());  // no real disagreement in the collection
            }
        }
        CHECK(read == entry_heads_in(text));
        CHECK(sized == p.sized);
        CHECK(with_summary == p.summaries);
        entries += log.entry_count();
        summaries += with_summary;
    }
    // The figures of the closing note of issue 16.
    CHECK(std::size(collection) == 33);
    CHECK(entries == 52);    // 38 of them with a shape that reads, 14 cut off before or inside it
    // Issue 32: elixir_xla_32, t5x_870_a and t5x_870_b hold a BFC allocator log next to the GPU
    // report, tensorflow_tpu_598 a rematerialization warning after the TPU summary: a report each.
    CHECK(summaries == 24);
    CHECK(figures == 67);    // Size, Unpadded size, Extra memory, expansion: every one agrees
    CHECK(agreeing == 67);
    CHECK(checks == 53);     // relations between a summary's figures: every one holds
}

TEST_CASE("damage: an excerpt that starts in the middle of the list or inside an entry", "[oom_report][pastes]") {
    SECTION("the list's header was not copied: the entries are read, the report is TPU by its fields") {
        auto const log = read_paste("pytorch_xla_9524_a.txt");
        REQUIRE(log.reports.size() == 1);
        auto const& r = log.reports[0];
        CHECK(r.kind == hlomem::oom_report_kind::tpu);
        CHECK(r.list_line == 0);
        CHECK(std::string(r.memory_space).empty());
        REQUIRE(r.entries.size() == 4);
        CHECK(r.entries[0].number == 4);
        CHECK(r.entries[0].has_head);
        CHECK(r.entries[0].allocation_type == "scoped");
    }
    SECTION("the first line of an entry was not copied: the entry keeps the fields it has, numbered by the next") {
        auto const log = read_paste("pytorch_xla_1965_b.txt");
        auto const& r = log.reports.at(0);
        REQUIRE(r.entries.size() == 2);
        auto const& first = r.entries[0];
        CHECK_FALSE(first.has_head);
        CHECK(first.number == 2);
        CHECK(first.number_inferred);
        CHECK(first.complete);
        CHECK(first.allocation_type == "HLO temp");
        CHECK(first.label_instruction->name == "fusion.47701.remat4");
        CHECK_FALSE(first.size);
        CHECK(r.entries[1].number == 3);
        CHECK(notes_of(r).front() == "2:95: the paste starts inside an entry: its fields from 'XLA label:' on are kept");
    }
    SECTION("GPU: a paste that starts with the '====' line of an entry, then whole buffers") {
        auto const log = read_paste("alphafold_392_b.txt");
        REQUIRE(log.warnings.size() == 1);
        CHECK(log.warnings[0].line == 2);
        CHECK(log.warnings[0].message == "a '====' line that ends an entry whose fields were not copied; skipped");
        auto const& r = log.reports.at(0);
        CHECK(r.kind == hlomem::oom_report_kind::gpu);
        CHECK(r.entries.at(0).number == 2);
    }
    SECTION("a field an entry already has starts the next entry, whose head was not copied") {
        auto const log = hlomem::parse_oom_reports("Size: 4.00MiB\n"
                                                   "Entry Parameter Subshape: f32[512,2048]\n"
                                                   "Size: 4.00MiB\n"
                                                   "Entry Parameter Subshape: f32[2048,512]\n"
                                                   "====\n");
        auto const& r = log.reports.at(0);
        CHECK(r.kind == hlomem::oom_report_kind::gpu);
        REQUIRE(r.entries.size() == 2);
        CHECK_FALSE(r.entries[0].complete);
        CHECK(r.entries[1].complete);
        CHECK(r.entries[1].number == 0);  // no later entry tells its number
        CHECK(notes_of(r) == std::vector<std::string>{
                                 "1:1: the paste starts inside an entry: its fields from 'Size:' on are kept",
                                 "3:1: the buffer at line 1 has no '====' line before a second 'Size:' line, which starts an "
                                 "entry whose first line was not copied",
                                 "3:1: an entry starts without its first line: its fields from 'Size:' on are kept",
                             });
        for (auto const& e : r.entries) CHECK(hlomem::analyze(e, r.kind).agrees());
    }
}

TEST_CASE("damage: only the summary, broken over lines, and the older reservation form", "[oom_report][pastes]") {
    SECTION("the one-line summary inside an error, and the same broken over two lines") {
        auto const one = read_paste("easydel_78.txt").reports.at(0);
        CHECK(one.memory_space == "hbm");
        CHECK(one.used->text == "21.90G");
        CHECK(one.capacity->text == "7.48G");
        CHECK(one.exceeded->text == "14.42G");
        CHECK(checks_of(one) == std::vector<std::string>{"ok: used - capacity = exceeded"});

        auto const log = read_paste("lwm_60.txt");
        REQUIRE(log.reports.size() == 1);
        auto const& two = log.reports[0];
        CHECK(two.used->text == "21.95G");
        CHECK(two.exceeded->text == "6.47G");
        CHECK(two.exceeded->line == 6);
        CHECK(two.total_usage->text == "22.47G");
        REQUIRE(two.usage.size() == 3);
        CHECK(two.usage[0].name == "reserved");
        CHECK(two.usage[0].bytes() == 555745280);  // 530.00M
        CHECK(checks_of(two) == std::vector<std::string>{"ok: used - capacity = exceeded", "ok: total usage = sum of its lines",
                                                         "ok: used = total usage (- reserved)"});
    }
    SECTION("total usage, output size and program requirement, every figure checked against the others") {
        auto const r = read_paste("easydel_166.txt").reports.at(0);
        CHECK(r.program_requirement->text == "63.80G");
        std::vector<std::string> names;
        for (auto const& u : r.usage) names.push_back(std::string(hlomem::to_string(u.part)) + " " + u.name);
        CHECK(names == std::vector<std::string>{"total reserved", "total program", "total arguments", "other Output size",
                                                "other shares", "program global", "program scoped", "program HLO temp"});
        CHECK(r.usage.back().detail ==
              "(100.0% utilization: Unpadded (63.58G) Padded (63.58G), 0.3% fragmentation (210.89M))");
        CHECK(checks_of(r) == std::vector<std::string>{"ok: used - capacity = exceeded", "ok: total usage = sum of its lines",
                                                       "ok: program requirement = sum of its lines",
                                                       "ok: program requirement = program", "ok: used = total usage (- reserved)"});
        auto const share = hlomem::analyze_summary(r).share;
        REQUIRE(share);
        CHECK(share->entries == 2);
        CHECK(share->of == "program requirement");
        CHECK(share->listed_bytes == 4294967296);  // 2.00G + 2.00G
    }
    SECTION("an older runtime: used is the total usage, and an argument of unknown size") {
        auto const r = read_paste("flowpm_27.txt").reports.at(0);
        CHECK_FALSE(r.usage[2].size);
        CHECK(r.usage[2].name == "arguments");
        auto const checks = hlomem::analyze_summary(r).checks;
        REQUIRE(checks.size() == 5);
        CHECK(checks[1].message == "the total usage 41.74G cannot be checked: its line 'arguments' has no value.");
        CHECK(checks[4].message == "Used 41.74G is the total usage 41.74G.");
    }
    SECTION("RESOURCE_EXHAUSTED: Attempting to reserve, with the capacity lines and their exact bytes") {
        auto const log = read_paste("pytorch_xla_1735.txt");
        REQUIRE(log.reports.size() == 1);
        auto const& r = log.reports[0];
        CHECK(r.requested->text == "3.95G");
        CHECK(r.capacity->text == "8.00G");
        CHECK(r.total_usage->text == "10.94G");
        CHECK(r.program_requirement->text == "4.34G");
        auto const checks = hlomem::analyze_summary(r).checks;
        REQUIRE(checks.size() == 5);
        CHECK(checks[3].relation == "capacity - allocations = available");
        CHECK(checks[3].agrees);
        // 8.00G less the exact 554,696,704 + 6,532,939,776 + 4,237,689,856 bytes.
        CHECK(checks[3].message == "Capacity 8.00G less the lines above it leaves -2740634624 to -2729100289 bytes (-2.55G to "
                                   "-2.54G); the report says Available after request -2.55G.");
        CHECK(checks[1].message == "the program requirement 4.34G cannot be checked: its line 'overlays' has no value.");
        CHECK(notes_of(r) == std::vector<std::string>{
                                 "11:1: line 11 inside the report is not part of it and was skipped: '; attempting reservation "
                                 "for program memory'",
                                 "30:5: 'overlays' has no value (the line is cut off)",
                             });
    }
    SECTION("the short reservation form, twice: two reports") {
        auto const log = read_paste("transformers_22328.txt");
        REQUIRE(log.reports.size() == 3);
        for (auto const& r : log.reports) {
            CHECK(r.requested->text == "10.51G");
            CHECK(checks_of(r) == std::vector<std::string>{"ok: requested > reservable"});
        }
    }
}

TEST_CASE("damage: every line behind a log prefix, a launcher tag or a quote", "[oom_report][pastes]") {
    SECTION("glog and TensorFlow headers, the older one with a thread id") {
        auto const log = read_paste("pytorch_xla_1965_a.txt");
        auto const& e = log.reports.at(0).entries.at(0);
        CHECK(hlomem::to_string(*e.shape) == "bf16[512,16,3072]{2,1,0:T(8,128)(2,1)}");
        CHECK(e.complete);
    }
    SECTION("absl prefixes relayed by run_docker.py, no indentation") {
        auto const r = read_paste("alphafold_392_a.txt").reports.at(0);
        REQUIRE(r.entries.size() == 3);
        CHECK(r.entries[0].number == 2);  // inferred: the paste starts inside buffer 2
        CHECK(r.entries[1].number == 3);
        CHECK(hlomem::to_string(*r.entries[1].shape) == "f32[5522500,128]");
    }
    SECTION("Ray's process tags with colour codes whose escape byte was lost, after a viewer's line numbers") {
        auto const r = read_paste("alpa_759.txt").reports.at(0);
        REQUIRE(r.stats.size() == 7);
        CHECK(r.stats[6].name == "total fragmentation");
        CHECK(r.stats[6].percent == "0.00%");
        CHECK(r.entries.at(0).label == "convert");
    }
    SECTION("Elixir's logger tags") {
        auto const r = read_paste("elixir_xla_32.txt").reports.at(1);  // after the BFC log's lines
        CHECK(r.requested->text == "58982400 bytes");
        CHECK(r.requested->size.nominal_bytes == 58982400);
        CHECK(r.entries.at(0).entry_parameter);
    }
    SECTION("Python logging, timestamps, [rank3]:, (pid=123), escape bytes and markdown quotes, in any mix") {
        std::string const text = "[rank3]: INFO:absl:Largest program allocations in hbm:\n"
                                 "(pid=123) [rank3]:   1. Size: 8.0K\n"
                                 "> \x1b[36m(RayWorker pid=9, ip=10.0.0.1)\x1b[0m      Shape: f32[16,2]{1,0:T(8,128)}\n"
                                 "> > 2024-05-01 10:00:00.000000: W xla/tpu.cc:1] \t  Unpadded size: 128B\n"
                                 "[1,0]<stderr>:ERROR:root:     ====\n";
        auto const log = hlomem::parse_oom_reports(text);
        REQUIRE(log.reports.size() == 1);
        auto const& r = log.reports[0];
        CHECK(r.memory_space == "hbm");
        REQUIRE(r.entries.size() == 1);
        CHECK(r.entries[0].complete);
        CHECK(r.notes.empty());
        CHECK(hlomem::analyze(r.entries[0], r.kind).agrees());
    }
    SECTION("the summary inside a markdown quote") {
        auto const r = read_paste("vllm_8318.txt").reports.at(0);
        CHECK(r.memory_space == "smem");
        CHECK(r.exceeded->text == "1.7K");
        CHECK(checks_of(r) == std::vector<std::string>{"ok: used - capacity = exceeded"});
    }
}

TEST_CASE("damage: markdown escapes, code fences, lost indentation, \\n in names, lines wrapped", "[oom_report][pastes]") {
    SECTION("escaped list numbers and underscores, code fences between entries, no indentation") {
        std::string const text = "```\n"
                                 "Largest program allocations in hbm:\n"
                                 "1\\. Size: 8.0K\n"
                                 "Operator: op\\_name=\"jit(f)/\\*\"\n"
                                 "Shape: f32[16,2]{1,0:T(8,128)}\n"
                                 "```\n"
                                 "```\n"
                                 "XLA label: %fusion\\_1 = f32[16,2]{1,0:T(8,128)} fusion()\n"
                                 "==========================\n"
                                 "```\n";
        auto const r = hlomem::parse_oom_reports(text).reports.at(0);
        REQUIRE(r.entries.size() == 1);
        auto const& e = r.entries[0];
        CHECK(e.number == 1);
        CHECK(e.complete);
        CHECK(e.operator_text == "op\\_name=\"jit(f)/\\*\"");  // kept as read
        CHECK(e.label_instruction->name == "fusion\\_1");
        CHECK(r.notes.empty());
        CHECK(hlomem::analyze(e, r.kind).agrees());
    }
    SECTION("\\n sequences inside long op names stay in the field") {
        auto const r = read_paste("flax_1733.txt").reports.at(0);
        auto const& op = r.entries.at(0).operator_text;
        CHECK(op.find("conv_general_dilated[\\n  batch_group_count=1\\n") != std::string::npos);
        CHECK(op.substr(op.size() - 3) == "\\n]");
    }
    SECTION("a label wrapped by the page continues on the next line") {
        auto const r = read_paste("tensorflow_30803.txt").reports.at(0);
        REQUIRE(r.entries.size() == 3);
        auto const& label = r.entries[1].label;
        CHECK(label.find("calls=%fused_comp\nutation.46, metadata") != std::string::npos);
        CHECK(r.entries[1].label_instruction->name == "fusion.46");
        CHECK(r.entries[1].allocation_type == "HLO temp");
        CHECK(r.entries[0].label.find("\nkind=kOutput") != std::string::npos);
    }
    SECTION("a Shape wrapped over two lines is read across them") {
        auto const log = hlomem::parse_oom_reports("  Largest program allocations in hbm:\n"
                                                   "  1. Size: 64.00M\n"
                                                   "     Shape: f32[32,128,\n"
                                                   "32,64]{3,0,2,1:T(8,128)}\n"
                                                   "     Unpadded size: 32.00M\n"
                                                   "     ====\n");
        auto const& r = log.reports.at(0);
        auto const& e = r.entries.at(0);
        REQUIRE(e.shape);
        CHECK(hlomem::to_string(*e.shape) == "f32[32,128,32,64]{3,0,2,1:T(8,128)}");
        CHECK(e.shape_text == "f32[32,128,\n32,64]{3,0,2,1:T(8,128)}");
        CHECK(notes_of(r) == std::vector<std::string>{"3:13: the Shape of entry 1 is wrapped over lines 3 and 4"});
        CHECK(hlomem::analyze(e, r.kind).agrees());
    }
}

TEST_CASE("damage: text in between, a traceback, a remark, '...'", "[oom_report][pastes]") {
    SECTION("a remark and '...' between entries are skipped with a warning, and the report goes on") {
        auto const log = hlomem::parse_oom_reports("  Largest program allocations in hbm:\n"
                                                   "  1. Size: 8.0K\n"
                                                   "     Shape: f32[16,2]{1,0:T(8,128)}\n"
                                                   "     ====\n"
                                                   "(I removed the middle entries)\n"
                                                   "...\n"
                                                   "  9. Size: 8.0K\n"
                                                   "     Shape: f32[16,2]{1,0:T(8,128)}\n"
                                                   "     ====\n");
        REQUIRE(log.reports.size() == 1);
        auto const& r = log.reports[0];
        REQUIRE(r.entries.size() == 2);
        CHECK(r.entries[1].number == 9);
        CHECK(notes_of(r) == std::vector<std::string>{
                                 "5:1: lines 5-6 inside the report are not part of it and were skipped: '(I removed the middle "
                                 "entries)'"});
    }
    SECTION("a traceback after the last buffer ends the report; the buffer is whole") {
        auto const r = read_paste("thera_10.txt").reports.at(0);
        REQUIRE(r.entries.size() == 1);
        CHECK(r.entries[0].complete);
        CHECK(r.notes.empty());
        CHECK_FALSE(r.cut_off);
    }
    SECTION("a log line inside an entry cuts it off there") {
        auto const r = read_paste("t5x_870_a.txt").reports.at(0);
        CHECK_FALSE(r.cut_off);
        auto const b = read_paste("t5x_870_b.txt").reports.at(1);  // after the BFC allocator's line
        CHECK(b.cut_off);
        CHECK(notes_of(b).back() == "19:121: the input ends inside buffer 1, before its '====' line");
    }
    SECTION("an author's own lines around the stats block") {
        auto const log = read_paste("afprofile_8.txt");
        REQUIRE(log.reports.size() == 1);
        CHECK(log.reports[0].stats.size() == 6);
        CHECK(log.reports[0].requested->size.nominal_bytes == 4770354232);
    }
    SECTION("a summary quoted inside a sentence") {
        auto const log = read_paste("pytorch_xla_3532.txt");
        REQUIRE(log.reports.size() == 1);
        CHECK(log.reports[0].used->text == "29.80G");
        CHECK(log.reports[0].exceeded->text == "21.82G");
    }
}

TEST_CASE("damage: GPU peak buffers without layouts, and the stats block alone", "[oom_report][pastes]") {
    SECTION("GPU shapes get the default layout, said so in the entry") {
        auto const r = read_paste("t5x_870_a.txt").reports.at(0);
        REQUIRE(r.entries.size() == 3);
        auto const a = hlomem::analyze(r.entries[0], r.kind);
        CHECK(a.layout_inferred);
        CHECK(hlomem::to_string(a.shape) == "bf16[128,6,256,256]{3,2,1,0}");
        CHECK(a.padded_bytes == 100663296);  // 96.00MiB
        CHECK(a.explanation.front() ==
              "The report prints the shape without a layout, as GPU reports do; hlomem took XLA's default layout {3,2,1,0} "
              "(the last dimension most minor), which does not change the size of an untiled GPU buffer.");
    }
    SECTION("tabs, and Entry Parameter Subshape buffers") {
        auto const r = read_paste("tapnet_48.txt").reports.at(0);
        REQUIRE(r.entries.size() == 6);
        for (auto const& e : r.entries) {
            CHECK(e.entry_parameter);
            CHECK(hlomem::analyze(e, r.kind).padded_bytes == 4194304);  // 4.00MiB
        }
    }
    SECTION("the stats block alone is a report with no buffers") {
        auto const log = read_paste("afprofile_8.txt");
        auto const& r = log.reports.at(0);
        CHECK(r.kind == hlomem::oom_report_kind::gpu);
        CHECK(r.entries.empty());
        CHECK(notes_of(r) == std::vector<std::string>{"4:1: the report ends before its 'Peak buffers:' line"});
        CHECK(checks_of(r) == std::vector<std::string>{"ok: parameter allocation <= total allocation",
                                                       "ok: constant allocation <= total allocation",
                                                       "ok: maybe_live_out allocation <= total allocation",
                                                       "ok: preallocated temp allocation <= total allocation"});
    }
}

TEST_CASE("figures of a summary that do not add up are flagged", "[oom_report][pastes]") {
    auto const log = hlomem::parse_oom_reports(
        "Ran out of memory in memory space hbm. Used 21.95G of 15.48G hbm. Exceeded hbm capacity by 5.00G.\n"
        "\n"
        "Total hbm usage >= 30.00G:\n"
        "    reserved        530.00M\n"
        "    program          21.95G\n"
        "    arguments            0B\n");
    auto const summary = hlomem::analyze_summary(log.reports.at(0));
    CHECK_FALSE(summary.agrees());
    REQUIRE(summary.checks.size() == 3);
    CHECK(summary.checks[0].message == "Used 21.95G less capacity 15.48G is 6936330241 to 6957301759 bytes (6.46G to 6.48G); the "
                                       "report says exceeded by 5.00G, which is not in that range.");
    CHECK(summary.checks[1].message == "The 3 lines under the total usage 30.00G add up to 24119340032 to 24129837054 bytes "
                                       "(22.46G to 22.47G), which 30.00G (32207011840 to 32218546175 bytes (30.00G to 30.00G)) "
                                       "does not cover.");
    CHECK_FALSE(summary.checks[2].agrees);
}

TEST_CASE("a paste that starts inside an entry: one entry, a note, and its figures agree", "[oom_report][pastes]") {
    // Moved from the README tour's hand copy: a summary behind a ">" quote, then an entry cut
    // before its header, behind torch's "[rank3]:" prefix.
    std::string const pasted_text =
        "> RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in "
        "memory space hbm. Used 21.95G of 15.48G hbm. Exceeded hbm capacity by 6.47G.\n"
        "[rank3]:      Shape: f32[16,2]{1,0:T(8,128)}\n"
        "[rank3]:      Unpadded size: 128B\n";
    auto oom = hlomem::parse_oom_reports(pasted_text, "issue.txt");
    REQUIRE(oom.reports.size() == 1);
    auto const& r = oom.reports[0];
    CHECK(hlomem::analyze_summary(r).agrees());
    REQUIRE(r.entries.size() == 1);
    CHECK(hlomem::analyze(r.entries[0], r.kind).agrees());
    CHECK_FALSE(r.notes.empty());
}
