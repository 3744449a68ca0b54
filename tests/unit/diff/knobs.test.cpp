// The knobs of a diff (hlomem/diff/knobs.hpp): on real pairs where the setting that changed is known
// (tests/data/jax_0_11: grad_plain and grad_ckpt, the same network with each layer under
// jax.checkpoint; unused_donation, whose donors no output could take) and on pairs that a what-if
// makes from one real module (a donation, a recomputation, an offload), written as HLO text and
// read back: the diff of a module and its edited copy must name the edit that was made.
#include <hlomem/diff.hpp>
#include <hlomem/hlomem.hpp>
#include <hlomem/whatif.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <utility>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

using hlomem_test::read_data;

namespace {

/// A side as `hlomem diff` reads it: a dump with the module beside it (or a module, whose
/// assignment is derived), each value's metadata, and the donations read with the module.
struct knob_input {
    hlomem::load_result<hlomem::loaded> loaded;
    hlomem::source_attribution sources;
    hlomem::donation_analysis donations;

    explicit knob_input(hlomem::load_result<hlomem::loaded> l) : loaded(std::move(l)) {
        REQUIRE(loaded);
        sources = hlomem::attribute_values(*loaded);
        donations = hlomem::analyze_donations(*loaded->assignment(), loaded->assignment_module());
    }
};

std::unique_ptr<knob_input> load_input(std::string const& relative) {
    hlomem::load_options options;
    options.find_module = true;
    options.find_live_range = true;
    options.derive_assignment = true;
    return std::make_unique<knob_input>(hlomem::load(std::string(HLOMEM_TEST_DATA_DIR) + "/" + relative, options));
}

std::unique_ptr<knob_input> text_input(std::string const& text, std::string const& name) {
    hlomem::load_options options;
    options.derive_assignment = true;
    return std::make_unique<knob_input>(hlomem::load_text(text, name, options));
}

hlomem::assignment_diff knob_diff(knob_input const& a, knob_input const& b) {
    hlomem::diff_options options;
    options.donations_a = &a.donations;
    options.donations_b = &b.donations;
    return hlomem::diff_assignments(*a.loaded->assignment(), a.sources, *b.loaded->assignment(), b.sources, options);
}

hlomem::knob_verdict const* find_knob(hlomem::assignment_diff const& d, hlomem::knob_kind k) {
    auto it = std::find_if(d.knobs.begin(), d.knobs.end(), [&](hlomem::knob_verdict const& v) { return v.knob == k; });
    return it == d.knobs.end() ? nullptr : &*it;
}

bool lists_value(hlomem::knob_verdict const& k, char side, std::string const& name) {
    return std::any_of(k.values.begin(), k.values.end(), [&](hlomem::knob_value const& v) { return v.side == side && v.name == name; });
}

/// grad_plain's module with one edit made by a what-if (`make` names it in the module), written
/// as HLO text.
std::string edited_grad_plain(std::function<hlomem::what_if_edit(hlomem::hlo_module const&)> const& make) {
    auto const text = read_data("jax_0_11/grad_plain.txt");
    auto const m = hlomem::parse_hlo_module(text, "grad_plain");
    hlomem::what_if w(m);
    auto const o = w.apply(make(m));
    CAPTURE(o.reason);
    REQUIRE(o.accepted);
    return hlomem::emit_module(text, w);
}

/// The diff of grad_plain's module and its copy with one what-if edit (edited_grad_plain).
hlomem::assignment_diff diff_with_edit(std::function<hlomem::what_if_edit(hlomem::hlo_module const&)> const& make) {
    auto const a = text_input(read_data("jax_0_11/grad_plain.txt"), "grad_plain.txt");
    auto const b = text_input(edited_grad_plain(make), "edited.hlo");
    return knob_diff(*a, *b);
}

hlomem::what_if_edit donate_0(hlomem::hlo_module const&) { return hlomem::what_if_edit::donate(0); }

// wrapped_tanh.2 (the second layer's activation, jit(grad_plain)/jvp()/tanh, 4 MiB) from time 25,
// XLA's peak: what `hlomem advise --budget 90%` offers for this module.
hlomem::what_if_edit offload_tanh(hlomem::hlo_module const& m) { return hlomem::what_if_edit::offload(*m.find_instruction("wrapped_tanh.2"), 25); }
hlomem::what_if_edit remat_tanh(hlomem::hlo_module const& m) { return hlomem::what_if_edit::remat(*m.find_instruction("wrapped_tanh.2"), 25); }

}  // namespace

