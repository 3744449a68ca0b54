// hlomem/placement/minimize.hpp: the smallest arena of a problem, with the exact search of exact.hpp
// at a sequence of capacities, and what its lower bound rests on. The lower bound first (most
// arenas' smallest placement meets it), then down from the best placement, on one thread or
// several at once; whenever the time runs out, the best placement so far and what is proven.
//
//   hlomem::search_budget budget;
//   budget.time_limit = std::chrono::seconds(3);
//   budget.threads = 0;                                // one per core
//   auto r = hlomem::exact_minimize(problem, budget);  // writes the best placement's offsets
//   // r.bytes, r.lower_bound (r.proof: what it rests on), r.optimal
#ifndef HLOMEM_PLACEMENT_MINIMIZE_HPP
#define HLOMEM_PLACEMENT_MINIMIZE_HPP

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <hlomem/placement/arena_bound.hpp>
#include <hlomem/placement/best_fit.hpp>
#include <hlomem/placement/exact.hpp>
#include <hlomem/placement/greedy.hpp>
#include <hlomem/placement/problem.hpp>

namespace hlomem {

/// What a lower bound of exact_minimize rests on.
enum class bound_proof : std::uint8_t {
    live_bytes,     ///< the most bytes live at once (lower_bound_bytes)
    stacked_bytes,  ///< buffers that must stack, and the arena sizes possible (arena_lower_bound)
    search,         ///< a complete search found no placement within `exact_result::refuted` bytes
};

inline char const* to_string(bound_proof p) noexcept {
    switch (p) {
        case bound_proof::live_bytes: return "live-bytes";
        case bound_proof::stacked_bytes: return "stacked-bytes";
        case bound_proof::search: return "search";
    }
    return "?";
}

/// The smallest arena exact_minimize found, and how far it got towards proving it smallest.
struct exact_result {
    std::int64_t bytes = 0;        ///< the best placement's arena
    std::int64_t lower_bound = 0;  ///< no placement is smaller: the most live bytes, or more when proven
    bool optimal = false;          ///< bytes == lower_bound
    std::uint64_t nodes = 0;       ///< over every capacity tried
    bound_proof proof = bound_proof::live_bytes;  ///< what lower_bound rests on
    /// With proof search: the capacity the search refuted; the bound is the next arena size a
    /// canonical placement can have above it (arena_bound.hpp), e.g. + granularity.
    std::int64_t refuted = 0;
    std::int64_t granularity = 1;  ///< every canonical arena is a multiple of it (arena_granularity)
};

namespace detail {

/// The smallest of the one-pass heuristics' placements (XLA's best fit by size and by live range,
/// greedy by size, first fit) and of `start` (a valid placement, one offset per item) when given;
/// `keys`: XLA's own heap keys, or empty to replay its events.
inline std::int64_t best_heuristic(std::vector<alloc_item> const& items, std::vector<heap_key> const& keys,
                                   std::vector<std::int64_t> const* start, std::vector<std::int64_t>& best) {
    auto const neighbors = time_neighbors(items);
    auto const heap = keys_or_replay(items, keys);
    std::vector<std::int64_t> trial;
    std::int64_t bytes = xla_best_fit(items, heap, heap_order::spatial, neighbors, best);
    auto consider = [&](std::int64_t b) {
        if (b < bytes) {
            bytes = b;
            best = trial;
        }
    };
    consider(xla_best_fit(items, heap, heap_order::temporal, neighbors, trial));
    consider(greedy_by_size(items, trial));
    consider(first_fit_by_start(items, trial));
    if (start && start->size() == items.size()) {
        trial = *start;
        consider(arena_of(items, trial));
    }
    return bytes;
}

/// exact_minimize's searches and what they share. Two kinds of search:
///   - the bound: the lowest capacity not refuted, where most arenas' smallest placement lies
///     (nine of MiniMalloc's eleven, each within its first 400,000 nodes; every real temp arena
///     of the bundled dumps). It is tried first, with the search that places fastest at a fixed
///     capacity, 500,000 nodes, then in each round half the nodes the descent's last pass spent,
///     and at most a third of the time and of the nodes left. (With 500,000 nodes doubling each
///     round, the bound took six sevenths of one thread's nodes on D and J, whose bound no search
///     decides: 15 s on D gave 5.1 million nodes to the bound and 1.1 million to the descent. With
///     as many nodes as the descent's pass, one thread at 3 s left J at 1,032,192; with half, 1,029,120.);
///   - the descent: capacities below the best placement, each with 20,000 nodes in the first
///     pass (doubling each pass), one granule (arena_values::granularity) below it, then two,
///     four, ... while they are placed, half as far after one that runs out of nodes; the pass
///     ends when one granule below the best runs out, and the next three after it (sweep_length)
///     too. Near the smallest arena a capacity can be hard where one a little larger or smaller
///     is easy (MiniMalloc's D: 1035264 undecided after 3 million nodes, 1025024 placed in 326
///     thousand, 1065984 down to 1061888 in 1,200 nodes each), so steps from the best placement
///     find more than a binary search's jumps into the hard region.
/// Each capacity's searches go on where the last one stopped (exact_search::solve's progress).
/// One thread alternates: the bound, then a pass of the descent, then the bound with half the
/// nodes that pass spent, and so on; under a node limit alone its answer is the same on every
/// machine. With more threads, the others descend at once, each from another ranking
/// (exact_search::solve's rotation), and search the bound when nothing lies between it and the
/// best placement. A search stops once another's placement or proof settles its capacity
/// (search_watch).
class minimize_search {
public:
    using clock = exact_search::clock;
    static constexpr std::uint64_t bound_nodes = 500000;
    static constexpr std::uint64_t descent_nodes = 20000;
    static constexpr unsigned sweep_length = 3;
    /// Where each capacity's searches stopped (exact_search::solve): a pass's nodes go on from the
    /// last pass's instead of running them again.
    using progress_map = std::map<std::int64_t, solve_progress>;

