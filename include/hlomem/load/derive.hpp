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

#include <hlomem/core/policy.hpp>
#include <hlomem/core/shape.hpp>
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
    value_sizes sizes = value_sizes::padded;  ///< the sizes its values were given
    bool scheduled = true;                    ///< the module has is_scheduled=true
    std::vector<std::string> notes;
};
using derived_assignment = basic_derived_assignment<default_policy>;

/// The sizes a module's values take: TPU's when its layouts are tiled, XLA's padded ones otherwise.
template <class P>
value_sizes value_sizes_of(basic_hlo_module<P> const& m) {
    for (auto const& s : m.shapes()) {
        bool tiled = false;
        auto visit = [&](auto const& self, basic_shape<P> const& x) -> void {
            if (x.has_layout() && !x.layout().tiles.empty()) tiled = true;
            for (auto const& e : x.tuple_shapes()) self(self, e);
        };
        visit(visit, s);
        if (tiled) return value_sizes::tpu;
    }
    return value_sizes::padded;
}

/// The assignment derived from `m`'s own live ranges, sized by value_sizes_of(m). Names are of
/// the module's string type: with view_policy they view the module's text.
template <class P>
basic_derived_assignment<P> derive_assignment(basic_hlo_module<P> const& m) {
    basic_hlo_liveness<P> live(m);
    derive_options options;
    options.sizes = value_sizes_of(m);
    basic_derived_assignment<P> out{derive_buffer_assignment(live, options), std::nullopt, options.sizes, m.is_scheduled(), {}};
    if (out.assignment.live_range->stated_peak) out.peak = compute_xla_peak(out.assignment, options.peak_rule);
    for (auto const& n : live.dataflow().notes()) out.notes.push_back(n.message);
    for (auto const& n : live.notes()) out.notes.push_back(n);
    if (!m.is_scheduled()) {
        out.notes.push_back("module " + std::string(std::string_view(m.name())) +
                            " is not scheduled (no is_scheduled=true): its text order stands in for a schedule");
    }
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_LOAD_DERIVE_HPP
