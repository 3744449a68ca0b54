// What-if edits on scheduled modules (<hlomem/whatif.hpp>): every estimate is checked by writing
// the edited module as HLO text, reading it back and deriving its peak (assign_module), on every
// bundled module that has a schedule.
#include <hlomem/hlomem.hpp>
#include <hlomem/whatif.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

using hlomem_test::read_data;

namespace {

// Every bundled module printed with a schedule: the corpus's and the seeds' with modules.
std::vector<std::string> const scheduled_modules = {
    "corpus/compilations/reshard_xfirst.after_opt.hlo", "corpus/compilations/reshard_yfirst.after_opt.hlo",
    "corpus/compilations/scan_window_a.after_opt.hlo", "corpus/compilations/scan_window_b.after_opt.hlo",
    "corpus/compilations/sternheimer_core_a.after_opt.hlo", "corpus/compilations/sternheimer_core_b.after_opt.hlo",
    "corpus/lorrax/lorrax_apply_H_sparse.after_opt.hlo", "corpus/lorrax/lorrax_bse_full_run_large.after_opt.hlo",
    "corpus/lorrax/lorrax_conditional.after_opt.hlo", "corpus/lorrax/lorrax_cpu_broadcast_in_dim.after_opt.hlo",
    "corpus/lorrax/lorrax_cpu_true_divide.after_opt.hlo", "corpus/lorrax/lorrax_donated_param_output_alias.after_opt.hlo",
    "corpus/lorrax/lorrax_fft_cublas_while.after_opt.hlo", "corpus/lorrax/lorrax_iota_tiny.after_opt.hlo",
    "corpus/lorrax/lorrax_post_kpath_customcall_tuple.after_opt.hlo", "corpus/lorrax/lorrax_psum_4gpu.after_opt.hlo",
    "corpus/lorrax/lorrax_reshard_xfirst_async_collectives.after_opt.hlo", "corpus/lorrax/lorrax_scan_while_phi.after_opt.hlo",
    "corpus/lorrax/lorrax_scatter_while_threadlocal.after_opt.hlo", "corpus/lorrax/lorrax_svd_param_maybe_live_out.after_opt.hlo",
    "corpus/regressions/jit__batched_chol_06a294ff.after_opt.hlo", "corpus/regressions/jit__batched_chol_68697f6f.after_opt.hlo",
    "corpus/regressions/jit__ritz_and_residuals_0dec5fcd.after_opt.hlo", "seeds/001_a0c5460ce1af2dbe.txt",
    "seeds/004_c00fd3afea504246.txt",
};

struct derived_peaks {
    hlomem::what_if_peak xla;
    std::map<std::int64_t, hlomem::what_if_peak> live;
};

derived_peaks derive(std::string const& text) {
    auto const m = hlomem::parse_hlo_module(text, "edited");
    hlomem::module_assignment_options o;
    o.positions_and_uses = false;
    auto const r = hlomem::assign_module(m, o);
    derived_peaks out;
    if (r.derived->peak) out.xla = {r.derived->peak->time, r.derived->peak->bytes};
    for (auto const& c : hlomem::assigned_live_bytes(r.derived->assignment)) out.live[c.color] = {c.peak_time, c.peak_bytes};
    return out;
}

// The soundness findings of the assignment `hlomem assign` predicts for a module's text; an edited
// module may have no more than its original (some bundled modules' own predictions have findings
// that XLA's dumps of them also have), the original's counted once.
std::size_t predicted_violations(std::string const& text) {
    hlomem::assign_options options;
    return hlomem::check_soundness(hlomem::predict_assignment(hlomem::parse_hlo_module(text, "edited"), options, false).assignment).size();
}
std::size_t original_violations(std::string const& text) {
    static std::map<std::size_t, std::size_t> known;
    auto const key = std::hash<std::string>()(text);
    auto it = known.find(key);
    if (it == known.end()) it = known.emplace(key, predicted_violations(text)).first;
    return it->second;
}

// The edited module read back: its derived XLA peak and each color's live peak are the estimate,
// and the assignment predicted for it is as sound as the original's.
void check_written_back(hlomem::what_if const& w, std::string const& text) {
    auto const edited = hlomem::emit_module(text, w);
    CHECK(predicted_violations(edited) <= original_violations(text));
    auto const d = derive(edited);
    CHECK(d.xla.time == w.peak().time);
    CHECK(d.xla.bytes == w.peak().bytes);
    for (auto const& [color, p] : d.live) {
        CAPTURE(color);
        CHECK(p.bytes == w.color_peak(color).bytes);
        if (p.bytes > 0) CHECK(p.time == w.color_peak(color).time);
        CHECK(hlomem::what_if(hlomem::parse_hlo_module(edited, "edited")).color_curve(color) == w.color_curve(color));
    }
}

struct accepted_count {
    int donate = 0, remat = 0, offload = 0, chain = 0;
};

}  // namespace

