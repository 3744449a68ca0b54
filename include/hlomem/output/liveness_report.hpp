// hlomem/output/liveness_report.hpp: what `hlomem liveness --json` writes for a module and the
// assignment derived from it (load/derive.hpp): XLA's HloLiveRange (the instruction sequence, every
// value's live range with its source), the peak moment and the values live there as the newest
// HloLiveRange::ToString lists them (with running sums), its stack-trace breakdown as a tree
// (FormatStackTraceBreakdown, hlo/stack_trace_breakdown.hpp), and per color the peak with its
// breakdowns by source line, op_name and stack frame. The text form is XLA's own HloLiveRange
// text (dump/printer.hpp, print_live_range).
#ifndef HLOMEM_OUTPUT_LIVENESS_REPORT_HPP
#define HLOMEM_OUTPUT_LIVENESS_REPORT_HPP

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <hlomem/hlo/attribution.hpp>
#include <hlomem/load/derive.hpp>
#include <hlomem/memory/analysis.hpp>
#include <hlomem/memory/peak_holdings.hpp>
#include <hlomem/output/json_writer.hpp>
#include <hlomem/output/sources.hpp>

namespace hlomem {

/// The stack-trace breakdown's lines from `at` on that lie at `depth` or deeper, as JSON objects
/// {name, percent, total_bytes, current_bytes, remaining_bytes, children}: the lines below each one
/// (deeper, up to the next at its depth or shallower) are its children. Returns the first line
/// not written.
template <class Nodes>
std::size_t write_stack_trace_nodes(json_writer& json, Nodes const& nodes, std::size_t at, int depth) {
    while (at < nodes.size() && nodes[at].depth >= depth) {
        auto const& n = nodes[at];
        json.begin_object();
        json.member("name", std::string_view(n.name));
        json.member("percent", n.percent);
        json.member("total_bytes", n.total_bytes);
        json.member("current_bytes", n.current_bytes);
        json.member("remaining_bytes", n.remaining_bytes);
        json.key("children").begin_array();
        at = write_stack_trace_nodes(json, nodes, at + 1, n.depth + 1);
        json.end_array();
        json.end_object();
    }
    return at;
}

template <class P>
void write_liveness_json(json_writer& json, basic_hlo_module<P> const& m, basic_derived_assignment<P> const& d) {
    auto const& lr = *d.assignment.live_range;
    auto const sources = attribute_values(d.assignment, m);
    value_text_cache<P> shapes(d.assignment);  // each argument's shape printed once
    auto source_of = [&](std::size_t value) {
        if (value == npos) {
            write_value_source(json, value_source{});
            write_value_origin(json, value_origin{}, d.assignment);
        } else {
            write_value_source(json, sources, value, d.assignment, &shapes);
        }
    };
    json.begin_object();
    json.member("module", std::string_view(m.name()));
    json.member("scheduled", d.scheduled);
    json.member("max", static_cast<std::int64_t>(lr.max));
    if (d.peak) {
        // XLA's running sum at the peak: it still counts values that ended just before it.
        json.member("peak_time", static_cast<std::int64_t>(d.peak->time));
        json.member("peak_bytes", d.peak->bytes);
    } else {
        json.key("peak_time").null();
        json.key("peak_bytes").null();
    }
    json.key("instruction_sequence").begin_array();
    for (auto const& name : lr.instruction_sequence) json.value(std::string_view(name));
    json.end_array();
    json.key("values").begin_array();
    for (auto const& r : lr.buffer_live_ranges) {
        json.begin_object();
        json.member("name", std::string_view(r.name));
        json.member("index", to_string(r.index));
        json.member("start", static_cast<std::int64_t>(r.range.start));
        json.member("end", static_cast<std::int64_t>(r.range.end));
        source_of(r.value);
        json.end_object();
    }
    json.end_array();
    // The values at the peak as the live-range text lists them, each with its running total.
    json.key("peak_values").begin_array();
    if (d.peak) {
        std::int64_t cumulative = 0;
        for (std::size_t j = 0; j < d.peak->values.size(); ++j) {
            auto const& v = d.assignment.values[d.peak->values[j]];
            cumulative += d.peak->sizes[j];
            json.begin_object();
            json.member("name", std::string_view(v.name));
            json.member("index", to_string(v.index));
            json.member("bytes", d.peak->sizes[j]);
            json.member("cumulative_bytes", cumulative);
            source_of(d.peak->values[j]);
            json.end_object();
        }
    }
    json.end_array();
    json.key("stack_trace_breakdown");
    if (lr.stated_peak && lr.stated_peak->stack_trace_total_bytes) {
        json.begin_object();
        json.member("total_bytes", *lr.stated_peak->stack_trace_total_bytes);
        json.key("nodes").begin_array();
        write_stack_trace_nodes(json, lr.stated_peak->stack_trace, 0, 0);
        json.end_array();
        json.end_object();
    } else {
        json.null();
    }
    auto const colors = whole_allocation_live_bytes(d.assignment);  // each value fills its allocation
    auto const holdings = peak_holdings_by_color(d.assignment, colors, sources);
    json.key("colors").begin_array();
    for (std::size_t c = 0; c < colors.size(); ++c) {
        json.begin_object();
        json.member("color", colors[c].color);
        json.member("peak_live_bytes", colors[c].peak_bytes);
        json.member("peak_time", static_cast<std::int64_t>(colors[c].peak_time));
        write_peak_breakdowns(json, &holdings[c], d.assignment, sources);
        json.end_object();
    }
    json.end_array();
    json.end_object();
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_LIVENESS_REPORT_INSTANTIATIONS(EXTERN, P) \
    EXTERN template void write_liveness_json<P>(json_writer&, basic_hlo_module<P> const&, basic_derived_assignment<P> const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_LIVENESS_REPORT_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_LIVENESS_REPORT_HPP
