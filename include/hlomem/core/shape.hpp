// hlomem/core/shape.hpp: XLA shapes (arrays, tuples, token, opaque, buffer), shape indices, their
// canonical text form, equality and validation.
//
// Text forms (docs/xla-formats.md 2):
//   f32[8,128]{1,0}                          array with a layout
//   bf16[4096,3584]{1,0:T(8,128)(2,1)}       TPU tiling
//   f32[<=23,44,?]                           bounded-dynamic and unbounded dimensions
//   (f32[], s32[2]{0})                       tuple; `()` is the empty tuple
//   token[]  opaque[]  b(f32[8])             token, opaque handle, buffer (newest XLA)
// `to_string` writes exactly what XLA's ShapeUtil::HumanStringWithLayout writes, including the
// `/*index=5*/` markers in long tuples, so that print(parse(s)) == s for canonical text.
#ifndef HLOMEM_CORE_SHAPE_HPP
#define HLOMEM_CORE_SHAPE_HPP

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <utility>

#include <hlomem/core/error.hpp>
#include <hlomem/core/layout.hpp>
#include <hlomem/core/policy.hpp>
#include <hlomem/core/primitive_type.hpp>

namespace hlomem {

// ---------------------------------------------------------------------------------------------
// shape_index
// ---------------------------------------------------------------------------------------------

/// A path of tuple-element positions from the outermost tuple: `{}` is the whole shape, `{1,0}`
/// element 0 of element 1. Prints as XLA does, without spaces.
template <class P = default_policy>
class basic_shape_index {
public:
    using int_type = typename P::int_type;
    using container_type = typename P::template vector_type<int_type>;
    using const_iterator = typename container_type::const_iterator;

    basic_shape_index() = default;
    basic_shape_index(std::initializer_list<int_type> path) : path_(path) {}
    explicit basic_shape_index(container_type path) : path_(std::move(path)) {}

    std::size_t size() const noexcept { return path_.size(); }
    bool empty() const noexcept { return path_.empty(); }
    int_type operator[](std::size_t i) const { return path_[i]; }
    const_iterator begin() const { return path_.begin(); }
    const_iterator end() const { return path_.end(); }
    void push_back(int_type i) { path_.push_back(i); }
    void pop_back() { path_.pop_back(); }
    container_type const& path() const noexcept { return path_; }

    friend bool operator==(basic_shape_index const& a, basic_shape_index const& b) { return a.path_ == b.path_; }
    friend bool operator!=(basic_shape_index const& a, basic_shape_index const& b) { return !(a == b); }
    /// Lexicographic, so that `{}` < `{0}` < `{0,1}` < `{1}`.
    friend bool operator<(basic_shape_index const& a, basic_shape_index const& b) {
        return std::lexicographical_compare(a.path_.begin(), a.path_.end(), b.path_.begin(), b.path_.end());
    }

private:
    container_type path_;
};

using shape_index = basic_shape_index<>;

// ---------------------------------------------------------------------------------------------
// basic_shape
// ---------------------------------------------------------------------------------------------

/// An XLA shape. `element_type()` says which kind: an array type (`f32`, `pred`, `s4`, ...),
/// `tuple`, `token`, `opaque` or `buffer`. Arrays have dimensions and an optional layout;
/// tuples have element shapes; a buffer wraps one array shape.
///
/// A layout is optional because XLA prints shapes both with layouts (value lines, instructions)
/// and without (allocation headers: `shape |f32[32,512,4096]|`). A shape parsed without a layout
/// prints without one; the size functions then use the default layout.
template <class P>
class basic_shape {
    static_assert(detail::check_policy<P>());

public:
    using policy_type = P;
    using int_type = typename P::int_type;
    template <class T>
    using vector_type = typename P::template vector_type<T>;
    using layout_type = basic_layout<P>;
    using tile_type = basic_tile<P>;
    using index_type = basic_shape_index<P>;

    /// XLA's Shape::kUnboundedSize: the extent stored for a `?` dimension.
    static constexpr int_type unbounded_size = std::numeric_limits<int_type>::min();

    /// An invalid shape (element type `invalid`); assign a real one before use.
    basic_shape() = default;

