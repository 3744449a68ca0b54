// hlomem/placement/temp_optimum.hpp: per memory space (color), the temp arenas XLA allocated next to
// the smallest arenas hlomem's exact search finds for them (minimize.hpp), and whether each is
// proven smallest: what `hlomem report` and the timeline page show beside the most bytes live at
// once, so that the cost of fragmentation is read at a glance.
//
//   color 0: XLA's temp 985504 bytes, the most live at once 851968, smallest 851968 (proven)
//
// Deterministic: each arena gets a node limit, not a time limit, and one thread, so a report is
// the same on every machine. An arena of more values than `most_values` is not searched (the work
// of a node grows with the arena; the 52 MB generated dump's arena holds 23,140 values): it
// counts at XLA's own bytes, unproven.
#ifndef HLOMEM_PLACEMENT_TEMP_OPTIMUM_HPP
#define HLOMEM_PLACEMENT_TEMP_OPTIMUM_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/memory/analysis.hpp>
#include <hlomem/placement/plan.hpp>
#include <hlomem/placement/temp_arena.hpp>

namespace hlomem {

struct temp_optimum_options {
    std::uint64_t node_limit = 20000;  ///< the exact search's nodes for each arena
    std::size_t most_values = 2000;    ///< arenas holding more values are not searched
};

/// The temp arenas of one color: XLA's bytes against the smallest hlomem finds.
struct color_temp_optimum {
    std::int64_t color = 0;
    std::int64_t xla_bytes = 0;       ///< Σ the color's preallocated-temp allocation sizes
    std::int64_t smallest_bytes = 0;  ///< Σ the smallest arena found for each (XLA's bytes where not searched)
    bool proven = true;               ///< each arena searched and proven smallest
    std::size_t arenas = 0;
    std::size_t unsearched = 0;  ///< arenas over most_values
};

/// Every color with a temp arena, by color; `shared` is shared_buffers(ba). Each arena is
/// minimised by exact (plan: the heuristics with XLA's heap keys, XLA's placement where it is
/// valid, then exact_minimize) within the node limit.
template <class P>
std::vector<color_temp_optimum> temp_optima(basic_buffer_assignment<P> const& ba, std::vector<shared_buffer> const& shared,
                                            temp_optimum_options const& options = {}) {
    std::map<std::int64_t, color_temp_optimum> by_color;
    for (auto const& a : ba.allocations) {
        if (a.kind() != allocation_kind::temp) continue;
        auto& c = by_color[a.color];
        c.color = a.color;
        c.xla_bytes += a.size;
        ++c.arenas;
        if (a.values.size() <= options.most_values) continue;
        ++c.unsearched;
        c.smallest_bytes += a.size;
        c.proven = false;
    }
    temp_arena_options arena_options;
    arena_options.most_values = options.most_values;
    for (auto const& arena : temp_arenas(ba, shared, arena_options)) {
        auto& c = by_color[arena.color];
        if (arena.problem.buffers.empty()) continue;
        plan_options plan_with;
        plan_with.heap_keys = arena.heap_keys;
        plan_with.exact.node_limit = options.node_limit;
        if (check_placement(arena.problem).empty()) {
            std::vector<std::int64_t> given;
            for (auto const& b : arena.problem.buffers) given.push_back(b.offset.value_or(0));
            plan_with.start = std::move(given);
        }
        auto problem = arena.problem;
        auto const r = plan(problem, allocation_algorithm::exact, plan_with);
        c.smallest_bytes += r.bytes;
        c.proven = c.proven && r.optimal;
    }
    std::vector<color_temp_optimum> out;
    for (auto& entry : by_color) out.push_back(entry.second);
    return out;
}

/// The same, finding the shared buffers only where some arena is small enough to be searched
/// (a dump whose arenas are all over the cap costs one look at its allocations).
template <class P>
std::vector<color_temp_optimum> temp_optima(basic_buffer_assignment<P> const& ba, temp_optimum_options const& options = {}) {
    bool const searched = std::any_of(ba.allocations.begin(), ba.allocations.end(), [&](auto const& a) {
        return a.kind() == allocation_kind::temp && a.values.size() <= options.most_values;
    });
    return temp_optima(ba, searched ? shared_buffers(ba) : std::vector<shared_buffer>{}, options);
}

}  // namespace hlomem

#endif  // HLOMEM_PLACEMENT_TEMP_OPTIMUM_HPP