    minimize_search(std::vector<alloc_item> const& items, arena_values const& values, bool grouped, search_budget const& budget,
                    std::int64_t proven, std::int64_t best_bytes, std::vector<std::int64_t> best)
        : items_(items),
          values_(values),
          grouped_(grouped),
          deadline_(deadline_of(budget)),
          node_limit_(budget.node_limit),
          proven_(proven),
          best_offsets_(std::move(best)),
          best_(best_bytes),
          open_from_(proven) {}

    /// Runs the searches on `threads` threads (this one among them, with `first`, a search of
    /// the items) until the best placement meets the bound, or the time or the nodes run out.
    void run(unsigned threads, exact_search& first) {
        std::vector<std::thread> others;
        for (unsigned t = 1; t < threads; ++t) {
            others.emplace_back([this, t] {
                exact_search search(items_);
                worker w{search, t % exact_search::ranking_count};
                work(t, w);
            });
        }
        worker w{first, 0};
        work(0, w);
        for (auto& t : others) t.join();
    }

    std::int64_t best_bytes() const noexcept { return best_.load(); }
    std::vector<std::int64_t> const& best_offsets() const noexcept { return best_offsets_; }
    std::int64_t proven() const noexcept { return proven_; }
    std::int64_t refuted() const noexcept { return refuted_; }
    std::uint64_t nodes() const noexcept { return nodes_.load(); }

private:
    /// One thread's search and what it keeps between its attempts.
    struct worker {
        exact_search& search;
        std::size_t rotation;  // exact_search::solve's first ranking, the same for every capacity
        std::vector<std::int64_t> trial{};
        progress_map progress{};
        std::uint64_t spent = 0;  // nodes of this thread's attempts
    };

