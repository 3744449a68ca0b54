// hlomem/placement/exact.hpp: an exact search that proves whether a problem fits a capacity, in the
// manner of MiniMalloc (Moffitt, "MiniMalloc: A Lightweight Memory Allocator for Hardware-Accelerated
// Machine Learning", ASPLOS 2023), and the smallest capacity found with it.
//
// Canonical placements. Push every buffer of a valid placement down as far as it goes: it then
// sits at offset 0 or directly on a buffer it lives with (at the aligned end of the highest one
// below it, its *floor*). Sorted by (offset, rank), such a placement is built by placing buffers
// one after the other, each at its floor, with non-decreasing (offset, rank). The search
// enumerates exactly these sequences, depth first:
//
//   capacity 6        time 0   1   2   3
//   a (4) at 0        [=======)                 floors after a: b 4, c 0
//   c (4) at 0                    [=======)     c sits at 0 too (after a in rank order)
//   b (2) at 4            [=======)             b's floor is 4: placed at (4, b) > (0, c)
//
// Pruning, each sound (it never removes the last feasible placement):
//   - capacity: a buffer whose floor + size exceeds the capacity ends the branch;
//   - sections (MiniMalloc's section inference with unallocated floors): time is cut into
//     sections at every lifespan end; the unplaced buffers of a section are stacked above the
//     lowest floor among them (and above the last offset placed), so that floor plus their sizes
//     must fit the capacity;
//   - the highest next offset: since offsets never decrease along the sequence, whatever is placed
//     next at offset o lifts every section's stack to at least o, so o + (the bytes still to place
//     in any section of the part) must fit: candidates above capacity - (the largest such sum) are
//     not tried. In a tight section (its stack reaching the capacity exactly) this forces the next
//     buffer to the section's current top, which is what makes the instances whose lower bound is
//     their capacity tractable (MiniMalloc's H: 23 thousand nodes instead of 10 million);
//   - dominance: placing b at its floor is skipped when another unplaced buffer c would fit
//     entirely below it (floor(c) + size(c) <= floor(b)): moving c there gives a placement with a
//     smaller sum of offsets, which the search meets in another branch;
//   - hatless buffers: when the buffer just tried lives with nothing unplaced and the rest failed
//     above it, every later candidate fails too;
//   - temporal decomposition: when no unplaced buffer crosses some section boundary, the buffers
//     on either side no longer interact (the placed ones only set floors) and are solved one
//     after the other, each as a fresh canonical sequence; a side that fails fails the node
//     without retrying the other side's choices.
// Branches are tried in order of floor, then of rank (MiniMalloc's dynamic ordering). Rankings
// sort by keys such as the largest section total a buffer is in, its lifespan's width and its area;
// since depth-first search is heavy-tailed here, MiniMalloc's three rankings take turns under a
// growing node limit (exact_search::solve).
//
// The search answers feasible (with a placement), infeasible (a proof: some run searched its
// whole tree), or budget_exhausted (a time or node limit ran out first). exact_minimize searches
// capacities between the lower bound (arena_bound.hpp) and the best heuristic placement, and
// says what its bound rests on.
#ifndef HLOMEM_PLACEMENT_EXACT_HPP
#define HLOMEM_PLACEMENT_EXACT_HPP

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <hlomem/placement/problem.hpp>

