// The one-line out-of-memory messages and the BFC allocator's log (issue 32,
// parser/oom_messages.hpp): the sample messages of XLA's error pages (E0100, E0101, E1000) and of
// its OOM debugging page read with their figures, checks and verdicts; the real pastes of
// tests/data/oom/messages (each file's first line names its public source) read with every figure
// they state, counted by hand; and every cut or malformed variant of each message is a note,
// never a failure.
#include <hlomem/hlomem.hpp>
#include <hlomem/parser/oom_report.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <cstdint>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace {

using hlomem::oom_report_kind;
using hlomem_test::read_data;

hlomem::oom_log read_messages(std::string const& name) { return hlomem::parse_oom_reports(read_data("oom/messages/" + name), name); }

std::int64_t usage_bytes(hlomem::oom_report const& r, std::string const& name) {
    for (auto const& u : r.usage) {
        if (u.name == name && u.bytes()) return *u.bytes();
    }
    FAIL("no figure " << name);
    return 0;
}

/// The figures the reader read from a report: each printed size or byte count, percent, chunk
/// count and stat, once.
std::size_t figures_read(hlomem::oom_report const& r) {
    std::size_t n = 0;
    for (auto const* f : {&r.requested, &r.capacity, &r.used, &r.exceeded, &r.total_usage, &r.program_requirement}) n += f->has_value();
    for (auto const& u : r.usage) n += static_cast<std::size_t>(u.size.has_value()) + static_cast<std::size_t>(u.exact_bytes.has_value());
    n += r.utilization.has_value();
    auto const& b = r.bfc;
    for (auto const& bin : b.bins) {
        n += 3;  // the bin's size, its chunks and its chunks in use
        for (auto const* f : {&bin.allocated, &bin.client_requested, &bin.in_use, &bin.client_requested_in_use}) n += f->has_value();
    }
    for (auto const& c : b.chunk_sizes) n += 2 + static_cast<std::size_t>(c.total.has_value());
    for (auto const* f : {&b.region_allocated, &b.memory_limit, &b.available, &b.region_allocation}) n += f->has_value();
    n += b.sum_in_use.has_value() + b.stats.size() + static_cast<std::size_t>(b.chunks_in_use + b.chunks_free);
    return n;
}

}  // namespace

TEST_CASE("oom messages: the sample messages of XLA's error pages E0100, E0101 and E1000") {
    auto const log = read_messages("xla_error_pages.txt");
    REQUIRE(log.reports.size() == 4);
    CHECK(log.warnings.empty());

    auto const& e0100 = log.reports[0];
    CHECK(e0100.kind == oom_report_kind::device_allocation);
    CHECK(e0100.requested->text == "8.00M");
    CHECK(usage_bytes(e0100, "free") == hlomem::parse_printed_size("6.43M")->nominal_bytes);
    CHECK(e0100.device == "0x0x1_HBM0");
    auto const v0100 = hlomem::verdict_of(e0100);
    CHECK(v0100.time == "run time");
    CHECK(v0100.outcome == "does_not_fit");  // 8.00M requested, 6.43M free

    auto const& e0101 = log.reports[1];
    CHECK(e0101.kind == oom_report_kind::tpu);
    CHECK(e0101.program_load);
    CHECK(e0101.program_name == "jit_embedding_pipeline_step_fn");
    CHECK(e0101.requested->text == "29.49G");
    CHECK(usage_bytes(e0101, "reservable") == hlomem::parse_printed_size("147.64M")->nominal_bytes);
    auto const v0101 = hlomem::verdict_of(e0101);
    CHECK(v0101.time == "run time");
    CHECK(v0101.outcome == "program_load_blocked");

    auto const& e1000 = log.reports[2];
    CHECK(e1000.kind == oom_report_kind::sparsecore);
    CHECK(usage_bytes(e1000, "TensorCore") == hlomem::parse_printed_size("34.82G")->nominal_bytes);
    CHECK(usage_bytes(e1000, "SparseCore") == hlomem::parse_printed_size("174.10G")->nominal_bytes);
    CHECK(e1000.capacity->text == "95.74G");
    auto const a1000 = hlomem::analyze_report(e1000);
    REQUIRE(a1000.checks.size() == 1);
    CHECK(a1000.checks[0].relation == "TensorCore + SparseCore > available");
    CHECK(a1000.checks[0].agrees);
    auto const v1000 = hlomem::verdict_of(e1000);
    CHECK(v1000.time == "compile time");
    CHECK(v1000.outcome == "sparsecore_over");  // 174.10G alone exceeds 95.74G; 34.82G does not
    CHECK(*v1000.over_by == usage_bytes(e1000, "TensorCore") + usage_bytes(e1000, "SparseCore") - e1000.capacity->size.nominal_bytes);

    auto const& ran_out = log.reports[3];
    CHECK(ran_out.kind == oom_report_kind::tpu);
    CHECK(ran_out.used->text == "49.34G");
    CHECK(hlomem::verdict_of(ran_out).outcome == "does_not_fit");
    CHECK(hlomem::verdict_of(ran_out).time == "compile time");
    CHECK(*hlomem::verdict_of(ran_out).over_by == ran_out.exceeded->size.nominal_bytes);
}

