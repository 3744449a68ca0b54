// hlomem/parser/shape.hpp: the Spirit X3 grammar for XLA shapes, layouts and shape indices,
// and the entry points `parse_shape`, `try_parse_shape`, `parse_layout`, `parse_shape_index`.
//
// Grammar (docs/FORMATS.md 2.1 and 3.1; blanks and /* */ comments may appear between tokens):
//
//   shape      := '(' [shape {',' shape}] ')'                      (f32[], s32[2]{0})
//               | 'b' '(' shape ')'                                 b(f32[8])
//               | TYPE '[' [dim {',' dim}] ']' [layout]             bf16[8,128]{1,0:T(8,128)(2,1)}
//   dim        := INT | '<=' INT | '?'                              128  <=128  ?
//   layout     := '{' [INT {',' INT}] [':' attributes] '}'          recognised only when '{' is
//                                                                   followed by an INT or ':'
//   attributes := [D(..)] [T(..)(..)] [L(n)] [#(type)] [*(type)] [E(n)] [S(n)] [SC(d:i,..)..]
//                 [P(shape)] [M(n)]                                 in exactly this order
//
// The rules build `basic_shape<Policy>` directly (no intermediate AST). Each array is validated
// as soon as it is read (validate_array in shape.hpp) and its element count, unpadded and padded
// sizes are checked to fit in int64, so an error points at the offending part of the text:
//
//   <shape>:1:12: error: minor_to_major lists dimension 1 twice; it must be a permutation of 0..1
//   f32[8,128]{1,1}
//                ^
//
// Other grammars embed a shape with `hlomem::parser::shape_rule<Policy>`; it commits on a
// leading identifier, so an unknown type name is an error rather than a backtrack. Grammars
// whose models keep their shapes in a shape table read them with `table_shape_parser`, which
// parses each distinct text once (intern_shape).
#ifndef HLOMEM_PARSER_SHAPE_HPP
#define HLOMEM_PARSER_SHAPE_HPP

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <hlomem/core/shape.hpp>
#include <hlomem/core/shape_size.hpp>
#include <hlomem/core/shape_table.hpp>
#include <hlomem/detail/scan.hpp>
#include <hlomem/parser/api.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/intern_shape.hpp>

namespace hlomem::parser {

// ---------------------------------------------------------------------------------------------
// Element types
// ---------------------------------------------------------------------------------------------

/// An element type name: `f32`, `bf16`, `f8e4m3fn`, `token`, `opaque`. Reads the whole
/// identifier, so `f32x` is an unknown type rather than `f32` followed by garbage.
struct element_type_parser : token<element_type_parser, primitive_type> {
    static constexpr char const* expected = "a primitive type such as f32";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        skip_before(first, last, ctx);
        auto is_alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
        if (first == last || !is_alpha(*first)) return false;
        Iterator p = first;
        while (p != last && (is_alpha(*p) || (*p >= '0' && *p <= '9') || *p == '_')) ++p;
        std::string_view const name(first, static_cast<std::size_t>(p - first));
        auto const type = primitive_type_from_string(name);
        if (!type || !(is_array_type(*type) || *type == primitive_type::token || *type == primitive_type::opaque)) {
            throw failure(first, "unknown primitive type '" + std::string(name.substr(0, 40)) + "'",
                          "a primitive type such as f32");
        }
        x3::traits::move_to(*type, attr);
        first = p;
        return true;
    }
};
inline constexpr element_type_parser element_type{};

// ---------------------------------------------------------------------------------------------
// Attributes the rules build: the model plus where each part was read, for error messages.
// ---------------------------------------------------------------------------------------------

/// Where the parts of one layout were read. Lists remember their first `max_items` entries;
/// a problem with a later entry points at the list's start.
struct layout_positions {
    static constexpr std::size_t max_items = 16;
    struct list {
        std::array<char const*, max_items> at;
        std::size_t count = 0;
        char const* start = nullptr;
        void record(char const* where) {
            if (count == 0) start = where;
            if (count < max_items) at[count] = where;
            ++count;
        }
        char const* get(std::size_t i, char const* fallback) const {
            return i < count && i < max_items ? at[i] : (start ? start : fallback);
        }
    };
    char const* open = nullptr;
    list minor_to_major, tiles, split_configs;
    char const* dim_level_types = nullptr;
    char const* tail_padding = nullptr;
    char const* index_type = nullptr;
    char const* pointer_type = nullptr;
    char const* element_size = nullptr;
    char const* memory_space = nullptr;
    char const* physical_shape = nullptr;
    char const* dynamic_prefix = nullptr;
};

