// The heaviest moment of weighted intervals (memory/interval_sweep.hpp, max_weight_moment)
// against a brute-force sum at every time, on random live ranges.
#include <hlomem/memory/interval_sweep.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace {

/// max_weight_moment against the largest sum of weights covering one of `times` (ascending),
/// the earliest of equal sums; and with a second weight for each interval (1-1000, in another
/// order than the first), the same moment and the largest sum of the second, wherever it is.
void check_heaviest_moment(std::vector<hlomem::live_interval> const& ranges, std::vector<std::int64_t> const& weights,
                           std::vector<hlomem::logical_time> const& times) {
    std::vector<std::int64_t> others;
    for (std::int64_t w : weights) others.push_back(w * 7919 % 1000 + 1);
    std::int64_t best = 0, best_other = 0;
    hlomem::logical_time when = 0;
    for (hlomem::logical_time t : times) {
        std::int64_t sum = 0, other = 0;
        for (std::size_t i = 0; i < ranges.size(); ++i) {
            sum += ranges[i].contains(t) ? weights[i] : 0;
            other += ranges[i].contains(t) ? others[i] : 0;
        }
        if (sum > best) {
            best = sum;
            when = t;
        }
        best_other = std::max(best_other, other);
    }
    auto const range_of = [&](std::size_t i) { return ranges[i]; };
    auto const m = hlomem::max_weight_moment(ranges.size(), range_of, [&](std::size_t i) { return weights[i]; });
    CHECK(m.weight == best);
    CHECK(m.time == when);
    std::int64_t other_max = -1;
    auto const both = hlomem::max_weight_moment(
        ranges.size(), range_of, [&](std::size_t i) { return weights[i]; }, [&](std::size_t i) { return others[i]; },
        other_max);
    CHECK(both.weight == best);
    CHECK(both.time == when);
    CHECK(both.items == m.items);
    CHECK(other_max == best_other);
}

/// Between `fewest` and `most` intervals starting in [-spread, spread], each up to `longest` long,
/// weighing 1-1000, against the largest sum at any interval's start (where, with positive
/// weights, it is).
void check_wide_span(std::mt19937& rng, int fewest, int most, std::int64_t spread, std::int64_t longest) {
    int const n = std::uniform_int_distribution<int>(fewest, most)(rng);
    std::vector<hlomem::live_interval> ranges;
    std::vector<std::int64_t> weights;
    for (int i = 0; i < n; ++i) {
        std::int64_t const a = std::uniform_int_distribution<std::int64_t>(-spread, spread)(rng);
        ranges.push_back({a, a + std::uniform_int_distribution<std::int64_t>(0, longest)(rng)});
        weights.push_back(std::uniform_int_distribution<int>(1, 1000)(rng));
    }
    std::vector<hlomem::logical_time> starts;
    for (auto const& r : ranges) starts.push_back(r.start);
    std::sort(starts.begin(), starts.end());
    check_heaviest_moment(ranges, weights, starts);
}

}  // namespace

TEST_CASE("the heaviest moment equals the largest live sum", "[graph][random]") {
    std::mt19937 rng(11);
    for (int round = 0; round < 30; ++round) {
        int const n = std::uniform_int_distribution<int>(1, 80)(rng);
        std::vector<hlomem::live_interval> ranges;
        std::vector<std::int64_t> weights;
        for (int i = 0; i < n; ++i) {
            int const a = std::uniform_int_distribution<int>(0, 40)(rng);
            ranges.push_back({a, a + std::uniform_int_distribution<int>(0, 10)(rng)});
            weights.push_back(std::uniform_int_distribution<int>(1, 1000)(rng));
        }
        std::vector<hlomem::logical_time> times;
        for (hlomem::logical_time t = 0; t <= 50; ++t) times.push_back(t);
        check_heaviest_moment(ranges, weights, times);
    }
}

TEST_CASE("the heaviest moment over a wide span of times", "[graph][random]") {
    // Times spread far beyond the number of intervals (summed by a sorted sweep, not in buckets),
    // against the largest sum at any interval's start (where, with positive weights, it is).
    std::mt19937 rng(12);
    for (int round = 0; round < 30; ++round) check_wide_span(rng, 1, 60, 1000000, 300000);
}

namespace {

using index_pairs = std::vector<std::pair<std::size_t, std::size_t>>;

/// The pairs for_each_overlapping_pair visits, in the order it visits them.
index_pairs sweep_pairs(std::vector<hlomem::live_interval> const& ranges) {
    index_pairs out;
    hlomem::for_each_overlapping_pair(
        ranges.size(), [&](std::size_t i) { return ranges[i]; }, [&](std::size_t i, std::size_t j) { out.emplace_back(i, j); });
    return out;
}

}  // namespace

