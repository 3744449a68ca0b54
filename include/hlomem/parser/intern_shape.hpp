// hlomem/parser/intern_shape.hpp: reads a shape embedded in other text into a shape table, each
// distinct text parsed once. Every grammar that reads many shapes (dumps, HLO modules) calls it;
// it needs no Spirit, so a program built with HLOMEM_SEPARATE_COMPILATION may call it too.
//
//   char const* p = text.data();
//   shape_id id = intern_shape(table, p, text.data() + text.size(), "m.txt", text.data());
//   // "f32[8]{0} parameter(0)": p now points at " parameter(0)"
#ifndef HLOMEM_PARSER_INTERN_SHAPE_HPP
#define HLOMEM_PARSER_INTERN_SHAPE_HPP

#include <cstddef>
#include <string_view>
#include <utility>

#include <hlomem/core/shape.hpp>
#include <hlomem/core/shape_table.hpp>
#include <hlomem/detail/scan.hpp>
#include <hlomem/parser/api.hpp>

namespace hlomem::parser {

/// Reads the shape at `first` into `table` and returns its id, leaving `first` after the shape.
/// A text seen before costs a scan (detail::scan_shape_end) and a hash lookup; a new one is parsed
/// (and validated) by the grammar. Errors are reported against the whole input [text_begin, last)
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
    basic_shape<P> shape = parse_shape_prefix<P>(first, last, file, text_begin);
    return table.insert(std::string_view(start, static_cast<std::size_t>(first - start)), std::move(shape));
}

}  // namespace hlomem::parser

namespace hlomem {
using detail::scan_shape_end;
using parser::intern_shape;
}  // namespace hlomem

#endif  // HLOMEM_PARSER_INTERN_SHAPE_HPP
