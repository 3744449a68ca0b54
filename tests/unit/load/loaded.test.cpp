// The loader (load/loaded.hpp): files read into the model of their kind, sibling files found,
// modules' assignments derived, errors as the tool prints them, on the bundled real data. The
// derived figures are those `hlomem report` and `hlomem liveness` print (tests/cli/report_001.out,
// liveness_conditional.json).
#include <hlomem/load/loaded.hpp>
#include <hlomem/hlomem.hpp>
#include <hlomem/load.hpp>
#include <catch2/catch.hpp>
#include "data_path.hpp"
#include "test_data.hpp"

#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

using hlomem::dump_kind;
using hlomem_test::read_data;

namespace {

/// Writes `text` to `path`, for sibling files laid out as XLA names them.
void write_file(std::string const& path, std::string const& text) {
    std::ofstream out(path, std::ios::binary);
    REQUIRE(out);
    out << text;
}

}  // namespace

TEST_CASE("load: a file is read whole, and its model is the one of its kind", "[load]") {
    std::string const path = data_path("seeds/002_b0117d631587537a.txt");
    auto in = hlomem::read_input(path);
    REQUIRE(in);
    CHECK(in->text == read_data("seeds/002_b0117d631587537a.txt"));
    CHECK(in->kind == dump_kind::buffer_assignment);
    CHECK(in->name() == path);

    auto r = hlomem::load(path);
    REQUIRE(r);
    REQUIRE(r->kind() == dump_kind::buffer_assignment);
    REQUIRE(r->assignment() != nullptr);
    CHECK(r->assignment()->file == path);
    CHECK(r->texts.empty());  // default_policy models own their strings

    auto csv = hlomem::load(data_path("hand/minimalloc_readme.csv"));
    REQUIRE(csv);
    REQUIRE(csv->kind() == dump_kind::minimalloc_csv);
    CHECK(std::get<hlomem::allocation_problem>(csv->model).buffers.size() == 5);
    CHECK(csv->assignment() == nullptr);

    auto oom = hlomem::load(data_path("oom/tpu_oom_pytorch_xla_3041.txt"));
    REQUIRE(oom);
    auto const& log = std::get<hlomem::oom_log>(oom->model);
    REQUIRE(log.reports.size() == 1);
    CHECK(log.reports[0].entries.size() == 2);  // explain_tpu_real.out: "2 entries"

    auto report = hlomem::load(data_path("corpus/lorrax/lorrax_psum_4gpu.memory_usage_report.txt"));
    REQUIRE(report);
    CHECK(report->kind() == dump_kind::memory_usage_report);

    // Any text reads as an OOM log when asked; a dump holds no report.
    hlomem::load_options as_log;
    as_log.as = dump_kind::oom_log;
    auto not_a_log = hlomem::load(path, as_log);
    REQUIRE(not_a_log);
    CHECK(std::get<hlomem::oom_log>(not_a_log->model).reports.empty());
}

