// hlomem/parser.hpp: every parser's entry points (parser/api.hpp), the models they return, and,
// unless the program is built with HLOMEM_SEPARATE_COMPILATION, the Spirit X3 grammars that
// define them.
//
//   auto ba = hlomem::parse_buffer_assignment(text, "module-buffer-assignment.txt");
//   auto m = hlomem::parse_hlo_module<hlomem::view_policy>(text, "module.txt");
//
// Header-only by default: each translation unit instantiates the parsers it calls. A program with
// many translation units compiles them once instead (parser/api.hpp says how).
#ifndef HLOMEM_PARSER_HPP
#define HLOMEM_PARSER_HPP

#include <hlomem/core/layout.hpp>
#include <hlomem/core/shape.hpp>
#include <hlomem/core/shape_table.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/dump/live_range.hpp>
#include <hlomem/dump/memory_usage_report.hpp>
#include <hlomem/dump/oom_report.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/parser/api.hpp>
#include <hlomem/parser/intern_shape.hpp>
#include <hlomem/placement/problem.hpp>

#ifndef HLOMEM_SEPARATE_COMPILATION
#include <hlomem/parser/buffer_assignment.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/hlo_module.hpp>
#include <hlomem/parser/live_range.hpp>
#include <hlomem/parser/memory_usage_report.hpp>
#include <hlomem/parser/minimalloc_csv.hpp>
#include <hlomem/parser/oom_report.hpp>
#include <hlomem/parser/shape.hpp>
#endif

#endif  // HLOMEM_PARSER_HPP
