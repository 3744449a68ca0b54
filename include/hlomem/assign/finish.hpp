// hlomem/assign/finish.hpp: the buffer assignment once the heaps are placed — XLA's allocations in
// their order of creation, CombineTempAllocations (the temps of each color concatenated into one
// allocation, in the order its unstable std::partition leaves them), `Total bytes used` stated.
#ifndef HLOMEM_ASSIGN_FINISH_HPP
#define HLOMEM_ASSIGN_FINISH_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <hlomem/assign/problem.hpp>
#include <hlomem/core/human_bytes.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/placement/problem.hpp>

namespace hlomem {

namespace detail {

template <class P>
basic_buffer_assignment<P> finish_assignment(basic_assignment_problem<P> const& p, basic_buffer_assignment<P> ba) {
    for (std::size_t v = 0; v < ba.values.size(); ++v) {
        ba.values[v].size = p.value_sizes[v];
        ba.values[v].allocation = npos;
        ba.values[v].offset = 0;
    }
    struct pending {
        basic_allocation<P> allocation;
        bool temp = false;
        std::vector<std::pair<std::size_t, std::int64_t>> placed;  // value, offset
    };
    std::vector<pending> order;
    ba.allocations.clear();
    auto header = [&](assigned_allocation const& a) {
        pending x;
        x.allocation.size = a.size;
        x.allocation.color = a.color;
        if (a.parameter_number) {
            x.allocation.parameter_number = a.parameter_number;
            for (std::int64_t k : a.parameter_index) x.allocation.parameter_shape_index.push_back(static_cast<decltype(k)>(k));
            x.allocation.parameter_shape = ba.shapes.insert(detail::without_layouts(ba.shapes[ba.values[a.parameter_value].shape]));
        }
        x.allocation.is_constant = a.is_constant;
        x.allocation.is_thread_local = a.is_thread_local;
        x.allocation.maybe_live_out = a.maybe_live_out;
        x.temp = !a.parameter_number && !a.is_constant && !a.is_thread_local && !a.maybe_live_out;
        for (std::size_t v : a.values) x.placed.push_back({v, 0});
        return x;
    };
    for (auto const& a : p.allocations) {
        if (a.pass == 0) order.push_back(header(a));
    }
    for (auto const& h : p.heaps) {
        pending x;
        x.allocation.color = h.color;
        x.temp = true;
        for (std::size_t g = 0; g < h.groups.size(); ++g) {
            auto const& b = h.problem.buffers[g];
            if (!b.offset) throw allocation_error("hlomem: heap buffer " + b.id + " of color " + std::to_string(h.color) + " has no offset");
            x.allocation.size = std::max(x.allocation.size, *b.offset + b.size);
            for (std::size_t v : h.groups[g]) x.placed.push_back({v, *b.offset});
        }
        order.push_back(std::move(x));
    }
    for (auto const& a : p.allocations) {
        if (a.pass != 0) order.push_back(header(a));
    }
    // CombineTempAllocations moves the temps to the end with std::partition, which is not stable:
    // a temp found from the front is swapped with the last other allocation found from the back,
    // so both the other allocations and the temps leave their order of creation. XLA's own order
    // is reproduced by doing the same swaps (the bidirectional partition of libc++ and libstdc++).
    std::size_t first = 0, last = order.size();
    for (;;) {
        while (first != last && !order[first].temp) ++first;
        if (first == last) break;
        do {
            --last;
        } while (first != last && order[last].temp);
        if (first == last) break;
        std::swap(order[first], order[last]);
        ++first;
    }
    // Then the temps of each color are concatenated in that order, each at the aligned end of the
    // one before, into the first temp of the color; the combined allocations come last.
    std::vector<pending> kept;
    std::vector<pending> combined;
    for (auto& x : order) {
        if (!x.temp) {
            kept.push_back(std::move(x));
            continue;
        }
        auto it = std::find_if(combined.begin(), combined.end(), [&](pending const& c) { return c.allocation.color == x.allocation.color; });
        if (it == combined.end()) {
            combined.push_back(std::move(x));
            combined.back().allocation.is_preallocated_temp = true;
            continue;
        }
        std::int64_t const base = detail::align_up(it->allocation.size, p.alignment);
        it->allocation.size = base + x.allocation.size;
        for (auto const& [v, offset] : x.placed) it->placed.push_back({v, base + offset});
    }
    for (auto& c : combined) kept.push_back(std::move(c));
    for (std::size_t ai = 0; ai < kept.size(); ++ai) {
        auto& x = kept[ai];
        x.allocation.index = static_cast<std::int64_t>(ai);
        // BufferAllocation::ToString names the output shape on the allocation that holds the entry
        // result itself (its top-level value), not on those of its tuple elements.
        bool const holds_result = std::any_of(x.placed.begin(), x.placed.end(), [&](auto const& placed) {
            for (auto const& pos : ba.values[placed.first].positions) {
                if (std::string_view(pos.instruction) == p.output_name && pos.index.empty()) return true;
            }
            return false;
        });
        if (x.allocation.maybe_live_out && holds_result && p.output_shape != no_shape) x.allocation.output_shape = p.output_shape;
        std::sort(x.placed.begin(), x.placed.end());
        for (auto const& [v, offset] : x.placed) {
            ba.values[v].allocation = ai;
            ba.values[v].offset = offset;
            x.allocation.values.push_back(v);
        }
        ba.allocations.push_back(std::move(x.allocation));
    }
    ba.stated_total_bytes = ba.total_bytes();
    // `Total bytes used: N (1.5KiB)`: text of its own, which a policy that views the module's
    // text cannot hold; such an assignment keeps it empty, and the printer writes what XLA would
    // (dump/printer.hpp).
    if constexpr (std::is_same_v<typename P::string_type, std::string>) ba.stated_total_human = human_bytes(*ba.stated_total_bytes);
    return ba;
}

}  // namespace detail

/// The buffer assignment once every heap problem of `p` has offsets (place_heaps, or a user's
/// allocator): allocations in XLA's order, CombineTempAllocations applied, `Total bytes used`
/// stated, the HloLiveRange appendix kept. With a policy that views the module's text, the
/// stated total has no text of its own (`stated_total_human` empty), which print_buffer_assignment
/// writes as XLA does.
template <class P>
basic_buffer_assignment<P> finish_assignment(basic_assignment_problem<P> const& p) {
    return detail::finish_assignment(p, p.model);
}
/// The same, taking the problem's model (values, texts, live ranges) instead of copying it: the
/// problem is left without its model.
template <class P>
basic_buffer_assignment<P> finish_assignment(basic_assignment_problem<P>&& p) {
    auto model = std::move(p.model);
    return detail::finish_assignment(p, std::move(model));
}

}  // namespace hlomem

#endif  // HLOMEM_ASSIGN_FINISH_HPP
