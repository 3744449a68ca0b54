// python/src/module.cpp: hlomem._hlomem, the Python extension behind `import hlomem`.
//
// It wraps the library, its analyses and its output layer (<hlomem/output.hpp>); it computes
// nothing of its own. The tool prints through the same output layer, so that Dump.to_dict() is
// `hlomem report --json`, Timeline.save() is `hlomem timeline -o`, Diff.to_json() is `hlomem diff
// --json` and hlomem.assign(m).text is `hlomem assign` by construction: one writer for both. What the Python
// objects hold is in state.hpp; Dump.what_if and hlomem.advise, which print as `hlomem whatif` and
// `hlomem advise` do, in whatif.hpp; the typed objects (Dump.values[i], Dump.colors[k], ...), each
// built from the model and the report's facts, in records.hpp. Here: the functions that make
// dicts of their own (breakdown, peak_by_source, check), assign, shapes, and one function a class
// that binds it.
//
// Zero copy: a file is read once into a string the loaded value owns; a `str` or `bytes` is parsed
// where it lies (hlomem::load_view), and the Dump keeps a reference to it, so the models' views
// stay valid as long as the Dump or anything made from it lives.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "records.hpp"
#include "state.hpp"
#include "whatif.hpp"

namespace hlomem_python {

/// A value's metadata as `check --json` lists it (output/sources.hpp, write_value_source): the
/// texts unescaped, null where absent.
py::dict source_dict(assignment_type const& ba, std::int64_t id, hlomem::value_source const& s, hlomem::value_origin const& o,
                     std::vector<hlomem::python_frame> const& stack) {
    py::dict out;
    out["id"] = id;
    out["op_type"] = metadata(s.op_type);
    out["op_name"] = metadata(s.op_name);
    out["source_file"] = metadata(s.source_file);
    out["source_line"] = s.has_source_line() ? py::object(py::int_(s.source_line)) : py::object(py::none());
    out["origin"] = origin_dict(ba, o, stack);
    return out;
}

/// A finding as `check --json` lists it, with the source of each value it names (`sources`).
violation violation_of(assignment_type const& ba, hlomem::diagnostic const& d, hlomem::basic_source_attribution<policy> const& sources) {
    violation out{std::string(hlomem::to_string(d.kind)), std::string(hlomem::to_string(d.severity)),
                  static_cast<std::int64_t>(d.line), static_cast<std::int64_t>(d.column),
                  d.allocation == hlomem::npos ? py::object(py::none()) : py::object(py::int_(ba.allocations[d.allocation].index)),
                  py::list(), py::list(), d.message};
    if (d.kind != hlomem::diagnostic_kind::unknown_live_range) {
        for (std::size_t i : {d.first, d.second}) {
            if (i == hlomem::npos) continue;
            out.values.append(ba.values[i].id);
            out.sources.append(source_dict(ba, ba.values[i].id, sources[i], sources.origin_of(i), sources.stack_of(i)));
        }
    }
    return out;
}

/// The largest values live at each color's peak, as the text report lists them.
py::list breakdown(dump& d, std::size_t top) {
    auto const& ba = d.assignment_with_live_ranges();
    py::list out;
    for (auto const& c : hlomem::assigned_live_bytes(ba)) {
        auto const live = hlomem::values_live_at(ba, c.color, c.peak_time);
        py::list values;
        for (std::size_t k = 0; k < live.size() && k < top; ++k) {
            auto const& v = ba.values[live[k]];
            auto const& a = ba.allocations[v.allocation];
            auto const* shape = ba.shape_of(v);
            values.append(breakdown_value{v.id, std::string(v.name), hlomem::to_string(v.index), v.size,
                                          static_cast<std::int64_t>(a.index), std::string(hlomem::to_string(a.kind())),
                                          shape ? py::object(py::str(hlomem::to_string(*shape))) : py::object(py::none())});
        }
        out.append(color_breakdown{c.color, c.allocated_bytes, c.peak_bytes, static_cast<std::int64_t>(c.peak_time),
                                   std::string(ba.live_range->instruction_at(c.peak_time)), static_cast<std::int64_t>(live.size()),
                                   std::move(values)});
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Peak by source (hlo/attribution.hpp, memory/peak_holdings.hpp)
// ---------------------------------------------------------------------------------------------

/// The values of a group with the bytes of the peak each holds, largest first (PeakValue objects).
template <class Held>
py::list holders(assignment_type const& ba, std::vector<std::size_t> const& values, Held const& held) {
    std::vector<std::size_t> order(values);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return held(a) > held(b); });
    py::list out;
    for (std::size_t k : order) {
        auto const& v = ba.values[k];
        out.append(peak_value{v.id, std::string(v.name), hlomem::to_string(v.index), held(k)});
    }
    return out;
}

template <class Held>
py::object tree_of(assignment_type const& ba, hlomem::holding_tree const& node, Held const& held) {
    py::list children;
    for (auto const& c : node.children) children.append(tree_of(ba, c, held));
    return py::cast(held_node{hlomem::c_unescape(node.name), node.bytes, holders(ba, node.values, held), std::move(children)});
}

template <class Sources>
py::list peak_by_source_of(assignment_type const& ba, Sources const& sources, std::string const& by) {
    auto const colors = hlomem::assigned_live_bytes(ba);
    auto const holdings = hlomem::peak_holdings_by_color(ba, colors, sources);
    py::list out;
    for (auto const& h : holdings) {
        std::unordered_map<std::size_t, std::int64_t> bytes_of;
        for (auto const& v : h.values) bytes_of[v.value] = v.bytes;
        auto held = [&](std::size_t k) { return bytes_of[k]; };
        peak_sources color{h.color, static_cast<std::int64_t>(h.time), std::string(ba.live_range->instruction_at(h.time)), h.bytes};
        if (by == "source_line") {
            py::list groups;
            for (auto const& g : hlomem::peak_by_source_line(h, sources)) {
                bool const line = !g.key.is_no_source() && !g.key.is_argument();
                groups.append(source_group{line ? py::object(py::str(hlomem::c_unescape(g.key.source_file))) : py::object(py::none()),
                                           line ? py::object(py::int_(g.key.source_line)) : py::object(py::none()),
                                           std::string(hlomem::to_string(g.key.kind)),
                                           g.key.is_argument() ? py::object(py::int_(g.key.argument)) : py::object(py::none()),
                                           hlomem::source_line_text(g.key), g.bytes, holders(ba, g.values, held)});
            }
            color.groups = std::move(groups);
        } else if (by == "op_name") {
            color.tree = tree_of(ba, hlomem::peak_by_op_name(h, sources), held);
        } else {
            color.tree = tree_of(ba, hlomem::peak_by_stack_frame(h, sources), held);
        }
        out.append(std::move(color));
    }
    return out;
}

py::list peak_by_source(dump& d, std::string const& by) {
    if (by != "source_line" && by != "op_name" && by != "stack_frame") {
        throw py::value_error("by takes 'source_line', 'op_name' or 'stack_frame', not '" + by + "'");
    }
    auto const& ba = d.assignment_with_live_ranges();
    if (d.derived) {  // a module: its instructions' metadata and stack tables
        auto const& m = std::get<std::vector<hlomem::basic_hlo_module<policy>>>(d.loaded.model).front();
        return peak_by_source_of(ba, hlomem::attribute_values(ba, m), by);
    }
    return peak_by_source_of(ba, hlomem::attribute_values(d.loaded), by);
}


// ---------------------------------------------------------------------------------------------
// Assign (assign/predict.hpp: what `hlomem assign` prints)
// ---------------------------------------------------------------------------------------------

std::shared_ptr<dump> assign(py::object source, std::optional<std::string> backend, std::optional<std::string> algorithm,
                             std::optional<std::int64_t> alignment, double time_limit) {
    auto const module = as_dump(std::move(source));
    std::string const& path = module->loaded.path;
    if (module->loaded.kind() != hlomem::dump_kind::hlo_module) {
        throw py::value_error(path + ": not an HLO module (the first line should be 'HloModule name, ...'); hlomem.assign "
                                     "predicts the buffer assignment of a scheduled module");
    }
    hlomem::assign_options options;
    try {
        options = hlomem::assign_options_named(backend, algorithm, alignment, time_limit);
    } catch (hlomem::error const& e) {
        throw py::value_error(e.what());
    }
    options.module_text = module->text;

    // The module as the Dump read it (view_policy), predicted without reading it again: the model
    // views the module's text, and only `Total bytes used`'s (1.5KiB) is left for the printer.
    auto const& parsed = std::get<std::vector<hlomem::basic_hlo_module<policy>>>(module->loaded.model);
    std::optional<hlomem::basic_predicted_assignment<policy>> predicted;
    bool const scheduled = parsed.size() != 1 || parsed.front().is_scheduled();
    std::optional<std::string> failure;
    if (parsed.size() == 1) {
        py::gil_scoped_release unlocked;
        try {
            predicted = hlomem::predict_assignment(parsed.front(), options);
        } catch (hlomem::error const& e) {
            failure = path + ": " + e.what();
        }
    }
    if (failure) throw py::value_error(*failure);
    if (!predicted) throw py::value_error(path + ": " + std::to_string(parsed.size()) + " modules; give one");
    if (!scheduled) {
        auto const warn = py::module_::import("warnings").attr("warn");
        warn(hlomem::not_scheduled_note(path));
    }

    // The dump: the assigner's model, which is what reading its text back would give
    // (hlomem::renumber_as_printed), named as `hlomem assign --json` names it (hlomem::load_model:
    // the module's path, no siblings). Its strings view the module's text, which the module's
    // Dump keeps as long as this one (model_owner); the printed text is kept in a str for
    // Dump.text.
    auto out = std::make_shared<dump>();
    py::str text(predicted->text);
    Py_ssize_t size = 0;
    char const* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
    if (!data) throw py::error_already_set();
    out->owner = text;
    out->text = std::string_view(data, static_cast<std::size_t>(size));
    out->model_owner = module;
    out->loaded = hlomem::load_model(std::move(predicted->assignment), path);
    out->prediction = py::cast(prediction{std::string(hlomem::to_string(predicted->backend)), predicted->backend_source,
                                          predicted->backend_reason, predicted->alignment,
                                          std::string(hlomem::to_string(options.algorithm)), path});
    return out;
}

// ---------------------------------------------------------------------------------------------
// Shape
// ---------------------------------------------------------------------------------------------

hlomem::shape parse_shape(std::string const& text) {
    auto r = hlomem::try_parse_shape(text, "<shape>");
    if (!r) raise_parse_error(r.error());
    return std::move(*r);
}

/// The padding of an array in sentences, and the changes that would remove it (core/padding.hpp).
std::string explain(hlomem::shape const& s) {
    auto const style = hlomem::size_function_of(std::vector<hlomem::shape>{s});
    std::string out = hlomem::to_string(s) + "\n";
    if (s.is_tuple()) {
        auto const t = hlomem::totals_of(s);
        return out + "  a tuple of " + std::to_string(t.arrays) + " arrays: " + std::to_string(t.padded_bytes) +
               " bytes padded, " + std::to_string(t.unpadded_bytes) + " unpadded, " + std::to_string(t.tuple_table_bytes) +
               " in tuple tables; explain each element for its padding\n";
    }
    auto const b = hlomem::padding_breakdown_of(s);
    for (auto const& line : hlomem::describe_padding(s, b, style)) out += "  " + line + "\n";
    for (auto const& fix : hlomem::padding_fixes(s)) out += "  fix: " + hlomem::describe(fix, s, style) + "\n";
    return out;
}

// ---------------------------------------------------------------------------------------------
// The typed collections of a Dump (records.hpp), made once and kept in the Dump's __dict__: kept in
// the C++ dump they would hold it through their own references to it, and never be freed.
// ---------------------------------------------------------------------------------------------

template <class Make>
py::object cached(py::object const& self, char const* key, Make make) {
    py::dict attrs = self.attr("__dict__");
    if (attrs.contains(key)) return attrs[key];
    py::object made = make(self.cast<std::shared_ptr<dump>>());
    attrs[key] = made;
    return made;
}

/// Dump.values: a LogicalValue a value of the assignment, in its order.
py::list dump_values(py::object const& self) {
    return cached(self, "_values", [](std::shared_ptr<dump> const& d) {
        std::size_t const n = d->assignment().values.size();
        d->facts();  // the values' metadata, read once
        py::list out(n);
        for (std::size_t i = 0; i < n; ++i) PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), py::cast(value_ref{d, i}).release().ptr());
        return out;
    });
}

