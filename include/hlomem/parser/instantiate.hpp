// hlomem/parser/instantiate.hpp: compiles every parser entry point for default_policy and
// view_policy. Include it in exactly one .cpp of a program built with HLOMEM_SEPARATE_COMPILATION
// (parser/api.hpp); every other translation unit then only declares the parsers.
//
//   // parsers.cpp, compiled once (about a minute: Spirit X3)
//   #include <hlomem/parser/instantiate.hpp>
//
// To spread the work over several translation units, define HLOMEM_INSTANTIATE_SHAPE,
// HLOMEM_INSTANTIATE_DUMP (buffer assignments, live ranges, memory-usage reports), HLOMEM_INSTANTIATE_HLO_MODULE, HLOMEM_INSTANTIATE_OOM_REPORT or
// HLOMEM_INSTANTIATE_MINIMALLOC_CSV (one or more) before including it: then only those grammars
// are compiled there. HLOMEM_INSTANTIATE_VIEW_POLICY or HLOMEM_INSTANTIATE_DEFAULT_POLICY compiles
// the grammars for that policy alone (core/policy.hpp); the MiniMalloc CSV has no policy.
#ifndef HLOMEM_PARSER_INSTANTIATE_HPP
#define HLOMEM_PARSER_INSTANTIATE_HPP

#if !defined(HLOMEM_INSTANTIATE_SHAPE) && !defined(HLOMEM_INSTANTIATE_DUMP) && \
    !defined(HLOMEM_INSTANTIATE_HLO_MODULE) && !defined(HLOMEM_INSTANTIATE_OOM_REPORT) && \
    !defined(HLOMEM_INSTANTIATE_MINIMALLOC_CSV)
#define HLOMEM_INSTANTIATE_SHAPE
#define HLOMEM_INSTANTIATE_DUMP
#define HLOMEM_INSTANTIATE_HLO_MODULE
#define HLOMEM_INSTANTIATE_OOM_REPORT
#define HLOMEM_INSTANTIATE_MINIMALLOC_CSV
#endif

#include <hlomem/parser/api.hpp>

#ifdef HLOMEM_INSTANTIATE_SHAPE
#include <hlomem/parser/shape.hpp>
namespace hlomem::parser {
HLOMEM_FOR_EACH_INSTANTIATED_POLICY(HLOMEM_SHAPE_PARSER_INSTANTIATIONS)
}  // namespace hlomem::parser
#endif

#ifdef HLOMEM_INSTANTIATE_DUMP
#include <hlomem/parser/buffer_assignment.hpp>
#include <hlomem/parser/live_range.hpp>
#include <hlomem/parser/memory_usage_report.hpp>
namespace hlomem::parser {
HLOMEM_FOR_EACH_INSTANTIATED_POLICY(HLOMEM_DUMP_PARSER_INSTANTIATIONS)
}  // namespace hlomem::parser
#endif

#ifdef HLOMEM_INSTANTIATE_HLO_MODULE
#include <hlomem/parser/hlo_module.hpp>
namespace hlomem::parser {
HLOMEM_FOR_EACH_INSTANTIATED_POLICY(HLOMEM_HLO_MODULE_PARSER_INSTANTIATIONS)
}  // namespace hlomem::parser
#endif

#ifdef HLOMEM_INSTANTIATE_OOM_REPORT
#include <hlomem/parser/oom_report.hpp>
namespace hlomem::parser {
HLOMEM_FOR_EACH_INSTANTIATED_POLICY(HLOMEM_OOM_REPORT_PARSER_INSTANTIATIONS)
}  // namespace hlomem::parser
#endif

#ifdef HLOMEM_INSTANTIATE_MINIMALLOC_CSV
// Not a template: including the grammar defines try_parse_minimalloc_csv, once, here.
#include <hlomem/parser/minimalloc_csv.hpp>
#endif

#endif  // HLOMEM_PARSER_INSTANTIATE_HPP
