// hlomem/core/shape_size.hpp: how many bytes a shape takes, padded and unpadded, and where an
// element lands in a tiled layout (docs/FORMATS.md section 4).
//
//   byte_size_of(s)        XLA's ShapeUtil::ByteSizeOf: elements × width (E-aware), tiles
//                          ignored; a tuple is its pointer table (pointer_size per element).
//   array_size(s)          XLA's ShapeUtil::ArraySize: the padded size under the first tile,
//                          L(n) and split configs, with `*` combine handled as the tiling doc says.
//   unpadded_byte_size(s)  what XProf and TPU out-of-memory reports call "unpadded": no tiling,
//                          and an E(n) that widens an element beyond its natural width is padding
//                          (`pred[64,512,2048]{2,1,0:T(8,128)E(32)}`: 256 MiB padded, 64 MiB
//                          unpadded) while packing (`s4` with `E(4)`) is kept.
//   tiled_physical_shape   the array that a tiled layout stores, row-major.
//   linear_index           the element's position in that storage.
//
// Sizes that do not fit in int64, and sizes of unbounded `?` dimensions, throw shape_error.
#ifndef HLOMEM_CORE_SHAPE_SIZE_HPP
#define HLOMEM_CORE_SHAPE_SIZE_HPP

#include <cstdint>
#include <string>
#include <vector>

#include <hlomem/core/error.hpp>
#include <hlomem/core/shape.hpp>
#include <hlomem/core/tiling.hpp>
#include <hlomem/detail/checked.hpp>

