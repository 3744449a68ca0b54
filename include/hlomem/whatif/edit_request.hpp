// hlomem/whatif/edit_request.hpp: edits and budgets as a person names them, read into what
// what_if.hpp and advise.hpp take. The tool's `whatif --donate N --remat NAME --offload NAME
// --from T` and `advise --budget BYTES|P%` read them so, and so do Python's Dump.what_if and
// hlomem.advise, so that both give the same edits, the same errors and the same numbers.
//
//   hlomem::what_if w(module);
//   std::vector<hlomem::edit_request> r = {hlomem::edit_request::remat("fusion.3")};
//   auto outcomes = hlomem::apply_requests(w, r);      // !outcomes: outcomes.error().message
//   auto options = hlomem::advise_budget_named("90%");  // nullopt: not bytes nor a percent
//
// A remat or offload splits at `from` when given, else at XLA's peak before any edit
// (basic_what_if::peak_time_original: `hlomem whatif` without --from), the moment the peak
// the module states is reached; every request of one call takes that same moment, also after
// an earlier edit has moved the peak.
#ifndef HLOMEM_WHATIF_EDIT_REQUEST_HPP
#define HLOMEM_WHATIF_EDIT_REQUEST_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/core/error.hpp>
#include <hlomem/core/result.hpp>
#include <hlomem/whatif/advise.hpp>
#include <hlomem/whatif/edit.hpp>
#include <hlomem/whatif/what_if.hpp>

namespace hlomem {

/// One edit as named: a donation by parameter number, a remat or an offload by instruction name.
struct edit_request {
    what_if_kind kind = what_if_kind::donate;
    std::int64_t parameter_number = -1;  ///< donate: the entry parameter (its whole value, index {})
    std::string instruction;             ///< remat, offload: the defining instruction's name, without `%`
    std::optional<logical_time> from;    ///< remat, offload: the split time; unset, XLA's peak before any edit
    std::size_t chain = 0;               ///< remat: operands at most recomputed in turn (what_if_edit::chain)

    static edit_request donate(std::int64_t parameter) {
        edit_request r;
        r.parameter_number = parameter;
        return r;
    }
    static edit_request remat(std::string name, std::optional<logical_time> from = std::nullopt, std::size_t chain = 0) {
        edit_request r;
        r.kind = what_if_kind::remat;
        r.instruction = std::move(name);
        r.from = from;
        r.chain = chain;
        return r;
    }
    static edit_request offload(std::string name, std::optional<logical_time> from = std::nullopt) {
        edit_request r = remat(std::move(name), from);
        r.kind = what_if_kind::offload;
        return r;
    }
};

/// Why requests could not be read into edits: "no instruction named 'x'" (the tool prints it after
/// `hlomem whatif: FILE: `).
struct edit_request_error {
    std::string message;
};

/// result<T, edit_request_error>::value() on an error throws this, with the message.
[[noreturn]] inline void throw_error(edit_request_error const& e) { throw error(e.message); }

/// The edits `requests` name, each remat and offload at its `from` or at `peak`; an error naming
/// the first instruction the module lacks.
template <class P>
result<std::vector<what_if_edit>, edit_request_error> edits_named(basic_hlo_module<P> const& m, std::vector<edit_request> const& requests,
                                                                  logical_time peak) {
    std::vector<what_if_edit> out;
    out.reserve(requests.size());
    for (auto const& r : requests) {
        if (r.kind == what_if_kind::donate) {
            out.push_back(what_if_edit::donate(r.parameter_number));
            continue;
        }
        // Names are unique in a module (XLA's HloModule::instruction_name_uniquer); the first in
        // text order is the one.
        std::optional<instruction_id> const found = m.find_instruction(r.instruction);
        if (!found) return edit_request_error{"no instruction named '" + r.instruction + "'"};
        logical_time const t = r.from.value_or(peak);
        out.push_back(r.kind == what_if_kind::remat ? what_if_edit::remat(*found, t, r.chain) : what_if_edit::offload(*found, t));
    }
    return out;
}

/// Evaluates `requests` on `w` in order (basic_what_if::apply: each accepted edit stays applied)
/// and returns their outcomes; on an error no edit is applied.
template <class P>
result<std::vector<what_if_outcome>, edit_request_error> apply_requests(basic_what_if<P>& w, std::vector<edit_request> const& requests) {
    auto edits = edits_named(w.module(), requests, w.peak_time_original());
    if (!edits) return edits.error();
    std::vector<what_if_outcome> out;
    out.reserve(edits->size());
    for (auto const& e : *edits) out.push_back(w.apply(e));
    return out;
}

/// What a budget must be, as the tool's message says it: `--budget needs ` this.
constexpr std::string_view advise_budget_expected = "bytes or a percent such as 90%";

/// A budget read from `1048576` (bytes, at most 18 digits) or `90%` (a whole percent of each
/// color's peak, at most 100): advise_options with budget_bytes or budget_fraction set; nullopt for
/// anything else.
inline std::optional<advise_options> advise_budget_named(std::string_view v) {
    bool const percent = !v.empty() && v.back() == '%';
    std::string_view const digits = percent ? v.substr(0, v.size() - 1) : v;
    if (digits.empty() || digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    std::int64_t n = 0;
    for (char c : digits) n = n * 10 + (c - '0');
    if (percent && n > 100) return std::nullopt;
    advise_options options;
    if (percent) {
        options.budget_fraction = static_cast<double>(n) / 100.0;
    } else {
        options.budget_bytes = n;
    }
    return options;
}

/// What a budget is taken against: each memory space's live peak (`advise`), or the peak JAX's
/// compiled.memory_analysis() reports (`advise_memory_analysis`).
enum class advise_against : std::uint8_t { peak, memory_analysis };

/// What `--against` must be, as the tool's message says it.
constexpr std::string_view advise_against_expected = "peak or memory_analysis";

/// `peak` or `memory_analysis`; nullopt for anything else.
inline std::optional<advise_against> advise_against_named(std::string_view v) {
    if (v == "peak") return advise_against::peak;
    if (v == "memory_analysis") return advise_against::memory_analysis;
    return std::nullopt;
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_EDIT_REQUEST_INSTANTIATIONS(EXTERN, P) \
    EXTERN template result<std::vector<what_if_outcome>, edit_request_error> apply_requests<P>(basic_what_if<P>&, std::vector<edit_request> const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_EDIT_REQUEST_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_WHATIF_EDIT_REQUEST_HPP