    void work(unsigned thread, worker& w) {
        std::uint64_t descended = 0;  // the nodes of the last pass of the descent
        for (unsigned round = 0; !finished(); ++round) {
            std::uint64_t const nodes = descent_nodes << std::min(round, 20u);
            bool const nothing_between = values_.at_least(open_from_.load() + 1) >= best_.load();
            if (thread == 0) {
                // The bound's share: half what the descent spent (the first, or with nothing to
                // descend to, bound_nodes doubling), at most a third of the time and of the nodes left.
                std::optional<clock::time_point> until = deadline_;
                if (deadline_) until = clock::now() + (*deadline_ - clock::now()) / 3;
                std::uint64_t share = round == 0 || nothing_between ? bound_nodes << std::min(round, 20u) : descended / 2;
                if (node_limit_) share = std::min(share, std::max<std::uint64_t>(1, (*node_limit_ - std::min(*node_limit_, nodes_.load())) / 3));
                attempt(w, open_from_.load(), share, until);
            } else if (nothing_between) {
                attempt(w, open_from_.load(), nodes, deadline_);
            }
            std::uint64_t const before = w.spent;
            descend(w, nodes);
            descended = w.spent - before;
        }
    }

    /// A pass of the descent with `nodes` for each capacity.
    void descend(worker& w, std::uint64_t nodes) {
        std::int64_t const granule = values_.granularity;
        std::int64_t step = granule;  // how far below the best placement the next capacity is
        unsigned sweep = 0;           // capacities tried one granule after another, below one that ran out
        while (!finished()) {
            std::int64_t const lo = values_.at_least(open_from_.load() + 1), best = best_.load();
            if (lo >= best) return;
            step = std::min(sweep > 0 ? granule * (1 + sweep) : step, best - lo);
            std::int64_t capacity = values_.at_least(best - step);
            while (capacity >= best && best - step > lo) {
                step = std::min(2 * step, best - lo);
                capacity = values_.at_least(best - step);
            }
            if (capacity >= best) return;
            switch (attempt(w, capacity, nodes, deadline_)) {
                case search_status::feasible:
                    step *= 2;
                    sweep = 0;
                    break;
                case search_status::infeasible:
                    step = granule;
                    sweep = 0;
                    break;
                case search_status::budget_exhausted:
                    if (sweep == 0 && step > granule) {
                        step = std::max(granule, step / 2);
                    } else if (++sweep > sweep_length) {
                        return;
                    }
                    break;
            }
        }
    }

    /// Whether the best placement meets the bound, or the time or the nodes ran out.
    bool finished() const {
        if (best_.load() <= open_from_.load()) return true;
        if (deadline_ && clock::now() >= *deadline_) return true;
        return node_limit_ && nodes_.load() >= *node_limit_;
    }

    /// Searches `capacity` with at most `nodes` nodes (and what is left of the node limit), and
    /// records what it finds.
    search_status attempt(worker& w, std::int64_t capacity, std::uint64_t nodes, std::optional<clock::time_point> until) {
        if (node_limit_) {
            std::uint64_t const used = nodes_.load();
            nodes = std::min(nodes, *node_limit_ > used ? *node_limit_ - used : 0);
        }
        if (nodes == 0 || capacity >= best_.load()) return search_status::budget_exhausted;
        auto const f = w.search.solve(capacity, until, nodes, w.trial, w.rotation, search_watch{&best_, &open_from_}, &w.progress[capacity]);
        nodes_ += f.nodes;
        w.spent += f.nodes;
        std::lock_guard<std::mutex> lock(mutex_);
        switch (f.status) {
            case search_status::feasible:
                if (f.bytes < best_.load()) {
                    best_offsets_ = w.trial;
                    best_.store(f.bytes);
                }
                break;
            case search_status::infeasible: {
                // Every capacity up to the next arena a canonical placement can have is refuted.
                std::int64_t const next = values_.at_least(capacity + 1);
                if (next > open_from_.load()) open_from_.store(next);
                if (!grouped_ && next > proven_) {
                    proven_ = next;
                    refuted_ = capacity;
                }
                break;
            }
            case search_status::budget_exhausted: break;
        }
        return f.status;
    }

