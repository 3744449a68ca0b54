// hlomem/placement/plan.hpp: every allocation algorithm of hlomem behind one name, for tools that
// let their users choose (`hlomem repack --algorithm NAME`) and for quick use:
//
//   hlomem::allocation_problem p = ...;
//   auto r = hlomem::plan(p, hlomem::allocation_algorithm::improve);   // writes p's offsets
//   // r.bytes: the arena; hlomem::check_placement(p) is empty
//
//   best-fit            XLA's ChooseBestHeapAlgorithm (best_fit.hpp)
//   best-fit-spatial    XLA's GlobalDecreasingSizeBestFitHeap, spatial order
//   best-fit-temporal   the same, temporal order
//   greedy-by-size      TensorFlow Lite's arena planner (greedy.hpp)
//   first-fit           first fit in order of start (greedy.hpp)
//   improve             local search from the best of the above (improve.hpp)
//   exact               branch and bound from the lower bound up (exact.hpp); with sharing groups
//                       live in several segments, a search that proves nothing (problem.hpp)
#ifndef HLOMEM_PLACEMENT_PLAN_HPP
#define HLOMEM_PLACEMENT_PLAN_HPP

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <hlomem/placement/best_fit.hpp>
#include <hlomem/placement/exact.hpp>
#include <hlomem/placement/minimize.hpp>
#include <hlomem/placement/greedy.hpp>
#include <hlomem/placement/improve.hpp>
#include <hlomem/placement/problem.hpp>

namespace hlomem {

enum class allocation_algorithm : std::uint8_t {
    best_fit,
    best_fit_spatial,
    best_fit_temporal,
    greedy_by_size,
    first_fit,
    improve,
    exact,
};

/// Every algorithm, in the order tools list them.
inline constexpr allocation_algorithm all_allocation_algorithms[] = {
    allocation_algorithm::best_fit,       allocation_algorithm::best_fit_spatial, allocation_algorithm::best_fit_temporal,
    allocation_algorithm::greedy_by_size, allocation_algorithm::first_fit,        allocation_algorithm::improve,
    allocation_algorithm::exact,
};

inline constexpr std::string_view to_string(allocation_algorithm a) noexcept {
    switch (a) {
        case allocation_algorithm::best_fit: return "best-fit";
        case allocation_algorithm::best_fit_spatial: return "best-fit-spatial";
        case allocation_algorithm::best_fit_temporal: return "best-fit-temporal";
        case allocation_algorithm::greedy_by_size: return "greedy-by-size";
        case allocation_algorithm::first_fit: return "first-fit";
        case allocation_algorithm::improve: return "improve";
        case allocation_algorithm::exact: return "exact";
    }
    return "?";
}

/// The algorithm named `name` (as to_string spells it), or nullopt.
inline std::optional<allocation_algorithm> allocation_algorithm_named(std::string_view name) noexcept {
    for (auto a : all_allocation_algorithms) {
        if (to_string(a) == name) return a;
    }
    return std::nullopt;
}

struct plan_options {
    /// For the best-fit algorithms: XLA's own heap keys (temp_arena::heap_keys); empty to replay
    /// XLA's events from the lifespans.
    std::vector<heap_key> heap_keys;
    /// For improve and exact: a valid placement to start from, when it is better than the
    /// heuristics' (XLA's own offsets, say); one offset per buffer.
    std::optional<std::vector<std::int64_t>> start;
    improve_options improve;
    search_budget exact;
};

struct plan_result {
    std::int64_t bytes = 0;        ///< the arena of the placement written
    std::int64_t lower_bound = 0;  ///< the most live bytes, or more when exact proved it
    bool optimal = false;          ///< bytes is proven smallest (exact, or bytes == lower_bound)
    std::uint64_t work = 0;        ///< improve: moves tried; exact: search nodes
    bound_proof proof = bound_proof::live_bytes;  ///< exact: what lower_bound rests on
    std::int64_t refuted = 0;                     ///< exact, proof search: the capacity refuted
    std::int64_t granularity = 1;                 ///< exact: every canonical arena is a multiple of it
};

/// Runs `algorithm` on `problem`, writing the offsets through `offsets`.
template <class Problem, class OffsetMap>
plan_result plan(Problem const& problem, OffsetMap offsets, allocation_algorithm algorithm, plan_options const& options = {}) {
    auto const items = detail::read_items(problem);
    plan_result r;
    r.lower_bound = lower_bound_bytes(problem);
    std::vector<std::int64_t> at;
    switch (algorithm) {
        case allocation_algorithm::best_fit: r.bytes = xla_choose_best_fit(problem, offsets, options.heap_keys).bytes; break;
        case allocation_algorithm::best_fit_spatial:
            r.bytes = xla_best_fit(problem, offsets, heap_order::spatial, options.heap_keys);
            break;
        case allocation_algorithm::best_fit_temporal:
            r.bytes = xla_best_fit(problem, offsets, heap_order::temporal, options.heap_keys);
            break;
        case allocation_algorithm::greedy_by_size: r.bytes = greedy_by_size(problem, offsets); break;
        case allocation_algorithm::first_fit: r.bytes = first_fit_by_start(problem, offsets); break;
        case allocation_algorithm::improve: {
            detail::best_heuristic(items, options.heap_keys, options.start ? &*options.start : nullptr, at);
            auto const i = detail::improve(items, at, options.improve);
            r.bytes = detail::write_offsets(items, at, offsets);
            r.work = i.iterations;
            break;
        }
        case allocation_algorithm::exact: {
            detail::best_heuristic(items, options.heap_keys, options.start ? &*options.start : nullptr, at);
            auto const e = exact_minimize(problem, offsets, options.exact, &at);
            r.bytes = e.bytes;
            r.work = e.nodes;
            // Where a sharing group is live in several segments (problem.hpp) the search proves
            // nothing, and exact_minimize's bound rests on the problem's bounds alone.
            r.lower_bound = e.lower_bound;
            r.optimal = e.optimal;
            r.proof = e.proof;
            r.refuted = e.refuted;
            r.granularity = e.granularity;
            break;
        }
    }
    r.optimal = r.optimal || r.bytes == r.lower_bound;
    return r;
}
inline plan_result plan(allocation_problem& problem, allocation_algorithm algorithm, plan_options const& options = {}) {
    return plan(problem, offset_map(problem), algorithm, options);
}

}  // namespace hlomem

#endif  // HLOMEM_PLACEMENT_PLAN_HPP
