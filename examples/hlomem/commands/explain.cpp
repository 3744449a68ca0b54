// commands/explain.cpp: `hlomem explain [--json] [--module MODULE] FILE|-` — finds the out-of-memory reports in a
// log or a pasted issue, however damaged (TPU summaries and `Largest program allocations in hbm:`
// lists, GPU `BufferAssignment OOM Debugging.` blocks, excerpts that start inside an entry),
// recomputes every entry's sizes from its shape, checks the summary's figures against each other,
// flags figures that disagree, and explains the padding in sentences.
//
//   $ hlomem explain tests/data/oom/tpu_oom_pytorch_xla_3041.txt
//   tests/data/oom/tpu_oom_pytorch_xla_3041.txt:9: TPU report, largest program allocations in hbm: 2 entries
//
//     entry 2 (line 16): f32[29184,1,2560]{2,1,0:T(2,128)}
//       ...
//       size       reported 570.00M, recomputed 597688320 bytes (570.00M): agrees
//       unpadded   reported 285.00M, recomputed 298844160 bytes (285.00M): agrees
//       ...
//       Dimension 1 (extent 1), second-most-minor, is padded to 2 by the tile's 2: 2.00x.
#include <algorithm>
#include <cstdio>
#include <cstdint>
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

constexpr char const* explain_usage =
    "usage: hlomem explain [--json] [--module MODULE] FILE|-\n"
    "\n"
    "Finds every out-of-memory report in FILE ('-': standard input) as people paste them: inside\n"
    "longer logs, behind log headers, launcher tags or markdown quotes, indented, wrapped, cut off\n"
    "or starting inside an entry:\n"
    "  TPU  'Ran out of memory in memory space hbm. Used ... of ... Exceeded ... by ...',\n"
    "       'Total hbm usage >= ...:', 'Program hbm requirement ...:', the older 'Attempting to\n"
    "       reserve ...' form and E0101's 'Error loading program ...: Attempting to reserve ...',\n"
    "       and 'Largest program allocations in hbm:' with numbered entries (Size, Shape,\n"
    "       Unpadded size, Extra memory due to padding, XLA label, Allocation type);\n"
    "       E0100 'Error allocating device buffer: Attempting to allocate ...', E1000 'TPU\n"
    "       TensorCore Hbm usage: ..., SparseCore Hbm usage ...', 'Allocation (size=N) would\n"
    "       exceed memory (size=M) :: #allocationK [...]', 'N% utilization: Unpadded (X) Padded (Y)'\n"
    "  GPU  'BufferAssignment OOM Debugging.', its stats and 'Peak buffers:' (Size, Operator,\n"
    "       XLA Label, Shape or Entry Parameter Subshape); the BFC allocator's log ('ran out of\n"
    "       memory trying to allocate', 'Bin (N): Total Chunks: ...', chunks, 'Stats:')\n"
    "  XLA  'Can't reduce memory use below ... by rematerialization; only reduced to ...',\n"
    "       'total memory required for HLO temporaries (X) exceeds available HBM (Y)'\n"
    "For every entry it recomputes the padded and unpadded sizes from the shape, says whether\n"
    "the report's figures agree (a figure agrees when the recomputed bytes print as it), and\n"
    "explains the padding: which dimension each tile pads from what to what, the expansion, and\n"
    "which change of layout or shape would remove it, with the size that change gives. TPU\n"
    "shapes printed without tiles (older runtimes) get the default TPU tiling, GPU shapes the\n"
    "default layout, said so. Summaries are checked where their figures must add up (also the\n"
    "utilization percent, TensorCore + SparseCore against the available bytes, the BFC log's\n"
    "sums), and the listed entries are compared with the program's total. Every report has a\n"
    "verdict: compile or run time, does not fit or fits but fragmented, a program load blocked\n"
    "by held buffers, which core is over, how far rematerialization fell short, and what the\n"
    "message does not tell. What the reader skipped or could not read is a warning with its\n"
    "line number.\n"
    "\n"
    "  --json           one object: \"reports\" (kind, line, memory_space, used_bytes,\n"
    "                   capacity_bytes, exceeded_bytes, usage, checks, entries_share, entries:\n"
    "                   one object per entry with shape, reported_bytes, padded_bytes,\n"
    "                   unpadded_bytes, expansion, explanation, suggestions and the rest;\n"
    "                   verdict, program_name, device, utilization_percent, bfc) and\n"
    "                   \"warnings\" (line, message)\n"
    "  --module MODULE  the HLO module the reports come from: each entry is joined with the\n"
    "                   instruction its label or tag names (or whose op_name its Operator\n"
    "                   carries), with its computation, op_name and source line\n"
    "Exit status: 0 when a report was read (whether or not its figures agree), 2 when the input\n"
    "cannot be read or holds no report.\n";

}  // namespace

int run_explain(arguments const& args, std::ostream& out, std::ostream& err) {
    bool as_json = false;
    std::optional<std::string> file;
    argument_reader a("explain", explain_usage, args, err);
    std::optional<std::string> module_file;
    while (a.next()) {
        if (a.is("--json")) {
            as_json = true;
        } else if (a.is_help()) {
            return a.help(out);
        } else if (a.is("--module") && a.has_value()) {
            module_file = a.value();
        } else if (auto status = a.take_file_or_unexpected(file)) {
            return *status;
        }
    }
    if (!file) return a.usage();
    // The module the reports come from: its instructions by name and op_name.
    std::optional<hlomem::oom_module_index> module;
    if (module_file) {
        auto m = open_input(*module_file, err);
        if (!m) return exit_error;
        if (m->kind != hlomem::dump_kind::hlo_module) {
            err << "hlomem explain: " << m->name() << ": not an HLO module (it should start with 'HloModule name, ...')\n";
            return exit_error;
        }
        auto loaded_module = load(*m, {}, err);
        if (!loaded_module) return exit_error;
        auto const& modules = std::get<std::vector<hlomem::basic_hlo_module<hlomem::view_policy>>>(loaded_module->model);
        if (modules.empty()) return a.error("--module: no module in " + m->name());
        module = hlomem::index_module(modules.front());
    }
    auto in = open_input(*file, err);
    if (!in) return exit_error;
    std::string const name = in->name();
    hlomem::load_options options;
    options.as = hlomem::dump_kind::oom_log;  // a log of any kind may hold reports
    auto const* loaded = load(*in, options, err);
    if (!loaded) return exit_error;
    auto const& log = std::get<hlomem::basic_oom_log<hlomem::view_policy>>(loaded->model);
    if (log.reports.empty()) {
        err << "hlomem explain: " << name
            << ": no out-of-memory report found (looked for a line starting 'Largest program allocations in' (TPU), "
               "or 'BufferAssignment OOM Debugging.', 'BufferAssignment stats:' or 'Peak buffers:' (GPU), or an "
               "out-of-memory message of XLA's error pages, a BFC allocator log or a rematerialization warning)\n";
        return exit_error;
    }
    if (as_json) {
        hlomem::print_oom_log_json(out, log, module ? &*module : nullptr);
    } else {
        hlomem::print_oom_log_text(out, log, module ? &*module : nullptr);
    }
    return exit_ok;
}

}  // namespace hlomem_cli
