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
        // A perfect binary tree over the elementary segments [x_[k], x_[k + 1]), padded with empty
        // ones to a power of two, so that an update walks up from the leaves without recursion.
        std::size_t const segments = x_.size() > 1 ? x_.size() - 1 : 0;
        leaves_ = 1;
        while (leaves_ < segments) leaves_ *= 2;
        count_.assign(2 * leaves_, 0);
        covered_.assign(2 * leaves_, 0);
        length_.assign(2 * leaves_, 0);
        for (std::size_t k = 0; k < segments; ++k) length_[leaves_ + k] = x_[k + 1] - x_[k];
        for (std::size_t node = leaves_ - 1; node > 0; --node) length_[node] = length_[2 * node] + length_[2 * node + 1];
    }

    /// The position of `coordinate` among the endpoints, for update_positions: one of the
    /// coordinates given to the constructor.
    std::size_t position(std::int64_t coordinate) const {
        return static_cast<std::size_t>(std::lower_bound(x_.begin(), x_.end(), coordinate) - x_.begin());
    }

    /// Adds (delta = +1) or removes (delta = -1) the interval [begin, end).
    void update(std::int64_t begin, std::int64_t end, int delta) {
        if (begin >= end || x_.size() < 2) return;
        update_positions(position(begin), position(end), delta);
    }

    /// The same for the interval [x[l], x[r]) between the endpoints at positions l and r
    /// (position()): what a caller that adds and removes the same intervals many times computes
    /// once.
    void update_positions(std::size_t l, std::size_t r, int delta) {
        if (l >= r) return;
        std::size_t lo = l + leaves_, hi = r + leaves_;
        std::size_t const first = lo, last = hi - 1;
        // The canonical nodes covering [l, r), bottom up; then the nodes above them, whose
        // covered length depends on theirs.
        while (lo < hi) {
            if (lo & 1) mark(lo++, delta);
            if (hi & 1) mark(--hi, delta);
            lo /= 2;
            hi /= 2;
        }
        for (std::size_t node = first / 2; node > 0; node /= 2) pull(node);
        for (std::size_t node = last / 2; node > 0; node /= 2) pull(node);
    }

    /// The length of the union of the intervals present.
    std::int64_t covered() const noexcept { return covered_.size() > 1 ? covered_[1] : 0; }

private:
    void mark(std::size_t node, int delta) {
        count_[node] += delta;
        pull(node);
    }
    void pull(std::size_t node) {
        if (count_[node] > 0) {
            covered_[node] = length_[node];
        } else if (node >= leaves_) {
            covered_[node] = 0;
        } else {
            covered_[node] = covered_[2 * node] + covered_[2 * node + 1];
        }
    }

    std::vector<std::int64_t> x_;
    std::size_t leaves_ = 1;
    std::vector<int> count_;
    std::vector<std::int64_t> covered_;
    std::vector<std::int64_t> length_;
};

}  // namespace hlomem::detail

#endif  // HLOMEM_DETAIL_INTERVAL_UNION_HPP
