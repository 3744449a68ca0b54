// hlomem/load/derive.hpp: a buffer assignment for a bare HLO module, so that what reads a
// buffer-assignment dump can read a scheduled module too.
//
//   hlomem::derived_assignment d = hlomem::derive_assignment(module);
//   d.assignment   values, one allocation per HloBuffer, live ranges (hlo/liveness.hpp)
//   d.peak         XLA's peak on it (compute_xla_peak), when the module has a schedule to rank
//   d.notes        what the dataflow and liveness analyses noted, and a missing schedule
//
// It is assign_module's derived result (assign/module_assignment.hpp, where both results of a
// module and their one sizing rule are documented): sizes are TPU's when any layout of the module
// is tiled (TPU modules print their tiles), XLA's generic padded sizes otherwise.
#ifndef HLOMEM_LOAD_DERIVE_HPP
#define HLOMEM_LOAD_DERIVE_HPP

#include <utility>

#include <hlomem/assign/module_assignment.hpp>
#include <hlomem/hlo/module.hpp>

namespace hlomem {

/// The assignment derived from `m`'s own live ranges, sized by size_function_of(m.shapes()). Names are of
/// the module's string type: with view_policy they view the module's text.
/// With `positions_and_uses` false, the values' positions and uses are left out (derive_options):
/// for a caller that reads the peak, the live bytes and the live ranges only, as `hlomem liveness`
/// and `hlomem report` do.
template <class P>
basic_derived_assignment<P> derive_assignment(basic_hlo_module<P> const& m, bool positions_and_uses = true) {
    module_assignment_options options;
    options.positions_and_uses = positions_and_uses;
    return std::move(*assign_module(m, options).derived);
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_DERIVE_INSTANTIATIONS(EXTERN, P) \
    EXTERN template basic_derived_assignment<P> derive_assignment<P>(basic_hlo_module<P> const&, bool);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_DERIVE_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_LOAD_DERIVE_HPP