TEST_CASE("whatif: before any edit, the peaks are the derived model's", "[whatif][corpus]") {
    auto const& file = GENERATE(from_range(scheduled_modules));
    CAPTURE(file);
    auto const text = read_data(file);
    auto const m = hlomem::parse_hlo_module(text, file);
    hlomem::what_if const w(m);
    check_written_back(w, text);
    CHECK(hlomem::emit_module(text, w) == text);
}

TEST_CASE("whatif: every edit of every value live at the peak, written back, has the estimated peak", "[whatif][corpus]") {
    accepted_count total;
    for (auto const& file : scheduled_modules) {
        CAPTURE(file);
        auto const text = read_data(file);
        auto const m = hlomem::parse_hlo_module(text, file);
        hlomem::what_if w(m);
        auto const before = w.peak();
        hlomem::logical_time const at = w.peak_time_original();
        for (std::size_t k : w.live_at_color_peak(0)) {
            auto const i = w.edit_instruction(k);
            for (auto const& e : {hlomem::what_if_edit::remat(i, at), hlomem::what_if_edit::offload(i, at),
                                  hlomem::what_if_edit::remat(i, at + 1), hlomem::what_if_edit::offload(i, at + 1),
                                  hlomem::what_if_edit::remat(i, at, 2), hlomem::what_if_edit::remat(i, at + 1, 2)}) {
                auto const o = w.apply(e);
                CAPTURE(o.reason);
                if (!o.accepted) {
                    CHECK(!o.reason.empty());
                    continue;
                }
                // A chain's operands recomputed are counted apart; without one it is the remat alone.
                if (e.chain > 0 && o.instructions_recomputed == 1) {
                    w.undo();
                    continue;
                }
                (e.chain > 0 ? total.chain : e.kind == hlomem::what_if_kind::remat ? total.remat : total.offload) += 1;
                check_written_back(w, text);
                w.undo();
            }
        }
        for (std::int64_t p = 0; p < static_cast<std::int64_t>(m.parameters(m.entry()).size()); ++p) {
            auto const o = w.apply(hlomem::what_if_edit::donate(p));
            if (!o.accepted) continue;
            ++total.donate;
            check_written_back(w, text);
            w.undo();
        }
        CHECK(w.peak().time == before.time);
        CHECK(w.peak().bytes == before.bytes);
    }
    CHECK(total.donate == 3);
    CHECK(total.remat == 15);
    CHECK(total.offload == 9);
    CHECK(total.chain == 5);
}

TEST_CASE("whatif: random sets of edits compose, and each set written back has the estimated peak", "[whatif][corpus]") {
    std::mt19937 rng(2026);
    int composed = 0;
    for (auto const& file : scheduled_modules) {
        CAPTURE(file);
        auto const text = read_data(file);
        auto const m = hlomem::parse_hlo_module(text, file);
        hlomem::what_if w(m);
        auto const before = w.peak();
        // Drawn from the values an edit may move (and the parameters): random ones are mostly not.
        std::vector<hlomem::instruction_id> movable;
        for (std::size_t k = 0; k < w.liveness().dataflow().values().size(); ++k) {
            if (w.why_not_movable(k, false).empty()) movable.push_back(w.edit_instruction(k));
        }
        std::size_t const parameters = m.parameters(m.entry()).size();
        for (int attempt = 0; attempt < 60 && w.edits().size() < 4 && !(movable.empty() && parameters == 0); ++attempt) {
            int const kind = movable.empty() ? 0 : static_cast<int>(rng() % 3);
            auto const i = movable.empty() ? 0 : movable[rng() % movable.size()];
            hlomem::logical_time const from = static_cast<hlomem::logical_time>(rng() % static_cast<std::uint32_t>(w.liveness().max() + 1));
            auto const e = kind == 0   ? hlomem::what_if_edit::donate(static_cast<std::int64_t>(rng() % (parameters + 1)))
                           : kind == 1 ? hlomem::what_if_edit::remat(i, from, rng() % 3)
                                       : hlomem::what_if_edit::offload(i, from);
            if (w.apply(e).accepted) check_written_back(w, text);
        }
        composed += static_cast<int>(w.edits().size());
        while (!w.edits().empty()) w.undo();
        CHECK(w.peak().time == before.time);
        CHECK(w.peak().bytes == before.bytes);
    }
    CHECK(composed == 12);
}

