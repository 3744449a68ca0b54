// hlomem/parser/intern_shape.hpp: reads a shape embedded in other text into a shape table, each
// distinct text parsed once. Every grammar that reads many shapes (dumps, HLO modules) calls it;
// it needs no Spirit, so a program built with HLOMEM_SEPARATE_COMPILATION may call it too.
//
//   char const* p = text.data();
//   shape_id id = intern_shape(table, p, text.data() + text.size(), "m.txt", text.data());
//   // "f32[8]{0} parameter(0)": p now points at " parameter(0)"
#ifndef HLOMEM_PARSER_INTERN_SHAPE_HPP
#define HLOMEM_PARSER_INTERN_SHAPE_HPP

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <utility>

#include <hlomem/core/primitive_type.hpp>
#include <hlomem/core/shape.hpp>
#include <hlomem/core/shape_size.hpp>
#include <hlomem/core/shape_table.hpp>
#include <hlomem/core/shape_validate.hpp>
#include <hlomem/detail/scan.hpp>
#include <hlomem/parser/api.hpp>

namespace hlomem::parser {

namespace plain_shape {

/// The most nested tuples the plain reader follows; deeper ones go to the grammar.
inline constexpr int max_depth = 16;

/// Digits at `p` as a value of `Int`, `p` left after them; false (p unspecified) when there are
/// none, more than 18 (which could overflow int64: the grammar says so), a leading zero, or the
/// value does not fit.
template <class Int>
bool read_count(char const*& p, char const* end, Int& out) {
    char const* const start = p;
    std::int64_t v = 0;
    while (p != end && ::hlomem::detail::is_digit(*p) && p - start < 18) v = v * 10 + (*p++ - '0');
    if (p == start || (p != end && ::hlomem::detail::is_digit(*p))) return false;
    if (*start == '0' && p - start > 1) return false;  // `007`: not as to_string prints it
    if (v > static_cast<std::int64_t>(std::numeric_limits<Int>::max())) return false;
    out = static_cast<Int>(v);
    return true;
}

/// The array [first, end) in its plain form, `f32[8,128]{1,0}` or `s32[]` (no blanks, no
/// comments, no leading zeros, no dynamic dimensions, a layout of dimension numbers only), as the
/// shape grammar (parser/shape.hpp: array_def, finish_array) builds it. False for anything else,
/// a shape that is not valid or whose sizes overflow included: the grammar then reads the text
/// and reports what is wrong where. Most of the shapes in dumps and modules take this form, and
/// the grammar (its rules, the positions it records for messages) cost some 4,000 instructions
/// per array. A text read here is the shape's canonical text (to_string prints it back).
template <class P>
bool read_array(char const* p, char const* end, basic_shape<P>& shape) {
    using int_type = typename basic_shape<P>::int_type;
    char const* const type_start = p;
    while (p != end && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || ::hlomem::detail::is_digit(*p) || *p == '_')) ++p;
    auto const type = primitive_type_from_string(std::string_view(type_start, static_cast<std::size_t>(p - type_start)));
    if (!type || !is_array_type(*type) || p == end || *p != '[') return false;
    shape.set_element_type(*type);
    ++p;
    // The rank, from the commas before ']', sizes the dimensions and the layout at once: growing
    // them one push_back at a time cost a module parse three allocations per new 4-d shape. The
    // plain form holds only digits and commas there (`[8,128]`); anything else is the grammar's.
    char const* close = p;
    while (close != end && (::hlomem::detail::is_digit(*close) || *close == ',')) ++close;
    if (close == end || *close != ']') return false;
    auto const rank = close == p ? std::size_t{0} : 1 + static_cast<std::size_t>(std::count(p, close, ','));
    shape.mutable_dimensions().reserve(rank);
    if (p != end && *p != ']') {
        for (;;) {
            int_type extent = 0;
            if (!read_count(p, end, extent)) return false;
            shape.add_dimension(extent);
            if (p != end && *p == ',') {
                ++p;
                continue;
            }
            break;
        }
    }
    if (p == end || *p != ']') return false;
    ++p;
    if (p != end) {
        if (*p != '{' || end - p < 2 || !::hlomem::detail::is_digit(p[1])) return false;
        basic_layout<P> layout;
        layout.minor_to_major.reserve(rank);
        ++p;
        for (;;) {
            int_type dimension = 0;
            if (!read_count(p, end, dimension)) return false;
            layout.minor_to_major.push_back(dimension);
            if (p != end && *p == ',') {
                ++p;
                continue;
            }
            break;
        }
        if (p == end || *p != '}' || p + 1 != end) return false;
        shape.set_layout(std::move(layout));
    }
    if (validate_array(shape)) return false;
    return ::hlomem::detail::array_element_count(shape).ok() && ::hlomem::detail::array_byte_size_of(shape).ok() &&
           ::hlomem::detail::array_padded_size(shape).ok();
}

/// The shape [first, end): a plain array (read_array) or a tuple of plain shapes, whose elements
/// may be separated by blanks and comments (`/*index=5*/`). An element whose text `table` holds
/// is copied from it: a tuple mostly repeats shapes read before. False where the grammar must
/// read the text.
template <class P>
bool read(basic_shape_table<P> const& table, char const* first, char const* end, basic_shape<P>& shape, int depth) {
    if (first == end) return false;
    if (*first != '(') return read_array(first, end, shape);
    if (depth == max_depth) return false;
    shape.set_element_type(primitive_type::tuple);
    char const* p = ::hlomem::detail::skip_space_and_comments(first + 1, end);
    if (p != end && *p == ')') return p + 1 == end;
    for (;;) {
        char const* const element_end = ::hlomem::detail::scan_shape_end(p, end);
        if (element_end == p) return false;
        std::string_view const text(p, static_cast<std::size_t>(element_end - p));
        if (auto id = table.find(text)) {
            shape.mutable_tuple_shapes().push_back(table[*id]);
        } else {
            basic_shape<P> element;
            if (!read(table, p, element_end, element, depth + 1)) return false;
            shape.mutable_tuple_shapes().push_back(std::move(element));
        }
        p = ::hlomem::detail::skip_space_and_comments(element_end, end);
        if (p == end) return false;
        if (*p == ')') return p + 1 == end;
        if (*p != ',') return false;
        p = ::hlomem::detail::skip_space_and_comments(p + 1, end);
    }
}

}  // namespace plain_shape

