// hlomem/core/shape_text.hpp: the canonical text of shapes, layouts and shape indices, as XLA
// prints them.
//
//   to_string(shape)           f32[8,128]{1,0:T(8,128)}   XLA's ShapeUtil::HumanStringWithLayout
//   human_string(shape)        f32[8,128]                 ShapeUtil::HumanString (allocation headers)
//   to_string(layout)          {1,0:T(8,128)(2,1)S(1)}    Layout::Print
//   to_string(shape_index)     {1,0}                      ShapeIndex::ToString
//
// `to_string` writes exactly what XLA writes, including the `/*index=5*/` markers in long tuples,
// so that print(parse(s)) == s for canonical text (docs/FORMATS.md 2).
#ifndef HLOMEM_CORE_SHAPE_TEXT_HPP
#define HLOMEM_CORE_SHAPE_TEXT_HPP

#include <charconv>
#include <cstdint>
#include <ostream>
#include <string>

#include <hlomem/core/layout.hpp>
#include <hlomem/core/primitive_type.hpp>
#include <hlomem/core/shape.hpp>

namespace hlomem {

namespace detail {

inline void append_int(std::string& out, std::int64_t v) {
    char buf[24];
    auto const r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

template <class Range>
void append_int_list(std::string& out, Range const& r) {
    bool first = true;
    for (auto v : r) {
        if (!first) out += ',';
        first = false;
        append_int(out, static_cast<std::int64_t>(v));
    }
}

inline char dim_level_letter(dim_level_type t) {
    switch (t) {
        case dim_level_type::dense: return 'D';
        case dim_level_type::compressed: return 'C';
        case dim_level_type::singleton: return 'S';
        case dim_level_type::loose_compressed: return 'H';
    }
    return '?';
}

}  // namespace detail

template <class P>
void append_shape(std::string& out, basic_shape<P> const& s, bool print_layout = true);

/// Appends `{1,0:T(8,128)(2,1)S(1)}`: the minor_to_major list, then the non-default attributes in
/// Layout::Print's order D T L # * E S SC P M.
template <class P>
void append_layout(std::string& out, basic_layout<P> const& l) {
    out += '{';
    detail::append_int_list(out, l.minor_to_major);
    if (l.has_attributes()) {
        out += ':';
        if (!l.dim_level_types.empty()) {
            out += "D(";
            bool first = true;
            for (dim_level const& d : l.dim_level_types) {
                if (!first) out += ',';
                first = false;
                out += detail::dim_level_letter(d.type);
                if (!d.unique) out += '+';
                if (!d.ordered) out += '~';
            }
            out += ')';
        }
        if (!l.tiles.empty()) {
            out += 'T';
            for (auto const& t : l.tiles) {
                out += '(';
                bool first = true;
                for (auto d : t.dimensions) {
                    if (!first) out += ',';
                    first = false;
                    if (d == basic_tile<P>::combine_dimension) {
                        out += '*';
                    } else {
                        detail::append_int(out, static_cast<std::int64_t>(d));
                    }
                }
                out += ')';
            }
        }
        if (l.tail_padding_alignment_in_elements != 1) {
            out += "L(";
            detail::append_int(out, l.tail_padding_alignment_in_elements);
            out += ')';
        }
        if (l.index_primitive_type != primitive_type::invalid) {
            out += "#(";
            out += to_string(l.index_primitive_type);
            out += ')';
        }
        if (l.pointer_primitive_type != primitive_type::invalid) {
            out += "*(";
            out += to_string(l.pointer_primitive_type);
            out += ')';
        }
        if (l.element_size_in_bits != 0) {
            out += "E(";
            detail::append_int(out, l.element_size_in_bits);
            out += ')';
        }
        if (l.memory_space != 0) {
            out += "S(";
            detail::append_int(out, l.memory_space);
            out += ')';
        }
        if (!l.split_configs.empty()) {
            out += "SC";
            for (auto const& sc : l.split_configs) {
                out += '(';
                detail::append_int(out, sc.dimension);
                out += ':';
                detail::append_int_list(out, sc.split_indices);
                out += ')';
            }
        }
        if (l.physical_shape) {
            out += "P(";
            append_shape(out, *l.physical_shape, true);
            out += ')';
        }
        if (l.dynamic_shape_metadata_prefix_bytes != 0) {
            out += "M(";
            detail::append_int(out, l.dynamic_shape_metadata_prefix_bytes);
            out += ')';
        }
    }
    out += '}';
}

/// Appends the shape's text: HumanStringWithLayout when print_layout, else HumanString.
template <class P>
void append_shape(std::string& out, basic_shape<P> const& s, bool print_layout) {
    if (s.is_tuple()) {
        out += '(';
        for (std::size_t i = 0; i < s.tuple_shapes_size(); ++i) {
            if (i > 0) {
                out += ", ";
                // XLA marks every fifth position of a tuple: `f32[], /*index=5*/f32[]`.
                if (i % 5 == 0) {
                    out += "/*index=";
                    detail::append_int(out, static_cast<std::int64_t>(i));
                    out += "*/";
                }
            }
            append_shape(out, s.tuple_shape(i), print_layout);
        }
        out += ')';
        return;
    }
    if (s.is_buffer()) {
        out += "b(";
        if (s.tuple_shapes_size() == 1) append_shape(out, s.buffer_shape(), print_layout);
        out += ')';
        return;
    }
    out += to_string(s.element_type());
    out += '[';
    for (std::size_t i = 0; i < s.rank(); ++i) {
        if (i > 0) out += ',';
        if (s.is_unbounded_dynamic_dimension(i)) {
            out += '?';
            continue;
        }
        if (s.is_dynamic_dimension(i)) out += "<=";
        detail::append_int(out, static_cast<std::int64_t>(s.dimension(i)));
    }
    out += ']';
    if (print_layout && s.printed_layout()) append_layout(out, s.layout());
}

/// `f32[8,128]{1,0:T(8,128)}`: XLA's ShapeUtil::HumanStringWithLayout.
template <class P>
std::string to_string(basic_shape<P> const& s) {
    std::string out;
    append_shape(out, s, true);
    return out;
}

/// `f32[8,128]`: XLA's ShapeUtil::HumanString (no layouts), as printed in allocation headers.
template <class P>
std::string human_string(basic_shape<P> const& s) {
    std::string out;
    append_shape(out, s, false);
    return out;
}

/// Same as to_string; XLA's name.
template <class P>
std::string human_string_with_layout(basic_shape<P> const& s) {
    return to_string(s);
}

/// `{1,0:T(8,128)}`.
template <class P>
std::string to_string(basic_layout<P> const& l) {
    std::string out;
    append_layout(out, l);
    return out;
}

/// `{1,0}`; `{}` for the empty index.
template <class P>
std::string to_string(basic_shape_index<P> const& index) {
    std::string out = "{";
    detail::append_int_list(out, index);
    out += '}';
    return out;
}

template <class P>
std::ostream& operator<<(std::ostream& os, basic_shape<P> const& s) {
    return os << to_string(s);
}
template <class P>
std::ostream& operator<<(std::ostream& os, basic_layout<P> const& l) {
    return os << to_string(l);
}
template <class P>
std::ostream& operator<<(std::ostream& os, basic_shape_index<P> const& i) {
    return os << to_string(i);
}

}  // namespace hlomem

#endif  // HLOMEM_CORE_SHAPE_TEXT_HPP