TEST_CASE("whatif: a module's input_output_alias removed and donated back is XLA's module and dump", "[whatif][corpus]") {
    // The bundled modules with an input_output_alias; the first three come with XLA's dump.
    auto const& base = GENERATE(as<std::string>{}, "corpus/lorrax/lorrax_donated_param_output_alias",
                                "corpus/lorrax/lorrax_svd_param_maybe_live_out", "corpus/lorrax/lorrax_cpu_true_divide",
                                "seeds/004_c00fd3afea504246");
    CAPTURE(base);
    bool const seed = base.rfind("seeds/", 0) == 0;
    auto const text = read_data(base + (seed ? ".txt" : ".after_opt.hlo"));
    auto const original = hlomem::parse_hlo_module(text, base);
    auto const bare_text = hlomem::without_input_output_alias(text);
    auto const bare = hlomem::parse_hlo_module(bare_text, base);
    CHECK(bare.input_output_aliases().empty());
    hlomem::what_if w(bare);
    for (auto const& a : original.input_output_aliases()) {
        std::vector<std::int64_t> index(a.parameter_index.begin(), a.parameter_index.end());
        auto const o = w.apply(hlomem::what_if_edit::donate(a.parameter_number, index));
        CAPTURE(a.parameter_number, o.reason);
        REQUIRE(o.accepted);
        CHECK(std::vector<std::int64_t>(a.output_index.begin(), a.output_index.end()) == o.output_index);
    }
    auto const back = hlomem::emit_module(bare_text, w);
    if (!original.input_output_aliases().empty() && text.find("input_output_alias={ ") != std::string::npos) CHECK(back == text);
    check_written_back(w, bare_text);
    hlomem::what_if const w0(original);
    CHECK(w.peak().bytes == w0.peak().bytes);
    CHECK(w.peak().time == w0.peak().time);
    if (seed) return;
    auto const actual = hlomem::parse_buffer_assignment(read_data(base + ".buffer_assignment.txt"), base);
    hlomem::assign_options options;
    options.alignment = hlomem::alignment_of_dump(actual, hlomem::xla_backend::gpu);  // the dump's XLA's
    auto const predicted = hlomem::predict_assignment(hlomem::parse_hlo_module(back, base), options, false).assignment;
    auto const c = hlomem::compare_assignments(predicted, actual);
    CHECK(c.predicted_total == c.actual_total);
    CHECK(c.allocations_same_multiset);
    CHECK(c.exact());
}

TEST_CASE("whatif: a parameter that is itself an output is donated to that output, as XLA aliases it", "[whatif]") {
    // jit(lambda x, y: (x, -y), donate_argnums=0) after optimization, its alias taken out: the root
    // returns parameter 0 itself. XLA aliases it to output {0} (HloInputOutputAliasConfig) and
    // needs no copy; the buffer is the parameter's either way, so no live range moves.
    std::string const bare_text =
        "HloModule jit_f, is_scheduled=true, entry_computation_layout={(f32[256]{0}, f32[256]{0})->(f32[256]{0}, f32[256]{0})}\n"
        "\n"
        "ENTRY %main.4 (x.1: f32[256], y.1: f32[256]) -> (f32[256], f32[256]) {\n"
        "  %x.1 = f32[256]{0} parameter(0)\n"
        "  %y.1 = f32[256]{0} parameter(1)\n"
        "  %negate.2 = f32[256]{0} negate(f32[256]{0} %y.1)\n"
        "  ROOT %tuple.3 = (f32[256]{0}, f32[256]{0}) tuple(f32[256]{0} %x.1, f32[256]{0} %negate.2)\n"
        "}\n";
    auto const bare = hlomem::parse_hlo_module(bare_text, "jit_f");
    hlomem::what_if w(bare);
    auto const before = w.peak();
    auto const o = w.apply(hlomem::what_if_edit::donate(0));
    CAPTURE(o.reason);
    REQUIRE(o.accepted);
    CHECK(o.output_index == std::vector<std::int64_t>{0});
    CHECK(w.peak().bytes == before.bytes);
    CHECK(w.apply(hlomem::what_if_edit::donate(0)).reason == "parameter 0 is already donated");
    auto const back = hlomem::emit_module(bare_text, w);
    CHECK(back.find("input_output_alias={ {0}: (0, {}, may-alias) }") != std::string::npos);
    auto const aliased = hlomem::parse_hlo_module(back, "jit_f");
    REQUIRE(aliased.input_output_aliases().size() == 1);
    CHECK(aliased.input_output_aliases()[0].parameter_number == 0);
    check_written_back(w, bare_text);
}

