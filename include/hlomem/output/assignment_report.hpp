// hlomem/output/assignment_report.hpp: what `hlomem report` prints for a buffer-assignment dump, a
// separate live-range file and a memory-usage report.
#ifndef HLOMEM_OUTPUT_ASSIGNMENT_REPORT_HPP
#define HLOMEM_OUTPUT_ASSIGNMENT_REPORT_HPP

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/detail/two_tasks.hpp>
#include <hlomem/dump.hpp>
#include <hlomem/hlo/attribution.hpp>
#include <hlomem/hlo/donation.hpp>
#include <hlomem/memory.hpp>
#include <hlomem/memory/peak.hpp>
#include <hlomem/parser/worker_threads.hpp>
#include <hlomem/placement/temp_optimum.hpp>

#include <hlomem/output/donation_report.hpp>
#include <hlomem/output/percent.hpp>
#include <hlomem/output/json_elements.hpp>
#include <hlomem/output/json_writer.hpp>
#include <hlomem/output/memory_analysis_report.hpp>
#include <hlomem/output/sources.hpp>

namespace hlomem {

/// Everything the report shows about one buffer assignment, computed once (for either policy: the
/// tool and the Python module both view the text; a program may keep its own strings).
template <class P = hlomem::default_policy>
struct buffer_assignment_facts {
    hlomem::basic_buffer_assignment<P> const& ba;
    std::vector<hlomem::diagnostic> warnings;
    std::optional<hlomem::xla_peak> peak;
    std::vector<hlomem::color_live_bytes> colors;
    std::vector<std::string> notes;  // where extra inputs came from
    hlomem::size_function_kind sizing = hlomem::size_function_kind::xla;
    std::vector<hlomem::shared_buffer> buffers;
    std::vector<hlomem::color_bounds> bounds;
    std::vector<hlomem::color_padding> padding;
    std::size_t violations = 0;
    hlomem::basic_source_attribution<P> sources;  // each value's metadata
    std::vector<hlomem::peak_holdings> holdings;  // each color's peak, value by value
    std::size_t depth = 3;                        // levels of the op_name tree the text shows
    hlomem::donation_analysis donations;          // from the dump alone, or with its module (dump_facts)
    hlomem::memory_analysis memory;               // what compiled.memory_analysis() reports
    std::vector<hlomem::color_temp_optimum> optima;  // the smallest temp arenas hlomem finds (with live ranges)
};

/// The smallest temp arenas hlomem found for `color`, or null (no temp arena, or no live ranges).
template <class P>
hlomem::color_temp_optimum const* temp_optimum_of(buffer_assignment_facts<P> const& f, std::int64_t color) {
    for (auto const& o : f.optima) {
        if (o.color == color) return &o;
    }
    return nullptr;
}

/// Dumps with this many values or more are reported on two threads (report_threads): some 5 MB
/// of `report --json`, where a thread's start (tens of microseconds) is small beside the
/// milliseconds it saves.
inline constexpr std::size_t report_two_threads_from = 4096;

/// The threads a report of `ba` uses (facts_with, print_buffer_assignment_json): `threads` when
/// it is 1 or more (two at most are used); for 0, two for a dump of report_two_threads_from
/// values or more where the process may use two processors, else one. The report is the same
/// whatever the count.
template <class P>
std::size_t report_threads(hlomem::basic_buffer_assignment<P> const& ba, std::size_t threads = 0) {
    if (threads > 0) return std::min<std::size_t>(threads, 2);
    return ba.values.size() >= report_two_threads_from ? std::min<std::size_t>(hlomem::parser::dump::available_threads(), 2) : 1;
}

/// The facts of `ba`; `sources_for` gives its values' metadata (attribute_values): called with
/// the colors' peaks (assigned_live_bytes) once they are known, so that a report that names only
/// the values live at the peaks reads only their texts (values_at_peaks); or, callable without
/// them (a report that lists every value), while the analyses of the assignment run.
///
/// On two threads (report_threads(ba, threads)) the work is shared, none of it written by both.
/// The other thread takes its memory in fresh pages, where this one reuses the heap the process
/// has touched already, so this thread takes what allocates most, and a little more. On the
/// 60,075 values of a 52 MB dump, with each part's time on one thread:
///   - every value's metadata (23 ms; 13 MB of records) and memory_analysis() (4 ms) here, the
///     other analyses of the assignment (19 ms) there: the facts take 30 ms, not 47, the other
///     thread's part running longer in its fresh pages;
///   - or the shared buffers, their bounds and memory_analysis() here (12 ms), the checks and
///     XLA's peak there (8 ms, 12 there); then the metadata of the values at the peaks.
template <class P, class SourcesFor>
buffer_assignment_facts<P> facts_with(hlomem::basic_buffer_assignment<P> const& ba, SourcesFor sources_for, std::size_t threads = 0) {
    buffer_assignment_facts<P> f{ba, {}, std::nullopt, {}, {}, hlomem::size_function_of(ba), {}, {}, {}, 0, {}, {}, 3, {}, {}, {}};
    bool const parallel = report_threads(ba, threads) > 1;
    std::vector<hlomem::diagnostic> soundness;
    auto buffers_and_bounds = [&] {
        f.buffers = hlomem::shared_buffers(ba);
        f.bounds = hlomem::lower_bounds(ba, f.buffers);
        if (ba.live_range) f.optima = hlomem::temp_optima(ba, f.buffers);
    };
    auto memory = [&] { f.memory = hlomem::compute_memory_analysis(ba); };
    auto checks_and_peaks = [&] {
        f.warnings = hlomem::check_consistency(ba);
        f.donations = hlomem::analyze_donations(ba);
        soundness = hlomem::check_soundness(ba);
        f.violations = soundness.size();
        if (ba.live_range && !ba.live_range->not_available) {
            f.peak = hlomem::compute_xla_peak(ba);
            for (auto& d : hlomem::compare_stated_peak(ba, *f.peak)) f.warnings.push_back(std::move(d));
            if (!f.peak->unsized.empty()) {
                f.warnings.push_back(hlomem::dump_inconsistency(0, std::to_string(f.peak->unsized.size()) +
                                             " values with a live range have no Used-values block, so XLA's peak cannot size them"));
            }
        }
    };
    auto live_bytes = [&] {
        f.colors = hlomem::assigned_live_bytes(ba, f.buffers, soundness);  // a sum over buffers when sound
        f.padding = hlomem::padding_by_color(ba, f.buffers, f.sizing, f.colors);  // the live bytes measured once
    };
    if constexpr (std::is_invocable_v<SourcesFor&>) {
        hlomem::detail::run_both(
            parallel,
            [&] {
                f.sources = sources_for();
                memory();
            },
            [&] {
                buffers_and_bounds();
                checks_and_peaks();
                live_bytes();
            });
    } else {
        hlomem::detail::run_both(
            parallel,
            [&] {
                buffers_and_bounds();
                memory();
            },
            checks_and_peaks);
        live_bytes();
        f.sources = sources_for(f.colors);
    }
    f.holdings = hlomem::peak_holdings_by_color(ba, f.colors, f.sources);
    return f;
}

/// The facts of `ba`, whose values' metadata `sources` gives (attribute_values).
template <class P>
buffer_assignment_facts<P> facts_of(hlomem::basic_buffer_assignment<P> const& ba, hlomem::basic_source_attribution<P> sources) {
    return facts_with(ba, [&] { return std::move(sources); });
}

/// The values live at the peak of their color (`colors` as assigned_live_bytes gives them), by
/// index: the values peak_holdings_by_color weighs, whose metadata the text report groups.
template <class P>
std::vector<std::size_t> values_at_peaks(hlomem::basic_buffer_assignment<P> const& ba, std::vector<hlomem::color_live_bytes> const& colors) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < ba.values.size(); ++i) {
        auto const& v = ba.values[i];
        if (v.allocation == hlomem::npos || v.size <= 0 || !v.live_range) continue;
        std::int64_t const color = ba.allocations[v.allocation].color;
        for (auto const& c : colors) {
            if (c.color == color && v.live_range->contains(c.peak_time)) out.push_back(i);
        }
    }
    return out;
}

