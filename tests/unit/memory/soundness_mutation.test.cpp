// Mutation testing of the soundness check (soundness.hpp) on every real dump: random changes to
// a dump's placement that make two values live at the same time share bytes, or make a value
// run past its allocation, are all reported, naming the values involved; random changes that
// keep the placement sound are never reported. The dumps themselves are sound (interference
// tests), so every finding below comes from the mutation.
#include <hlomem/hlomem.hpp>

#include <catch2/catch.hpp>

#include "test_data.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using buffer_assignment = hlomem::buffer_assignment;

/// Values the check judges: assigned to a non-thread-local allocation, with a live range.
std::vector<std::size_t> ranged_values(buffer_assignment const& ba) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < ba.values.size(); ++i) {
        auto const& v = ba.values[i];
        if (v.live_range && v.allocation != hlomem::npos && !ba.allocations[v.allocation].is_thread_local && v.size > 0) {
            out.push_back(i);
        }
    }
    return out;
}

/// Moves value `y` into allocation `to` (keeping each allocation's list sorted by value index).
void move_to_allocation(buffer_assignment& ba, std::size_t y, std::size_t to) {
    auto& from_list = ba.allocations[ba.values[y].allocation].values;
    from_list.erase(std::find(from_list.begin(), from_list.end(), y));
    auto& to_list = ba.allocations[to].values;
    to_list.insert(std::upper_bound(to_list.begin(), to_list.end(), y), y);
    ba.values[y].allocation = to;
}

bool names(hlomem::diagnostic const& f, std::size_t a, std::size_t b) {
    return (f.first == a && f.second == b) || (f.first == b && f.second == a);
}

std::int64_t uniform(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {  // [lo, hi]
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
}

}  // namespace

