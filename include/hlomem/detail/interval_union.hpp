// hlomem/detail/interval_union.hpp: the total length covered by a changing set of half-open
// intervals [begin, end), with every add and remove in O(log n).
//
// A segment tree over the sorted distinct endpoints: each node counts the intervals that cover
// it whole and knows how much of its range is covered. Used to measure the bytes a set of live
// slices really occupies when some of them share memory (aliases, in-place updates), which a
// plain sum would count twice.
#ifndef HLOMEM_DETAIL_INTERVAL_UNION_HPP
#define HLOMEM_DETAIL_INTERVAL_UNION_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hlomem::detail {

class interval_union {
public:
    /// `coordinates`: every endpoint that add/remove will use (any order, duplicates allowed).
    explicit interval_union(std::vector<std::int64_t> coordinates) : x_(std::move(coordinates)) {
        std::sort(x_.begin(), x_.end());
        x_.erase(std::unique(x_.begin(), x_.end()), x_.end());
        std::size_t const leaves = x_.size() > 1 ? x_.size() - 1 : 1;
        count_.assign(4 * leaves, 0);
        covered_.assign(4 * leaves, 0);
    }

    /// Adds (delta = +1) or removes (delta = -1) the interval [begin, end).
    void update(std::int64_t begin, std::int64_t end, int delta) {
        if (begin >= end || x_.size() < 2) return;
        auto const l = static_cast<std::size_t>(std::lower_bound(x_.begin(), x_.end(), begin) - x_.begin());
        auto const r = static_cast<std::size_t>(std::lower_bound(x_.begin(), x_.end(), end) - x_.begin());
        update(1, 0, x_.size() - 1, l, r, delta);
    }

    /// The length of the union of the intervals present.
    std::int64_t covered() const noexcept { return covered_.empty() ? 0 : covered_[1]; }

private:
    // Node `node` covers the elementary segments [lo, hi) between x_[lo] and x_[hi].
    void update(std::size_t node, std::size_t lo, std::size_t hi, std::size_t l, std::size_t r, int delta) {
        if (r <= lo || hi <= l) return;
        if (l <= lo && hi <= r) {
            count_[node] += delta;
        } else {
            std::size_t const mid = (lo + hi) / 2;
            update(2 * node, lo, mid, l, r, delta);
            update(2 * node + 1, mid, hi, l, r, delta);
        }
        if (count_[node] > 0) {
            covered_[node] = x_[hi] - x_[lo];
        } else if (hi - lo == 1) {
            covered_[node] = 0;
        } else {
            covered_[node] = covered_[2 * node] + covered_[2 * node + 1];
        }
    }

    std::vector<std::int64_t> x_;
    std::vector<int> count_;
    std::vector<std::int64_t> covered_;
};

}  // namespace hlomem::detail

#endif  // HLOMEM_DETAIL_INTERVAL_UNION_HPP
