// hlomem/model.hpp: every model header and none of the parsers or graphs. Include this (or the
// single headers) when you only need shapes, layouts and sizes: it does not pull in Spirit or
// Boost.Graph, so it compiles fast.
#ifndef HLOMEM_MODEL_HPP
#define HLOMEM_MODEL_HPP

#include <hlomem/alias_analysis.hpp>
#include <hlomem/allocation.hpp>
#include <hlomem/buffer_assignment.hpp>
#include <hlomem/dataflow.hpp>
#include <hlomem/dump_printer.hpp>
#include <hlomem/error.hpp>
#include <hlomem/hlo_module.hpp>
#include <hlomem/hlo_opcode.hpp>
#include <hlomem/human_bytes.hpp>
#include <hlomem/instruction_metadata.hpp>
#include <hlomem/interval_sweep.hpp>
#include <hlomem/layout.hpp>
#include <hlomem/live_range.hpp>
#include <hlomem/liveness.hpp>
#include <hlomem/memory_analysis.hpp>
#include <hlomem/memory_usage_report.hpp>
#include <hlomem/oom_report.hpp>
#include <hlomem/padding.hpp>
#include <hlomem/peak.hpp>
#include <hlomem/policy.hpp>
#include <hlomem/primitive_type.hpp>
#include <hlomem/printed_size.hpp>
#include <hlomem/shape.hpp>
#include <hlomem/shape_size.hpp>
#include <hlomem/shape_table.hpp>
#include <hlomem/soundness.hpp>
#include <hlomem/static_shape.hpp>
#include <hlomem/timeline.hpp>
#include <hlomem/version.hpp>

#endif  // HLOMEM_MODEL_HPP
