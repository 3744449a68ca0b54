// hlomem/parser/api.hpp: every parser entry point, declared without its grammar.
//
// The grammars (parser/shape.hpp, parser/buffer_assignment.hpp, parser/hlo_module.hpp,
// parser/oom_report.hpp, parser/minimalloc_csv.hpp) define these functions; this header declares them, with their default
// arguments and documentation, and includes no Spirit. It is what <hlomem/parser.hpp> gives a
// program built with HLOMEM_SEPARATE_COMPILATION: the parsers are then compiled once, in one
// place, instead of in every translation unit that reads a dump.
//
// Separate compilation, for programs with many translation units (Spirit X3 grammars take tens
// of seconds to instantiate):
//   - with CMake and add_subdirectory(hlomem): link `hlomem::parsers` instead of `hlomem::hlomem`;
//   - with find_package(hlomem): `hlomem_add_parsers_library(my_parsers)` and link `my_parsers`;
//   - by hand: define HLOMEM_SEPARATE_COMPILATION everywhere and compile one .cpp that includes
//     <hlomem/parser/instantiate.hpp>.
// Every entry point is then instantiated for default_policy and view_policy in that one place
// (`extern template` below stops every other translation unit from doing it again). A program
// with a policy of its own includes the grammar header it needs, which instantiates the
// entry points for that policy where they are used.
//
// Without HLOMEM_SEPARATE_COMPILATION, <hlomem/parser.hpp> includes the grammars as well, and
// every translation unit instantiates what it uses: header-only, nothing to link.
#ifndef HLOMEM_PARSER_API_HPP
#define HLOMEM_PARSER_API_HPP

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/placement/problem.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/core/error.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/core/layout.hpp>
#include <hlomem/dump/live_range.hpp>
#include <hlomem/dump/memory_usage_report.hpp>
#include <hlomem/dump/oom_report.hpp>
#include <hlomem/core/policy.hpp>
#include <hlomem/core/shape.hpp>
#include <hlomem/core/shape_table.hpp>

namespace hlomem::parser {

// ---------------------------------------------------------------------------------------------
// Shapes, layouts, shape indices (grammar: parser/shape.hpp)
// ---------------------------------------------------------------------------------------------

/// Parses one shape: `try_parse_shape("bf16[4096,3584]{1,0:T(8,128)(2,1)}")`. Never throws a
/// parse_error; a failure comes back in the result. `file` names the input in messages.
template <class P = default_policy>
parse_result<basic_shape<P>> try_parse_shape(std::string_view text, std::string_view file = "<shape>");

/// Parses one shape; throws hlomem::parse_error with file, line, column and the offending line.
template <class P = default_policy>
basic_shape<P> parse_shape(std::string_view text, std::string_view file = "<shape>") {
    return std::move(try_parse_shape<P>(text, file).value());
}

/// Parses a layout on its own, `{1,0:T(8,128)}`. Without a shape only what does not depend on
/// the rank is checked (tile entries, attribute order, integer ranges).
template <class P = default_policy>
parse_result<basic_layout<P>> try_parse_layout(std::string_view text, std::string_view file = "<layout>");

template <class P = default_policy>
basic_layout<P> parse_layout(std::string_view text, std::string_view file = "<layout>") {
    return std::move(try_parse_layout<P>(text, file).value());
}

/// Parses `{}`, `{1}`, `{1,0}`.
template <class P = default_policy>
parse_result<basic_shape_index<P>> try_parse_shape_index(std::string_view text, std::string_view file = "<shape index>");

template <class P = default_policy>
basic_shape_index<P> parse_shape_index(std::string_view text, std::string_view file = "<shape index>") {
    return std::move(try_parse_shape_index<P>(text, file).value());
}

/// Parses the shape that starts at `first` (after blanks) and stops right after it, leaving
/// `first` there: for reading shapes embedded in other text. Errors are reported against the
/// text from `text_begin` (default: `first`) to `last`. Throws parse_error.
template <class P = default_policy>
basic_shape<P> parse_shape_prefix(char const*& first, char const* last, std::string_view file = "<shape>",
                                  char const* text_begin = nullptr);

namespace impl {

/// Skips blanks, line ends and /* */ or // comments, as the skipper does.
inline char const* skip_blanks(char const* p, char const* last) {
    while (p < last) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
            ++p;
        } else if (*p == '/' && last - p >= 2 && p[1] == '*') {
            char const* q = p + 2;
            while (last - q >= 2 && !(q[0] == '*' && q[1] == '/')) ++q;
            if (last - q < 2) return last;
            p = q + 2;
        } else if (*p == '/' && last - p >= 2 && p[1] == '/') {
            while (p < last && *p != '\n') ++p;
        } else {
            break;
        }
    }
    return p;
}

