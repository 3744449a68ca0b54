// The element and byte counts of tiled layouts, written over plain sequences (core/tiling.hpp).
// Figures are docs/FORMATS.md 4.5's rows (bytes / 4 for f32), each row named.
#include <hlomem/core/tiling.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

namespace d = hlomem::detail;
using hlomem::primitive_type;

namespace {

constexpr std::int64_t star = std::numeric_limits<std::int64_t>::min();  // `*`, also `?` as an extent

struct split {
    std::int64_t dimension;
    std::vector<std::int64_t> split_indices;
};

/// tiled_element_count with the whole extents as the split extents.
d::size_result tiled(std::vector<std::int64_t> const& dims, std::vector<std::int64_t> const& m2m,
                     std::vector<std::int64_t> const& tile, std::int64_t tail = 1) {
    return d::tiled_element_count(m2m, tile, tail, [&](std::size_t i) { return dims[i]; });
}

}  // namespace

TEST_CASE("core/tiling: tiled element counts of the reference rows", "[tiling]") {
    CHECK(tiled({3, 5}, {1, 0}, {2, 2}).value == 96 / 4);                            // row 1
    CHECK(tiled({2, 7, 8, 11, 10}, {4, 3, 2, 1, 0}, {star, star, 2, star, 3}).value == 49728 / 4);  // row 4
    CHECK(tiled({123, 456, 789}, {0, 1, 2}, {2, star, 128}).value == 177566720 / 4);  // row 5
    CHECK(tiled({123, 456}, {0, 1}, {2, 128}).value == 233472 / 4);                   // row 7
    CHECK(tiled({100}, {0}, {8, 128}).value == 4096 / 4);                             // row 20: tile rank above array rank
    CHECK(tiled({2, 3, 5}, {2, 1, 0}, {8, 128}).value == 8192 / 4);                   // row 22: major dimension kept
    CHECK(tiled({3, 5}, {1, 0}, {2, 2}, 32).value == 128 / 4);                        // row 25: L(32)
    CHECK(tiled({0, 64, 128}, {2, 1, 0}, {8, 128}).value == 0);
    // Rows 10 and 31: the largest split piece is tiled, not the whole extent.
    std::vector<std::int64_t> const dims{1000, 300}, m2m{1, 0};
    std::vector<split> const splits{{1, {200}}};
    auto const r = d::tiled_element_count(m2m, std::vector<std::int64_t>{8, 128}, 1,
                                          [&](std::size_t i) { return d::max_split_extent(dims, m2m, splits, i); });
    CHECK(r.value == 1024000 / 4);
    STATIC_REQUIRE(d::tiled_element_count(std::array<int, 2>{1, 0}, std::array<int, 2>{2, 2}, 1,
                                          [](std::size_t i) { return i == 0 ? std::int64_t{3} : std::int64_t{5}; })
                       .value == 24);
}

TEST_CASE("core/tiling: the largest piece of a split dimension (LayoutUtil::MaxSplitSize)", "[tiling]") {
    std::vector<std::int64_t> const dims{123, 456}, m2m{1, 0};
    // SC(1:50,200): physical 1 is logical 1; pieces 50, 150, 256.
    CHECK(d::max_split_extent(dims, m2m, std::vector<split>{{1, {50, 200}}}, 1) == 256);
    CHECK(d::max_split_extent(dims, m2m, std::vector<split>{{1, {50, 200}}}, 0) == 123);
    // SC(0:100): physical 0 is logical 0 with m2m {1,0}, logical 1 with {0,1}.
    CHECK(d::max_split_extent(dims, m2m, std::vector<split>{{0, {100}}}, 0) == 100);
    CHECK(d::max_split_extent(dims, std::vector<std::int64_t>{0, 1}, std::vector<split>{{0, {100}}}, 1) == 356);
    // A split of a physical dimension the array does not have is ignored.
    CHECK(d::max_split_extent(dims, m2m, std::vector<split>{{2, {10}}}, 0) == 123);
}

TEST_CASE("core/tiling: element and byte counts, packed and widened elements, overflow and `?`", "[tiling]") {
    CHECK(d::element_count(std::vector<std::int64_t>{3, 5}).value == 15);
    CHECK(d::element_count(std::vector<std::int64_t>{}).value == 1);
    CHECK(d::element_count(std::vector<std::int64_t>{star, 784}).status == d::size_status::unbounded);
    CHECK(d::element_count(std::vector<std::int64_t>{std::int64_t{1} << 62, 4}).status == d::size_status::overflow);

    CHECK(d::bytes_of_elements(15, primitive_type::f32, 0).value == 60);
    CHECK(d::bytes_of_elements(9, primitive_type::s4, 4).value == 5);      // ceil(36 / 8)
    CHECK(d::bytes_of_elements(3, primitive_type::pred, 32).value == 12);  // E(32) widens pred
    // s8[2^61] with E(8): 2^61 bytes, though 2^61 * 8 bits do not fit in int64.
    CHECK(d::bytes_of_elements(std::int64_t{1} << 61, primitive_type::s8, 8).value == std::int64_t{1} << 61);
    CHECK(d::bytes_of_elements(std::int64_t{1} << 62, primitive_type::f32, 0).status == d::size_status::overflow);
    CHECK(tiled({std::int64_t{1} << 62, 4}, {1, 0}, {1, 1}).status == d::size_status::overflow);

    CHECK(d::unpadded_element_bits(primitive_type::s4, 4) == 4);
    CHECK(d::unpadded_element_bits(primitive_type::pred, 32) == 8);
    CHECK(d::unpadded_element_bits(primitive_type::bf16, 0) == 16);
    CHECK(d::unpadded_element_bits(primitive_type::s8, 8) == 8);
}