/// Dump.allocations: an Allocation an allocation, its values those of Dump.values.
py::list dump_allocations(py::object const& self) {
    py::list const values = dump_values(self);
    return cached(self, "_allocations", [&](std::shared_ptr<dump> const& d) {
        py::list out;
        auto const& ba = d->assignment();
        for (std::size_t i = 0; i < ba.allocations.size(); ++i) {
            py::list mine;
            for (std::size_t v : ba.allocations[i].values) mine.append(values[v]);
            out.append(allocation_ref{d, i, mine});
        }
        return out;
    });
}

/// Dump.colors: a Color a color that has allocations, by number, as the report lists them.
py::list dump_colors(py::object const& self) {
    return cached(self, "_colors", [](std::shared_ptr<dump> const& d) {
        std::map<std::int64_t, std::int64_t> allocated;
        for (auto const& a : d->assignment().allocations) allocated[a.color] += a.size;
        d->facts();
        py::list out;
        for (auto const& [color, bytes] : allocated) out.append(color_ref{d, color, bytes});
        return out;
    });
}

/// Dump.values_frame(): the values as a pandas DataFrame, a column a field of LogicalValue.
py::object values_frame(py::object const& self) {
    py::object pandas;
    try {
        pandas = py::module_::import("pandas");
    } catch (py::error_already_set& e) {
        if (!e.matches(PyExc_ImportError)) throw;
        PyErr_SetString(PyExc_ImportError, "Dump.values_frame() needs pandas, which is not installed (pip install pandas); "
                                           "nothing else in hlomem needs it: Dump.values holds the same values");
        throw py::error_already_set();
    }
    auto const d = self.cast<std::shared_ptr<dump>>();
    std::size_t const n = d->assignment().values.size();
    d->facts();
    py::dict columns;
    value_ref r{d, 0};
    for (auto const& f : value_fields()) {
        py::list column(n);
        for (r.i = 0; r.i < n; ++r.i) PyList_SET_ITEM(column.ptr(), static_cast<Py_ssize_t>(r.i), f.get(r).release().ptr());
        columns[f.name] = column;
    }
    return pandas.attr("DataFrame")(columns);
}

