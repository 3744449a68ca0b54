// hlomem/core/shape_validate.hpp: XLA's checks of a shape (ShapeUtil::ValidateShape and
// LayoutUtil::ValidateLayoutForShape), each problem with the part of the text it is about so that
// a parser can point at it:
//
//   validate(parse_shape("f32[2,3]{0,0}"))   "minor_to_major lists dimension 0 twice; ..." at
//                                            minor_to_major entry 1
#ifndef HLOMEM_CORE_SHAPE_VALIDATE_HPP
#define HLOMEM_CORE_SHAPE_VALIDATE_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <hlomem/core/diagnostic.hpp>
#include <hlomem/core/layout.hpp>
#include <hlomem/core/primitive_type.hpp>
#include <hlomem/core/shape.hpp>

namespace hlomem {

/// Which part of an array shape a problem is about, so that a parser can point at it.
enum class shape_part : std::uint8_t {
    shape,                 ///< the shape as a whole
    dimension,             ///< dimension `index`
    layout,                ///< the layout as a whole
    minor_to_major,        ///< minor_to_major entry `index`
    dim_level_types,       ///< D(...)
    tile,                  ///< tile `index`
    tail_padding,          ///< L(n)
    index_type,            ///< #(type)
    pointer_type,          ///< *(type)
    element_size,          ///< E(n)
    memory_space,          ///< S(n)
    split_config,          ///< split config `index`
    physical_shape,        ///< P(shape)
    dynamic_prefix,        ///< M(n)
};

/// What is wrong with a shape and where: an error of kind invalid_shape whose `first` is the
/// index within the part (the dimension, the tile, ...) and `second` the shape_part, so that a
/// parser can point at the text of that part (shape_part_of).
inline diagnostic shape_problem(std::string message, shape_part part, std::size_t index = 0) {
    return make_diagnostic(diagnostic_kind::invalid_shape, severity::error, std::move(message))
        .about(index, static_cast<std::size_t>(part));
}

/// The part of the shape an invalid_shape diagnostic is about.
inline shape_part shape_part_of(diagnostic const& d) noexcept { return static_cast<shape_part>(d.second); }

/// Checks one array, token or opaque shape (not its tuple elements) the way XLA's validator
/// does: non-negative extents; a layout only on arrays; minor_to_major a permutation of
/// 0..rank-1; tiles non-empty with positive or `*` entries, the most-minor one not `*`;
/// L >= 1; E >= 0; `#`/`*` unsigned integer types; split configs on existing physical
/// dimensions with increasing indices; `P(...)` only on sparse layouts; M >= 0.
template <class P>
std::optional<diagnostic> validate_array(basic_shape<P> const& s) {
    using int_type = typename P::int_type;
    auto problem = [](std::string m, shape_part part, std::size_t index = 0) {
        return std::optional<diagnostic>(shape_problem(std::move(m), part, index));
    };
    auto str = [](std::int64_t v) { return std::to_string(v); };
    if (s.is_token() || s.is_opaque()) {
        if (s.rank() != 0) {
            return problem(std::string(to_string(s.element_type())) + " shapes have no dimensions", shape_part::shape);
        }
        if (s.has_layout()) {
            return problem(std::string(to_string(s.element_type())) + " shapes cannot have a layout", shape_part::layout);
        }
        return std::nullopt;
    }
    if (!s.is_array()) return std::nullopt;
    std::size_t const rank = s.rank();
    for (std::size_t i = 0; i < rank; ++i) {
        if (s.dimension(i) < 0 && !s.is_unbounded_dynamic_dimension(i)) {
            return problem("dimension " + str(static_cast<std::int64_t>(i)) + " has a negative extent " +
                               str(static_cast<std::int64_t>(s.dimension(i))),
                           shape_part::dimension, i);
        }
    }
    if (!s.has_layout()) return std::nullopt;
    auto const& l = s.layout();
    if (l.minor_to_major.size() != rank) {
        return problem("layout has " + str(static_cast<std::int64_t>(l.minor_to_major.size())) +
                           " minor_to_major entries but the shape has rank " + str(static_cast<std::int64_t>(rank)),
                       shape_part::layout);
    }
    {
        std::uint64_t seen_small = 0;  // a bitmask is enough for every real rank
        std::vector<bool> seen_large(rank > 64 ? rank : 0, false);
        for (std::size_t i = 0; i < rank; ++i) {
            auto const d = l.minor_to_major[i];
            if (d < 0 || static_cast<std::size_t>(d) >= rank) {
                return problem("minor_to_major entry " + str(static_cast<std::int64_t>(d)) +
                                   " is not a dimension of a rank-" + str(static_cast<std::int64_t>(rank)) + " shape",
                               shape_part::minor_to_major, i);
            }
            auto const u = static_cast<std::size_t>(d);
            bool const seen = rank > 64 ? static_cast<bool>(seen_large[u]) : ((seen_small >> u) & 1U) != 0;
            if (seen) {
                return problem("minor_to_major lists dimension " + str(static_cast<std::int64_t>(d)) +
                                   " twice; it must be a permutation of 0.." + str(static_cast<std::int64_t>(rank) - 1),
                               shape_part::minor_to_major, i);
            }
            if (rank > 64) {
                seen_large[u] = true;
            } else {
                seen_small |= std::uint64_t{1} << u;
            }
        }
    }
    if (!l.dim_level_types.empty() && l.dim_level_types.size() != rank) {
        return problem("D(...) lists " + str(static_cast<std::int64_t>(l.dim_level_types.size())) +
                           " dimension level types but the shape has rank " + str(static_cast<std::int64_t>(rank)),
                       shape_part::dim_level_types);
    }
    bool const sparse = std::any_of(l.dim_level_types.begin(), l.dim_level_types.end(),
                                    [](dim_level const& d) { return d.type != dim_level_type::dense; });
    for (std::size_t t = 0; t < l.tiles.size(); ++t) {
        auto const& dims = l.tiles[t].dimensions;
        if (dims.empty()) return problem("a tile must have at least one dimension", shape_part::tile, t);
        for (std::size_t j = 0; j < dims.size(); ++j) {
            if (dims[j] == basic_tile<P>::combine_dimension) {
                if (j + 1 == dims.size()) {
                    return problem("the most-minor tile dimension cannot be '*'", shape_part::tile, t);
                }
            } else if (dims[j] <= 0) {
                return problem("tile dimensions must be positive or '*', not " + str(static_cast<std::int64_t>(dims[j])),
                               shape_part::tile, t);
            }
        }
    }
    if (l.tail_padding_alignment_in_elements < 1) {
        return problem("tail padding alignment L(" + str(l.tail_padding_alignment_in_elements) +
                           ") must be at least 1",
                       shape_part::tail_padding);
    }
    if (l.index_primitive_type != primitive_type::invalid && !is_unsigned_integral(l.index_primitive_type)) {
        return problem("index type #(" + std::string(to_string(l.index_primitive_type)) +
                           ") must be an unsigned integer type",
                       shape_part::index_type);
    }
    if (l.pointer_primitive_type != primitive_type::invalid && !is_unsigned_integral(l.pointer_primitive_type)) {
        return problem("pointer type *(" + std::string(to_string(l.pointer_primitive_type)) +
                           ") must be an unsigned integer type",
                       shape_part::pointer_type);
    }
    if (l.element_size_in_bits < 0) {
        return problem("element size E(" + str(l.element_size_in_bits) + ") must not be negative", shape_part::element_size);
    }
    if (l.memory_space < 0) {
        return problem("memory space S(" + str(l.memory_space) + ") must not be negative", shape_part::memory_space);
    }
    for (std::size_t i = 0; i < l.split_configs.size(); ++i) {
        auto const& sc = l.split_configs[i];
        if (sc.dimension < 0 || static_cast<std::size_t>(sc.dimension) >= rank) {
            return problem("split config dimension " + str(sc.dimension) + " is not a physical dimension of a rank-" +
                               str(static_cast<std::int64_t>(rank)) + " shape",
                           shape_part::split_config, i);
        }
        int_type previous = 0;
        for (auto idx : sc.split_indices) {
            if (idx <= previous) {
                return problem("split indices must be positive and increasing", shape_part::split_config, i);
            }
            previous = idx;
        }
    }
    if (l.physical_shape && !sparse) {
        return problem("a physical shape P(...) is only allowed on sparse layouts", shape_part::physical_shape);
    }
    if (l.dynamic_shape_metadata_prefix_bytes < 0) {
        return problem("dynamic shape metadata prefix M(" + str(l.dynamic_shape_metadata_prefix_bytes) +
                           ") must not be negative",
                       shape_part::dynamic_prefix);
    }
    return std::nullopt;
}

/// Validates a whole shape tree; the first problem found, in pre-order.
template <class P>
std::optional<diagnostic> validate(basic_shape<P> const& s) {
    if (s.element_type() == primitive_type::invalid) {
        return shape_problem("the shape has no element type", shape_part::shape);
    }
    if (s.is_tuple() || s.is_buffer()) {
        if (s.is_buffer() && (s.tuple_shapes_size() != 1 || !s.buffer_shape().is_array())) {
            return shape_problem("a buffer shape must hold exactly one array shape", shape_part::shape);
        }
        for (auto const& e : s.tuple_shapes()) {
            if (auto p = validate(e)) return p;
        }
        return std::nullopt;
    }
    return validate_array(s);
}

}  // namespace hlomem

#endif  // HLOMEM_CORE_SHAPE_VALIDATE_HPP