TEST_CASE("knobs: jax.checkpoint on each layer of grad_plain recomputes the layers and saves the same residuals", "[diff][knobs][jax_0_11]") {
    auto const plain = load_input("jax_0_11/grad_plain-buffer-assignment.txt");
    auto const ckpt = load_input("jax_0_11/grad_ckpt-buffer-assignment.txt");
    auto const d = knob_diff(*plain, *ckpt);
    auto const* k = find_knob(d, hlomem::knob_kind::remat);
    REQUIRE(k);
    CAPTURE(k->text);
    // grad_ckpt's recomputation is named by JAX: op_name="jit(grad_ckpt)/transpose(jvp(jvp()))/
    // checkpoint/rematted_computation/tanh" (and .../dot_general, add, mul, sub); grad_plain has none.
    CHECK(lists_value(*k, 'b', "wrapped_tanh.4"));
    // Both keep four 2048x512 f32 activations (4 MiB each) of the forward pass into the backward:
    // a tanh network needs each layer's output either way, so the policy saves no residual bytes.
    CHECK(k->text.find("A 4 values (16.00MiB), B 4 values (16.00MiB)") != std::string::npos);
    CHECK(k->effect == hlomem::knob_effect::no_effect);
    CHECK(k->text.find("B has jax.checkpoint in its op_names, A has not") != std::string::npos);
    // The reverse pair says the same of A.
    auto const back = knob_diff(*ckpt, *plain);
    auto const* r = find_knob(back, hlomem::knob_kind::remat);
    REQUIRE(r);
    CHECK(r->effect == hlomem::knob_effect::no_effect);
    CHECK(r->bytes_at_peak == -k->bytes_at_peak);
    // No parameter changed its alias, and nothing went to host memory.
    CHECK_FALSE(find_knob(d, hlomem::knob_kind::donation));
    CHECK_FALSE(find_knob(d, hlomem::knob_kind::offload));
    // B's peak is at 22, custom-call.3, the recomputed dot (op_name ".../checkpoint/
    // rematted_computation/dot_general"): its output and its 32 MiB cuBLAS workspace
    // (`custom-call.3{0}:22-24`, `custom-call.3{1}:22-22`) are live there, so the knob holds at
    // least 36 MiB more at B's peak than at A's, where a backward dot held a workspace alike; A's
    // stated peak is 63963152 bytes (`custom-call.4{}: 16 bytes (cumulative: 63963152 bytes)`).
    CHECK(d.colors.at(0).peak_live_bytes.a == 63963152);
    CHECK(d.colors.at(0).peak_b.time == 22);
    CHECK(k->bytes_at_peak >= 36 * 1048576);
    // The knobs print first, in the text and as `knobs` in the JSON.
    auto const& ba = *plain->loaded->assignment();
    auto const& bb = *ckpt->loaded->assignment();
    std::ostringstream text;
    hlomem::print_diff_text(text, hlomem::diff_report_side<hlomem::default_policy>{"A", ba, plain->sources},
                            hlomem::diff_report_side<hlomem::default_policy>{"B", bb, ckpt->sources}, d);
    CHECK(text.str().find("diff of A A and B B\n  knob ") == 0);
    CHECK(text.str().find("  knob remat: no effect, ") != std::string::npos);
}

