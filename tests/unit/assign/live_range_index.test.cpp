// The live-range index of the buffer assigner (assign/live_range_index.hpp) against the pairwise
// scan of MaybeAssignBuffer.
#include <hlomem/assign/live_range_index.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <utility>
#include <vector>

TEST_CASE("assign: the live-range index answers as the pairwise scan of MaybeAssignBuffer", "[assign]") {
    // Whether some held range overlaps [s, e] by more than a shared end point, against every held
    // range compared one by one, after each of 600 insertions of ranges of random lengths (runs
    // of every power-of-two length get merged on the way).
    std::uint64_t state = 0x9e3779b97f4a7c15u;
    auto next = [&](std::int64_t bound) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return static_cast<std::int64_t>(state % static_cast<std::uint64_t>(bound));
    };
    hlomem::detail::live_range_index index;
    std::vector<std::pair<std::int64_t, std::int64_t>> held;
    std::size_t checked = 0, overlapping = 0;
    for (int k = 0; k < 600; ++k) {
        std::int64_t const start = next(400);
        std::int64_t const end = start + (next(4) == 0 ? 0 : next(30));
        index.insert(start, end);
        held.emplace_back(start, end);
        for (int q = 0; q < 8; ++q) {
            std::int64_t const s = next(420);
            std::int64_t const e = s + next(6);
            bool expected = false;
            for (auto const& [hs, he] : held) expected = expected || (hs < e && he > s);
            CHECK(index.overlaps_inside(s, e) == expected);
            ++checked;
            overlapping += expected ? 1 : 0;
        }
    }
    CHECK(checked == 4800);
    CHECK(overlapping > 1000);  // both answers occur
    CHECK(overlapping < 4700);
}