inline std::string pad_left(std::string s, std::size_t width) {
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}
inline std::string pad_right(std::string s, std::size_t width) {
    return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}
inline std::string cut(std::string s, std::size_t width) {
    return s.size() <= width ? s : s.substr(0, width - 3) + "...";
}

template <class P>
void print_buffer_assignment_text(std::ostream& out, buffer_assignment_facts<P> const& f, std::size_t top) {
    auto const& ba = f.ba;
    out << "buffer assignment " << ba.file << '\n';
    print_memory_analysis_text(out, f.memory, 2);
    out << "  " << ba.allocations.size() << " allocations, " << ba.values.size() << " values, " << ba.shapes.size()
        << " distinct shapes\n";
    std::int64_t const total = ba.total_bytes();
    out << "  total " << total << " bytes (" << hlomem::human_bytes(total) << ")";
    if (ba.stated_total_bytes) {
        out << (*ba.stated_total_bytes == total ? ", as 'Total bytes used' states"
                                                : ", but 'Total bytes used' states " + std::to_string(*ba.stated_total_bytes));
    }
    out << "\n";
    for (auto const& n : f.notes) out << "  " << n << '\n';

    // Allocations by color and kind.
    out << "\nallocations by color and kind\n";
    out << "  color  " << pad_right("kind", 18) << pad_left("count", 7) << pad_left("bytes", 16) << '\n';
    for (auto const& g : hlomem::allocation_totals(ba)) {
        out << "  " << pad_left(std::to_string(g.color), 5) << "  " << pad_right(std::string(hlomem::to_string(g.kind)), 18)
            << pad_left(std::to_string(g.count), 7) << pad_left(std::to_string(g.bytes), 16) << "  " << hlomem::human_bytes(g.bytes)
            << '\n';
    }
    out << "         total             " << pad_left(std::to_string(ba.allocations.size()), 7)
        << pad_left(std::to_string(total), 16) << "  " << hlomem::human_bytes(total) << '\n';

    if (!f.colors.empty()) {
        out << "\npeak live bytes per color (assigned sizes; memory shared by aliases counted once)\n";
        out << "  color" << pad_left("allocated", 16) << pad_left("peak", 16) << pad_left("time", 7) << "  instruction\n";
        for (auto const& c : f.colors) {
            out << "  " << pad_left(std::to_string(c.color), 5) << pad_left(hlomem::human_bytes(c.allocated_bytes), 16)
                << pad_left(hlomem::human_bytes(c.peak_bytes), 16) << pad_left(std::to_string(c.peak_time), 7) << "  "
                << ba.live_range->instruction_at(c.peak_time) << '\n';
        }
        for (auto const& c : f.colors) {
            if (c.unranged_values > 0) {
                out << "  color " << c.color << ": " << c.unranged_values << " values (" << hlomem::human_bytes(c.unranged_bytes)
                    << ") have no live range (thread-local computations) and are not on the time axis\n";
            }
        }
    }

    if (f.peak) {
        auto const& p = *f.peak;
        bool const older = p.rule == hlomem::peak_size_rule::instruction_shape;
        out << "\nXLA's peak (HloLiveRange: unpadded ByteSizeOf of "
            << (older ? "each defining instruction" : "each value listed, of each defining instruction in the running sum")
            << ")\n";
        std::int64_t listed = 0;
        for (auto s : p.sizes) listed += s;
        out << "  time " << p.time << " (" << ba.live_range->instruction_at(p.time) << "): " << p.values.size()
            << " values listed, " << listed << " bytes (" << hlomem::human_bytes(listed) << ")";
        out << '\n';
        if (listed != p.bytes) {
            out << "  XLA's running sum there is " << p.bytes << " bytes: "
                << (older ? "" : "each value weighs its defining instruction's whole shape, and ") << "values that ended at "
                << p.time - 1 << " still count\n";
        }
        if (ba.live_range->stated_peak) {
            bool const agrees = ba.live_range->stated_peak->time == p.time && hlomem::compare_stated_peak(ba, p).empty();
            out << (agrees ? "  the dump states the same peak and list\n" : "  the dump states another peak (see warnings)\n");
        }
    } else if (ba.live_range && ba.live_range->peak_undetermined) {
        out << "\nXLA's peak: none; the dump says \"" << hlomem::peak_undetermined_text << "\"\n";
    }

    if (!f.bounds.empty() && ba.live_range) {
        out << "\nlower bound for any allocator (most bytes live at once; shared buffers counted once), and the smallest\n"
               "temp arena hlomem's exact search finds\n";
        out << "  color" << pad_left("XLA temp", 16) << pad_left("bound", 16) << pad_left("smallest found", 16)
            << pad_left("XLA above bound", 26) << pad_left("time", 7) << "   all allocations" << pad_left("bound", 16) << '\n';
        bool found = false, unsearched = false;  // a "<=" cell, a "-" cell of a temp arena
        for (auto const& b : f.bounds) {
            std::string gap = "-";
            if (b.temp_allocated_bytes > 0) {
                std::int64_t const above = b.temp_allocated_bytes - b.temp.bytes;
                gap = hlomem::human_bytes(above) + " (" +
                      fixed2(100.0 * static_cast<double>(above) / static_cast<double>(b.temp_allocated_bytes)) + "%)";
            }
            auto const* o = temp_optimum_of(f, b.color);
            std::string const smallest = !o || o->unsearched > 0 ? "-" : (o->proven ? "" : "<=") + hlomem::human_bytes(o->smallest_bytes);
            found = found || (o && o->unsearched == 0 && !o->proven);
            unsearched = unsearched || (o && o->unsearched > 0);
            out << "  " << pad_left(std::to_string(b.color), 5) << pad_left(hlomem::human_bytes(b.temp_allocated_bytes), 16)
                << pad_left(hlomem::human_bytes(b.temp.bytes), 16) << pad_left(smallest, 16) << pad_left(gap, 26)
                << pad_left(std::to_string(b.temp.time), 7) << pad_left(hlomem::human_bytes(b.allocated_bytes), 18)
                << pad_left(hlomem::human_bytes(b.all.bytes), 16) << '\n';
        }
        hlomem::temp_optimum_options const searched;
        if (found) out << "  <=: an arena found within " << searched.node_limit << " search nodes, not proven smallest\n";
        if (unsearched) out << "  -: not searched, an arena of more than " << searched.most_values << " values\n";
    }

    bool any_padding = std::any_of(f.padding.begin(), f.padding.end(),
                                   [](auto const& p) { return p.padded_bytes != p.unpadded_bytes; });
    out << "\npadding (" << hlomem::to_string(f.sizing) << " size function against unpadded shapes)\n";
    if (!any_padding) out << "  none: every array's padded size equals its unpadded size\n";
    for (auto const& p : f.padding) {
        if (p.padded_bytes == p.unpadded_bytes) continue;
        out << "  color " << p.color << ": " << hlomem::human_bytes(p.padded_bytes - p.unpadded_bytes) << " of "
            << hlomem::human_bytes(p.padded_bytes) << " is padding; at the peak (time " << p.peak_time << ") "
            << hlomem::human_bytes(p.peak_padded_bytes - p.peak_unpadded_bytes) << '\n';
    }

    for (auto const& c : f.colors) {
        auto const live = hlomem::values_live_at(ba, c.color, c.peak_time);
        if (live.empty()) continue;
        std::size_t const n = std::min(top, live.size());
        out << "\nlargest values live at the color " << c.color << " peak (time " << c.peak_time << ", "
            << live.size() << (live.size() == 1 ? " value" : " values") << " live; " << n << " shown)\n";
        out << "  " << pad_left("id", 7) << "  " << pad_right("name", 30) << pad_left("size", 12) << "  "
            << pad_right("allocation", 21) << "  shape\n";
        for (std::size_t k = 0; k < n; ++k) {
            auto const& v = ba.values[live[k]];
            auto const& a = ba.allocations[v.allocation];
            std::string alloc = std::to_string(a.index) + " " + std::string(hlomem::to_string(a.kind()));
            out << "  " << pad_left(std::to_string(v.id), 7) << "  " << pad_right(cut(v.display_name(), 30), 30)
                << pad_left(hlomem::human_bytes(v.size), 12) << "  " << pad_right(cut(alloc, 21), 21) << "  "
                << (ba.shape_of(v) ? hlomem::to_string(*ba.shape_of(v)) : std::string("?")) << '\n';
        }
    }

    print_peak_by_source(out, ba, f.holdings, f.sources, top, f.depth);

    out << "\ndonations\n";
    print_donations_text(out, f.donations, "  ");

    out << "\nsoundness: " << (f.violations == 0 ? std::string("no violations")
                                                  : std::to_string(f.violations) + " violations (run hlomem check)")
        << '\n';
    out << "\nwarnings\n";
    if (f.warnings.empty()) out << "  none: the dump agrees with itself\n";
    for (auto const& w : f.warnings) {
        out << "  " << (w.line ? ba.file + ":" + std::to_string(w.line) + ": " : std::string()) << w.message << '\n';
    }
}

