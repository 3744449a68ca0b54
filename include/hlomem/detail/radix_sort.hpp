// hlomem/detail/radix_sort.hpp: a stable sort of records by an unsigned integer key, in passes of
// 11 bits from the lowest (least significant digit first), as many as the largest key needs.
//
// The sweeps sort 10^5 events by time and the origin walk 10^5 positions by a name's hash: with
// std::sort that was a fifth of the instructions of `report` on a 52 MB dump (compute_memory_analysis,
// dump_origin_graph). A pass is one count and one scatter, with no comparison to mispredict, and a
// key that spans little (times of one program, 32-bit hashes) needs two or three passes.
//
//   keys   5 3 5 1        pass over bits 0-10: count, prefix sums, scatter (stable)
//   order  1 3 5 5        equal keys keep the order they came in
#ifndef HLOMEM_DETAIL_RADIX_SORT_HPP
#define HLOMEM_DETAIL_RADIX_SORT_HPP

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hlomem::detail {

/// Sorts `records` by `key_of(record)` (a std::uint64_t), ascending; records with equal keys keep
/// their order. Short lists go to std::stable_sort, where the counts would cost more than the sort.
template <class T, class KeyOf>
void radix_sort(std::vector<T>& records, KeyOf key_of) {
    std::size_t const n = records.size();
    if (n < 256) {
        std::stable_sort(records.begin(), records.end(), [&](T const& a, T const& b) { return key_of(a) < key_of(b); });
        return;
    }
    std::uint64_t bits_used = 0;  // every bit set in some key: the passes stop above the highest
    for (T const& r : records) bits_used |= key_of(r);
    constexpr unsigned digit_bits = 11;
    constexpr std::size_t radix = std::size_t(1) << digit_bits;
    std::vector<T> other(n);
    std::array<std::size_t, radix> count;
    for (unsigned shift = 0; shift < 64 && (bits_used >> shift) != 0; shift += digit_bits) {
        count.fill(0);
        for (T const& r : records) ++count[(key_of(r) >> shift) & (radix - 1)];
        if (*std::max_element(count.begin(), count.end()) == n) continue;  // one digit for all: no move
        std::size_t at = 0;
        for (std::size_t& c : count) {
            std::size_t const here = c;
            c = at;
            at += here;
        }
        for (T const& r : records) other[count[(key_of(r) >> shift) & (radix - 1)]++] = r;
        records.swap(other);
    }
}

}  // namespace hlomem::detail

#endif  // HLOMEM_DETAIL_RADIX_SORT_HPP
