// hlomem/diff/knobs.hpp: which setting each change between two compilations looks like, and
// whether it took effect — "did my jax.checkpoint policy, my donate_argnums, my host offload do
// anything?" read from the two buffer assignments a diff compares (diff/assignment_diff.hpp).
//
//   hlomem::diff_options o;  o.donations_a = &da;  o.donations_b = &db;  // analyze_donations with each module
//   auto d = hlomem::diff_assignments(a, sa, b, sb, o);                     // fills d.knobs
//   d.knobs[0].knob, d.knobs[0].effect, d.knobs[0].bytes_at_peak            // diff/knob_verdict.hpp
//
// Each value is claimed by one knob at most, in this order, so that no byte is counted twice:
//   donation    the parameters B aliases to an output that A did not (input_output_alias), and the
//               donors B left unused (buffer_donor), with XLA's reason (hlo/donation.hpp
//               unused_donation_reason). Values: the parameter buffers. Took effect: new aliases
//               and no unused donor; no effect: only unused donors; partly: both.
//   offload     values in host memory (memory space 5, XLA's Layout::kHostMemorySpace;
//               memory/memory_analysis.hpp is_host_allocation), the values of the instructions
//               whose shape has a part there (copy-start/copy-done to and from host), and the
//               device values those read (what was moved out), on each side with their
//               counterparts: listed when the host bytes differ. Took effect when the device
//               bytes they hold at the peak fell; partly when they did not (what moved to host
//               was not what held the peak).
//   remat       values computed again: JAX's recomputation under jax.checkpoint (op_name
//               `.../checkpoint/rematted_computation/...`, jax/_src/ad_checkpoint.py) and
//               XLA's HloRematerialization clones (HloInstruction::Clone with the suffix
//               "remat": `fusion.3.remat`, `fusion.3.remat2`); and the residuals, the values of
//               the forward pass (op_name without `transpose(`, JAX's name of the backward pass)
//               still live when the backward pass starts. More recomputation is for fewer
//               residual bytes: took effect when they fell and the device peak with them; partly
//               when the peak did not fall, or when they grew (a value computed again keeps its
//               operands live); no effect when they stayed (the policy changed, the saved
//               residuals did not). Less recomputation, the other way round.
//   layout      matched values of one element type and dimensions whose layout or tiling (and
//               so padding) differs.
//   fusion      values of one side with no counterpart in the other (not parameters): buffers
//               that fusion decisions (or a change of the program) made appear or vanish.
//   scheduling  matched values of one size and shape that live across more (or fewer) of the
//               matched values' definitions: the same values, other lifetimes. Counted in
//               definitions, not in times, so that instructions added elsewhere do not stretch
//               a value. Its bytes at the peak are what these values hold at B's peak against
//               what they held at the same point of A's schedule (the two peaks fall at other
//               moments, where a value may be live on both sides for other reasons).
// A knob is listed when it changed something or, for "no effect", when its setting is visible
// (a donor, a checkpoint name) and the buffers did not change. The bytes at the peak of a knob are
// B's bytes held by its values at B's peak minus A's at A's (memory/peak_holdings.hpp): as each
// value is claimed once, the knobs but scheduling and the values none claims add up to the move
// of the peaks.
// A value that a knob creates (a recomputation, a copy) counts its bytes at B's peak although A
// held like bytes in another value: grad_ckpt's recomputed dot holds its 32 MiB cuBLAS workspace
// at B's peak where grad_plain's backward dot held one at A's. A diff with a snapshot side has no
// values: it says what the donations and memory_analysis() of the two sides show.
#ifndef HLOMEM_DIFF_KNOBS_HPP
#define HLOMEM_DIFF_KNOBS_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/core/shape_text.hpp>
#include <hlomem/diff/diff_model.hpp>
#include <hlomem/diff/knob_side.hpp>
#include <hlomem/diff/knob_verdict.hpp>
#include <hlomem/diff/match.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/hlo/attribution.hpp>
#include <hlomem/hlo/donation.hpp>
#include <hlomem/hlo/origin_steps.hpp>
#include <hlomem/memory/memory_analysis.hpp>
#include <hlomem/memory/peak_holdings.hpp>