// ---------------------------------------------------------------------------------------------
// Bindings, one function a class
// ---------------------------------------------------------------------------------------------

/// hlomem.ParseError and hlomem.ShapeError, and the translation of the library's exceptions.
void bind_errors(py::module_& m) {
    parse_error_type = PyErr_NewExceptionWithDoc(
        "hlomem.ParseError",
        "Text that does not read as XLA's format says. A ValueError whose message is the C++ report\n"
        "(file:line:column: error: reason, the offending line, a caret under the column), with the\n"
        "parts as attributes: file, line (1-based), column (1-based, in bytes), expected, reason,\n"
        "source_line (the offending line) and caret (0-based position in source_line).",
        PyExc_ValueError, nullptr);
    shape_error_type = PyErr_NewExceptionWithDoc(
        "hlomem.ShapeError",
        "A shape operation without an answer: the size of an unbounded (?) dimension, a size past int64.",
        PyExc_ValueError, nullptr);
    m.attr("ParseError") = py::reinterpret_borrow<py::object>(parse_error_type);
    m.attr("ShapeError") = py::reinterpret_borrow<py::object>(shape_error_type);
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (hlomem::parse_error const& e) {
            try {
                raise_parse_error(e.info());
            } catch (py::error_already_set& set) {
                set.restore();
            }
        } catch (hlomem::shape_error const& e) {
            PyErr_SetString(shape_error_type, e.what());
        } catch (hlomem::error const& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        }
    });
}

/// The typed objects (records.hpp).
void bind_records(py::module_& m) {
    bind_record(m, "LogicalValue", "A logical value of the buffer assignment, as `hlomem report --json` lists it in 'values'.",
                value_fields(), "id name size shape live_range");
    bind_record(m, "Allocation", "An allocation of the buffer assignment, as `hlomem report --json` lists it in 'allocations'\n"
                "(its values: LogicalValue objects; to_dict() lists their ids).", allocation_fields(), "index size color kind");
    bind_record(m, "SourceLine", "A source line's share of a color's peak: its values' bytes there (ids in values).",
                source_line_fields(), "source_file source_line bytes")
        .def_readonly("text", &source_line_group::text,
            "The line's text, read from the program's source file where it is found (as written, or below\n"
            "Dump.source_roots); None otherwise. Not in to_dict(), which is the report's JSON row.");
    bind_record(m, "HoldingNode", "A node of a color's peak by op_name or by stack frame: its bytes, the values held there\n"
                "(ids), its children.", holding_node_fields(), "name bytes");
    bind_record(m, "Color", "A color (memory space) of the buffer assignment, as `hlomem report --json` lists it in 'colors'.",
                color_fields(), "color allocated_bytes peak_live_bytes peak_time");
    bind_record(m, "Inconsistency", "Where a dump contradicts itself: its line (0: the dump as a whole) and what.",
                inconsistency_fields(), "line message");
    with_dict_access(bind_record(m, "HeldNode", "A node of Dump.peak_by_source's tree (by op_name or stack frame): its bytes, the\n"
                "values held right there (PeakValue objects), its children (HeldNode objects).", held_node_fields(), "name bytes"),
                held_node_fields());
    with_dict_access(bind_record(m, "SourceGroup", "A source line's share of a color's peak in Dump.peak_by_source(by='source_line'):\n"
                "source_file, source_line, origin, argument, label, bytes, values (PeakValue objects).", source_group_fields(),
                "label bytes"), source_group_fields());
    with_dict_access(bind_record(m, "PeakSources", "One color's peak in Dump.peak_by_source: color, time, instruction, bytes, and\n"
                "groups (SourceGroup objects, by='source_line') or tree (a HeldNode, by='op_name' or 'stack_frame').",
                peak_sources_fields(), "color time bytes"), peak_sources_fields());
    with_dict_access(bind_record(m, "BreakdownValue", "A value live at a color's peak, as the text report lists the largest (Dump.breakdown).",
                breakdown_value_fields(), "id name bytes"), breakdown_value_fields());
    with_dict_access(bind_record(m, "ColorBreakdown", "What is live at one color's peak (Dump.breakdown): its peak bytes, time and instruction,\n"
                "how many values are live there, and the largest (BreakdownValue objects), largest first.",
                color_breakdown_fields(), "color peak_bytes peak_time"), color_breakdown_fields());
    with_dict_access(bind_record(m, "Violation", "A violation of soundness (Dump.check), as `hlomem check --json` lists it in 'violations'\n"
                "(kind, line, allocation, values, sources, message), with its severity and column.", violation_fields(),
                "kind line message"), violation_fields());
    with_dict_access(bind_record(m, "Prediction", "How hlomem.assign predicted an assignment (Dump.prediction): backend, backend_source\n"
                "('given', 'inferred', 'default'), backend_reason, alignment, algorithm, module.", prediction_fields(),
                "backend backend_source alignment algorithm"), prediction_fields());
    with_dict_access(bind_record(m, "PeakValue", "A value at a peak and its bytes there: under XLA's rule at XLA's peak (Dump.peak.values), or\n"
                "the bytes of the peak it holds, shared bytes once (Dump.peak_by_source).", peak_value_fields(),
                "id name index bytes"), peak_value_fields());
    bind_record(m, "Peak", "XLA's peak (HloLiveRange's) recomputed, against the peak the dump states.", peak_fields(),
                "time instruction bytes matches_stated");
    bind_record(m, "TimelineColor", "A color of a timeline, as `hlomem timeline --json` lists it.", timeline_color_fields(),
                "color peak_bytes peak_time peak_instruction");
    bind_record(m, "BytePair", "A byte count of A and of B, and its change (delta = b - a).", byte_pair_fields(), "a b delta");
    bind_record(m, "Sides", "A figure of A and of B (a time, an instruction, the ids of the values live).", sides_fields(), "a b");
    bind_record(m, "KindBytes", "Bytes allocated to one kind of allocation in A and B.", kind_bytes_fields(), "kind a b delta");
    bind_record(m, "SourceLineChange", "A source line's bytes at A's and B's peaks, and the values of each (ids).",
                source_line_change_fields(), "source_file source_line a b delta");
    bind_record(m, "DiffColor", "A color of a diff, as `hlomem diff --json` lists it in 'colors'.", diff_color_fields(),
                "color allocated_bytes peak_live_bytes");
    bind_record(m, "MemoryAnalysis", "What jax's compiled.memory_analysis() reports, computed by XLA's rules: each figure of\n"
                "XLA's CompiledMemoryStats under its name (None where no text states it: the code size), peak\n"
                "(how the peak was reached: static_bytes, heap_bytes, time, instruction, values) and notes.",
                memory_analysis_record_fields(), "peak_memory_in_bytes temp_size_in_bytes argument_size_in_bytes");
}