TEST_CASE("load: a dump's live ranges and memory-usage report are found beside it", "[load]") {
    std::string const dump = data_path("synthetic/newest_simple-buffer-assignment.txt");
    auto bare = hlomem::load(dump);
    REQUIRE(bare);
    CHECK_FALSE(bare->assignment()->live_range);
    CHECK_FALSE(bare->live_range_file);

    hlomem::load_options options;
    options.find_live_range = true;
    options.find_memory_usage_report = true;
    auto found = hlomem::load(dump, options);
    REQUIRE(found);
    REQUIRE(found->live_range_file);
    CHECK(*found->live_range_file == data_path("synthetic/newest_simple-live-range.txt"));
    REQUIRE(found->assignment()->live_range);
    // report_newest_simple.out: "XLA's peak ... time 2 (multiply): 3 values listed, 48 bytes"
    auto const peak = hlomem::compute_xla_peak(*found->assignment());
    CHECK(peak.time == 2);
    CHECK(peak.bytes == 48);
    CHECK_FALSE(found->memory_usage_report);

    // The memory-usage report of a dump, named as XLA names it, next to it.
    std::string const dir = std::string(HLOMEM_TEST_BINARY_DIR);
    std::string const copy = dir + "/load_scan_while_phi-buffer-assignment.txt";
    std::string const sibling = dir + "/load_scan_while_phi-memory-usage-report.txt";
    write_file(copy, read_data("corpus/lorrax/lorrax_scan_while_phi.buffer_assignment.txt"));
    write_file(sibling, read_data("corpus/lorrax/lorrax_scan_while_phi.memory_usage_report.txt"));
    auto with_report = hlomem::load(copy, options);
    std::remove(copy.c_str());
    std::remove(sibling.c_str());
    REQUIRE(with_report);
    REQUIRE(with_report->memory_usage_report_file);
    CHECK(*with_report->memory_usage_report_file == sibling);
    REQUIRE(with_report->memory_usage_report);
    // report_scan_while_phi.json: "checked against ...: it agrees"
    CHECK(hlomem::check_against(*with_report->memory_usage_report, *with_report->assignment()).empty());

    // A named live-range file that is not there.
    hlomem::load_options missing;
    missing.live_range_file = data_path("synthetic/no-such-live-range.txt");
    auto failed = hlomem::load(dump, missing);
    REQUIRE_FALSE(failed);
    CHECK(failed.error().failure == hlomem::load_failure::unreadable);
    CHECK(failed.error().file == *missing.live_range_file);
    CHECK(failed.error().message == "cannot open '" + *missing.live_range_file + "'");
}

TEST_CASE("load: a bare module's assignment is derived, with XLA's peak as report prints it", "[load]") {
    hlomem::load_options options;
    options.derive_assignment = true;
    auto seed = hlomem::load(data_path("seeds/001_a0c5460ce1af2dbe.txt"), options);
    REQUIRE(seed);
    REQUIRE(seed->derived);
    REQUIRE(seed->assignment() == &seed->derived->assignment);
    // report_001.out: "XLA's peak at 415 (tuple): 1508041508 bytes (1.40GiB), 122 values listed"
    REQUIRE(seed->derived->peak);
    CHECK(seed->derived->peak->time == 415);
    CHECK(seed->derived->peak->bytes == 1508041508);
    CHECK(seed->derived->peak->values.size() == 122);
    CHECK(seed->derived->scheduled);

    // liveness_conditional.json: "max": 11, "peak_time": 6, "peak_bytes": 81
    auto conditional = hlomem::load(data_path("hand/liveness_conditional.hlo"), options);
    REQUIRE(conditional);
    auto const& derived = *conditional->derived;
    CHECK(derived.assignment.live_range->max == 11);
    REQUIRE(derived.peak);
    CHECK(derived.peak->time == 6);
    CHECK(derived.peak->bytes == 81);
}

TEST_CASE("load: view-policy models keep their texts alive", "[load]") {
    auto r = hlomem::load<hlomem::view_policy>(data_path("hand/two_modules.hlo"));
    REQUIRE(r);
    CHECK(r->texts.size() == 1);
    auto moved = std::move(*r);
    auto const& modules = std::get<std::vector<hlomem::basic_hlo_module<hlomem::view_policy>>>(moved.model);
    REQUIRE(modules.size() == 2);
    CHECK(!std::string_view(modules[0].name()).empty());
    CHECK(std::string_view(modules[0].name()) != std::string_view(modules[1].name()));

    auto text = hlomem::load_text<hlomem::view_policy>(read_data("synthetic/newest_simple-live-range.txt"), "live.txt");
    REQUIRE(text);
    CHECK(text->kind() == dump_kind::live_range);
    CHECK(!std::get<hlomem::basic_hlo_live_range<hlomem::view_policy>>(text->model).instruction_sequence.empty());
}

