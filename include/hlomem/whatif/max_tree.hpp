// hlomem/whatif/max_tree.hpp: a segment tree over a curve (bytes at each slot of the time axis)
// that adds a constant to a range of slots and tells the maximum and its first slot, each in
// O(log n): what lets one what-if edit cost microseconds on a module of 10^6 instructions, where
// recomputing XLA's peak (memory/peak.hpp, compute_xla_peak) is a pass over every value.
//
//   hlomem::max_tree t(std::vector<std::int64_t>(8, 0));
//   t.add(2, 5, 100);               // slots 2..5 (inclusive) hold 100 more bytes
//   t.max();  t.first_max();        // 100, 2
//   t.at(6);  t.leaves();           // one slot, or every slot in order
//
// Each node holds the maximum of its subtree plus what was added to the whole subtree; nothing is
// pushed down, so an add touches O(log n) nodes and a query reads the path it descends.
#ifndef HLOMEM_WHATIF_MAX_TREE_HPP
#define HLOMEM_WHATIF_MAX_TREE_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace hlomem {

class max_tree {
public:
    max_tree() = default;
    /// A tree over `leaves.size()` slots holding the given values. O(n).
    explicit max_tree(std::vector<std::int64_t> const& leaves) : n_(leaves.size()) {
        width_ = 1;
        while (width_ < std::max<std::size_t>(n_, 1)) width_ *= 2;
        max_.assign(2 * width_, lowest);
        added_.assign(2 * width_, 0);
        for (std::size_t i = 0; i < n_; ++i) max_[width_ + i] = leaves[i];
        for (std::size_t k = width_ - 1; k >= 1; --k) max_[k] = std::max(max_[2 * k], max_[2 * k + 1]);
    }

    std::size_t size() const noexcept { return n_; }

    /// Adds `delta` to every slot of [first, last] (inclusive; nothing when first > last).
    void add(std::size_t first, std::size_t last, std::int64_t delta) {
        if (first > last || delta == 0) return;
        add(1, 0, width_ - 1, first, std::min(last, n_ - 1), delta);
    }

    /// The largest value of any slot.
    std::int64_t max() const { return max_[1]; }

    /// The first slot holding max(): the descent takes the left child whenever it holds it.
    std::size_t first_max() const {
        std::size_t k = 1;
        std::int64_t target = max_[1];
        while (k < width_) {
            target -= added_[k];
            k = max_[2 * k] == target ? 2 * k : 2 * k + 1;
        }
        return k - width_;
    }

    /// The value of slot `i`: its leaf plus what every ancestor added.
    std::int64_t at(std::size_t i) const {
        std::size_t k = width_ + i;
        std::int64_t v = max_[k];
        for (k /= 2; k >= 1; k /= 2) v += added_[k];
        return v;
    }

    /// Every slot's value, in order. O(n).
    std::vector<std::int64_t> leaves() const {
        std::vector<std::int64_t> out(n_);
        std::vector<std::int64_t> above(2 * width_, 0);
        for (std::size_t k = 2; k < 2 * width_; ++k) above[k] = above[k / 2] + added_[k / 2];
        for (std::size_t i = 0; i < n_; ++i) out[i] = max_[width_ + i] + above[width_ + i];
        return out;
    }

    /// Far below any sum of sizes, far above int64's lowest: the value of a slot no instruction holds.
    static constexpr std::int64_t lowest = std::numeric_limits<std::int64_t>::min() / 4;

private:
    void add(std::size_t k, std::size_t lo, std::size_t hi, std::size_t first, std::size_t last, std::int64_t delta) {
        if (last < lo || hi < first) return;
        if (first <= lo && hi <= last) {
            max_[k] += delta;
            if (k < width_) added_[k] += delta;
            return;
        }
        std::size_t const mid = lo + (hi - lo) / 2;
        add(2 * k, lo, mid, first, last, delta);
        add(2 * k + 1, mid + 1, hi, first, last, delta);
        max_[k] = std::max(max_[2 * k], max_[2 * k + 1]) + added_[k];
    }

    std::size_t n_ = 0;
    std::size_t width_ = 1;
    std::vector<std::int64_t> max_;    // subtree maximum, including added_ of the node itself
    std::vector<std::int64_t> added_;  // added to the whole subtree (internal nodes)
};

}  // namespace hlomem

#endif  // HLOMEM_WHATIF_MAX_TREE_HPP