namespace hlomem {

enum class search_status : std::uint8_t {
    feasible,          ///< a placement within the capacity was found
    infeasible,        ///< proven: no placement fits the capacity
    budget_exhausted,  ///< the time or node limit ran out before either was known
};

inline char const* to_string(search_status s) noexcept {
    switch (s) {
        case search_status::feasible: return "feasible";
        case search_status::infeasible: return "infeasible";
        case search_status::budget_exhausted: return "budget-exhausted";
    }
    return "?";
}

/// Limits on a search. A node limit makes results reproducible on any machine; a time limit
/// keeps a search from running away. Both may be set; the first reached ends the search.
struct search_budget {
    std::optional<std::chrono::milliseconds> time_limit;
    std::optional<std::uint64_t> node_limit;
    /// exact_minimize's searches at once: 1 (the default) is deterministic under a node limit;
    /// 0 takes one per core. More threads change how fast an answer comes, and which placement
    /// of the smallest arena, never the arena a completed search proves smallest.
    unsigned threads = 1;
};

/// The answer for one capacity.
struct feasibility_result {
    search_status status = search_status::budget_exhausted;
    std::int64_t bytes = 0;   ///< the arena of the placement found (<= capacity) when feasible
    std::uint64_t nodes = 0;  ///< search nodes visited
};

namespace detail {

/// Where a solve of one capacity stopped undecided, so that the next solve of that capacity goes
/// on from there instead of running its first rounds again (exact_minimize tries a capacity once
/// a pass, with twice the nodes each pass). Zero: from the start.
struct solve_progress {
    std::uint64_t round_limit = 0;  ///< the node limit of the round's runs
    std::size_t ranking = 0;        ///< the turn, within the round, of the run that was cut
};

/// What makes a search moot while it runs (exact_minimize's searches, each on its own thread): a
/// placement found within its capacity, or a proof that nothing fits it. Read every 256 nodes.
struct search_watch {
    std::atomic<std::int64_t> const* best = nullptr;       ///< the arena of the best placement
    std::atomic<std::int64_t> const* open_from = nullptr;  ///< below it, every capacity is refuted
};

class exact_search {
public:
    using clock = std::chrono::steady_clock;

    explicit exact_search(std::vector<alloc_item> const& items) : items_(items) {
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (items[i].size > 0) of_.push_back(i);
        }
        std::size_t const m = of_.size();
        // The trail's records hold a buffer or section index in 32 bits, a count in 30.
        if (m >= (std::size_t{1} << 30)) {
            throw allocation_error("hlomem: the exact search takes fewer than 2^30 buffers, not " + std::to_string(m));
        }
        std::vector<std::int64_t> times;
        for (std::size_t i : of_) {
            times.push_back(items[i].lower);
            times.push_back(items[i].upper);
        }
        std::sort(times.begin(), times.end());
        times.erase(std::unique(times.begin(), times.end()), times.end());
        sections_ = times.empty() ? 0 : times.size() - 1;
        size_.resize(m);
        align_.resize(m);
        width_.resize(m);
        area_.resize(m);
        first_.resize(m);
        last_.resize(m);
        members_of_section_.resize(sections_);
        position_start_.resize(m);
        total_.assign(sections_, 0);
        std::vector<alloc_item> compact;
        for (std::size_t k = 0; k < m; ++k) {
            auto const& it = items[of_[k]];
            compact.push_back(it);
            size_[k] = it.size;
            align_[k] = it.alignment;
            width_[k] = it.upper - it.lower;
            area_[k] = static_cast<long double>(width_[k]) * static_cast<long double>(it.size);
            first_[k] = static_cast<std::size_t>(std::lower_bound(times.begin(), times.end(), it.lower) - times.begin());
            last_[k] = static_cast<std::size_t>(std::lower_bound(times.begin(), times.end(), it.upper) - times.begin());
            position_start_[k] = member_position_.size();
            for (std::size_t s = first_[k]; s < last_[k]; ++s) {
                member_position_.push_back(static_cast<std::uint32_t>(members_of_section_[s].size()));
                members_of_section_[s].push_back(static_cast<std::uint32_t>(k));
                total_[s] += it.size;
            }
        }
        lower_bound_ = total_.empty() ? 0 : *std::max_element(total_.begin(), total_.end());
        neighbors_ = time_neighbors(compact);
    }

    /// The most bytes live in one section (alignment not counted).
    std::int64_t lower_bound() const noexcept { return lower_bound_; }

