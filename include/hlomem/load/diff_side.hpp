// hlomem/load/diff_side.hpp: one side of a comparison read from a file, the one place that tells a
// snapshot from a dump or a module and reads each (`hlomem diff A B`, `hlomem snapshot FILE`).
//
//   hlomem::diff_side_options o;                 // o.snapshots: a snapshot may be a side
//   auto a = hlomem::open_diff_side("a-buffer-assignment.txt", o);   // load_result<view side>
//   auto b = hlomem::open_diff_side("b.hlomem.json", o);
//   if (a && b) auto d = hlomem::diff_sides(*a, *b);                 // diff/side.hpp
//
// A text that begins as a snapshot (looks_like_snapshot: `{` then `"hlomem_snapshot"`) is read as
// one (read_snapshot); any other is loaded (load_view): a buffer-assignment dump with its live
// ranges and the module beside it, or a scheduled HLO module with the assignment derived from it.
// The side views the file's mapped text, which it keeps.
#ifndef HLOMEM_LOAD_DIFF_SIDE_HPP
#define HLOMEM_LOAD_DIFF_SIDE_HPP

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <hlomem/core/policy.hpp>
#include <hlomem/diff/side.hpp>
#include <hlomem/diff/snapshot.hpp>
#include <hlomem/load/input.hpp>
#include <hlomem/load/kind.hpp>
#include <hlomem/load/loaded.hpp>
#include <hlomem/load/mapped_file.hpp>

namespace hlomem {

struct diff_side_options {
    /// A snapshot may be a side (`hlomem diff`); `hlomem snapshot` reads dumps and modules alone.
    bool snapshots = true;
    /// The module a dump was assigned from; unset: X.txt beside X-buffer-assignment.txt.
    std::optional<std::string> module_file;
    /// Source files shown below the longest of these they lie under (strip_source_roots).
    std::vector<std::string> strip_roots;
};

/// The side at `path` ("-": standard input), named `path`. Fails with unreadable (the file or a
/// sibling), unparsable (a parse error with its place; or a text that begins as a snapshot but
/// is not one: "NAME: not a snapshot: ...", without a parse_error_info) or unknown_kind (neither a
/// snapshot nor a buffer-assignment dump nor an HLO module).
inline load_result<basic_diff_side<view_policy>> open_diff_side(std::string const& path, diff_side_options const& options = {}) {
    auto text = mapped_text::open(path);
    if (!text) return text.error();
    std::string_view const content = (*text)->text();
    std::string const name = path == "-" ? std::string("<stdin>") : path;
    if (options.snapshots && looks_like_snapshot(content)) {
        basic_diff_side<view_policy> out;
        out.name = path;
        try {
            out.snapshot = read_snapshot(content);
        } catch (snapshot_error const& e) {
            return load_error{load_failure::unparsable, name, name + ": not a snapshot: " + e.what()};
        }
        return out;
    }
    dump_kind const kind = detect_dump_kind(content);
    if (kind != dump_kind::buffer_assignment && kind != dump_kind::hlo_module) {
        return load_error{load_failure::unknown_kind, name,
                          path + ": not a buffer-assignment dump or an HLO module (the first line should be 'BufferAssignment:' "
                                 "or 'HloModule name, ...')"};
    }
    load_options load;
    load.find_live_range = true;
    load.find_module = true;
    load.module_file = options.module_file;
    load.derive_assignment = true;
    auto loaded = load_view<view_policy>(content, path, load);
    if (!loaded) return loaded.error();
    auto held = std::make_shared<mapped_loaded<view_policy> const>(mapped_loaded<view_policy>{std::move(*loaded), std::move(*text)});
    auto const* ba = held->assignment();
    if (!ba) return load_error{load_failure::unknown_kind, name, path + ": holds no buffer assignment to compare"};
    return diff_side_of<view_policy>(path, held, *ba, held->assignment_module(), options.strip_roots);
}

}  // namespace hlomem

#endif  // HLOMEM_LOAD_DIFF_SIDE_HPP
