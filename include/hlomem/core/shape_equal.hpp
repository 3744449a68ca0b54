// hlomem/core/shape_equal.hpp: XLA's semantic comparison of shapes (xla/shape.h, Shape::Equal),
// with its fluent options:
//
//   hlomem::shape_equal().ignore_layout()(a, b)        f32[8]{0} equals f32[8]
//   hlomem::shape_equal().ignore_fp_precision()(a, b)  f32[8] equals bf16[8]
//
// A shape's operator== (core/shape.hpp) compares what the text shows instead.
#ifndef HLOMEM_CORE_SHAPE_EQUAL_HPP
#define HLOMEM_CORE_SHAPE_EQUAL_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <hlomem/core/layout.hpp>
#include <hlomem/core/primitive_type.hpp>
#include <hlomem/core/shape.hpp>

namespace hlomem {

/// A configurable comparison in the spirit of XLA's `Shape::Equal().IgnoreLayout()`:
///
///   hlomem::shape_equal().ignore_layout()(a, b)
///   hlomem::shape_equal().ignore_memory_space_in_layout().ignore_tiles_in_layout()(a, b)
///
/// A shape without a layout compares as if it had the default layout of its rank, which is what
/// XLA's parser gives such a shape.
class shape_equal {
public:
    shape_equal& ignore_layout(bool v = true) { return set(ignore_layout_, v); }
    shape_equal& minor_to_major_only_in_layout(bool v = true) { return set(minor_to_major_only_, v); }
    shape_equal& ignore_tiles_in_layout(bool v = true) { return set(ignore_tiles_, v); }
    shape_equal& ignore_element_size_in_layout(bool v = true) { return set(ignore_element_size_, v); }
    shape_equal& ignore_memory_space_in_layout(bool v = true) { return set(ignore_memory_space_, v); }
    shape_equal& ignore_tail_padding_alignment_in_elements(bool v = true) { return set(ignore_tail_padding_, v); }
    shape_equal& ignore_split_config_in_layout(bool v = true) { return set(ignore_split_config_, v); }
    shape_equal& ignore_element_type(bool v = true) { return set(ignore_element_type_, v); }
    /// Any two floating-point types compare equal (f32 == bf16); other types must still match.
    shape_equal& ignore_fp_precision(bool v = true) { return set(ignore_fp_precision_, v); }
    shape_equal& ignore_dynamic_dimension(bool v = true) { return set(ignore_dynamic_dimension_, v); }
    shape_equal& ignore_dimensions(bool v = true) { return set(ignore_dimensions_, v); }

    template <class P, class Q>
    bool operator()(basic_shape<P> const& a, basic_shape<Q> const& b) const {
        if (a.is_tuple() || a.is_buffer() || b.is_tuple() || b.is_buffer()) {
            if (a.element_type() != b.element_type() || a.tuple_shapes_size() != b.tuple_shapes_size()) {
                return false;
            }
            for (std::size_t i = 0; i < a.tuple_shapes_size(); ++i) {
                if (!(*this)(a.tuple_shape(i), b.tuple_shape(i))) return false;
            }
            return true;
        }
        if (!a.is_array() || !b.is_array()) return a.element_type() == b.element_type();
        if (!ignore_element_type_ && a.element_type() != b.element_type()) {
            bool const both_fp = is_floating_point(a.element_type()) && is_floating_point(b.element_type());
            if (!(ignore_fp_precision_ && both_fp)) return false;
        }
        if (a.rank() != b.rank()) return false;
        if (!ignore_dimensions_) {
            for (std::size_t i = 0; i < a.rank(); ++i) {
                if (static_cast<std::int64_t>(a.dimension(i)) != static_cast<std::int64_t>(b.dimension(i))) {
                    return false;
                }
            }
        }
        if (!ignore_dynamic_dimension_) {
            for (std::size_t i = 0; i < a.rank(); ++i) {
                if (a.is_dynamic_dimension(i) != b.is_dynamic_dimension(i)) return false;
            }
        }
        if (ignore_layout_) return true;
        return layouts_equal(a.layout_or_default(), b.layout_or_default());
    }

private:
    shape_equal& set(bool& field, bool v) {
        field = v;
        return *this;
    }

    template <class A, class B>
    static bool same_ints(A const& a, B const& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                          [](auto x, auto y) { return static_cast<std::int64_t>(x) == static_cast<std::int64_t>(y); });
    }

    template <class P, class Q>
    bool layouts_equal(basic_layout<P> const& a, basic_layout<Q> const& b) const {
        if (!same_ints(a.minor_to_major, b.minor_to_major)) return false;
        if (minor_to_major_only_) return true;
        if (!ignore_tiles_) {
            if (a.tiles.size() != b.tiles.size()) return false;
            for (std::size_t i = 0; i < a.tiles.size(); ++i) {
                if (!same_ints(a.tiles[i].dimensions, b.tiles[i].dimensions)) return false;
            }
        }
        if (!ignore_tail_padding_ &&
            a.tail_padding_alignment_in_elements != b.tail_padding_alignment_in_elements) {
            return false;
        }
        if (!ignore_element_size_ && a.element_size_in_bits != b.element_size_in_bits) return false;
        if (!ignore_memory_space_ && a.memory_space != b.memory_space) return false;
        if (!ignore_split_config_) {
            if (a.split_configs.size() != b.split_configs.size()) return false;
            for (std::size_t i = 0; i < a.split_configs.size(); ++i) {
                if (a.split_configs[i].dimension != b.split_configs[i].dimension ||
                    !same_ints(a.split_configs[i].split_indices, b.split_configs[i].split_indices)) {
                    return false;
                }
            }
        }
        if (a.dim_level_types.size() != b.dim_level_types.size() ||
            !std::equal(a.dim_level_types.begin(), a.dim_level_types.end(), b.dim_level_types.begin())) {
            return false;
        }
        if (a.index_primitive_type != b.index_primitive_type ||
            a.pointer_primitive_type != b.pointer_primitive_type ||
            a.dynamic_shape_metadata_prefix_bytes != b.dynamic_shape_metadata_prefix_bytes) {
            return false;
        }
        if (a.physical_shape.has_value() != b.physical_shape.has_value()) return false;
        return !a.physical_shape || (*this)(*a.physical_shape, *b.physical_shape);
    }

    bool ignore_layout_ = false;
    bool minor_to_major_only_ = false;
    bool ignore_tiles_ = false;
    bool ignore_element_size_ = false;
    bool ignore_memory_space_ = false;
    bool ignore_tail_padding_ = false;
    bool ignore_split_config_ = false;
    bool ignore_element_type_ = false;
    bool ignore_fp_precision_ = false;
    bool ignore_dynamic_dimension_ = false;
    bool ignore_dimensions_ = false;
};

}  // namespace hlomem

#endif  // HLOMEM_CORE_SHAPE_EQUAL_HPP
