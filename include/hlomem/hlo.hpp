// hlomem/hlo.hpp: HLO modules and XLA's analyses of them: opcodes, metadata, the module, its names
// and its builder, shape trees, the call graph, values and their sets, phi graphs, dataflow,
// aliasing, live ranges and the stack-trace breakdown of their peak.
#ifndef HLOMEM_HLO_HPP
#define HLOMEM_HLO_HPP

#include <hlomem/hlo/alias_analysis.hpp>
#include <hlomem/hlo/attribution.hpp>
#include <hlomem/hlo/call_graph.hpp>
#include <hlomem/hlo/dataflow.hpp>
#include <hlomem/hlo/donation.hpp>
#include <hlomem/hlo/lexical.hpp>
#include <hlomem/hlo/liveness.hpp>
#include <hlomem/hlo/metadata.hpp>
#include <hlomem/hlo/module.hpp>
#include <hlomem/hlo/module_builder.hpp>
#include <hlomem/hlo/name_table.hpp>
#include <hlomem/hlo/opcode.hpp>
#include <hlomem/hlo/phi_graph.hpp>
#include <hlomem/hlo/shape_tree.hpp>
#include <hlomem/hlo/source_path.hpp>
#include <hlomem/hlo/stack_frames.hpp>
#include <hlomem/hlo/stack_trace_breakdown.hpp>
#include <hlomem/hlo/value.hpp>
#include <hlomem/hlo/value_set.hpp>

#endif  // HLOMEM_HLO_HPP