namespace hlomem {

namespace detail {

/// `parameter 1 {}` of a donation, as the donation report names it.
inline std::string donation_name(parameter_donation const& p) {
    return "parameter " + std::to_string(p.parameter_number) + " " + p.parameter_index;
}

/// The donation knob (see the file's comment).
template <class P, class Q>
void donation_knob(knob_side<P, Q>& a, knob_side<P, Q>& b, std::vector<knob_verdict>& out) {
    if (!a.donations || !b.donations) return;
    auto keys = [](std::vector<parameter_donation> const& list) {
        std::set<std::pair<std::int64_t, std::string>> k;
        for (auto const& p : list) k.emplace(p.parameter_number, p.parameter_index);
        return k;
    };
    auto const used_a = keys(a.donations->used), used_b = keys(b.donations->used), unused_a = keys(a.donations->unused);
    std::vector<parameter_donation const*> aliased, dropped, unused;
    for (auto const& p : b.donations->used) {
        if (!used_a.count({p.parameter_number, p.parameter_index})) aliased.push_back(&p);
    }
    for (auto const& p : a.donations->used) {
        if (!used_b.count({p.parameter_number, p.parameter_index})) dropped.push_back(&p);
    }
    for (auto const& p : b.donations->unused) {
        if (!unused_a.count({p.parameter_number, p.parameter_index})) unused.push_back(&p);
    }
    if (aliased.empty() && dropped.empty() && unused.empty()) return;
    knob_verdict k;
    k.knob = knob_kind::donation;
    k.effect = unused.empty() ? knob_effect::took_effect : aliased.empty() ? knob_effect::no_effect : knob_effect::partly;
    // With values: the buffers of the parameters whose alias changed, on the side that has the
    // alias, and their counterparts on the other (where the output had a buffer of its own).
    std::vector<std::size_t> in_a, in_b;
    auto values_of = [](knob_side<P, Q> const& s, std::vector<parameter_donation const*> const& list, std::vector<std::size_t>& into) {
        for (auto const& alloc : s.ba->allocations) {
            if (!alloc.parameter_number) continue;
            std::string const index = to_string(alloc.parameter_shape_index);
            for (auto const* p : list) {
                if (p->parameter_number == *alloc.parameter_number && p->parameter_index == index) {
                    into.insert(into.end(), alloc.values.begin(), alloc.values.end());
                }
            }
        }
    };
    std::int64_t aliased_bytes = 0, dropped_bytes = 0;
    for (auto const* p : aliased) aliased_bytes += p->bytes;
    for (auto const* p : dropped) dropped_bytes += p->bytes;
    if (a.ba && b.ba) {
        values_of(b, aliased, in_b);
        values_of(a, dropped, in_a);
        std::vector<std::size_t> shown_a = in_a, shown_b = in_b;
        values_of(b, unused, shown_b);
        std::vector<std::size_t> other_a, other_b;  // the counterparts
        for (std::size_t j : in_b) {
            if (b.counterpart[j] != npos) other_a.push_back(b.counterpart[j]);
        }
        for (std::size_t i : in_a) {
            if (a.counterpart[i] != npos) other_b.push_back(a.counterpart[i]);
        }
        in_a.insert(in_a.end(), other_a.begin(), other_a.end());
        in_b.insert(in_b.end(), other_b.begin(), other_b.end());
        for (auto* list : {&in_a, &in_b}) {
            std::sort(list->begin(), list->end());
            list->erase(std::unique(list->begin(), list->end()), list->end());
        }
        k.values = knob_values(a, shown_a, b, shown_b);
    } else {
        // A snapshot places no value at its peak: the bytes the aliases take out, or put back.
        k.bytes_at_peak = dropped_bytes - aliased_bytes;
        for (auto const* list : {&aliased, &dropped, &unused}) {
            for (auto const* p : *list) k.values.push_back({list == &dropped ? 'a' : 'b', -1, donation_name(*p), p->bytes});
        }
    }
    std::string text;
    auto names = [](std::vector<parameter_donation const*> const& list, bool with_output) {
        std::string s;
        for (auto const* p : list) {
            s += (s.empty() ? "" : ", ") + donation_name(*p) + (with_output && !p->output_index.empty() ? " as output " + p->output_index : std::string());
        }
        return s;
    };
    if (!aliased.empty()) text += "B aliases " + names(aliased, true) + " (" + human_bytes(aliased_bytes) + ")";
    if (!dropped.empty()) text += std::string(text.empty() ? "" : "; ") + "A's aliases of " + names(dropped, true) + " are gone in B (" + human_bytes(dropped_bytes) + ")";
    for (auto const* p : unused) {
        text += std::string(text.empty() ? "" : "; ") + donation_name(*p) + " was donated and no output took it" + (p->why.empty() ? std::string() : ": " + p->why);
    }
    k.text = std::move(text);
    if (!a.ba || !b.ba) {
        out.push_back(std::move(k));
        return;
    }
    file_knob(std::move(k), a, in_a, b, in_b, out);
}

/// The element type and dimensions of a shape's text, without its layout: `f32[2048,512]` of
/// `f32[2048,512]{1,0:T(8,128)}`.
inline std::string_view without_layout(std::string_view shape) {
    return shape.substr(0, std::min(shape.find('{'), shape.size()));
}

/// Whether a shape holds an array in host memory (memory space 5), at any index.
template <class P>
bool has_host_leaf(basic_shape<P> const& s) {
    if (s.is_tuple()) {
        for (std::size_t k = 0; k < s.tuple_shapes_size(); ++k) {
            if (has_host_leaf(s.tuple_shapes()[k])) return true;
        }
        return false;
    }
    return s.has_layout() && s.layout().memory_space == host_memory_space;
}

/// The element type and dimensions (without_layout) of each array of `s` in host memory.
template <class P>
void host_leaf_dims(basic_shape<P> const& s, std::vector<std::string>& out) {
    if (s.is_tuple()) {
        for (std::size_t k = 0; k < s.tuple_shapes_size(); ++k) host_leaf_dims(s.tuple_shapes()[k], out);
        return;
    }
    if (s.has_layout() && s.layout().memory_space == host_memory_space) out.emplace_back(without_layout(to_string(s)));
}

/// The values of one side's moves to and from host memory: each value in host memory, each value
/// of an instruction whose shape has a part there (`(f32[..]{1,0:S(5)}, f32[..]{1,0}, u32[])
/// copy-start(...)`, its copy-done), and the device values those instructions read (what was
/// moved out). Values another knob took are left out.
template <class P, class Q>
std::vector<std::size_t> offload_values(knob_side<P, Q> const& s) {
    std::vector<std::size_t> out;
    std::vector<unsigned char> in(s.ba->values.size(), 0);
    auto add = [&](std::size_t i) {
        if (i == npos || in[i] || s.claimed[i]) return;
        in[i] = 1;
        out.push_back(i);
    };
    std::vector<std::pair<logical_time, std::size_t>> by_end;  // device values by the end of their live range, made once
    std::vector<std::string> dims;
    for (std::size_t i = 0; i < s.ba->values.size(); ++i) {
        auto const& v = s.ba->values[i];
        auto const* whole = s.ba->instruction_shape_of(v);
        if (!s.host(i) && !(whole && has_host_leaf(*whole))) continue;
        add(i);
        bool named = false;
        for (auto const& [name, element] : origin_operands(std::string_view(v.instruction_text), std::string_view(v.instruction_opcode))) {
            if (element >= 0) continue;
            add(s.ba->value_index(name, basic_shape_index<P>{}));
            named = true;
        }
        if (named || s.host(i) || !v.live_range || !whole || !v.index.empty()) continue;
        // An assignment derived from a module keeps no instruction text: the operand of a copy to
        // host (`(f32[..]{1,0:S(5)}, f32[..]{1,0}, u32[]) copy-start(%x)`, whose element {1} is
        // %x itself until the copy-done) is the device value of the moved shape that is live when
        // the copy starts and dies by its copy-done.
        if (by_end.empty()) {
            for (std::size_t j = 0; j < s.ba->values.size(); ++j) {
                auto const& u = s.ba->values[j];
                if (u.live_range && u.shape != no_shape && !s.host(j)) by_end.emplace_back(u.live_range->end, j);
            }
            std::sort(by_end.begin(), by_end.end());
        }
        dims.clear();
        host_leaf_dims(*whole, dims);
        auto const& copy = *v.live_range;
        auto const first = std::lower_bound(by_end.begin(), by_end.end(), std::pair<logical_time, std::size_t>(copy.start, 0));
        for (auto it = first; it != by_end.end() && it->first <= copy.end; ++it) {
            std::size_t const j = it->second;
            if (j == i || s.ba->values[j].live_range->start >= copy.start) continue;
            if (std::find(dims.begin(), dims.end(), without_layout(s.shape(j))) != dims.end()) add(j);
        }
    }
    return out;
}

/// The offload knob (see the file's comment).
template <class P, class Q>
void offload_knob(knob_side<P, Q>& a, knob_side<P, Q>& b, std::vector<knob_verdict>& out) {
    auto host_bytes = [](knob_side<P, Q> const& s, std::vector<std::size_t> const& list) {
        std::int64_t sum = 0;
        for (std::size_t i : list) sum += s.host(i) ? s.ba->values[i].size : 0;
        return sum;
    };
    auto in_a = offload_values(a), in_b = offload_values(b);
    std::int64_t const host_a = host_bytes(a, in_a), host_b = host_bytes(b, in_b);
    if (host_a == host_b) return;
    // Each side's values with the other's counterparts: the device value A keeps where B moves it out.
    std::size_t const own_a = in_a.size(), own_b = in_b.size();
    for (std::size_t k = 0; k < own_b; ++k) {
        if (std::size_t const i = b.counterpart[in_b[k]]; i != npos && !a.claimed[i]) in_a.push_back(i);
    }
    for (std::size_t k = 0; k < own_a; ++k) {
        if (std::size_t const j = a.counterpart[in_a[k]]; j != npos && !b.claimed[j]) in_b.push_back(j);
    }
    for (auto* list : {&in_a, &in_b}) {
        std::sort(list->begin(), list->end());
        list->erase(std::unique(list->begin(), list->end()), list->end());
    }
    auto device_held = [](knob_side<P, Q> const& s, std::vector<std::size_t> const& list) {
        std::int64_t sum = 0;
        for (std::size_t i : list) sum += s.host(i) ? 0 : s.held[i];
        return sum;
    };
    knob_verdict k;
    k.knob = knob_kind::offload;
    k.bytes_at_peak = device_held(b, in_b) - device_held(a, in_a);
    bool const out_to_host = host_b > host_a;
    k.effect = !out_to_host || k.bytes_at_peak < 0 ? knob_effect::took_effect : knob_effect::partly;
    // Listed: the values in host memory, and the device values that held bytes at the other
    // side's peak and were moved out (what the offload freed).
    std::vector<std::size_t> host_values_b, moved_a;
    for (std::size_t j : in_b) {
        if (b.host(j)) host_values_b.push_back(j);
    }
    for (std::size_t i : in_a) {
        if (!a.host(i) && a.held[i] > 0) moved_a.push_back(i);
    }
    k.text = "host memory (memory space 5): " + human_bytes(host_a) + " in A, " + human_bytes(host_b) + " in B; the device bytes the moved values hold at the peak: " +
             human_bytes(device_held(a, in_a)) + " at A's, " + human_bytes(device_held(b, in_b)) + " at B's";
    if (k.effect == knob_effect::partly) k.text += ": the values moved to host were not what held A's device peak";
    a.claim(in_a);
    b.claim(in_b);
    k.values = knob_values(a, out_to_host ? moved_a : std::vector<std::size_t>{}, b, out_to_host ? host_values_b : in_b);
    if (!out_to_host) {
        std::vector<std::size_t> host_values_a;
        for (std::size_t i : in_a) {
            if (a.host(i)) host_values_a.push_back(i);
        }
        k.values = knob_values(a, host_values_a, b, {});
    }
    out.push_back(std::move(k));
}

/// Whether a value is computed again: JAX's `rematted_computation` (jax.checkpoint) or XLA's
/// `.remat` clone.
template <class P, class Q>
bool is_recomputed(knob_side<P, Q> const& s, std::size_t i) {
    return s.op_name(i).find("rematted_computation") != std::string_view::npos ||
           std::string_view(s.ba->values[i].name).find(".remat") != std::string_view::npos;
}

/// Whether an op_name is inside a jax.checkpoint (`.../checkpoint/...`, `checkpoint[...]`).
inline bool in_checkpoint(std::string_view op_name) {
    for (std::size_t at = op_name.find("checkpoint"); at != std::string_view::npos; at = op_name.find("checkpoint", at + 1)) {
        char const before = at ? op_name[at - 1] : '/';
        if (before == '/' || before == '(') return true;
    }
    return false;
}

/// The residuals of one side: values of the forward pass (op_name without `transpose(`), not
/// parameters or outputs, live when the backward pass (the first value whose op_name has
/// `transpose(`) starts. Empty without a backward pass.
template <class P, class Q>
std::vector<std::size_t> residuals_of(knob_side<P, Q> const& s) {
    std::vector<std::size_t> out;
    logical_time backward = -1;
    for (std::size_t i = 0; i < s.ba->values.size(); ++i) {
        auto const& v = s.ba->values[i];
        if (v.live_range && s.op_name(i).find("transpose(") != std::string_view::npos && (backward < 0 || v.live_range->start < backward)) {
            backward = v.live_range->start;
        }
    }
    if (backward < 0) return out;
    for (std::size_t i = 0; i < s.ba->values.size(); ++i) {
        auto const& v = s.ba->values[i];
        std::string_view const op = s.op_name(i);
        if (!v.live_range || op.empty() || op.find("transpose(") != std::string_view::npos || s.parameter(i)) continue;
        if (v.allocation != npos && s.ba->allocations[v.allocation].maybe_live_out) continue;
        if (v.live_range->start < backward && v.live_range->end >= backward) out.push_back(i);
    }
    return out;
}

/// The remat knob (see the file's comment).
template <class P, class Q>
void remat_knob(knob_side<P, Q>& a, knob_side<P, Q>& b, std::int64_t peak_delta, std::vector<knob_verdict>& out) {
    auto gather = [](knob_side<P, Q> const& s, std::vector<std::size_t>& recomputed, bool& checkpoint) {
        for (std::size_t i = 0; i < s.ba->values.size(); ++i) {
            if (!checkpoint && in_checkpoint(s.op_name(i))) checkpoint = true;
            if (!s.claimed[i] && is_recomputed(s, i)) recomputed.push_back(i);
        }
    };
    std::vector<std::size_t> re_a, re_b;
    bool ck_a = false, ck_b = false;
    gather(a, re_a, ck_a);
    gather(b, re_b, ck_b);
    auto res_a = residuals_of(a), res_b = residuals_of(b);
    auto unclaimed = [](knob_side<P, Q> const& s, std::vector<std::size_t>& list) {
        list.erase(std::remove_if(list.begin(), list.end(), [&](std::size_t i) { return s.claimed[i] != 0; }), list.end());
    };
    unclaimed(a, res_a);
    unclaimed(b, res_b);
    std::int64_t const rb_a = size_of(a, res_a), rb_b = size_of(b, res_b);
    if (re_a.size() == re_b.size() && ck_a == ck_b) return;
    knob_verdict k;
    k.knob = knob_kind::remat;
    bool const more = re_b.size() > re_a.size(), fewer = re_b.size() < re_a.size();
    bool const known = !res_a.empty() || !res_b.empty();  // a backward pass on a side
    // More recomputation is for fewer residual bytes: took effect when they fell and the peak with
    // them, partly when they fell and the peak did not (or when they grew: a recomputation that
    // keeps its operands live), no effect when they stayed. Less recomputation, the other way.
    std::int64_t const residual_move = more || (!fewer && ck_b) ? rb_a - rb_b : rb_b - rb_a;  // > 0: as intended
    if (!known) {
        k.effect = more || fewer ? knob_effect::took_effect : knob_effect::no_effect;
    } else if (residual_move == 0) {
        k.effect = knob_effect::no_effect;
    } else if (residual_move < 0) {
        k.effect = knob_effect::partly;
    } else {
        bool const peak_followed = more || (!fewer && ck_b) ? peak_delta < 0 : peak_delta > 0;
        k.effect = peak_followed ? knob_effect::took_effect : knob_effect::partly;
    }
    std::vector<std::size_t> in_a = re_a, in_b = re_b;
    in_a.insert(in_a.end(), res_a.begin(), res_a.end());
    in_b.insert(in_b.end(), res_b.begin(), res_b.end());
    std::string text = "values computed again: A " + count_bytes(re_a.size(), size_of(a, re_a)) + ", B " + count_bytes(re_b.size(), size_of(b, re_b));
    if (ck_a != ck_b) text += std::string("; ") + (ck_b ? "B" : "A") + " has jax.checkpoint in its op_names, " + (ck_b ? "A" : "B") + " has not";
    if (known) {
        text += "; residuals (forward values live into the backward pass): A " + count_bytes(res_a.size(), rb_a) + ", B " + count_bytes(res_b.size(), rb_b);
    }
    if (k.effect == knob_effect::no_effect) text += ": the policy changed and the saved residuals did not";
    if (k.effect == knob_effect::partly) {
        text += residual_move < 0 ? ": the residuals moved the other way (a value computed again keeps its operands live)"
                                  : ": the residuals moved, the peak did not (it is held elsewhere)";
    }
    // The values computed again, and the residuals one side keeps that the other does not.
    std::vector<std::size_t> show_a = re_a, show_b = re_b;
    auto kept_alone = [](knob_side<P, Q> const& s, std::vector<std::size_t> const& mine, knob_side<P, Q> const& other,
                         std::vector<std::size_t> const& theirs, std::vector<std::size_t>& show) {
        std::vector<unsigned char> residual(other.ba->values.size(), 0);
        for (std::size_t j : theirs) residual[j] = 1;
        for (std::size_t i : mine) {
            if (s.counterpart[i] == npos || !residual[s.counterpart[i]]) show.push_back(i);
        }
    };
    kept_alone(a, res_a, b, res_b, show_a);
    kept_alone(b, res_b, a, res_a, show_b);
    k.values = knob_values(a, show_a, b, show_b);
    k.text = std::move(text);
    file_knob(std::move(k), a, in_a, b, in_b, out);
}

/// The layout knob (see the file's comment).
template <class P, class Q>
void layout_knob(knob_side<P, Q>& a, knob_side<P, Q>& b, value_matching const& m, std::vector<knob_verdict>& out) {
    std::vector<std::size_t> in_a, in_b;
    std::int64_t bytes_a = 0, bytes_b = 0;
    for (auto const& p : m.pairs) {
        if (a.claimed[p.a] || b.claimed[p.b]) continue;
        if (!a.array(p.a) || !b.array(p.b)) continue;
        std::string_view const ta = a.shape(p.a), tb = b.shape(p.b);
        if (ta == tb || without_layout(ta) != without_layout(tb)) continue;
        in_a.push_back(p.a);
        in_b.push_back(p.b);
        bytes_a += a.ba->values[p.a].size;
        bytes_b += b.ba->values[p.b].size;
    }
    if (in_a.empty()) return;
    knob_verdict k;
    k.knob = knob_kind::layout;
    auto const& first_a = a.ba->values[in_a.front()];
    k.text = count_bytes(in_a.size(), bytes_a) + (in_a.size() == 1 ? " of A has" : " of A have") + " another layout in B, " + human_bytes(bytes_b) + " there (" +
             first_a.display_name() + ": " + std::string(a.shape(in_a.front())) + " -> " + std::string(b.shape(in_b.front())) + ")";
    file_knob(std::move(k), a, in_a, b, in_b, out);
}

/// The fusion knob (see the file's comment).
template <class P, class Q>
void fusion_knob(knob_side<P, Q>& a, knob_side<P, Q>& b, value_matching const& m, std::vector<knob_verdict>& out) {
    auto gather = [](knob_side<P, Q> const& s, std::vector<std::size_t> const& only, std::vector<std::size_t>& into, std::string& ops) {
        std::map<std::string, std::size_t> by_opcode;
        for (std::size_t i : only) {
            if (s.claimed[i] || s.parameter(i)) continue;
            into.push_back(i);
            ++by_opcode[std::string(s.ba->values[i].instruction_opcode)];
        }
        // The five most frequent opcodes (ties by name), then how many more.
        std::vector<std::pair<std::size_t, std::string>> counted;
        for (auto const& [op, n] : by_opcode) counted.emplace_back(n, op.empty() ? std::string("?") : op);
        std::stable_sort(counted.begin(), counted.end(), [](auto const& x, auto const& y) { return x.first > y.first; });
        for (std::size_t k = 0; k < counted.size() && k < 5; ++k) ops += (k ? ", " : "") + std::to_string(counted[k].first) + " " + counted[k].second;
        if (counted.size() > 5) ops += " and " + std::to_string(counted.size() - 5) + " more opcodes";
    };
    std::vector<std::size_t> in_a, in_b;
    std::string ops_a, ops_b;
    gather(a, m.only_in_a, in_a, ops_a);
    gather(b, m.only_in_b, in_b, ops_b);
    if (in_a.empty() && in_b.empty()) return;
    knob_verdict k;
    k.knob = knob_kind::fusion;
    std::string text;
    if (!in_b.empty()) text = "B has " + count_bytes(in_b.size(), size_of(b, in_b)) + " that A has not (" + ops_b + ")";
    if (!in_a.empty()) text += std::string(text.empty() ? "" : "; ") + "A has " + count_bytes(in_a.size(), size_of(a, in_a)) + " that B has not (" + ops_a + ")";
    k.text = text + ": buffers fusion (or a change of the program) made appear or vanish";
    file_knob(std::move(k), a, in_a, b, in_b, out);
}

/// The scheduling knob (see the file's comment).
template <class P, class Q>
void scheduling_knob(knob_side<P, Q>& a, knob_side<P, Q>& b, value_matching const& m, std::vector<color_diff> const& colors,
                     std::vector<knob_verdict>& out) {
    // Each side's matched definitions in time order: a value's lifetime is how many of them fall
    // in (start, end].
    auto starts = [&](knob_side<P, Q> const& s, bool side_b) {
        std::vector<logical_time> t;
        for (auto const& p : m.pairs) {
            auto const& v = s.ba->values[side_b ? p.b : p.a];
            if (v.live_range) t.push_back(v.live_range->start);
        }
        std::sort(t.begin(), t.end());
        return t;
    };
    auto const ta = starts(a, false), tb = starts(b, true);
    auto span = [](std::vector<logical_time> const& t, live_interval const& r) {
        return static_cast<std::int64_t>(std::upper_bound(t.begin(), t.end(), r.end) - std::upper_bound(t.begin(), t.end(), r.start));
    };
    std::vector<std::size_t> in_a, in_b;
    std::size_t longer = 0, shorter = 0;
    std::int64_t best = 0, best_a = 0, best_b = 0;
    std::size_t best_pair = npos;
    for (std::size_t k = 0; k < m.pairs.size(); ++k) {
        auto const& p = m.pairs[k];
        auto const& va = a.ba->values[p.a];
        auto const& vb = b.ba->values[p.b];
        if (a.claimed[p.a] || b.claimed[p.b] || !va.live_range || !vb.live_range || va.size != vb.size) continue;
        if (a.shape(p.a).empty() || a.shape(p.a) != b.shape(p.b)) continue;
        std::int64_t const da = span(ta, *va.live_range), db = span(tb, *vb.live_range);
        if (da == db) continue;
        (db > da ? longer : shorter) += 1;
        in_a.push_back(p.a);
        in_b.push_back(p.b);
        std::int64_t const weight = std::abs(db - da) * va.size;
        if (weight > best) {
            best = weight;
            best_a = da;
            best_b = db;
            best_pair = k;
        }
    }
    if (in_a.empty()) return;
    knob_verdict v;
    v.knob = knob_kind::scheduling;
    v.text = std::to_string(longer) + " matched values live across more definitions in B and " + std::to_string(shorter) + " across fewer";
    if (best_pair != npos) {
        auto const& va = a.ba->values[m.pairs[best_pair].a];
        v.text += "; the largest move: " + va.display_name() + " (" + human_bytes(va.size) + ") lives across " + std::to_string(best_a) +
                  " definitions in A and " + std::to_string(best_b) + " in B";
    }
    // The values whose lifetime moved most bytes: most stretched (or shrunk) first, ties by index.
    std::vector<std::pair<std::int64_t, std::size_t>> order(in_a.size());
    for (std::size_t k = 0; k < order.size(); ++k) {
        std::int64_t const moved = std::abs(span(tb, *b.ba->values[in_b[k]].live_range) - span(ta, *a.ba->values[in_a[k]].live_range));
        order[k] = {-moved * a.ba->values[in_a[k]].size, k};
    }
    auto const shown = order.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(order.size(), 20));
    std::partial_sort(order.begin(), shown, order.end());
    for (auto it = order.begin(); it != shown; ++it) v.values.push_back(b.value(in_b[it->second]));
    // The two peaks fall at other moments, where one value may be live on both sides for other
    // reasons: what the rescheduled values hold at B's peak is set against what they held at the
    // same point of A's schedule (the moment with as many matched definitions behind it), by color.
    std::map<std::int64_t, logical_time> moment_a;
    for (auto const& c : colors) {
        if (!c.peak_b.measured) continue;
        auto const behind = std::upper_bound(tb.begin(), tb.end(), c.peak_b.time) - tb.begin();
        moment_a[c.color] = behind == 0 ? -1 : ta[static_cast<std::size_t>(behind - 1)];
    }
    std::int64_t then = 0;
    for (std::size_t i : in_a) {
        auto const& va = a.ba->values[i];
        auto const it = moment_a.find(va.allocation == npos ? 0 : a.ba->allocations[va.allocation].color);
        if (it != moment_a.end() && va.live_range->start <= it->second && it->second <= va.live_range->end) then += va.size;
    }
    file_knob(std::move(v), a, in_a, b, in_b, out);
    out.back().bytes_at_peak = b.held_by(in_b) - then;
    out.back().text += "; at B's peak they hold " + signed_human_bytes(out.back().bytes_at_peak) + " against the same point of A's schedule";
}

}  // namespace detail