    /// Searches for a placement within `capacity`; on success `offsets` holds one (every item).
    ///
    /// Depth-first search on these problems is heavy-tailed: one ranking finds a placement in a
    /// few thousand nodes where another is stuck for minutes. So, as MiniMalloc does, its three
    /// rankings take turns under a node limit that doubles each round. Any run that completes
    /// without a placement proves infeasibility, whichever ranking it used. Deterministic: the
    /// same problem and node limit give the same answer on every machine.
    ///
    /// `first_ranking` rotates the order the rankings take turns in (a second thread searching one
    /// capacity starts where the first does not); a `watch` ends the search as soon as its answer
    /// no longer matters, as budget_exhausted.
    ///
    /// `progress`, when given, is where an earlier solve of this capacity (with the same
    /// `first_ranking`) stopped undecided, on its node limit, its deadline or its watch: the
    /// rounds it completed are not run again, only the run it cut, from its start (a run is not
    /// resumable). Updated when this one stops undecided. The answer is the one a single solve
    /// with both solves' nodes would give, but for the cut run's repeated nodes.
    feasibility_result solve(std::int64_t capacity, std::optional<clock::time_point> deadline,
                             std::optional<std::uint64_t> node_limit, std::vector<std::int64_t>& offsets,
                             std::size_t first_ranking = 0, search_watch watch = {}, solve_progress* progress = nullptr) {
        std::size_t const m = of_.size();
        capacity_ = capacity;
        deadline_ = deadline;
        watch_ = watch;
        out_of_time_ = false;
        feasibility_result r;
        outcome o = lower_bound_ > capacity ? outcome::failed : outcome::budget;
        // One run: whether it went its round's full limit undecided, and the search goes on.
        auto spend = [&](char const* keys, std::uint64_t limit) {
            bool cut = false;
            if (node_limit) {
                std::uint64_t const left = *node_limit - std::min(*node_limit, r.nodes);
                cut = left < limit;
                limit = std::min(limit, left);
            }
            if (limit == 0) return false;
            o = run(keys, limit);
            r.nodes += nodes_;
            return o == outcome::budget && !out_of_time_ && !cut;
        };
        std::uint64_t round_limit = 2 * static_cast<std::uint64_t>(m) + 2;
        std::size_t j = 0;  // the turn within the round
        if (progress && progress->round_limit >= round_limit) {
            round_limit = progress->round_limit;
            j = std::min<std::size_t>(progress->ranking, ranking_count - 1);
        }
        while (o == outcome::budget && spend(rankings_[(first_ranking + j) % ranking_count], round_limit)) {
            if (++j == ranking_count) {
                j = 0;
                round_limit *= 2;
            }
        }
        // Cut by the node limit, the clock or the watch: the next solve goes on from here.
        if (progress && o == outcome::budget) *progress = {round_limit, j};
        if (o == outcome::found) {
            r.status = search_status::feasible;
            offsets.assign(items_.size(), 0);
            for (std::size_t k = 0; k < m; ++k) {
                offsets[of_[k]] = offset_[k];
                r.bytes = std::max(r.bytes, offset_[k] + size_[k]);
            }
        } else {
            r.status = o == outcome::failed ? search_status::infeasible : search_status::budget_exhausted;
        }
        return r;
    }

private:
    enum class outcome { found, failed, budget };
    // floor: a buffer's old floor; placement: a buffer placed; section: a section's old lowest
    // floor and the buffer that was at it.
    enum class undo_kind : std::uint8_t { floor, placement, section };
    /// 16 bytes: a node pushes one for the buffer it places, one for each buffer whose floor rises,
    /// and one for each section whose lowest floor it recounts.
    struct undo {
        std::int64_t value;   // the old floor, or the section's old lowest floor
        std::uint32_t index;  // the buffer, or the section
        std::uint32_t tag;    // the kind (2 bits) and the section's old witness (30 bits)
        undo_kind kind() const noexcept { return static_cast<undo_kind>(tag >> 30); }
        std::uint32_t old_witness() const noexcept { return tag & ((1u << 30) - 1); }
    };
    void push_undo(undo_kind kind, std::size_t index, std::int64_t value, std::uint32_t witness = 0) {
        trail_.push_back({value, static_cast<std::uint32_t>(index), witness | static_cast<std::uint32_t>(kind) << 30});
    }
    static constexpr std::size_t npos_ = static_cast<std::size_t>(-1);
    /// How buffers are ranked (the tie-break after the floor): keys compared largest first —
    /// W the lifespan's width, A the area (width × size), T the largest total of the bytes still
    /// to place in a section the buffer is in. A part split off by decomposition is ranked again
    /// with the totals of what is left of it, as MiniMalloc's SubSolve does. These are MiniMalloc's
    /// three default preorderings; with the highest-next-offset rule, one of them places each of
    /// its challenging instances within a few hundred thousand nodes (randomized restarts and four
    /// more rankings, tried before that rule existed, only doubled the total).
    static constexpr char const* rankings_[] = {"WAT", "TAW", "TWA"};

public:
    static constexpr unsigned ranking_count = 3;

private:

