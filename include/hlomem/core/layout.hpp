// hlomem/core/layout.hpp: XLA layouts — minor_to_major, tiles, memory space and the other attributes
// printed after the `:` in `{1,0:T(8,128)(2,1)S(1)}`.
//
// The fields and their defaults follow xla/layout.h; the text form follows Layout::Print
// (docs/FORMATS.md 3.2): `{` minor_to_major `:` D T L # * E S SC P M `}`, each attribute
// printed only when it differs from its default, always in that order.
//
// A layout holds a physical shape (`P(shape)`), and a shape holds a layout, so this header and
// shape.hpp include each other; include either one.
#ifndef HLOMEM_CORE_LAYOUT_HPP
#define HLOMEM_CORE_LAYOUT_HPP

#include <cstdint>
#include <limits>

#include <hlomem/core/policy.hpp>
#include <hlomem/core/primitive_type.hpp>
#include <hlomem/detail/box.hpp>

namespace hlomem {

template <class P = default_policy>
class basic_shape;

/// One level of tiling: `(8,128)` in `T(8,128)(2,1)`. The first entry is the most-major tile
/// dimension. An entry equal to `combine_dimension` prints as `*` and merges that physical
/// dimension into the next more-minor one before tiling (xla/docs/tiled_layout.md):
/// `f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}` is tiled as `f32[112,110]` with tile (2,3).
template <class P = default_policy>
struct basic_tile {
    using int_type = typename P::int_type;
    /// XLA's Tile::kCombineDimension.
    static constexpr int_type combine_dimension = std::numeric_limits<int_type>::min();

    typename P::template vector_type<int_type> dimensions;

    friend bool operator==(basic_tile const& a, basic_tile const& b) { return a.dimensions == b.dimensions; }
    friend bool operator!=(basic_tile const& a, basic_tile const& b) { return !(a == b); }
};

/// The level type of one dimension of a sparse array, `D(D,C+,S~,H)`: dense, compressed,
/// singleton, loose-compressed (MLIR sparse-tensor semantics). Newest XLA parses and drops
/// `D(...)`; older XLA kept and printed it, and so does hlomem so that old dumps round-trip.
enum class dim_level_type : std::uint8_t { dense, compressed, singleton, loose_compressed };

struct dim_level {
    dim_level_type type = dim_level_type::dense;
    bool unique = true;   ///< printed `+` when false
    bool ordered = true;  ///< printed `~` when false

    friend bool operator==(dim_level const& a, dim_level const& b) {
        return a.type == b.type && a.unique == b.unique && a.ordered == b.ordered;
    }
    friend bool operator!=(dim_level const& a, dim_level const& b) { return !(a == b); }
};

/// `SC(1:200)`: the array is split across memories along *physical* dimension `dimension`
/// (0 = most major) at the element boundaries `split_indices`. Sizing uses the largest piece.
template <class P = default_policy>
struct basic_split_config {
    std::int64_t dimension = 0;
    typename P::template vector_type<typename P::int_type> split_indices;

    friend bool operator==(basic_split_config const& a, basic_split_config const& b) {
        return a.dimension == b.dimension && a.split_indices == b.split_indices;
    }
    friend bool operator!=(basic_split_config const& a, basic_split_config const& b) { return !(a == b); }
};

/// An XLA layout. Example: `{2,1,0:T(8,128)S(1)}` has minor_to_major {2,1,0}, one tile (8,128)
/// and memory space 1. Every attribute defaults to what XLA prints nothing for.
template <class P = default_policy>
struct basic_layout {
    using int_type = typename P::int_type;
    template <class T>
    using vector_type = typename P::template vector_type<T>;

    /// Logical dimension numbers, most-minor (fastest varying) first: `{1,0}` is row-major.
    vector_type<int_type> minor_to_major;
    /// `D(...)`, kept as read; empty means dense.
    vector_type<dim_level> dim_level_types;
    /// `T(a,b)(c,d)`: tiling levels, applied in order; the first decides the padding.
    vector_type<basic_tile<P>> tiles;
    /// `L(n)`: after tiling, the element count is rounded up to a multiple of n.
    std::int64_t tail_padding_alignment_in_elements = 1;
    /// `#(u32)`: index type of a sparse array.
    primitive_type index_primitive_type = primitive_type::invalid;
    /// `*(u32)`: pointer type of a sparse array.
    primitive_type pointer_primitive_type = primitive_type::invalid;
    /// `E(n)`: bits per element; 0 means the type's natural width.
    std::int64_t element_size_in_bits = 0;
    /// `S(n)`: backend-defined memory space; in buffer assignments it equals the value's color.
    std::int64_t memory_space = 0;
    /// `SC(d:i,j)(d2:k)`.
    vector_type<basic_split_config<P>> split_configs;
    /// `P(shape)`: the on-device shape of a sparse array.
    detail::box<basic_shape<P>> physical_shape;
    /// `M(n)`: bytes of dynamic-shape metadata in front of the data (not part of the array size).
    std::int64_t dynamic_shape_metadata_prefix_bytes = 0;

    /// True when something follows the `:` in the text form.
    bool has_attributes() const {
        return !dim_level_types.empty() || !tiles.empty() || tail_padding_alignment_in_elements != 1 ||
               index_primitive_type != primitive_type::invalid ||
               pointer_primitive_type != primitive_type::invalid || element_size_in_bits != 0 ||
               memory_space != 0 || !split_configs.empty() || physical_shape.has_value() ||
               dynamic_shape_metadata_prefix_bytes != 0;
    }

    /// True when the layout prints as `{}` (the form XLA omits on scalars).
    bool empty() const { return minor_to_major.empty() && !has_attributes(); }

    friend bool operator==(basic_layout const& a, basic_layout const& b) {
        return a.minor_to_major == b.minor_to_major && a.dim_level_types == b.dim_level_types &&
               a.tiles == b.tiles &&
               a.tail_padding_alignment_in_elements == b.tail_padding_alignment_in_elements &&
               a.index_primitive_type == b.index_primitive_type &&
               a.pointer_primitive_type == b.pointer_primitive_type &&
               a.element_size_in_bits == b.element_size_in_bits && a.memory_space == b.memory_space &&
               a.split_configs == b.split_configs && a.physical_shape == b.physical_shape &&
               a.dynamic_shape_metadata_prefix_bytes == b.dynamic_shape_metadata_prefix_bytes;
    }
    friend bool operator!=(basic_layout const& a, basic_layout const& b) { return !(a == b); }
};

/// The default layout for a rank: descending minor_to_major {rank-1, ..., 0}, no attributes.
template <class P = default_policy>
basic_layout<P> default_layout(std::size_t rank) {
    basic_layout<P> l;
    l.minor_to_major.reserve(rank);
    for (std::size_t i = rank; i-- > 0;) l.minor_to_major.push_back(static_cast<typename P::int_type>(i));
    return l;
}

using tile = basic_tile<>;
using split_config = basic_split_config<>;
using layout = basic_layout<>;

}  // namespace hlomem

#include <hlomem/core/shape.hpp>

#endif  // HLOMEM_CORE_LAYOUT_HPP
