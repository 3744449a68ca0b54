// commands/repack.cpp: `hlomem repack [OPTIONS] FILE` — the temp arenas of a dump (of a module: those
// `hlomem assign` predicts) or a MiniMalloc CSV placed again by hlomem's allocators against XLA's
// arena and the lower bound; or, with `--capacity N`, MiniMalloc's question: does it fit N bytes?
#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include <hlomem/hlomem.hpp>

#include "../arguments.hpp"
#include "../cli.hpp"
#include "../input.hpp"

namespace hlomem_cli {
namespace {

constexpr char const* repack_usage =
    "usage: hlomem repack [--json] [--algorithm NAME|all] [--output FILE] [--alignment N]\n"
    "                     [--capacity BYTES] [--time-limit SECONDS] [--threads N] [--no-times]\n"
    "                     [--live-range FILE] FILE\n"
    "\n"
    "Places the buffers of each temp arena (preallocated-temp allocation) of a buffer-assignment\n"
    "dump again (of an HLO module: the arenas 'hlomem assign' predicts), or those of a MiniMalloc\n"
    "CSV problem, with each of hlomem's allocation algorithms, and compares the arena sizes with\n"
    "XLA's and with the lower bound: the most bytes live at once. Values that share storage on\n"
    "purpose (in-place updates, loop state) stay together. For a dump, XLA's own arena is also\n"
    "computed again (its best-fit heap re-run, its pointer tables laid out as\n"
    "CombineTempAllocations does). Every placement is checked: no two buffers live at the same\n"
    "time share bytes, and for a dump, the dump with the new offsets passes 'hlomem check'.\n"
    "\n"
    "Algorithms:\n"
    "  best-fit            XLA's heap: the smaller of its spatial and temporal orders\n"
    "  best-fit-spatial    XLA's GlobalDecreasingSizeBestFitHeap, by size\n"
    "  best-fit-temporal   the same, by live-range length\n"
    "  greedy-by-size      TensorFlow Lite's arena planner\n"
    "  first-fit           each buffer at the lowest offset, in order of start\n"
    "  improve             local search from the best of the above (and of XLA's placement)\n"
    "  exact               branch and bound, the lower bound first; optimal when it finishes,\n"
    "                      and it says what it proved: the largest arena in which nothing fits\n"
    "\n"
    "  --algorithm NAME|all  run one algorithm (default: all)\n"
    "  --output FILE         write the best placement as MiniMalloc CSV (with several arenas,\n"
    "                        FILE.color<C>.csv for each; '-': to standard output, instead of\n"
    "                        the report)\n"
    "  --alignment N         align every buffer to N bytes (dumps: by default the largest power\n"
    "                        of two dividing XLA's offsets in the arena)\n"
    "  --capacity BYTES      place within BYTES rather than minimising, as MiniMalloc does: the\n"
    "                        heuristics fit or not, and exact searches at that capacity until it\n"
    "                        places every buffer or proves that no placement fits\n"
    "  --time-limit SECONDS  for improve and exact, per arena (default 10)\n"
    "  --threads N           exact's searches at once (default: one per core; with 1, a search\n"
    "                        that completes places the same way on every run)\n"
    "  --no-times            leave out run times, so that the output is the same on every run\n"
    "  --live-range FILE     the dump's separate -live-range.txt\n"
    "  --json                one JSON object\n"
    "A CSV with an offset column is a solution (MiniMalloc's, say): checked, its problems listed.\n"
    "Exit status: 0 done, 1 a placement failed its check (the given one, or a bug) or, with\n"
    "--capacity, some arena was not placed within it, 2 bad usage or unreadable input.\n";

}  // namespace

int run_repack(arguments const& args, std::ostream& out, std::ostream& err) {
    bool as_json = false, times = true;
    std::optional<std::string> file, output;
    hlomem::load_options load_options;
    hlomem::repack_options options;
    std::optional<std::int64_t> alignment, seconds, threads;
    argument_reader arg("repack", repack_usage, args, err);
    while (arg.next()) {
        if (arg.is("--json")) {
            as_json = true;
        } else if (arg.is("--no-times")) {
            times = false;
        } else if (arg.is_help()) {
            return arg.help(out);
        } else if (arg.is("--algorithm")) {
            auto v = arg.value();
            if (!v) return arg.error("--algorithm needs a name");
            auto const only = *v == "all" ? std::nullopt : hlomem::allocation_algorithm_named(*v);
            if (*v != "all" && !only) return arg.error("unknown algorithm '" + *v + "'");
            if (only) options.algorithms = {*only};
        } else if (arg.is("--output")) {
            if (!(output = arg.value())) return arg.error("--output needs a file");
        } else if (arg.is("--live-range")) {
            if (!(load_options.live_range_file = arg.value())) return arg.error("--live-range needs a file");
        } else if (arg.is("--alignment")) {
            if (!(alignment = positive_decimal(arg.value()))) return arg.error("--alignment needs a positive number");
        } else if (arg.is("--capacity")) {
            if (!(options.capacity = positive_decimal(arg.value()))) return arg.error("--capacity needs a positive number of bytes");
        } else if (arg.is("--time-limit")) {
            if (!(seconds = positive_at_most(arg.value(), 86400))) return arg.error("--time-limit needs a number of seconds (1 to 86400)");
        } else if (arg.is("--threads")) {
            if (!(threads = positive_at_most(arg.value(), 1024))) return arg.error("--threads needs a number of threads (1 to 1024)");
        } else if (auto status = arg.take_file_or_unexpected(file)) {
            return *status;
        }
    }
    if (!file) return arg.usage();
    if (seconds) options.time_limit = std::chrono::milliseconds(*seconds * 1000);
    options.threads = static_cast<unsigned>(threads.value_or(0));  // 0: one per core
    // The arenas: every temp allocation of a dump (or a module's predicted one), or the CSV's problem.
    auto in = open_input(*file, err);
    if (!in) return exit_error;
    using hlomem::dump_kind;
    if (in->kind != dump_kind::buffer_assignment && in->kind != dump_kind::minimalloc_csv && in->kind != dump_kind::hlo_module) {
        err << "hlomem repack: " << *file << ": neither a buffer-assignment dump (first line 'BufferAssignment:'), an HLO module "
            << "('HloModule name, ...') nor a MiniMalloc CSV (a header such as 'id,lower,upper,size')\n";
        return exit_error;
    }
    auto* loaded = load(*in, load_options, err);
    if (!loaded) return exit_error;
    auto const* ba = loaded->assignment();
    if (auto const* modules = std::get_if<std::vector<hlomem::basic_hlo_module<hlomem::view_policy>>>(&loaded->model)) {
        if (modules->size() != 1) return usage_error(err, "repack", *file + ": " + std::to_string(modules->size()) + " modules; give one");
        try {
            ba = &keep_until_exit(hlomem::assign_buffers(modules->front()));
        } catch (hlomem::error const& e) {
            err << "hlomem repack: " << *file << ": " << e.what() << '\n';
            return exit_error;
        }
    }
    std::vector<hlomem::repack_arena> arenas;
    if (ba) {
        hlomem::temp_arena_options arena_options;
        arena_options.alignment = alignment;
        arenas = hlomem::repack_arenas_of(*ba, arena_options);
    } else {
        arenas.push_back(hlomem::repack_arena_of(std::move(std::get<hlomem::allocation_problem>(loaded->model)), alignment));
    }
    auto const result = hlomem::repack(std::move(arenas), ba, options);
    for (auto const& why : result.invalid) err << "hlomem repack: " << why << '\n';
    int const status = result.findings() ? exit_findings : exit_ok;
    if (output && *output == "-") {
        auto const why = hlomem::write_best_placement(out, result);
        if (why) err << "hlomem repack: --output -: " << *why << '\n';
        return why ? exit_error : status;
    }
    if (auto const failed = output ? hlomem::write_best_placements(*output, result, ba) : std::nullopt) {
        err << "hlomem repack: cannot write '" << *failed << "'\n";
        return exit_error;
    }
    as_json ? hlomem::print_repack_json(out, *file, result, ba, times) : hlomem::print_repack_text(out, *file, result, ba, times);
    return status;
}

}  // namespace hlomem_cli
