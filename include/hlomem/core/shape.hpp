// hlomem/core/shape.hpp: XLA shapes (arrays, tuples, token, opaque, buffer) and shape indices.
//
// Text forms (docs/FORMATS.md 2):
//   f32[8,128]{1,0}                          array with a layout
//   bf16[4096,3584]{1,0:T(8,128)(2,1)}       TPU tiling
//   f32[<=23,44,?]                           bounded-dynamic and unbounded dimensions
//   (f32[], s32[2]{0})                       tuple; `()` is the empty tuple
//   token[]  opaque[]  b(f32[8])             token, opaque handle, buffer (newest XLA)
//
// The shape's companions live in headers of their own, and this header includes them at its end so
// that a program including it has the whole vocabulary of shapes: core/shape_text.hpp (to_string,
// XLA's canonical text; subshape() prints the shape in its error), core/shape_equal.hpp (XLA's
// Shape::Equal) and core/shape_validate.hpp (XLA's ShapeUtil::ValidateShape). Each of them
// includes this one, so any of them may be included first.
#ifndef HLOMEM_CORE_SHAPE_HPP
#define HLOMEM_CORE_SHAPE_HPP

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
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

}  // namespace hlomem

#include <hlomem/core/shape_equal.hpp>
#include <hlomem/core/shape_text.hpp>
#include <hlomem/core/shape_validate.hpp>

#endif  // HLOMEM_CORE_SHAPE_HPP
