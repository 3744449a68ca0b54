// hlomem/core/policy_cast.hpp: a shape, shape index, layout or shape table of one policy as the
// same value of another (core/policy.hpp).
//
//   hlomem::basic_shape<hlomem::view_policy> v = hlomem::policy_cast<hlomem::view_policy>(shape);
//
// Shapes hold no strings, so the copy is whole whichever the policies; the policies' int_type may
// differ (each extent is converted). dump/policy_cast.hpp casts the models that hold strings.
#ifndef HLOMEM_CORE_POLICY_CAST_HPP
#define HLOMEM_CORE_POLICY_CAST_HPP

#include <cstddef>

#include <hlomem/core/layout.hpp>
#include <hlomem/core/policy.hpp>
#include <hlomem/core/shape.hpp>
#include <hlomem/core/shape_table.hpp>
#include <hlomem/core/shape_text.hpp>
#include <hlomem/detail/box.hpp>

namespace hlomem {

template <class Q, class P>
basic_shape<Q> policy_cast(basic_shape<P> const& s);

template <class Q, class P>
basic_shape_index<Q> policy_cast(basic_shape_index<P> const& index) {
    return basic_shape_index<Q>(typename basic_shape_index<Q>::container_type(index.begin(), index.end()));
}

template <class Q, class P>
basic_layout<Q> policy_cast(basic_layout<P> const& l) {
    basic_layout<Q> out;
    out.minor_to_major.assign(l.minor_to_major.begin(), l.minor_to_major.end());
    out.dim_level_types.assign(l.dim_level_types.begin(), l.dim_level_types.end());
    for (auto const& t : l.tiles) {
        out.tiles.push_back(basic_tile<Q>{{t.dimensions.begin(), t.dimensions.end()}});
    }
    out.tail_padding_alignment_in_elements = l.tail_padding_alignment_in_elements;
    out.index_primitive_type = l.index_primitive_type;
    out.pointer_primitive_type = l.pointer_primitive_type;
    out.element_size_in_bits = l.element_size_in_bits;
    out.memory_space = l.memory_space;
    for (auto const& c : l.split_configs) {
        out.split_configs.push_back(basic_split_config<Q>{c.dimension, {c.split_indices.begin(), c.split_indices.end()}});
    }
    if (l.physical_shape) out.physical_shape = detail::box<basic_shape<Q>>(policy_cast<Q>(*l.physical_shape));
    out.dynamic_shape_metadata_prefix_bytes = l.dynamic_shape_metadata_prefix_bytes;
    return out;
}

template <class Q, class P>
basic_shape<Q> policy_cast(basic_shape<P> const& s) {
    basic_shape<Q> out;
    out.set_element_type(s.element_type());
    out.mutable_dimensions().assign(s.dimensions().begin(), s.dimensions().end());
    for (std::size_t i = 0; i < s.rank(); ++i) {
        if (s.is_dynamic_dimension(i)) out.set_dynamic_dimension(i, true);
    }
    if (s.has_layout()) out.set_layout(policy_cast<Q>(s.layout()));
    for (auto const& e : s.tuple_shapes()) out.mutable_tuple_shapes().push_back(policy_cast<Q>(e));
    return out;
}

/// The table with the same shapes under the same ids. Each shape is remembered under its
/// canonical text, which every table holds once per id (shape_table::insert).
template <class Q, class P>
basic_shape_table<Q> policy_cast(basic_shape_table<P> const& table) {
    basic_shape_table<Q> out;
    for (auto const& s : table) out.insert_canonical(to_string(s), policy_cast<Q>(s));
    return out;
}

}  // namespace hlomem

#endif  // HLOMEM_CORE_POLICY_CAST_HPP
