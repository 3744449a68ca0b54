// hlomem/output/timeline_trace.hpp: the timeline of a buffer assignment as a Chrome/Perfetto trace
// (`hlomem timeline --trace OUT.json`), in the JSON trace event format that about:tracing and
// ui.perfetto.dev read: 1 us of trace time is one step of program order.
#ifndef HLOMEM_OUTPUT_TIMELINE_TRACE_HPP
#define HLOMEM_OUTPUT_TIMELINE_TRACE_HPP

#include <algorithm>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/hlo/attribution.hpp>
#include <hlomem/memory/timeline.hpp>
#include <hlomem/output/json_writer.hpp>
#include <hlomem/output/markup.hpp>
#include <hlomem/output/sources.hpp>
#include <hlomem/output/timeline_page.hpp>

namespace hlomem {

/// The trace: JSON trace event format (Chrome's about:tracing, ui.perfetto.dev), one event per
/// line. Processes: "program order" (the instruction at each time) and one per color, with a
/// counter "live bytes" (assigned, and unpadded where tiles pad), an instant event at the peak and
/// one slice per value on lanes that never overlap (timeline.hpp trace_slices).
template <class P>
void write_timeline_trace(std::ostream& os, basic_buffer_assignment<P> const& ba, timeline const& tl,
                          basic_source_attribution<P> const& sources) {
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
    auto const slices = trace_slices(ba);
    std::vector<std::optional<std::int64_t>> padded(ba.values.size()), unpadded(ba.values.size());
    for (auto const& p : padding_of_values(ba, tl.sizing)) {
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
        for (auto const& p : counter_points(c)) {
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
                j.member("name", v.display_name()).member("cat", to_string(a.kind())).member("ph", "X");
                j.member("ts", s.range.start).member("dur", s.range.end - s.range.start + 1);
                j.member("pid", c.color).member("tid", static_cast<std::int64_t>(s.lane) + 1);
                j.key("args").begin_object();
                j.member("id", v.id).member("bytes", v.size).member("allocation", a.index).member("offset", v.offset);
                if (auto const* shape = ba.shape_of(v)) j.member("shape", to_string(*shape));
                if (padded[s.value]) j.member("padded_bytes", *padded[s.value]).member("unpadded_bytes", *unpadded[s.value]);
                write_instruction_members(j, v, sources[s.value], sources.origin_of(s.value));
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

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_TIMELINE_TRACE_HPP
