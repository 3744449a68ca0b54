// commands/explain.cpp: `hlomem explain [--json] FILE|-` — finds the out-of-memory reports in a
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
    "usage: hlomem explain [--json] FILE|-\n"
    "\n"
    "Finds every out-of-memory report in FILE ('-': standard input) as people paste them: inside\n"
    "longer logs, behind log headers, launcher tags or markdown quotes, indented, wrapped, cut off\n"
    "or starting inside an entry:\n"
    "  TPU  'Ran out of memory in memory space hbm. Used ... of ... Exceeded ... by ...',\n"
    "       'Total hbm usage >= ...:', 'Program hbm requirement ...:', the older 'Attempting to\n"
    "       reserve ...' form, and 'Largest program allocations in hbm:' with numbered entries\n"
    "       (Size, Shape, Unpadded size, Extra memory due to padding, XLA label, Allocation type)\n"
    "  GPU  'BufferAssignment OOM Debugging.', its stats and 'Peak buffers:' (Size, Operator,\n"
    "       XLA Label, Shape or Entry Parameter Subshape)\n"
    "For every entry it recomputes the padded and unpadded sizes from the shape, says whether\n"
    "the report's figures agree (a figure agrees when the recomputed bytes print as it), and\n"
    "explains the padding: which dimension each tile pads from what to what, the expansion, and\n"
    "which change of layout or shape would remove it, with the size that change gives. TPU\n"
    "shapes printed without tiles (older runtimes) get the default TPU tiling, GPU shapes the\n"
    "default layout, said so. Summaries are checked where their figures must add up, and the\n"
    "listed entries are compared with the program's total. What the reader skipped or could not\n"
    "read is a warning with its line number.\n"
    "\n"
    "  --json   one object: \"reports\" (kind, line, memory_space, used_bytes, capacity_bytes,\n"
    "           exceeded_bytes, usage, checks, entries_share and entries: one object per entry\n"
    "           with shape, reported_bytes, padded_bytes, unpadded_bytes, expansion,\n"
    "           explanation, suggestions and the rest) and \"warnings\" (line, message)\n"
    "Exit status: 0 when a report was read (whether or not its figures agree), 2 when the input\n"
    "cannot be read or holds no report.\n";

}  // namespace

int run_explain(arguments const& args, std::ostream& out, std::ostream& err) {
    bool as_json = false;
    std::optional<std::string> file;
    argument_reader a("explain", explain_usage, args, err);
    if (auto status = a.read_json_and_file(as_json, file, out)) return *status;
    if (!file) return a.usage();
    auto in = read_input(*file, err);
    if (!in) return exit_error;
    std::string const name = in->name();
    hlomem::load_options options;
    options.as = hlomem::dump_kind::oom_log;  // a log of any kind may hold reports
    auto loaded = load(std::move(*in), options, err);
    if (!loaded) return exit_error;
    auto const& log = std::get<hlomem::oom_log>(loaded->model);
    if (log.reports.empty()) {
        err << "hlomem explain: " << name
            << ": no out-of-memory report found (looked for a line starting 'Largest program allocations in' (TPU), "
               "or 'BufferAssignment OOM Debugging.', 'BufferAssignment stats:' or 'Peak buffers:' (GPU))\n";
        return exit_error;
    }
    if (as_json) {
        hlomem::print_oom_log_json(out, log);
    } else {
        hlomem::print_oom_log_text(out, log);
    }
    return exit_ok;
}

}  // namespace hlomem_cli