namespace hlomem {

namespace detail {

template <class P>
std::int64_t size_or_throw(size_result r, basic_shape<P> const& s, char const* what) {
    if (r.ok()) return r.value;
    if (r.status == size_status::unbounded) {
        throw shape_error(std::string(what) + " of " + to_string(s) + " is undefined: it has an unbounded dimension");
    }
    throw shape_error(std::string(what) + " of " + to_string(s) + " overflows int64");
}

template <class P>
std::int64_t element_size_in_bits_of(basic_shape<P> const& s) {
    return s.has_layout() ? s.layout().element_size_in_bits : 0;
}

template <class P>
size_result array_element_count(basic_shape<P> const& s) {
    return element_count(s.dimensions());
}

/// ShapeUtil::ByteSizeOfElements for an array.
template <class P>
size_result array_byte_size_of(basic_shape<P> const& s) {
    size_result const n = array_element_count(s);
    if (!n.ok()) return n;
    return bytes_of_elements(n.value, s.element_type(), element_size_in_bits_of(s));
}

/// ShapeUtil::ArraySize for an array: padded under the first tile, L(n) and SC.
template <class P>
size_result array_padded_size(basic_shape<P> const& s) {
    if (!s.has_layout() || s.layout().tiles.empty()) return array_byte_size_of(s);
    auto const& l = s.layout();
    size_result const unpadded = array_element_count(s);
    if (!unpadded.ok()) return unpadded;
    if (unpadded.value == 0) return {0, size_status::ok};
    auto split_extent = [&](std::size_t dim) {
        return max_split_extent(s.dimensions(), l.minor_to_major, l.split_configs, dim);
    };
    size_result const n =
        tiled_element_count(l.minor_to_major, l.tiles.front().dimensions, l.tail_padding_alignment_in_elements, split_extent);
    if (!n.ok()) return n;
    return bytes_of_elements(n.value, s.element_type(), l.element_size_in_bits);
}

/// The XProf/TPU-report unpadded size of an array.
template <class P>
size_result array_unpadded_size(basic_shape<P> const& s) {
    size_result const n = array_element_count(s);
    if (!n.ok()) return n;
    return bytes_of_elements(n.value, s.element_type(),
                             unpadded_element_bits(s.element_type(), element_size_in_bits_of(s)));
}

/// Physical extents, most major first: dims[minor_to_major[rank-1]], ..., dims[minor_to_major[0]].
template <class P>
std::vector<std::int64_t> physical_extents(basic_shape<P> const& s) {
    auto const l = s.layout_or_default();
    std::vector<std::int64_t> out(s.rank());
    for (std::size_t p = 0; p < s.rank(); ++p) {
        out[p] = static_cast<std::int64_t>(s.dimension(static_cast<std::size_t>(l.minor_to_major[s.rank() - 1 - p])));
    }
    return out;
}

/// Applies one tiling level to `dims` (and, when given, to the element coordinates `coords`):
/// pad, split each tiled dimension into (tile count, tile extent), move the tile extents to the
/// minor end (xla/docs/tiled_layout.md). `*` entries merge their dimension into the next more-minor
/// one first. A tile longer than the shape adds major dimensions of extent 1.
template <class Tile>
void apply_tile(std::vector<std::int64_t>& dims, std::vector<std::int64_t>* coords, Tile const& tile) {
    std::size_t const k = tile.size();
    if (k > dims.size()) {
        dims.insert(dims.begin(), k - dims.size(), 1);
        if (coords) coords->insert(coords->begin(), k - coords->size(), 0);
    }
    std::size_t const base = dims.size() - k;
    std::vector<std::int64_t> extents, positions, tile_extents;
    std::int64_t carry_extent = 1, carry_position = 0;
    for (std::size_t j = 0; j < k; ++j) {
        std::int64_t extent = 0, position = 0;
        std::int64_t const c = coords ? (*coords)[base + j] : 0;
        if (!checked_mul(carry_extent, dims[base + j], &extent) ||
            !checked_mul(carry_position, dims[base + j], &position) || !checked_add(position, c, &position)) {
            throw shape_error("tiled shape overflows int64");
        }
        if (is_combine(tile[j])) {
            carry_extent = extent;
            carry_position = position;
            continue;
        }
        carry_extent = 1;
        carry_position = 0;
        extents.push_back(extent);
        positions.push_back(position);
        tile_extents.push_back(static_cast<std::int64_t>(tile[j]));
    }
    dims.resize(base);
    for (std::size_t j = 0; j < extents.size(); ++j) dims.push_back(ceil_div(extents[j], tile_extents[j]));
    dims.insert(dims.end(), tile_extents.begin(), tile_extents.end());
    if (coords) {
        coords->resize(base);
        for (std::size_t j = 0; j < positions.size(); ++j) coords->push_back(positions[j] / tile_extents[j]);
        for (std::size_t j = 0; j < positions.size(); ++j) coords->push_back(positions[j] % tile_extents[j]);
    }
}

/// Row-major position of `coords` in `dims`.
inline std::int64_t row_major_index(std::vector<std::int64_t> const& dims, std::vector<std::int64_t> const& coords) {
    std::int64_t index = 0;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (!checked_mul(index, dims[i], &index) || !checked_add(index, coords[i], &index)) {
            throw shape_error("linear index overflows int64");
        }
    }
    return index;
}

template <class P, class Index>
std::int64_t tiled_linear_index(basic_shape<P> const& s, Index const& index, std::size_t max_levels) {
    if (!s.is_array()) throw shape_error("linear_index needs an array shape, not " + to_string(s));
    if (index.size() != s.rank()) {
        throw shape_error("linear_index: " + std::to_string(index.size()) + " indices for rank-" +
                          std::to_string(s.rank()) + " shape " + to_string(s));
    }
    auto const l = s.layout_or_default();
    std::vector<std::int64_t> dims = physical_extents(s);
    std::vector<std::int64_t> coords(s.rank());
    for (std::size_t p = 0; p < s.rank(); ++p) {
        auto const dim = static_cast<std::size_t>(l.minor_to_major[s.rank() - 1 - p]);
        coords[p] = static_cast<std::int64_t>(index[dim]);
        if (coords[p] < 0 || coords[p] >= dims[p]) {
            throw shape_error("linear_index: index " + std::to_string(coords[p]) + " is outside dimension " +
                              std::to_string(dim) + " of " + to_string(s));
        }
    }
    for (std::size_t level = 0; level < l.tiles.size() && level < max_levels; ++level) {
        apply_tile(dims, &coords, l.tiles[level].dimensions);
    }
    return row_major_index(dims, coords);
}

}  // namespace detail

