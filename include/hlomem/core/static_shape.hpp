// hlomem/core/static_shape.hpp: shapes fixed at compile time, whose byte sizes are constants.
//
// For allocators that size their buffers at compile time, an array shape can be a type:
//
//   namespace ct = hlomem::compile_time;
//   using weights = ct::array<hlomem::primitive_type::bf16, ct::extents<4096, 3584>,
//                             ct::minor_to_major<1, 0>, ct::tiles<ct::tile<8, 128>, ct::tile<2, 1>>>;
//   static_assert(weights::padded_bytes == 29360128);
//   alignas(64) static std::byte arena[weights::padded_bytes];
//
// The sizes come from the same arithmetic as the runtime functions of shape_size.hpp
// (core/tiling.hpp), so the two always agree; `to_shape()` gives the runtime shape to check it.
// Invalid layouts (minor_to_major not a permutation, an empty or zero tile) and sizes that
// overflow int64 fail to compile with a static_assert.
#ifndef HLOMEM_CORE_STATIC_SHAPE_HPP
#define HLOMEM_CORE_STATIC_SHAPE_HPP

#include <array>
#include <cstdint>
#include <limits>
#include <string>

#include <hlomem/core/primitive_type.hpp>
#include <hlomem/core/shape.hpp>
#include <hlomem/core/tiling.hpp>

namespace hlomem::compile_time {

/// The tile entry printed `*` (combine with the next more-minor dimension).
inline constexpr std::int64_t combine = std::numeric_limits<std::int64_t>::min();

/// Logical extents, most major first as in the text: `extents<3, 5>` is `[3,5]`.
template <std::int64_t... D>
struct extents {};
/// `minor_to_major<1, 0>` is the layout `{1,0}`.
template <std::int64_t... M>
struct minor_to_major {};
/// The descending layout {rank-1, ..., 0}.
struct default_minor_to_major {};
/// One tiling level: `tile<8, 128>` is `(8,128)`; use `combine` for `*`.
template <std::int64_t... T>
struct tile {};
/// Tiling levels in order: `tiles<tile<8, 128>, tile<2, 1>>` is `T(8,128)(2,1)`.
template <class... T>
struct tiles {};

namespace detail {

template <class M2M, std::size_t Rank>
struct minor_to_major_values;
template <std::int64_t... M, std::size_t Rank>
struct minor_to_major_values<minor_to_major<M...>, Rank> {
    static_assert(sizeof...(M) == Rank, "hlomem: minor_to_major must list every dimension once");
    static constexpr std::array<std::int64_t, Rank> value{M...};
};
template <std::size_t Rank>
struct minor_to_major_values<default_minor_to_major, Rank> {
    static constexpr std::array<std::int64_t, Rank> make() {
        std::array<std::int64_t, Rank> out{};
        for (std::size_t i = 0; i < Rank; ++i) out[i] = static_cast<std::int64_t>(Rank - 1 - i);
        return out;
    }
    static constexpr std::array<std::int64_t, Rank> value = make();
};

template <class Tile>
struct tile_values;
template <std::int64_t... T>
struct tile_values<tile<T...>> {
    static constexpr std::array<std::int64_t, sizeof...(T)> value{T...};
};

template <class Tiles>
struct tiles_info;
template <>
struct tiles_info<tiles<>> {
    static constexpr std::size_t count = 0;
    static constexpr std::array<std::int64_t, 0> first{};
    static constexpr bool valid = true;
};
template <class First, class... Rest>
struct tiles_info<tiles<First, Rest...>> {
    static constexpr std::size_t count = 1 + sizeof...(Rest);
    static constexpr auto first = tile_values<First>::value;
    template <std::size_t N>
    static constexpr bool valid_tile(std::array<std::int64_t, N> const& t) {
        if (N == 0 || ::hlomem::detail::is_combine(t[N - 1])) return false;
        for (std::size_t i = 0; i < N; ++i) {
            if (t[i] <= 0 && !::hlomem::detail::is_combine(t[i])) return false;
        }
        return true;
    }
    static constexpr bool valid = (valid_tile(tile_values<First>::value) && ... && valid_tile(tile_values<Rest>::value));
};

template <std::size_t Rank>
constexpr bool is_permutation(std::array<std::int64_t, Rank> const& m) {
    for (std::size_t i = 0; i < Rank; ++i) {
        if (m[i] < 0 || m[i] >= static_cast<std::int64_t>(Rank)) return false;
        for (std::size_t j = 0; j < i; ++j) {
            if (m[j] == m[i]) return false;
        }
    }
    return true;
}

template <class Tile, class P>
basic_tile<P> to_runtime_tile() {
    basic_tile<P> t;
    for (auto d : tile_values<Tile>::value) {
        t.dimensions.push_back(::hlomem::detail::is_combine(d) ? basic_tile<P>::combine_dimension
                                                               : static_cast<typename P::int_type>(d));
    }
    return t;
}

}  // namespace detail

template <primitive_type Type, class Extents, class MinorToMajor = default_minor_to_major, class Tiles = tiles<>,
          std::int64_t ElementSizeInBits = 0, std::int64_t TailPaddingAlignment = 1, std::int64_t MemorySpace = 0>
struct array;

/// An array shape as a type. Every size is a constant expression:
///   element_count   product of the extents
///   byte_size_of    XLA's ByteSizeOf (unpadded, E-aware)
///   unpadded_bytes  the XProf/TPU-report unpadded size
///   padded_bytes    XLA's ArraySize under the first tile, L and E
template <primitive_type Type, std::int64_t... D, class MinorToMajor, class... Tiles, std::int64_t ElementSizeInBits,
          std::int64_t TailPaddingAlignment, std::int64_t MemorySpace>
struct array<Type, extents<D...>, MinorToMajor, tiles<Tiles...>, ElementSizeInBits, TailPaddingAlignment, MemorySpace> {
    static_assert(is_array_type(Type), "hlomem: compile_time::array needs an array element type");
    static_assert(((D >= 0) && ...), "hlomem: extents must not be negative");
    static_assert(ElementSizeInBits >= 0, "hlomem: E(n) must not be negative");
    static_assert(TailPaddingAlignment >= 1, "hlomem: L(n) must be at least 1");
    static_assert(MemorySpace >= 0, "hlomem: S(n) must not be negative");

