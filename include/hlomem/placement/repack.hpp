// hlomem/placement/repack.hpp: every temp arena of a buffer assignment (or one allocation problem,
// such as a MiniMalloc CSV) placed again by each allocation algorithm, every placement checked, and
// for a dump, the dump carrying the new placement checked for soundness. What `hlomem repack`
// computes; output/repack_report.hpp writes it as text and JSON.
//
//   hlomem::repack_options options;                     // every algorithm, 10 s each at most
//   auto arenas = hlomem::repack_arenas_of(ba);          // XLA's temp arenas, with XLA's own placement
//   auto r = hlomem::repack(std::move(arenas), &ba, options);
//   r.best(0)->bytes;                                    // the smallest arena any algorithm found
#ifndef HLOMEM_PLACEMENT_REPACK_HPP
#define HLOMEM_PLACEMENT_REPACK_HPP

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <hlomem/core/diagnostic.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/memory/soundness.hpp>
#include <hlomem/placement/exact.hpp>
#include <hlomem/placement/plan.hpp>
#include <hlomem/placement/problem.hpp>
#include <hlomem/placement/temp_arena.hpp>

namespace hlomem {

/// One arena to repack: a temp allocation of a dump, or a whole allocation problem.
struct repack_arena {
    std::optional<temp_arena> xla;           ///< for dumps
    allocation_problem problem;              ///< with the given placement, when there is one
    std::optional<std::int64_t> given_bytes;  ///< the placement in the input: XLA's, or the CSV's offsets
    std::vector<diagnostic> given_errors;     ///< what is wrong with a given placement
    std::optional<xla_reproduction> reproduced;
};

/// What one algorithm made of one arena.
struct repack_row {
    allocation_algorithm algorithm = allocation_algorithm::best_fit;
    std::int64_t bytes = 0;
    double ms = 0;
    bool optimal = false;
    std::int64_t lower_bound = 0;  ///< exact: no placement is smaller (lower_bound - 1 proven too small)
    std::uint64_t nodes = 0;       ///< exact: search nodes
    bound_proof proof = bound_proof::live_bytes;  ///< exact: what lower_bound rests on
    std::int64_t refuted = 0;      ///< exact, proof search: the capacity the search refuted
    std::int64_t granularity = 1;  ///< exact: every canonical arena is a multiple of it
    /// With a capacity: how the algorithm did; `placed` has offsets only when it fits.
    std::optional<search_status> within;
    allocation_problem placed;

    bool fits() const noexcept { return !within || *within == search_status::feasible; }
};

struct repack_options {
    std::vector<allocation_algorithm> algorithms;  ///< empty: all_allocation_algorithms
    /// MiniMalloc's question: a placement within this many bytes, or (exact) a proof there is none.
    std::optional<std::int64_t> capacity;
    std::chrono::milliseconds time_limit{10000};  ///< of the local and exact searches, per arena
    /// The exact search's threads (search_budget::threads): 1 the same answer on every run when
    /// a search completes; 0 one per core.
    unsigned threads = 1;
};

/// The arenas, what each algorithm made of them, and the placements that failed their checks.
struct repack_result {
    std::vector<repack_arena> arenas;
    std::vector<std::vector<repack_row>> rows;  ///< per arena, in the order of the algorithms
    std::optional<std::int64_t> capacity;
    /// "ALGORITHM made an invalid placement: WHY", one per placement that failed its check.
    std::vector<std::string> invalid;