    /// Buffer k's floor rounded up to its alignment: where it would be placed (unplaced buffers).
    std::int64_t aligned_floor(std::size_t k) const noexcept { return aligned_floor_[k]; }
    void set_floor(std::size_t k, std::int64_t floor) noexcept {
        floor_[k] = floor;
        aligned_floor_[k] = align_up(floor, align_[k]);
    }

    /// Ranks `members` by the current ranking, with the section totals of what is left to place.
    void rank_members(std::vector<std::size_t> const& members, std::vector<std::size_t>& rank) {
        std::size_t const n = members.size();
        std::vector<std::array<long double, 3>> keys(n);
        for (std::size_t i = 0; i < n; ++i) {
            std::size_t const k = members[i];
            std::int64_t peak = 0;
            for (std::size_t s = first_[k]; s < last_[k]; ++s) peak = std::max(peak, remaining_[s]);
            keys[i] = {0, 0, 0};
            for (std::size_t j = 0; j < 3 && ranking_[j] != '\0'; ++j) {
                char const c = ranking_[j];
                keys[i][j] = c == 'W' ? static_cast<long double>(width_[k]) : c == 'A' ? area_[k] : static_cast<long double>(peak);
            }
        }
        std::vector<std::size_t> order(n);
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            for (std::size_t j = 0; j < 3; ++j) {
                if (keys[a][j] != keys[b][j]) return keys[a][j] > keys[b][j];
            }
            return members[a] < members[b];
        });
        rank.assign(of_.size(), npos_);
        for (std::size_t r = 0; r < n; ++r) rank[members[order[r]]] = r;
    }

    /// One depth-first search with one ranking and a node limit.
    outcome run(char const* keys, std::uint64_t node_limit) {
        std::size_t const m = of_.size();
        ranking_ = keys;
        node_limit_ = node_limit;
        nodes_ = 0;
        placed_.assign(m, 0);
        offset_.assign(m, 0);
        floor_.assign(m, 0);
        aligned_floor_.assign(m, 0);
        remaining_ = total_;
        lowest_.assign(sections_, 0);
        witness_.assign(sections_, 0);
        for (std::size_t s = 0; s < sections_; ++s) {
            if (!members_of_section_[s].empty()) witness_[s] = members_of_section_[s].front();
        }
        unplaced_of_section_ = members_of_section_;
        position_ = member_position_;
        crossing_.assign(sections_ + 1, 0);
        trail_.clear();
        for (std::size_t k = 0; k < m; ++k) {
            for (std::size_t b = first_[k] + 1; b < last_[k]; ++b) ++crossing_[b];
        }
        std::vector<std::size_t> all(m);
        std::iota(all.begin(), all.end(), std::size_t{0});
        scratch_.resize(m + 1);
        return search_parts(all, 0);
    }

    bool over_budget() {
        if (nodes_ >= node_limit_) return true;
        ++nodes_;
        if ((nodes_ & 255) == 0) {
            if (deadline_ && clock::now() >= *deadline_) out_of_time_ = true;
            if (watch_.best && (watch_.best->load(std::memory_order_relaxed) <= capacity_ ||
                                watch_.open_from->load(std::memory_order_relaxed) > capacity_)) {
                out_of_time_ = true;
            }
        }
        return out_of_time_;
    }

    /// Where buffer k is in section s's list of unplaced members.
    std::uint32_t& position(std::size_t k, std::size_t s) noexcept { return position_[position_start_[k] + (s - first_[k])]; }
    /// Takes k (being placed) out of section s's unplaced members: the last one moves into its place.
    void leave_section(std::size_t k, std::size_t s) noexcept {
        auto& list = unplaced_of_section_[s];
        std::uint32_t const i = position(k, s);
        std::uint32_t const moved = list.back();
        list[i] = moved;
        position(moved, s) = i;
        list.pop_back();
    }
    /// The undo of leave_section, the trail being undone in reverse: the one moved goes back last.
    void return_to_section(std::size_t k, std::size_t s) {
        auto& list = unplaced_of_section_[s];
        std::uint32_t const i = position(k, s);
        if (i == list.size()) {
            list.push_back(static_cast<std::uint32_t>(k));
            return;
        }
        std::uint32_t const moved = list[i];
        position(moved, s) = static_cast<std::uint32_t>(list.size());
        list.push_back(moved);
        list[i] = static_cast<std::uint32_t>(k);
    }

    void place(std::size_t k, std::int64_t offset) {
        push_undo(undo_kind::placement, k, 0);
        placed_[k] = 1;
        offset_[k] = offset;
        std::int64_t const end = offset + size_[k];
        for (std::size_t n : neighbors_[k]) {
            if (placed_[n] || floor_[n] >= end) continue;
            push_undo(undo_kind::floor, n, floor_[n]);
            set_floor(n, end);
        }
        for (std::size_t s = first_[k]; s < last_[k]; ++s) {
            remaining_[s] -= size_[k];
            leave_section(k, s);
        }
        for (std::size_t b = first_[k] + 1; b < last_[k]; ++b) --crossing_[b];
    }

    /// The lowest aligned floor of section s's unplaced buffers is at least lowest_[s] (counted
    /// earlier on this branch: floors only rise and buffers only leave) and at most this: the
    /// floor of its witness (the buffer at lowest_[s] when counted) while unplaced, or else of
    /// any unplaced member. Where the two meet, lowest_[s] is exact.
    std::int64_t lowest_at_most(std::size_t s) const noexcept {
        std::uint32_t const w = witness_[s];
        return placed_[w] ? aligned_floor_[unplaced_of_section_[s].front()] : aligned_floor_[w];
    }
    /// Counts section s's lowest floor again. Only when a node must know it (search): no count of
    /// the buffers at each section's lowest floor is kept as floors rise, which, with its undo,
    /// was a fifth of the search's time (perf, on MiniMalloc's J: long-lived buffers span most of
    /// its 212 sections).
    void recount(std::size_t s) {
        std::int64_t lowest = std::numeric_limits<std::int64_t>::max();
        std::uint32_t witness = 0;
        // The unplaced members alone (unplaced_of_section_): these loops were two fifths of a
        // node's instructions while they read the placed members too.
        for (std::uint32_t j : unplaced_of_section_[s]) {
            std::int64_t const f = aligned_floor_[j];
            if (f < lowest) {
                lowest = f;
                witness = j;
            }
        }
        push_undo(undo_kind::section, s, lowest_[s], witness_[s]);
        lowest_[s] = lowest;
        witness_[s] = witness;
    }

    void undo_to(std::size_t mark) {
        while (trail_.size() > mark) {
            undo const u = trail_.back();
            trail_.pop_back();
            switch (u.kind()) {
                case undo_kind::floor: set_floor(u.index, u.value); break;
                case undo_kind::section:
                    lowest_[u.index] = u.value;
                    witness_[u.index] = u.old_witness();
                    break;
                case undo_kind::placement: {
                    std::size_t const k = u.index;
                    placed_[k] = 0;
                    for (std::size_t s = first_[k]; s < last_[k]; ++s) {
                        remaining_[s] += size_[k];
                        return_to_section(k, s);
                    }
                    for (std::size_t b = first_[k] + 1; b < last_[k]; ++b) ++crossing_[b];
                    break;
                }
            }
        }
    }

    /// Splits `members` (unplaced) at the section boundaries no unplaced buffer crosses and
    /// solves each part on its own, ranked afresh, as a new canonical sequence.
    outcome search_parts(std::vector<std::size_t> const& members, std::size_t depth) {
        std::size_t lo = sections_, hi = 0;
        for (std::size_t k : members) {
            lo = std::min(lo, first_[k]);
            hi = std::max(hi, last_[k]);
        }
        std::vector<std::size_t> part_of_section(hi > lo ? hi - lo : 0, 0);
        std::size_t parts = 0;
        for (std::size_t s = lo; s < hi; ++s) {
            if (s > lo && crossing_[s] == 0) ++parts;
            part_of_section[s - lo] = parts;
        }
        std::vector<std::vector<std::size_t>> split(parts + 1);
        for (std::size_t k : members) split[part_of_section[first_[k] - lo]].push_back(k);
        std::size_t const mark = trail_.size();
        std::vector<std::size_t> rank;
        for (auto const& part : split) {
            if (part.empty()) continue;
            std::size_t part_lo = sections_, part_hi = 0;
            for (std::size_t k : part) {
                part_lo = std::min(part_lo, first_[k]);
                part_hi = std::max(part_hi, last_[k]);
            }
            rank_members(part, rank);
            outcome const o = search(part, part_lo, part_hi, 0, npos_, rank, depth);
            if (o != outcome::found) {
                undo_to(mark);
                return o;
            }
        }
        return outcome::found;
    }

    /// Places `members` (unplaced, in one part: sections [lo, hi) hold no other unplaced buffer)
    /// each at its floor, in non-decreasing (offset, rank) after (last, last_rank). `depth`: the
    /// nesting of this call, which scratch_ it writes. A child keeps its parent's sections: those
    /// its members left hold nothing unplaced, and are passed over.
    outcome search(std::vector<std::size_t> const& members, std::size_t lo, std::size_t hi, std::int64_t last, std::size_t last_rank,
                   std::vector<std::size_t> const& rank, std::size_t depth) {
        if (members.empty()) return outcome::found;
        if (over_budget()) return outcome::budget;
        // Sections: the unplaced buffers of a section stack above their lowest floor, and above
        // the next offset, which may be no higher than `highest`.
        std::int64_t most_remaining = 0;
        for (std::size_t s = lo; s < hi; ++s) {
            if (remaining_[s] == 0) continue;
            if (last + remaining_[s] > capacity_) return outcome::failed;
            if (lowest_[s] + remaining_[s] > capacity_) return outcome::failed;
            // Counted again only when the bounds on the lowest floor do not settle the test.
            std::int64_t const at_most = lowest_at_most(s);
            if (at_most != lowest_[s] && at_most + remaining_[s] > capacity_) {
                recount(s);
                if (lowest_[s] + remaining_[s] > capacity_) return outcome::failed;
            }
            most_remaining = std::max(most_remaining, remaining_[s]);
        }
        std::int64_t const highest = capacity_ - most_remaining;
        // Candidates, and the dominance bound: the lowest end any unplaced buffer reaches.
        std::int64_t best_end = std::numeric_limits<std::int64_t>::max(), second_end = best_end;
        std::size_t best_item = npos_;
        auto& candidates = scratch_[depth].candidates;
        candidates.clear();
        for (std::size_t k : members) {
            std::int64_t const o = aligned_floor(k);
            std::int64_t const end = o + size_[k];
            if (end > capacity_) return outcome::failed;
            if (end < best_end) {
                second_end = best_end;
                best_end = end;
                best_item = k;
            } else if (end < second_end) {
                second_end = end;
            }
            if (o <= highest && (o > last || (o == last && (last_rank == npos_ || rank[k] > last_rank)))) candidates.push_back({o, rank[k], k});
        }
        // Not tried: a candidate above `highest` (some section's stack would pass the capacity:
        // never kept above), or dominated (another buffer fits entirely below it).
        candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                        [&](candidate const& c) { return c.offset >= (c.item == best_item ? second_end : best_end); }),
                         candidates.end());
        std::sort(candidates.begin(), candidates.end(), [](candidate const& a, candidate const& b) {
            return std::tie(a.offset, a.rank) < std::tie(b.offset, b.rank);
        });
        auto& rest = scratch_[depth].rest;
        for (auto const& c : candidates) {
            std::size_t const mark = trail_.size();
            place(c.item, c.offset);
            auto const at = std::find(members.begin(), members.end(), c.item);
            rest.assign(members.begin(), at);
            rest.insert(rest.end(), at + 1, members.end());
            bool split = false, hatless = true;
            for (std::size_t b = first_[c.item] + 1; b < last_[c.item]; ++b) split = split || crossing_[b] == 0;
            for (std::size_t n : neighbors_[c.item]) hatless = hatless && placed_[n];
            outcome const o = split ? search_parts(rest, depth + 1) : search(rest, lo, hi, c.offset, c.rank, rank, depth + 1);
            if (o == outcome::found) return o;
            undo_to(mark);
            if (o == outcome::budget) return o;
            // A buffer nothing unplaced lives with changes nothing for the others but the order:
            // if the rest fails above it, it fails for every later candidate too (each would
            // leave it below the order's offset). MiniMalloc's hatless pruning.
            if (hatless) break;
        }
        return outcome::failed;
    }

    std::vector<alloc_item> const& items_;
    std::vector<std::size_t> of_;  // compact index -> item index (items of size > 0)
    std::size_t sections_ = 0;
    std::vector<std::int64_t> size_, align_, width_;
    std::vector<long double> area_;
    std::vector<std::size_t> first_, last_;  // sections [first, last) of each buffer
    std::vector<std::vector<std::uint32_t>> members_of_section_;
    std::vector<std::size_t> position_start_;      // where buffer k's sections start in member_position_
    std::vector<std::uint32_t> member_position_;   // k's index in members_of_section_[s], per (k, s)
    // During a run: each section's unplaced members, and each buffer's index there.
    std::vector<std::vector<std::uint32_t>> unplaced_of_section_;
    std::vector<std::uint32_t> position_;
    std::vector<std::int64_t> total_;  // bytes live in each section
    std::vector<std::vector<std::size_t>> neighbors_;
    std::int64_t lower_bound_ = 0;

    std::int64_t capacity_ = 0;
    std::optional<clock::time_point> deadline_;
    search_watch watch_;
    char const* ranking_ = rankings_[0];
    std::uint64_t node_limit_ = 0;
    std::uint64_t nodes_ = 0;
    bool out_of_time_ = false;  // the deadline passed, or the watch made the search moot
    std::vector<char> placed_;
    std::vector<std::int64_t> offset_, floor_, remaining_;
    std::vector<std::int64_t> aligned_floor_;  // of each buffer, read while it is unplaced
    std::vector<std::size_t> crossing_;  // per section boundary b (between sections b-1 and b)
    // Per section, the lowest aligned floor of its unplaced buffers when last counted (at most
    // the lowest now), and the buffer that was at it.
    std::vector<std::int64_t> lowest_;
    std::vector<std::uint32_t> witness_;
    std::vector<undo> trail_;
    /// What one search call builds, kept for the next call at its depth (no allocation per node).
    struct candidate {
        std::int64_t offset;
        std::size_t rank;
        std::size_t item;
    };
    struct scratch {
        std::vector<candidate> candidates;
        std::vector<std::size_t> rest;  // the members a child is given
    };
    std::vector<scratch> scratch_;
};

