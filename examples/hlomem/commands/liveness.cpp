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
#include "../json_writer.hpp"
#include "../report/sources.hpp"

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

template <class P>
void write_liveness_json(json_writer& json, hlomem::basic_hlo_module<P> const& m, hlomem::basic_derived_assignment<P> const& d) {
    auto const& lr = *d.assignment.live_range;
    auto const sources = hlomem::attribute_values(d.assignment, m);
    auto source_of = [&](std::size_t value) {
        if (value == hlomem::npos) {
            write_value_source(json, hlomem::value_source{});
        } else {
            write_value_source(json, sources[value]);
        }
    };
    json.begin_object();
    json.member("module", std::string_view(m.name()));
    json.member("scheduled", d.scheduled);
    json.member("max", static_cast<std::int64_t>(lr.max));
    if (d.peak) {
        // XLA's running sum at the peak: it still counts values that ended just before it.
        json.member("peak_time", static_cast<std::int64_t>(d.peak->time));
        json.member("peak_bytes", d.peak->bytes);
    } else {
        json.key("peak_time").null();
        json.key("peak_bytes").null();
    }
    json.key("instruction_sequence").begin_array();
    for (auto const& name : lr.instruction_sequence) json.value(std::string_view(name));
    json.end_array();
    json.key("values").begin_array();
    for (auto const& r : lr.buffer_live_ranges) {
        json.begin_object();
        json.member("name", std::string_view(r.name));
        json.member("index", hlomem::to_string(r.index));
        json.member("start", static_cast<std::int64_t>(r.range.start));
        json.member("end", static_cast<std::int64_t>(r.range.end));
        source_of(r.value);
        json.end_object();
    }
    json.end_array();
    json.key("peak").begin_array();
    if (d.peak) {
        for (std::size_t j = 0; j < d.peak->values.size(); ++j) {
            auto const& v = d.assignment.values[d.peak->values[j]];
            json.begin_object();
            json.member("name", std::string_view(v.name));
            json.member("index", hlomem::to_string(v.index));
            json.member("bytes", d.peak->sizes[j]);
            source_of(d.peak->values[j]);
            json.end_object();
        }
    }
    json.end_array();
    auto const colors = hlomem::whole_allocation_live_bytes(d.assignment);  // each value fills its allocation
    auto const holdings = hlomem::peak_holdings_by_color(d.assignment, colors, sources);
    json.key("colors").begin_array();
    for (std::size_t c = 0; c < colors.size(); ++c) {
        json.begin_object();
        json.member("color", colors[c].color);
        json.member("peak_live_bytes", colors[c].peak_bytes);
        json.member("peak_time", static_cast<std::int64_t>(colors[c].peak_time));
        write_peak_breakdowns(json, &holdings[c], d.assignment, sources);
        json.end_object();
    }
    json.end_array();
    json.end_object();
}

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
    json_writer json(out);
    if (as_json && modules.size() > 1) json.begin_array();
    for (std::size_t k = 0; k < modules.size(); ++k) {
        auto const& m = modules[k];
        // Sizes, live ranges and the peak are all this prints: no positions and uses. Kept, as the
        // module is, until the process exits: not taken apart value by value.
        auto const& d = keep_until_exit(hlomem::derive_assignment(m, /*positions_and_uses=*/false));
        for (auto const& n : d.notes) err << "hlomem liveness: note: " << n.message << '\n';
        if (as_json) {
            write_liveness_json(json, m, d);
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