/// hlomem.Dump.
void bind_dump(py::module_& m) {
    py::class_<dump, std::shared_ptr<dump>>(m, "Dump", py::dynamic_attr(),
        "An XLA text read by hlomem.load: a buffer-assignment dump, HLO module(s), a live-range text,\n"
        "a memory-usage report, an out-of-memory log or a MiniMalloc CSV, told apart by content.\n"
        "The buffer-assignment views (allocations, values, colors, peak, breakdown, check, liveness,\n"
        "timeline) work on a dump and on a file of one HLO module, whose assignment hlomem derives\n"
        "from the module's own schedule and live ranges, as XLA's HloLiveRange does.")
        .def_property_readonly("kind", &dump::kind,
            "The kind of text, read from its content: 'buffer_assignment', 'live_range', "
            "'memory_usage_report', 'hlo_module', 'oom_log' or 'minimalloc_csv'.")
        .def_property_readonly("name", [](dump const& d) { return d.loaded.path; },
            "The path it was read from, or the name given to text (default '<text>').")
        .def_property_readonly("live_range_file", [](dump const& d) { return d.loaded.live_range_file; },
            "The separate -live-range.txt read with a dump, or None.")
        .def_property_readonly("memory_usage_report_file", [](dump const& d) { return d.loaded.memory_usage_report_file; },
            "The -memory-usage-report.txt the dump was checked against, or None.")
        .def_property_readonly("module_file", [](dump const& d) { return d.loaded.module_file; },
            "The module read with a dump for the sources of its values (module=, or X.txt beside\n"
            "X-buffer-assignment.txt), or None.")
        .def("to_json", [](dump& d, std::vector<std::string> const& strip_roots) { return d.report(strip_roots); },
            py::kw_only(), py::arg("strip_roots") = std::vector<std::string>(),
            "The report as `hlomem report --json FILE` prints it, byte for byte (a str); strip_roots:\n"
            "the folders source files are shown below, as --strip-root names them.")
        .def("to_dict", [](dump& d, std::vector<std::string> const& strip_roots) { return json_loads(d.report(strip_roots)); },
            py::kw_only(), py::arg("strip_roots") = std::vector<std::string>(),
            "The report as a dict: exactly what `hlomem report --json FILE` prints (a list of dicts\n"
            "for a file of several HLO modules).")
        .def("report", [](dump& d, std::size_t top, std::vector<std::string> const& strip_roots) {
                if (!hlomem::reports(d.loaded.kind())) d.report();  // raises with the reason
                std::ostringstream out;
                hlomem::print_report_text(out, d.loaded, top, 3, strip_roots);
                return out.str();
            }, py::arg("top") = 20, py::kw_only(), py::arg("strip_roots") = std::vector<std::string>(),
            "The report as `hlomem report FILE` prints it (text); `top` values listed at each peak;\n"
            "strip_roots: the folders source files are shown below (`--strip-root`).")
        .def_property_readonly("assignment_dict", [](dump& d) { return json_loads(d.assignment_report()); },
            "The buffer-assignment report (`hlomem report --json` of a dump) of the dump, or of the\n"
            "assignment derived from the module: what allocations, values, colors and peak come from.")
        .def_property_readonly("total_bytes", [](dump& d) { return d.assignment().total_bytes(); },
            "Bytes of all allocations (the report's total_bytes).")
        .def_property_readonly("allocations", [](py::object self) { return py::list(dump_allocations(self)); },
            "Every allocation (Allocation objects): index, size, color, kind, parameter, flags, and its\n"
            "values as LogicalValue objects, as the report's 'allocations' lists them.")
        .def_property_readonly("values", [](py::object self) { return py::list(dump_values(self)); },
            "Every logical value (LogicalValue objects, made once): id, name, index, allocation, offset,\n"
            "size, shape, live_range and its metadata (op_name, source_file, source_line), as the\n"
            "report's 'values' lists them.")
        .def("values_frame", &values_frame,
            "The values as a pandas DataFrame, a row a value and a column a LogicalValue attribute\n"
            "(pandas is not needed by hlomem: ImportError when it is not installed).")
        .def_property_readonly("colors", [](py::object self) { return py::list(dump_colors(self)); },
            "Per color (memory space), Color objects: allocated bytes, peak live bytes, its time and\n"
            "instruction, the lower bound, padding, the peak by source line, op_name and stack frame.")
        .def_property_readonly("warnings", [](dump& d) {
                py::list out;
                for (auto const& w : d.facts().warnings) out.append(inconsistency{w.line, w.message});
                return out;
            },
            "Where the dump contradicts itself (Inconsistency objects: line, message; the report's 'warnings').")
        .def_property_readonly("peak", [](dump& d) { return peak_of(d); },
            "XLA's peak (HloLiveRange's), recomputed, a Peak: time, instruction, bytes (XLA's running sum),\n"
            "listed_bytes, rule, stated_time and matches_stated (against the peak the dump states),\n"
            "values (PeakValue: id, name, index, bytes). The report's live_range.peak_* keys; None without live ranges.")
        .def("breakdown", [](dump& d, std::size_t top) { return breakdown(d, top); }, py::arg("top") = 20,
            "What is live at each color's peak: per color its peak bytes, time and instruction, how many\n"
            "values are live there, and the `top` largest (id, name, index, bytes, allocation,\n"
            "allocation_kind, shape), largest first, as the text report lists them.")
        .def("peak_by_source", &peak_by_source, py::arg("by") = "source_line",
            "Which lines of the program hold each color's peak: every byte live there given to one value\n"
            "(shared bytes once, so the groups add up to the peak), the values grouped by\n"
            "  'source_line': {source_file, source_line, bytes, values}, largest first ('no source':\n"
            "                 source_file None);\n"
            "  'op_name':     a tree of op_name prefixes (jit(f), jit(f)/while, ...);\n"
            "  'stack_frame': a tree of Python stack frames, outermost first.\n"
            "Per color: color, time, instruction, bytes, and 'groups' or 'tree' (nodes: name, bytes,\n"
            "values, children); values: id, name, index, bytes held. Sources come from the dump's\n"
            "metadata, joined with its module (module=) or, for a module, from its instructions.")
        .def("check", [](dump& d, std::optional<std::string> size_function) {
                auto const& ba = d.assignment();
                hlomem::soundness_options options;
                if (size_function) {
                    options.size_function = hlomem::size_function_named(*size_function);
                    if (!options.size_function) throw py::value_error("size_function takes 'xla' or 'tpu', not '" + *size_function + "'");
                }
                std::vector<hlomem::diagnostic> found;
                {
                    py::gil_scoped_release unlocked;
                    found = hlomem::check_soundness(ba, options);
                }
                auto const sources = d.sources();
                py::list out;
                for (auto const& f : found) out.append(violation_of(ba, f, sources));
                return out;
            }, py::arg("size_function") = py::none(),
            "Whether the assignment is sound (`hlomem check`): every violation as a dict (kind, severity,\n"
            "line, column, allocation, values, sources, message); an empty list when sound.")
        .def("liveness", [](dump& d) {
                std::ostringstream out;
                hlomem::print_live_range(out, *d.assignment_with_live_ranges().live_range);
                return out.str();
            },
            "XLA's HloLiveRange text of the assignment (`hlomem liveness` for a module): the instruction\n"
            "sequence, every value's live range, the peak and what is live there.")
        .def("timeline", &make_timeline, py::arg("size_function") = py::none(), py::arg("max_rectangles") = 2000,
            "Memory over program order per color (`hlomem timeline`): a Timeline, drawn inline in\n"
            "Jupyter and saved with save(path). size_function 'xla' or 'tpu' (default: the dump's);\n"
            "max_rectangles values drawn one by one per color, the smallest beyond aggregated.")
        .def("what_if", &what_if, py::arg("donate") = py::tuple(), py::arg("remat") = py::tuple(), py::arg("offload") = py::tuple(),
            py::arg("from_time") = py::none(), py::arg("chain") = 0,
            "Edits evaluated on the module (`hlomem whatif`), a WhatIf: donate entry parameters (their\n"
            "numbers), rematerialize or offload to host the values of instructions (their names), in that\n"
            "order, each in the order given. A remat or offload splits at from_time, or at XLA's peak; a\n"
            "remat may recompute up to `chain` of its operands in turn (`--chain`).\n"
            "The Dump is of one scheduled module, or of a buffer-assignment dump read with its module\n"
            "(X.txt beside X-buffer-assignment.txt, or module=); ValueError otherwise, and for a name the\n"
            "module lacks.")
        .def_property_readonly("text", [](dump const& d) -> py::object {
                if (py::isinstance<py::str>(d.owner)) return d.owner;
                PyObject* text = PyUnicode_DecodeUTF8(d.text.data(), static_cast<Py_ssize_t>(d.text.size()), "replace");
                if (!text) throw py::error_already_set();
                return py::reinterpret_steal<py::object>(text);
            },
            "The text it was read from (a str; for hlomem.assign, the dump `hlomem assign` prints).")
        .def_property("source_roots", [](dump const& d) { return d.source_text.roots(); },
            [](dump& d, std::vector<std::string> roots) { d.source_text = hlomem::source_text(std::move(roots)); },
            "Folders where the program's source files are, for a dump made on another machine (`hlomem\n"
            "timeline --source-root`): SourceLine.text and the timeline page read each source line's text\n"
            "from its file as written, else below each root with the path's leading folders dropped one by one.")
        .def_readonly("prediction", &dump::prediction,
            "Set by hlomem.assign: how the assignment was predicted, a dict: backend ('gpu', 'cpu' or\n"
            "'tpu'), backend_source ('given', 'inferred' from the module, or 'default'), backend_reason,\n"
            "alignment (of temp buffers), algorithm (of the temp heaps) and module (its name); None otherwise.")
        .def_property_readonly("memory_analysis", [](dump& d) { return optional_object(d.memory_analysis()); },
            "What jax's compiled.memory_analysis() would report, a MemoryAnalysis computed by XLA's rules:\n"
            "from a dump's assignment, or for a file of one module on the assignment hlomem predicts for it;\n"
            "None for other kinds of text. Its to_dict() is the report's 'memory_analysis'.")
        .def_readwrite("jax_memory_analysis", &dump::jax_memory_analysis,
            "Set by hlomem.from_jax: every figure of jax's compiled.memory_analysis() next to hlomem's, a\n"
            "dict {figure: {'jax': bytes or None, 'hlomem': bytes or None}}; None otherwise.")
        .def("__repr__", [](dump const& d) {
            return "<hlomem.Dump " + std::string(hlomem::to_string(d.loaded.kind())) + " '" + d.loaded.path + "'>";
        });
}

