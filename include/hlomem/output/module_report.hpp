// hlomem/output/module_report.hpp: `hlomem report [--json] FILE` for an HLO module dump — what the module
// holds and what its entry computation costs in memory.
//
//   $ hlomem report tests/data/seeds/004_c00fd3afea504246.txt
//   HLO module jit_train_step (tests/data/seeds/004_c00fd3afea504246.txt)
//     scheduled             yes
//     partitions            16
//     computations          569
//       entry               1
//       fusion              507
//       ...
//     instructions          9917, 888 of them in the entry computation
//     entry                 main.5687_spmd
//       parameters          76: unpadded 7815516172 bytes (7.28GiB), padded 7815516172 bytes (7.28GiB)
//       ...
//
// Then, from the assignment derived from the module (load/derive.hpp), the peak of each memory
// space and what holds it by source line and op_name (output/sources.hpp, print_peak_by_source,
// as the dump report prints it), the values' lines from the module's metadata and stack frames.
//
// Sizes are exact byte counts next to XLA's human-readable form. "Padded" is what the layouts
// take (XLA's ShapeUtil::ArraySize, tiles included); "unpadded" is what XProf calls the
// unpadded size. Tuples count their arrays; their pointer tables are listed separately.
#ifndef HLOMEM_OUTPUT_MODULE_REPORT_HPP
#define HLOMEM_OUTPUT_MODULE_REPORT_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/assign.hpp>
#include <hlomem/diff.hpp>
#include <hlomem/hlo.hpp>
#include <hlomem/load.hpp>
#include <hlomem/memory.hpp>
#include <hlomem/load/derive.hpp>

#include <hlomem/output/assignment_report.hpp>
#include <hlomem/output/donation_report.hpp>
#include <hlomem/output/percent.hpp>
#include <hlomem/output/json_writer.hpp>
#include <hlomem/output/memory_analysis_report.hpp>

namespace hlomem {

namespace detail::module_report {

using module_type = hlomem::basic_hlo_module<hlomem::view_policy>;

/// Sizes of a shape, or nothing when it has none (an unbounded dynamic dimension).
struct sizes {
    std::int64_t unpadded = 0;
    std::int64_t padded = 0;
    std::int64_t tuple_tables = 0;
    bool known = true;

