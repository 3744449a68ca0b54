// hlomem/assign/live_range_index.hpp: the indexes that let the buffer assigner answer
// MaybeAssignBuffer's pairwise LiveRangeInterferes in bulk — the live ranges an allocation holds
// (live_range_index: does one overlap [s, e] by more than an end point?) and the values that start
// or end at each time (values_by_time), where the operand rule decides.
#ifndef HLOMEM_ASSIGN_LIVE_RANGE_INDEX_HPP
#define HLOMEM_ASSIGN_LIVE_RANGE_INDEX_HPP

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <numeric>
#include <vector>

#include <hlomem/dump/live_range.hpp>
#include <hlomem/hlo/module.hpp>

namespace hlomem {

namespace detail {

/// The live ranges assigned to one allocation, for MaybeAssignBuffer's pairwise
/// LiveRangeInterferes in bulk: whether some range overlaps [s, e] by more than a shared end
/// point (`start < e && end > s`), which interferes whatever the operand rule says. Sorted runs
/// of distinct power-of-two lengths (merged like a binary counter on insertion), each with the
/// largest end of every prefix: an insertion costs O(log n) amortized, a query O(log^2 n), and
/// the memory is three integers per range, contiguous.
class live_range_index {
public:
    void insert(logical_time start, logical_time end) {
        std::vector<item> carry{{start, end, end}};
        while (!runs_.empty() && runs_.back().size() == carry.size()) {
            std::vector<item> merged(carry.size() * 2);
            std::merge(runs_.back().begin(), runs_.back().end(), carry.begin(), carry.end(), merged.begin(),
                       [](item const& a, item const& b) { return a.start < b.start; });
            runs_.pop_back();
            carry = std::move(merged);
        }
        logical_time running = carry.front().end;
        for (auto& x : carry) x.max_end = running = std::max(running, x.end);
        runs_.push_back(std::move(carry));
    }

    /// Some range with start < e and end > s.
    bool overlaps_inside(logical_time s, logical_time e) const {
        for (auto const& run : runs_) {
            auto const it = std::lower_bound(run.begin(), run.end(), e, [](item const& x, logical_time t) { return x.start < t; });
            if (it != run.begin() && std::prev(it)->max_end > s) return true;
        }
        return false;
    }

private:
    struct item {
        logical_time start, end, max_end;
    };
    std::vector<std::vector<item>> runs_;  // lengths strictly decreasing
};

/// Values grouped by a time of their live range (a start or an end), contiguous.
class values_by_time {
public:
    /// `time_of(v)` for v < count: the time of value v, or a negative number for none.
    template <class TimeOf>
    void build(std::size_t count, TimeOf time_of) {
        std::size_t times = 0;
        for (std::size_t v = 0; v < count; ++v) {
            logical_time const t = time_of(v);
            if (t >= 0) times = std::max(times, static_cast<std::size_t>(t) + 1);
        }
        begin_.assign(times + 1, 0);
        for (std::size_t v = 0; v < count; ++v) {
            logical_time const t = time_of(v);
            if (t >= 0) ++begin_[static_cast<std::size_t>(t) + 1];
        }
        std::partial_sum(begin_.begin(), begin_.end(), begin_.begin());
        values_.resize(begin_.back());
        std::vector<std::size_t> next(begin_.begin(), begin_.end() - 1);
        for (std::size_t v = 0; v < count; ++v) {
            logical_time const t = time_of(v);
            if (t >= 0) values_[next[static_cast<std::size_t>(t)]++] = v;
        }
    }
    list_view<std::size_t> at(logical_time t) const {
        if (t < 0 || static_cast<std::size_t>(t) + 1 >= begin_.size()) return {};
        std::size_t const k = static_cast<std::size_t>(t);
        return list_view<std::size_t>(values_.data() + begin_[k], begin_[k + 1] - begin_[k]);
    }

private:
    std::vector<std::size_t> begin_;
    std::vector<std::size_t> values_;
};

}  // namespace detail

}  // namespace hlomem

#endif  // HLOMEM_ASSIGN_LIVE_RANGE_INDEX_HPP