TEST_CASE("knobs: donate_argnums of a parameter XLA aliases takes effect, and frees its bytes at the peak", "[diff][knobs][whatif]") {
    auto const d = diff_with_edit(donate_0);
    REQUIRE(d.knobs.size() == 1);
    auto const& k = d.knobs[0];
    CAPTURE(k.text);
    CHECK(k.knob == hlomem::knob_kind::donation);
    CHECK(k.effect == hlomem::knob_effect::took_effect);
    // ws[0], f32[512,512] (1 MiB), is output {0}'s buffer now: A held both at its peak.
    CHECK(k.bytes_at_peak == -1048576);
    CHECK(d.colors.at(0).peak_live_bytes.delta() == -1048576);
    CHECK(k.text == "B aliases parameter 0 {} as output {0} (1.00MiB)");
}

TEST_CASE("knobs: a donor no output can take is a donation with no effect, and XLA's reason", "[diff][knobs][jax_0_11]") {
    // JAX 0.11 dropped the donations it could not use before compiling (no buffer_donor in the
    // module); the hand module lists both as XLA keeps unused donors: buffer_donor={ (0, {}), (1, {}) }.
    auto const a = load_input("jax_0_11/unused_donation.txt");
    auto const b = load_input("hand/unused_donation.hlo");
    auto const d = knob_diff(*a, *b);
    auto const* k = find_knob(d, hlomem::knob_kind::donation);
    REQUIRE(k);
    CAPTURE(k->text);
    CHECK(k->effect == hlomem::knob_effect::no_effect);
    // f32[4096,1024] is 16777216 bytes and f32[8,1024] 32768; the only output is f32[1024], 4096
    // bytes: OptimizeInputOutputBufferAlias pairs donors and outputs of one size and memory space.
    CHECK(k->text.find("parameter 0 {} was donated and no output took it: no output of its size (16777216 bytes) in memory space 0") !=
          std::string::npos);
    CHECK(k->text.find("parameter 1 {} was donated and no output took it: no output of its size (32768 bytes) in memory space 0") !=
          std::string::npos);
    REQUIRE(b->donations.unused.size() == 2);
    CHECK(b->donations.unused[0].why == "no output of its size (16777216 bytes) in memory space 0");
}

TEST_CASE("knobs: an offload to host memory is named, with the device bytes it frees at the peak", "[diff][knobs][whatif]") {
    auto const d = diff_with_edit(offload_tanh);
    auto const* k = find_knob(d, hlomem::knob_kind::offload);
    REQUIRE(k);
    CAPTURE(k->text);
    // wrapped_tanh.2 (4 MiB) goes to host after its last read before 25 and comes back: 4 MiB in
    // memory space 5, and the 4 MiB it held at A's peak (25) are no longer on the device there.
    CHECK(k->text.find("host memory (memory space 5): 0B in A, 4.00MiB in B") == 0);
    CHECK(k->effect == hlomem::knob_effect::took_effect);
    CHECK(k->bytes_at_peak < 0);
    CHECK(lists_value(*k, 'b', "wrapped_tanh.2.to_host{0}"));
    // The copies are the offload's, not buffers a fusion made.
    CHECK_FALSE(find_knob(d, hlomem::knob_kind::fusion));
}

TEST_CASE("knobs: a recomputation is named remat, and it keeps its operand live", "[diff][knobs][whatif]") {
    auto const d = diff_with_edit(remat_tanh);
    auto const* k = find_knob(d, hlomem::knob_kind::remat);
    REQUIRE(k);
    CAPTURE(k->text);
    CHECK(lists_value(*k, 'b', "wrapped_tanh.2.remat"));
    CHECK(k->text.find("values computed again: A 0 values (0B), B 1 value (4.00MiB)") == 0);
    // The clone reads the dot that wrapped_tanh.2 read, which now lives into the backward pass:
    // one more 4 MiB residual, and the peak (61 MiB at 25) does not move.
    CHECK(k->effect == hlomem::knob_effect::partly);
    CHECK(d.colors.at(0).peak_live_bytes.delta() == 0);
}

TEST_CASE("knobs: a program compared with itself has none", "[diff][knobs]") {
    auto const a = load_input("jax_0_11/grad_ckpt-buffer-assignment.txt");
    auto const b = load_input("jax_0_11/grad_ckpt-buffer-assignment.txt");
    CHECK(knob_diff(*a, *b).knobs.empty());
}

