// hlomem/diff/knob_side.hpp: what the knobs of a diff (diff/knobs.hpp) read of each side — its
// assignment, metadata and donations, the bytes each value holds at its peak, its values' matched
// counterparts and which a knob has claimed — and how a verdict is filed from them.
#ifndef HLOMEM_DIFF_KNOB_SIDE_HPP
#define HLOMEM_DIFF_KNOB_SIDE_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/core/shape_text.hpp>
#include <hlomem/diff/diff_model.hpp>
#include <hlomem/diff/knob_verdict.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/hlo/attribution.hpp>
#include <hlomem/hlo/donation.hpp>

namespace hlomem {
namespace detail {

/// What the knobs read of one side: its assignment and attribution (both null for a snapshot),
/// its donations, the bytes each value holds at its peak, and which values a knob took.
template <class P, class Q>
struct knob_side {
    basic_buffer_assignment<P> const* ba = nullptr;
    basic_source_attribution<Q> const* sources = nullptr;
    donation_analysis const* donations = nullptr;
    std::vector<std::int64_t> held;        ///< by value: bytes held at its color's peak (0: none)
    std::vector<std::size_t> counterpart;  ///< by value: the matched value of the other side, or npos
    std::vector<unsigned char> claimed;
    char side = 'a';
    std::vector<std::string> shape_texts;  ///< by shape id

    /// A value's shape as text, layout included; empty without a shape.
    std::string_view shape(std::size_t i) const {
        auto const id = ba->values[i].shape;
        return id == no_shape ? std::string_view() : std::string_view(shape_texts[static_cast<std::size_t>(id)]);
    }
    bool array(std::size_t i) const {
        auto const* s = ba->shape_of(ba->values[i]);
        return s && s->is_array();
    }

    std::vector<unsigned char> host_allocation;  ///< by allocation: in host memory (is_host_allocation)

    bool host(std::size_t i) const {
        auto const& v = ba->values[i];
        return v.allocation != npos && host_allocation[v.allocation];
    }
    bool parameter(std::size_t i) const {
        auto const& v = ba->values[i];
        return v.allocation != npos && ba->allocations[v.allocation].is_entry_computation_parameter();
    }
    std::string_view op_name(std::size_t i) const { return (*sources)[i].op_name; }
    knob_value value(std::size_t i) const { return {side, ba->values[i].id, ba->values[i].display_name(), ba->values[i].size}; }
    std::int64_t held_by(std::vector<std::size_t> const& list) const {
        std::int64_t sum = 0;
        for (std::size_t i : list) sum += held[i];
        return sum;
    }
    void claim(std::vector<std::size_t> const& list) {
        for (std::size_t i : list) claimed[i] = 1;
    }
};

/// The verdict's values: both sides' lists, the largest first, at most 20.
template <class P, class Q>
std::vector<knob_value> knob_values(knob_side<P, Q> const& a, std::vector<std::size_t> const& in_a, knob_side<P, Q> const& b,
                                    std::vector<std::size_t> const& in_b) {
    // (size, side, index), the largest first: names are made for the 20 shown only.
    std::vector<std::tuple<std::int64_t, bool, std::size_t>> order;
    for (std::size_t i : in_a) order.emplace_back(-a.ba->values[i].size, false, i);
    for (std::size_t j : in_b) order.emplace_back(-b.ba->values[j].size, true, j);
    auto const shown = order.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(order.size(), 20));
    std::partial_sort(order.begin(), shown, order.end());
    std::vector<knob_value> out;
    for (auto it = order.begin(); it != shown; ++it) out.push_back(std::get<1>(*it) ? b.value(std::get<2>(*it)) : a.value(std::get<2>(*it)));
    return out;
}

/// Files verdict `k` about A's values `in_a` and B's `in_b`: its bytes at the peak (B's held minus
/// A's), its values (these, unless set already), and the values claimed.
template <class P, class Q>
void file_knob(knob_verdict k, knob_side<P, Q>& a, std::vector<std::size_t> const& in_a, knob_side<P, Q>& b,
               std::vector<std::size_t> const& in_b, std::vector<knob_verdict>& out) {
    k.bytes_at_peak = b.held_by(in_b) - a.held_by(in_a);
    if (k.values.empty()) k.values = knob_values(a, in_a, b, in_b);
    a.claim(in_a);
    b.claim(in_b);
    out.push_back(std::move(k));
}

/// `4 values (16.00MiB)`.
inline std::string count_bytes(std::size_t n, std::int64_t bytes) {
    return std::to_string(n) + (n == 1 ? " value (" : " values (") + human_bytes(bytes) + ")";
}

template <class P, class Q>
std::int64_t size_of(knob_side<P, Q> const& s, std::vector<std::size_t> const& list) {
    std::int64_t sum = 0;
    for (std::size_t i : list) sum += s.ba->values[i].size;
    return sum;
}

/// Sorts the verdicts: the largest move at the peak first.
inline void sort_knobs(std::vector<knob_verdict>& knobs) {
    std::stable_sort(knobs.begin(), knobs.end(), [](knob_verdict const& x, knob_verdict const& y) {
        return std::abs(x.bytes_at_peak) > std::abs(y.bytes_at_peak);
    });
}

/// The bytes each value of one side holds at its color's peak, from the diff's holdings.
inline std::vector<std::int64_t> held_at_peak(std::vector<color_diff> const& colors, bool side_b, std::size_t values) {
    std::vector<std::int64_t> out(values, 0);
    for (auto const& c : colors) {
        for (auto const& h : (side_b ? c.peak_b : c.peak_a).holdings) out[h.value] += h.bytes;
    }
    return out;
}

}  // namespace detail
}  // namespace hlomem

#endif  // HLOMEM_DIFF_KNOB_SIDE_HPP
