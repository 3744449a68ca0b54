// hlomem/output/whatif_report.hpp: what `hlomem whatif` and `hlomem advise` print, as text and as
// JSON: the peaks before and after edits (whatif/what_if.hpp), each edit with its cost or XLA's
// reason to refuse it, and the advice (whatif/advise.hpp) with each suggestion's source line,
// op_name, Python stack and the change in JAX's terms.
#ifndef HLOMEM_OUTPUT_WHATIF_REPORT_HPP
#define HLOMEM_OUTPUT_WHATIF_REPORT_HPP

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/hlo/attribution.hpp>
#include <hlomem/output/json_writer.hpp>
#include <hlomem/whatif/advise.hpp>
#include <hlomem/whatif/what_if.hpp>

namespace hlomem {

namespace detail {

inline std::string bytes_text(std::int64_t b) { return std::to_string(b) + " bytes (" + human_bytes(b) + ")"; }

/// Where an instruction comes from: `file:line`, op_name and the Python stack, outermost first.
struct instruction_source {
    std::string source;
    std::string op_name;
    std::vector<std::string> stack;
};

template <class P>
instruction_source source_of(basic_hlo_module<P> const& m, instruction_id i) {
    instruction_source s;
    auto const* md = m.metadata(i);
    if (!md) return s;
    if (auto const at = metadata_position(*md, &m.stack_frame_index()); at.has_line()) {
        s.source = std::string(at.file) + ":" + std::to_string(at.line);
    }
    s.op_name = std::string(std::string_view(md->op_name));
    for (auto const& f : python_stack(m.stack_frame_index(), md->stack_frame_id)) {
        s.stack.push_back(std::string(f.file_name) + ":" + std::to_string(f.line) + (f.function_name.empty() ? "" : " " + std::string(f.function_name)));
    }
    return s;
}

/// The edit, said once: `remat fusion.3 from 40`, `remat fusion.3 from 40 chain 2` (up to two
/// operands recomputed in turn), `donate parameter 0 {}`.
template <class P>
std::string edit_text(basic_hlo_module<P> const& m, what_if_edit const& e) {
    if (e.kind == what_if_kind::donate) {
        std::string index;
        for (std::int64_t i : e.parameter_index) index += (index.empty() ? "" : ",") + std::to_string(i);
        return "donate parameter " + std::to_string(e.parameter_number) + " {" + index + "}";
    }
    return std::string(to_string(e.kind)) + " " + std::string(std::string_view(m.instruction(e.instruction).name)) + " from " +
           std::to_string(e.from) + (e.chain > 0 ? " chain " + std::to_string(e.chain) : "");
}

/// Where an edit acts: the instruction it names (a donation: the entry parameter), its
/// computation, and for a called computation how it is called and by which instruction.
struct edit_site {
    std::string instruction;
    std::string computation;
    std::string_view called_as = "entry";  ///< "entry", or to_string(call_kind): "while_body", "call", ...
    std::string caller;                    ///< the instruction calling it; empty for the entry
    instruction_id caller_id = no_instruction;
};

template <class P>
edit_site site_of(basic_hlo_module<P> const& m, what_if_edit const& e) {
    edit_site s;
    instruction_id i = e.instruction;
    if (e.kind == what_if_kind::donate) {
        auto const params = m.parameters(m.entry());
        if (e.parameter_number < 0 || static_cast<std::size_t>(e.parameter_number) >= params.size()) return s;
        i = params[static_cast<std::size_t>(e.parameter_number)];
    }
    if (i >= m.instruction_count()) return s;
    computation_id const c = m.instruction(i).computation;
    s.instruction = std::string(std::string_view(m.instruction(i).name));
    s.computation = std::string(std::string_view(m.computation(c).name));
    if (c != m.entry() && !m.callers(c).empty()) {
        auto const& call = m.callers(c)[0];
        s.called_as = to_string(call.kind);
        s.caller = std::string(std::string_view(m.instruction(call.caller).name));
        s.caller_id = call.caller;
    }
    return s;
}

/// The line under an edit inside a called computation: `inside region_0 (the while_body of
/// while.3)`; empty for the entry.
inline std::string site_text(edit_site const& s) {
    if (s.caller.empty()) return {};
    return "inside " + s.computation + " (the " + std::string(s.called_as) + " of " + s.caller + ")";
}

/// The name a checkpoint_name call gives a value in the advice: its instruction's name, with `_`
/// for what a Python identifier lacks (`fft.8.0` -> `fft_8_0`).
inline std::string checkpoint_name_of(std::string_view instruction) {
    std::string out(instruction);
    for (char& c : out) {
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) c = '_';
    }
    return out;
}

/// Whether JAX differentiated the program: its op_names carry jvp( or transpose( (the forward and
/// backward passes of jax.grad), where jax.checkpoint decides what is saved for the backward pass.
template <class P>
bool differentiated(basic_hlo_module<P> const& m) {
    for (instruction_id i = 0; i < m.instruction_count(); ++i) {
        auto const* md = m.metadata(i);
        if (!md) continue;
        std::string_view const op_name(md->op_name);
        if (op_name.find("jvp(") != std::string_view::npos || op_name.find("transpose(") != std::string_view::npos) return true;
    }
    return false;
}

/// The change in JAX's terms.
///   donate   JAX names each flat argument by its pytree path in the entry parameter's op_name
///            (`params[3][1]`); donation is per argument of the jitted function, so the advice
///            names the argument (`params`, for donate_argnames) and the leaf.
///   remat    jax.checkpoint around the call the value comes from (its source line).
///   offload  checkpoint_name on the value and a policy that offloads that name
///            (jax.checkpoint_policies.save_and_offload_only_these_names, to pinned_host).
/// Inside a while body (a lax.scan or fori_loop), the function the loop runs is the one to wrap:
/// the advice names the loop's own source line. `differentiated_module`: differentiated(m), which
/// the writers find once per module.
template <class P>
std::string jax_change(basic_hlo_module<P> const& m, what_if_outcome const& o, bool differentiated_module) {
    auto const& e = o.edit;
    if (e.kind == what_if_kind::donate) {
        std::string output;
        for (auto i : o.output_index) output += (output.empty() ? "" : ",") + std::to_string(i);
        std::string const tail = "; XLA aliases it to output {" + output + "}";
        auto const params = m.parameters(m.entry());
        std::string path;
        if (e.parameter_number >= 0 && static_cast<std::size_t>(e.parameter_number) < params.size()) {
            if (auto const* md = m.metadata(params[static_cast<std::size_t>(e.parameter_number)])) path = std::string(std::string_view(md->op_name));
        }
        // A pytree path: an identifier, then [i] or .name steps (an op_name of JAX's own, such as
        // `jit(f)/...`, is not one).
        std::size_t const root_end = path.find_first_of("[.");
        std::string const root = path.substr(0, root_end);
        bool const is_path = !root.empty() && root.find_first_of("()/ ") == std::string::npos;
        if (!is_path) {
            return "donate flat argument " + std::to_string(e.parameter_number) + " (donate_argnums of the jitted function)" + tail;
        }
        return "donate argument '" + root + "' (donate_argnames=('" + root + "',) of the jitted function, or its position in donate_argnums): " +
               "flat argument " + std::to_string(e.parameter_number) + " is its leaf " + path + tail;
    }
    auto const src = source_of(m, e.instruction);
    std::string const where = src.source.empty() ? "the call that produces it" : "the call at " + src.source;
    std::string loop;
    auto const site = site_of(m, e);
    if (site.called_as == to_string(call_kind::while_body)) {
        auto const loop_src = source_of(m, site.caller_id);
        loop = "; it is inside the body of " + site.caller + (loop_src.source.empty() ? "" : " (the loop at " + loop_src.source + ")") +
               ": wrap the function the loop runs (lax.scan(jax.checkpoint(body, policy=...), ...))";
    }
    if (e.kind == what_if_kind::remat) {
        if (!differentiated_module) {
            return "no gradient is taken here (no jvp( or transpose( in the module's op_names), so jax.checkpoint has nothing to "
                   "recompute: compute the value again where it is read, at " + (src.source.empty() ? std::string("its source") : src.source) +
                   ", or leave it to XLA's HloRematerialization under a memory limit";
        }
        return "checkpoint " + where + " (jax.checkpoint / jax.remat; do not save this value)" + loop;
    }
    std::string const name = checkpoint_name_of(site.instruction);
    return "offload it: name it with jax.ad_checkpoint.checkpoint_name(x, '" + name + "') at " +
           (src.source.empty() ? std::string("its source") : src.source) +
           " and jax.checkpoint with policy=jax.checkpoint_policies.save_and_offload_only_these_names(names_which_can_be_saved=[], "
           "names_which_can_be_offloaded=['" + name + "'], offload_src='device', offload_dst='pinned_host')" + loop;
}

template <class P>
std::string cost_text(what_if_outcome const& o) {
    switch (o.edit.kind) {
        case what_if_kind::donate: return "no cost";
        case what_if_kind::remat:
            return "re-runs " + std::to_string(o.instructions_recomputed) + (o.instructions_recomputed == 1 ? " instruction" : " instructions") +
                   (o.instructions_recomputed > 1 ? " (" + std::to_string(o.instructions_recomputed - 1) + " of its operands in turn)" : "") + ", " +
                   bytes_text(o.bytes_recomputed) + " recomputed";
        case what_if_kind::offload: return bytes_text(o.bytes_to_host) + " to host and back";
    }
    return {};
}

inline void write_peaks_text(std::ostream& out, std::string_view label, what_if_peaks const& s) {
    out << label << ": XLA's peak " << bytes_text(s.xla.bytes) << " at " << s.xla.time << " of " << s.max << '\n';
    for (auto const& [color, p] : s.colors) out << "  color " << color << ": " << bytes_text(p.bytes) << " live at " << p.time << '\n';
}

inline void write_peaks_json(json_writer& j, what_if_peaks const& s) {
    j.begin_object();
    j.key("xla_peak_bytes").value(s.xla.bytes).key("xla_peak_time").value(static_cast<std::int64_t>(s.xla.time));
    j.key("max").value(static_cast<std::int64_t>(s.max));
    j.key("colors").begin_array();
    for (auto const& [color, p] : s.colors) {
        j.begin_object().key("color").value(color).key("peak_bytes").value(p.bytes).key("peak_time").value(static_cast<std::int64_t>(p.time)).end_object();
    }
    j.end_array().end_object();
}

template <class P>
void write_outcome_json(json_writer& j, basic_hlo_module<P> const& m, what_if_outcome const& o, bool differentiated_module) {
    j.begin_object().key("edit").value(edit_text(m, o.edit)).key("kind").value(to_string(o.edit.kind));
    auto const site = site_of(m, o.edit);
    j.key("instruction").value(site.instruction).key("computation").value(site.computation).key("called_as").value(site.called_as);
    j.key("caller");
    if (site.caller.empty()) j.null(); else j.value(site.caller);
    j.key("accepted").value(o.accepted);
    if (!o.accepted) return void(j.key("reason").value(o.reason).end_object());
    j.key("instructions_recomputed").value(o.instructions_recomputed).key("bytes_recomputed").value(o.bytes_recomputed);
    j.key("bytes_to_host").value(o.bytes_to_host).key("bytes_to_device").value(o.bytes_to_device);
    j.key("jax").value(jax_change(m, o, differentiated_module));
    if (o.edit.kind != what_if_kind::donate) {
        auto const src = source_of(m, o.edit.instruction);
        j.key("source").value(src.source).key("op_name").value(src.op_name);
        j.key("stack").begin_array();
        for (auto const& f : src.stack) j.value(f);
        j.end_array();
    }
    j.end_object();
}

}  // namespace detail

