// hlomem/whatif/advise_memory_analysis.hpp: advice under a budget on the figure JAX users read
// first, `compiled.memory_analysis().peak_memory_in_bytes`, checked on the edited module.
//
//   hlomem::what_if w(module);                                  // parsed from `text`
//   auto options = hlomem::advise_budget_named("60000000");     // or "90%" of the module's figure
//   auto r = hlomem::advise_budget(w, text, *options, hlomem::advise_against::memory_analysis);
//   r.memory_analysis->before.peak_memory_in_bytes;  r.memory_analysis->after;  r.fits();
//
// advise_budget is the one entry point of `hlomem advise` and hlomem.advise: against
// advise_against::peak it is `advise` (each color's live peak), with no memory_analysis.
//
// peak_memory_in_bytes is XLA's ComputePeakMemorySizes (memory/memory_analysis.hpp): a static part
// (parameters, constants, outputs) plus the highest point of one color's heap trace. The what-if
// measures what each color's buffers hold at their highest (basic_what_if::color_peak), which moves
// with the heap's peak but is not the same figure. So the budget is turned into a budget on that
// color's live peak: lower it by the bytes the module's figure is over the budget, let `advise`
// choose the edits, then write them into the module's text (emit_module), read it back and predict
// its memory_analysis() as for any module (assign/predict.hpp). Where the edited module is still
// over, its live budget is lowered by what is still missing and the search runs again, at most
// four rounds; the result states the figure before and after, both predicted the same way.
#ifndef HLOMEM_WHATIF_ADVISE_MEMORY_ANALYSIS_HPP
#define HLOMEM_WHATIF_ADVISE_MEMORY_ANALYSIS_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <hlomem/assign/predict.hpp>
#include <hlomem/core/error.hpp>
#include <hlomem/memory/memory_analysis.hpp>
#include <hlomem/parser.hpp>
#include <hlomem/whatif/advise.hpp>
#include <hlomem/whatif/apply.hpp>
#include <hlomem/whatif/edit_request.hpp>

namespace hlomem {

namespace detail {

/// The search against memory_analysis()'s peak (the rule above).
template <class P>
budget_advice advise_memory_analysis(basic_what_if<P>& w, std::string_view text, advise_options const& options,
                                     assign_options const& assign) {
    auto predict = [&](std::string_view module_text, std::string_view name) {
        return predicted_memory_analysis(parse_hlo_module<view_policy>(module_text, name), assign);  // viewing the text: no copy
    };
    budget_advice out;
    auto& r = out.memory_analysis.emplace();
    r.before = predict(text, std::string_view(w.module().name()));
    if (!r.before.peak_memory_in_bytes) throw error("memory_analysis(): the module's peak_memory_in_bytes cannot be predicted");
    std::int64_t const peak = *r.before.peak_memory_in_bytes;
    r.budget = options.budget_bytes ? *options.budget_bytes : static_cast<std::int64_t>(static_cast<double>(peak) * options.budget_fraction);
    r.color = r.before.peak_color.value_or(0);
    // Bytes the chosen color's live peak must lose; the other colors keep theirs.
    std::int64_t cut = peak - r.budget;
    advise_options o = options;
    o.budget_bytes.reset();
    for (std::int64_t c : w.colors()) o.color_budgets[c] = w.color_peak(c).bytes;
    std::int64_t const live_peak = w.color_peak(r.color).bytes;
    if (cut <= 0) {
        out.live = advise(w, o);  // every color at its own peak: the candidates, no set
        r.fits = true;
        return out;
    }
    for (r.rounds = 1; r.rounds <= 4; ++r.rounds) {
        while (!w.edits().empty()) w.undo();
        o.color_budgets[r.color] = live_peak - cut;
        out.live = advise(w, o);
        if (w.edits().empty()) {
            r.after.reset();
            break;
        }
        r.after = predict(emit_module(text, w), std::string(std::string_view(w.module().name())) + " (edited)");
        std::int64_t const now = r.after->peak_memory_in_bytes.value_or(peak);
        if (now <= r.budget) {
            r.fits = true;
            break;
        }
        // The live search reached no lower than asked: asking lower finds nothing new.
        if (!out.live.fits() || r.rounds == 4) break;
        cut += now - r.budget;
    }
    return out;
}

}  // namespace detail

/// The edits that bring `w`'s module under `options`' budget, taken `against` each color's live
/// peak or memory_analysis()'s peak_memory_in_bytes (bytes, or a fraction of the module's own
/// figure). `text` is the module's text, the one `w`'s module was parsed from. `w` must hold no
/// edit; it holds the set on return. Throws error when the module's figure cannot be predicted.
template <class P>
budget_advice advise_budget(basic_what_if<P>& w, std::string_view text, advise_options const& options, advise_against against,
                            assign_options const& assign = {}) {
    if (against == advise_against::memory_analysis) return detail::advise_memory_analysis(w, text, options, assign);
    return budget_advice{advise(w, options), std::nullopt};
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_ADVISE_MEMORY_ANALYSIS_INSTANTIATIONS(EXTERN, P) \
    EXTERN template budget_advice advise_budget<P>(basic_what_if<P>&, std::string_view, advise_options const&, advise_against, assign_options const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_ADVISE_MEMORY_ANALYSIS_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_WHATIF_ADVISE_MEMORY_ANALYSIS_HPP