TEST_CASE("knobs: the resharding in two orders makes one buffer vanish and another appear", "[diff][knobs][corpus]") {
    // tests/unit/diff/assignment_diff.test.cpp pairs A's loop_transpose_fusion.1 with B's input_transpose_fusion
    // (the first transpose of psi, renamed); left over are A's input_transpose_fusion (1047527424
    // bytes, `input_transpose_fusion{}:11-13`) and B's loop_transpose_fusion.1 (523763712,
    // `loop_transpose_fusion.1{}:7-10`), neither live at its side's peak (A's at 9, B's at 11).
    auto const a = load_input("corpus/compilations/reshard_xfirst.buffer_assignment.txt");
    auto const b = load_input("corpus/compilations/reshard_yfirst.buffer_assignment.txt");
    auto const d = knob_diff(*a, *b);
    REQUIRE(d.knobs.size() == 1);
    auto const& k = d.knobs[0];
    CHECK(k.knob == hlomem::knob_kind::fusion);
    CHECK(k.bytes_at_peak == 0);
    REQUIRE(k.values.size() == 2);
    CHECK((k.values[0].side == 'a' && k.values[0].name == "input_transpose_fusion" && k.values[0].bytes == 1047527424));
    CHECK((k.values[1].side == 'b' && k.values[1].name == "loop_transpose_fusion.1" && k.values[1].bytes == 523763712));
}

TEST_CASE("knobs: a schedule that runs a weight gradient last stretches the activations it reads", "[diff][knobs][jax_0_11]") {
    // grad_plain's schedule with the last layer's weight gradient (%gemm_fusion_dot.7, which reads
    // wrapped_tanh.2 and loop_multiply_fusion through two bitcasts, and its %loop_reduce_fusion.3)
    // moved from right after loop_multiply_fusion to just before the ROOT, as a scheduler that runs
    // the weight gradients last would: the same values, other lifetimes.
    std::string const text = read_data("jax_0_11/grad_plain.txt");
    std::vector<std::string> lines, moved;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        bool const move = line.rfind("  %gemm_fusion_dot.7 = ", 0) == 0 || line.rfind("  %loop_reduce_fusion.3 = ", 0) == 0;
        (move ? moved : lines).push_back(line);
    }
    REQUIRE(moved.size() == 2);
    auto root = std::find_if(lines.begin(), lines.end(), [](std::string const& l) { return l.rfind("  ROOT %tuple.1.0 = ", 0) == 0; });
    REQUIRE(root != lines.end());
    lines.insert(root, moved.begin(), moved.end());
    std::string rescheduled;
    for (auto const& l : lines) rescheduled += l + "\n";
    auto const a = text_input(text, "grad_plain.txt");
    auto const b = text_input(rescheduled, "rescheduled.hlo");
    auto const d = knob_diff(*a, *b);
    REQUIRE(d.knobs.size() == 1);
    auto const& k = d.knobs[0];
    CAPTURE(k.text);
    CHECK(k.knob == hlomem::knob_kind::scheduling);
    CHECK(k.effect == hlomem::knob_effect::took_effect);
    // loop_multiply_fusion lived across gemm_fusion_dot.7, loop_reduce_fusion.3 and custom-call.4's
    // three values (5 definitions); now across everything up to the moved dot: custom-call.4,
    // .5 and .6 (three values each), the three loop_multiply_fusions, gemm_fusion_dots and
    // loop_reduce_fusions of the other layers, and gemm_fusion_dot.7 itself (19).
    CHECK(k.text.find("the largest move: loop_multiply_fusion (4.00MiB) lives across 5 definitions in A and 19 in B") != std::string::npos);
    CHECK(lists_value(k, 'b', "loop_multiply_fusion"));
    CHECK(lists_value(k, 'b', "wrapped_tanh.2"));
    // The peak grows by one 2048x512 f32 activation (61 MiB at 25 -> 65 MiB at 29), and the
    // stretched values hold more at B's peak than at the same point of A's schedule.
    CHECK(d.colors.at(0).peak_live_bytes.delta() == 4194304);
    CHECK(k.bytes_at_peak > 0);
}