namespace detail {

/// print_what_if_text and print_what_if_json.
template <class P>
void write_what_if(std::ostream& out, basic_what_if<P> const& w, what_if_peaks const& before, std::vector<what_if_outcome> const& outcomes,
                   bool as_json) {
    auto const& m = w.module();
    bool const differentiated = detail::differentiated(m);  // once: each remat's JAX change reads it
    if (as_json) {
        json_writer j(out);
        j.begin_object().key("module").value(std::string_view(m.name())).key("before");
        detail::write_peaks_json(j, before);
        j.key("edits").begin_array();
        for (auto const& o : outcomes) detail::write_outcome_json(j, m, o, differentiated);
        j.end_array().key("after");
        detail::write_peaks_json(j, w.peaks());
        j.end_object();
        out << '\n';
        return;
    }
    out << "module " << std::string_view(m.name()) << '\n';
    detail::write_peaks_text(out, "before", before);
    for (auto const& o : outcomes) {
        out << detail::edit_text(m, o.edit) << ": ";
        if (!o.accepted) {
            out << "refused: " << o.reason << '\n';
            continue;
        }
        out << detail::cost_text<P>(o) << '\n';
        if (auto const site = detail::site_text(detail::site_of(m, o.edit)); !site.empty()) out << "  " << site << '\n';
        if (o.edit.kind != what_if_kind::donate) {
            auto const src = detail::source_of(m, o.edit.instruction);
            if (!src.source.empty()) out << "  source " << src.source << '\n';
        }
        out << "  in JAX: " << detail::jax_change(m, o, differentiated) << '\n';
    }
    detail::write_peaks_text(out, "after", w.peaks());
}

}  // namespace detail