template <class P>
struct layout_under_construction {
    basic_layout<P> layout;
    layout_positions at;
};

template <class P>
struct array_under_construction {
    basic_shape<P> shape;
    char const* start = nullptr;
    layout_positions::list dimensions;
    layout_positions layout_at;
};

/// Maps a validation problem to the text position of the part it names.
inline char const* position_of(shape_part part, std::size_t index, char const* start,
                               layout_positions::list const& dims, layout_positions const& l) {
    auto or_open = [&](char const* p) { return p ? p : (l.open ? l.open : start); };
    switch (part) {
        case shape_part::shape: return start;
        case shape_part::dimension: return dims.get(index, start);
        case shape_part::layout: return or_open(nullptr);
        case shape_part::minor_to_major: return l.minor_to_major.get(index, or_open(nullptr));
        case shape_part::dim_level_types: return or_open(l.dim_level_types);
        case shape_part::tile: return l.tiles.get(index, or_open(nullptr));
        case shape_part::tail_padding: return or_open(l.tail_padding);
        case shape_part::index_type: return or_open(l.index_type);
        case shape_part::pointer_type: return or_open(l.pointer_type);
        case shape_part::element_size: return or_open(l.element_size);
        case shape_part::memory_space: return or_open(l.memory_space);
        case shape_part::split_config: return l.split_configs.get(index, or_open(nullptr));
        case shape_part::physical_shape: return or_open(l.physical_shape);
        case shape_part::dynamic_prefix: return or_open(l.dynamic_prefix);
    }
    return start;
}

// ---------------------------------------------------------------------------------------------
// Rule declarations (one instantiation per policy)
// ---------------------------------------------------------------------------------------------

template <class P>
struct shape_rule_id;
template <class P>
struct array_rule_id;
template <class P>
struct layout_rule_id;

/// Any shape: tuple, buffer, token, opaque or array.
template <class P>
inline constexpr x3::rule<shape_rule_id<P>, basic_shape<P>> shape_rule{"a shape"};
/// An array (or token/opaque) with its optional layout.
template <class P>
inline constexpr x3::rule<array_rule_id<P>, array_under_construction<P>> array_rule{"an array shape"};
/// `{1,0:T(8,128)}`.
template <class P>
inline constexpr x3::rule<layout_rule_id<P>, layout_under_construction<P>> layout_rule{"a layout"};

// ---------------------------------------------------------------------------------------------
// Layout
// ---------------------------------------------------------------------------------------------

/// The `}` that closes a layout. A layout attribute letter here means the attributes are out of
/// order (`{1,0:S(1)T(8,128)}`) or repeated, which gets its own message.
struct layout_close_parser : token<layout_close_parser, x3::unused_type> {
    static constexpr char const* expected = "'}'";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute&) const {
        skip_before(first, last, ctx);
        if (first == last) return false;
        if (*first == '}') {
            ++first;
            return true;
        }
        std::string_view const letters = "DTL#*ESPM";
        if (letters.find(*first) != std::string_view::npos) {
            std::string const name = (*first == 'S' && last - first > 1 && first[1] == 'C') ? "SC" : std::string(1, *first);
            throw failure(first,
                          "layout attribute " + name +
                              " is out of order or repeated: attributes must appear in the order D T L # * E S SC P M",
                          "'}'");
        }
        return false;
    }
};
inline constexpr layout_close_parser layout_close{};