TEST_CASE("oom messages: the OOM debugging page's TPU allocation, GPU failure and the utilization line") {
    auto const log = read_messages("xla_oom_debugging.txt");
    REQUIRE(log.reports.size() == 3);

    auto const& tpu = log.reports[0];
    CHECK(tpu.kind == oom_report_kind::runtime_allocation);
    CHECK(tpu.requested->size.nominal_bytes == 107374182400);
    CHECK(tpu.capacity->size.nominal_bytes == 17179869184);
    CHECK(tpu.memory_space == "hbm");
    REQUIRE(tpu.entries.size() == 1);
    auto const& allocation = tpu.entries[0];
    CHECK(allocation.number == 7);
    CHECK(allocation.shape_text == "u8[327680,327680]{1,0:T(8,128)(4,1)}");
    CHECK(allocation.label == "output of xor_convert_fusion@{}");
    CHECK(allocation.label_instruction->name == "xor_convert_fusion");
    // The shape's size under its tiling is size=: 327680 x 327680 bytes, both dimensions
    // multiples of the tiles (8·4 rows, 128 columns), so no padding.
    auto const a = hlomem::analyze(allocation, tpu.kind);
    CHECK(a.padded_bytes == 107374182400);
    CHECK(a.size.agrees);
    auto const v = hlomem::verdict_of(tpu);
    CHECK(v.outcome == "does_not_fit");
    CHECK(*v.over_by == 107374182400 - 17179869184);
    CHECK(hlomem::analyze_report(tpu).agrees());

    CHECK(log.reports[1].kind == oom_report_kind::gpu);
    CHECK(log.reports[1].requested->size.nominal_bytes == 214748364800);

    auto const& u = log.reports[2];
    CHECK(u.kind == oom_report_kind::utilization);
    CHECK(u.utilization->text == "1.3");
    auto const checks = hlomem::analyze_report(u).checks;
    REQUIRE(checks.size() == 1);
    CHECK(checks[0].agrees);  // 294.49M / 23.01G is 1.2493% to 1.2501%: 1.3% at the top of the range
    CHECK(hlomem::verdict_of(u).outcome == "padding");
}