/// The number of elements: the product of the extents for an array (a bounded dynamic
/// dimension counts its bound), the sum over the elements for a tuple or buffer, 0 for token and
/// opaque. Throws shape_error for an unbounded dimension or on overflow.
template <class P>
std::int64_t element_count(basic_shape<P> const& s) {
    if (s.is_array()) return detail::size_or_throw(detail::array_element_count(s), s, "element count");
    std::int64_t total = 0;
    for (auto const& e : s.tuple_shapes()) {
        if (!detail::checked_add(total, element_count(e), &total)) {
            throw shape_error("element count of " + to_string(s) + " overflows int64");
        }
    }
    return total;
}

/// XLA's ShapeUtil::ByteSizeOf(shape, pointer_size): unpadded. An array is its elements × width
/// (ceil(n·E/8) with E(n)); a tuple is its pointer table, pointer_size × top-level elements;
/// token 0; opaque pointer_size; a buffer its array. `(f32[2], s32[])` = 16.
template <class P>
std::int64_t byte_size_of(basic_shape<P> const& s, std::int64_t pointer_size = 8) {
    if (s.is_array()) return detail::size_or_throw(detail::array_byte_size_of(s), s, "byte size");
    if (s.is_buffer()) return byte_size_of(s.buffer_shape(), pointer_size);
    if (s.is_tuple()) {
        std::int64_t out = 0;
        if (!detail::checked_mul(pointer_size, static_cast<std::int64_t>(s.tuple_shapes_size()), &out)) {
            throw shape_error("byte size of " + to_string(s) + " overflows int64");
        }
        return out;
    }
    if (s.is_opaque()) return pointer_size;
    return 0;
}

/// XLA's ShapeUtil::ArraySize: the padded bytes of an array. Only the first tile pads; L(n)
/// rounds the tiled element count; with split configs, the size of the largest piece.
/// `f32[3,5]{1,0:T(2,2)}` = 96, `f32[100]{0:T(8,128)}` = 4096. Throws for non-arrays.
template <class P>
std::int64_t array_size(basic_shape<P> const& s) {
    if (!s.is_array()) throw shape_error("array_size needs an array shape, not " + to_string(s));
    return detail::size_or_throw(detail::array_padded_size(s), s, "padded size");
}

/// The padded size of any shape: array_size for arrays, byte_size_of otherwise.
template <class P>
std::int64_t padded_byte_size(basic_shape<P> const& s, std::int64_t pointer_size = 8) {
    if (s.is_array()) return array_size(s);
    if (s.is_buffer()) return padded_byte_size(s.buffer_shape(), pointer_size);
    return byte_size_of(s, pointer_size);
}

/// The unpadded size XProf and TPU out-of-memory reports print: the shape without tiling, with
/// E(n) kept only where it packs below the natural width. For tuples, the pointer table.
template <class P>
std::int64_t unpadded_byte_size(basic_shape<P> const& s, std::int64_t pointer_size = 8) {
    if (s.is_array()) return detail::size_or_throw(detail::array_unpadded_size(s), s, "unpadded size");
    if (s.is_buffer()) return unpadded_byte_size(s.buffer_shape(), pointer_size);
    return byte_size_of(s, pointer_size);
}