// Actions take (context, attribute, where): `where` is the first character of what matched,
// recorded so that validation errors can point at the part they are about.
namespace layout_actions {

template <class Context>
auto& layout(Context const& ctx) {
    return x3::_val(ctx).layout;
}
template <class Context>
auto& at(Context const& ctx) {
    return x3::_val(ctx).at;
}
template <class Context>
using int_type_of = typename std::decay_t<decltype(layout(std::declval<Context const&>()))>::int_type;

inline constexpr auto open = [](auto& ctx, auto&, char const* where) { at(ctx).open = where; };
inline constexpr auto minor_to_major = [](auto& ctx, std::int64_t v, char const* where) {
    at(ctx).minor_to_major.record(where);
    layout(ctx).minor_to_major.push_back(narrow_int<int_type_of<decltype(ctx)>>(v, where));
};
inline constexpr auto dim_levels_start = [](auto& ctx, auto&, char const* where) { at(ctx).dim_level_types = where; };
inline constexpr auto dim_level_letter = [](auto& ctx, char letter, char const*) {
    ::hlomem::dim_level d;
    switch (letter) {
        case 'C': d.type = dim_level_type::compressed; break;
        case 'S': d.type = dim_level_type::singleton; break;
        case 'H': d.type = dim_level_type::loose_compressed; break;
        default: d.type = dim_level_type::dense; break;
    }
    layout(ctx).dim_level_types.push_back(d);
};
inline constexpr auto not_unique = [](auto& ctx, auto&, char const*) { layout(ctx).dim_level_types.back().unique = false; };
inline constexpr auto not_ordered = [](auto& ctx, auto&, char const*) { layout(ctx).dim_level_types.back().ordered = false; };
inline constexpr auto tile_start = [](auto& ctx, auto&, char const* where) {
    at(ctx).tiles.record(where);
    layout(ctx).tiles.emplace_back();
};
inline constexpr auto tile_dimension = [](auto& ctx, std::int64_t v, char const* where) {
    using int_type = int_type_of<decltype(ctx)>;
    if (v == static_cast<std::int64_t>(std::numeric_limits<int_type>::min())) {
        throw failure(where, "tile dimension " + std::to_string(v) + " is out of range");
    }
    layout(ctx).tiles.back().dimensions.push_back(narrow_int<int_type>(v, where));
};
inline constexpr auto tile_combine = [](auto& ctx, auto&, char const*) {
    layout(ctx).tiles.back().dimensions.push_back(std::numeric_limits<int_type_of<decltype(ctx)>>::min());
};
inline constexpr auto tail_padding = [](auto& ctx, std::int64_t v, char const* where) {
    at(ctx).tail_padding = where;
    layout(ctx).tail_padding_alignment_in_elements = v;
};
inline constexpr auto index_type = [](auto& ctx, primitive_type t, char const* where) {
    at(ctx).index_type = where;
    layout(ctx).index_primitive_type = t;
};
inline constexpr auto pointer_type = [](auto& ctx, primitive_type t, char const* where) {
    at(ctx).pointer_type = where;
    layout(ctx).pointer_primitive_type = t;
};
inline constexpr auto element_size = [](auto& ctx, std::int64_t v, char const* where) {
    at(ctx).element_size = where;
    layout(ctx).element_size_in_bits = v;
};
inline constexpr auto memory_space = [](auto& ctx, std::int64_t v, char const* where) {
    at(ctx).memory_space = where;
    layout(ctx).memory_space = v;
};
inline constexpr auto split_start = [](auto& ctx, auto&, char const* where) {
    at(ctx).split_configs.record(where);
    layout(ctx).split_configs.emplace_back();
};
inline constexpr auto split_dimension = [](auto& ctx, std::int64_t v, char const*) {
    layout(ctx).split_configs.back().dimension = v;
};
inline constexpr auto split_index = [](auto& ctx, std::int64_t v, char const* where) {
    layout(ctx).split_configs.back().split_indices.push_back(narrow_int<int_type_of<decltype(ctx)>>(v, where));
};
inline constexpr auto physical_shape_start = [](auto& ctx, auto&, char const* where) { at(ctx).physical_shape = where; };
inline constexpr auto physical_shape = [](auto& ctx, auto& shape, char const*) {
    layout(ctx).physical_shape = std::move(shape);
};
inline constexpr auto dynamic_prefix = [](auto& ctx, std::int64_t v, char const* where) {
    at(ctx).dynamic_prefix = where;
    layout(ctx).dynamic_shape_metadata_prefix_bytes = v;
};

}  // namespace layout_actions