TEST_CASE("oom messages: the real pastes, every figure they state read (counted by hand)") {
    struct paste {
        char const* file;
        std::vector<oom_report_kind> kinds;
        std::size_t figures;  ///< counted by hand in the paste, as figures_read counts them
    };
    using k = oom_report_kind;
    // Counted by hand: E0100 2 (requested, free); E0101 4 (reserve, free, reserved, reservable);
    // rematerialization 6 (3 sizes, each with its bytes); a BFC bin 6 (bin, chunks, in use and its
    // 3 sizes; 7 in the older form with `client-requested for chunks`); `N Chunks of size S
    // totalling T` 3; the region line 4; each stat 1.
    paste const collection[] = {
        {"xla_error_pages.txt", {k::device_allocation, k::tpu, k::sparsecore, k::tpu}, 2 + 4 + 3 + 3},
        {"xla_oom_debugging.txt", {k::runtime_allocation, k::gpu, k::utilization}, 2 + 1 + 3},
        {"colabtools_5126.txt", {k::device_allocation}, 2},
        {"diffusers_8358.txt", {k::device_allocation, k::device_allocation}, 4},
        {"pytorch_xla_8020.txt", {k::device_allocation}, 2},
        {"pytorch_xla_4847.txt", {k::tpu}, 4},
        {"enzyme_jax_1363.txt", {k::rematerialization, k::rematerialization}, 12},
        {"enzyme_jax_1307.txt", {k::rematerialization}, 6},
        {"flowdec_32.txt", {k::bfc}, 5 * 3 + 1 + 4 + 5},
        {"darkflow_564.txt", {k::bfc}, 1 + 5 * 6},
        {"keras_11624.txt", {k::bfc}, 6 * 6},
        {"gpt_2_simple_189.txt", {k::bfc}, 6 * 6},
        {"tf_faster_rcnn_7.txt", {k::bfc}, 6 * 7},
        {"nemos_345.txt", {k::gpu, k::bfc, k::bfc, k::bfc}, 1 + 3},
    };
    std::size_t total = 0;
    for (auto const& p : collection) {
        INFO(p.file);
        auto const log = read_messages(p.file);
        std::vector<oom_report_kind> kinds;
        std::size_t figures = 0;
        for (auto const& r : log.reports) {
            kinds.push_back(r.kind);
            figures += figures_read(r);
            auto const analysis = hlomem::analyze_report(r);
            for (auto const& c : analysis.checks) {
                INFO(c.message);
                CHECK(c.agrees);
            }
            auto const v = hlomem::verdict_of(r);
            CHECK(!v.text.empty());
        }
        CHECK(kinds == p.kinds);
        CHECK(figures == p.figures);
        total += figures;
    }
    CHECK(total == 222);
}

TEST_CASE("oom messages: the BFC log's sums and the verdicts of the pastes") {
    auto const flowdec = read_messages("flowdec_32.txt");
    REQUIRE(flowdec.reports.size() == 1);
    auto const& b = flowdec.reports[0].bfc;
    // 9·256 + 1024 + 1280 + 64000 + 2·2233958400 = 4467985408 = InUse.
    CHECK(*b.stat("InUse") == 4467985408);
    CHECK(*b.memory_limit - *b.region_allocated == *b.available);
    CHECK(hlomem::analyze_report(flowdec.reports[0]).checks.size() == 7);

    auto const nemos = read_messages("nemos_345.txt");
    CHECK(hlomem::verdict_of(nemos.reports[1]).outcome == "not_a_failure");
    CHECK(nemos.reports[1].bfc.allocator == "GPU_0_bfc");

    auto const remat = read_messages("enzyme_jax_1307.txt");
    auto const v = hlomem::verdict_of(remat.reports.at(0));
    CHECK(v.outcome == "rematerialization_short");
    CHECK(*v.over_by == 60775368484 - 11429599125);

    auto const keras = read_messages("keras_11624.txt");
    CHECK(keras.reports.at(0).bfc.bins.at(5).chunks_in_use == 0);  // Bin (262144): one free chunk of 417.8KiB

    // The HLO temp line of a TPU summary carries a utilization line too (pytorch/xla#1735).
    auto const summary = hlomem::parse_oom_reports(read_data("oom/pastes/pytorch_xla_1735.txt"), "pytorch_xla_1735.txt");
    bool utilization = false;
    for (auto const& c : hlomem::analyze_report(summary.reports.at(0)).checks) {
        if (c.relation != "unpadded / padded = utilization") continue;
        utilization = true;
        CHECK(c.agrees);  // 3.81G / 3.92G rounds to 97.4% within the printed ranges
    }
    CHECK(utilization);
}