/// hlomem.Timeline.
void bind_timeline(py::module_& m) {
    py::class_<timeline, std::shared_ptr<timeline>>(m, "Timeline",
        "Memory over program order, one panel per color: the live bytes with the peak marked, and every\n"
        "buffer as a rectangle over its live range at its offset (`hlomem timeline`).")
        .def("page", &timeline::html, "The self-contained HTML page (`hlomem timeline -o OUT.html`).")
        .def("save_page", [](timeline const& t, py::object path) { write_file(path_string(path), t.html()); }, py::arg("path"),
            "Writes page() to `path`, as `hlomem timeline -o PATH.html` does.")
        .def("html", &timeline::html, "page(), by its name before 0.11 (kept for one release).")
        .def("svg", &timeline::svg, "The static SVG picture (`hlomem timeline -o OUT.svg`).")
        .def("to_json", &timeline::json, "The summary as `hlomem timeline --json` prints it (a str).")
        .def("to_dict", [](timeline const& t) { return json_loads(t.json()); },
            "The summary as a dict: exactly what `hlomem timeline --json` prints.")
        .def_property_readonly("colors", [](std::shared_ptr<timeline> const& t) {
                py::list out;
                for (std::size_t i = 0; i < t->tl.colors.size(); ++i) out.append(timeline_color_ref{t, i});
                return out;
            },
            "Per color, a TimelineColor: its peak bytes, time and instruction, what was drawn (to_dict()['colors']).")
        .def("save", [](timeline const& t, py::object path) {
                std::string const file = path_string(path);
                bool const svg = has_suffix(file, ".svg");
                if (!svg && !has_suffix(file, ".html") && !has_suffix(file, ".htm")) {
                    throw py::value_error("cannot tell the format of '" + file + "': name it .html or .svg");
                }
                write_file(file, svg ? t.svg() : t.html());
            }, py::arg("path"),
            "Writes the page (path ending .html or .htm: save_page()) or the SVG picture (.svg), as `hlomem timeline -o`.")
        .def("_repr_html_", &timeline::repr_html,
            "The page inline in Jupyter, in a sandboxed iframe (its script runs there, apart from the notebook).")
        .def("__repr__", &timeline::summary);
}