namespace layout_grammar {
namespace a = layout_actions;
using x3::lit;

// Attribute letters commit: after `T` a tile must follow. `S(` is tried before `SC`; the one-
// character backtrack between them happens before anything is committed.
inline auto const dim_level_entry = on_match(x3::char_("DCSH"), a::dim_level_letter) >>
                                    -on_match(lit('+'), a::not_unique) >> -on_match(lit('~'), a::not_ordered);
inline auto const dim_levels = on_match(lit('D'), a::dim_levels_start) > '(' >
                               -(dim_level_entry > *(',' > dim_level_entry)) > named("',' or ')'", lit(')'));
inline auto const tile_entry = on_match(int64_, a::tile_dimension) | on_match(lit('*'), a::tile_combine);
inline auto const tile = on_match(lit('('), a::tile_start) > -(tile_entry > *(',' > tile_entry)) >
                         named("',' or ')'", lit(')'));
inline auto const tiles = lit('T') > named("a tile such as (8,128)", tile) > *tile;
inline auto const tail_padding = lit('L') > '(' > on_match(int64_, a::tail_padding) > ')';
inline auto const index_type = lit('#') > '(' > on_match(element_type, a::index_type) > ')';
inline auto const pointer_type = lit('*') > '(' > on_match(element_type, a::pointer_type) > ')';
inline auto const element_size = lit('E') > '(' > on_match(int64_, a::element_size) > ')';
inline auto const memory_space = (lit('S') >> '(') > on_match(int64_, a::memory_space) > ')';
inline auto const split_index = on_match(int64_, a::split_index);
inline auto const split = on_match(lit('('), a::split_start) > on_match(int64_, a::split_dimension) > ':' >
                          -(split_index > *(',' > split_index)) > named("',' or ')'", lit(')'));
inline auto const splits = lit("SC") > named("a split config such as (0:512)", split) > *split;
inline auto const dynamic_prefix = lit('M') > '(' > on_match(int64_, a::dynamic_prefix) > ')';

}  // namespace layout_grammar

template <class P>
inline auto const layout_def = [] {
    namespace g = layout_grammar;
    namespace a = layout_actions;
    using x3::lit;
    auto const physical = on_match(lit('P'), a::physical_shape_start) > '(' > on_match(shape_rule<P>, a::physical_shape) > ')';
    auto const attributes = -g::dim_levels >> -g::tiles >> -g::tail_padding >> -g::index_type >> -g::pointer_type >>
                            -g::element_size >> -g::memory_space >> -g::splits >> -physical >> -g::dynamic_prefix;
    auto const m2m_entry = on_match(int64_, a::minor_to_major);
    return on_match(lit('{'), a::open) > -(m2m_entry > *(',' > m2m_entry)) > -(lit(':') > attributes) > layout_close;
}();

// ---------------------------------------------------------------------------------------------
// Arrays, tuples, buffers
// ---------------------------------------------------------------------------------------------

namespace shape_actions {

template <class Context>
using array_int_type = typename std::decay_t<decltype(x3::_val(std::declval<Context const&>()).shape)>::int_type;

inline constexpr auto array_start = [](auto& ctx, primitive_type t, char const* where) {
    x3::_val(ctx).start = where;
    x3::_val(ctx).shape.set_element_type(t);
};
inline constexpr auto static_dimension = [](auto& ctx, std::int64_t v, char const* where) {
    x3::_val(ctx).dimensions.record(where);
    x3::_val(ctx).shape.add_dimension(narrow_int<array_int_type<decltype(ctx)>>(v, where));
};
inline constexpr auto bounded_dimension = [](auto& ctx, std::int64_t v, char const* where) {
    x3::_val(ctx).dimensions.record(where);
    x3::_val(ctx).shape.add_dimension(narrow_int<array_int_type<decltype(ctx)>>(v, where), true);
};
inline constexpr auto unbounded_dimension = [](auto& ctx, auto&, char const* where) {
    x3::_val(ctx).dimensions.record(where);
    x3::_val(ctx).shape.add_dimension(std::numeric_limits<array_int_type<decltype(ctx)>>::min(), true);
};
inline constexpr auto attach_layout = [](auto& ctx, auto& layout, char const*) {
    x3::_val(ctx).shape.set_layout(std::move(layout.layout));
    x3::_val(ctx).layout_at = layout.at;
};
/// Validates a finished array and checks that its sizes fit in int64.
inline constexpr auto finish_array = [](auto& ctx, auto&, char const*) {
    auto& a = x3::_val(ctx);
    if (auto problem = validate_array(a.shape)) {
        throw failure(position_of(shape_part_of(*problem), problem->first, a.start, a.dimensions, a.layout_at), problem->message);
    }
    if (!a.shape.is_array()) return;
    bool const unbounded = std::any_of(a.shape.dimensions().begin(), a.shape.dimensions().end(),
                                       [](auto d) { return ::hlomem::detail::is_unbounded_extent(d); });
    if (unbounded) return;
    char const* what = nullptr;
    if (!::hlomem::detail::array_element_count(a.shape).ok()) {
        what = "element count";
    } else if (!::hlomem::detail::array_byte_size_of(a.shape).ok()) {
        what = "byte size";
    } else if (!::hlomem::detail::array_padded_size(a.shape).ok()) {
        what = "padded byte size";
    }
    if (what) throw failure(a.start, std::string("the ") + what + " of this array overflows int64");
};
inline constexpr auto take_array = [](auto& ctx, auto& array, char const*) { x3::_val(ctx) = std::move(array.shape); };
inline constexpr auto tuple_open = [](auto& ctx, auto&, char const* where) {
    enter_nesting(ctx, where);
    x3::_val(ctx).set_element_type(primitive_type::tuple);
};
inline constexpr auto tuple_element = [](auto& ctx, auto& element, char const*) {
    x3::_val(ctx).mutable_tuple_shapes().push_back(std::move(element));
};
inline constexpr auto close_nesting = [](auto& ctx, auto&, char const*) { leave_nesting(ctx); };
inline constexpr auto buffer_open = [](auto& ctx, auto&, char const* where) {
    enter_nesting(ctx, where);
    x3::_val(ctx).set_element_type(primitive_type::buffer);
};
inline constexpr auto buffer_element = [](auto& ctx, auto& element, char const* where) {
    if (!element.is_array()) throw failure(where, "a buffer shape b(...) must hold an array shape");
    x3::_val(ctx).mutable_tuple_shapes().push_back(std::move(element));
};

}  // namespace shape_actions