TEST_CASE("knobs: a value given another layout is named layout", "[diff][knobs][jax_0_11]") {
    // grad_plain with the last activation laid out column-major ({0,1} instead of {1,0}), as a
    // layout assignment that picks another minor_to_major would: the same bytes on a GPU, which
    // does not tile.
    std::string text = read_data("jax_0_11/grad_plain.txt");
    std::string const from = "%wrapped_tanh.3 = f32[2048,512]{1,0}";
    auto const at = text.find(from);
    REQUIRE(at != std::string::npos);
    auto const a = text_input(text, "grad_plain.txt");
    text.replace(at, from.size(), "%wrapped_tanh.3 = f32[2048,512]{0,1}");
    auto const b = text_input(text, "relaid.hlo");
    auto const d = knob_diff(*a, *b);
    REQUIRE(d.knobs.size() == 1);
    auto const& k = d.knobs[0];
    CHECK(k.knob == hlomem::knob_kind::layout);
    CHECK(k.bytes_at_peak == 0);
    CHECK(k.text == "1 value (4.00MiB) of A has another layout in B, 4.00MiB there (wrapped_tanh.3: f32[2048,512]{1,0} -> f32[2048,512]{0,1})");
    CHECK(lists_value(k, 'a', "wrapped_tanh.3"));
}

TEST_CASE("knobs: the set advise suggests inside a loop body, written back, is the knob it said, and takes effect", "[diff][knobs][whatif]") {
    // lorrax_fft_cublas_while: advise at 90% offloads fft.8.0 inside region_0.356_spmd, the body of
    // while.1, and says color 0's live peak drops by 24,084,480 bytes.
    auto const text = read_data("corpus/lorrax/lorrax_fft_cublas_while.after_opt.hlo");
    auto const m = hlomem::parse_hlo_module(text, "fft");
    hlomem::what_if w(m);
    auto const a = hlomem::advise(w);
    REQUIRE(a.fits());
    REQUIRE(a.chosen.size() == 1);
    auto const before = text_input(text, "before");
    auto const after = text_input(hlomem::emit_module(text, w), "after");
    auto const d = knob_diff(*before, *after);
    auto const* k = find_knob(d, hlomem::knob_kind::offload);
    REQUIRE(k);
    CHECK(k->effect == hlomem::knob_effect::took_effect);
    CHECK(lists_value(*k, 'a', "fft.8.0"));
    REQUIRE(!d.colors.empty());
    CHECK(d.colors[0].peak_live_bytes.delta() == -24084480);
    CHECK(d.colors[0].peak_live_bytes.delta() == a.colors[0].after.bytes - a.colors[0].before.bytes);
}

TEST_CASE("knobs: a remat with its operand recomputed in turn is named remat and takes effect", "[diff][knobs][whatif]") {
    // mlp_step (JAX 0.11): loop_reduce_fusion re-run from 43 with gemm_fusion_dot.4, the split-K dot
    // it sums, recomputed before it: two .remat clones, 1 MiB off color 0's live peak.
    auto const text = read_data("jax_0_11/mlp_step_1024.txt");
    auto const m = hlomem::parse_hlo_module(text, "mlp_step");
    hlomem::what_if w(m);
    hlomem::instruction_id const x = *m.find_instruction("loop_reduce_fusion");
    REQUIRE(w.apply(hlomem::what_if_edit::remat(x, 43, 2)).accepted);
    auto const before = text_input(text, "before");
    auto const after = text_input(hlomem::emit_module(text, w), "after");
    auto const d = knob_diff(*before, *after);
    auto const* k = find_knob(d, hlomem::knob_kind::remat);
    REQUIRE(k);
    CHECK(k->effect == hlomem::knob_effect::took_effect);
    CHECK(lists_value(*k, 'b', "loop_reduce_fusion.remat"));
    CHECK(lists_value(*k, 'b', "gemm_fusion_dot.4.remat"));
    REQUIRE(!d.colors.empty());
    CHECK(d.colors[0].peak_live_bytes.delta() == -1048576);
}