/// One value as `report --json` lists it, as members of the object being written, its metadata
/// and origin (`sources`, attribute_values) last; `hlomem diff --json` lists values the same way.
template <class P, class Q>
void write_value_members(json_writer& json, hlomem::basic_buffer_assignment<P> const& ba, hlomem::basic_logical_value<P> const& v,
                         value_text_cache<P>& shape_text, hlomem::basic_source_attribution<Q> const& sources) {
    json.member("id", v.id);
    json.member("name", v.name);
    if (v.index.empty()) {
        json.member("index", "{}");  // most values: no string made
    } else {
        json.member("index", hlomem::to_string(v.index));
    }
    json.member("phi", v.is_phi);
    json.member("color", v.color);
    json.member("allocation", v.allocation == hlomem::npos ? std::optional<std::int64_t>()
                                                            : std::optional<std::int64_t>(ba.allocations[v.allocation].index));
    json.member("offset", v.offset);
    json.member("size", v.size);
    json.member("shape", shape_text(v.shape));
    json.member("instruction_shape", shape_text(v.instruction_shape));
    json.key("live_range");
    if (v.live_range) {
        json.begin_array().value(v.live_range->start).value(v.live_range->end).end_array();
    } else {
        json.null();
    }
    write_value_source(json, sources, static_cast<std::size_t>(&v - ba.values.data()), ba, &shape_text);
}