template <class P>
inline auto const array_def = [] {
    namespace a = shape_actions;
    using x3::lit;
    auto const dimension = (lit("<=") > on_match(uint64_, a::bounded_dimension)) |
                           on_match(lit('?'), a::unbounded_dimension) | on_match(uint64_, a::static_dimension);
    auto const dimensions =
        lit(']') | (named("a dimension size", dimension) > *(',' > named("a dimension size", dimension)) >
                    named("',' or ']'", lit(']')));
    // XLA reads `{` as a layout only when an integer or ':' follows; otherwise the brace belongs to
    // the surrounding text (a computation body after `-> f32[] {`).
    auto const layout = &(lit('{') >> (x3::char_('0', '9') | ':')) >> on_match(layout_rule<P>, a::attach_layout);
    return on_match(element_type, a::array_start) > '[' > named("a dimension size or ']'", dimensions) > -layout >
           on_match(x3::eps, a::finish_array);
}();

template <class P>
inline auto const shape_def = [] {
    namespace a = shape_actions;
    using x3::lit;
    auto const element = on_match(shape_rule<P>, a::tuple_element);
    auto const tuple = on_match(lit('('), a::tuple_open) > -(element > *(',' > element)) >
                       on_match(named("',' or ')'", lit(')')), a::close_nesting);
    auto const buffer = on_match(lit('b') >> '(', a::buffer_open) > on_match(shape_rule<P>, a::buffer_element) >
                        on_match(lit(')'), a::close_nesting);
    return tuple | buffer | on_match(array_rule<P>, a::take_array);
}();

// X3's BOOST_SPIRIT_DEFINE cannot define rules that are templates, so the three parse_rule
// functions it would generate are written out; ADL finds them through the rule-id types.
template <class P, class Iterator, class Context>
inline bool parse_rule(x3::rule<shape_rule_id<P>, basic_shape<P>>, Iterator& first, Iterator const& last,
                       Context const& ctx, basic_shape<P>& attr) {
    static auto const def = (shape_rule<P> = shape_def<P>);
    return def.parse(first, last, ctx, x3::unused, attr);
}
template <class P, class Iterator, class Context>
inline bool parse_rule(x3::rule<array_rule_id<P>, array_under_construction<P>>, Iterator& first,
                       Iterator const& last, Context const& ctx, array_under_construction<P>& attr) {
    static auto const def = (array_rule<P> = array_def<P>);
    return def.parse(first, last, ctx, x3::unused, attr);
}
template <class P, class Iterator, class Context>
inline bool parse_rule(x3::rule<layout_rule_id<P>, layout_under_construction<P>>, Iterator& first,
                       Iterator const& last, Context const& ctx, layout_under_construction<P>& attr) {
    static auto const def = (layout_rule<P> = layout_def<P>);
    return def.parse(first, last, ctx, x3::unused, attr);
}

// ---------------------------------------------------------------------------------------------
// Shape index: `{}`, `{1}`, `{1,0}`
// ---------------------------------------------------------------------------------------------

namespace shape_index_actions {
inline constexpr auto push = [](auto& ctx, std::int64_t v, char const* where) {
    using index_type = std::decay_t<decltype(x3::_val(ctx))>;
    x3::_val(ctx).push_back(narrow_int<typename index_type::int_type>(v, where));
};
}  // namespace shape_index_actions