TEST_CASE("whatif: edits XLA would refuse are refused with its reason", "[whatif]") {
    auto const text = read_data("corpus/lorrax/lorrax_donated_param_output_alias.after_opt.hlo");
    auto const m = hlomem::parse_hlo_module(text, "alias");
    hlomem::what_if w(m);
    CHECK(w.apply(hlomem::what_if_edit::donate(0)).reason == "parameter 0 is already aliased to output {}");
    CHECK(w.apply(hlomem::what_if_edit::donate(1)).reason == "the entry has no parameter 1");
    CHECK(w.apply(hlomem::what_if_edit::remat(m.parameters(m.entry())[0], 1)).reason.find("is a parameter: donate it instead") !=
          std::string::npos);
    CHECK(w.edits().empty());
    auto const seed = read_data("seeds/004_c00fd3afea504246.txt");
    auto const bare = hlomem::parse_hlo_module(hlomem::without_input_output_alias(seed), "004");
    hlomem::what_if w4(bare);
    CHECK(w4.apply(hlomem::what_if_edit::donate(72)).reason == "no output has the shape s32[8,8192]{1,0} of parameter 72");
}

namespace {

hlomem::instruction_id named(hlomem::hlo_module const& m, std::string_view name) {
    for (hlomem::instruction_id i = 0; i < m.instruction_count(); ++i) {
        if (std::string_view(m.instruction(i).name) == name) return i;
    }
    return hlomem::no_instruction;
}

hlomem::what_if_outcome require_accepted(hlomem::what_if& w, hlomem::what_if_edit const& e) {
    auto o = w.apply(e);
    CAPTURE(o.reason);
    REQUIRE(o.accepted);
    return o;
}

std::vector<std::string> inserted_names(hlomem::hlo_module const& m, hlomem::what_if_outcome const& o) {
    std::vector<std::string> out;
    for (auto const& in : o.inserted) out.emplace_back(std::string_view(m.instruction(in.source).name));
    return out;
}

}  // namespace

TEST_CASE("whatif: a value forwarded by bitcasts is offloaded and rematerialized with its reads through them", "[whatif]") {
    // Seed 004: loop_convert_fusion.17 (bf16[8,8192,32768], 4 GiB) is live at color 0's peak (time
    // 777); bitcast.26030.0 forwards it before the peak, bitcast.27106.0 after it, whose reader is
    // the next read. That bitcast reads the copy back (or the clone) and forwards it on.
    auto const text = read_data("seeds/004_c00fd3afea504246.txt");
    auto const m = hlomem::parse_hlo_module(text, "004");
    hlomem::what_if w(m);
    REQUIRE(w.color_peak(0).bytes == 60851415272);
    REQUIRE(w.color_peak_time_original(0) == 777);
    auto const x = named(m, "loop_convert_fusion.17");
    auto const off = require_accepted(w, hlomem::what_if_edit::offload(x, 777));
    CHECK(off.bytes_to_host == 4294967296);
    CHECK(off.rewired == std::vector<hlomem::instruction_id>{named(m, "bitcast.27106.0")});
    CHECK(w.color_peak(0).bytes == 60851415272 - 4294967296);
    check_written_back(w, text);
    w.undo();
    auto const re = require_accepted(w, hlomem::what_if_edit::remat(x, 777));
    CHECK(re.bytes_recomputed == 4294967296);
    CHECK(re.rewired == std::vector<hlomem::instruction_id>{named(m, "bitcast.27106.0")});
    CHECK(w.color_peak(0).bytes == 60851415272 - 4294967296);
    check_written_back(w, text);
}

