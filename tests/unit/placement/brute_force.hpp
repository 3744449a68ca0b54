// tests/unit/placement/brute_force.hpp: the answers an allocation algorithm is checked against on
// small generated problems, found by trying every aligned offset of every buffer.
#ifndef HLOMEM_TESTS_PLACEMENT_BRUTE_FORCE_HPP
#define HLOMEM_TESTS_PLACEMENT_BRUTE_FORCE_HPP

#include <hlomem/placement/problem.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hlomem_test {

/// Whether `p` fits `capacity`, by trying every aligned offset of every buffer (small problems
/// only). Two buffers meet where any of their spans do: a sharing group's segments (problem.hpp),
/// or the lifespan.
inline bool fits_by_brute_force(hlomem::allocation_problem const& p, std::int64_t capacity) {
    std::size_t const n = p.buffers.size();
    std::vector<std::vector<hlomem::lifespan>> spans(n);
    for (std::size_t i = 0; i < n; ++i) spans[i] = hlomem::detail::live_spans(p, i);
    auto meet = [&](std::size_t i, std::size_t j) {
        for (auto const& a : spans[i]) {
            for (auto const& b : spans[j]) {
                if (a.overlaps(b)) return true;
            }
        }
        return false;
    };
    std::vector<std::int64_t> at(n, 0);
    auto clashes = [&](std::size_t i) {
        auto const& a = p.buffers[i];
        for (std::size_t j = 0; j < i; ++j) {
            auto const& b = p.buffers[j];
            if (at[i] < at[j] + b.size && at[j] < at[i] + a.size && meet(i, j)) return true;
        }
        return false;
    };
    auto place = [&](auto&& self, std::size_t i) -> bool {
        if (i == n) return true;
        auto const& b = p.buffers[i];
        for (at[i] = 0; at[i] + b.size <= capacity; at[i] += b.alignment) {
            if (!clashes(i) && self(self, i + 1)) return true;
        }
        return false;
    };
    return place(place, 0);
}

/// The smallest arena `p` fits, by brute force from `from` (a capacity known not to be above it) up.
inline std::int64_t smallest_arena_by_brute_force(hlomem::allocation_problem const& p, std::int64_t from = 0) {
    std::int64_t c = from;
    while (!fits_by_brute_force(p, c)) ++c;
    return c;
}

}  // namespace hlomem_test

#endif  // HLOMEM_TESTS_PLACEMENT_BRUTE_FORCE_HPP
