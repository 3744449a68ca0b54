// hlomem/output/memory_analysis_report.hpp: what JAX's `compiled.memory_analysis()` would report
// (memory/memory_analysis.hpp), as text and as JSON, the same in `hlomem report` of a dump and of
// a module, `snapshot`, `diff` and Python:
//
//   memory_analysis() would report: peak 67108896 bytes (64.00MiB) = 12582944 static + 54525952 heap at time 22 (custom-call.3)
//     peak_memory_in_bytes                        67108896  64.00MiB
//     ...
//     generated_code_size_in_bytes                 unknown  the size of the compiled code is in no text XLA dumps
#ifndef HLOMEM_OUTPUT_MEMORY_ANALYSIS_REPORT_HPP
#define HLOMEM_OUTPUT_MEMORY_ANALYSIS_REPORT_HPP

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include <hlomem/core/human_bytes.hpp>
#include <hlomem/memory/memory_analysis.hpp>

#include <hlomem/output/json_writer.hpp>

namespace hlomem {

/// The headline: the peak and what it is made of, or why there is none.
inline std::string memory_analysis_headline(memory_analysis const& m) {
    if (!m.peak_memory_in_bytes) return "memory_analysis() would report: no peak (the values have no live ranges)";
    std::string out = "memory_analysis() would report: peak " + std::to_string(*m.peak_memory_in_bytes) + " bytes (" +
                      human_bytes(*m.peak_memory_in_bytes) + ") = " + std::to_string(m.static_bytes) + " static";
    if (m.peak_time) {
        out += " + " + std::to_string(m.heap_peak_bytes) + " heap at time " + std::to_string(*m.peak_time);
        if (!m.peak_instruction.empty()) out += " (" + m.peak_instruction + ")";
    }
    return out;
}

/// The text: the headline, then one line per field (`indent` spaces before each).
inline void print_memory_analysis_text(std::ostream& out, memory_analysis const& m, std::size_t indent = 0) {
    std::string const pad(indent, ' ');
    out << pad << memory_analysis_headline(m) << '\n';
    for (auto const& f : memory_analysis_fields(m)) {
        std::string name(f.name);
        name.resize(36, ' ');
        out << pad << "  " << name;
        if (f.value) {
            std::string n = std::to_string(*f.value);
            out << std::string(n.size() < 12 ? 12 - n.size() : 0, ' ') << n << "  " << human_bytes(*f.value) << '\n';
        } else {
            out << "     unknown\n";
        }
    }
    for (auto const& n : m.notes) out << pad << "  note: " << n << '\n';
}

/// The JSON object: every field under JAX's name (null when unknown), then `peak` (how it was
/// reached: static_bytes, static_unpadded_bytes, heap_bytes, color, time, instruction, values: the
/// names of the values of the heap live then, `custom-call.3{1}`) and `notes`.
inline void write_memory_analysis_json(json_writer& json, memory_analysis const& m) {
    json.begin_object();
    for (auto const& f : memory_analysis_fields(m)) json.member(f.name, f.value);
    json.key("peak").begin_object();
    json.member("static_bytes", m.static_bytes);
    json.member("static_unpadded_bytes", m.static_unpadded_bytes);
    json.member("heap_bytes", m.heap_peak_bytes);
    json.member("color", m.peak_color);
    json.member("time", m.peak_time);
    json.member("instruction", m.peak_time ? std::optional<std::string_view>(m.peak_instruction) : std::nullopt);
    json.key("values").begin_array();
    for (auto const& v : m.peak_value_names) json.value(std::string_view(v));
    json.end_array();
    json.end_object();
    json.key("notes").begin_array();
    for (auto const& n : m.notes) json.value(std::string_view(n));
    json.end_array();
    json.end_object();
}

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_MEMORY_ANALYSIS_REPORT_HPP