/// What skip_balanced looks for in each byte: brackets and the '/' that may open a comment.
enum bracket_class : std::uint8_t { not_bracket, opening, closing, slash };
struct bracket_classes {
    std::uint8_t of[256];
};
constexpr bracket_classes make_bracket_classes() {
    bracket_classes t{};
    t.of[static_cast<unsigned char>('(')] = t.of[static_cast<unsigned char>('[')] = t.of[static_cast<unsigned char>('{')] = opening;
    t.of[static_cast<unsigned char>(')')] = t.of[static_cast<unsigned char>(']')] = t.of[static_cast<unsigned char>('}')] = closing;
    t.of[static_cast<unsigned char>('/')] = slash;
    return t;
}
inline constexpr bracket_classes bracket_class = make_bracket_classes();

/// From an opening bracket at `p`, the position after its matching close; brackets of all three
/// kinds nest, comments are skipped. `last` when unbalanced. Every shape a dump line holds is
/// scanned this way before its table lookup, so one table load per byte decides.
inline char const* skip_balanced(char const* p, char const* last) {
    int depth = 0;
    while (p < last) {
        std::uint8_t const k = bracket_class.of[static_cast<unsigned char>(*p)];
        if (k == not_bracket) {
            ++p;
            continue;
        }
        if (k == slash) {
            if (last - p >= 2 && (p[1] == '*' || p[1] == '/')) {
                p = skip_blanks(p, last);
                continue;
            }
        } else if (k == opening) {
            ++depth;
        } else if (--depth == 0) {
            return p + 1;
        }
        ++p;
    }
    return last;
}

}  // namespace impl

