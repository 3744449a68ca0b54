// hlomem/diff/side.hpp: the two sides of a comparison of compilations and the one way to compare
// them, for `hlomem diff A B`, `hlomem snapshot` and Python's hlomem.diff and hlomem.snapshot.
//
//   auto a = hlomem::diff_side_of("a.txt", owner, ba, module_or_null);  // a dump or a module's
//   hlomem::diff_side b{"b.hlomem.json", hlomem::read_snapshot(text)};   // or a snapshot
//   auto d = hlomem::diff_sides(a, b);     // d.d(): the diff; d.snapshots set, as here, when a
//                                          // side is a snapshot (both are compared as snapshots)
//
// A side is a buffer assignment with its values' metadata and origins (a dump's, or the one
// derived from a module), or a snapshot (diff/snapshot.hpp), which keeps a compilation's totals,
// peaks and largest values but no values to match. When either side is a snapshot, the other is
// snapshotted too and the two snapshots are compared (diff_snapshots); otherwise the two
// assignments (diff_assignments). load/diff_side.hpp reads a side from a file.
#ifndef HLOMEM_DIFF_SIDE_HPP
#define HLOMEM_DIFF_SIDE_HPP

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <hlomem/core/policy.hpp>
#include <hlomem/diff/assignment_diff.hpp>
#include <hlomem/diff/diff_model.hpp>
#include <hlomem/diff/snapshot.hpp>
#include <hlomem/diff/snapshot_diff.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/hlo/attribution.hpp>
#include <hlomem/hlo/donation.hpp>
#include <hlomem/hlo/module.hpp>

namespace hlomem {

/// One side: a buffer assignment with its values' sources, or a snapshot.
template <class P = default_policy>
struct basic_diff_side {
    /// As the diff names it: the file as given, or the name given to a text.
    std::string name;
    /// A snapshot side: what was read. Unset for an assignment.
    std::optional<memory_snapshot> snapshot;
    /// Keeps alive what `assignment` and `module` view (the loaded model and its text).
    std::shared_ptr<void const> owner;
    basic_buffer_assignment<P> const* assignment = nullptr;  ///< null for a snapshot
    basic_hlo_module<P> const* module = nullptr;  ///< the module it was assigned from; null: none at hand
    basic_source_attribution<P> sources;          ///< each value's metadata and origin

    bool is_snapshot() const noexcept { return snapshot.has_value(); }
    /// The snapshot of this side: the one read, or one made of the assignment with the `top`
    /// largest values of each peak (make_snapshot).
    memory_snapshot to_snapshot(std::size_t top) const {
        if (snapshot) return *snapshot;
        return make_snapshot(*assignment, sources, module, top);
    }
    /// Which parameters were donated and which donations went unused: the snapshot's, or found
    /// in the assignment with its module (analyze_donations).
    donation_analysis donations() const { return snapshot ? snapshot->donations : analyze_donations(*assignment, module); }
};
using diff_side = basic_diff_side<default_policy>;

/// The side of assignment `ba` (a dump's, or the one derived from module `m`; `m` null when no
/// module is at hand), named `name`, its values attributed (attribute_values, joined with `m`)
/// and their source files shown below the longest of `roots` they lie under. `owner` keeps `ba`
/// and `m` alive for as long as the side.
template <class P>
basic_diff_side<P> diff_side_of(std::string name, std::shared_ptr<void const> owner, basic_buffer_assignment<P> const& ba,
                                basic_hlo_module<P> const* m, std::vector<std::string> const& roots = {}) {
    basic_diff_side<P> out;
    out.name = std::move(name);
    out.owner = std::move(owner);
    out.assignment = &ba;
    out.module = m;
    out.sources = m ? attribute_values(ba, *m) : attribute_values(ba);
    strip_source_roots(out.sources, roots);
    return out;
}

/// Two sides compared: of their assignments, or, when either is a snapshot, of their snapshots.
template <class P = default_policy>
struct basic_sides_diff {
    basic_diff_side<P> const* a = nullptr;  ///< the sides, which must outlive the diff
    basic_diff_side<P> const* b = nullptr;
    donation_analysis donations_a, donations_b;  ///< each side's (basic_diff_side::donations)
    /// Set when a side is a snapshot: the two snapshots compared (its `d` is the diff).
    std::optional<snapshot_diff> snapshots;
    /// The two assignments compared; empty when `snapshots` is set.
    assignment_diff assignments;

    /// Whether the diff holds values: matched, changed, each peak's moment. A snapshot keeps none.
    bool values_known() const noexcept { return !snapshots; }
    assignment_diff const& d() const noexcept { return snapshots ? snapshots->d : assignments; }
    /// What a diff with a snapshot side cannot compare (empty: everything is compared).
    std::vector<std::string> const& not_compared() const noexcept {
        static std::vector<std::string> const none;
        return snapshots ? snapshots->not_compared : none;
    }
};
using sides_diff = basic_sides_diff<default_policy>;

/// `a` and `b` compared (`options.top` values in each list, and in the snapshot of an assignment
/// compared with a snapshot), each side's donations found for the knobs.
template <class P>
basic_sides_diff<P> diff_sides(basic_diff_side<P> const& a, basic_diff_side<P> const& b, diff_options options = {}) {
    basic_sides_diff<P> out;
    out.a = &a;
    out.b = &b;
    out.donations_a = a.donations();
    out.donations_b = b.donations();
    options.donations_a = &out.donations_a;
    options.donations_b = &out.donations_b;
    if (a.is_snapshot() || b.is_snapshot()) {
        out.snapshots = diff_snapshots(a.to_snapshot(options.top), b.to_snapshot(options.top));
    } else {
        out.assignments = diff_assignments(*a.assignment, a.sources, *b.assignment, b.sources, options);
    }
    return out;
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_DIFF_SIDE_INSTANTIATIONS(EXTERN, P)                                                                            \
    EXTERN template basic_diff_side<P> diff_side_of<P>(std::string, std::shared_ptr<void const>, basic_buffer_assignment<P> const&, \
                                                       basic_hlo_module<P> const*, std::vector<std::string> const&);           \
    EXTERN template basic_sides_diff<P> diff_sides<P>(basic_diff_side<P> const&, basic_diff_side<P> const&, diff_options);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_DIFF_SIDE_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_DIFF_SIDE_HPP
