// hlomem/assign/compare.hpp: how far a predicted buffer assignment (assign_buffers) agrees with
// the one XLA dumped for the same module.
//
//   auto a = hlomem::compare_assignments(predicted, actual);
//   a.allocations_same_index == a.actual_allocations   // every allocation: size, kind, color
//   a.values_same_place == a.values_compared            // every value: allocation and offset
//
// Values are matched by instruction name and shape index (value ids are numbered by the
// analyses and need not agree). An allocation of the prediction corresponds to the actual
// allocation that holds its first value; a value is in the same place when its predicted
// allocation corresponds to its actual one and the offsets are equal.
#ifndef HLOMEM_ASSIGN_COMPARE_HPP
#define HLOMEM_ASSIGN_COMPARE_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <hlomem/dump/buffer_assignment.hpp>

namespace hlomem {

struct assignment_agreement {
    std::size_t predicted_allocations = 0;
    std::size_t actual_allocations = 0;
    /// Allocations at the same index with the same size, kind and color.
    std::size_t allocations_same_index = 0;
    /// The allocations agree as a multiset of (size, kind, color), whatever their order.
    bool allocations_same_multiset = false;
    std::int64_t predicted_total = 0;  ///< Σ allocation sizes: `Total bytes used`
    std::int64_t actual_total = 0;
    std::int64_t predicted_temp = 0;   ///< Σ preallocated-temp allocation sizes: the temp arenas
    std::int64_t actual_temp = 0;
    std::size_t values_compared = 0;   ///< values of the actual dump found in the prediction
    std::size_t values_missing = 0;    ///< values of the actual dump the prediction lacks
    std::size_t values_extra = 0;      ///< values of the prediction the dump lacks
    std::size_t values_same_place = 0; ///< same (corresponding) allocation and offset
    std::size_t values_same_index = 0; ///< same allocation index and offset

    /// Everything the issue asks to agree: allocations (in order), totals, temp arenas, values.
    bool exact() const noexcept {
        return predicted_allocations == actual_allocations && allocations_same_index == actual_allocations &&
               predicted_total == actual_total && predicted_temp == actual_temp && values_missing == 0 && values_extra == 0 &&
               values_same_index == values_compared;
    }
    /// The same, but allocations in any order (values compared by corresponding allocation).
    bool same_up_to_order() const noexcept {
        return allocations_same_multiset && predicted_total == actual_total && predicted_temp == actual_temp &&
               values_missing == 0 && values_extra == 0 && values_same_place == values_compared;
    }
};

template <class P, class Q>
assignment_agreement compare_assignments(basic_buffer_assignment<P> const& predicted, basic_buffer_assignment<Q> const& actual) {
    assignment_agreement r;
    r.predicted_allocations = predicted.allocations.size();
    r.actual_allocations = actual.allocations.size();
    auto key = [](auto const& a) { return std::make_tuple(a.size, static_cast<int>(a.kind()), a.color); };
    std::vector<std::tuple<std::int64_t, int, std::int64_t>> pk, ak;
    for (auto const& a : predicted.allocations) {
        pk.push_back(key(a));
        r.predicted_total += a.size;
        if (a.kind() == allocation_kind::temp) r.predicted_temp += a.size;
    }
    for (auto const& a : actual.allocations) {
        ak.push_back(key(a));
        r.actual_total += a.size;
        if (a.kind() == allocation_kind::temp) r.actual_temp += a.size;
    }
    for (std::size_t i = 0; i < std::min(pk.size(), ak.size()); ++i) r.allocations_same_index += pk[i] == ak[i];
    std::sort(pk.begin(), pk.end());
    std::sort(ak.begin(), ak.end());
    r.allocations_same_multiset = pk == ak;

    using name_key = std::pair<std::string, std::string>;
    auto name_of = [](auto const& v) { return name_key(std::string(std::string_view(v.name)), to_string(v.index)); };
    std::map<name_key, std::size_t> predicted_by_name;
    for (std::size_t i = 0; i < predicted.values.size(); ++i) predicted_by_name.emplace(name_of(predicted.values[i]), i);
    std::map<name_key, std::size_t> actual_by_name;
    for (std::size_t i = 0; i < actual.values.size(); ++i) actual_by_name.emplace(name_of(actual.values[i]), i);
    // Predicted allocation -> the actual allocation of its first value.
    std::vector<std::size_t> corresponds(predicted.allocations.size(), npos);
    for (std::size_t ai = 0; ai < predicted.allocations.size(); ++ai) {
        for (std::size_t v : predicted.allocations[ai].values) {
            auto it = actual_by_name.find(name_of(predicted.values[v]));
            if (it == actual_by_name.end()) continue;
            corresponds[ai] = actual.values[it->second].allocation;
            break;
        }
    }
    for (auto const& v : actual.values) {
        if (v.allocation == npos) continue;
        auto it = predicted_by_name.find(name_of(v));
        if (it == predicted_by_name.end()) {
            ++r.values_missing;
            continue;
        }
        ++r.values_compared;
        auto const& p = predicted.values[it->second];
        if (p.allocation == npos || p.offset != v.offset) continue;
        r.values_same_place += corresponds[p.allocation] == v.allocation;
        r.values_same_index += p.allocation == v.allocation;
    }
    for (auto const& v : predicted.values) {
        if (v.allocation != npos && !actual_by_name.count(name_of(v))) ++r.values_extra;
    }
    return r;
}

}  // namespace hlomem

#endif  // HLOMEM_ASSIGN_COMPARE_HPP