    sizes& operator+=(sizes const& o) {
        unpadded += o.unpadded;
        padded += o.padded;
        tuple_tables += o.tuple_tables;
        known = known && o.known;
        return *this;
    }
};

inline sizes sizes_of(hlomem::basic_shape<hlomem::view_policy> const& s) {
    try {
        auto const t = hlomem::totals_of(s);
        return {t.unpadded_bytes, t.padded_bytes, t.tuple_table_bytes, true};
    } catch (hlomem::shape_error const&) {
        return {0, 0, 0, false};
    }
}

/// "entry", the way the first caller calls it ("fusion", "while_body", ...), or "unreferenced".
inline std::string kind_of(module_type const& m, hlomem::computation_id c) {
    if (c == m.entry()) return "entry";
    auto const callers = m.callers(c);
    if (callers.empty()) return "unreferenced";
    return std::string(hlomem::to_string(callers[0].kind));
}

/// A computation whose values get buffers of their own: the entry and what it reaches through
/// control flow (while, conditional, call, async), not fusion bodies or reducers.
inline bool allocates(module_type const& m, hlomem::computation_id c) {
    if (c == m.entry()) return true;
    auto const callers = m.callers(c);
    return std::any_of(callers.begin(), callers.end(), [](hlomem::hlo_call const& k) { return hlomem::is_control_flow(k.kind); });
}

/// An array result that is not a view of another value: what the "largest results" rank.
inline bool ranks(module_type const& m, hlomem::instruction_id i) {
    auto const& inst = m.instruction(i);
    if (!m.shape_of(i).is_array()) return false;
    switch (inst.opcode) {
        case hlomem::hlo_opcode::bitcast:
        case hlomem::hlo_opcode::get_tuple_element:
            return false;
        case hlomem::hlo_opcode::parameter:
            return inst.computation == m.entry();
        default:
            return true;
    }
}

struct ranked_instruction {
    hlomem::instruction_id id;
    sizes bytes;
};

/// What the module's own live ranges say (hlomem/hlo/liveness.hpp), and what holds each peak.
struct liveness_facts {
    hlomem::basic_derived_assignment<hlomem::view_policy> derived;
    std::size_t ranged_values = 0;
    std::size_t buffers = 0;  // HloBuffers holding a value with a live range
    std::vector<hlomem::color_live_bytes> colors;
    /// The metadata and origin of the values live at the peaks (attribute_values with the
    /// module: its instructions' source lines, stack_frame_ids resolved in its tables); they view
    /// the module.
    hlomem::basic_source_attribution<hlomem::view_policy> sources;
    std::vector<hlomem::peak_holdings> holdings;  // each color's peak, value by value
};

inline constexpr std::size_t largest_at_peak_count = 5;

struct module_facts {
    std::vector<std::pair<std::string, std::size_t>> computations_by_kind;  // in a fixed order
    sizes parameters;
    sizes result;
    std::vector<ranked_instruction> largest;
    std::size_t must_alias = 0;
    sizes aliased;  // the parameter buffers the aliases name
    std::optional<liveness_facts> liveness;
    std::optional<hlomem::donation_analysis> donations;  // with liveness: sized by the derived assignment
    // What compiled.memory_analysis() would report: on the predicted assignment (nullopt and why
    // when the module cannot be assigned, or its text was not at hand).
    std::optional<hlomem::memory_analysis> memory;
    std::string memory_error;
};

/// The liveness facts of `m` on its derived assignment, its source files shown below the longest
/// of `roots` they lie under (strip_source_roots).
inline liveness_facts liveness_facts_of(module_type const& m, hlomem::basic_derived_assignment<hlomem::view_policy> derived,
                                        std::vector<std::string> const& roots) {
    liveness_facts f{std::move(derived), 0, 0, {}, {}, {}};
    auto const& ba = f.derived.assignment;
    for (auto const& v : ba.values) f.ranged_values += v.live_range ? 1 : 0;
    for (auto const& a : ba.allocations) {
        f.buffers += std::any_of(a.values.begin(), a.values.end(), [&](std::size_t k) { return ba.values[k].live_range.has_value(); });
    }
    f.colors = hlomem::whole_allocation_live_bytes(ba);  // each value fills its allocation
    f.sources = hlomem::attribute_values(ba, m, values_at_peaks(ba, f.colors));
    hlomem::strip_source_roots(f.sources, roots);
    f.holdings = hlomem::peak_holdings_by_color(ba, f.colors, f.sources);
    return f;
}

/// What the module's two assignments give (assign_module, both on one analysis of the module):
/// its own live ranges and their peaks (the derived result, without the values' positions and
/// uses, which the report does not read), and what compiled.memory_analysis() would report on
/// the assignment XLA would make of it (the predicted result; nullopt and why when the module
/// cannot be assigned, a module that views its text assigned without a copy of it).
inline void add_assignment_facts(module_facts& f, module_type const& m, std::vector<std::string> const& roots) {
    if (m.entry() == hlomem::no_computation) {
        try {
            f.memory = hlomem::predicted_memory_analysis(m);  // the assigner says why it cannot assign it
        } catch (hlomem::error const& e) {
            f.memory_error = e.what();
        }
        return;
    }
    hlomem::module_assignment_options both;
    both.positions_and_uses = false;
    both.predicted = true;
    std::optional<hlomem::basic_module_assignment<hlomem::view_policy>> r;
    try {
        r = hlomem::assign_module(m, both);
        f.memory = hlomem::predicted_memory_analysis(*r->predicted);
    } catch (hlomem::error const& e) {
        f.memory_error = e.what();
        r.reset();
    }
    f.liveness = liveness_facts_of(m, r ? std::move(*r->derived) : hlomem::derive_assignment(m, /*positions_and_uses=*/false), roots);
    f.donations = hlomem::analyze_donations(f.liveness->derived.assignment, &m);
}

inline constexpr std::size_t largest_count = 10;

inline module_facts facts_of(module_type const& m, std::vector<std::string> const& roots = {}) {
    module_facts f;
    std::map<std::string, std::size_t> kinds;
    for (hlomem::computation_id c = 0; c < m.computation_count(); ++c) ++kinds[kind_of(m, c)];
    for (char const* k : {"entry", "fusion", "while_body", "while_condition", "conditional_branch", "call", "async",
                          "to_apply", "unreferenced"}) {
        if (auto it = kinds.find(k); it != kinds.end()) f.computations_by_kind.emplace_back(it->first, it->second);
    }
    for (auto p : m.parameters(m.entry())) f.parameters += sizes_of(m.shape_of(p));
    f.result = sizes_of(m.shape_of(m.entry_computation().root));

    for (hlomem::computation_id c = 0; c < m.computation_count(); ++c) {
        if (!allocates(m, c)) continue;
        for (auto i : m.computation(c).instructions()) {
            if (!ranks(m, i)) continue;
            sizes const s = sizes_of(m.shape_of(i));
            if (s.known) f.largest.push_back({i, s});
        }
    }
    auto const by_size = [](ranked_instruction const& a, ranked_instruction const& b) {
        return a.bytes.padded != b.bytes.padded ? a.bytes.padded > b.bytes.padded : a.id < b.id;
    };
    std::size_t const keep = std::min(largest_count, f.largest.size());
    std::partial_sort(f.largest.begin(), f.largest.begin() + static_cast<std::ptrdiff_t>(keep), f.largest.end(), by_size);
    f.largest.resize(keep);

    auto const params = m.parameters(m.entry());
    for (auto const& a : m.input_output_aliases()) {
        if (a.kind == hlomem::alias_kind::must_alias) ++f.must_alias;
        auto const& shape = m.shape_of(params[static_cast<std::size_t>(a.parameter_number)]);
        try {
            f.aliased += sizes_of(shape.subshape(a.parameter_index));
        } catch (hlomem::shape_error const&) {
            f.aliased.known = false;
        }
    }
    add_assignment_facts(f, m, roots);
    return f;
}

/// The instruction at logical time `t`, for "at 78 (fusion)".
inline std::string_view instruction_at(liveness_facts const& f, hlomem::logical_time t) {
    return f.derived.assignment.live_range->instruction_at(t);
}

inline std::string bytes_text(std::int64_t b) { return std::to_string(b) + " bytes (" + hlomem::human_bytes(b) + ")"; }

/// `f32[8]{0}`, or `(44-element tuple)` for tuples, whose text can run to kilobytes.
inline std::string short_shape(hlomem::basic_shape<hlomem::view_policy> const& s) {
    if (s.is_tuple()) return "(" + std::to_string(s.tuple_shapes_size()) + "-element tuple)";
    return hlomem::to_string(s);
}

inline std::string sizes_text(sizes const& s) {
    if (!s.known) return "unknown (unbounded dynamic dimensions)";
    std::string out = "unpadded " + bytes_text(s.unpadded) + ", padded " + bytes_text(s.padded);
    if (s.tuple_tables > 0) out += ", tuple tables " + bytes_text(s.tuple_tables);
    return out;
}

/// The text report; `top` source lines of each peak, the op_name tree `depth` levels deep.
inline void print_text(module_type const& m, module_facts const& f, std::string const& file, std::size_t top, std::size_t depth,
                       std::ostream& out) {
    // Labels indented by `indent`, values from column 25.
    auto row = [&](std::size_t indent, std::string_view label, auto const& value) {
        std::size_t const used = indent + label.size();
        out << std::string(indent, ' ') << label << std::string(used < 24 ? 24 - used : 1, ' ') << value << '\n';
    };
    out << "HLO module " << (m.name().empty() ? "(unnamed)" : std::string(m.name())) << " (" << file << ")\n";
    if (f.memory) {
        print_memory_analysis_text(out, *f.memory, 2);
    } else {
        out << "  memory_analysis() cannot be predicted: " << f.memory_error << '\n';
    }
    row(2, "scheduled", m.is_scheduled() ? "yes" : "no");
    if (m.num_partitions() != 1) row(2, "partitions", m.num_partitions());
    if (m.replica_count() != 1) row(2, "replicas", m.replica_count());
    row(2, "computations", m.computation_count());
    for (auto const& [kind, count] : f.computations_by_kind) row(4, kind, count);
    auto const& entry = m.entry_computation();
    row(2, "instructions", std::to_string(m.instruction_count()) + ", " + std::to_string(entry.instruction_count) +
                               " of them in the entry computation");
    row(2, "entry", std::string(entry.name));
    row(4, "parameters", std::to_string(m.parameters(m.entry()).size()) + ": " + sizes_text(f.parameters));
    row(4, "result", short_shape(m.shape_of(entry.root)) + ": " + sizes_text(f.result));

    out << "  largest array results, by padded size\n";
    for (std::size_t k = 0; k < f.largest.size(); ++k) {
        auto const& r = f.largest[k];
        auto const& inst = m.instruction(r.id);
        out << "    " << (k + 1) << ". " << inst.name << " = " << m.opcode_name(r.id) << ' ' << short_shape(m.shape_of(r.id))
            << ": " << bytes_text(r.bytes.padded);
        if (r.bytes.unpadded != r.bytes.padded) out << ", unpadded " << bytes_text(r.bytes.unpadded);
        out << " in " << m.computation(inst.computation).name << '\n';
    }

    auto const& aliases = m.input_output_aliases();
    out << "  aliasing\n";
    std::string alias_text = std::to_string(aliases.size());
    if (!aliases.empty()) {
        alias_text += " (" + std::to_string(aliases.size() - f.must_alias) + " may-alias, " + std::to_string(f.must_alias) +
                      " must-alias); the parameters they name: " + sizes_text(f.aliased);
    }
    row(4, "input_output_alias", alias_text);
    row(4, "buffer_donor", m.buffer_donors().size());
    if (f.donations) {
        out << "  donations\n";
        print_donations_text(out, *f.donations, "    ");
    }
    if (!f.liveness) return;

    auto const& live = *f.liveness;
    auto const& ba = live.derived.assignment;
    out << "  liveness, derived from the module (`hlomem liveness` prints XLA's HloLiveRange text)\n";
    for (auto const& note : live.derived.notes) row(4, "note", note.message);
    row(4, "sequence", std::to_string(ba.live_range->max) + " instructions, flattened");
    row(4, "values", std::to_string(live.ranged_values) + " with live ranges, in " + std::to_string(live.buffers) +
                         (live.buffers == 1 ? " buffer" : " buffers"));
    if (live.derived.peak) {
        auto const& p = *live.derived.peak;
        row(4, "XLA's peak", "at " + std::to_string(p.time) + " (" + std::string(instruction_at(live, p.time)) + "): " +
                                 bytes_text(p.bytes) + ", " + std::to_string(p.values.size()) + " values listed");
    }
    for (auto const& c : live.colors) {
        row(4, "memory space " + std::to_string(c.color),
            "peak " + bytes_text(c.peak_bytes) + " at " + std::to_string(c.peak_time) + " (" +
                std::string(instruction_at(live, c.peak_time)) + "), " + std::string(hlomem::derived_sizes_name(live.derived.sizes)) +
                " sizes");
        auto const at_peak = hlomem::values_live_at(ba, c.color, c.peak_time);
        for (std::size_t k = 0; k < at_peak.size() && k < largest_at_peak_count; ++k) {
            auto const& v = ba.values[at_peak[k]];
            out << "      " << (k + 1) << ". " << v.display_name() << ": " << bytes_text(v.size) << '\n';
        }
    }
    print_peak_by_source(out, ba, live.holdings, live.sources, top, depth);
}

inline void write_sizes(json_writer& json, sizes const& s) {
    json.begin_object();
    if (s.known) {
        json.member("unpadded_bytes", s.unpadded);
        json.member("padded_bytes", s.padded);
        json.member("tuple_table_bytes", s.tuple_tables);
    } else {
        json.key("unpadded_bytes").null();
        json.key("padded_bytes").null();
        json.key("tuple_table_bytes").null();
    }
    json.end_object();
}

inline void print_json(module_type const& m, module_facts const& f, json_writer& json) {
    auto const& entry = m.entry_computation();
    json.begin_object();
    json.member("kind", "hlo_module");
    json.member("name", std::string_view(m.name()));
    json.key("memory_analysis");
    if (f.memory) {
        write_memory_analysis_json(json, *f.memory);
    } else {
        json.null();
    }
    json.member("memory_analysis_error", f.memory ? std::nullopt : std::optional<std::string_view>(f.memory_error));
    json.member("is_scheduled", m.is_scheduled());
    json.member("num_partitions", m.num_partitions());
    json.member("replica_count", m.replica_count());
    json.member("computations", m.computation_count());
    json.key("computations_by_kind").begin_object();
    for (auto const& [kind, count] : f.computations_by_kind) json.member(kind, count);
    json.end_object();
    json.member("instructions", m.instruction_count());
    json.member("entry", std::string_view(entry.name));
    json.member("entry_parameters", m.parameters(m.entry()).size());
    json.key("entry_signature").begin_object();
    json.member("instructions", static_cast<std::size_t>(entry.instruction_count));
    json.key("parameters");
    write_sizes(json, f.parameters);
    json.member("result_shape", hlomem::to_string(m.shape_of(entry.root)));
    json.key("result");
    write_sizes(json, f.result);
    json.end_object();
    json.key("largest_instructions").begin_array();
    for (auto const& r : f.largest) {
        auto const& inst = m.instruction(r.id);
        json.begin_object();
        json.member("name", std::string_view(inst.name));
        json.member("computation", std::string_view(m.computation(inst.computation).name));
        json.member("opcode", m.opcode_name(r.id));
        json.member("shape", hlomem::to_string(m.shape_of(r.id)));
        json.member("unpadded_bytes", r.bytes.unpadded);
        json.member("padded_bytes", r.bytes.padded);
        json.end_object();
    }
    json.end_array();
    json.key("input_output_aliases").begin_array();
    for (auto const& a : m.input_output_aliases()) {
        json.begin_object();
        json.member("output_index", hlomem::to_string(a.output_index));
        json.member("parameter", a.parameter_number);
        json.member("parameter_index", hlomem::to_string(a.parameter_index));
        json.member("kind", hlomem::to_string(a.kind));
        json.end_object();
    }
    json.end_array();
    json.member("buffer_donors", m.buffer_donors().size());
    if (f.donations) {
        json.key("donations");
        write_donations_json(json, *f.donations);
    }
    if (f.liveness) {
        auto const& live = *f.liveness;
        auto const& ba = live.derived.assignment;
        json.key("liveness").begin_object();
        json.member("scheduled", live.derived.scheduled);
        json.member("max", static_cast<std::int64_t>(ba.live_range->max));
        json.member("values_with_live_ranges", live.ranged_values);
        json.member("buffers", live.buffers);
        json.member("sizes", hlomem::derived_sizes_name(live.derived.sizes));
        json.key("xla_peak");
        if (live.derived.peak) {
            auto const& p = *live.derived.peak;
            json.begin_object();
            json.member("time", static_cast<std::int64_t>(p.time));
            json.member("instruction", instruction_at(live, p.time));
            json.member("bytes", p.bytes);
            json.member("values_listed", p.values.size());
            json.end_object();
        } else {
            json.null();
        }
        json.key("memory_spaces").begin_array();
        for (auto const& c : live.colors) {
            json.begin_object();
            json.member("memory_space", c.color);
            json.member("peak_bytes", c.peak_bytes);
            json.member("peak_time", static_cast<std::int64_t>(c.peak_time));
            json.member("instruction", instruction_at(live, c.peak_time));
            json.key("largest_at_peak").begin_array();
            auto const at_peak = hlomem::values_live_at(ba, c.color, c.peak_time);
            for (std::size_t k = 0; k < at_peak.size() && k < largest_at_peak_count; ++k) {
                auto const& v = ba.values[at_peak[k]];
                json.begin_object();
                json.member("name", std::string_view(v.name));
                json.member("index", hlomem::to_string(v.index));
                json.member("bytes", v.size);
                json.end_object();
            }
            json.end_array();
            write_peak_breakdowns(json, holdings_of(live.holdings, c.color), ba, live.sources);
            json.end_object();
        }
        json.end_array();
        json.key("notes").begin_array();
        for (auto const& n : live.derived.notes) json.value(std::string_view(n.message));
        json.end_array();
        json.end_object();
    }
    json.end_object();
}

/// Reports `modules` (read from `file`) on `out`, as text or JSON: what holds each peak by source
/// line (print_peak_by_source, the dump report's writer), `top` lines and the op_name tree `depth`
/// levels deep in the text, source files below the longest of `roots` they lie under. What
/// print_report_text and print_report_json (output/report.hpp) write for a file of modules.
inline void report_hlo_modules(std::ostream& out, std::vector<module_type> const& modules, std::string const& file, bool as_json,
                               std::size_t top, std::size_t depth, std::vector<std::string> const& roots) {
    std::vector<module_facts> facts;
    for (auto const& m : modules) facts.push_back(facts_of(m, roots));
    if (as_json) {
        json_writer json(out);
        if (modules.size() > 1) json.begin_array();
        for (std::size_t i = 0; i < modules.size(); ++i) print_json(modules[i], facts[i], json);
        if (modules.size() > 1) json.end_array();
        json.finish();
        return;
    }
    for (std::size_t i = 0; i < modules.size(); ++i) {
        if (i > 0) out << '\n';
        print_text(modules[i], facts[i], file, top, depth, out);
    }
}

}  // namespace detail::module_report

}  // namespace hlomem

#endif  // HLOMEM_OUTPUT_MODULE_REPORT_HPP
