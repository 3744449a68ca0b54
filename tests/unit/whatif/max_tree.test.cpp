// The segment tree of a what-if's curves (whatif/max_tree.hpp): range adds, the maximum and its
// first slot, against a plain scan.
#include <hlomem/whatif/max_tree.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

TEST_CASE("whatif: the max tree adds to ranges and finds the first maximum as a scan does", "[whatif]") {
    std::mt19937 rng(31);
    std::vector<std::int64_t> plain(37, 0);
    hlomem::max_tree t(plain);
    for (int step = 0; step < 400; ++step) {
        std::size_t a = rng() % plain.size(), b = rng() % plain.size();
        if (a > b) std::swap(a, b);
        std::int64_t const delta = static_cast<std::int64_t>(rng() % 200) - 90;
        t.add(a, b, delta);
        for (std::size_t i = a; i <= b; ++i) plain[i] += delta;
        std::size_t const first = static_cast<std::size_t>(std::max_element(plain.begin(), plain.end()) - plain.begin());
        REQUIRE(t.max() == plain[first]);
        REQUIRE(t.first_max() == first);
        REQUIRE(t.at(a) == plain[a]);
    }
    CHECK(t.leaves() == plain);
}