template <class P>
struct shape_index_rule_id;
template <class P>
inline constexpr x3::rule<shape_index_rule_id<P>, basic_shape_index<P>> shape_index_rule{"a shape index such as {1,0}"};
template <class P>
inline auto const shape_index_def = [] {
    auto const entry = on_match(uint64_, shape_index_actions::push);
    return x3::lit('{') > -(entry > *(',' > entry)) > named("',' or '}'", x3::lit('}'));
}();
template <class P, class Iterator, class Context>
inline bool parse_rule(x3::rule<shape_index_rule_id<P>, basic_shape_index<P>>, Iterator& first, Iterator const& last,
                       Context const& ctx, basic_shape_index<P>& attr) {
    static auto const def = (shape_index_rule<P> = shape_index_def<P>);
    return def.parse(first, last, ctx, x3::unused, attr);
}

// ---------------------------------------------------------------------------------------------
// Entry points
// ---------------------------------------------------------------------------------------------

namespace detail {

/// Parses `Rule` over the whole of `text` (blanks and comments around it allowed).
template <class Attribute, class Rule>
parse_result<Attribute> parse_whole(std::string_view text, std::string_view file, Rule const& rule) {
    char const* const begin = text.data();
    char const* const end = begin + text.size();
    return run_parse<Attribute>(file, begin, end, [&] {
        Attribute result;
        parse_state state;
        char const* first = begin;
        x3::phrase_parse(first, end, x3::with<state_tag>(state)[x3::eps > rule > end_of_input], skipper, result);
        return result;
    });
}

}  // namespace detail

// The entry points, declared with their default arguments and documentation in parser/api.hpp.

template <class P>
parse_result<basic_shape<P>> try_parse_shape(std::string_view text, std::string_view file) {
    return detail::parse_whole<basic_shape<P>>(text, file, shape_rule<P>);
}

template <class P>
parse_result<basic_layout<P>> try_parse_layout(std::string_view text, std::string_view file) {
    auto r = detail::parse_whole<layout_under_construction<P>>(text, file, layout_rule<P>);
    if (!r) return parse_result<basic_layout<P>>(r.error());
    return parse_result<basic_layout<P>>(std::move(r->layout));
}

template <class P>
parse_result<basic_shape_index<P>> try_parse_shape_index(std::string_view text, std::string_view file) {
    return detail::parse_whole<basic_shape_index<P>>(text, file, shape_index_rule<P>);
}

template <class P>
basic_shape<P> parse_shape_prefix(char const*& first, char const* last, std::string_view file, char const* text_begin) {
    char const* const begin = text_begin ? text_begin : first;
    char const* p = first;
    auto r = run_parse<basic_shape<P>>(file, begin, last, [&] {
        basic_shape<P> result;
        parse_state state;
        x3::phrase_parse(p, last, x3::with<state_tag>(state)[x3::eps > shape_rule<P>], skipper, result,
                         x3::skip_flag::dont_post_skip);
        return result;
    });
    first = p;
    return std::move(r.value());
}

// ---------------------------------------------------------------------------------------------
// Shapes read into a model's shape table
// ---------------------------------------------------------------------------------------------

/// Whether a shape must stand where table_shape_parser reads: `required` in dump lines (whatever
/// is there up to the line end is read as a shape, and the shape grammar says what is wrong with
/// it), `optional` where the text may go on without one (an HLO operand: text that does not start
/// with '(' or a letter is no match).
enum class shape_presence : bool { required, optional };

/// A shape read into the shape table of the model being built (intern_shape); the attribute is
/// its shape_id. The builder is found in the X3 context under `BuilderTag` (context_object) and
/// gives `shapes()`, `file()` and `text_begin()`.
template <class BuilderTag, shape_presence Presence = shape_presence::required>
struct table_shape_parser : token<table_shape_parser<BuilderTag, Presence>, shape_id> {
    static constexpr char const* expected = "a shape";

    template <class Iterator, class Context, class RContext, class Attribute>
    bool parse(Iterator& first, Iterator const& last, Context const& ctx, RContext&, Attribute& attr) const {
        skip_before(first, last, ctx);
        if (first == last || *first == '\n' || *first == '\r') return false;
        if constexpr (Presence == shape_presence::optional) {
            if (!(*first == '(' || ::hlomem::detail::is_identifier_start(*first))) return false;
        }
        auto& b = context_object<BuilderTag>(ctx);
        x3::traits::move_to(intern_shape(b.shapes(), first, last, b.file(), b.text_begin()), attr);
        return true;
    }
};

}  // namespace hlomem::parser



#endif  // HLOMEM_PARSER_SHAPE_HPP
