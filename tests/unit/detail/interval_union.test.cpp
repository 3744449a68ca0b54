// The covered length of a changing set of half-open intervals, kept in a segment tree
// (detail/interval_union.hpp).
#include <hlomem/detail/interval_union.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <utility>
#include <vector>

TEST_CASE("interval_union measures the union of the intervals present, as a byte map does", "[scan][interval_union]") {
    // Intervals over [0, 40) with nesting, identical and touching ones (what aliases, tuples and
    // temp reuse give), added and removed in a scrambled order; after every step the covered length
    // must equal a brute-force count of the bytes some present interval covers. Tree sizes of 1 to
    // 33 segments exercise the padding of the leaves to a power of two.
    for (std::uint32_t seed = 1; seed <= 40; ++seed) {
        std::uint32_t state = seed;
        auto next = [&](std::uint32_t n) {
            state = state * 1664525u + 1013904223u;
            return static_cast<std::int64_t>((state >> 8) % n);
        };
        std::size_t const n = 1 + static_cast<std::size_t>(seed % 17);
        std::vector<std::pair<std::int64_t, std::int64_t>> intervals;
        std::vector<std::int64_t> coordinates;
        for (std::size_t k = 0; k < n; ++k) {
            std::int64_t const begin = next(36), end = begin + 1 + next(12);
            intervals.push_back({begin, end});
            coordinates.push_back(begin);
            coordinates.push_back(end);
        }
        hlomem::detail::interval_union u(coordinates);
        std::vector<int> present(n, 0);
        for (int step = 0; step < 60; ++step) {
            std::size_t const k = static_cast<std::size_t>(next(static_cast<std::uint32_t>(n)));
            int const delta = present[k] > 0 && next(2) == 0 ? -1 : +1;
            present[k] += delta;
            if (step % 2 == 0) {
                u.update(intervals[k].first, intervals[k].second, delta);
            } else {
                u.update_positions(u.position(intervals[k].first), u.position(intervals[k].second), delta);
            }
            std::int64_t expected = 0;
            for (std::int64_t byte = 0; byte < 48; ++byte) {
                bool covered = false;
                for (std::size_t j = 0; j < n; ++j) {
                    covered = covered || (present[j] > 0 && intervals[j].first <= byte && byte < intervals[j].second);
                }
                expected += covered ? 1 : 0;
            }
            INFO("seed " << seed << ", step " << step);
            REQUIRE(u.covered() == expected);
        }
    }
    hlomem::detail::interval_union empty({});
    empty.update(3, 5, +1);
    CHECK(empty.covered() == 0);
}