TEST_CASE("oom messages: fits in total but fragmented, by XLA's rules") {
    // E0100: the request is below the free total (error_0100: "Memory Fragmentation").
    auto const e0100 = hlomem::parse_oom_reports(
        "RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to allocate 8.00M. That was not possible. There are 16.00M free.; (0x0x0_HBM0)\n",
        "t");
    CHECK(hlomem::verdict_of(e0100.reports.at(0)).outcome == "fragmented");
    // BFC: a request below Limit - InUse but above LargestFreeBlock (bfc_allocator.cc, FindChunkPtr
    // looks for one chunk at least as large as the request).
    auto const bfc = hlomem::parse_oom_reports("W bfc_allocator.cc:310] Allocator (GPU_0_bfc) ran out of memory trying to allocate 2.00GiB.\n"
                                               "Stats:\n"
                                               "Limit:        8589934592\n"
                                               "InUse:        4294967296\n"
                                               "LargestFreeBlock: 1073741824\n",
                                               "t");
    REQUIRE(bfc.reports.size() == 1);
    auto const v = hlomem::verdict_of(bfc.reports[0]);
    CHECK(v.outcome == "fragmented");
    CHECK(hlomem::analyze_report(bfc.reports[0]).agrees());
}

TEST_CASE("oom messages: every cut or malformed variant of each message is a note, never a failure") {
    std::string const samples[] = {
        "ValueError: RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to allocate 8.00M. That was not possible. There are 6.43M free.; (0x0x1_HBM0)",
        "RESOURCE_EXHAUSTED: Error loading program 'jit_f': Attempting to reserve 29.49G at the bottom of memory. That was not possible. There are 147.64M free, 0B reserved, and 147.64M reservable.",
        "RESOURCE_EXHAUSTED: TPU TensorCore Hbm usage: 34.82G, SparseCore Hbm usage 174.10G, exceeding available bytes: 95.74G",
        "RESOURCE_EXHAUSTED: Allocation (size=107374182400) would exceed memory (size=17179869184) :: #allocation7 [shape = 'u8[327680,327680]{1,0:T(8,128)(4,1)}', space=hbm, size = 0xffffffffffffffff, tag = 'output of xor_convert_fusion@{}'] :: <no-hlo-instruction>",
        "1.3% utilization: Unpadded (294.49M) Padded (23.01G)",
        "W hlo_rematerialization.cc:3183] Can't reduce memory use below 10.64GiB (11429599125 bytes) by rematerialization; only reduced to 56.60GiB (60775368484 bytes), down from 66.05GiB (70922254524 bytes) originally",
        "total memory required for HLO temporaries (20.00G) exceeds available HBM (15.48G)",
        "Allocator (GPU_0_bfc) ran out of memory trying to allocate 84.50MiB.  Current allocation summary follows.",
        "Bin (256): \tTotal Chunks: 94, Chunks in use: 94. 23.5KiB allocated for chunks. 23.5KiB in use in bin. 9.0KiB client-requested in use in bin.",
        "2 Chunks of size 2233958400 totalling 4.16GiB",
        "total_region_allocated_bytes_: 8590983168 memory_limit_: 10562958132 available bytes: 1971974964",
    };
    std::size_t cut_noted = 0;
    for (auto const& s : samples) {
        auto const whole = hlomem::parse_oom_reports(s, "t");
        REQUIRE(whole.reports.size() == 1);
        INFO(s);
        CHECK(whole.reports[0].notes.empty());
        for (std::size_t n = 0; n < s.size(); ++n) {
            auto const cut = hlomem::try_parse_oom_reports(std::string_view(s).substr(0, n), "t");
            REQUIRE(cut);
            for (auto const& r : cut->reports) {
                (void)hlomem::analyze_report(r);
                (void)hlomem::verdict_of(r);
                // A report whose message lost a figure says so.
                if (r.kind == whole.reports[0].kind && figures_read(r) < figures_read(whole.reports[0]) && !r.notes.empty()) ++cut_noted;
            }
        }
    }
    CHECK(cut_noted > 300);
    // Malformed: a size that is not a number, a shape that does not read.
    auto const bad_size = hlomem::parse_oom_reports("Allocation (size=12x) would exceed memory (size=16)", "t");
    REQUIRE(bad_size.reports.size() == 1);
    CHECK(bad_size.reports[0].notes.at(0).message == "the message ends before its allocation size (cut off)");
    auto const bad_shape = hlomem::parse_oom_reports(
        "Allocation (size=16) would exceed memory (size=8) :: #allocation1 [shape = 'u8[16]{0,0}', space=hbm, size = 0x10, tag = 'x'] :: <no-hlo-instruction>",
        "t");
    REQUIRE(bad_shape.reports.at(0).notes.size() == 1);
    CHECK(bad_shape.reports[0].notes[0].message.find("the shape of #allocation1 does not read") == 0);
}

