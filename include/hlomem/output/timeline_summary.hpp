// hlomem/output/timeline_summary.hpp: what `hlomem timeline` prints about a timeline besides its pictures: the
// summary lines, and the summary as JSON (--json). The tool and the Python module
// (python/src/module.cpp, Timeline.to_dict) print through these.
#ifndef HLOMEM_OUTPUT_TIMELINE_SUMMARY_HPP
#define HLOMEM_OUTPUT_TIMELINE_SUMMARY_HPP

#include <ostream>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/memory/timeline.hpp>

#include <hlomem/output/json_writer.hpp>
#include <hlomem/output/timeline_page.hpp>

namespace hlomem {

/// "color 0: peak 2709520384 bytes (2.52GiB) at 78 (fusion); 83 values drawn" lines.
template <class P>
void print_timeline_text(std::ostream& out, hlomem::basic_buffer_assignment<P> const& ba, hlomem::timeline const& tl) {
    out << "timeline of " << ba.file << ": " << ba.allocations.size() << " allocations, " << ba.values.size()
        << " values, program order 0-" << tl.max << ", " << hlomem::to_string(tl.sizing) << " size function\n";
    for (auto const& c : tl.colors) {
        out << "  color " << c.color << ": peak " << c.peak_bytes << " bytes (" << hlomem::human_bytes(c.peak_bytes) << ") at "
            << c.peak_time << " (" << c.peak_instruction << ") of " << hlomem::human_bytes(c.allocated_bytes) << " allocated";
        if (!c.unpadded_live_bytes.empty()) out << ", " << hlomem::human_bytes(c.unpadded_at(c.peak_time)) << " without tiling padding";
        out << "; " << c.buffers.size() << " values drawn";
        if (c.aggregated_values) out << ", " << c.aggregated_values << " aggregated into " << c.bands.size() << " bands";
        if (c.unranged_values) out << ", " << c.unranged_values << " without live range";
        out << '\n';
    }
}

/// `hlomem timeline --json`: the file, the program order, the size function and each color's peak.
template <class P>
void print_timeline_json(std::ostream& out, hlomem::basic_buffer_assignment<P> const& ba, hlomem::timeline const& tl) {
    json_writer json(out);
    json.begin_object();
    json.member("file", ba.file);
    json.member("max", tl.max);
    json.member("size_function", hlomem::to_string(tl.sizing));
    json.key("colors").begin_array();
    for (auto const& c : tl.colors) {
        json.begin_object();
        write_color_members(json, c);
        json.end_object();
    }
    json.end_array();
    json.end_object();
    json.finish();
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_TIMELINE_SUMMARY_INSTANTIATIONS(EXTERN, P) \
    EXTERN template void print_timeline_text<P>(std::ostream&, basic_buffer_assignment<P> const&, timeline const&); \
    EXTERN template void print_timeline_json<P>(std::ostream&, basic_buffer_assignment<P> const&, timeline const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_TIMELINE_SUMMARY_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_TIMELINE_SUMMARY_HPP
