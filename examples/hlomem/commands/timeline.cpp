// commands/timeline.cpp: `hlomem timeline [-o OUT.html|OUT.svg] [--trace OUT.json] [--json] FILE` —
// the memory of a buffer-assignment dump over program order: a self-contained HTML page, a static
// SVG picture, a Chrome/Perfetto trace, or a summary. The data comes from <hlomem/memory/timeline.hpp>;
// the drawing is in timeline/page.hpp.
#include <algorithm>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/hlomem.hpp>
#include <hlomem/memory/timeline.hpp>

#include "../arguments.hpp"
#include "../cli.hpp"
#include "../input.hpp"
#include "../json_writer.hpp"
#include "../timeline/markup.hpp"
#include "../timeline/page.hpp"
#include "../timeline/summary.hpp"

namespace hlomem_cli {
namespace {

constexpr char const* timeline_usage =
    "usage: hlomem timeline [-o OUT.html|OUT.svg] [--trace OUT.json] [--json] [--live-range FILE]\n"
    "                       [--module FILE] [--size-function xla|tpu] [--max-rectangles N] FILE\n"
    "\n"
    "Draws the memory of a buffer-assignment dump over program order, one panel per color (memory\n"
    "space), as XProf's Memory Viewer does: the bytes live at each time (assigned sizes, shared\n"
    "slices counted once) with the peak marked and its instruction named, the same without tiling\n"
    "padding where tiles pad, and the buffer map: every value a rectangle over its live range at its\n"
    "offset in its allocation, allocations stacked, colored by allocation kind.\n"
    "\n"
    "  -o OUT.html         one self-contained page (inline SVG, a little JavaScript, nothing loaded\n"
    "                      from anywhere): hover or click a buffer for its card (shape, assigned,\n"
    "                      padded and unpadded bytes, allocation, live range, op_name and source line\n"
    "                      where the dump has them); the largest values at each peak in a table\n"
    "                      sortable by size, padding and program order; what holds each peak by\n"
    "                      source line, a bar per line: hovering one highlights its buffers; the\n"
    "                      buffers colored by source line (a hue family per line) on request\n"
    "  -o OUT.svg          the same pictures as one static SVG (no script)\n"
    "  --format html|svg   the format of -o when OUT does not end in .html or .svg (or is -)\n"
    "  --trace OUT.json    a Chrome/Perfetto trace (JSON trace event format): a counter track of live\n"
    "                      bytes per color, one slice per buffer, the instructions in program order;\n"
    "                      1 us of trace time = 1 step of program order\n"
    "  --json              a summary as JSON on standard output\n"
    "  --live-range FILE   the dump's separate -live-range.txt (X-live-range.txt next to\n"
    "                      X-buffer-assignment.txt is found without it)\n"
    "  --module FILE       the module the dump was assigned from, for the metadata its instruction\n"
    "                      texts lack (X.txt next to X-buffer-assignment.txt is found without it)\n"
    "  --size-function xla|tpu  padded sizes (default: tpu when the dump has tiled layouts, else xla)\n"
    "  --max-rectangles N  values drawn one by one per color (default 2000); beyond, the smallest are\n"
    "                      aggregated into grey bands per allocation and stretch of time\n"
    "OUT may be - for standard output. Without -o, --trace or --json, the summary is printed.\n"
    "Exit status: 0 when written, 2 for bad usage, an unreadable or unparsable dump, a dump\n"
    "without live ranges, or an output that cannot be written.\n";

/// The trace: JSON trace event format (Chrome's about:tracing, ui.perfetto.dev), one event per
/// line. Processes: "program order" (the instruction at each time) and one per color, with a
/// counter "live bytes" (assigned, and unpadded where tiles pad), an instant event at the peak and
/// one slice per value on lanes that never overlap (timeline.hpp trace_slices).
inline void write_timeline_trace(std::ostream& os, hlomem::buffer_assignment const& ba, hlomem::timeline const& tl,
                                 hlomem::source_attribution const& sources) {
    std::ostringstream out;
    out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"file\":";
    {
        json_writer header(out, false);
        header.value(ba.file);
    }
    out << ",\"time_unit\":\"1 us = 1 step of program order\"},\n\"traceEvents\":[\n";
    bool first = true;
    auto event = [&](auto&& write) {
        if (!first) out << ",\n";
        first = false;
        json_writer json(out, false);
        json.begin_object();
        write(json);
        json.end_object();
    };
    auto name_event = [&](char const* what, std::int64_t pid, std::optional<std::int64_t> tid, std::string const& name) {
        event([&](json_writer& j) {
            j.member("name", what).member("ph", "M").member("pid", pid);
            if (tid) j.member("tid", *tid);
            j.key("args").begin_object().member("name", name).end_object();
        });
    };
    auto sort_event = [&](std::int64_t pid, std::int64_t index) {
        event([&](json_writer& j) {
            j.member("name", "process_sort_index").member("ph", "M").member("pid", pid);
            j.key("args").begin_object().member("sort_index", index).end_object();
        });
    };
    std::int64_t program = 0;
    for (auto const& c : tl.colors) program = std::max(program, c.color + 1);
    name_event("process_name", program, std::nullopt, "program order");
    sort_event(program, 0);
    name_event("thread_name", program, 1, "instructions");
    auto const slices = hlomem::trace_slices(ba);
    std::vector<std::optional<std::int64_t>> padded(ba.values.size()), unpadded(ba.values.size());
    for (auto const& p : hlomem::padding_of_values(ba, tl.sizing)) {
        padded[p.value] = p.padded_bytes;
        unpadded[p.value] = p.unpadded_bytes;
    }
    for (std::size_t k = 0; k < tl.colors.size(); ++k) {
        auto const& c = tl.colors[k];
        name_event("process_name", c.color, std::nullopt, color_heading(c));
        sort_event(c.color, static_cast<std::int64_t>(k) + 1);
        std::size_t lanes = 0;
        for (auto const& s : slices) {
            if (s.color == c.color) lanes = std::max(lanes, s.lane + 1);
        }
        for (std::size_t lane = 0; lane < lanes; ++lane) {
            name_event("thread_name", c.color, static_cast<std::int64_t>(lane) + 1, "buffers " + std::to_string(lane + 1));
        }
        for (auto const& p : hlomem::counter_points(c)) {
            event([&](json_writer& j) {
                j.member("name", "live bytes").member("ph", "C").member("ts", p.time).member("pid", c.color);
                j.key("args").begin_object().member("assigned", p.bytes);
                if (!c.unpadded_live_bytes.empty()) j.member("unpadded", p.unpadded_bytes);
                j.end_object();
            });
        }
        event([&](json_writer& j) {
            j.member("name", peak_label(c)).member("ph", "i").member("s", "p").member("ts", c.peak_time).member("pid", c.color);
            j.member("tid", 1);
            j.key("args").begin_object().member("bytes", c.peak_bytes).member("instruction", c.peak_instruction).end_object();
        });
        for (auto const& s : slices) {
            if (s.color != c.color) continue;
            auto const& v = ba.values[s.value];
            auto const& a = ba.allocations[v.allocation];
            event([&](json_writer& j) {
                j.member("name", v.display_name()).member("cat", hlomem::to_string(a.kind())).member("ph", "X");
                j.member("ts", s.range.start).member("dur", s.range.end - s.range.start + 1);
                j.member("pid", c.color).member("tid", static_cast<std::int64_t>(s.lane) + 1);
                j.key("args").begin_object();
                j.member("id", v.id).member("bytes", v.size).member("allocation", a.index).member("offset", v.offset);
                if (auto const* shape = ba.shape_of(v)) j.member("shape", hlomem::to_string(*shape));
                if (padded[s.value]) j.member("padded_bytes", *padded[s.value]).member("unpadded_bytes", *unpadded[s.value]);
                write_instruction_members(j, v, sources[s.value]);
                j.end_object();
            });
        }
    }
    auto const& sequence = ba.live_range->instruction_sequence;
    for (std::size_t t = 0; t < sequence.size(); ++t) {
        event([&](json_writer& j) {
            j.member("name", std::string_view(sequence[t])).member("ph", "X").member("ts", t).member("dur", 1);
            j.member("pid", program).member("tid", 1);
        });
    }
    out << "\n]}\n";
    os << valid_utf8(out.str());
}

/// Writes `produce(stream)` to `path` ("-": standard output); false and a message when it cannot.
template <class Produce>
bool write_output(std::string const& path, std::ostream& out, std::ostream& err, Produce produce) {
    if (path == "-") {
        produce(out);
        return true;
    }
    std::ofstream file(path, std::ios::binary);
    if (file) produce(file);
    file.close();
    if (!file) {
        err << "hlomem timeline: cannot write '" << path << "'\n";
        return false;
    }
    return true;
}

inline bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

int run_timeline(arguments const& args, std::ostream& out, std::ostream& err) {
    bool as_json = false;
    std::optional<std::string> file, output, trace, format;
    hlomem::load_options load_options;
    load_options.find_live_range = true;
    load_options.find_module = true;
    hlomem::timeline_options options;
    argument_reader a("timeline", timeline_usage, args, err);
    while (a.next()) {
        if (a.is_help()) {
            return a.help(out);
        } else if (a.is("--json")) {
            as_json = true;
        } else if (a.is("-o") || a.is("--output")) {
            if (!(output = a.value())) return a.needs_value();
        } else if (a.is("--trace")) {
            if (!(trace = a.value())) return a.needs_value();
        } else if (a.is("--live-range")) {
            if (!(load_options.live_range_file = a.value())) return a.needs_value();
        } else if (a.is("--module")) {
            if (!(load_options.module_file = a.value())) return a.needs_value();
        } else if (a.is("--format")) {
            if (!(format = a.value())) return a.needs_value();
            if (*format != "html" && *format != "svg") return a.error("--format takes html or svg, not '" + *format + "'");
        } else if (a.is("--size-function")) {
            auto v = a.value();
            if (!v) return a.needs_value();
            options.size_function = size_function_named(*v);
            if (!options.size_function) return a.error("--size-function takes xla or tpu, not '" + *v + "'");
        } else if (a.is("--max-rectangles")) {
            auto v = a.value();
            if (!v) return a.needs_value();
            auto const n = decimal(*v, 9);
            if (!n) return a.error("--max-rectangles needs a number, not '" + *v + "'");
            options.max_rectangles = static_cast<std::size_t>(*n);
        } else if (auto status = a.take_file(file)) {
            return *status;
        }
    }
    if (!file) return a.usage();
    bool svg = false;
    if (output) {
        if (format) {
            svg = *format == "svg";
        } else if (ends_with(*output, ".svg")) {
            svg = true;
        } else if (!ends_with(*output, ".html") && !ends_with(*output, ".htm") && *output != "-") {
            return a.error("cannot tell the format of '" + *output + "': name it .html or .svg, or give --format");
        }
    } else if (format) {
        return a.error("--format needs -o");
    }
    int const to_stdout = (output == std::optional<std::string>("-")) + (trace == std::optional<std::string>("-")) + as_json;
    if (to_stdout > 1) return a.error("only one of -o -, --trace - and --json can use standard output");

    auto loaded = load_dump(*file, load_options, err);
    if (!loaded) return exit_error;
    auto const* ba = loaded->assignment();
    if (!ba->live_range || ba->live_range->not_available) {
        err << "hlomem timeline: " << *file
            << ": the dump has no live ranges (XLA appends its HloLiveRange text or writes it to X-live-range.txt; "
               "give that file with --live-range)\n";
        return exit_error;
    }
    auto const tl = hlomem::make_timeline(*ba, options);
    auto const sources = hlomem::attribute_values(*loaded);

    if (output && !write_output(*output, out, err, [&](std::ostream& os) {
            if (svg) {
                write_timeline_svg(os, *ba, tl);
            } else {
                write_timeline_html(os, *ba, tl, sources);
            }
        })) {
        return exit_error;
    }
    if (trace && !write_output(*trace, out, err, [&](std::ostream& os) { write_timeline_trace(os, *ba, tl, sources); })) return exit_error;
    if (as_json) {
        print_timeline_json(out, *ba, tl);
    } else if (to_stdout == 0) {
        print_timeline_summary(out, *ba, tl);
        if (output) out << "wrote " << *output << (svg ? " (SVG)\n" : " (HTML)\n");
        if (trace) out << "wrote " << *trace << " (trace)\n";
    }
    return exit_ok;
}

}  // namespace hlomem_cli
