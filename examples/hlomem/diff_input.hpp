// diff_input.hpp: one side of `hlomem diff` or the input of `hlomem snapshot`: a buffer-assignment
// dump or a scheduled HLO module (read by the loader, with its metadata), or, for diff, a snapshot
// (`NAME.hlomem.json`, written by `hlomem snapshot`, read by hlomem::read_snapshot).
#ifndef HLOMEM_EXAMPLES_DIFF_INPUT_HPP
#define HLOMEM_EXAMPLES_DIFF_INPUT_HPP

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <hlomem/hlomem.hpp>

#include "input.hpp"

namespace hlomem_cli {

/// One side: the loaded file, its assignment and each value's metadata (its dump's own, joined
/// with the module read beside it or the module it was derived from); or a snapshot. As `report`
/// does, the models view the file's text (mapped, and kept alive by the loaded input), so that no
/// name or instruction text of either side is copied: on two dumps of 10^6 values each, most of
/// the command's time and memory went to those copies. The attribution views the loaded models,
/// which stay in one place, kept until the process exits (keep_until_exit).
struct diff_input {
    using policy = hlomem::view_policy;
    std::string path;
    hlomem::mapped_loaded<policy> const* loaded = nullptr;
    hlomem::basic_source_attribution<policy> sources;
    std::optional<hlomem::memory_snapshot> snapshot;  ///< set when the side is a snapshot file

    hlomem::basic_buffer_assignment<policy> const& assignment() const { return *loaded->assignment(); }
    /// Named by its file as given (a derived assignment would be named after its module).
    hlomem::diff_report_side<policy> side() const { return {path, assignment(), sources}; }
    /// The snapshot of this side: the one read, or one made of the loaded assignment.
    hlomem::memory_snapshot to_snapshot(std::size_t top) const {
        if (snapshot) return *snapshot;
        return hlomem::make_snapshot(assignment(), sources, loaded->assignment_module(), top);
    }
    hlomem::donation_analysis donations() const {
        return snapshot ? snapshot->donations : hlomem::analyze_donations(assignment(), loaded->assignment_module());
    }
};

/// The side at `path` for `command` (`diff` takes snapshots, `snapshot` does not), with the
/// module a dump was assigned from (`module`; unset: X.txt beside X-buffer-assignment.txt);
/// nullopt after saying why on `err`.
inline std::optional<diff_input> load_diff_input(std::string const& command, std::string const& path, std::vector<std::string> const& roots,
                                                 bool snapshot_allowed, std::ostream& err, std::optional<std::string> module = std::nullopt) {
    auto in = open_input(path, err);
    if (!in) return std::nullopt;
    if (snapshot_allowed && hlomem::looks_like_snapshot(in->text->text())) {
        try {
            return diff_input{path, nullptr, {}, hlomem::read_snapshot(in->text->text())};
        } catch (hlomem::snapshot_error const& e) {
            err << "hlomem " << command << ": " << in->name() << ": not a snapshot: " << e.what() << '\n';
            return std::nullopt;
        }
    }
    if (in->kind != hlomem::dump_kind::buffer_assignment && in->kind != hlomem::dump_kind::hlo_module) {
        err << "hlomem " << command << ": " << path << ": not a buffer-assignment dump or an HLO module (the first line should be 'BufferAssignment:' or 'HloModule name, ...')\n";
        return std::nullopt;
    }
    hlomem::load_options options;
    options.find_live_range = true;
    options.find_module = true;
    options.module_file = std::move(module);
    options.derive_assignment = true;
    auto loaded = load(*in, options, err);
    if (!loaded) return std::nullopt;
    diff_input out{path, loaded, {}, std::nullopt};
    out.sources = hlomem::attribute_values(*out.loaded);
    hlomem::strip_source_roots(out.sources, roots);
    return out;
}

}  // namespace hlomem_cli

#endif  // HLOMEM_EXAMPLES_DIFF_INPUT_HPP