    static constexpr primitive_type element_type = Type;
    static constexpr std::size_t rank = sizeof...(D);
    static constexpr std::array<std::int64_t, rank> dimensions{D...};
    static constexpr std::array<std::int64_t, rank> minor_to_major_values =
        detail::minor_to_major_values<MinorToMajor, rank>::value;
    static_assert(detail::is_permutation(minor_to_major_values), "hlomem: minor_to_major must be a permutation of 0..rank-1");
    static_assert(detail::tiles_info<tiles<Tiles...>>::valid,
                  "hlomem: tiles must be non-empty, with positive or combine entries and a non-combine minor entry");
    static constexpr std::int64_t element_size_in_bits = ElementSizeInBits;
    static constexpr std::int64_t tail_padding_alignment_in_elements = TailPaddingAlignment;
    static constexpr std::int64_t memory_space = MemorySpace;

private:
    static constexpr ::hlomem::detail::size_result count_ = ::hlomem::detail::element_count(dimensions);
    static_assert(count_.ok(), "hlomem: the element count overflows int64");
    static constexpr ::hlomem::detail::size_result bytes_ =
        ::hlomem::detail::bytes_of_elements(count_.value, Type, ElementSizeInBits);
    static_assert(bytes_.ok(), "hlomem: the byte size overflows int64");
    static constexpr ::hlomem::detail::size_result unpadded_ = ::hlomem::detail::bytes_of_elements(
        count_.value, Type, ::hlomem::detail::unpadded_element_bits(Type, ElementSizeInBits));
    static constexpr ::hlomem::detail::size_result padded() {
        if constexpr (sizeof...(Tiles) == 0) {
            return bytes_;
        } else {
            if (count_.value == 0) return {0, ::hlomem::detail::size_status::ok};
            auto const tiled = ::hlomem::detail::tiled_element_count(
                minor_to_major_values, detail::tiles_info<tiles<Tiles...>>::first, TailPaddingAlignment,
                [](std::size_t dim) { return dimensions[dim]; });
            if (!tiled.ok()) return tiled;
            return ::hlomem::detail::bytes_of_elements(tiled.value, Type, ElementSizeInBits);
        }
    }
    static constexpr ::hlomem::detail::size_result padded_ = padded();
    static_assert(padded_.ok(), "hlomem: the padded size overflows int64");

public:
    static constexpr std::int64_t element_count = count_.value;
    static constexpr std::int64_t byte_size_of = bytes_.value;
    static constexpr std::int64_t unpadded_bytes = unpadded_.value;
    static constexpr std::int64_t padded_bytes = padded_.value;
    static constexpr std::int64_t padding_bytes = padded_bytes - unpadded_bytes;
    // So that arrays and tuples nest alike in compile_time::tuple.
    static constexpr std::int64_t total_padded_bytes = padded_bytes;
    static constexpr std::int64_t total_unpadded_bytes = unpadded_bytes;

    /// The same shape as a runtime value, with its layout.
    template <class P = default_policy>
    static basic_shape<P> to_shape() {
        basic_layout<P> l;
        for (auto m : minor_to_major_values) l.minor_to_major.push_back(static_cast<typename P::int_type>(m));
        (l.tiles.push_back(detail::to_runtime_tile<Tiles, P>()), ...);
        l.element_size_in_bits = ElementSizeInBits;
        l.tail_padding_alignment_in_elements = TailPaddingAlignment;
        l.memory_space = MemorySpace;
        return basic_shape<P>::make_array(Type, {static_cast<typename P::int_type>(D)...}, std::move(l));
    }
    /// `bf16[4096,3584]{1,0:T(8,128)(2,1)}`.
    static std::string to_string() { return ::hlomem::to_string(to_shape()); }
};

/// A tuple of compile-time shapes. `byte_size_of` is its pointer table (PointerSize per element,
/// XLA's ByteSizeOf); the `total_*` constants add up its arrays.
template <std::int64_t PointerSize, class... Elements>
struct tuple_with_pointer_size {
    static constexpr std::size_t size = sizeof...(Elements);
    static constexpr std::int64_t byte_size_of = PointerSize * static_cast<std::int64_t>(sizeof...(Elements));
    static constexpr std::int64_t total_padded_bytes = (std::int64_t{0} + ... + Elements::total_padded_bytes);
    static constexpr std::int64_t total_unpadded_bytes = (std::int64_t{0} + ... + Elements::total_unpadded_bytes);

    template <class P = default_policy>
    static basic_shape<P> to_shape() {
        return basic_shape<P>::make_tuple({Elements::template to_shape<P>()...});
    }
    static std::string to_string() { return ::hlomem::to_string(to_shape()); }
};

/// A tuple with XLA's GPU/CPU pointer size of 8 bytes.
template <class... Elements>
using tuple = tuple_with_pointer_size<8, Elements...>;

}  // namespace hlomem::compile_time

#endif  // HLOMEM_CORE_STATIC_SHAPE_HPP