/// Where the shape text starting at `first` ends, by the same rules as the grammar (a `{` after
/// the dimensions is a layout only when an integer or ':' follows), without building anything.
/// For malformed text the result is only a guess; the parser then reports the error.
///   scan_shape_end on "f32[8]{0} parameter(0)" stops after "{0}"
inline char const* scan_shape_end(char const* first, char const* last) {
    char const* p = first;
    if (p == last) return p;
    if (*p == '(') return impl::skip_balanced(p, last);
    char const* q = p;
    while (q < last && ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9') || *q == '_')) ++q;
    if (q == p) return p;
    q = impl::skip_blanks(q, last);
    if (q < last && *q == '(') return impl::skip_balanced(q, last);  // b(...)
    if (q == last || *q != '[') return q;
    char const* end = impl::skip_balanced(q, last);
    char const* brace = impl::skip_blanks(end, last);
    if (brace < last && *brace == '{') {
        char const* next = impl::skip_blanks(brace + 1, last);
        if (next < last && ((*next >= '0' && *next <= '9') || *next == ':')) end = impl::skip_balanced(brace, last);
    }
    return end;
}

/// Reads the shape at `first` into `table` and returns its id, leaving `first` after the shape.
/// A text seen before costs a scan and a hash lookup; a new one is parsed (and validated) by the
/// grammar. Errors are reported against the whole input [text_begin, last) named `file`.
template <class P>
shape_id intern_shape(basic_shape_table<P>& table, char const*& first, char const* last, std::string_view file,
                      char const* text_begin) {
    char const* const end = scan_shape_end(first, last);
    if (auto id = table.find(std::string_view(first, static_cast<std::size_t>(end - first)))) {
        first = end;
        return *id;
    }
    char const* const start = first;
    basic_shape<P> shape = parse_shape_prefix<P>(first, last, file, text_begin);
    return table.insert(std::string_view(start, static_cast<std::size_t>(first - start)), std::move(shape));
}

// ---------------------------------------------------------------------------------------------
// BufferAssignment dumps, live ranges, memory-usage reports (grammar: parser/buffer_assignment.hpp)
// ---------------------------------------------------------------------------------------------

/// Reads a `*-buffer-assignment.txt` dump (with or without its live ranges appended). With the
/// view policy, names are views into `text`, which must outlive the result.
template <class P = default_policy>
parse_result<basic_buffer_assignment<P>> try_parse_buffer_assignment(std::string_view text,
                                                                      std::string_view file = "<buffer assignment>");

template <class P = default_policy>
basic_buffer_assignment<P> parse_buffer_assignment(std::string_view text, std::string_view file = "<buffer assignment>") {
    return std::move(try_parse_buffer_assignment<P>(text, file).value());
}

/// Reads a separate `*-live-range.txt`; attach it to its dump with attach_live_range.
template <class P = default_policy>
parse_result<basic_hlo_live_range<P>> try_parse_live_range(std::string_view text, std::string_view file = "<live range>");

template <class P = default_policy>
basic_hlo_live_range<P> parse_live_range(std::string_view text, std::string_view file = "<live range>") {
    return std::move(try_parse_live_range<P>(text, file).value());
}

/// Reads the older text `*-memory-usage-report.txt`.
template <class P = default_policy>
parse_result<basic_memory_usage_report<P>> try_parse_memory_usage_report(std::string_view text,
                                                                          std::string_view file = "<memory usage report>");

template <class P = default_policy>
basic_memory_usage_report<P> parse_memory_usage_report(std::string_view text,
                                                       std::string_view file = "<memory usage report>") {
    return std::move(try_parse_memory_usage_report<P>(text, file).value());
}

// ---------------------------------------------------------------------------------------------
// HLO modules (grammar: parser/hlo_module.hpp)
// ---------------------------------------------------------------------------------------------

/// Parses every module of `text` (a dump may hold several, one after the other). Never throws a
/// parse_error; a failure comes back in the result. `file` names the input in messages. With
/// view_policy the modules keep views into `text`, which must outlive them.
template <class P = default_policy>
parse_result<std::vector<basic_hlo_module<P>>> try_parse_hlo_modules(std::string_view text,
                                                                     std::string_view file = "<hlo>");

/// Parses every module of `text`; throws hlomem::parse_error.
template <class P = default_policy>
std::vector<basic_hlo_module<P>> parse_hlo_modules(std::string_view text, std::string_view file = "<hlo>") {
    return std::move(try_parse_hlo_modules<P>(text, file).value());
}

/// Parses a text that holds exactly one module: `try_parse_hlo_module(text, "module.txt")`.
template <class P = default_policy>
parse_result<basic_hlo_module<P>> try_parse_hlo_module(std::string_view text, std::string_view file = "<hlo>");

/// Parses a text that holds exactly one module; throws hlomem::parse_error.
template <class P = default_policy>
basic_hlo_module<P> parse_hlo_module(std::string_view text, std::string_view file = "<hlo>") {
    return std::move(try_parse_hlo_module<P>(text, file).value());
}

// ---------------------------------------------------------------------------------------------
// Out-of-memory reports in logs (grammar: parser/oom_report.hpp)
// ---------------------------------------------------------------------------------------------

/// Finds and reads every out-of-memory report in `text` (a log, an issue, a report alone).
/// Never throws a parse_error: damage inside a report comes back as the error, with `file`, line
/// and column. A text without any report reads as an empty log. With the view policy, strings
/// are views into `text`, which must outlive the result.
template <class P = default_policy>
parse_result<basic_oom_log<P>> try_parse_oom_reports(std::string_view text, std::string_view file = "<oom report>");

/// The same; throws hlomem::parse_error.
template <class P = default_policy>
basic_oom_log<P> parse_oom_reports(std::string_view text, std::string_view file = "<oom report>") {
    return std::move(try_parse_oom_reports<P>(text, file).value());
}

// ---------------------------------------------------------------------------------------------
// MiniMalloc CSV problems and solutions (grammar: parser/minimalloc_csv.hpp)
// ---------------------------------------------------------------------------------------------

// The one parser that is not a template (its result, allocation_problem, owns its ids). Header-only,
// parser/minimalloc_csv.hpp defines it inline, and <hlomem/parser.hpp> includes that; under
// separate compilation it is declared here and defined once, by parser/instantiate.hpp.
#ifdef HLOMEM_SEPARATE_COMPILATION
#define HLOMEM_PARSER_FUNCTION
#define HLOMEM_PARSER_DEFAULT(value)

/// Reads a MiniMalloc CSV (`id,lower,upper,size[,alignment][,offset]`, lifespans half-open
/// `[lower, upper)`): a problem, or a solution when it has offsets. Never throws a parse_error:
/// a bad header or row comes back as the error, with `file`, line and column.
parse_result<allocation_problem> try_parse_minimalloc_csv(std::string_view text, std::string_view file = "<minimalloc csv>");

/// The same; throws hlomem::parse_error.
allocation_problem parse_minimalloc_csv(std::string_view text, std::string_view file = "<minimalloc csv>");
#else
#define HLOMEM_PARSER_FUNCTION inline
#define HLOMEM_PARSER_DEFAULT(value) = value
#endif

// ---------------------------------------------------------------------------------------------
// The instantiations separate compilation provides
// ---------------------------------------------------------------------------------------------

// One list per grammar, so that each can be compiled in a translation unit of its own. EXTERN is
// `extern` for the declarations below and empty for the definitions (parser/instantiate.hpp).
#define HLOMEM_SHAPE_PARSER_INSTANTIATIONS(EXTERN, P)                                                        \
    EXTERN template parse_result<basic_shape<P>> try_parse_shape<P>(std::string_view, std::string_view);     \
    EXTERN template parse_result<basic_layout<P>> try_parse_layout<P>(std::string_view, std::string_view);   \
    EXTERN template parse_result<basic_shape_index<P>> try_parse_shape_index<P>(std::string_view,            \
                                                                                std::string_view);           \
    EXTERN template basic_shape<P> parse_shape_prefix<P>(char const*&, char const*, std::string_view, char const*);

#define HLOMEM_DUMP_PARSER_INSTANTIATIONS(EXTERN, P)                                                         \
    EXTERN template parse_result<basic_buffer_assignment<P>> try_parse_buffer_assignment<P>(std::string_view, \
                                                                                            std::string_view); \
    EXTERN template parse_result<basic_hlo_live_range<P>> try_parse_live_range<P>(std::string_view,          \
                                                                                  std::string_view);         \
    EXTERN template parse_result<basic_memory_usage_report<P>> try_parse_memory_usage_report<P>(            \
        std::string_view, std::string_view);

#define HLOMEM_HLO_MODULE_PARSER_INSTANTIATIONS(EXTERN, P)                                                   \
    EXTERN template parse_result<std::vector<basic_hlo_module<P>>> try_parse_hlo_modules<P>(std::string_view, \
                                                                                            std::string_view); \
    EXTERN template parse_result<basic_hlo_module<P>> try_parse_hlo_module<P>(std::string_view, std::string_view);

#define HLOMEM_OOM_REPORT_PARSER_INSTANTIATIONS(EXTERN, P) \
    EXTERN template parse_result<basic_oom_log<P>> try_parse_oom_reports<P>(std::string_view, std::string_view);

#ifdef HLOMEM_SEPARATE_COMPILATION
HLOMEM_SHAPE_PARSER_INSTANTIATIONS(extern, default_policy)
HLOMEM_SHAPE_PARSER_INSTANTIATIONS(extern, view_policy)
HLOMEM_DUMP_PARSER_INSTANTIATIONS(extern, default_policy)
HLOMEM_DUMP_PARSER_INSTANTIATIONS(extern, view_policy)
HLOMEM_HLO_MODULE_PARSER_INSTANTIATIONS(extern, default_policy)
HLOMEM_HLO_MODULE_PARSER_INSTANTIATIONS(extern, view_policy)
HLOMEM_OOM_REPORT_PARSER_INSTANTIATIONS(extern, default_policy)
HLOMEM_OOM_REPORT_PARSER_INSTANTIATIONS(extern, view_policy)
#endif

}  // namespace hlomem::parser

namespace hlomem {
using parser::intern_shape;
using parser::parse_buffer_assignment;
using parser::parse_hlo_module;
using parser::parse_hlo_modules;
using parser::parse_layout;
using parser::parse_live_range;
using parser::parse_memory_usage_report;
using parser::parse_oom_reports;
using parser::parse_shape;
using parser::parse_shape_index;
using parser::parse_shape_prefix;
using parser::scan_shape_end;
using parser::try_parse_buffer_assignment;
using parser::try_parse_hlo_module;
using parser::try_parse_hlo_modules;
using parser::try_parse_layout;
using parser::try_parse_live_range;
using parser::try_parse_memory_usage_report;
using parser::try_parse_oom_reports;
using parser::try_parse_shape;
using parser::try_parse_shape_index;
#ifdef HLOMEM_SEPARATE_COMPILATION
using parser::parse_minimalloc_csv;
using parser::try_parse_minimalloc_csv;
#endif
}  // namespace hlomem

#endif  // HLOMEM_PARSER_API_HPP