    /// `f32[3,5]`: an array without a layout.
    static basic_shape make_array(primitive_type type, vector_type<int_type> dimensions) {
        basic_shape s;
        s.element_type_ = type;
        s.dimensions_ = std::move(dimensions);
        return s;
    }
    /// `f32[3,5]{1,0:T(2,2)}`: an array with a layout.
    static basic_shape make_array(primitive_type type, vector_type<int_type> dimensions, layout_type layout) {
        basic_shape s = make_array(type, std::move(dimensions));
        s.layout_ = std::move(layout);
        return s;
    }
    /// `(f32[], s32[2]{0})`.
    static basic_shape make_tuple(vector_type<basic_shape> elements) {
        basic_shape s;
        s.element_type_ = primitive_type::tuple;
        s.tuple_shapes_ = std::move(elements);
        return s;
    }
    static basic_shape make_token() { return make_leaf(primitive_type::token); }
    static basic_shape make_opaque() { return make_leaf(primitive_type::opaque); }
    /// `b(f32[8])`: a buffer holding an array (newest XLA only).
    static basic_shape make_buffer(basic_shape array) {
        basic_shape s;
        s.element_type_ = primitive_type::buffer;
        s.tuple_shapes_.push_back(std::move(array));
        return s;
    }

    primitive_type element_type() const noexcept { return element_type_; }
    void set_element_type(primitive_type t) noexcept { element_type_ = t; }

    bool is_array() const noexcept { return is_array_type(element_type_); }
    bool is_tuple() const noexcept { return element_type_ == primitive_type::tuple; }
    bool is_token() const noexcept { return element_type_ == primitive_type::token; }
    bool is_opaque() const noexcept { return element_type_ == primitive_type::opaque; }
    bool is_buffer() const noexcept { return element_type_ == primitive_type::buffer; }
    /// An array of rank 0: `f32[]`.
    bool is_scalar() const noexcept { return is_array() && dimensions_.empty(); }

    // -- array dimensions --------------------------------------------------------------------
    std::size_t rank() const noexcept { return dimensions_.size(); }
    vector_type<int_type> const& dimensions() const noexcept { return dimensions_; }
    vector_type<int_type>& mutable_dimensions() noexcept { return dimensions_; }
    int_type dimension(std::size_t i) const { return dimensions_[i]; }
    void add_dimension(int_type extent, bool dynamic = false) {
        dimensions_.push_back(extent);
        if (dynamic || !dynamic_dimensions_.empty()) {
            dynamic_dimensions_.resize(dimensions_.size(), false);
            dynamic_dimensions_.back() = dynamic;
        }
    }
    /// `<=N` (bounded; the extent is the bound) or `?` (unbounded; the extent is unbounded_size).
    bool is_dynamic_dimension(std::size_t i) const {
        return i < dynamic_dimensions_.size() && dynamic_dimensions_[i];
    }
    bool is_unbounded_dynamic_dimension(std::size_t i) const { return dimensions_[i] == unbounded_size; }
    void set_dynamic_dimension(std::size_t i, bool dynamic) {
        if (!dynamic && dynamic_dimensions_.empty()) return;
        dynamic_dimensions_.resize(dimensions_.size(), false);
        dynamic_dimensions_[i] = dynamic;
    }
    /// True when no dimension is dynamic (recursively for tuples).
    bool is_static() const {
        if (is_tuple() || is_buffer()) {
            return std::all_of(tuple_shapes_.begin(), tuple_shapes_.end(),
                               [](basic_shape const& s) { return s.is_static(); });
        }
        return std::none_of(dynamic_dimensions_.begin(), dynamic_dimensions_.end(), [](bool b) { return b; });
    }
    bool is_dynamic() const { return !is_static(); }

    // -- tuple elements (and the one element of a buffer) ------------------------------------
    vector_type<basic_shape> const& tuple_shapes() const noexcept { return tuple_shapes_; }
    vector_type<basic_shape>& mutable_tuple_shapes() noexcept { return tuple_shapes_; }
    std::size_t tuple_shapes_size() const noexcept { return tuple_shapes_.size(); }
    basic_shape const& tuple_shape(std::size_t i) const { return tuple_shapes_[i]; }
    /// The array a buffer shape wraps.
    basic_shape const& buffer_shape() const { return tuple_shapes_.front(); }

    /// The sub-shape at `index`; throws shape_error if the index leaves the tuple structure.
    basic_shape const& subshape(index_type const& index) const {
        basic_shape const* s = this;
        for (std::size_t i = 0; i < index.size(); ++i) {
            if (!s->is_tuple() || index[i] < 0 || static_cast<std::size_t>(index[i]) >= s->tuple_shapes_.size()) {
                throw shape_error("shape index " + to_string(index) + " is not valid for shape " + to_string(*this));
            }
            s = &s->tuple_shapes_[static_cast<std::size_t>(index[i])];
        }
        return *s;
    }