/// The knobs of the diff `d` of `b` against `a` (see the file's comment): what diff_assignments
/// stores in assignment_diff::knobs. `donations_a` and `donations_b` are each side's
/// (analyze_donations, with its module when at hand).
template <class P, class Q>
std::vector<knob_verdict> name_knobs(assignment_diff const& d, basic_buffer_assignment<P> const& a, basic_source_attribution<Q> const& sources_a,
                                     donation_analysis const& donations_a, basic_buffer_assignment<P> const& b,
                                     basic_source_attribution<Q> const& sources_b, donation_analysis const& donations_b) {
    detail::knob_side<P, Q> sa, sb;
    sa.side = 'a';
    sb.side = 'b';
    for (auto* s : {&sa, &sb}) {
        bool const side_b = s == &sb;
        auto const& ba = side_b ? b : a;
        s->ba = &ba;
        s->sources = side_b ? &sources_b : &sources_a;
        s->donations = side_b ? &donations_b : &donations_a;
        s->held = detail::held_at_peak(d.colors, side_b, ba.values.size());
        s->counterpart.assign(ba.values.size(), npos);
        s->claimed.assign(ba.values.size(), 0);
        for (auto const& alloc : ba.allocations) s->host_allocation.push_back(detail::is_host_allocation(ba, alloc) ? 1 : 0);
    }
    for (auto* s : {&sa, &sb}) {
        for (std::size_t k = 0; k < s->ba->shapes.size(); ++k) s->shape_texts.push_back(to_string(s->ba->shapes[static_cast<shape_id>(k)]));
    }
    for (auto const& p : d.matching.pairs) {
        sa.counterpart[p.a] = p.b;
        sb.counterpart[p.b] = p.a;
    }
    std::vector<knob_verdict> out;
    detail::donation_knob(sa, sb, out);
    detail::offload_knob(sa, sb, out);
    std::int64_t peak_delta = 0;  // of the device colors
    for (auto const& c : d.colors) {
        if (c.color != host_memory_space) peak_delta += c.peak_live_bytes.delta();
    }
    detail::remat_knob(sa, sb, peak_delta, out);
    detail::layout_knob(sa, sb, d.matching, out);
    detail::fusion_knob(sa, sb, d.matching, out);
    detail::scheduling_knob(sa, sb, d.matching, d.colors, out);
    detail::sort_knobs(out);
    return out;
}

