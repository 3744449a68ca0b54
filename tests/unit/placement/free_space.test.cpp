// Where one more buffer goes among those placed (placement/free_space.hpp): the lowest fit and
// the two best-fit measures of a gap.
#include <hlomem/placement/free_space.hpp>

#include <catch2/catch.hpp>

#include <vector>

TEST_CASE("where one more buffer goes: lowest fit and the two best-fit measures", "[allocation]") {
    using hlomem::detail::gap_measure;
    std::vector<hlomem::detail::byte_range> const used = {{0, 100}, {100, 160}, {300, 400}, {450, 470}};
    CHECK(hlomem::detail::lowest_fit(used, 40, 1) == 160);
    CHECK(hlomem::detail::best_fit(used, 40, 1, gap_measure::from_aligned_start) == 400);  // the 50-byte gap
    CHECK(hlomem::detail::best_fit(used, 60, 1, gap_measure::from_aligned_start) == 160);
    CHECK(hlomem::detail::best_fit(used, 200, 1, gap_measure::from_aligned_start) == 470);  // only the top
    CHECK(hlomem::detail::lowest_fit(used, 40, 64) == 192);
    // Gaps [96, 190) and [256, 340), 40 bytes aligned to 64: XLA measures from the aligned start
    // (62 against 84 bytes) and takes the first; TensorFlow Lite from the raw end below (94
    // against 84) and takes the second.
    std::vector<hlomem::detail::byte_range> const two = {{0, 96}, {190, 256}, {340, 400}};
    CHECK(hlomem::detail::best_fit(two, 40, 64, gap_measure::from_aligned_start) == 128);
    CHECK(hlomem::detail::best_fit(two, 40, 64, gap_measure::from_raw_start) == 256);
}
