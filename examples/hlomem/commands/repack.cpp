// commands/repack.cpp: `hlomem repack [--json] [--algorithm NAME|all] [--output FILE] FILE` — places
// the buffers of each temp arena of a buffer-assignment dump (or of a MiniMalloc CSV problem) again
// with hlomem's allocation algorithms and compares the arena sizes with XLA's and the lower bound.
// With `--capacity N` it answers MiniMalloc's question instead: does everything fit in N bytes
// (the exact search places within N or proves that nothing does)?
#include <chrono>
#include <cstdint>
#include <fstream>
#include <map>
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

namespace hlomem_cli {
namespace {

constexpr char const* repack_usage =
    "usage: hlomem repack [--json] [--algorithm NAME|all] [--output FILE] [--alignment N]\n"
    "                     [--capacity BYTES] [--time-limit SECONDS] [--no-times]\n"
    "                     [--live-range FILE] FILE\n"
    "\n"
    "Places the buffers of each temp arena (preallocated-temp allocation) of a buffer-assignment\n"
    "dump again, or those of a MiniMalloc CSV problem, with each of hlomem's allocation\n"
    "algorithms, and compares the arena sizes with XLA's and with the lower bound: the most bytes\n"
    "live at once. Values that share storage on purpose (in-place updates, loop state) stay\n"
    "together. For a dump, XLA's own arena is also computed again (its best-fit heap re-run, its\n"
    "pointer tables laid out as CombineTempAllocations does). Every placement is checked: no two\n"
    "buffers live at the same time share bytes, and for a dump, the dump with the new offsets\n"
    "passes 'hlomem check'.\n"
    "\n"
    "Algorithms:\n"
    "  best-fit            XLA's heap: the smaller of its spatial and temporal orders\n"
    "  best-fit-spatial    XLA's GlobalDecreasingSizeBestFitHeap, by size\n"
    "  best-fit-temporal   the same, by live-range length\n"
    "  greedy-by-size      TensorFlow Lite's arena planner\n"
    "  first-fit           each buffer at the lowest offset, in order of start\n"
    "  improve             local search from the best of the above (and of XLA's placement)\n"
    "  exact               branch and bound from the lower bound up; optimal when it finishes,\n"
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
    "  --no-times            leave out run times, so that the output is the same on every run\n"
    "  --live-range FILE     the dump's separate -live-range.txt\n"
    "  --json                one JSON object\n"
    "A CSV with an offset column is a solution (from MiniMalloc, say): it is checked, and its\n"
    "problems are listed.\n"
    "Exit status: 0 done, 1 a placement failed its check (the given one, or a bug) or, with\n"
    "--capacity, some arena was not placed within it, 2 bad usage or unreadable input.\n";

/// One arena to repack: a temp allocation of a dump, or a whole CSV problem.
struct repack_arena {
    std::optional<hlomem::temp_arena> xla;      ///< for dumps
    hlomem::allocation_problem problem;          ///< with the given placement, when there is one
    std::optional<std::int64_t> given_bytes;     ///< the placement in the input: XLA's, or the CSV's offsets
    std::vector<hlomem::diagnostic> given_errors;  ///< what is wrong with a given CSV solution
    std::optional<hlomem::xla_reproduction> reproduced;
};

struct repack_row {
    hlomem::allocation_algorithm algorithm;
    std::int64_t bytes = 0;
    double ms = 0;
    bool optimal = false;
    std::int64_t lower_bound = 0;  ///< exact: no placement is smaller (lower_bound - 1 proven too small)
    std::uint64_t nodes = 0;       ///< exact: search nodes
    /// With --capacity: how the algorithm did; `placed` has offsets only when it fits.
    std::optional<hlomem::search_status> within;
    hlomem::allocation_problem placed;

