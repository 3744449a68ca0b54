// commands/liveness.cpp: `hlomem liveness [--json] FILE` — XLA's HloLiveRange of a scheduled HLO
// module, computed from the module text alone: the flattened instruction sequence, every logical
// value's live range, the peak moment with the values live there and their stack-trace breakdown.
//
//   $ hlomem liveness tests/data/jax_0_11/grad_ckpt.txt
//   HloLiveRange (max 72):
//     InstructionSequence:
//       0:ws_3_.1
//       ...
//     BufferLiveRange:
//       ws_3_.1{}:0-72
//       ...
//     Live ranges at 28 (peak):
//       gemm_fusion_dot.7{}: 8388608 bytes (cumulative: 8388608 bytes)
//       ...
//     Stack trace breakdown for peak usage: 30 408 704 bytes
//       main.1 (100.0%, total: 30 408 704 bytes, current: 0 bytes, remaining: 30 408 704 bytes)
//       ...
//
// The text is the newest XLA's HloLiveRange text (its `-live-range.txt`), so the two can be
// compared with diff. One difference is expected: where the module refers to a tuple's element as
// `%custom-call.3#0` (JAX 0.11's XLA prints no get-tuple-elements), hlomem makes the hidden
// get-tuple-element back under that name, so the InstructionSequence lists `custom-call.3#0`
// where XLA's file lists `get-tuple-element.3` (docs/FORMATS.md 6.1 and 9). The writers are the
// library's (dump/printer.hpp, output/liveness_report.hpp).
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <hlomem/hlomem.hpp>

#include "../arguments.hpp"
#include "../cli.hpp"
#include "../input.hpp"

namespace hlomem_cli {
namespace {

constexpr char const* liveness_usage =
    "usage: hlomem liveness [--json] FILE | -\n"
    "\n"
    "Computes XLA's HloLiveRange from a scheduled HLO module (is_scheduled=true, e.g.\n"
    "*.after_optimizations.txt) without its buffer-assignment dump: XLA's dataflow analysis\n"
    "(which instructions define values, phis at while and conditional merges), its aliasing\n"
    "(donated parameters, loop state, in-place updates) and its module-scoped live ranges. Prints\n"
    "the HloLiveRange text of the newest XLA: the flattened instruction sequence, each value's\n"
    "range as name{index}:start-end (inclusive), the peak moment (each value weighing its defining\n"
    "instruction's whole unpadded shape), the values live there by size (each its own shape) with\n"
    "running sums, and their bytes by stack trace (entry computation, callers' op_names, op_name).\n"
    "Several modules in one file are printed one after the other. An unscheduled module is read in\n"
    "text order, with a note on standard error.\n"
    "\n"
    "  --json   one object per module (an array when there are several) with the keys module,\n"
    "           scheduled, max, peak_time, peak_bytes, instruction_sequence, values (each\n"
    "           {name, index, start, end, op_type, op_name, source_file, source_line}, index as\n"
    "           XLA prints it: \"{}\", \"{1}\", metadata null when the instruction has none),\n"
    "           peak_values (each {name, index, bytes, cumulative_bytes} and the same metadata),\n"
    "           stack_trace_breakdown ({total_bytes, nodes}, each node {name, percent, total_bytes,\n"
    "           current_bytes, remaining_bytes, children}; null without a peak) and colors (each {color,\n"
    "           peak_live_bytes, peak_time, peak_by_source, peak_by_op_name, peak_by_stack_frame}:\n"
    "           the padded bytes live at each memory space's peak by source line, op_name and\n"
    "           Python stack, as `hlomem report --json` gives them for a dump)\n"
    "Exit status: 0, or 2 when FILE cannot be read or parsed.\n";

}  // namespace

int run_liveness(arguments const& args, std::ostream& out, std::ostream& err) {
    bool as_json = false;
    std::optional<std::string> file;
    argument_reader a("liveness", liveness_usage, args, err);
    if (auto status = a.read_json_and_file(as_json, file, out)) return *status;
    if (!file) return a.error("no FILE given");
    auto in = open_input(*file, err);
    if (!in) return exit_error;
    if (in->kind != hlomem::dump_kind::hlo_module) {
        err << "hlomem liveness: " << in->name() << ": not an HLO module (it should start with 'HloModule name, ...')\n";
        return exit_error;
    }
    auto loaded = load(*in, {}, err);
    if (!loaded) return exit_error;
    auto const& modules = std::get<std::vector<hlomem::basic_hlo_module<hlomem::view_policy>>>(loaded->model);
    hlomem::json_writer json(out);
    if (as_json && modules.size() > 1) json.begin_array();
    for (std::size_t k = 0; k < modules.size(); ++k) {
        auto const& m = modules[k];
        // Sizes, live ranges and the peak are all this prints: no positions and uses. Kept, as the
        // module is, until the process exits: not taken apart value by value.
        auto const& d = keep_until_exit(hlomem::derive_assignment(m, /*positions_and_uses=*/false));
        for (auto const& n : d.notes) err << "hlomem liveness: note: " << n.message << '\n';
        if (as_json) {
            hlomem::write_liveness_json(json, m, d);
        } else {
            if (k > 0) out << '\n';
            hlomem::print_live_range(out, *d.assignment.live_range);
        }
    }
    if (as_json) {
        if (modules.size() > 1) json.end_array();
        json.finish();
    }
    return exit_ok;
}

}  // namespace hlomem_cli