TEST_CASE("load: errors carry the messages the tool prints", "[load]") {
    auto missing = hlomem::load(data_path("no-such-file.txt"));
    REQUIRE_FALSE(missing);
    CHECK(missing.error().failure == hlomem::load_failure::unreadable);
    CHECK(missing.error().message == "cannot open '" + data_path("no-such-file.txt") + "'");

    // tests/cli/report_malformed.err is this message, printed by `hlomem report` from tests/.
    auto malformed = hlomem::load_text(read_data("synthetic/malformed_flag.txt"), "data/synthetic/malformed_flag.txt");
    REQUIRE_FALSE(malformed);
    CHECK(malformed.error().failure == hlomem::load_failure::unparsable);
    CHECK(malformed.error().message + "\n" == read_data("../cli/report_malformed.err"));

    auto module_error = hlomem::load_text(read_data("hand/undefined_operand.hlo"), "data/hand/undefined_operand.hlo");
    REQUIRE_FALSE(module_error);
    CHECK(module_error.error().message + "\n" == read_data("../cli/report_error.err"));

    auto unknown = hlomem::load_text("hello\n", "hello.txt");
    REQUIRE_FALSE(unknown);
    CHECK(unknown.error().failure == hlomem::load_failure::unknown_kind);
    CHECK_FALSE(unknown.error().parse);
}

TEST_CASE("load: an unparsable text's error has the parse error's parts", "[load]") {
    // malformed/hlo-bad-layout.expected: malformed/hlo-bad-layout.txt:4:28: error: expected ',' or ')'
    auto r = hlomem::load_text(read_data("malformed/hlo-bad-layout.txt"), "malformed/hlo-bad-layout.txt");
    REQUIRE_FALSE(r);
    REQUIRE(r.error().parse);
    auto const& info = *r.error().parse;
    CHECK(info.file == "malformed/hlo-bad-layout.txt");
    CHECK(info.line == 4);
    CHECK(info.column == 28);
    CHECK(info.expected == "',' or ')'");
    CHECK(info.source_line == "  ROOT a = f32[8]{0:T(8,128} parameter(0)");
    CHECK(r.error().message == info.to_string());
}

TEST_CASE("load_view: text the caller owns is read without a copy", "[load]") {
    std::string const text = read_data("synthetic/newest_simple-buffer-assignment.txt");
    auto r = hlomem::load_view<hlomem::view_policy>(text, "dump.txt");
    REQUIRE(r);
    CHECK(r->kind() == dump_kind::buffer_assignment);
    CHECK(r->texts.empty());  // nothing copied, nothing kept: the caller keeps `text`
    auto const& ba = std::get<hlomem::basic_buffer_assignment<hlomem::view_policy>>(r->model);
    REQUIRE_FALSE(ba.values.empty());
    std::string_view const name = ba.values[0].name;
    CHECK(name.data() >= text.data());
    CHECK(name.data() + name.size() <= text.data() + text.size());
    // The same text through the copying loader gives the same model.
    auto copied = hlomem::load_text(text, "dump.txt");
    REQUIRE(copied);
    CHECK(copied->assignment()->values.size() == ba.values.size());
    CHECK(copied->assignment()->total_bytes() == ba.total_bytes());

    // Siblings are looked for beside the name, and read into `texts`.
    hlomem::load_options options;
    options.find_live_range = true;
    auto with_live_ranges = hlomem::load_view<hlomem::view_policy>(text, data_path("synthetic/newest_simple-buffer-assignment.txt"), options);
    REQUIRE(with_live_ranges);
    CHECK(with_live_ranges->live_range_file);
    CHECK(with_live_ranges->texts.size() == 1);
    CHECK(with_live_ranges->assignment()->live_range);

    auto bad = hlomem::load_view(std::string_view("BufferAssignment:\nallocation 0: size x\n"), "bad.txt");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().failure == hlomem::load_failure::unparsable);
    CHECK(bad.error().parse->line == 2);
}