    bool fits() const noexcept { return !within || *within == hlomem::search_status::feasible; }
};

/// What exact proved when minimising: `optimal` or not, and the largest arena nothing fits in.
inline std::string exact_proof(repack_row const& row) {
    std::string const none = "nothing fits in " + std::to_string(row.lower_bound - 1) + " bytes";
    return row.optimal ? "optimal: " + none : "best found, not proven optimal: " + none;
}

/// How an algorithm did at a fixed capacity.
inline std::string capacity_note(repack_row const& row, std::int64_t capacity) {
    switch (*row.within) {
        case hlomem::search_status::feasible: return "fits in " + std::to_string(capacity);
        case hlomem::search_status::infeasible:
            return row.algorithm == hlomem::allocation_algorithm::exact ? "proven: nothing fits in " + std::to_string(capacity)
                                                                        : "over " + std::to_string(capacity);
        // Out of time or nodes, or a failure that proves nothing: the search places a sharing
        // group live in several segments over its whole span (placement/exact.hpp, place_within).
        case hlomem::search_status::budget_exhausted: return "not decided";
    }
    return "?";
}

/// `out.csv` -> `out.color1.csv` (or `out.color1.allocation7.csv` when colors repeat).
inline std::string output_name(std::string const& path, std::string const& tag) {
    auto const slash = path.find_last_of('/');
    auto const dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return path + "." + tag;
    return path.substr(0, dot) + "." + tag + path.substr(dot);
}

inline std::string percent_over(std::int64_t bytes, std::int64_t bound) {
    if (bound <= 0) return bytes == 0 ? "+0.00%" : "-";
    return "+" + fixed2(100.0 * static_cast<double>(bytes - bound) / static_cast<double>(bound)) + "%";
}

/// Overlaps and overruns check_soundness finds in allocation `ai`.
inline std::size_t overlaps_in(hlomem::buffer_assignment const& ba, std::size_t ai) {
    std::size_t n = 0;
    for (auto const& v : hlomem::check_soundness(ba)) {
        n += v.allocation == ai && (v.kind == hlomem::diagnostic_kind::overlap || v.kind == hlomem::diagnostic_kind::overrun);
    }
    return n;
}

}  // namespace

int run_repack(arguments const& args, std::ostream& out, std::ostream& err) {
    bool as_json = false, times = true;
    std::optional<std::string> file, output;
    hlomem::load_options load_options;
    std::optional<hlomem::allocation_algorithm> only;
    std::optional<std::int64_t> alignment, capacity;
    double time_limit = 10;
    argument_reader arg("repack", repack_usage, args, err);
    auto positive = [](std::optional<std::string> const& v) -> std::optional<std::int64_t> {
        auto const n = v ? decimal(*v) : std::nullopt;
        return n && *n > 0 ? n : std::nullopt;
    };
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
            if (*v != "all") {
                only = hlomem::allocation_algorithm_named(*v);
                if (!only) return arg.error("unknown algorithm '" + *v + "'");
            }
        } else if (arg.is("--output")) {
            if (!(output = arg.value())) return arg.error("--output needs a file");
        } else if (arg.is("--live-range")) {
            if (!(load_options.live_range_file = arg.value())) return arg.error("--live-range needs a file");
        } else if (arg.is("--alignment")) {
            if (!(alignment = positive(arg.value()))) return arg.error("--alignment needs a positive number");
        } else if (arg.is("--capacity")) {
            if (!(capacity = positive(arg.value()))) return arg.error("--capacity needs a positive number of bytes");
        } else if (arg.is("--time-limit")) {
            auto n = positive(arg.value());
            if (!n || *n > 86400) return arg.error("--time-limit needs a number of seconds (1 to 86400)");
            time_limit = static_cast<double>(*n);
        } else if (auto status = arg.take_file_or_unexpected(file)) {
            return *status;
        }
    }
    if (!file) return arg.usage();

    // The arenas: every temp allocation of a dump, or the CSV's one problem.
    std::vector<repack_arena> arenas;
    auto in = read_input(*file, err);
    if (!in) return exit_error;
    if (in->kind != hlomem::dump_kind::buffer_assignment && in->kind != hlomem::dump_kind::minimalloc_csv) {
        err << "hlomem repack: " << *file
            << ": neither a buffer-assignment dump (first line 'BufferAssignment:') nor a MiniMalloc CSV (a header "
               "such as 'id,lower,upper,size')\n";
        return exit_error;
    }
    auto loaded = load(std::move(*in), load_options, err);
    if (!loaded) return exit_error;
    hlomem::buffer_assignment const* ba = loaded->assignment();
    if (ba) {
        hlomem::temp_arena_options options;
        options.alignment = alignment;
        for (auto& t : hlomem::temp_arenas(*ba, options)) {
            repack_arena r;
            r.problem = t.problem;
            r.given_bytes = t.xla_bytes;
            r.reproduced = hlomem::reproduce_xla_arena(t);
            r.xla = std::move(t);
            arenas.push_back(std::move(r));
        }
    } else {
        repack_arena r;
        r.problem = std::move(std::get<hlomem::allocation_problem>(loaded->model));
        if (alignment) {
            for (auto& b : r.problem.buffers) b.alignment = *alignment;
        }
        if (!r.problem.buffers.empty() && r.problem.buffers.front().offset) {
            r.given_bytes = hlomem::arena_size(r.problem);
            r.given_errors = hlomem::check_placement(r.problem);
        }
        arenas.push_back(std::move(r));
    }

    std::vector<hlomem::allocation_algorithm> algorithms;
    if (only) {
        algorithms.push_back(*only);
    } else {
        algorithms.assign(std::begin(hlomem::all_allocation_algorithms), std::end(hlomem::all_allocation_algorithms));
    }
    auto const limit = std::chrono::milliseconds(static_cast<std::int64_t>(time_limit * 1000));

    int status = exit_ok;
    std::vector<std::vector<repack_row>> results(arenas.size());
    for (std::size_t k = 0; k < arenas.size(); ++k) {
        auto& arena = arenas[k];
        hlomem::plan_options options;
        if (arena.xla) options.heap_keys = arena.xla->heap_keys;
        if (arena.given_bytes && arena.given_errors.empty()) {
            std::vector<std::int64_t> start;
            for (auto const& b : arena.problem.buffers) start.push_back(b.offset.value_or(0));
            options.start = std::move(start);
        }
        options.improve.time_limit = limit;
        options.exact.time_limit = limit;
        for (auto algorithm : algorithms) {
            repack_row row;
            row.algorithm = algorithm;
            row.placed = arena.problem;
            for (auto& b : row.placed.buffers) b.offset.reset();
            auto const started = std::chrono::steady_clock::now();
            if (capacity && algorithm == hlomem::allocation_algorithm::exact) {
                // MiniMalloc's question: a placement within the capacity, or a proof there is none.
                auto const f = hlomem::place_within(row.placed, *capacity, options.exact);
                row.within = f.status;
                row.bytes = f.bytes;
                row.nodes = f.nodes;
            } else {
                auto const r = hlomem::plan(row.placed, algorithm, options);
                row.bytes = r.bytes;
                row.optimal = r.optimal;
                row.lower_bound = r.lower_bound;
                row.nodes = algorithm == hlomem::allocation_algorithm::exact ? r.work : 0;
                if (capacity) row.within = r.bytes <= *capacity ? hlomem::search_status::feasible : hlomem::search_status::infeasible;
            }
            row.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
            if (!row.fits()) {
                results[k].push_back(std::move(row));
                continue;
            }
            // Every placement is checked, and for a dump, the dump carrying it must stay sound.
            auto const problems = hlomem::check_placement(row.placed, capacity);
            std::size_t unsound = 0;
            if (arena.xla && ba) {
                unsound = overlaps_in(hlomem::with_placement(*ba, *arena.xla, row.placed), arena.xla->allocation);
                std::size_t const before = overlaps_in(*ba, arena.xla->allocation);
                unsound = unsound > before ? unsound - before : 0;
            }
            if (!problems.empty() || unsound > 0) {
                err << "hlomem repack: " << hlomem::to_string(algorithm) << " made an invalid placement"
                    << (problems.empty() ? ": the dump with it is unsound\n" : ": " + problems.front().message + "\n");
                status = exit_findings;
            }
            results[k].push_back(std::move(row));
        }
    }

    auto best_of = [&](std::size_t k) -> repack_row const* {
        repack_row const* best = nullptr;
        for (auto const& row : results[k]) {
            if (row.fits() && (!best || row.bytes < best->bytes)) best = &row;
        }
        return best;
    };
    for (std::size_t k = 0; k < arenas.size(); ++k) {
        if (!arenas[k].given_errors.empty() || (capacity && !best_of(k))) status = exit_findings;
    }
    if (output && *output == "-") {
        if (arenas.size() != 1) {
            err << "hlomem repack: --output - writes one arena; this file has " << arenas.size() << ", give a file name\n";
            return exit_error;
        }
        if (auto const* best = best_of(0)) hlomem::write_minimalloc_csv(out, best->placed);
        return status;
    }
    if (output) {
        std::map<std::int64_t, int> colors;
        for (auto const& a : arenas) ++colors[a.xla ? a.xla->color : 0];
        for (std::size_t k = 0; k < arenas.size(); ++k) {
            auto const* best = best_of(k);
            if (!best) continue;
            std::string path = *output;
            if (arenas.size() > 1) {
                auto const& x = *arenas[k].xla;
                std::string tag = "color" + std::to_string(x.color);
                if (colors[x.color] > 1) tag += ".allocation" + std::to_string(ba->allocations[x.allocation].index);
                path = output_name(*output, tag);
            }
            std::ofstream file_out(path, std::ios::binary);
            if (!file_out) {
                err << "hlomem repack: cannot write '" << path << "'\n";
                return exit_error;
            }
            hlomem::write_minimalloc_csv(file_out, best->placed);
        }
    }

    if (as_json) {
        json_writer json(out);
        json.begin_object();
        json.member("file", *file);
        json.key("arenas").begin_array();
        for (std::size_t k = 0; k < arenas.size(); ++k) {
            auto const& a = arenas[k];
            std::int64_t const bound = hlomem::lower_bound_bytes(a.problem);
            json.begin_object();
            json.key("color");
            if (a.xla) json.value(a.xla->color); else json.null();
            json.key("allocation");
            if (a.xla) json.value(ba->allocations[a.xla->allocation].index); else json.null();
            json.member("buffers", a.problem.buffers.size());
            if (a.xla) {
                std::size_t values = 0;
                for (auto const& v : a.xla->values) values += v.size();
                json.member("values", values);
                json.member("alignment", a.xla->alignment);
                json.member("alignment_inferred", a.xla->alignment_inferred);
            }
            json.key("xla_bytes");
            if (a.xla) json.value(a.xla->xla_bytes); else json.null();
            if (a.reproduced) {
                json.member("xla_reproduced_bytes", a.reproduced->arena_bytes);
                json.member("xla_heap_bytes", a.reproduced->xla_heap_bytes);
                json.member("reproduced_heap_bytes", a.reproduced->heap.bytes);
                json.member("heap_offsets_differing", a.reproduced->offsets_differing);
                json.member("own_allocations", a.reproduced->own_allocations);
            }
            if (!a.xla && a.given_bytes) {
                json.member("given_bytes", *a.given_bytes);
                json.member("given_valid", a.given_errors.empty());
            }
            json.member("lower_bound_bytes", bound);
            if (capacity) {
                json.member("capacity", *capacity);
                json.member("placed", best_of(k) != nullptr);
            }
            json.key("algorithms").begin_object();
            for (auto const& row : results[k]) {
                bool const exact = row.algorithm == hlomem::allocation_algorithm::exact;
                json.key(hlomem::to_string(row.algorithm)).begin_object();
                if (row.within) {
                    json.member("fits", row.fits());
                    if (exact) json.member("status", hlomem::to_string(*row.within));
                }
                json.key("bytes");
                if (row.fits()) json.value(row.bytes); else if (exact) json.null(); else json.value(row.bytes);
                if (row.fits() || !exact) {
                    json.member("gap_percent",
                                bound > 0 ? 100.0 * static_cast<double>(row.bytes - bound) / static_cast<double>(bound) : 0.0);
                }
                if (exact && !row.within) {
                    json.member("optimal", row.optimal);
                    json.member("proven_infeasible_bytes", row.lower_bound - 1);
                }
                if (exact && times) json.member("nodes", row.nodes);
                if (times) json.member("ms", row.ms);
                json.end_object();
            }
            json.end_object();
            json.key("best");
            if (auto const* best = best_of(k)) {
                json.begin_object();
                json.member("algorithm", hlomem::to_string(best->algorithm));
                json.member("bytes", best->bytes);
                json.end_object();
            } else {
                json.null();
            }
            json.end_object();
        }
        json.end_array();
        json.end_object();
        json.finish();
        return status;
    }

    out << *file << '\n';
    if (arenas.empty()) out << "  no temp arena: the dump has no preallocated-temp allocation\n";
    for (std::size_t k = 0; k < arenas.size(); ++k) {
        auto const& a = arenas[k];
        std::int64_t const bound = hlomem::lower_bound_bytes(a.problem);
        auto line = [&](std::string label, std::int64_t bytes, std::string const& note) {
            label.resize(22, ' ');
            std::string number = std::to_string(bytes);
            if (number.size() < 14) number.insert(0, 14 - number.size(), ' ');
            out << "  " << label << number << "  " << hlomem::human_bytes(bytes) << note << '\n';
        };
        if (a.xla) {
            auto const& x = *a.xla;
            std::size_t values = 0;
            for (auto const& v : x.values) values += v.size();
            out << "temp arena: allocation " << ba->allocations[x.allocation].index << ", color " << x.color << ", "
                << a.problem.buffers.size() << " buffers (" << values << " values), alignment " << x.alignment
                << (x.alignment_inferred ? " (inferred)" : "") << '\n';
            line("XLA's arena", x.xla_bytes, "");
            auto const& r = *a.reproduced;
            line("  reproduced", r.arena_bytes, r.arena_bytes == x.xla_bytes ? ", as XLA's" : ", not as XLA's");
            out << "    ";
            if (r.heap_buffers > 0) {
                out << "heap of " << r.heap_buffers << " buffers: " << r.heap.bytes << " bytes ("
                    << hlomem::to_string(r.heap.order) << " order), "
                    << (r.heap.bytes == r.xla_heap_bytes ? "as XLA's" : "XLA's has " + std::to_string(r.xla_heap_bytes)) << ", "
                    << (r.offsets_differing == 0 ? std::string("every offset as XLA's")
                                                 : std::to_string(r.offsets_differing) + " offsets differ")
                    << "; ";
            } else {
                out << "no heap; ";
            }
            if (r.own_allocations == 0) {
                out << "no pointer tables in allocations of their own\n";
            } else {
                out << r.own_allocations << " pointer table" << (r.own_allocations == 1 ? "" : "s")
                    << " in allocations of their own\n";
            }
            if (x.values_without_live_range > 0) {
                out << "  note: " << x.values_without_live_range
                    << " values have no live range and are taken to live throughout\n";
            }
        } else {
            out << "problem: " << a.problem.buffers.size() << " buffers\n";
            if (a.given_bytes) {
                line("given placement", *a.given_bytes,
                     a.given_errors.empty() ? ", valid"
                                            : ", INVALID: " + std::to_string(a.given_errors.size()) +
                                                  (a.given_errors.size() == 1 ? " problem" : " problems"));
                for (std::size_t e = 0; e < a.given_errors.size() && e < 10; ++e) {
                    out << "    " << hlomem::to_string(a.given_errors[e].kind) << ": " << a.given_errors[e].message << '\n';
                }
                if (a.given_errors.size() > 10) out << "    ... and " << a.given_errors.size() - 10 << " more\n";
            }
        }
        line("lower bound", bound, ": no placement is smaller");
        if (capacity) line("capacity", *capacity, bound > *capacity ? ": below the lower bound" : "");
        out << "  algorithm                    bytes  over bound" << (times ? "          ms" : "") << '\n';
        for (auto const& row : results[k]) {
            bool const exact = row.algorithm == hlomem::allocation_algorithm::exact;
            std::string name(hlomem::to_string(row.algorithm));
            name.resize(20, ' ');
            bool const shown = row.fits() || !exact;  // an exact search that did not place has no arena
            std::string number = shown ? std::to_string(row.bytes) : "-";
            if (number.size() < 14) number.insert(0, 14 - number.size(), ' ');
            std::string gap = shown ? percent_over(row.bytes, bound) : "-";
            if (gap.size() < 12) gap.insert(0, 12 - gap.size(), ' ');
            out << "  " << name << number << gap;
            if (times) {
                char ms[32];
                std::snprintf(ms, sizeof ms, "%12.2f", row.ms);
                out << ms;
            }
            if (row.within) {
                out << "  " << capacity_note(row, *capacity);
                if (exact && times) out << ", " << row.nodes << " nodes";
            } else if (exact) {
                out << "  " << exact_proof(row);
            }
            out << '\n';
        }
        if (auto const* best = best_of(k)) {
            std::string note = " (" + std::string(hlomem::to_string(best->algorithm)) + ")";
            std::string const given = a.xla ? "XLA's" : "the given placement";
            if (a.given_bytes && *a.given_bytes == best->bytes) {
                note += ", the same as " + given;
            } else if (a.given_bytes && *a.given_bytes > 0) {
                note += ", " + std::to_string(*a.given_bytes - best->bytes) + " bytes (" +
                        fixed2(100.0 * static_cast<double>(*a.given_bytes - best->bytes) / static_cast<double>(*a.given_bytes)) +
                        "%) below " + given;
            }
            line("best", best->bytes, note);
        } else if (capacity) {
            bool proven = false;
            for (auto const& row : results[k]) proven = proven || (row.within && *row.within == hlomem::search_status::infeasible && row.algorithm == hlomem::allocation_algorithm::exact);
            out << "  not placed within " << *capacity << " bytes"
                << (bound > *capacity ? ": the lower bound is above it\n"
                    : proven          ? ": the exact search proved that nothing fits\n"
                                      : ": no algorithm placed it, and nothing was proven\n");
        }
    }
    return status;
}

}  // namespace hlomem_cli