/// The report of `f` as one JSON document, every value listed: the values, most of its text,
/// on report_threads(f.ba, threads) threads (write_elements, in runs of a sixteenth of them,
/// from 16 to 1,024 values), each thread with texts of its own; the same text on any.
template <class P>
void print_buffer_assignment_json(std::ostream& os, buffer_assignment_facts<P> const& f, std::size_t threads = 0) {
    auto const& ba = f.ba;
    json_writer json(os);
    value_text_cache<P> shape_text(ba);
    json.begin_object();
    json.member("kind", "buffer_assignment");
    json.member("file", ba.file);
    json.key("memory_analysis");
    write_memory_analysis_json(json, f.memory);
    json.key("allocations").begin_array();
    for (auto const& a : ba.allocations) {
        json.begin_object();
        json.member("index", a.index);
        json.member("size", a.size);
        json.member("color", a.color);
        json.member("kind", hlomem::to_string(a.kind()));
        json.member("parameter", a.parameter_number);
        if (a.parameter_number) {
            json.member("parameter_shape_index", hlomem::to_string(a.parameter_shape_index));
            json.member("parameter_shape", shape_text(a.parameter_shape));
        }
        json.member("output_shape", a.output_shape ? shape_text(*a.output_shape) : std::nullopt);
        json.member("constant", a.is_constant);
        json.member("thread_local", a.is_thread_local);
        json.member("maybe_live_out", a.maybe_live_out);
        json.member("preallocated_temp", a.is_preallocated_temp);
        json.key("values").begin_array();
        for (std::size_t vi : a.values) json.value(ba.values[vi].id);
        json.end_array();
        json.end_object();
    }
    json.end_array();
    json.key("values").begin_array();
    elements_options const share{report_threads(ba, threads), std::clamp<std::size_t>(ba.values.size() / 16, 16, 1024)};
    write_elements(
        json, ba.values.size(), [&] { return value_text_cache<P>(ba); },
        [&](json_writer& w, value_text_cache<P>& texts, std::size_t i) {
            w.begin_object();
            write_value_members(w, ba, ba.values[i], texts, f.sources);
            w.end_object();
        },
        share);
    json.end_array();
    json.member("total_bytes", ba.total_bytes());
    json.member("stated_total_bytes", ba.stated_total_bytes);
    json.key("live_range");
    if (!ba.live_range) {
        json.null();
    } else {
        json.begin_object();
        json.member("max", ba.live_range->max);
        json.member("instructions", ba.live_range->instruction_sequence.size());
        json.member("buffer_live_ranges", ba.live_range->buffer_live_ranges.size());
        if (f.peak) {
            json.member("peak_time", f.peak->time);
            json.member("peak_bytes", f.peak->bytes);
            std::int64_t listed = 0;
            for (auto sz : f.peak->sizes) listed += sz;
            json.member("peak_listed_bytes", listed);
            json.member("peak_rule", f.peak->rule == hlomem::peak_size_rule::instruction_shape ? "instruction_shape"
                                                                                              : "value_subshape");
        }
        json.member("stated_peak_time", ba.live_range->stated_peak ? std::optional<std::int64_t>(ba.live_range->stated_peak->time)
                                                                   : std::nullopt);
        if (f.peak) {
            json.member("peak_matches_stated",
                        ba.live_range->stated_peak && hlomem::compare_stated_peak(ba, *f.peak).empty());
            json.key("peak_values").begin_array();
            for (std::size_t k = 0; k < f.peak->values.size(); ++k) {
                auto const& v = ba.values[f.peak->values[k]];
                json.begin_object();
                json.member("id", v.id);
                json.member("name", v.name);
                json.member("index", hlomem::to_string(v.index));
                json.member("bytes", f.peak->sizes[k]);
                json.end_object();
            }
            json.end_array();
        }
        json.end_object();
    }
    json.key("colors").begin_array();
    std::map<std::int64_t, std::int64_t> allocated;
    for (auto const& a : ba.allocations) allocated[a.color] += a.size;
    for (auto const& entry : allocated) {
        std::int64_t const color = entry.first;
        json.begin_object();
        json.member("color", color);
        json.member("allocated_bytes", entry.second);
        auto it = std::find_if(f.colors.begin(), f.colors.end(), [&](auto const& c) { return c.color == color; });
        if (it != f.colors.end()) {
            json.member("peak_live_bytes", it->peak_bytes);
            json.member("peak_time", it->peak_time);
            json.member("peak_instruction", std::string(ba.live_range->instruction_at(it->peak_time)));
        } else {
            json.key("peak_live_bytes").null();
        }
        for (auto const& b : f.bounds) {
            if (b.color != color) continue;
            json.member("temp_allocated_bytes", b.temp_allocated_bytes);
            json.member("temp_lower_bound_bytes", b.temp.bytes);
            // The smallest temp arena hlomem finds; null where an arena was not searched.
            auto const* o = temp_optimum_of(f, b.color);
            if (o && o->unsearched == 0) {
                json.member("temp_smallest_bytes", o->smallest_bytes);
                json.member("temp_smallest_proven", o->proven);
            } else {
                json.key("temp_smallest_bytes").null();
                json.key("temp_smallest_proven").null();
            }
            json.member("lower_bound_bytes", b.all.bytes);
        }
        for (auto const& p : f.padding) {
            if (p.color != color) continue;
            json.member("padded_bytes", p.padded_bytes);
            json.member("unpadded_bytes", p.unpadded_bytes);
        }
        write_peak_breakdowns(json, holdings_of(f.holdings, color), ba, f.sources);
        json.end_object();
    }
    json.end_array();
    json.member("size_function", hlomem::to_string(f.sizing));
    json.member("soundness_violations", f.violations);
    json.member("values_with_metadata", f.sources.with_metadata());
    json.key("donations");
    write_donations_json(json, f.donations);
    json.key("notes").begin_array();
    for (auto const& n : f.notes) json.value(n);
    json.end_array();
    write_line_messages(json, "warnings", f.warnings);
    json.end_object();
    json.finish();
}

