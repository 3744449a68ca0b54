// hlomem/load/derive.hpp: a buffer assignment for a bare HLO module, so that what reads a
// buffer-assignment dump can read a scheduled module too.
//
//   hlomem::derived_assignment d = hlomem::derive_assignment(module);
//   d.assignment   values, one allocation per HloBuffer, live ranges (hlo/liveness.hpp)
//   d.peak         XLA's peak on it (compute_xla_peak), when the module has a schedule to rank
//   d.notes        what the dataflow and liveness analyses noted, and a missing schedule
//
// Sizes are TPU's when any layout of the module is tiled (TPU modules print their tiles), XLA's
// generic padded sizes otherwise.
#ifndef HLOMEM_LOAD_DERIVE_HPP
#define HLOMEM_LOAD_DERIVE_HPP

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <hlomem/core/diagnostic.hpp>
#include <hlomem/core/policy.hpp>
#include <hlomem/core/size_function.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/hlo/liveness.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/memory/peak.hpp>

namespace hlomem {

/// The buffer assignment derived from a module, XLA's peak on it, and what the analyses noted.
template <class P = default_policy>
struct basic_derived_assignment {
    basic_buffer_assignment<P> assignment;
    std::optional<xla_peak> peak;
    size_function_kind sizes = size_function_kind::xla;  ///< the sizes its values were given
    bool scheduled = true;                               ///< the module has is_scheduled=true
    /// What the dataflow and liveness analyses noted (invalid_module) and what was assumed
    /// (assumption: a module without a schedule is taken in its text order).
    std::vector<diagnostic> notes;
};
using derived_assignment = basic_derived_assignment<default_policy>;

/// The assignment derived from `m`'s own live ranges, sized by size_function_of(m.shapes()). Names are of
/// the module's string type: with view_policy they view the module's text.
/// With `positions_and_uses` false, the values' positions and uses are left out (derive_options):
/// for a caller that reads the peak, the live bytes and the live ranges only, as `hlomem liveness`
/// and `hlomem report` do.
template <class P>
basic_derived_assignment<P> derive_assignment(basic_hlo_module<P> const& m, bool positions_and_uses = true) {
    // The derived model leaves out the values of fusion bodies (derive_buffer_assignment): the
    // dataflow numbers them without analysing them.
    liveness_options analyses;
    analyses.dataflow.fusion_body_values = false;
    basic_hlo_liveness<P> live(m, analyses);
    derive_options options;
    options.sizes = size_function_of(m.shapes());
    options.positions_and_uses = positions_and_uses;
    basic_derived_assignment<P> out{{}, std::nullopt, options.sizes, m.is_scheduled(), {}};
    out.assignment = derive_buffer_assignment(live, options, out.peak);
    out.notes = live.dataflow().notes();
    out.notes.insert(out.notes.end(), live.notes().begin(), live.notes().end());
    if (!m.is_scheduled()) {
        out.notes.push_back(make_diagnostic(diagnostic_kind::assumption, severity::note,
                                            "module " + std::string(std::string_view(m.name())) +
                                                " is not scheduled (no is_scheduled=true): its text order stands in "
                                                "for a schedule"));
    }
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_LOAD_DERIVE_HPP