inline std::optional<exact_search::clock::time_point> deadline_of(search_budget const& budget) {
    if (!budget.time_limit) return std::nullopt;
    return exact_search::clock::now() + *budget.time_limit;
}

}  // namespace detail

namespace detail {

/// The threads a budget asks for: budget.threads, or one per core for 0.
inline unsigned threads_of(search_budget const& budget) {
    return budget.threads != 0 ? budget.threads : std::max(1u, std::thread::hardware_concurrency());
}

/// One capacity searched by `threads` searches at once, each starting from another of the
/// rankings (a portfolio: on these problems one ranking often answers in thousands of nodes where
/// another needs millions); the first answer stops the others. Each search has the node limit.
inline feasibility_result solve_on_threads(std::vector<alloc_item> const& items, std::int64_t capacity, search_budget const& budget,
                                           std::vector<std::int64_t>& at) {
    unsigned const threads = std::min(threads_of(budget), exact_search::ranking_count);
    auto const deadline = deadline_of(budget);
    if (threads <= 1) return exact_search(items).solve(capacity, deadline, budget.node_limit, at);
    std::atomic<std::int64_t> best{std::numeric_limits<std::int64_t>::max()}, open_from{0};
    std::mutex mutex;
    feasibility_result answer;
    std::uint64_t nodes = 0;
    auto work = [&](unsigned t) {
        std::vector<std::int64_t> trial;
        auto const f = exact_search(items).solve(capacity, deadline, budget.node_limit, trial, t, search_watch{&best, &open_from});
        std::lock_guard<std::mutex> lock(mutex);
        nodes += f.nodes;
        if (f.status == search_status::budget_exhausted || answer.status != search_status::budget_exhausted) return;
        answer = f;
        if (f.status == search_status::feasible) {
            at = std::move(trial);
            best.store(f.bytes);
        } else {
            open_from.store(capacity + 1);
        }
    };
    std::vector<std::thread> others;
    for (unsigned t = 1; t < threads; ++t) others.emplace_back(work, t);
    work(0);
    for (auto& t : others) t.join();
    answer.nodes = nodes;
    return answer;
}

}  // namespace detail

/// Is there a placement within `capacity` bytes? Writes it through `offsets` when there is. With
/// budget.threads above 1, up to three searches, each from another ranking, race for the answer.
template <class Problem, class OffsetMap>
feasibility_result place_within(Problem const& problem, std::int64_t capacity, OffsetMap offsets, search_budget const& budget = {}) {
    auto const items = detail::read_items(problem);
    std::vector<std::int64_t> at;
    auto r = detail::solve_on_threads(items, capacity, budget, at);
    if (r.status == search_status::feasible) detail::write_offsets(items, at, offsets);
    // The search places each buffer over its whole span. A sharing group live in several
    // segments (problem.hpp) may fit where its span does not, so a failure proves nothing there.
    bool const grouped = std::any_of(items.begin(), items.end(), [](auto const& it) { return it.segments != nullptr; });
    if (grouped && r.status == search_status::infeasible) r.status = search_status::budget_exhausted;
    return r;
}
inline feasibility_result place_within(allocation_problem& problem, std::int64_t capacity, search_budget const& budget = {}) {
    return place_within(problem, capacity, offset_map(problem), budget);
}

}  // namespace hlomem

#endif  // HLOMEM_PLACEMENT_EXACT_HPP