/// Reads the shape at `first` into `table` and returns its id, leaving `first` after the shape.
/// A text seen before costs a scan (detail::scan_shape_end) and a hash lookup; a new one in the
/// plain form is read by plain_shape::read, any other by the grammar (which validates it and
/// reports its errors). Errors are reported against the whole input [text_begin, last)
/// named `file`.
template <class P>
shape_id intern_shape(basic_shape_table<P>& table, char const*& first, char const* last, std::string_view file,
                      char const* text_begin) {
    char const* const end = ::hlomem::detail::scan_shape_end(first, last);
    if (auto id = table.find(std::string_view(first, static_cast<std::size_t>(end - first)))) {
        first = end;
        return *id;
    }
    char const* const start = first;
    basic_shape<P> shape;
    bool const tuple = start != end && *start == '(';
    if (!tuple && plain_shape::read_array(start, end, shape)) {
        first = end;
        return table.insert_canonical(std::string_view(start, static_cast<std::size_t>(end - start)), std::move(shape));
    }
    if (tuple && plain_shape::read(table, start, end, shape, 0)) {
        first = end;
    } else {
        shape = parse_shape_prefix<P>(first, last, file, text_begin);
    }
    return table.insert(std::string_view(start, static_cast<std::size_t>(first - start)), std::move(shape));
}

}  // namespace hlomem::parser

namespace hlomem {
using hlomem::detail::scan_shape_end;
using parser::intern_shape;
}  // namespace hlomem

#endif  // HLOMEM_PARSER_INTERN_SHAPE_HPP