/// hlomem.Diff.
void bind_diff(py::module_& m) {
    py::class_<hlomem::knob_verdict>(m, "Knob",
        "A setting a diff's changes look like, and whether it took effect (to_dict()['knobs'][i]).")
        .def_property_readonly("knob", [](hlomem::knob_verdict const& k) { return std::string(hlomem::to_string(k.knob)); },
            "'donation', 'remat', 'offload', 'scheduling', 'layout' or 'fusion'.")
        .def_property_readonly("effect", [](hlomem::knob_verdict const& k) { return std::string(hlomem::to_string(k.effect)); },
            "'took_effect', 'no_effect' or 'partly'.")
        .def_readonly("bytes_at_peak", &hlomem::knob_verdict::bytes_at_peak,
            "B's bytes held by the knob's values at B's peak minus A's at A's (negative: freed).")
        .def_property_readonly("values", [](hlomem::knob_verdict const& k) {
                py::list out;
                for (auto const& v : k.values) {
                    py::dict e;
                    e["side"] = std::string(1, v.side);
                    e["id"] = v.id >= 0 ? py::object(py::int_(v.id)) : py::object(py::none());
                    e["name"] = v.name;
                    e["bytes"] = v.bytes;
                    out.append(std::move(e));
                }
                return out;
            },
            "The values (or parameters) the verdict is about, the largest first: dicts of side ('a' or 'b'), id, name, bytes.")
        .def_readonly("text", &hlomem::knob_verdict::text, "What changed, and the evidence, in one sentence.")
        .def("__repr__", [](hlomem::knob_verdict const& k) { return "<hlomem.Knob " + hlomem::knob_line(k) + ">"; });
    py::class_<diff_result, std::shared_ptr<diff_result>>(m, "Diff",
        "Why memory changed between two compilations of one program (`hlomem diff A B`): A, the\n"
        "baseline, and B compared value by value (matched by metadata, then shape and schedule\n"
        "position, then name), the verdict first.")
        .def_readonly("a", &diff_result::a, "A, the baseline (a Dump).")
        .def_readonly("b", &diff_result::b, "B (a Dump).")
        .def("to_json", &diff_result::to_json, "The diff as `hlomem diff --json A B` prints it, byte for byte (a str).")
        .def("to_dict", [](diff_result& d) { return json_loads(d.to_json()); },
            "The diff as a dict: exactly what `hlomem diff --json A B` prints.")
        .def("report", &diff_result::text, "The diff as `hlomem diff A B` prints it (text).")
        .def_property_readonly("verdict", [](diff_result const& d) { return d.diff().verdict; },
            "What explains most of the change, in sentences, the most telling first (the report's first lines).")
        .def_property_readonly("knobs", [](diff_result const& d) { return d.diff().knobs; },
            "The settings the changes look like (donation, remat, offload, scheduling, layout, fusion), each\n"
            "a Knob saying whether it took effect and the bytes it moved at the peak, the largest move first.")
        .def_property_readonly("total_bytes", [](diff_result const& d) { return d.diff().total_bytes; },
            "'Total bytes used' of A and B and its change, a BytePair (a, b, delta = b - a).")
        .def_property_readonly("colors", [](std::shared_ptr<diff_result> const& d) {
                py::list out;
                for (std::size_t i = 0; i < d->diff().colors.size(); ++i) out.append(diff_color_ref{d, i});
                return out;
            },
            "Per color (memory space), a DiffColor: A's and B's allocated bytes, peak live bytes and its\n"
            "moment, bytes by allocation kind, the peak by source line, padding and the temp arena against\n"
            "its bound (to_dict()['colors']).")
        .def_property_readonly("matched_values", [](diff_result const& d) { return d.diff().matching.pairs.size(); },
            "How many values of A were matched with one of B (the list: to_dict()['matched_values']).")
        .def_property_readonly("only_in_a", [](diff_result const& d) { return d.diff().matching.only_in_a.size(); },
            "How many values of A match none of B (the list: to_dict()['only_in_a']).")
        .def_property_readonly("only_in_b", [](diff_result const& d) { return d.diff().matching.only_in_b.size(); },
            "How many values of B match none of A (the list: to_dict()['only_in_b']).")
        .def_property_readonly("changes", [](diff_result const& d) { return d.diff().changes.size(); },
            "How many matched values changed size, shape or live range (the list: to_dict()['changes']).")
        .def("page", &diff_result::html, "The self-contained HTML page (`hlomem diff -o OUT.html A B`).")
        .def("save_page", [](diff_result const& d, py::object path) { write_file(path_string(path), d.html()); }, py::arg("path"),
            "Writes page() to `path`, as `hlomem diff -o PATH A B` does.")
        .def("html", &diff_result::html, "page(), by its name before 0.11 (kept for one release).")
        .def("save", [](diff_result const& d, py::object path) {
                std::string const file = path_string(path);
                if (!has_suffix(file, ".html") && !has_suffix(file, ".htm")) {
                    throw py::value_error("the diff is a page: name it .html, not '" + file + "'");
                }
                write_file(file, d.html());
            }, py::arg("path"),
            "save_page(), by its name before 0.11 (kept for one release), for a path ending .html or .htm.")
        .def("_repr_html_", &diff_result::repr_html,
            "The page inline in Jupyter, in a sandboxed iframe (its script runs there, apart from the notebook).")
        .def("__repr__", [](diff_result const& d) {
            std::string out = "<hlomem.Diff A '" + d.side_a.name + "' B '" + d.side_b.name + "'";
            for (auto const& line : d.diff().verdict) out += "\n  " + line;
            return out + ">";
        })
        .def_property_readonly("not_compared", [](diff_result const& d) { return d.result.not_compared(); },
            "What the diff cannot compare because a side is a snapshot (empty for two dumps or modules).")
        .def("gate", [](diff_result const& d, std::optional<std::string> const& fail_above, std::string const& measure, bool unused) {
                return d.gate(fail_above, measure, unused).failures;
            },
            py::arg("fail_above") = py::none(), py::kw_only(), py::arg("measure") = "peak", py::arg("fail_on_unused_donation") = false,
            "The gate of `hlomem diff --fail-above X --measure M --fail-on-unused-donation`: the list of\n"
            "its failures, one line each as the tool prints them (empty: it passes). fail_above: bytes\n"
            "('1048576') or a percentage of A's figure ('2%'); measure: 'peak' (each color's peak of live\n"
            "bytes) or 'total' (its allocated bytes).")
        .def("markdown", [](diff_result const& d, std::size_t rows, std::optional<std::string> const& fail_above, std::string const& measure,
                            bool unused) { return d.markdown(rows, fail_above, measure, unused); },
            py::kw_only(), py::arg("rows") = 10, py::arg("fail_above") = py::none(), py::arg("measure") = "peak",
            py::arg("fail_on_unused_donation") = false,
            "The diff as `hlomem diff --format markdown` prints it, for a pull-request comment.");
}