namespace detail {

/// `against` and `memory_analysis` of `hlomem advise --json`: null when the budget is on each
/// color's live peak.
inline void write_against_json(json_writer& j, memory_analysis_advice const* ma) {
    j.key("against").value(ma ? "memory_analysis" : "peak").key("memory_analysis");
    if (!ma) return void(j.null());
    j.begin_object().key("budget").value(ma->budget).key("peak_memory_in_bytes_before").value(ma->peak_before());
    j.key("peak_memory_in_bytes_after").value(ma->peak_after()).key("fits").value(ma->fits);
    j.key("color").value(ma->color).key("rounds").value(static_cast<std::int64_t>(ma->rounds));
    j.key("peak_time_before");
    if (ma->before.peak_time) j.value(static_cast<std::int64_t>(*ma->before.peak_time)); else j.null();
    j.key("peak_time_after");
    if (ma->after && ma->after->peak_time) j.value(static_cast<std::int64_t>(*ma->after->peak_time)); else j.null();
    j.end_object();
}

/// The line of `hlomem advise --against memory_analysis` above the colors.
inline void write_against_text(std::ostream& out, memory_analysis_advice const& ma) {
    out << "memory_analysis() peak_memory_in_bytes: " << bytes_text(ma.peak_before()) << ", budget " << bytes_text(ma.budget) << " -> "
        << bytes_text(ma.peak_after()) << (ma.fits ? ", fits" : ", does not fit");
    if (ma.rounds > 0 && ma.after) {
        out << " (the edited module's, predicted as for the module; color " << ma.color << "'s live budget lowered to match, "
            << ma.rounds << (ma.rounds == 1 ? " search)" : " searches)");
    } else if (ma.rounds > 0) {
        out << " (no edit lowers color " << ma.color << "'s live peak)";
    }
    out << '\n';
}

}  // namespace detail

