// hlomem/core/tiling.hpp: the byte-size arithmetic of docs/FORMATS.md section 4, written
// once over generic sequences (anything with size() and operator[]) so that the runtime shapes
// (std::vector) and the compile-time shapes (std::array) share it. Everything is constexpr and
// reports overflow instead of wrapping.
#ifndef HLOMEM_CORE_TILING_HPP
#define HLOMEM_CORE_TILING_HPP

#include <cstddef>
#include <cstdint>
#include <limits>

#include <hlomem/core/primitive_type.hpp>
#include <hlomem/detail/checked.hpp>

namespace hlomem::detail {

enum class size_status : std::uint8_t {
    ok,
    overflow,   ///< the result does not fit in int64
    unbounded,  ///< a `?` dimension has no size
};

struct size_result {
    std::int64_t value = 0;
    size_status status = size_status::ok;

    constexpr bool ok() const noexcept { return status == size_status::ok; }
};

constexpr size_result size_overflow() noexcept { return {0, size_status::overflow}; }

/// True for the tile entry printed `*` (the most negative value of the entry's type).
template <class Int>
constexpr bool is_combine(Int v) noexcept {
    return v == std::numeric_limits<Int>::min();
}

/// True for the extent stored for an unbounded `?` dimension (XLA's kUnboundedSize, the most
/// negative value of the extent's type).
template <class Int>
constexpr bool is_unbounded_extent(Int v) noexcept {
    return v == std::numeric_limits<Int>::min();
}

/// The product of the extents; `unbounded` if one is the unbounded sentinel.
template <class Dims>
constexpr size_result element_count(Dims const& dims) noexcept {
    std::int64_t n = 1;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (is_unbounded_extent(dims[i])) return {0, size_status::unbounded};
    }
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (!checked_mul(n, static_cast<std::int64_t>(dims[i]), &n)) return size_overflow();
    }
    return {n, size_status::ok};
}

/// Bytes of `n` elements of `type`: ceil(n·E/8) when E > 0, else n·ByteWidth
/// (ShapeUtil::ByteSizeOfElements).
constexpr size_result bytes_of_elements(std::int64_t n, primitive_type type, std::int64_t element_size_in_bits) noexcept {
    std::int64_t bytes = 0;
    if (element_size_in_bits > 0) {
        // ceil(n·bits / 8) without forming n·bits, which overflows for byte counts that fit
        // (s8[2^61] with E(8)): with n = 8q + r it is q·bits + ceil(r·bits / 8).
        std::int64_t const q = n / 8, r = n % 8;
        std::int64_t whole = 0;
        if (!checked_mul(q, element_size_in_bits, &whole)) return size_overflow();
        std::int64_t rest_bits = 0;
        if (!checked_mul(r, element_size_in_bits, &rest_bits)) return size_overflow();
        if (!checked_add(whole, ceil_div(rest_bits, 8), &bytes)) return size_overflow();
        return {bytes, size_status::ok};
    }
    if (!checked_mul(n, byte_width(type), &bytes)) return size_overflow();
    return {bytes, size_status::ok};
}

/// The element width XProf and TPU out-of-memory reports count as "unpadded": E(n) when it packs
/// below the natural width (s4 with E(4)), else the natural width ByteWidth·8. An E(n) that
/// widens an element (pred with E(32)) is padding, not data.
constexpr std::int64_t unpadded_element_bits(primitive_type type, std::int64_t element_size_in_bits) noexcept {
    std::int64_t const natural = std::int64_t{byte_width(type)} * 8;
    return element_size_in_bits > 0 && element_size_in_bits < natural ? element_size_in_bits : natural;
}

/// The element count after tiling, ShapeUtil::ArraySize without the final byte conversion:
///   - physical dimension p (0 = most major) has extent split_extent(minor_to_major[rank-1-p]),
///     the largest split piece of that logical dimension (its full extent without SC);
///   - the first tile is aligned with the most-minor physical dimensions; missing major
///     dimensions (tile rank > array rank) count as extent 1;
///   - a `*` entry merges its dimension into the next more-minor one (extents multiply) before
///     padding (xla/docs/tiled_layout.md; XLA's own ArraySize does not handle `*`);
///   - every tiled extent is rounded up to its tile entry; untiled major extents are kept;
///   - the total is rounded up to a multiple of `tail_padding` (L).
/// Precondition: the tile is valid (non-empty, entries positive or `*`, most-minor not `*`).
template <class M2M, class Tile, class SplitExtent>
constexpr size_result tiled_element_count(M2M const& minor_to_major, Tile const& tile, std::int64_t tail_padding,
                                          SplitExtent split_extent) noexcept {
    auto const rank = static_cast<std::ptrdiff_t>(minor_to_major.size());
    auto const k = static_cast<std::ptrdiff_t>(tile.size());
    auto physical = [&](std::ptrdiff_t p) -> std::int64_t {
        return p < 0 ? 1 : split_extent(static_cast<std::size_t>(minor_to_major[static_cast<std::size_t>(rank - 1 - p)]));
    };
    std::int64_t n = 1;
    for (std::ptrdiff_t p = 0; p < rank - k; ++p) {
        if (!checked_mul(n, physical(p), &n)) return size_overflow();
    }
    std::int64_t carry = 1;
    for (std::ptrdiff_t j = 0; j < k; ++j) {
        std::int64_t extent = 0;
        if (!checked_mul(physical(rank - k + j), carry, &extent)) return size_overflow();
        auto const t = tile[static_cast<std::size_t>(j)];
        if (is_combine(t)) {
            carry = extent;
            continue;
        }
        carry = 1;
        std::int64_t padded = 0;
        if (!checked_round_up(extent, static_cast<std::int64_t>(t), &padded) || !checked_mul(n, padded, &n)) {
            return size_overflow();
        }
    }
    if (tail_padding > 1 && !checked_round_up(n, tail_padding, &n)) return size_overflow();
    return {n, size_status::ok};
}

/// LayoutUtil::MaxSplitSize: the largest piece of logical dimension `dim` under the first split
/// config on its physical dimension, or its whole extent.
template <class Dims, class M2M, class Splits>
constexpr std::int64_t max_split_extent(Dims const& dims, M2M const& minor_to_major, Splits const& splits,
                                        std::size_t dim) noexcept {
    std::int64_t const extent = static_cast<std::int64_t>(dims[dim]);
    std::size_t const rank = dims.size();
    for (std::size_t s = 0; s < splits.size(); ++s) {
        auto const physical = static_cast<std::size_t>(splits[s].dimension);
        if (physical >= rank || static_cast<std::size_t>(minor_to_major[rank - 1 - physical]) != dim) continue;
        std::int64_t largest = 0;
        std::int64_t previous = 0;
        for (std::size_t i = 0; i < splits[s].split_indices.size(); ++i) {
            auto const at = static_cast<std::int64_t>(splits[s].split_indices[i]);
            largest = at - previous > largest ? at - previous : largest;
            previous = at;
        }
        return extent - previous > largest ? extent - previous : largest;
    }
    return extent;
}

}  // namespace hlomem::detail

#endif  // HLOMEM_CORE_TILING_HPP