/// hlomem.Snapshot.
void bind_snapshot(py::module_& m) {
    py::class_<snapshot_object>(m, "Snapshot",
        "A compilation's memory as `hlomem snapshot` writes it: a small, deterministic JSON to keep in git.")
        .def("to_json", &snapshot_object::to_json, "The snapshot as `hlomem snapshot` writes it, byte for byte (a str).")
        .def("to_dict", [](snapshot_object const& s) { return json_loads(s.to_json()); }, "The snapshot as a dict.")
        .def("save", [](snapshot_object const& s, py::object path) {
                std::string const file = py::str(py::module_::import("os").attr("fspath")(path)).cast<std::string>();
                std::ofstream out(file, std::ios::binary);
                out << s.to_json();
                if (!out) throw py::value_error("cannot write '" + file + "'");
            },
            py::arg("path"), "Writes the snapshot to path (NAME.hlomem.json), as `hlomem snapshot -o`.")
        .def_property_readonly("total_bytes", [](snapshot_object const& s) { return s.s.total_bytes; }, "The bytes of every allocation.")
        .def_property_readonly("peak_bytes", [](snapshot_object const& s) {
                py::dict out;
                for (auto const& c : s.s.colors) out[py::int_(c.color)] = c.peak_measured ? py::object(py::int_(c.peak_bytes)) : py::object(py::none());
                return out;
            },
            "Each color's peak of live bytes, {color: bytes} (None without live ranges).")
        .def("__repr__", [](snapshot_object const& s) { return "<hlomem.Snapshot of '" + s.name + "', " + hlomem::human_bytes(s.s.total_bytes) + ">"; });
}

/// hlomem.Shape.
void bind_shape(py::module_& m) {
    py::class_<hlomem::shape>(m, "Shape",
        "An XLA shape read from its text, with its sizes under XLA's rules (`hlomem shape`).")
        .def_property_readonly("padded_bytes", [](hlomem::shape const& s) { return hlomem::totals_of(s).padded_bytes; },
            "XLA's ShapeUtil::ArraySize: tiles, L(n), E(n) and splits applied (a tuple: its arrays added up).")
        .def_property_readonly("unpadded_bytes", [](hlomem::shape const& s) { return hlomem::totals_of(s).unpadded_bytes; },
            "Bytes without tiling, what XProf and TPU out-of-memory reports call 'unpadded'.")
        .def_property_readonly("byte_size_of", [](hlomem::shape const& s) { return hlomem::byte_size_of(s); },
            "XLA's ShapeUtil::ByteSizeOf (a tuple: its 8-byte pointer table).")
        .def_property_readonly("elements", [](hlomem::shape const& s) { return hlomem::totals_of(s).elements; },
            "Elements (a tuple: of its arrays, added up).")
        .def_property_readonly("tuple_table_bytes", [](hlomem::shape const& s) { return hlomem::totals_of(s).tuple_table_bytes; },
            "Bytes of the pointer tables of a tuple and its nested tuples; 0 for an array.")
        .def_property_readonly("physical", [](hlomem::shape const& s) { return hlomem::to_string(hlomem::tiled_physical_shape(s)); },
            "The shape its tiled layout stores, e.g. bf16[512,28,4,128,2,1] for bf16[4096,3584]{1,0:T(8,128)(2,1)}.")
        .def_property_readonly("is_tuple", &hlomem::shape::is_tuple, "Whether it is a tuple.")
        .def("explain", &explain,
            "Where the padding comes from, dimension by dimension, and the changes of shape or layout that\n"
            "would remove it, in sentences (hlomem/core/padding.hpp).")
        .def("__str__", [](hlomem::shape const& s) { return hlomem::to_string(s); }, "XLA's canonical text.")
        .def("__repr__", [](hlomem::shape const& s) { return "hlomem.shape('" + hlomem::to_string(s) + "')"; })
        .def("__eq__", [](hlomem::shape const& a, hlomem::shape const& b) { return hlomem::shape_equal()(a, b); },
            py::is_operator(), "XLA's Shape::Equal.");
}

