// problem_helpers.hpp: allocation problems written by hand for the placement tests, and the offsets
// a placement gave. Include-guarded and inline: the test files are compiled ten to a unit.
#ifndef HLOMEM_TESTS_PLACEMENT_PROBLEM_HELPERS_HPP
#define HLOMEM_TESTS_PLACEMENT_PROBLEM_HELPERS_HPP

#include <hlomem/placement/problem.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hlomem_test {

/// A buffer `id` live over [lower, upper), of `size` bytes, placed on a multiple of `alignment`.
inline hlomem::problem_buffer buffer(std::string id, std::int64_t lower, std::int64_t upper, std::int64_t size,
                                     std::int64_t alignment = 1) {
    return {std::move(id), {lower, upper}, size, alignment, std::nullopt, {}};
}

//   time    0   1   2   3   4
//   a       [=======)                 a: [0, 2), 4 bytes
//   b           [===========)         b: [1, 4), 2 bytes
//   c                   [=======)     c: [3, 5), 4 bytes
inline hlomem::allocation_problem three_buffers() {
    return {{buffer("a", 0, 2, 4), buffer("b", 1, 4, 2), buffer("c", 3, 5, 4)}};
}

/// MiniMalloc's README example, with its published solution for capacity 12.
inline constexpr char const* readme_example = "id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n";

/// Each buffer's offset, -1 where it has none.
inline std::vector<std::int64_t> offsets_of(hlomem::allocation_problem const& p) {
    std::vector<std::int64_t> out;
    for (auto const& b : p.buffers) out.push_back(b.offset.value_or(-1));
    return out;
}

}  // namespace hlomem_test

#endif  // HLOMEM_TESTS_PLACEMENT_PROBLEM_HELPERS_HPP
