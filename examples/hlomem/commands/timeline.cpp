// commands/timeline.cpp: `hlomem timeline [-o OUT.html|OUT.svg] [--trace OUT.json] [--json] FILE` —
// the memory of a buffer-assignment dump over program order: a self-contained HTML page, a static
// SVG picture, a Chrome/Perfetto trace, or a summary. The data comes from <hlomem/memory/timeline.hpp>;
// the drawing is in <hlomem/output/timeline_page.hpp>.
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

namespace hlomem_cli {
namespace {

constexpr char const* timeline_usage =
    "usage: hlomem timeline [-o OUT.html|OUT.svg] [--trace OUT.json] [--json] [--live-range FILE]\n"
    "                       [--module FILE] [--size-function xla|tpu] [--max-rectangles N]\n"
    "                       [--source-root DIR]... FILE\n"
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
    "  --source-root DIR   where the program's source files are, when the dump was made on another\n"
    "                      machine: the page shows each source line's text (a path as written is\n"
    "                      tried first, then below each DIR with its leading folders dropped one by\n"
    "                      one); repeatable. Files not found are named on standard error.\n"
    "OUT may be - for standard output. Without -o, --trace or --json, the summary is printed.\n"
    "Exit status: 0 when written, 2 for bad usage, an unreadable or unparsable dump, a dump\n"
    "without live ranges, or an output that cannot be written.\n";

}  // namespace

int run_timeline(arguments const& args, std::ostream& out, std::ostream& err) {
    bool as_json = false;
    std::optional<std::string> file, output, trace, format;
    hlomem::load_options load_options;
    load_options.find_live_range = true;
    load_options.find_module = true;
    hlomem::timeline_options options;
    std::vector<std::string> source_roots;
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
        } else if (a.is("--source-root")) {
            if (!a.has_value()) return a.needs_value();
            source_roots.push_back(*a.value());
        } else if (a.is("--format")) {
            if (!(format = a.value())) return a.needs_value();
            if (*format != "html" && *format != "svg") return a.error("--format takes html or svg, not '" + *format + "'");
        } else if (a.is("--size-function")) {
            auto v = a.value();
            if (!v) return a.needs_value();
            options.size_function = hlomem::size_function_named(*v);
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
    if (!output && format) return a.error("--format needs -o");
    bool const svg = output && (format ? *format == "svg" : ends_with(*output, ".svg"));
    if (output && !format && !svg && !ends_with(*output, ".html") && !ends_with(*output, ".htm") && *output != "-") {
        return a.error("cannot tell the format of '" + *output + "': name it .html or .svg, or give --format");
    }
    if (!source_roots.empty() && (!output || svg)) return a.error("--source-root needs -o OUT.html: only the page shows source text");
    int const to_stdout = (output == std::optional<std::string>("-")) + (trace == std::optional<std::string>("-")) + as_json;
    if (to_stdout > 1) return a.error("only one of -o -, --trace - and --json can use standard output");

    auto const* loaded = load_dump(*file, load_options, err);
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
    hlomem::source_text source_text(source_roots);

    if (output && !write_output("timeline", *output, out, err, [&](std::ostream& os) {
            if (svg) return hlomem::write_timeline_svg(os, *ba, tl);
            hlomem::write_timeline_html(os, *ba, tl, sources, &source_text);
        })) {
        return exit_error;
    }
    if (!source_roots.empty()) hlomem::print_missing_sources(err, "timeline", source_text);
    if (trace && !write_output("timeline", *trace, out, err, [&](std::ostream& os) { hlomem::write_timeline_trace(os, *ba, tl, sources); })) return exit_error;
    if (as_json) {
        hlomem::print_timeline_json(out, *ba, tl);
    } else if (to_stdout == 0) {
        hlomem::print_timeline_text(out, *ba, tl);
        if (output) out << "wrote " << *output << (svg ? " (SVG)\n" : " (HTML)\n");
        if (trace) out << "wrote " << *trace << " (trace)\n";
    }
    return exit_ok;
}

}  // namespace hlomem_cli