TEST_CASE("memory/interval_sweep: the header's intervals, ends inclusive as XLA's live ranges, and no items",
          "[interval_sweep]") {
    // The header's picture: a [0, 2], b [1, 4], c [3, 5] overlap as (a, b) and (b, c).
    std::vector<hlomem::live_interval> const abc{{0, 2}, {1, 4}, {3, 5}};
    CHECK(sweep_pairs(abc) == index_pairs{{0, 1}, {1, 2}});
    // HloLiveRange's ranges are inclusive (hlo_live_range.h, TimeBound): [2, 4] and [0, 2] meet at
    // 2; the item that starts first is visited first, on the two-item path as on the sweep.
    CHECK(sweep_pairs({{2, 4}, {0, 2}}) == index_pairs{{1, 0}});
    CHECK(sweep_pairs({{2, 4}, {0, 2}, {9, 9}}) == index_pairs{{1, 0}});
    CHECK(sweep_pairs({{0, 1}, {2, 4}}).empty());
    CHECK(sweep_pairs({{5, 5}, {5, 9}, {5, 6}}) == index_pairs{{0, 1}, {0, 2}, {1, 2}});
    CHECK(sweep_pairs({{3, 8}}).empty());
    CHECK(sweep_pairs({}).empty());

    // Weights 10, 20, 30 over abc: 10 at 0, 30 at 1-2, 50 at 3-4 (b and c), 30 at 5.
    std::vector<std::int64_t> const w{10, 20, 30};
    auto const m = hlomem::max_weight_moment(
        abc.size(), [&](std::size_t i) { return abc[i]; }, [&](std::size_t i) { return w[i]; });
    CHECK(m.time == 3);
    CHECK(m.weight == 50);
    CHECK(m.items == std::vector<std::size_t>{1, 2});
    // A second weight, 100, 1, 1: its largest sum is 101 at 1-2 (a and b), not at the first
    // weight's moment, where it is 2; the moment stays the first weight's.
    std::vector<std::int64_t> const second{100, 1, 1};
    std::int64_t second_max = 0;
    auto const with_second = hlomem::max_weight_moment(
        abc.size(), [&](std::size_t i) { return abc[i]; }, [&](std::size_t i) { return w[i]; },
        [&](std::size_t i) { return second[i]; }, second_max);
    CHECK(with_second.time == 3);
    CHECK(with_second.weight == 50);
    CHECK(second_max == 101);
    // Times far apart (the sorted sweep rather than the difference array): 5 at time 0 beats 2 at
    // 1500000, where the other two meet.
    std::vector<hlomem::live_interval> const wide{{0, 0}, {1000000, 2000000}, {1500000, 1500000}};
    std::vector<std::int64_t> const w2{5, 1, 1};
    auto const far = hlomem::max_weight_moment(
        wide.size(), [&](std::size_t i) { return wide[i]; }, [&](std::size_t i) { return w2[i]; });
    CHECK(far.time == 0);
    CHECK(far.weight == 5);
    CHECK(far.items == std::vector<std::size_t>{0});
    auto const none = hlomem::max_weight_moment(
        0, [&](std::size_t i) { return abc[i]; }, [&](std::size_t i) { return w[i]; });
    CHECK(none.weight == 0);
    CHECK(none.items.empty());
}

TEST_CASE("memory/interval_sweep: hundreds of intervals over a wide span, times below 0", "[interval_sweep]") {
    // Enough intervals for the radix sort of the endpoints (detail/radix_sort.hpp) and times too
    // far apart for the difference array, some before 0; against the brute-force sum at every
    // interval's start.
    std::mt19937 rng(13);
    for (int round = 0; round < 4; ++round) check_wide_span(rng, 300, 900, 5000000, 2000000);
    // Every overlapping pair once, on a list long enough for the radix sort of the starts.
    std::vector<hlomem::live_interval> many;
    for (int i = 0; i < 400; ++i) {
        std::int64_t const a = std::uniform_int_distribution<std::int64_t>(-3000000, 3000000)(rng);
        many.push_back({a, a + std::uniform_int_distribution<std::int64_t>(0, 40000)(rng)});
    }
    index_pairs expected;
    for (std::size_t i = 0; i < many.size(); ++i) {
        for (std::size_t j = 0; j < many.size(); ++j) {
            bool const first = many[i].start < many[j].start || (many[i].start == many[j].start && i < j);
            if (first && many[i].end >= many[j].start) expected.emplace_back(i, j);
        }
    }
    auto got = sweep_pairs(many);
    std::sort(got.begin(), got.end());
    std::sort(expected.begin(), expected.end());
    CHECK(got == expected);
}