TEST_CASE("whatif: an element of a multi-output fusion is offloaded, or its fusion re-run", "[whatif]") {
    // Seed 004: input_convert_reduce_fusion.8 = (bf16[8,8192,32768], f32[8,8192,128]) fusion(...);
    // its element {0} (4 GiB), read through get-tuple-element.4248 and bitcast.26434.0, is live at
    // color 0's peak.
    auto const text = read_data("seeds/004_c00fd3afea504246.txt");
    auto const m = hlomem::parse_hlo_module(text, "004");
    hlomem::what_if w(m);
    auto const gte = named(m, "get-tuple-element.4248");
    REQUIRE(w.edit_instruction(w.value_of(gte)) == gte);
    auto const off = require_accepted(w, hlomem::what_if_edit::offload(gte, 777));
    CHECK(off.bytes_to_host == 4294967296);
    // copy-start reads bitcast.26434.0, the position its next reader (custom-call.1191) reads.
    CHECK(inserted_names(m, off) == std::vector<std::string>(4, "bitcast.26434.0"));
    CHECK(w.color_peak(0).bytes == 60851415272 - 4294967296);
    check_written_back(w, text);
    w.undo();
    // The clone re-runs the whole fusion: both elements (4 GiB + 32 MiB) written, the one not
    // read again alive at the clone only; here the clone's own moment is the new peak.
    auto const re = require_accepted(w, hlomem::what_if_edit::remat(gte, 777));
    CHECK(re.bytes_recomputed == 4294967296 + 33554432);
    CHECK(inserted_names(m, re) == std::vector<std::string>{"input_convert_reduce_fusion.8", "get-tuple-element.4248", "bitcast.26434.0"});
    CHECK(w.color_peak(0).bytes == 60852201704);
    check_written_back(w, text);
    w.undo();
    // Other tuple producers are refused, saying which.
    std::string while_reason;
    for (std::size_t k : w.live_at_color_peak(0)) {
        auto const& v = w.liveness().dataflow().values()[k];
        if (v.node != 0 && std::string_view(m.instruction(v.instruction).name) == "while.74") {
            while_reason = w.apply(hlomem::what_if_edit::remat(w.edit_instruction(k), 777)).reason;
            break;
        }
    }
    CHECK(while_reason.rfind("while.74{", 0) == 0);
    CHECK(while_reason.find(" is a while loop's state: HloAliasAnalysis gives the loop's operand, its body's parameter and root and its "
                            "result one HloBuffer at each index") != std::string::npos);
    CHECK(w.edits().empty());
}

TEST_CASE("whatif: a remat recomputes its operands in turn where keeping them would raise the peak", "[whatif]") {
    // JAX 0.11 mlp_step (tests/data/jax_0_11): loop_reduce_fusion (f32[256,1024], 1 MiB) sums the
    // split-K partials of gemm_fusion_dot.4 (f32[4,256,1024], 4 MiB), which die at it; it is read
    // again in the backward pass (loop_multiply_fusion.1, gemm_fusion_dot.1).
    auto const text = read_data("jax_0_11/mlp_step_1024.txt");
    auto const m = hlomem::parse_hlo_module(text, "mlp_step");
    hlomem::what_if w(m);
    REQUIRE(w.color_peak(0).bytes == 60833808);
    auto const x = named(m, "loop_reduce_fusion");
    // Alone, the clone keeps gemm_fusion_dot.4 live to it: the peak grows by 4 MiB less 1 MiB.
    auto const alone = require_accepted(w, hlomem::what_if_edit::remat(x, 43));
    CHECK(alone.instructions_recomputed == 1);
    CHECK(w.color_peak(0).bytes == 60833808 + 4194304 - 1048576);
    check_written_back(w, text);
    w.undo();
    // With its operand recomputed in turn (the split-K dot, from operands live anyway), 1 MiB off.
    auto const chained = require_accepted(w, hlomem::what_if_edit::remat(x, 43, 2));
    CHECK(chained.instructions_recomputed == 2);
    CHECK(chained.bytes_recomputed == 4194304 + 1048576);
    CHECK(inserted_names(m, chained) == std::vector<std::string>{"gemm_fusion_dot.4", "loop_reduce_fusion"});
    CHECK(w.color_peak(0).bytes == 60833808 - 1048576);
    check_written_back(w, text);
    auto const edited = hlomem::emit_module(text, w);
    CHECK(edited.find("%loop_reduce_fusion.remat = f32[256,1024]{1,0} fusion(%gemm_fusion_dot.4.remat)") != std::string::npos);
}

TEST_CASE("whatif: advice under 90% of each peak: a set said to fit, written back, is within the budget", "[whatif][corpus]") {
    int fitting = 0, suggested = 0;
    for (auto const& file : scheduled_modules) {
        CAPTURE(file);
        auto const text = read_data(file);
        auto const m = hlomem::parse_hlo_module(text, file);
        hlomem::what_if w(m);
        auto const a = hlomem::advise(w);
        suggested += a.candidates.empty() ? 0 : 1;
        for (std::size_t j = 1; j < a.candidates.size(); ++j) CHECK(a.candidates[j - 1].ratio() >= a.candidates[j].ratio());
        CHECK(w.edits().size() == a.chosen.size());
        auto const d = derive(hlomem::emit_module(text, w));
        for (auto const& c : a.colors) {
            CAPTURE(c.color);
            CHECK(d.live.at(c.color).bytes == c.after.bytes);
            CHECK(c.fits == (c.after.bytes <= c.budget));
            if (c.fits) ++fitting;
            if (!c.fits) CHECK(!c.obstacles.empty());
        }
    }
    CHECK(suggested == 9);
    CHECK(fitting == 3);
}