    /// The smallest placement of arena `k` that fits, or null.
    repack_row const* best(std::size_t k) const {
        repack_row const* out = nullptr;
        for (auto const& row : rows[k]) {
            if (row.fits() && (!out || row.bytes < out->bytes)) out = &row;
        }
        return out;
    }
    /// Whether anything failed: a placement its check, a given placement, or an arena its capacity.
    bool findings() const {
        if (!invalid.empty()) return true;
        for (std::size_t k = 0; k < arenas.size(); ++k) {
            if (!arenas[k].given_errors.empty() || (capacity && !best(k))) return true;
        }
        return false;
    }
};

/// Every temp arena of `ba` (temp_arenas), with XLA's placement given and XLA's heap reproduced.
template <class P>
std::vector<repack_arena> repack_arenas_of(basic_buffer_assignment<P> const& ba, temp_arena_options const& options = {}) {
    std::vector<repack_arena> out;
    for (auto& t : temp_arenas(ba, options)) {
        repack_arena r;
        r.problem = t.problem;
        r.given_bytes = t.xla_bytes;
        r.reproduced = reproduce_xla_arena(t);
        r.xla = std::move(t);
        out.push_back(std::move(r));
    }
    return out;
}

/// One allocation problem as an arena; its offsets, when it has them, are a given placement,
/// checked (check_placement). With `alignment`, every buffer takes it.
inline repack_arena repack_arena_of(allocation_problem problem, std::optional<std::int64_t> alignment = std::nullopt) {
    repack_arena r;
    r.problem = std::move(problem);
    if (alignment) {
        for (auto& b : r.problem.buffers) b.alignment = *alignment;
    }
    if (!r.problem.buffers.empty() && r.problem.buffers.front().offset) {
        r.given_bytes = arena_size(r.problem);
        r.given_errors = check_placement(r.problem);
    }
    return r;
}

namespace detail::repack_steps {

/// Overlaps and overruns check_soundness finds in allocation `ai`.
template <class P>
std::size_t overlaps_in(basic_buffer_assignment<P> const& ba, std::size_t ai) {
    std::size_t n = 0;
    for (auto const& v : check_soundness(ba)) {
        n += v.allocation == ai && (v.kind == diagnostic_kind::overlap || v.kind == diagnostic_kind::overrun);
    }
    return n;
}

/// `algorithm` on `arena`, timed; with a capacity, exact answers MiniMalloc's question.
inline repack_row place(repack_arena const& arena, allocation_algorithm algorithm, plan_options const& options,
                        std::optional<std::int64_t> capacity) {
    repack_row row;
    row.algorithm = algorithm;
    row.placed = arena.problem;
    for (auto& b : row.placed.buffers) b.offset.reset();
    auto const started = std::chrono::steady_clock::now();
    if (capacity && algorithm == allocation_algorithm::exact) {
        auto const f = place_within(row.placed, *capacity, options.exact);
        row.within = f.status;
        row.bytes = f.bytes;
        row.nodes = f.nodes;
    } else {
        auto const r = plan(row.placed, algorithm, options);
        row.bytes = r.bytes;
        row.optimal = r.optimal;
        row.lower_bound = r.lower_bound;
        row.nodes = algorithm == allocation_algorithm::exact ? r.work : 0;
        row.proof = r.proof;
        row.refuted = r.refuted;
        row.granularity = r.granularity;
        if (capacity) row.within = r.bytes <= *capacity ? search_status::feasible : search_status::infeasible;
    }
    row.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    return row;
}

/// Why `row`'s placement is invalid (check_placement, or the dump carrying it made unsound beyond
/// what it was), or nullopt.
template <class P>
std::optional<std::string> invalid_placement(repack_arena const& arena, repack_row const& row, basic_buffer_assignment<P> const* ba,
                                                    std::optional<std::int64_t> capacity) {
    auto const problems = check_placement(row.placed, capacity);
    std::size_t unsound = 0;
    if (arena.xla && ba) {
        unsound = overlaps_in(with_placement(*ba, *arena.xla, row.placed), arena.xla->allocation);
        std::size_t const before = overlaps_in(*ba, arena.xla->allocation);
        unsound = unsound > before ? unsound - before : 0;
    }
    if (problems.empty() && unsound == 0) return std::nullopt;
    return std::string(to_string(row.algorithm)) + " made an invalid placement" +
           (problems.empty() ? std::string(": the dump with it is unsound") : ": " + problems.front().message);
}

}  // namespace detail::repack_steps

/// Places every arena with every algorithm of `options` (starting the local search from the given
/// placement where it is valid, and from XLA's heap keys for a dump's arena), and checks every
/// placement that fits; `ba` is the dump the arenas came from, or null.
template <class P>
repack_result repack(std::vector<repack_arena> arenas, basic_buffer_assignment<P> const* ba, repack_options const& options = {}) {
    repack_result out;
    out.capacity = options.capacity;
    out.arenas = std::move(arenas);
    out.rows.resize(out.arenas.size());
    std::vector<allocation_algorithm> algorithms = options.algorithms;
    if (algorithms.empty()) algorithms.assign(std::begin(all_allocation_algorithms), std::end(all_allocation_algorithms));
    for (std::size_t k = 0; k < out.arenas.size(); ++k) {
        auto const& arena = out.arenas[k];
        plan_options plan;
        if (arena.xla) plan.heap_keys = arena.xla->heap_keys;
        if (arena.given_bytes && arena.given_errors.empty()) {
            std::vector<std::int64_t> start;
            for (auto const& b : arena.problem.buffers) start.push_back(b.offset.value_or(0));
            plan.start = std::move(start);
        }
        plan.improve.time_limit = options.time_limit;
        plan.exact.time_limit = options.time_limit;
        plan.exact.threads = options.threads;
        for (auto algorithm : algorithms) {
            auto row = detail::repack_steps::place(arena, algorithm, plan, options.capacity);
            if (row.fits()) {
                if (auto why = detail::repack_steps::invalid_placement(arena, row, ba, options.capacity)) out.invalid.push_back(std::move(*why));
            }
            out.rows[k].push_back(std::move(row));
        }
    }
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_PLACEMENT_REPACK_HPP