    // -- layout ------------------------------------------------------------------------------
    bool has_layout() const noexcept { return layout_.has_value(); }
    /// Precondition: has_layout().
    layout_type const& layout() const { return *layout_; }
    /// The layout, created empty if the shape has none.
    layout_type& mutable_layout() {
        if (!layout_) layout_.emplace();
        return *layout_;
    }
    void set_layout(layout_type l) { layout_ = std::move(l); }
    void clear_layout() noexcept { layout_.reset(); }
    /// The layout, or the default layout of this rank when the shape has none.
    layout_type layout_or_default() const { return layout_ ? *layout_ : default_layout<P>(rank()); }

    /// Structural equality of what the text shows: element types, dimensions, dynamic bits,
    /// layouts (present or not) and tuple elements. A scalar's empty layout `{}` equals no
    /// layout, as XLA prints neither. For XLA's semantic comparison see `shape_equal`.
    friend bool operator==(basic_shape const& a, basic_shape const& b) {
        if (a.element_type_ != b.element_type_ || a.dimensions_ != b.dimensions_) return false;
        for (std::size_t i = 0; i < a.dimensions_.size(); ++i) {
            if (a.is_dynamic_dimension(i) != b.is_dynamic_dimension(i)) return false;
        }
        if (a.printed_layout() != b.printed_layout()) return false;
        if (a.printed_layout() && *a.layout_ != *b.layout_) return false;
        return a.tuple_shapes_ == b.tuple_shapes_;
    }
    friend bool operator!=(basic_shape const& a, basic_shape const& b) { return !(a == b); }

    /// True when the text form shows a layout (a scalar's `{}` is not shown).
    bool printed_layout() const noexcept { return layout_.has_value() && !(is_scalar() && layout_->empty()); }

private:
    static basic_shape make_leaf(primitive_type t) {
        basic_shape s;
        s.element_type_ = t;
        return s;
    }

    primitive_type element_type_ = primitive_type::invalid;
    vector_type<int_type> dimensions_;
    // Empty unless some dimension is dynamic, so that static shapes pay nothing for it.
    vector_type<bool> dynamic_dimensions_;
    std::optional<layout_type> layout_;
    vector_type<basic_shape> tuple_shapes_;
};

using shape = basic_shape<>;

// ---------------------------------------------------------------------------------------------
// Printing (XLA's canonical text)
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Semantic comparison (XLA's Shape::Equal)
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Validation (XLA's ShapeUtil::ValidateShape / LayoutUtil::ValidateLayoutForShape)
// ---------------------------------------------------------------------------------------------

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

/// What is wrong with a shape and where.
struct shape_problem {
    std::string message;
    shape_part part = shape_part::shape;
    std::size_t index = 0;
};

/// Checks one array, token or opaque shape (not its tuple elements) the way XLA's validator
/// does: non-negative extents; a layout only on arrays; minor_to_major a permutation of
/// 0..rank-1; tiles non-empty with positive or `*` entries, the most-minor one not `*`;
/// L >= 1; E >= 0; `#`/`*` unsigned integer types; split configs on existing physical
/// dimensions with increasing indices; `P(...)` only on sparse layouts; M >= 0.
template <class P>
std::optional<shape_problem> validate_array(basic_shape<P> const& s) {
    using int_type = typename P::int_type;
    auto problem = [](std::string m, shape_part part, std::size_t index = 0) {
        return std::optional<shape_problem>(shape_problem{std::move(m), part, index});
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
std::optional<shape_problem> validate(basic_shape<P> const& s) {
    if (s.element_type() == primitive_type::invalid) {
        return shape_problem{"the shape has no element type", shape_part::shape, 0};
    }
    if (s.is_tuple() || s.is_buffer()) {
        if (s.is_buffer() && (s.tuple_shapes_size() != 1 || !s.buffer_shape().is_array())) {
            return shape_problem{"a buffer shape must hold exactly one array shape", shape_part::shape, 0};
        }
        for (auto const& e : s.tuple_shapes()) {
            if (auto p = validate(e)) return p;
        }
        return std::nullopt;
    }
    return validate_array(s);
}

}  // namespace hlomem

#endif  // HLOMEM_CORE_SHAPE_HPP