/// hlomem.shape, diff, assign and load.
void bind_functions(py::module_& m) {
    m.def("shape", &parse_shape, py::arg("text"),
        "Reads an XLA shape, e.g. hlomem.shape('bf16[4096,3584]{1,0:T(8,128)(2,1)}'); ParseError when it does not read.");
    m.def("diff", &diff, py::arg("a"), py::arg("b"), py::kw_only(), py::arg("top") = 10,
        py::arg("strip_roots") = std::vector<std::string>(),
        "Compares two compilations of one program (`hlomem diff A B`): a (the baseline) and b are\n"
        "Dumps of buffer-assignment dumps or of scheduled HLO modules (whose assignment is derived),\n"
        "anything hlomem.load reads into one, or snapshots (a Snapshot, or a .hlomem.json file); with a\n"
        "snapshot side it compares what a snapshot keeps (Diff.not_compared says what not). top: how many values each list of largest changes holds.\n"
        "strip_roots: folders source files are shown below (`--strip-root`); a file under different\n"
        "roots in a and b is one file either way, shown by the path tail the two share.\n"
        "Returns a Diff; ValueError when a side holds no buffer assignment.");
    m.def("snapshot", &snapshot, py::arg("source"), py::kw_only(), py::arg("top") = 10, py::arg("strip_roots") = std::vector<std::string>(),
        "A Snapshot of a compilation (`hlomem snapshot`): source is a Dump, anything hlomem.load reads\n"
        "(a path, compiled.as_text()), or a snapshot (a Snapshot, its JSON or its file) returned as it is.\n"
        "top: how many values at each peak it keeps; strip_roots: folders source paths are kept below.");
    m.def("assign", &assign, py::arg("module"), py::arg("backend") = py::none(), py::arg("algorithm") = py::none(),
        py::arg("alignment") = py::none(), py::kw_only(), py::arg("time_limit") = 10.0,
        "XLA's buffer assignment predicted from a scheduled HLO module alone (`hlomem assign`): a Dump\n"
        "of the buffer-assignment dump XLA would write: the assigner's model, equal to its text read as\n"
        "any dump is, without reading it (its text: Dump.text; how it was predicted: Dump.prediction).\n"
        "\n"
        "module: a Dump of an HLO module, or anything hlomem.load reads into one (compiled.as_text()).\n"
        "backend: 'gpu', 'cpu' or 'tpu', whose BufferAssigner options to follow; None: inferred from\n"
        "        the module (tiled layouts are TPU's, GPU/CPU library calls and backend configs), else gpu.\n"
        "algorithm: place the temp heaps with another of hlomem's allocators instead of XLA's best-fit\n"
        "        (best-fit-spatial, best-fit-temporal, greedy-by-size, first-fit, improve, exact).\n"
        "alignment: of temp buffers, a power of two instead of the backend's (128, 64, 512 bytes).\n"
        "time_limit: seconds per heap for improve and exact.\n"
        "Warns when the module is not scheduled (its text order then stands in for the schedule).");
    m.def("advise", &advise, py::arg("source"), py::kw_only(), py::arg("budget"), py::arg("top") = 10, py::arg("against") = "peak",
        "The edits that bring each memory space of a scheduled module under a budget (`hlomem advise`),\n"
        "an Advice. source: a Dump of a module or of a dump read with its module, or anything\n"
        "hlomem.load reads into one; budget: bytes (an int, or a str of digits) or a percent of each\n"
        "color's peak ('90%'); top: how many candidates are listed; against: 'peak' (each color's live\n"
        "peak) or 'memory_analysis' (the peak compiled.memory_analysis() reports, checked on the edited\n"
        "module: `--against memory_analysis`).");
    m.def("load", &load, py::arg("source"), py::kw_only(), py::arg("name") = py::none(), py::arg("live_range") = py::none(),
        py::arg("memory_usage_report") = py::none(), py::arg("module") = py::none(),
        "Reads an XLA text, of the kind its content says (as the hlomem tool does).\n"
        "\n"
        "source: a path (os.PathLike, or a str of one line), or the text itself: a str of several lines\n"
        "        (compiled.as_text()) or bytes, parsed where it lies, without a copy.\n"
        "name: what messages and the report call text (default '<text>'), or a path.\n"
        "live_range, memory_usage_report, module: a dump's separate -live-range.txt,\n"
        "        -memory-usage-report.txt and the module it was assigned from (for the sources of its\n"
        "        values); beside X-buffer-assignment.txt (X.txt for the module) they are found without.\n"
        "Raises ParseError (a ValueError) with file, line and column when the text does not read,\n"
        "FileNotFoundError when a file cannot be read, ValueError for text of no kind hlomem reads.");
}

}  // namespace hlomem_python

PYBIND11_MODULE(_hlomem, m) {
    using namespace hlomem_python;
    m.doc() = "hlomem: the memory of XLA programs (the C++ extension; import hlomem).";
    m.attr("__version__") = HLOMEM_VERSION_STRING;
    bind_errors(m);
    bind_records(m);
    bind_dump(m);
    bind_timeline(m);
    bind_diff(m);
    bind_snapshot(m);
    bind_whatif(m);
    bind_shape(m);
    bind_functions(m);
}