    std::vector<alloc_item> const& items_;
    arena_values const& values_;
    bool const grouped_;  // a failure proves nothing for the problem (exact_minimize)
    std::optional<clock::time_point> const deadline_;
    std::optional<std::uint64_t> const node_limit_;

    std::mutex mutex_;
    std::int64_t proven_;       // the bound claimed: nothing smaller fits
    std::int64_t refuted_ = 0;  // the capacity whose refutation gave proven_, when one did
    std::vector<std::int64_t> best_offsets_;
    std::atomic<std::int64_t> best_;       // the best placement's arena
    std::atomic<std::int64_t> open_from_;  // the lowest capacity not refuted by a search
    std::atomic<std::uint64_t> nodes_{0};
};

}  // namespace detail

/// Searches capacities from the lower bound up to the best of the heuristics (XLA's best fit,
/// greedy by size, first fit), or up to `start` when given (a valid placement: offsets of the
/// problem's size): the bound first, then descending from the best placement, on budget.threads
/// threads (detail::minimize_search says how). Writes the best placement found. With an
/// exhausted budget the result is the best placement so far, and the bound proven so far.
///
/// The lower bound is arena_lower_bound's (buffers that must stack, arena sizes a canonical
/// placement can have: arena_bound.hpp) when it is above the live bytes, and only those sizes are
/// tried: on MiniMalloc's instances, multiples of 1024, so a refuted 1024000 proves 1025023 too.
template <class Problem, class OffsetMap>
exact_result exact_minimize(Problem const& problem, OffsetMap offsets, search_budget const& budget = {},
                            std::vector<std::int64_t> const* start = nullptr) {
    auto const items = detail::read_items(problem);
    std::vector<std::int64_t> best;
    std::int64_t best_bytes = 0;
    if (start && start->size() == items.size()) {
        best = *start;
        best_bytes = detail::arena_of(items, best);
    } else {
        best_bytes = detail::best_heuristic(items, {}, nullptr, best);
    }
    exact_result r;
    // The search places each buffer over its whole span: where a sharing group is live in several
    // segments (problem.hpp) its failures and its own bound prove nothing, and only the
    // problem's bounds do (arena_bound.hpp follows the segments); its placements stay valid.
    bool const grouped = std::any_of(items.begin(), items.end(), [](auto const& it) { return it.segments != nullptr; });
    auto const values = detail::arena_values_of(items);
    r.granularity = values.granularity;
    detail::exact_search search(items);
    std::int64_t proven = lower_bound_bytes(problem);  // nothing below fits
    if (!grouped) proven = std::max(proven, search.lower_bound());
    std::int64_t const stacked = values.at_least(std::max(proven, detail::stacked_bytes(items, values.step)));
    if (stacked > proven) {
        proven = stacked;
        r.proof = bound_proof::stacked_bytes;
    }
    if (proven < best_bytes) {
        detail::minimize_search searches(items, values, grouped, budget, proven, best_bytes, std::move(best));
        searches.run(detail::threads_of(budget), search);
        best_bytes = searches.best_bytes();
        best = searches.best_offsets();
        r.nodes = searches.nodes();
        if (searches.proven() > proven) {
            proven = searches.proven();
            r.proof = bound_proof::search;
            r.refuted = searches.refuted();
        }
    }
    r.bytes = detail::write_offsets(items, best, offsets);
    r.lower_bound = std::min(proven, r.bytes);
    r.optimal = r.lower_bound == r.bytes;
    return r;
}
inline exact_result exact_minimize(allocation_problem& problem, search_budget const& budget = {}) {
    return exact_minimize(problem, offset_map(problem), budget);
}

}  // namespace hlomem

#endif  // HLOMEM_PLACEMENT_MINIMIZE_HPP