// ---------------------------------------------------------------------------------------------
// A live-range file on its own, and a memory-usage report
// ---------------------------------------------------------------------------------------------

namespace detail {

/// What print_report_text and print_report_json (output/report.hpp) write for a live-range text.
template <class P>
void print_live_range_report(std::ostream& os, hlomem::basic_hlo_live_range<P> const& lr, std::string const& file, bool as_json) {
    if (as_json) {
        json_writer json(os);
        json.begin_object();
        json.member("kind", "live_range");
        json.member("file", file);
        json.member("available", !lr.not_available);
        json.member("max", lr.max);
        json.member("instructions", lr.instruction_sequence.size());
        json.member("buffer_live_ranges", lr.buffer_live_ranges.size());
        json.member("stated_peak_time", lr.stated_peak ? std::optional<std::int64_t>(lr.stated_peak->time) : std::nullopt);
        json.member("stated_peak_values", lr.stated_peak ? lr.stated_peak->entries.size() : 0);
        json.member("peak_undetermined", lr.peak_undetermined);
        json.end_object();
        json.finish();
        return;
    }
    os << "live ranges " << file << '\n';
    if (lr.not_available) {
        os << "  XLA wrote: HloLiveRange not available (finalized or constructed from proto)\n";
        return;
    }
    os << "  " << lr.instruction_sequence.size() << " instructions (max " << lr.max << "), "
       << lr.buffer_live_ranges.size() << " live ranges\n";
    if (lr.stated_peak) {
        std::int64_t listed = 0;
        for (auto const& e : lr.stated_peak->entries) listed += e.bytes;
        os << "  stated peak at " << lr.stated_peak->time << " (" << lr.instruction_at(lr.stated_peak->time) << "): "
           << lr.stated_peak->entries.size() << " values, " << listed << " bytes listed\n";
    }
    if (lr.peak_undetermined) os << "  XLA wrote: " << hlomem::peak_undetermined_text << '\n';
    os << "  read it together with its buffer-assignment dump to size the values: hlomem report DUMP --live-range "
       << file << '\n';
}

/// What print_report_text and print_report_json (output/report.hpp) write for a memory-usage report.
template <class P>
void print_memory_usage_report(std::ostream& os, hlomem::basic_memory_usage_report<P> const& r, bool as_json) {
    if (as_json) {
        json_writer json(os);
        json.begin_object();
        json.member("kind", "memory_usage_report");
        json.member("file", r.file);
        json.member("total_bytes", r.total_bytes);
        json.key("allocations").begin_array();
        for (auto const& row : r.allocations) {
            json.begin_object();
            json.member("index", row.allocation.index);
            json.member("size", row.allocation.size.text);
            json.member("approx_bytes", row.allocation.size.approx_bytes);
            json.member("percent_cumulative", row.percent);
            json.end_object();
        }
        json.end_array();
        json.member("allocations_not_shown", r.allocations_not_shown);
        std::size_t slices = 0;
        for (auto const& av : r.allocation_values) slices += av.slices.size();
        json.member("value_rows", slices);
        json.key("memory_spaces").begin_array();  // the newer layout's; empty for the older one
        for (auto const& space : r.memory_spaces) {
            json.begin_object();
            json.member("name", space.name);
            json.member("color", space.color);
            auto const meaning = hlomem::gpu_memory_space_meaning(space.color);
            json.member("gpu_meaning", meaning.empty() ? std::nullopt : std::optional<std::string_view>(meaning));
            json.member("total_bytes", space.total_bytes);
            std::size_t tables = 0;
            for (auto const& av : r.allocation_values) tables += av.allocation.index < 0 && av.allocation.color == space.color;
            json.member("value_tables", tables);
            json.end_object();
        }
        json.end_array();
        json.end_object();
        json.finish();
        return;
    }
    os << "memory-usage report " << r.file << '\n';
    os << "  total " << r.total_bytes << " bytes (" << hlomem::human_bytes(r.total_bytes) << ")\n";
    for (auto const& space : r.memory_spaces) {
        std::size_t tables = 0;
        for (auto const& av : r.allocation_values) tables += av.allocation.index < 0 && av.allocation.color == space.color;
        auto const meaning = hlomem::gpu_memory_space_meaning(space.color);
        os << "  memory space " << space.color << " (XLA's label " << std::string_view(space.name)
           << (meaning.empty() ? std::string() : "; on GPU " + std::string(meaning)) << "): " << space.total_bytes << " bytes ("
           << hlomem::human_bytes(space.total_bytes) << "), " << tables << " value tables (one per allocation, unnamed)\n";
    }
    if (!r.memory_spaces.empty()) return;
    os << "  " << r.allocations.size() << " allocations listed by size";
    if (r.allocations_not_shown) {
        os << ", " << *r.allocations_not_shown << " more under " << r.allocations_not_shown_percent.value_or(0)
           << "% not shown";
    }
    os << '\n';
    for (std::size_t k = 0; k < r.allocations.size() && k < 10; ++k) {
        auto const& row = r.allocations[k];
        auto const& h = row.allocation;
        std::string kind = h.parameter_number ? "parameter " + std::to_string(*h.parameter_number)
                           : h.is_constant     ? "constant"
                           : h.is_thread_local ? "thread-local"
                           : h.maybe_live_out  ? "maybe-live-out"
                                               : "preallocated-temp";
        if (h.parameter_number && h.maybe_live_out) kind += ", maybe-live-out";
        os << "  allocation " << pad_left(std::to_string(h.index), 4) << "  " << pad_left(std::string(h.size.text), 10)
           << "  (" << pad_left(std::to_string(row.percent), 3) << "% cumulative)  " << kind << '\n';
    }
}

}  // namespace detail

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_ASSIGNMENT_REPORT_INSTANTIATIONS(EXTERN, P) \
    EXTERN template buffer_assignment_facts<P> facts_of<P>(basic_buffer_assignment<P> const&, basic_source_attribution<P>); \
    EXTERN template void print_buffer_assignment_text<P>(std::ostream&, buffer_assignment_facts<P> const&, std::size_t); \
    EXTERN template void print_buffer_assignment_json<P>(std::ostream&, buffer_assignment_facts<P> const&, std::size_t);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_ASSIGNMENT_REPORT_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_ASSIGNMENT_REPORT_HPP