namespace detail {

/// print_advice_text and print_advice_json.
template <class P>
void write_advice(std::ostream& out, basic_what_if<P> const& w, budget_advice const& b, std::size_t shown, bool as_json) {
    auto const& m = w.module();
    bool const differentiated = detail::differentiated(m);  // once: each remat's JAX change reads it
    auto const& a = b.live;
    memory_analysis_advice const* against = b.memory_analysis ? &*b.memory_analysis : nullptr;
    if (as_json) {
        json_writer j(out);
        j.begin_object().key("module").value(std::string_view(m.name()));
        detail::write_against_json(j, against);
        j.key("colors").begin_array();
        for (auto const& c : a.colors) {
            j.begin_object().key("color").value(c.color).key("budget").value(c.budget).key("peak_before").value(c.before.bytes);
            j.key("peak_after").value(c.after.bytes).key("fits").value(c.fits).key("obstacles").begin_array();
            for (auto const& s : c.obstacles) j.value(s);
            j.end_array().end_object();
        }
        j.end_array().key("set").begin_array();
        for (std::size_t k : a.chosen) j.value(k);
        j.end_array().key("exact_search").begin_object().key("evaluations").value(a.evaluations);
        j.key("complete").value(a.exact_complete).key("improved").value(a.exact_improved).end_object();
        j.key("candidates").begin_array();
        for (std::size_t k = 0; k < a.candidates.size() && k < shown; ++k) {
            auto const& c = a.candidates[k];
            j.begin_object().key("rank").value(k).key("color").value(c.color).key("saved").value(c.saved).key("cost_bytes").value(c.cost_bytes);
            j.key("outcome");
            detail::write_outcome_json(j, m, c.outcome, differentiated);
            j.end_object();
        }
        j.end_array().key("refused").begin_object();
        for (auto const& [reason, n] : a.refused) j.key(reason).value(n);
        j.end_object().end_object();
        out << '\n';
        return;
    }
    out << "module " << std::string_view(m.name()) << '\n';
    if (against) detail::write_against_text(out, *against);
    for (auto const& c : a.colors) {
        out << "color " << c.color << ": peak " << detail::bytes_text(c.before.bytes) << ", budget " << detail::bytes_text(c.budget) << " -> "
            << detail::bytes_text(c.after.bytes) << (c.fits ? ", fits" : ", does not fit") << '\n';
        for (auto const& s : c.obstacles) out << "  in the way: " << s << '\n';
    }
    out << "set (" << a.chosen.size() << (a.exact_improved ? ", smaller than the greedy one" : "") << "):\n";
    auto line = [&](std::size_t k) {
        auto const& c = a.candidates[k];
        out << "  #" << k + 1 << " " << detail::edit_text(m, c.outcome.edit) << ": saves " << detail::bytes_text(c.saved) << " of color " << c.color
            << "; " << detail::cost_text<P>(c.outcome) << '\n';
        if (auto const site = detail::site_text(detail::site_of(m, c.outcome.edit)); !site.empty()) out << "      " << site << '\n';
        if (c.outcome.edit.kind != what_if_kind::donate) {
            auto const src = detail::source_of(m, c.outcome.edit.instruction);
            if (!src.source.empty()) out << "      source " << src.source << '\n';
            if (!src.op_name.empty()) out << "      op_name " << src.op_name << '\n';
            for (auto const& f : src.stack) out << "      at " << f << '\n';
        }
        out << "      in JAX: " << detail::jax_change(m, c.outcome, differentiated) << '\n';
    };
    for (std::size_t k : a.chosen) line(k);
    out << "candidates (" << a.candidates.size() << ", by bytes saved per byte of cost):\n";
    for (std::size_t k = 0; k < a.candidates.size() && k < shown; ++k) line(k);
    if (!a.refused.empty()) out << "refused at the peaks:\n";
    for (auto const& [reason, n] : a.refused) out << "  " << n << " x " << reason << '\n';
}

}  // namespace detail