/// The knobs a diff with a snapshot side can name: the donations both sides keep, and host
/// memory from memory_analysis() (host_argument, host_output and host_temp bytes), whose
/// bytes at the peak are the move of the device colors' peaks (a snapshot keeps no values to
/// split it).
inline std::vector<knob_verdict> name_snapshot_knobs(assignment_diff const& d, donation_analysis const& donations_a,
                                                     donation_analysis const& donations_b) {
    std::vector<knob_verdict> out;
    detail::knob_side<default_policy, default_policy> sa, sb;
    sa.donations = &donations_a;
    sb.donations = &donations_b;
    sb.side = 'b';
    detail::donation_knob(sa, sb, out);
    if (d.memory_a && d.memory_b) {
        auto host = [](memory_analysis const& m) {
            return m.host_argument_size_in_bytes + m.host_output_size_in_bytes + m.host_temp_size_in_bytes;
        };
        std::int64_t const ha = host(*d.memory_a), hb = host(*d.memory_b);
        if (ha != hb) {
            knob_verdict k;
            k.knob = knob_kind::offload;
            for (auto const& c : d.colors) {
                if (c.color != host_memory_space) k.bytes_at_peak += c.peak_live_bytes.delta();
            }
            bool const out_of_device = hb > ha;
            k.effect = out_of_device && k.bytes_at_peak >= 0 ? knob_effect::partly : knob_effect::took_effect;
            k.text = "host memory (memory_analysis host_argument + host_output + host_temp): " + human_bytes(ha) + " -> " + human_bytes(hb) +
                     "; the device peak moved by " + signed_human_bytes(k.bytes_at_peak) +
                     (k.effect == knob_effect::partly ? ", not down: the offload did not lower it" : std::string());
            out.push_back(std::move(k));
        }
    }
    detail::sort_knobs(out);
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_DIFF_KNOBS_HPP
