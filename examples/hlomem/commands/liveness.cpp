// commands/liveness.cpp: `hlomem liveness [--json] FILE` — XLA's HloLiveRange of a scheduled HLO
// module, computed from the module text alone: the flattened instruction sequence, every logical
// value's live range, and the peak moment with the values live there.
//
//   $ hlomem liveness tests/data/corpus/lorrax/lorrax_donated_param_output_alias.after_opt.hlo
//   HloLiveRange (max 6):
//     InstructionSequence:
//       0:param.1
//       ...
//     BufferLiveRange:
//       param.1{}:0-1
//       ...
//     Live ranges at 4 (peak):
//       fft.2.0: 31457280 bytes
//       input_transpose_fusion: 31457280 bytes
//
// The text is what XLA writes after HloLiveRange in a buffer-assignment dump, so the two can be
// compared with diff.
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
    "the text XLA writes after HloLiveRange: the flattened instruction sequence, each value's\n"
    "range as name{index}:start-end (inclusive), and the peak moment with the values live there,\n"
    "sized as XLA's peak is (unpadded bytes of the defining instruction's whole shape). Several\n"
    "modules in one file are printed one after the other. An unscheduled module is read in text\n"
    "order, with a note on standard error.\n"
    "\n"
    "  --json   one object per module (an array when there are several) with the keys module,\n"
    "           scheduled, max, peak_time, peak_bytes, instruction_sequence, values (each\n"
    "           {name, index, start, end, op_type, op_name, source_file, source_line}, index as\n"
    "           XLA prints it: \"{}\", \"{1}\", metadata null when the instruction has none), peak\n"
    "           (each {name, index, bytes} and the same metadata) and colors (each {color,\n"
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
    auto loaded = load<hlomem::view_policy>(*in, {}, err);
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
