// hlomem/dump/oom_report.hpp: the out-of-memory reports XLA prints, as read from a log, and what their
// figures mean: sizes recomputed from each shape, disagreements with the report, and where the
// padding comes from and what would remove it.
//
// TPU (a compile-time OOM of XLA:TPU; sizes in the TPU runtime's `570.00M` form):
//     Largest program allocations in hbm:
//       1. Size: 570.00M
//          Operator: op_name="..."                                         (optional)
//          Shape: f32[29184,1,2560]{2,1,0:T(2,128)}                     (older runtimes: no tiles)
//          Unpadded size: 285.00M
//          Extra memory due to padding: 285.00M (2.0x expansion)        (only when padded)
//          XLA label: %fusion.10 = (f32[29184,1,2560]{...}, ...) fusion(...), kind=kLoop, ...
//          Allocation type: HLO temp
//          ==========================
// GPU (BufferAssignment::ToVerboseString, docs/FORMATS.md 5.7; sizes in XLA's `6.00MiB` form;
// shapes printed without layouts):
//     BufferAssignment OOM Debugging.
//     BufferAssignment stats:
//                  parameter allocation:    6.00MiB
//                   constant allocation:         0B
//                   ...
//     Peak buffers:
//         Buffer 1:
//             Size: 6.00MiB
//             Operator: op_name="jit(concatenate)/..." source_file="..." source_line=689   (optional)
//             XLA Label: concatenate
//             Shape: f32[4096,128,3]
//             ==========================
//         Buffer 2:
//             Size: 384.0KiB
//             Entry Parameter Subshape: f32[256,128,3]
//             ==========================
//
// TPU summaries, printed before the list (each may come alone in a paste):
//     ... Ran out of memory in memory space hbm. Used 21.95G of 15.48G hbm. Exceeded hbm capacity by 6.47G.
//     Total hbm usage >= 22.47G:                 (then `reserved 530.00M`, `program 21.95G`, `arguments 0B`)
//     Output size 0B; shares 0B with arguments.
//     Program hbm requirement 15.03G:            (then `global 1.14M`, `scoped 4.56M`, `HLO temp 15.02G (...)`)
// and the older runtimes' reservation failure:
//     Attempting to reserve 3.95G at the bottom of memory. That was not possible. There are 1.92G
//     free, 0B reserved, and 1.92G reservable.
//     HBM capacity 8.00G:                        (then `Top-of-Memory reserved:  529.00M (554,696,704 bytes)`, ...)
//
// The reader (parser/oom_report.hpp) finds every such piece in a longer log or a damaged paste and
// fills the types of dump/oom_log.hpp; `analyze` (dump/oom_entry_analysis.hpp) recomputes each
// entry, `analyze_summary` (dump/oom_summary_analysis.hpp) checks a report's summary figures
// against each other. Reported sizes agree with a recomputed byte count when it prints as them
// (printed_size.hpp states the rule); a reported expansion `2.0x` agrees when the recomputed
// padded/unpadded ratio rounds to it, within half a unit of its last decimal.
// The one-line messages (E0100 device buffer allocation, E0101 program load, E1000 TensorCore +
// SparseCore, the TPU runtime's `Allocation (size=...) would exceed memory`, the utilization line,
// rematerialization, HLO temporaries) and the GPU BFC allocator's log are reports of their own
// kinds (parser/oom_messages.hpp shows the texts); `analyze_report`
// (dump/oom_message_checks.hpp) adds their checks to analyze_summary's, and `verdict_of`
// (dump/oom_verdict.hpp) says what each report means.
// This header includes them all.
#ifndef HLOMEM_DUMP_OOM_REPORT_HPP
#define HLOMEM_DUMP_OOM_REPORT_HPP

#include <hlomem/dump/oom_entry_analysis.hpp>
#include <hlomem/dump/oom_log.hpp>
#include <hlomem/dump/oom_message_checks.hpp>
#include <hlomem/dump/oom_summary_analysis.hpp>
#include <hlomem/dump/oom_verdict.hpp>

#endif  // HLOMEM_DUMP_OOM_REPORT_HPP
