// Advice inside loops (<hlomem/whatif/advise.hpp>): a real lax.scan whose body holds the peak gets
// an edit inside the while body, named by its computation and caller, and the module written back
// reaches the peak the advice states.
#include <hlomem/hlomem.hpp>
#include <hlomem/output/whatif_report.hpp>
#include <hlomem/whatif.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <cstdint>
#include <sstream>
#include <string>

using hlomem_test::read_data;

namespace {

// The live peak of color 0 of a module's text, derived as for any module (assign_module).
std::int64_t advised_module_live_peak(std::string const& text) {
    auto const m = hlomem::parse_hlo_module(text, "advised");
    hlomem::module_assignment_options o;
    o.positions_and_uses = false;
    auto const r = hlomem::assign_module(m, o);
    for (auto const& c : hlomem::assigned_live_bytes(r.derived->assignment)) {
        if (c.color == 0) return c.peak_bytes;
    }
    return 0;
}

}  // namespace

TEST_CASE("advise: on a lax.scan whose body holds the peak, the edit is inside the while body", "[whatif][corpus]") {
    // scan_window_a (lorrax, JAX on A100): `jit(_scan_window)/jit(main)/while/body/...`; color 0's
    // live peak, 268,758,964 bytes, is at time 113, inside region_0.393_spmd, the body of while.1,
    // whose own values hold 211,276,984 of those bytes.
    auto const text = read_data("corpus/compilations/scan_window_a.after_opt.hlo");
    auto const m = hlomem::parse_hlo_module(text, "scan_window_a");
    hlomem::what_if w(m);
    REQUIRE(w.color_peak(0).bytes == 268758964);
    auto const at = w.liveness().sequence()[static_cast<std::size_t>(w.color_peak_time_original(0))];
    REQUIRE(std::string_view(m.computation(m.instruction(at).computation).name) == "region_0.393_spmd");
    auto const a = hlomem::advise(w);
    REQUIRE(a.chosen.size() == 1);
    auto const& chosen = a.candidates[a.chosen[0]];
    auto const site = hlomem::detail::site_of(m, chosen.outcome.edit);
    CHECK(site.instruction == "loop_complex_fusion");
    CHECK(site.computation == "region_0.393_spmd");
    CHECK(site.called_as == "while_body");
    CHECK(site.caller == "while.1");
    CHECK(chosen.outcome.edit.kind == hlomem::what_if_kind::remat);
    CHECK(chosen.saved == 7372800);
    CHECK(a.colors[0].after.bytes == 268758964 - 7372800);
    // Written back: the clone sits in the body, and the module read again reaches the stated peak.
    auto const edited = hlomem::emit_module(text, w);
    auto const clone = edited.find("%loop_complex_fusion.remat = ");
    REQUIRE(clone != std::string::npos);
    CHECK(edited.rfind("%region_0.393_spmd ", clone) != std::string::npos);
    CHECK(edited.find("\n}", edited.rfind("%region_0.393_spmd ", clone)) > clone);
    CHECK(advised_module_live_peak(edited) == a.colors[0].after.bytes);
    // `hlomem advise --json` names the computation and its caller.
    std::ostringstream json;
    hlomem::print_advice_json(json, w, hlomem::budget_advice{a, std::nullopt}, 10);
    CHECK(json.str().find(R"("instruction": "loop_complex_fusion",
        "computation": "region_0.393_spmd",
        "called_as": "while_body",
        "caller": "while.1",)") != std::string::npos);
}

TEST_CASE("advise: a remat with its operand recomputed in turn is suggested where the remat alone raises the peak", "[whatif]") {
    auto const text = read_data("jax_0_11/mlp_step_1024.txt");
    auto const m = hlomem::parse_hlo_module(text, "mlp_step");
    hlomem::what_if w(m);
    auto const a = hlomem::advise(w);
    bool found = false;
    for (auto const& c : a.candidates) {
        if (c.outcome.edit.kind != hlomem::what_if_kind::remat || std::string_view(m.instruction(c.outcome.edit.instruction).name) != "loop_reduce_fusion") {
            continue;
        }
        found = true;
        CHECK(c.outcome.edit.chain == 2);
        CHECK(c.outcome.instructions_recomputed == 2);
        CHECK(c.saved == 1048576);
        CHECK(c.cost_bytes == 4194304 + 1048576);
    }
    CHECK(found);
    hlomem::advise_options alone;
    alone.remat_chain = 0;
    hlomem::what_if w0(m);
    for (auto const& c : hlomem::advise(w0, alone).candidates) {
        CHECK((c.outcome.edit.kind != hlomem::what_if_kind::remat || std::string_view(m.instruction(c.outcome.edit.instruction).name) != "loop_reduce_fusion"));
    }
}

TEST_CASE("advise: each suggestion says the change in JAX's terms", "[whatif]") {
    auto jax_of = [](char const* file, hlomem::what_if_kind kind) {
        auto const text = read_data(file);
        auto const m = hlomem::parse_hlo_module(text, file);
        hlomem::what_if w(m);
        for (auto const& c : hlomem::advise(w).candidates) {
            if (c.outcome.edit.kind == kind) return hlomem::detail::jax_change(m, c.outcome, hlomem::detail::differentiated(m));
        }
        return std::string();
    };
    // grad_plain (JAX 0.11): parameter 0's op_name is its pytree path, `ws[0]`; JAX donates whole
    // arguments, so the advice names `ws`.
    auto const donate = jax_of("jax_0_11/grad_plain.txt", hlomem::what_if_kind::donate);
    CHECK(donate.find("donate argument 'ws' (donate_argnames=('ws',)") == 0);
    CHECK(donate.find("flat argument 0 is its leaf ws[0]; XLA aliases it to output {0}") != std::string::npos);
    auto const offload = jax_of("jax_0_11/grad_plain.txt", hlomem::what_if_kind::offload);
    CHECK(offload.find("checkpoint_name(x, 'wrapped_tanh_2') at /work/main/devcheck/make_pairs.py:18") != std::string::npos);
    CHECK(offload.find("save_and_offload_only_these_names(names_which_can_be_saved=[], names_which_can_be_offloaded=['wrapped_tanh_2'], "
                       "offload_src='device', offload_dst='pinned_host')") != std::string::npos);
    // fft_cublas_while: the offload is inside the body of while.1, whose function is the one to wrap.
    CHECK(jax_of("corpus/lorrax/lorrax_fft_cublas_while.after_opt.hlo", hlomem::what_if_kind::offload).find("; it is inside the body of while.1") !=
          std::string::npos);
    // scan_window_a takes no gradient (no jvp( or transpose( in its op_names): jax.checkpoint would
    // recompute nothing there.
    CHECK(jax_of("corpus/compilations/scan_window_a.after_opt.hlo", hlomem::what_if_kind::remat).find("no gradient is taken here") == 0);
}
