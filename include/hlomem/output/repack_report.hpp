// hlomem/output/repack_report.hpp: what `hlomem repack` prints for a repack_result
// (placement/repack.hpp): per arena XLA's own arena and its reproduction, the lower bound, each
// algorithm's bytes, gap and time, what the exact search proved, and the best placement; as text
// (print_repack_text) and JSON (print_repack_json). `times` false leaves the times and node counts
// out, so that the output of a run can be compared with another's.
#ifndef HLOMEM_OUTPUT_REPACK_REPORT_HPP
#define HLOMEM_OUTPUT_REPACK_REPORT_HPP

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <string>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/output/json_writer.hpp>
#include <hlomem/output/percent.hpp>
#include <hlomem/placement/minimalloc_csv.hpp>
#include <hlomem/placement/repack.hpp>

namespace hlomem {

namespace detail::repack_report {

/// What exact's lower bound rests on (placement/minimize.hpp, bound_proof).
inline std::string proof_basis(repack_row const& row) {
    switch (row.proof) {
        case bound_proof::live_bytes: return "the most bytes live at once";
        case bound_proof::stacked_bytes: return "buffers that must stack";
        case bound_proof::search:
            return "a complete search at " + std::to_string(row.refuted) +
                   (row.granularity > 1 ? ", arenas being multiples of " + std::to_string(row.granularity) : std::string());
    }
    return "?";
}

/// What exact proved when minimising: `optimal` or the gap, the largest arena nothing fits in,
/// and what that rests on.
inline std::string exact_proof(repack_row const& row) {
    std::string const none = "nothing fits in " + std::to_string(row.lower_bound - 1) + " bytes (" + proof_basis(row) + ")";
    if (row.optimal) return "optimal: " + none;
    return "best found, not proven optimal: " + none + ", gap " + std::to_string(row.bytes - row.lower_bound) + " bytes";
}

/// How an algorithm did at a fixed capacity.
inline std::string capacity_note(repack_row const& row, std::int64_t capacity) {
    switch (*row.within) {
        case search_status::feasible: return "fits in " + std::to_string(capacity);
        case search_status::infeasible:
            return row.algorithm == allocation_algorithm::exact ? "proven: nothing fits in " + std::to_string(capacity)
                                                                        : "over " + std::to_string(capacity);
        // Out of time or nodes, or a failure that proves nothing: the search places a sharing
        // group live in several segments over its whole span (placement/exact.hpp, place_within).
        case search_status::budget_exhausted: return "not decided";
    }
    return "?";
}

/// `bytes` over `bound`, as a percentage with a sign ("+1.50%").
inline std::string percent_over(std::int64_t bytes, std::int64_t bound) {
    if (bound <= 0) return bytes == 0 ? "+0.00%" : "-";
    return "+" + fixed2(100.0 * static_cast<double>(bytes - bound) / static_cast<double>(bound)) + "%";
}

}  // namespace detail::repack_report

/// `hlomem repack --json`: file and arenas (color, allocation, buffers, XLA's bytes and their
/// reproduction, the lower bound, each algorithm's figures, the best).
template <class P>
void print_repack_json(std::ostream& out, std::string const& file, repack_result const& r, basic_buffer_assignment<P> const* ba,
                              bool times = true) {
    json_writer json(out);
    json.begin_object();
    json.member("file", file);
    json.key("arenas").begin_array();
    for (std::size_t k = 0; k < r.arenas.size(); ++k) {
        auto const& a = r.arenas[k];
        std::int64_t const bound = lower_bound_bytes(a.problem);
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
        if (r.capacity) {
            json.member("capacity", *r.capacity);
            json.member("placed", r.best(k) != nullptr);
        }
        json.key("algorithms").begin_object();
        for (auto const& row : r.rows[k]) {
            bool const exact = row.algorithm == allocation_algorithm::exact;
            json.key(to_string(row.algorithm)).begin_object();
            if (row.within) {
                json.member("fits", row.fits());
                if (exact) json.member("status", to_string(*row.within));
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
                json.member("proof", to_string(row.proof));
                if (row.proof == bound_proof::search) json.member("refuted_bytes", row.refuted);
                json.member("granularity", row.granularity);
                json.member("gap_bytes", row.bytes - row.lower_bound);
            }
            if (exact && times) json.member("nodes", row.nodes);
            if (times) json.member("ms", row.ms);
            json.end_object();
        }
        json.end_object();
        json.key("best");
        if (auto const* best = r.best(k)) {
            json.begin_object();
            json.member("algorithm", to_string(best->algorithm));
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
}

/// `hlomem repack`: per arena, XLA's arena and its reproduction (or the given placement), the lower
/// bound, a table of the algorithms, and the best placement.
template <class P>
void print_repack_text(std::ostream& out, std::string const& file, repack_result const& r, basic_buffer_assignment<P> const* ba,
                              bool times = true) {
    using namespace detail::repack_report;
    out << file << '\n';
    if (r.arenas.empty()) out << "  no temp arena: the dump has no preallocated-temp allocation\n";
    for (std::size_t k = 0; k < r.arenas.size(); ++k) {
        auto const& a = r.arenas[k];
        std::int64_t const bound = lower_bound_bytes(a.problem);
        auto line = [&](std::string label, std::int64_t bytes, std::string const& note) {
            label.resize(22, ' ');
            std::string number = std::to_string(bytes);
            if (number.size() < 14) number.insert(0, 14 - number.size(), ' ');
            out << "  " << label << number << "  " << human_bytes(bytes) << note << '\n';
        };
        if (a.xla) {
            auto const& x = *a.xla;
            std::size_t values = 0;
            for (auto const& v : x.values) values += v.size();
            out << "temp arena: allocation " << ba->allocations[x.allocation].index << ", color " << x.color << ", "
                << a.problem.buffers.size() << " buffers (" << values << " values), alignment " << x.alignment
                << (x.alignment_inferred ? " (inferred)" : "") << '\n';
            line("XLA's arena", x.xla_bytes, "");
            auto const& rep = *a.reproduced;
            line("  reproduced", rep.arena_bytes, rep.arena_bytes == x.xla_bytes ? ", as XLA's" : ", not as XLA's");
            out << "    ";
            if (rep.heap_buffers > 0) {
                out << "heap of " << rep.heap_buffers << " buffers: " << rep.heap.bytes << " bytes ("
                    << to_string(rep.heap.order) << " order), "
                    << (rep.heap.bytes == rep.xla_heap_bytes ? "as XLA's" : "XLA's has " + std::to_string(rep.xla_heap_bytes)) << ", "
                    << (rep.offsets_differing == 0 ? std::string("every offset as XLA's")
                                                 : std::to_string(rep.offsets_differing) + " offsets differ")
                    << "; ";
            } else {
                out << "no heap; ";
            }
            if (rep.own_allocations == 0) {
                out << "no pointer tables in allocations of their own\n";
            } else {
                out << rep.own_allocations << " pointer table" << (rep.own_allocations == 1 ? "" : "s")
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
                    out << "    " << to_string(a.given_errors[e].kind) << ": " << a.given_errors[e].message << '\n';
                }
                if (a.given_errors.size() > 10) out << "    ... and " << a.given_errors.size() - 10 << " more\n";
            }
        }
        line("lower bound", bound, ": no placement is smaller");
        if (r.capacity) line("capacity", *r.capacity, bound > *r.capacity ? ": below the lower bound" : "");
        out << "  algorithm                    bytes  over bound" << (times ? "          ms" : "") << '\n';
        for (auto const& row : r.rows[k]) {
            bool const exact = row.algorithm == allocation_algorithm::exact;
            std::string name(to_string(row.algorithm));
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
                out << "  " << capacity_note(row, *r.capacity);
                if (exact && times) out << ", " << row.nodes << " nodes";
            } else if (exact) {
                out << "  " << exact_proof(row);
            }
            out << '\n';
        }
        if (auto const* best = r.best(k)) {
            std::string note = " (" + std::string(to_string(best->algorithm)) + ")";
            std::string const given = a.xla ? "XLA's" : "the given placement";
            if (a.given_bytes && *a.given_bytes == best->bytes) {
                note += ", the same as " + given;
            } else if (a.given_bytes && *a.given_bytes > 0) {
                note += ", " + std::to_string(*a.given_bytes - best->bytes) + " bytes (" +
                        fixed2(100.0 * static_cast<double>(*a.given_bytes - best->bytes) / static_cast<double>(*a.given_bytes)) +
                        "%) below " + given;
            }
            line("best", best->bytes, note);
        } else if (r.capacity) {
            bool proven = false;
            for (auto const& row : r.rows[k]) proven = proven || (row.within && *row.within == search_status::infeasible && row.algorithm == allocation_algorithm::exact);
            out << "  not placed within " << *r.capacity << " bytes"
                << (bound > *r.capacity ? ": the lower bound is above it\n"
                    : proven          ? ": the exact search proved that nothing fits\n"
                                      : ": no algorithm placed it, and nothing was proven\n");
        }
    }
}

/// `out.csv` -> `out.color1.csv` (or `out.color1.allocation7.csv` when colors repeat).
inline std::string repack_output_name(std::string const& path, std::string const& tag) {
    auto const slash = path.find_last_of('/');
    auto const dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return path + "." + tag;
    return path.substr(0, dot) + "." + tag + path.substr(dot);
}

/// The best placement of each arena as a MiniMalloc CSV (placement/minimalloc_csv.hpp): `path`
/// itself for one arena, else one file per arena named by repack_output_name (its color, and its
/// allocation where colors repeat). The name of a file that cannot be written, or nullopt.
template <class P>
std::optional<std::string> write_best_placements(std::string const& path, repack_result const& result,
                                                 basic_buffer_assignment<P> const* ba) {
    std::map<std::int64_t, int> colors;
    for (auto const& a : result.arenas) ++colors[a.xla ? a.xla->color : 0];
    for (std::size_t k = 0; k < result.arenas.size(); ++k) {
        auto const* best = result.best(k);
        if (!best) continue;
        std::string name = path;
        if (result.arenas.size() > 1) {
            auto const& x = *result.arenas[k].xla;
            std::string tag = "color" + std::to_string(x.color);
            if (colors[x.color] > 1) tag += ".allocation" + std::to_string(ba->allocations[x.allocation].index);
            name = repack_output_name(path, tag);
        }
        std::ofstream file_out(name, std::ios::binary);
        if (!file_out) {
            return name;
        }
        write_minimalloc_csv(file_out, best->placed);
    }
    return std::nullopt;
}

/// The best placement of the one arena of `result` as a MiniMalloc CSV on `out` (nothing when no
/// placement fits); why not, when `result` has another number of arenas.
inline std::optional<std::string> write_best_placement(std::ostream& out, repack_result const& result) {
    if (result.arenas.size() != 1) {
        return "a stream takes one arena's placement; this file has " + std::to_string(result.arenas.size()) +
               ", give a file name";
    }
    if (auto const* best = result.best(0)) write_minimalloc_csv(out, best->placed);
    return std::nullopt;
}

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_REPACK_REPORT_HPP
