// The stable sort by an integer key (detail/radix_sort.hpp) against std::stable_sort: keys of a
// few bits and of all 64, lists below and above the size where the passes start, many equal
// keys (their order kept), one key for all (no pass moves anything).
#include <hlomem/detail/radix_sort.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace {

struct record {
    std::uint64_t key;
    std::size_t came;  // the place it came in: equal keys must keep this order
    bool operator==(record const& o) const { return key == o.key && came == o.came; }
};

/// `n` records whose keys are random below `2^bits` (bits 1-64), shifted left by `shift`.
std::vector<record> random_records(std::mt19937_64& rng, std::size_t n, unsigned bits, unsigned shift = 0) {
    std::vector<record> out(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t k = rng();
        if (bits < 64) k &= (std::uint64_t(1) << bits) - 1;
        out[i] = {k << shift, i};
    }
    return out;
}

void check_sorted_like_stable_sort(std::vector<record> records) {
    auto expected = records;
    std::stable_sort(expected.begin(), expected.end(), [](record const& a, record const& b) { return a.key < b.key; });
    hlomem::detail::radix_sort(records, [](record const& r) { return r.key; });
    CHECK(records == expected);
}

}  // namespace

TEST_CASE("detail/radix_sort: the order of std::stable_sort at every key width and size", "[radix_sort]") {
    std::mt19937_64 rng(7);
    for (std::size_t n : {0u, 1u, 2u, 255u, 256u, 257u, 1000u, 5000u}) {
        for (unsigned bits : {1u, 3u, 11u, 12u, 22u, 23u, 32u, 40u, 63u, 64u}) {
            CAPTURE(n, bits);
            check_sorted_like_stable_sort(random_records(rng, n, bits));
        }
    }
    // Keys whose low digits are all zero (a pass with one digit for all moves nothing), and keys
    // in the top bits alone: the passes run up to the highest bit set, whatever lies below.
    check_sorted_like_stable_sort(random_records(rng, 3000, 5, 40));
    check_sorted_like_stable_sort(random_records(rng, 3000, 4, 60));
    // Already sorted, reversed, all equal.
    std::vector<record> up(2000), down(2000), same(2000);
    for (std::size_t i = 0; i < 2000; ++i) {
        up[i] = {i, i};
        down[i] = {2000 - i, i};
        same[i] = {42, i};
    }
    check_sorted_like_stable_sort(up);
    check_sorted_like_stable_sort(down);
    check_sorted_like_stable_sort(same);
}