/// XLA's ShapeUtil::ArrayDataSize: one past the last real element's byte, so trailing padding
/// is excluded. Uses XLA's LinearIndex, which applies only the first tile and leaves rank-1
/// indices unchanged. `f32[3,5]{1,0:T(2,2)}` = 84.
template <class P>
std::int64_t array_data_size(basic_shape<P> const& s) {
    if (!s.is_array()) throw shape_error("array_data_size needs an array shape, not " + to_string(s));
    std::int64_t const n = element_count(s);
    if (n == 0) return 0;
    std::int64_t last = n - 1;
    if (s.rank() >= 2) {
        std::vector<std::int64_t> index(s.rank());
        for (std::size_t i = 0; i < s.rank(); ++i) index[i] = static_cast<std::int64_t>(s.dimension(i)) - 1;
        last = detail::tiled_linear_index(s, index, 1);
    }
    return detail::size_or_throw(
        detail::bytes_of_elements(last + 1, s.element_type(), detail::element_size_in_bits_of(s)), s, "data size");
}

/// Where element `index` (logical coordinates, one per dimension) lands in the storage of a
/// tiled layout, counted in elements, with every tiling level applied as the tiling doc
/// describes. `f32[3,5]{1,0:T(2,2)}` at {2,3} is 17; `f32[8,8]{1,0:T(2,4)(2,1,1,1)}` at {6,5}
/// is 51.
template <class P, class Index>
std::int64_t linear_index(basic_shape<P> const& s, Index const& index) {
    return detail::tiled_linear_index(s, index, static_cast<std::size_t>(-1));
}
template <class P>
std::int64_t linear_index(basic_shape<P> const& s, std::initializer_list<std::int64_t> index) {
    return detail::tiled_linear_index(s, std::vector<std::int64_t>(index), static_cast<std::size_t>(-1));
}

/// The array a tiled layout actually stores, in row-major order: for every tiling level,
/// (ceil(dn/tn), ..., ceil(d1/t1), tn, ..., t1) on the dimensions it covers.
/// `bf16[4096,3584]{1,0:T(8,128)(2,1)}` stores `bf16[512,28,4,128,2,1]`. Untiled arrays give
/// their dimensions in physical order (major first); tuples give a tuple of physical shapes.
/// The result has no layout.
template <class P>
basic_shape<P> tiled_physical_shape(basic_shape<P> const& s) {
    if (s.is_tuple() || s.is_buffer()) {
        typename basic_shape<P>::template vector_type<basic_shape<P>> elements;
        for (auto const& e : s.tuple_shapes()) elements.push_back(tiled_physical_shape(e));
        return s.is_tuple() ? basic_shape<P>::make_tuple(std::move(elements))
                            : basic_shape<P>::make_buffer(std::move(elements.front()));
    }
    if (!s.is_array()) return s;
    for (std::size_t i = 0; i < s.rank(); ++i) {
        if (s.is_unbounded_dynamic_dimension(i)) {
            throw shape_error("tiled physical shape of " + to_string(s) + " is undefined: it has an unbounded dimension");
        }
    }
    std::vector<std::int64_t> dims = detail::physical_extents(s);
    if (s.has_layout()) {
        for (auto const& t : s.layout().tiles) detail::apply_tile(dims, nullptr, t.dimensions);
    }
    typename basic_shape<P>::template vector_type<typename P::int_type> out(dims.begin(), dims.end());
    return basic_shape<P>::make_array(s.element_type(), std::move(out));
}

/// XLA's ShapeUtil::ByteStrides for an untiled array: the byte distance between neighbours
/// along each logical dimension. `f32[3,5,7]` gives {140, 28, 4}. Throws for tiled layouts and
/// sub-byte element sizes, which have no byte strides.
template <class P>
std::vector<std::int64_t> byte_strides(basic_shape<P> const& s) {
    if (!s.is_array()) throw shape_error("byte_strides needs an array shape, not " + to_string(s));
    auto const l = s.layout_or_default();
    std::int64_t const bits = l.element_size_in_bits > 0 ? l.element_size_in_bits : std::int64_t{byte_width(s.element_type())} * 8;
    if (!l.tiles.empty() || bits % 8 != 0) {
        throw shape_error("byte_strides: " + to_string(s) + " has no byte strides (tiled or sub-byte)");
    }
    std::vector<std::int64_t> strides(s.rank());
    std::int64_t stride = bits / 8;
    for (std::size_t i = 0; i < s.rank(); ++i) {
        auto const dim = static_cast<std::size_t>(l.minor_to_major[i]);
        strides[dim] = stride;
        if (!detail::checked_mul(stride, static_cast<std::int64_t>(s.dimension(dim)), &stride)) {
            throw shape_error("byte strides of " + to_string(s) + " overflow int64");
        }
    }
    return strides;
}

