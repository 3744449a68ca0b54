// hlomem/dump.hpp: models of XLA's text dumps: buffer assignments, live ranges, memory-usage reports, OOM reports.
#ifndef HLOMEM_DUMP_HPP
#define HLOMEM_DUMP_HPP

#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/dump/live_range.hpp>
#include <hlomem/dump/memory_usage_report.hpp>
#include <hlomem/dump/oom_report.hpp>
#include <hlomem/dump/policy_cast.hpp>
#include <hlomem/dump/printer.hpp>

#endif  // HLOMEM_DUMP_HPP