TEST_CASE("random mutations that break a placement are all reported; ones that keep it sound never are",
          "[soundness][mutation]") {
    std::mt19937_64 rng(20261121);
    std::size_t overlaps_made = 0, overruns_made = 0, sound_made = 0;
    for (auto const& file : hlomem_test::real_dumps) {
        CAPTURE(file);
        auto const original = hlomem::parse_buffer_assignment(hlomem_test::read_data(file), file);
        REQUIRE(hlomem::check_soundness(original).empty());
        auto const ranged = ranged_values(original);
        if (ranged.size() < 2) continue;
        // Pairs of values live at the same time in one color: the candidates for an overlap.
        std::vector<std::pair<std::size_t, std::size_t>> live_together;
        for (std::size_t x : ranged) {
            for (std::size_t y : ranged) {
                auto const& vx = original.values[x];
                auto const& vy = original.values[y];
                if (x != y && vx.live_range->overlaps(*vy.live_range) &&
                    original.allocations[vx.allocation].color == original.allocations[vy.allocation].color &&
                    vy.size <= original.allocations[vx.allocation].size) {
                    live_together.emplace_back(x, y);
                }
            }
        }

        for (int round = 0; round < 100; ++round) {
            CAPTURE(round);
            // 1. Overlap: put y somewhere in x's allocation where it shares bytes with x, at a
            //    different offset (an identical slice can be XLA's own in-place sharing).
            if (!live_together.empty()) {
                // Plain variables, not a structured binding: Clang 14 cannot capture those in a lambda.
                auto const& pair = live_together[static_cast<std::size_t>(uniform(rng, 0, static_cast<std::int64_t>(live_together.size()) - 1))];
                auto const x = pair.first;
                auto const y = pair.second;
                auto ba = original;
                auto const& vx = ba.values[x];
                std::int64_t const alloc_size = ba.allocations[vx.allocation].size;
                std::int64_t const ysize = ba.values[y].size;
                std::int64_t const lo = std::max<std::int64_t>(0, vx.offset - ysize + 1);
                std::int64_t const hi = std::min(alloc_size - ysize, vx.offset + vx.size - 1);
                if (lo <= hi) {
                    std::int64_t offset = uniform(rng, lo, hi);
                    if (offset == vx.offset) offset = offset > lo ? offset - 1 : offset + 1;
                    if (offset >= lo && offset <= hi) {
                        if (ba.values[y].allocation != vx.allocation) move_to_allocation(ba, y, vx.allocation);
                        ba.values[y].offset = offset;
                        auto const found = hlomem::check_soundness(ba);
                        CAPTURE(ba.values[x].id, ba.values[y].id, offset);
                        CHECK(std::any_of(found.begin(), found.end(), [&](auto const& f) {
                            return f.kind == hlomem::diagnostic_kind::overlap && names(f, x, y);
                        }));
                        for (auto const& f : found) CHECK((f.first == y || f.second == y));
                        ++overlaps_made;
                    }
                }
            }
            // 2. Overrun: push a value past the end of its allocation by 1 to size bytes.
            {
                std::size_t const y = ranged[static_cast<std::size_t>(uniform(rng, 0, static_cast<std::int64_t>(ranged.size()) - 1))];
                auto ba = original;
                auto& vy = ba.values[y];
                vy.offset = ba.allocations[vy.allocation].size - vy.size + uniform(rng, 1, vy.size);
                auto const found = hlomem::check_soundness(ba);
                CAPTURE(vy.id, vy.offset);
                CHECK(std::any_of(found.begin(), found.end(), [&](auto const& f) {
                    return f.kind == hlomem::diagnostic_kind::overrun && f.first == y;
                }));
                ++overruns_made;
            }
            // 3. Sound: grow an allocation; give a value an allocation of its own; or move a value
            //    to a gap of its allocation that no value live at the same time touches.
            {
                auto ba = original;
                std::size_t const y = ranged[static_cast<std::size_t>(uniform(rng, 0, static_cast<std::int64_t>(ranged.size()) - 1))];
                auto& vy = ba.values[y];
                switch (round % 3) {
                    case 0:
                        ba.allocations[vy.allocation].size += uniform(rng, 1, 1 << 20);
                        break;
                    case 1: {
                        auto a = ba.allocations[vy.allocation];
                        a.index = static_cast<std::int64_t>(ba.allocations.size());
                        a.size = vy.size;
                        a.values.clear();
                        ba.allocations.push_back(a);
                        move_to_allocation(ba, y, ba.allocations.size() - 1);
                        vy.offset = 0;
                        break;
                    }
                    default: {
                        auto const& a = ba.allocations[vy.allocation];
                        std::vector<std::pair<std::int64_t, std::int64_t>> taken;  // [begin, end) of values live with y
                        for (std::size_t z : a.values) {
                            auto const& vz = ba.values[z];
                            if (z != y && (!vz.live_range || vz.live_range->overlaps(*vy.live_range))) {
                                taken.emplace_back(vz.offset, vz.offset + vz.size);
                            }
                        }
                        std::sort(taken.begin(), taken.end());
                        std::vector<std::int64_t> gaps;  // offsets where y fits
                        std::int64_t at = 0;
                        for (auto const& [b, e] : taken) {
                            if (b - at >= vy.size) gaps.push_back(at);
                            at = std::max(at, e);
                        }
                        if (a.size - at >= vy.size) gaps.push_back(at);
                        if (gaps.empty()) continue;
                        vy.offset = gaps[static_cast<std::size_t>(uniform(rng, 0, static_cast<std::int64_t>(gaps.size()) - 1))];
                        break;
                    }
                }
                auto const found = hlomem::check_soundness(ba);
                CAPTURE(vy.id, round % 3);
                CHECK(found.empty());
                ++sound_made;
            }
        }
    }
    // Enough of each kind to mean something over the 20 dumps (19 have two values or more).
    WARN(overlaps_made << " overlaps, " << overruns_made << " overruns, " << sound_made << " sound moves");
    CHECK(overlaps_made >= 1200);
    CHECK(overruns_made >= 1600);
    CHECK(sound_made >= 1200);
}
