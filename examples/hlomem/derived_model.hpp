// derived_model.hpp: what lets the commands of the hlomem tool take a bare HLO module where they
// expect a buffer-assignment dump: the model derived from the module's own live ranges
// (hlomem/hlo/liveness.hpp), XLA's peak on it, and a loader that accepts either kind of file.
#ifndef HLOMEM_EXAMPLES_DERIVED_MODEL_HPP
#define HLOMEM_EXAMPLES_DERIVED_MODEL_HPP

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/hlomem.hpp>
#include <hlomem/hlo/liveness.hpp>

#include "cli.hpp"

namespace hlomem_cli {

/// The derived buffer-assignment model of a module, XLA's peak on it, and what the analysis noted.
template <class P>
struct derived_module {
    hlomem::basic_buffer_assignment<P> ba;
    std::optional<hlomem::xla_peak> peak;
    bool scheduled = true;
    std::vector<std::string> notes;
};

template <class P>
derived_module<P> derive_module(hlomem::basic_hlo_module<P> const& m, hlomem::size_function_kind sizes) {
    hlomem::basic_hlo_liveness<P> live(m);
    hlomem::derive_options options;
    options.sizes = sizes;
    derived_module<P> out{hlomem::derive_buffer_assignment(live, options), std::nullopt, m.is_scheduled(), {}};
    if (out.ba.live_range->stated_peak) out.peak = hlomem::compute_xla_peak(out.ba, options.peak_rule);
    for (auto const& n : live.dataflow().notes()) out.notes.push_back(n.message);
    for (auto const& n : live.notes()) out.notes.push_back(n.message);
    if (!m.is_scheduled()) {
        out.notes.push_back("module " + std::string(std::string_view(m.name())) +
                            " is not scheduled (no is_scheduled=true): its text order stands in for a schedule");
    }
    return out;
}

/// Reads FILE as a buffer-assignment dump or, when it holds one HLO module, derives the model
/// from the module; nullopt with a message on `err` when neither works. What `graph` reads.
inline std::optional<hlomem::buffer_assignment> load_assignment_or_module(std::string const& path, std::string_view command,
                                                                         std::ostream& err) {
    auto text = read_input(path, err);
    if (!text) return std::nullopt;
    switch (hlomem::detect_dump_kind(*text)) {
        case hlomem::dump_kind::buffer_assignment: {
            auto ba = hlomem::try_parse_buffer_assignment(*text, path);
            if (!ba) {
                err << ba.error() << '\n';
                return std::nullopt;
            }
            return std::move(*ba);
        }
        case hlomem::dump_kind::hlo_module: {
            auto m = hlomem::try_parse_hlo_module(*text, path);
            if (!m) {
                err << m.error() << '\n';
                return std::nullopt;
            }
            auto derived = derive_module(*m, hlomem::size_function_of(m->shapes()));
            for (auto const& n : derived.notes) err << "hlomem " << command << ": note: " << n << '\n';
            return std::move(derived.ba);
        }
        default:
            err << "hlomem " << command << ": " << path
                << ": neither a buffer-assignment dump nor an HLO module (it should start with 'BufferAssignment:' or "
                   "'HloModule name, ...')\n";
            return std::nullopt;
    }
}

}  // namespace hlomem_cli

#endif  // HLOMEM_EXAMPLES_DERIVED_MODEL_HPP