/// Sizes of a whole shape tree, for reports: the sums over its arrays, and its tuple tables.
struct shape_totals {
    std::int64_t elements = 0;        ///< all array elements
    std::int64_t unpadded_bytes = 0;  ///< Σ unpadded_byte_size over arrays
    std::int64_t byte_size_of = 0;    ///< Σ byte_size_of over arrays
    std::int64_t padded_bytes = 0;    ///< Σ array_size over arrays
    std::int64_t tuple_table_bytes = 0;  ///< Σ pointer tables of the tuples (pointer_size each entry)
    std::int64_t arrays = 0;          ///< number of arrays
};

template <class P>
shape_totals totals_of(basic_shape<P> const& s, std::int64_t pointer_size = 8) {
    shape_totals t;
    auto add = [&](std::int64_t& field, std::int64_t v) {
        if (!detail::checked_add(field, v, &field)) throw shape_error("sizes of " + to_string(s) + " overflow int64");
    };
    if (s.is_array()) {
        add(t.elements, element_count(s));
        add(t.unpadded_bytes, unpadded_byte_size(s));
        add(t.byte_size_of, byte_size_of(s));
        add(t.padded_bytes, array_size(s));
        t.arrays = 1;
        return t;
    }
    if (s.is_tuple()) add(t.tuple_table_bytes, byte_size_of(s, pointer_size));
    for (auto const& e : s.tuple_shapes()) {
        shape_totals const sub = totals_of(e, pointer_size);
        add(t.elements, sub.elements);
        add(t.unpadded_bytes, sub.unpadded_bytes);
        add(t.byte_size_of, sub.byte_size_of);
        add(t.padded_bytes, sub.padded_bytes);
        add(t.tuple_table_bytes, sub.tuple_table_bytes);
        add(t.arrays, sub.arrays);
    }
    return t;
}

// ---------------------------------------------------------------------------------------------
// Size functions: pluggable policies that give the bytes one buffer of a shape takes.
// ---------------------------------------------------------------------------------------------

/// XLA's generic size function: padded arrays (ArraySize), tuples as pointer tables of
/// `pointer_size` bytes per element (8 on GPU and CPU), token 0, opaque pointer_size.
struct xla_size_function {
    std::int64_t pointer_size = 8;

    template <class P>
    std::int64_t operator()(basic_shape<P> const& s) const {
        return padded_byte_size(s, pointer_size);
    }
};

/// The size function TPU dumps show (docs/FORMATS.md 4.6): tiled arrays take ArraySize;
/// tuple index tables take roundup(tuple_entry_bytes · n, tuple_alignment) bytes, i.e. 32, 32,
/// 64, 96 for 1, 3, 15, 17 elements. Sizes the closed-source TPU compiler adds on top (such as
/// the 4096 bytes of `s32[2]{0:S(4)}`) are not derivable; read them from the dump.
struct tpu_size_function {
    std::int64_t tuple_entry_bytes = 4;
    std::int64_t tuple_alignment = 32;

    template <class P>
    std::int64_t operator()(basic_shape<P> const& s) const {
        if (s.is_tuple()) {
            std::int64_t bytes = 0;
            if (!detail::checked_mul(tuple_entry_bytes, static_cast<std::int64_t>(s.tuple_shapes_size()), &bytes) ||
                !detail::checked_round_up(bytes, tuple_alignment, &bytes)) {
                throw shape_error("tuple table of " + to_string(s) + " overflows int64");
            }
            return bytes;
        }
        return padded_byte_size(s, tuple_entry_bytes);
    }
};

}  // namespace hlomem

#endif  // HLOMEM_CORE_SHAPE_SIZE_HPP
