// hlomem: the command-line face of the library. Each command lives in its own file,
// commands/NAME.cpp; this one reads the command's name and hands it the rest.
//
//   hlomem shape [--json] SHAPE...      sizes, padding and tiled physical shape of XLA shapes
//   hlomem report [--json] [FILE]       what an XLA dump holds: allocations, peaks, modules, contradictions
//   hlomem check [--json] FILE          is a buffer assignment sound?
//   hlomem graph [--dot|--graphml] FILE the interference graph of a buffer assignment
//   hlomem liveness [--json] FILE       XLA's live ranges and peak from a scheduled HLO module
//   hlomem explain [--json] FILE|-      out-of-memory hlomem::reports: sizes recomputed, padding explained
//   hlomem timeline [-o OUT] FILE       memory over program order: HTML page, SVG, Perfetto trace
//   hlomem repack [--json] FILE         place a dump's temp arenas (or a MiniMalloc CSV) again
//   hlomem assign [--json] MODULE       XLA's buffer assignment predicted from a scheduled module
//   hlomem diff [--json] A B            why memory changed between two compilations
//   hlomem snapshot [-o OUT] FILE       a small JSON of a compilation's memory, to keep in git
//   hlomem whatif MODULE --remat NAME   peaks before and after donations, remats and offloads
//   hlomem advise --budget B MODULE     the edits that bring a module under a memory budget
#include <iostream>
#include <string_view>

#include "cli.hpp"
#include <hlomem/load/huge_page_heap.hpp>

namespace {

constexpr char const* usage =
    "usage: hlomem COMMAND [ARGS...]\n"
    "\n"
    "Commands:\n"
    "  shape [--json] SHAPE...     parse XLA shapes; print sizes, padding, physical shape\n"
    "  report [--json] [FILE]      read an HLO module, buffer-assignment dump, live-range text or\n"
    "                              memory-usage report and summarize it\n"
    "  check [--json] FILE         is a buffer assignment sound? exit 0 sound, 1 violations\n"
    "  graph [--dot|--graphml] FILE  the interference graph of a buffer assignment or HLO module\n"
    "  liveness [--json] FILE      XLA's live ranges and peak, from a scheduled HLO module alone\n"
    "  explain [--json] FILE|-     read the TPU and GPU out-of-memory reports in a log: sizes\n"
    "                              recomputed from each shape, padding explained\n"
    "  timeline [-o OUT.html|OUT.svg] [--trace OUT.json] FILE\n"
    "                              memory over program order, the peak marked, every buffer:\n"
    "                              a self-contained page, an SVG picture, a Perfetto trace\n"
    "  repack [--json] [--algorithm NAME|all] FILE\n"
    "                              place each temp arena of a dump (or a MiniMalloc CSV) again with\n"
    "                              hlomem's allocators; compare with XLA's arena and the lower bound\n"
    "  assign [--backend gpu|cpu|tpu] [--algorithm NAME] [--json] MODULE\n"
    "                              XLA's buffer assignment predicted from a scheduled HLO module,\n"
    "                              printed as XLA's buffer-assignment dump\n"
    "  diff [--json] [-o OUT.html] A B\n"
    "                              why memory changed between two compilations: values matched,\n"
    "                              peaks, bytes by kind and by source line compared, the verdict\n"
    "  whatif [--donate N] [--remat NAME] [--offload NAME] [--emit-module OUT] [--json] MODULE\n"
    "                              the peaks before and after donating, rematerializing or\n"
    "                              offloading values of a scheduled module\n"
    "  advise --budget BYTES|P% [--json] MODULE\n"
    "                              the donations, remats and offloads that bring each memory space\n"
    "                              under a budget, ranked, with their source lines\n"
    "\n"
    "Run 'hlomem COMMAND --help' for a command's options.\n";

struct command {
    std::string_view name;
    hlomem_cli::command_function run;
};

constexpr command commands[] = {
    {"shape", hlomem_cli::run_shape},
    {"report", hlomem_cli::run_report},
    {"check", hlomem_cli::run_check},
    {"graph", hlomem_cli::run_graph},
    {"liveness", hlomem_cli::run_liveness},
    {"explain", hlomem_cli::run_explain},
    {"timeline", hlomem_cli::run_timeline},
    {"repack", hlomem_cli::run_repack},
    {"assign", hlomem_cli::run_assign},
    {"diff", hlomem_cli::run_diff},
    {"snapshot", hlomem_cli::run_snapshot},
    {"whatif", hlomem_cli::run_whatif},
    {"advise", hlomem_cli::run_advise},
};

}  // namespace

int main(int argc, char** argv) {
    // Before anything fills the heap: the heap on transparent huge pages (<hlomem/load/huge_page_heap.hpp>).
    hlomem::use_huge_page_heap();
    // The tool writes through std::cout only, never through C's stdio: unsynchronized, the stream
    // keeps its own buffer instead of handing every character to stdio (a report of a large dump
    // is tens of megabytes; synchronized, writing it took longer than parsing the dump).
    std::ios::sync_with_stdio(false);
    if (argc < 2) {
        std::cerr << usage;
        return hlomem_cli::exit_error;
    }
    std::string_view const name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") {
        std::cout << usage;
        return hlomem_cli::exit_ok;
    }
    hlomem_cli::arguments args(argv + 2, argv + argc);
    for (auto const& c : commands) {
        if (c.name == name) return c.run(args, std::cout, std::cerr);
    }
    std::cerr << "hlomem: unknown command '" << name << "'\n" << usage;
    return hlomem_cli::exit_error;
}