TEST_CASE("oom messages: a BFC log of JAX 0.11.2 on an H100, full then fragmented") {
    // tests/data/oom/messages/README.md has the program: 59 arrays of 1 GiB fill the 59.38 GiB
    // pool; every other one is freed; 2 GiB do not fit in any 1 GiB hole.
    auto const log = read_messages("h100_jax_0_11_fragmented.txt");
    std::vector<oom_report_kind> kinds;
    for (auto const& r : log.reports) kinds.push_back(r.kind);
    CHECK(kinds == std::vector<oom_report_kind>{oom_report_kind::bfc, oom_report_kind::gpu, oom_report_kind::bfc, oom_report_kind::gpu});
    for (auto const& r : log.reports) {
        for (auto const& c : hlomem::analyze_report(r).checks) {
            INFO(c.message);
            CHECK(c.agrees);
        }
    }
    auto const& full = log.reports[0];
    CHECK(*full.bfc.rounded_request == 1073741824);
    CHECK(full.bfc.bins.size() == 21);
    CHECK(full.bfc.printed_stat("LargestFreeBlock")->text == "394.00MiB");
    CHECK(hlomem::verdict_of(full).outcome == "does_not_fit");  // 1 GiB against 59.38 - 59.00 GiB free
    auto const& holes = log.reports[2];
    CHECK(*holes.bfc.rounded_request == 2147483648);
    CHECK(holes.bfc.bins.back().total_chunks == 58);
    CHECK(holes.bfc.bins.back().chunks_in_use == 29);
    CHECK(holes.bfc.printed_stat("LargestFreeBlock")->text == "1.38GiB");
    auto const v = hlomem::verdict_of(holes);
    CHECK(v.outcome == "fragmented");  // 30.38 GiB free, the largest free block 1.38 GiB
    CHECK(v.text.find("29.00GiB in 29 chunks of bin 256.00MiB") != std::string::npos);
    CHECK(log.reports[3].requested->text == "2.00GiB");
    // Each in-use chunk is tagged `allocation_annotation xla.execute{executable=NAME}`: the 59 (then
    // 29) arrays of 1 GiB are jit_broadcast_in_dim's, the 256-byte chunk jit_convert_element_type's
    // (in the order the log names them first; the text puts the most bytes first).
    using owner = std::tuple<std::string, std::int64_t, std::int64_t>;
    auto owners = [](hlomem::oom_report const& r) {
        std::vector<owner> out;
        for (auto const& o : r.bfc.in_use_by_executable) out.emplace_back(o.executable, o.chunks, o.bytes);
        return out;
    };
    CHECK(owners(full) == std::vector<owner>{{"jit_convert_element_type", 1, 256}, {"jit_broadcast_in_dim", 59, 63350767616}});
    CHECK(owners(holes) == std::vector<owner>{{"jit_broadcast_in_dim", 29, 31138512896}, {"jit_convert_element_type", 1, 256}});
    std::ostringstream text;
    hlomem::print_oom_log_text(text, log);
    CHECK(text.str().find("    jit_broadcast_in_dim: 29.00GiB in 29 chunks\n    jit_convert_element_type: 256B in 1 chunk\n") !=
          std::string::npos);
}