/// `hlomem whatif`: the peaks before the edits, each edit with its cost or XLA's reason to refuse
/// it, the peaks after.
template <class P>
void print_what_if_text(std::ostream& out, basic_what_if<P> const& w, what_if_peaks const& before,
                        std::vector<what_if_outcome> const& outcomes) {
    detail::write_what_if(out, w, before, outcomes, false);
}

/// `hlomem whatif --json`: module, before, edits, after.
template <class P>
void print_what_if_json(std::ostream& out, basic_what_if<P> const& w, what_if_peaks const& before,
                        std::vector<what_if_outcome> const& outcomes) {
    detail::write_what_if(out, w, before, outcomes, true);
}

/// `hlomem advise`: against memory_analysis(), first its budget and peak before and after
/// (whatif/advise_memory_analysis.hpp); each color's budget and peaks, the set chosen, the ranked
/// candidates (`shown` of them).
template <class P>
void print_advice_text(std::ostream& out, basic_what_if<P> const& w, budget_advice const& b, std::size_t shown) {
    detail::write_advice(out, w, b, shown, false);
}

/// `hlomem advise --json`: the same as one JSON document.
template <class P>
void print_advice_json(std::ostream& out, basic_what_if<P> const& w, budget_advice const& b, std::size_t shown) {
    detail::write_advice(out, w, b, shown, true);
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_WHATIF_REPORT_INSTANTIATIONS(EXTERN, P) \
    EXTERN template void detail::write_what_if<P>(std::ostream&, basic_what_if<P> const&, what_if_peaks const&, std::vector<what_if_outcome> const&, bool); \
    EXTERN template void detail::write_advice<P>(std::ostream&, basic_what_if<P> const&, budget_advice const&, std::size_t, bool);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_WHATIF_REPORT_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_WHATIF_REPORT_HPP
