// hlomem/core/error.hpp: the errors hlomem reports, and `parse_result`, the non-throwing alternative
// (a `result`, core/result.hpp).
//
// A parse error always says where (file, 1-based line, 1-based byte column), what was expected
// and shows the offending line with a caret under the column, in the style of a compiler:
//
//   dump.txt:12:9: error: expected ']'
//   f32[8,128{1,0}
//           ^
//
// This header does not include Spirit: the model and the tools that only report errors can use
// it without paying for the parsers.
#ifndef HLOMEM_CORE_ERROR_HPP
#define HLOMEM_CORE_ERROR_HPP

#include <cstddef>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include <hlomem/core/result.hpp>

namespace hlomem {

/// The base of every exception hlomem throws.
class error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A shape operation that has no answer: the byte size of an unbounded (`?`) dimension, a size
/// that overflows int64, an index outside the shape.
class shape_error : public error {
public:
    using error::error;
};

/// Where and why a parse failed.
struct parse_error_info {
    std::string file;         ///< as the caller named the input: "dump.txt", "<shape>"
    std::size_t line = 0;     ///< 1-based
    std::size_t column = 0;   ///< 1-based, counted in bytes from the start of the line
    std::string expected;     ///< what the grammar expected ("']'"); empty for other errors
    std::string message;      ///< "expected ']'", "unknown primitive type 'x32'"
    std::string source_line;  ///< the offending line, without its line ending (shortened if huge)
    std::size_t caret = 0;    ///< 0-based position of the caret within source_line

    /// The full report: "file:line:column: error: message", the line, and a caret under the column.
    std::string to_string() const {
        std::string out = file + ":" + std::to_string(line) + ":" + std::to_string(column) +
                          ": error: " + message + "\n" + source_line + "\n";
        // Keep tabs so that the caret lines up under the column however tabs are displayed.
        for (std::size_t i = 0; i < caret && i < source_line.size(); ++i) {
            out += source_line[i] == '\t' ? '\t' : ' ';
        }
        out += "^";
        return out;
    }

    friend bool operator==(parse_error_info const& a, parse_error_info const& b) {
        return a.file == b.file && a.line == b.line && a.column == b.column &&
               a.expected == b.expected && a.message == b.message && a.source_line == b.source_line;
    }
};

inline std::ostream& operator<<(std::ostream& os, parse_error_info const& e) { return os << e.to_string(); }

/// Thrown by the throwing parse entry points; `what()` is `info().to_string()`.
class parse_error : public error {
public:
    explicit parse_error(parse_error_info info) : error(info.to_string()), info_(std::move(info)) {}

    parse_error_info const& info() const noexcept { return info_; }
    std::string const& file() const noexcept { return info_.file; }
    std::size_t line() const noexcept { return info_.line; }
    std::size_t column() const noexcept { return info_.column; }
    std::string const& expected() const noexcept { return info_.expected; }
    std::string const& message() const noexcept { return info_.message; }
    std::string const& source_line() const noexcept { return info_.source_line; }

private:
    parse_error_info info_;
};

namespace detail {

/// Longest source line an error message quotes; longer lines are cut to a window around the
/// error so that a 100 MB single-line input does not produce a 100 MB message.
inline constexpr std::size_t max_quoted_line = 160;

/// Builds the report for an error at `where` in [begin, end): counts lines, cuts the line to a
/// readable window and replaces control bytes so that binary garbage prints safely.
inline parse_error_info make_parse_error(std::string_view file, char const* begin, char const* end,
                                         char const* where, std::string message,
                                         std::string expected = {}) {
    if (where < begin) where = begin;
    if (where > end) where = end;
    parse_error_info info;
    info.file = std::string(file);
    info.message = std::move(message);
    info.expected = std::move(expected);
    std::size_t line = 1;
    char const* line_start = begin;
    for (char const* p = begin; p < where; ++p) {
        if (*p == '\n') {
            ++line;
            line_start = p + 1;
        }
    }
    char const* line_end = where;
    while (line_end < end && *line_end != '\n') ++line_end;
    if (line_end > line_start && line_end[-1] == '\r') --line_end;
    info.line = line;
    info.column = static_cast<std::size_t>(where - line_start) + 1;

    char const* from = line_start;
    char const* to = line_end < where ? where : line_end;
    std::string prefix, suffix;
    if (to - from > static_cast<std::ptrdiff_t>(max_quoted_line)) {
        std::ptrdiff_t const half = static_cast<std::ptrdiff_t>(max_quoted_line / 2);
        if (where - from > half) {
            from = where - half;
            prefix = "...";
        }
        if (to - from > static_cast<std::ptrdiff_t>(max_quoted_line)) {
            to = from + static_cast<std::ptrdiff_t>(max_quoted_line);
            suffix = "...";
        }
    }
    info.source_line = prefix;
    for (char const* p = from; p < to; ++p) {
        unsigned char const c = static_cast<unsigned char>(*p);
        info.source_line += (c < 0x20 && c != '\t') || c == 0x7f ? '?' : *p;
    }
    info.source_line += suffix;
    info.caret = prefix.size() + static_cast<std::size_t>(where - from);
    return info;
}

}  // namespace detail

/// Throws the exception of a parse error: what `result<T, parse_error_info>` throws when its
/// value is asked for (core/result.hpp finds it by argument-dependent lookup).
[[noreturn]] inline void throw_error(parse_error_info const& info) { throw parse_error(info); }

/// The result of a non-throwing parse: a value, or the error that stopped the parse. *r and
/// r.value() throw parse_error on an error.
///
///   auto r = hlomem::try_parse_shape("f32[8,128]{1,0}");
///   if (!r) std::cerr << r.error() << '\n';
///   else use(*r);
template <class T>
using parse_result = result<T, parse_error_info>;

}  // namespace hlomem

#endif  // HLOMEM_CORE_ERROR_HPP
