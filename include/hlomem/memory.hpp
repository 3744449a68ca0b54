// hlomem/memory.hpp: analyses of a buffer assignment: interval sweeps, peaks, soundness, shared buffers and bounds, timelines.
#ifndef HLOMEM_MEMORY_HPP
#define HLOMEM_MEMORY_HPP

#include <hlomem/memory/analysis.hpp>
#include <hlomem/memory/buffer_sharing_hints.hpp>
#include <hlomem/memory/interval_sweep.hpp>
#include <hlomem/memory/memory_analysis.hpp>
#include <hlomem/memory/opcode_classes.hpp>
#include <hlomem/memory/peak.hpp>
#include <hlomem/memory/peak_holdings.hpp>
#include <hlomem/memory/soundness.hpp>
#include <hlomem/memory/timeline.hpp>

#endif  // HLOMEM_MEMORY_HPP
