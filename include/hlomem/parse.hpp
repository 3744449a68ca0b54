// hlomem/parse.hpp: every parser (Spirit X3 grammars) and their entry points.
#ifndef HLOMEM_PARSE_HPP
#define HLOMEM_PARSE_HPP

#include <hlomem/parser/buffer_assignment.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/hlo_module.hpp>
#include <hlomem/parser/oom_report.hpp>
#include <hlomem/parser/shape.hpp>

#endif  // HLOMEM_PARSE_HPP
