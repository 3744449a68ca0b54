// hlomem/parser/api.hpp: every parser entry point, declared without its grammar.
//
// The grammars (parser/shape.hpp, parser/buffer_assignment.hpp, parser/live_range.hpp,
// parser/memory_usage_report.hpp, parser/hlo_module.hpp, parser/oom_report.hpp,
// parser/minimalloc_csv.hpp) define these functions; this header declares them, with their
// default arguments and documentation, and includes no Spirit and none of the models they return
// (a program includes the models it reads; <hlomem/parser.hpp> includes them all). It is what <hlomem/parser.hpp> gives a
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

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/core/error.hpp>
#include <hlomem/core/policy.hpp>

// The models the parsers return.
namespace hlomem {
template <class P>
class basic_shape;
template <class P>
struct basic_layout;
template <class P>
class basic_shape_index;
template <class P>
struct basic_buffer_assignment;
template <class P>
struct basic_hlo_live_range;
template <class P>
struct basic_memory_usage_report;
template <class P>
class basic_hlo_module;
template <class P>
struct basic_oom_log;
struct allocation_problem;
}  // namespace hlomem

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

// ---------------------------------------------------------------------------------------------
// BufferAssignment dumps, live ranges, memory-usage reports (grammars: parser/buffer_assignment.hpp,
// parser/live_range.hpp, parser/memory_usage_report.hpp)
// ---------------------------------------------------------------------------------------------

/// Reads a `*-buffer-assignment.txt` dump (with or without its live ranges appended). With the
/// view policy, names are views into `text`, which must outlive the result.
///
/// `threads`: how many threads may read it. 0 (the default) uses every processor the process may
/// run on for dumps of 4 MiB and more (parser/threaded_read.hpp, read_in_parts), one thread
/// for smaller ones; 1 reads on the calling thread alone. The result is the same either way,
/// errors included.
template <class P = default_policy>
parse_result<basic_buffer_assignment<P>> try_parse_buffer_assignment(std::string_view text,
                                                                      std::string_view file = "<buffer assignment>",
                                                                      std::size_t threads = 0);

template <class P = default_policy>
basic_buffer_assignment<P> parse_buffer_assignment(std::string_view text, std::string_view file = "<buffer assignment>",
                                                   std::size_t threads = 0) {
    return std::move(try_parse_buffer_assignment<P>(text, file, threads).value());
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
    EXTERN template parse_result<basic_buffer_assignment<P>> try_parse_buffer_assignment<P>(                \
        std::string_view, std::string_view, std::size_t);                                                    \
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
