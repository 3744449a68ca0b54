// hlomem/whatif/advise.hpp: which edits bring a module under a memory budget. Every candidate
// (each entry parameter donated; each value live at a color's peak rematerialized or offloaded
// from that peak on) is evaluated on the what-if, ranked by bytes saved at its color's peak per
// byte of cost, and a set is chosen: greedily in that order, then by an exact search, bounded,
// over the best candidates for a smaller set.
//
//   hlomem::what_if w(module);
//   hlomem::advise_options o;
//   o.budget_fraction = 0.9;                  // or o.budget_bytes = 8'000'000'000
//   auto a = hlomem::advise(w, o);            // w holds the chosen set on return
//   a.candidates[a.chosen[0]].outcome.edit;   // the first edit of the set
//   a.colors[0].fits;                         // each color under its budget?
//
// Costs are bytes: a remat's bytes recomputed (its clone's buffer), an offload's bytes moved both
// ways; a donation costs nothing and ranks first. Savings are what the hardware holds at the
// color's peak (basic_what_if::color_peak), each candidate evaluated alone.
#ifndef HLOMEM_WHATIF_ADVISE_HPP
#define HLOMEM_WHATIF_ADVISE_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <hlomem/memory/memory_analysis.hpp>
#include <hlomem/whatif/what_if.hpp>

namespace hlomem {

struct advise_options {
    std::optional<std::int64_t> budget_bytes;  ///< every color's budget; unset: a fraction of its peak
    double budget_fraction = 0.9;
    /// A color's own budget, over the two above (advise_memory_analysis sets them).
    std::map<std::int64_t, std::int64_t> color_budgets;
    std::size_t exact_candidates = 12;         ///< the exact search looks at the best ranked these
    std::size_t exact_evaluations = 20000;     ///< and evaluates at most so many sets
    /// A remat may recompute up to so many of its operands in turn (what_if_edit::chain), where
    /// they would otherwise live on to its clone; each remat is tried with and without them.
    std::size_t remat_chain = 2;
};

struct advice_candidate {
    what_if_outcome outcome;
    std::int64_t color = 0;
    std::int64_t saved = 0;       ///< bytes off the color's peak, the edit alone
    std::int64_t cost_bytes = 0;  ///< recomputed, or moved both ways; 0 for a donation
    /// Bytes saved per byte of cost; a donation's is infinite.
    double ratio() const {
        return cost_bytes == 0 ? std::numeric_limits<double>::infinity() : static_cast<double>(saved) / static_cast<double>(cost_bytes);
    }
};

struct color_advice {
    std::int64_t color = 0;
    what_if_peak before;
    std::int64_t budget = 0;
    what_if_peak after;           ///< with the chosen set
    bool fits = false;
    /// When it does not fit: the largest values still live at its peak and why no edit moved them.
    std::vector<std::string> obstacles;
};

struct advice {
    std::vector<advice_candidate> candidates;  ///< ranked, best first
    std::vector<std::size_t> chosen;           ///< the set, indices into candidates
    std::vector<color_advice> colors;
    std::map<std::string, std::size_t> refused;  ///< edits of values at the peaks refused, by reason's kind
    std::size_t evaluations = 0;               ///< sets the exact search evaluated
    bool exact_complete = true;                ///< the search ended before its bound
    bool exact_improved = false;               ///< it found a smaller set than the greedy one

    /// Whether the set brings every color under its budget.
    bool fits() const {
        return std::all_of(colors.begin(), colors.end(), [](color_advice const& c) { return c.fits; });
    }
    /// Each color's budget, by color (what the what-if page draws as a line).
    std::map<std::int64_t, std::int64_t> budgets() const {
        std::map<std::int64_t, std::int64_t> out;
        for (auto const& c : colors) out[c.color] = c.budget;
        return out;
    }
};

/// The budget on memory_analysis()'s peak, before and after the set (advise_budget, in
/// whatif/advise_memory_analysis.hpp, which needs the parser).
struct memory_analysis_advice {
    std::int64_t budget = 0;        ///< on peak_memory_in_bytes
    memory_analysis before;         ///< predicted for the module as given
    /// Predicted for the module with the chosen set written in; nullopt when the set is empty.
    std::optional<memory_analysis> after;
    std::int64_t color = 0;         ///< the color whose heap trace reaches the peak, whose live budget was lowered
    std::size_t rounds = 0;         ///< searches run (1 to 4; 0 when the module fits as it is)
    bool fits = false;              ///< the edited module's figure (or the module's) within the budget

    std::int64_t peak_before() const { return before.peak_memory_in_bytes.value_or(0); }
    std::int64_t peak_after() const { return after ? after->peak_memory_in_bytes.value_or(0) : peak_before(); }
};

/// What `hlomem advise` and hlomem.advise report: the advice on each color's live peak (against
/// memory_analysis(), that of the last search), and the budget on memory_analysis()'s peak when
/// the budget was taken against it.
struct budget_advice {
    advice live;
    std::optional<memory_analysis_advice> memory_analysis;

    /// Whether the set fits: memory_analysis()'s peak when the budget is on it, else every color.
    bool fits() const { return memory_analysis ? memory_analysis->fits : live.fits(); }
};

namespace detail {

/// A refusal's kind: its reason without the value's name, so that reasons count together.
inline std::string reason_kind(std::string const& reason) {
    std::size_t const space = reason.find(' ');
    return space == std::string::npos ? reason : reason.substr(space + 1);
}

/// Whether the what-if's colors are all within their budgets.
template <class P>
bool fits(basic_what_if<P> const& w, std::vector<color_advice> const& colors) {
    return std::all_of(colors.begin(), colors.end(), [&](color_advice const& c) { return w.color_peak(c.color).bytes <= c.budget; });
}

/// The candidates of one color: each value live at its peak, rematerialized (alone, and with up
/// to `chain` operands recomputed in turn) and offloaded from the peak's time (and from the next,
/// for a value the peak's instruction reads), the best kept. A value inside a while body or another
/// called computation is a candidate as any other: its times are the flattened schedule's
/// (HloLiveRange's FlattenSchedule), and the clone or copies go into its own computation.
template <class P>
void color_candidates(basic_what_if<P>& w, std::int64_t color, std::size_t chain, advice& out) {
    std::int64_t const peak = w.color_peak(color).bytes;
    logical_time const at = w.color_peak_time_original(color);
    for (std::size_t k : w.live_at_color_peak(color)) {
        instruction_id const i = w.edit_instruction(k);
        for (what_if_kind kind : {what_if_kind::remat, what_if_kind::offload}) {
            std::optional<advice_candidate> best;
            std::vector<what_if_edit> tries;
            for (logical_time from : {at, at + 1}) {
                if (kind == what_if_kind::offload) {
                    tries.push_back(what_if_edit::offload(i, from));
                    continue;
                }
                tries.push_back(what_if_edit::remat(i, from));
                if (chain > 0) tries.push_back(what_if_edit::remat(i, from, chain));
            }
            for (auto const& e : tries) {
                auto o = w.apply(e);
                if (!o.accepted) {
                    if (e.from == at && e.chain == 0) ++out.refused[std::string(to_string(kind)) + ": " + reason_kind(o.reason)];
                    continue;
                }
                std::int64_t const saved = peak - w.color_peak(color).bytes;
                w.undo();
                // A chain is kept only where it saves more than the remat alone, which costs less.
                if (saved <= 0 || (best && best->saved >= saved)) continue;
                best = advice_candidate{o, color, saved, o.bytes_recomputed + o.bytes_to_host + o.bytes_to_device};
            }
            if (best) out.candidates.push_back(*best);
        }
    }
}

/// Why value k, which an edit may move, still holds bytes at a color's peak: the reason its
/// offload or remat from the peak is refused (it is defined at the peak, or read there last), or,
/// when one is accepted, that moving it alone lowers no peak and where the color then peaks.
template <class P>
std::string unmoved_reason(basic_what_if<P>& w, std::size_t k, std::int64_t color) {
    logical_time const at = w.color_peak_time_original(color);
    instruction_id const i = w.edit_instruction(k);
    std::string const name = w.liveness().dataflow().name_of(w.liveness().dataflow().values()[k]);
    if (auto const range = w.edited_range(k); range && range->first == w.color_peak(color).time) {
        return name + " is defined at the peak, by the instruction that runs there";
    }
    std::string first_refusal;
    for (what_if_kind kind : {what_if_kind::offload, what_if_kind::remat}) {
        for (logical_time from : {at, at + 1}) {
            auto const o = w.apply(kind == what_if_kind::remat ? what_if_edit::remat(i, from) : what_if_edit::offload(i, from));
            if (!o.accepted) {
                if (first_refusal.empty()) first_refusal = o.reason;
                continue;
            }
            auto const after = w.color_peak(color);
            w.undo();
            return std::string(to_string(kind)) + " of " + name + " from " + std::to_string(from) + " alone lowers no peak: color " +
                   std::to_string(color) + " would hold " + std::to_string(after.bytes) + " bytes at time " + std::to_string(after.time);
        }
    }
    return first_refusal.empty() ? name + " cannot be moved from the peak" : first_refusal;
}

/// The bounded exact search: sets of the best `n` candidates by size, smallest first, up to
/// `limit` edits; the first set that fits is returned.
template <class P>
bool search_sets(basic_what_if<P>& w, advice& a, std::size_t n, std::size_t start, std::size_t size, std::size_t budget_evaluations,
                 std::vector<std::size_t>& current) {
    if (current.size() == size) {
        ++a.evaluations;
        return fits(w, a.colors);
    }
    for (std::size_t j = start; j < n; ++j) {
        if (a.evaluations >= budget_evaluations) {
            a.exact_complete = false;
            return false;
        }
        if (!w.apply(a.candidates[j].outcome.edit).accepted) continue;
        current.push_back(j);
        if (search_sets(w, a, n, j + 1, size, budget_evaluations, current)) return true;
        current.pop_back();
        w.undo();
    }
    return false;
}

}  // namespace detail

/// Candidates ranked and the set chosen, on `w` (which must hold no edit; it holds the set on
/// return, so that emit_module writes it).
template <class P>
advice advise(basic_what_if<P>& w, advise_options const& options = {}) {
    advice a;
    for (std::int64_t color : w.colors()) {
        color_advice c;
        c.color = color;
        c.before = w.color_peak(color);
        if (c.before.bytes <= 0) continue;
        auto const own = options.color_budgets.find(color);
        c.budget = own != options.color_budgets.end() ? own->second
                   : options.budget_bytes            ? *options.budget_bytes
                                                     : static_cast<std::int64_t>(static_cast<double>(c.before.bytes) * options.budget_fraction);
        a.colors.push_back(c);
        detail::color_candidates(w, color, options.remat_chain, a);
    }
    auto const& m = w.module();
    for (std::size_t p = 0; p < m.parameters(m.entry()).size(); ++p) {
        auto o = w.apply(what_if_edit::donate(static_cast<std::int64_t>(p)));
        if (!o.accepted) continue;
        std::optional<advice_candidate> best;
        for (auto const& c : a.colors) {
            std::int64_t const saved = c.before.bytes - w.color_peak(c.color).bytes;
            if (saved > 0 && (!best || saved > best->saved)) best = advice_candidate{o, c.color, saved, 0};
        }
        w.undo();
        if (best) a.candidates.push_back(*best);
    }
    std::stable_sort(a.candidates.begin(), a.candidates.end(), [](advice_candidate const& x, advice_candidate const& y) {
        if (x.ratio() != y.ratio()) return x.ratio() > y.ratio();
        return x.saved > y.saved;
    });
    // Greedy: in rank order, each edit kept when it lowers a color still over its budget.
    for (std::size_t j = 0; j < a.candidates.size() && !detail::fits(w, a.colors); ++j) {
        auto const& cand = a.candidates[j];
        auto const c = std::find_if(a.colors.begin(), a.colors.end(), [&](color_advice const& x) { return x.color == cand.color; });
        std::int64_t const now = w.color_peak(cand.color).bytes;
        if (c == a.colors.end() || now <= c->budget) continue;
        if (!w.apply(cand.outcome.edit).accepted) continue;
        if (w.color_peak(cand.color).bytes < now) {
            a.chosen.push_back(j);
        } else {
            w.undo();
        }
    }
    // Exact: a smaller set among the best candidates, when the greedy one fits with two or more.
    if (detail::fits(w, a.colors) && a.chosen.size() > 1) {
        std::size_t const n = std::min(options.exact_candidates, a.candidates.size());
        std::vector<std::size_t> const greedy = a.chosen;
        while (!w.edits().empty()) w.undo();
        std::vector<std::size_t> current;
        bool found = false;
        for (std::size_t size = 1; size < greedy.size() && !found && a.exact_complete; ++size) {
            found = detail::search_sets(w, a, n, 0, size, options.exact_evaluations, current);
        }
        if (found) {
            a.chosen = current;
            a.exact_improved = true;
        } else {
            while (!w.edits().empty()) w.undo();
            for (std::size_t j : greedy) w.apply(a.candidates[j].outcome.edit);
        }
    }
    for (auto& c : a.colors) {
        c.after = w.color_peak(c.color);
        c.fits = c.after.bytes <= c.budget;
        if (c.fits) continue;
        auto live = w.live_at_color_peak(c.color);
        std::stable_sort(live.begin(), live.end(), [&](std::size_t x, std::size_t y) { return w.buffer_bytes(x) > w.buffer_bytes(y); });
        for (std::size_t j = 0; j < live.size() && c.obstacles.size() < 3; ++j) {
            std::string why = w.why_not_movable(live[j], false);
            auto const& v = w.liveness().dataflow().values()[live[j]];
            auto const& inst = m.instruction(v.instruction);
            if (inst.opcode == hlo_opcode::parameter && inst.computation == m.entry()) {
                // An entry parameter: what its donation meets, in XLA's words.
                auto const index = w.liveness().dataflow().index_of(v);
                auto const o = w.apply(what_if_edit::donate(inst.parameter_number, std::vector<std::int64_t>(index.begin(), index.end())));
                if (o.accepted) w.undo();
                why = o.accepted ? "donating parameter " + std::to_string(inst.parameter_number) + " lowers no peak" : o.reason;
            }
            if (why.empty()) why = detail::unmoved_reason(w, live[j], c.color);
            c.obstacles.push_back(why + " (" + std::to_string(w.buffer_bytes(live[j])) + " bytes)");
        }
    }
    return a;
}

}  // namespace hlomem

#endif  // HLOMEM_WHATIF_ADVISE_HPP
