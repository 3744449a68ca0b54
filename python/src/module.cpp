// python/src/module.cpp: hlomem._hlomem, the Python extension behind `import hlomem`.
//
// It wraps the library, its analyses and its output layer (<hlomem/output.hpp>); it computes
// nothing of its own. The tool prints through the same output layer, so that Dump.to_dict() is
// `hlomem report --json`, Timeline.save() is `hlomem timeline -o`, Diff.to_json() is `hlomem diff
// --json` and hlomem.assign(m).text is `hlomem assign` by construction: one writer for both.
//
// Zero copy: a file is read once into a string the loaded value owns; a `str` or `bytes` is parsed
// where it lies (hlomem::load_view), and the Dump keeps a reference to it, so the models' views
// stay valid as long as the Dump or anything made from it lives.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <ios>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include <hlomem/hlo/attribution.hpp>
#include <hlomem/hlomem.hpp>
#include <hlomem/load.hpp>
#include <hlomem/memory/peak_holdings.hpp>
#include <hlomem/memory/timeline.hpp>

#include <hlomem/output.hpp>

namespace py = pybind11;

namespace hlomem_python {

using policy = hlomem::view_policy;
using loaded_type = hlomem::basic_loaded<policy>;
using assignment_type = hlomem::basic_buffer_assignment<policy>;

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/// hlomem.ParseError and hlomem.ShapeError, created when the module is.
PyObject* parse_error_type = nullptr;
PyObject* shape_error_type = nullptr;

/// Raises hlomem.ParseError for `info`: the message is the C++ report (file:line:column, the
/// line, a caret); the attributes give each part.
[[noreturn]] void raise_parse_error(hlomem::parse_error_info const& info) {
    py::object error = py::reinterpret_borrow<py::object>(parse_error_type)(info.to_string());
    error.attr("file") = info.file;
    error.attr("line") = info.line;
    error.attr("column") = info.column;
    error.attr("expected") = info.expected;
    error.attr("reason") = info.message;
    error.attr("source_line") = info.source_line;
    error.attr("caret") = info.caret;
    PyErr_SetObject(parse_error_type, error.ptr());
    throw py::error_already_set();
}

/// The loader's error as the Python exception that fits it.
[[noreturn]] void raise_load_error(hlomem::load_error const& e) {
    switch (e.failure) {
        case hlomem::load_failure::unparsable:
            if (e.parse) raise_parse_error(*e.parse);
            break;
        case hlomem::load_failure::unreadable:
            PyErr_SetString(PyExc_FileNotFoundError, e.message.c_str());
            throw py::error_already_set();
        case hlomem::load_failure::unknown_kind: break;
    }
    throw py::value_error(e.message);
}

// ---------------------------------------------------------------------------------------------
// Dump
// ---------------------------------------------------------------------------------------------

/// A loaded text and what has been computed from it.
struct dump {
    /// The Python object whose buffer the models view (a str or bytes); None when the text was
    /// read from a file and `loaded.texts` owns it. Declared first, so destroyed last.
    py::object owner = py::none();
    loaded_type loaded;
    /// A file of one module: the assignment derived from it, made on first use.
    std::optional<hlomem::basic_derived_assignment<policy>> derived;
    /// The text the models view: the str's or bytes' buffer, or the file's text in loaded.texts.
    std::string_view text;
    /// Set by hlomem.from_jax: jax's figures next to hlomem's.
    py::object memory_analysis = py::none();
    /// Set by hlomem.assign: how the assignment was predicted.
    py::object prediction = py::none();
    /// The JSON texts, made on first use.
    std::optional<std::string> report_json;
    std::optional<std::string> assignment_json;

    std::string kind() const { return std::string(hlomem::to_string(loaded.kind())); }

    /// The buffer assignment: the dump's, or the one derived from the module.
    assignment_type const& assignment() {
        if (auto const* ba = std::get_if<assignment_type>(&loaded.model)) return *ba;
        if (auto const* modules = std::get_if<std::vector<hlomem::basic_hlo_module<policy>>>(&loaded.model)) {
            if (modules->size() != 1) {
                throw py::value_error(loaded.path + " holds " + std::to_string(modules->size()) +
                                      " modules; the buffer assignment is derived from a file of one module");
            }
            if (!derived) {
                py::gil_scoped_release unlocked;
                derived = hlomem::derive_assignment(modules->front());
            }
            return derived->assignment;
        }
        throw py::value_error(loaded.path + ": a text of kind '" + kind() +
                              "' holds no buffer assignment (load a buffer-assignment dump or an HLO module)");
    }

    /// The live-range text of the assignment; ValueError when it has none.
    assignment_type const& assignment_with_live_ranges() {
        auto const& ba = assignment();
        if (!ba.live_range || ba.live_range->not_available) {
            throw py::value_error(loaded.path +
                                  ": the dump has no live ranges (XLA appends its HloLiveRange text or writes it to "
                                  "X-live-range.txt; give that file as live_range=)");
        }
        return ba;
    }

    /// `hlomem report --json`.
    std::string const& report() {
        if (!report_json) {
            if (!hlomem::reports(loaded.kind())) {
                throw py::value_error(loaded.path + ": `hlomem report` reads HLO modules, buffer-assignment dumps, "
                                                    "live-range texts and memory-usage reports; this text is of kind '" + kind() + "'");
            }
            std::ostringstream out;
            {
                py::gil_scoped_release unlocked;
                hlomem::report_loaded(loaded, true, 20, out);
            }
            report_json = out.str();
        }
        return *report_json;
    }

    /// Each value's metadata (hlo/attribution.hpp): the dump's, joined with its module when the
    /// loader found one; for a module, its instructions' metadata and stack tables.
    hlomem::basic_source_attribution<policy> sources() {
        auto const& ba = assignment();
        if (derived) return hlomem::attribute_values(ba, std::get<std::vector<hlomem::basic_hlo_module<policy>>>(loaded.model).front());
        return hlomem::attribute_values(loaded);
    }

    /// `hlomem report --json` of the assignment (the dump's; for a module, the derived one).
    std::string const& assignment_report() {
        if (!assignment_json) {
            if (std::holds_alternative<assignment_type>(loaded.model)) {
                assignment_json = report();
            } else {
                auto const& ba = assignment();
                std::ostringstream out;
                {
                    py::gil_scoped_release unlocked;
                    hlomem::print_buffer_assignment_json(out, hlomem::facts_of(ba, sources()));
                }
                assignment_json = out.str();
            }
        }
        return *assignment_json;
    }
};

py::object json_loads(std::string const& text) { return py::module_::import("json").attr("loads")(text); }

/// Reads `source` (a path, or text as str or bytes) through the loader.
std::shared_ptr<dump> load(py::object source, std::optional<std::string> name, std::optional<std::string> live_range,
                           std::optional<std::string> memory_usage_report, std::optional<std::string> module) {
    auto out = std::make_shared<dump>();
    hlomem::load_options options;
    options.live_range_file = std::move(live_range);
    options.memory_usage_report_file = std::move(memory_usage_report);
    options.module_file = std::move(module);
    options.find_live_range = true;
    options.find_memory_usage_report = true;
    options.find_module = true;
    py::object const os = py::module_::import("os");
    if (py::isinstance(source, os.attr("PathLike"))) source = os.attr("fspath")(source);
    if (py::isinstance<py::bytearray>(source) || py::isinstance<py::memoryview>(source)) {
        source = py::module_::import("builtins").attr("bytes")(source);  // mutable buffers: viewed as an immutable copy
    }

    std::string_view text;
    bool is_text = false;
    if (py::isinstance<py::bytes>(source)) {
        char* data = nullptr;
        Py_ssize_t size = 0;
        if (PyBytes_AsStringAndSize(source.ptr(), &data, &size) != 0) throw py::error_already_set();
        text = std::string_view(data, static_cast<std::size_t>(size));
        is_text = true;
    } else if (py::isinstance<py::str>(source)) {
        Py_ssize_t size = 0;
        char const* data = PyUnicode_AsUTF8AndSize(source.ptr(), &size);  // kept by the str itself
        if (!data) throw py::error_already_set();
        text = std::string_view(data, static_cast<std::size_t>(size));
        // A path is one line; XLA's texts are many (and a module or dump always has a newline).
        is_text = text.find('\n') != std::string_view::npos;
    } else {
        throw py::type_error("hlomem.load takes a path (str or os.PathLike) or the text itself (str or bytes), not " +
                             std::string(py::str(py::type::handle_of(source).attr("__name__"))));
    }

    if (is_text) {
        out->owner = source;
        std::string const label = name.value_or("<text>");
        hlomem::load_result<loaded_type> r = [&] {
            py::gil_scoped_release unlocked;
            return hlomem::load_view<policy>(text, label, options);
        }();
        if (!r) raise_load_error(r.error());
        out->loaded = std::move(*r);
        out->text = text;
    } else {
        std::string const path(text);
        hlomem::load_result<loaded_type> r = [&]() -> hlomem::load_result<loaded_type> {
            py::gil_scoped_release unlocked;
            auto in = hlomem::read_input(path);
            if (!in) return in.error();
            return hlomem::load<policy>(std::move(*in), options);
        }();
        if (!r) raise_load_error(r.error());
        out->loaded = std::move(*r);
        out->text = *out->loaded.texts.front();  // load() keeps the file's text first
        if (name) out->loaded.path = *name;
    }
    return out;
}

/// One soundness finding as `hlomem check --json` lists it, with its severity and column.
/// A value's metadata as `check --json` lists it (output/sources.hpp, write_value_source): the
/// texts unescaped, null where absent.
py::dict source_dict(std::int64_t id, hlomem::value_source const& s) {
    auto text = [](std::string_view t) -> py::object { return t.empty() ? py::object(py::none()) : py::object(py::str(hlomem::c_unescape(t))); };
    py::dict out;
    out["id"] = id;
    out["op_type"] = text(s.op_type);
    out["op_name"] = text(s.op_name);
    out["source_file"] = text(s.source_file);
    out["source_line"] = s.has_source_line() ? py::object(py::int_(s.source_line)) : py::object(py::none());
    return out;
}

/// A finding as `check --json` lists it, with the source of each value it names (`sources`).
py::dict diagnostic_dict(assignment_type const& ba, hlomem::diagnostic const& d,
                         hlomem::basic_source_attribution<policy> const* sources = nullptr) {
    py::dict out;
    out["kind"] = std::string(hlomem::to_string(d.kind));
    out["severity"] = std::string(hlomem::to_string(d.severity));
    out["line"] = d.line;
    out["column"] = d.column;
    out["allocation"] = d.allocation == hlomem::npos ? py::object(py::none()) : py::object(py::int_(ba.allocations[d.allocation].index));
    py::list values, value_sources;
    if (d.kind != hlomem::diagnostic_kind::unknown_live_range) {
        for (std::size_t i : {d.first, d.second}) {
            if (i == hlomem::npos) continue;
            values.append(ba.values[i].id);
            if (sources) value_sources.append(source_dict(ba.values[i].id, (*sources)[i]));
        }
    }
    out["values"] = values;
    if (sources) out["sources"] = value_sources;
    out["message"] = d.message;
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
            py::dict row;
            row["id"] = v.id;
            row["name"] = std::string(v.name);
            row["index"] = hlomem::to_string(v.index);
            row["bytes"] = v.size;
            row["allocation"] = a.index;
            row["allocation_kind"] = std::string(hlomem::to_string(a.kind()));
            auto const* shape = ba.shape_of(v);
            row["shape"] = shape ? py::object(py::str(hlomem::to_string(*shape))) : py::object(py::none());
            values.append(row);
        }
        py::dict color;
        color["color"] = c.color;
        color["allocated_bytes"] = c.allocated_bytes;
        color["peak_bytes"] = c.peak_bytes;
        color["peak_time"] = static_cast<std::int64_t>(c.peak_time);
        color["peak_instruction"] = std::string(ba.live_range->instruction_at(c.peak_time));
        color["live_values"] = live.size();
        color["values"] = values;
        out.append(color);
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Peak by source (hlo/attribution.hpp, memory/peak_holdings.hpp)
// ---------------------------------------------------------------------------------------------

/// The values of a group with the bytes of the peak each holds, largest first.
template <class Held>
py::list holders(assignment_type const& ba, std::vector<std::size_t> const& values, Held const& held) {
    std::vector<std::size_t> order(values);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return held(a) > held(b); });
    py::list out;
    for (std::size_t k : order) {
        auto const& v = ba.values[k];
        py::dict row;
        row["id"] = v.id;
        row["name"] = std::string(v.name);
        row["index"] = hlomem::to_string(v.index);
        row["bytes"] = held(k);
        out.append(row);
    }
    return out;
}

template <class Held>
py::dict tree_dict(assignment_type const& ba, hlomem::holding_tree const& node, Held const& held) {
    py::dict out;
    out["name"] = hlomem::c_unescape(node.name);
    out["bytes"] = node.bytes;
    out["values"] = holders(ba, node.values, held);
    py::list children;
    for (auto const& c : node.children) children.append(tree_dict(ba, c, held));
    out["children"] = children;
    return out;
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
        py::dict color;
        color["color"] = h.color;
        color["time"] = static_cast<std::int64_t>(h.time);
        color["instruction"] = std::string(ba.live_range->instruction_at(h.time));
        color["bytes"] = h.bytes;
        if (by == "source_line") {
            py::list groups;
            for (auto const& g : hlomem::peak_by_source_line(h, sources)) {
                py::dict row;
                row["source_file"] = g.key.is_no_source() ? py::object(py::none()) : py::object(py::str(hlomem::c_unescape(g.key.source_file)));
                row["source_line"] = g.key.is_no_source() ? py::object(py::none()) : py::object(py::int_(g.key.source_line));
                row["bytes"] = g.bytes;
                row["values"] = holders(ba, g.values, held);
                groups.append(row);
            }
            color["groups"] = groups;
        } else if (by == "op_name") {
            color["tree"] = tree_dict(ba, hlomem::peak_by_op_name(h, sources), held);
        } else {
            color["tree"] = tree_dict(ba, hlomem::peak_by_stack_frame(h, sources), held);
        }
        out.append(color);
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
// Pages (the timeline's and the diff's)
// ---------------------------------------------------------------------------------------------

/// os.fspath(path) as a string.
std::string path_string(py::object const& path) { return py::str(py::module_::import("os").attr("fspath")(path)); }

bool has_suffix(std::string const& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// Writes `text` into `file`; OSError when it cannot.
void write_file(std::string const& file, std::string const& text) {
    std::ofstream out(file, std::ios::binary);
    if (out) out << text;
    out.close();
    if (!out) {
        PyErr_SetString(PyExc_OSError, ("cannot write '" + file + "'").c_str());
        throw py::error_already_set();
    }
}

/// A page inline in Jupyter: inside an iframe, its style, script and Content-Security-Policy stay
/// its own, and the notebook's stay out of it.
std::string sandboxed_iframe(char const* css_class, std::string const& page, double height) {
    return std::string("<iframe class=\"") + css_class + "\" sandbox=\"allow-scripts\" style=\"width:100%;max-width:1040px;height:" +
           hlomem::coord(height) + "px;border:1px solid #ddd\" srcdoc=\"" + hlomem::escape_markup(page) + "\"></iframe>";
}

// ---------------------------------------------------------------------------------------------
// Timeline
// ---------------------------------------------------------------------------------------------

struct timeline {
    std::shared_ptr<dump> source;  // keeps the text and the assignment alive
    hlomem::timeline tl;

    assignment_type const& ba() const { return source->assignment(); }

    std::string html() const {
        std::ostringstream out;
        hlomem::write_timeline_html(out, ba(), tl, source->sources());
        return out.str();
    }
    std::string svg() const {
        std::ostringstream out;
        hlomem::write_timeline_svg(out, ba(), tl);
        return out.str();
    }
    std::string json() const {
        std::ostringstream out;
        hlomem::print_timeline_json(out, ba(), tl);
        return out.str();
    }
    std::string summary() const {
        std::ostringstream out;
        hlomem::print_timeline_summary(out, ba(), tl);
        return out.str();
    }

    /// The page in a sandboxed iframe, tall enough for the panels and the peak tables.
    std::string repr_html() const {
        double height = 120;
        for (auto const& c : tl.colors) {
            height += hlomem::geometry_of(tl, 16).height() + 140 + 24.0 * static_cast<double>(c.at_peak.size() + 1);
        }
        return sandboxed_iframe("hlomem-timeline", html(), height);
    }
};

std::shared_ptr<timeline> make_timeline(std::shared_ptr<dump> const& d, std::optional<std::string> size_function,
                                        std::size_t max_rectangles) {
    hlomem::timeline_options options;
    if (size_function) {
        options.size_function = hlomem::size_function_named(*size_function);
        if (!options.size_function) throw py::value_error("size_function takes 'xla' or 'tpu', not '" + *size_function + "'");
    }
    options.max_rectangles = max_rectangles;
    auto const& ba = d->assignment_with_live_ranges();
    auto out = std::make_shared<timeline>();
    out->source = d;
    {
        py::gil_scoped_release unlocked;
        out->tl = hlomem::make_timeline(ba, options);
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Diff (output/diff_report.hpp, output/diff_page.hpp: what `hlomem diff` prints and draws)
// ---------------------------------------------------------------------------------------------

/// A Dump, or what hlomem.load reads into one.
std::shared_ptr<dump> as_dump(py::object source) {
    if (py::isinstance<dump>(source)) return source.cast<std::shared_ptr<dump>>();
    return load(std::move(source), std::nullopt, std::nullopt, std::nullopt, std::nullopt);
}

struct diff_result {
    std::shared_ptr<dump> a, b;  // keep the texts and the assignments alive
    hlomem::basic_source_attribution<policy> sources_a, sources_b;
    hlomem::assignment_diff d;
    std::optional<std::string> json;

    /// A side named as `hlomem diff` names it: by the file (or the name given to a text), also
    /// for an assignment derived from a module (whose own name is the module's).
    static hlomem::diff_report_side<policy> side(dump& d, hlomem::basic_source_attribution<policy> const& s) {
        return {d.loaded.path, d.assignment(), s};
    }
    hlomem::diff_report_side<policy> side_a() const { return side(*a, sources_a); }
    hlomem::diff_report_side<policy> side_b() const { return side(*b, sources_b); }

    std::string const& to_json() {
        if (!json) {
            std::ostringstream out;
            {
                py::gil_scoped_release unlocked;
                hlomem::print_diff_json(out, side_a(), side_b(), d);
            }
            json = out.str();
        }
        return *json;
    }
    std::string text() const {
        std::ostringstream out;
        hlomem::print_diff_text(out, side_a(), side_b(), d);
        return out.str();
    }
    std::string html() const {
        std::ostringstream out;
        {
            py::gil_scoped_release unlocked;
            hlomem::write_diff_html(out, side_a(), side_b(), d);
        }
        return out.str();
    }
    /// The page in a sandboxed iframe, as Timeline._repr_html_: tall enough for the verdict and
    /// the first color's two timelines; the page scrolls inside it for the rest.
    std::string repr_html() const { return sandboxed_iframe("hlomem-diff", html(), 900); }
};

std::shared_ptr<diff_result> diff(py::object a, py::object b, std::size_t top) {
    auto out = std::make_shared<diff_result>();
    out->a = as_dump(std::move(a));
    out->b = as_dump(std::move(b));
    auto const& ba = out->a->assignment();
    auto const& bb = out->b->assignment();
    out->sources_a = out->a->sources();
    out->sources_b = out->b->sources();
    hlomem::diff_options options;
    options.top = top;
    py::gil_scoped_release unlocked;
    out->d = hlomem::diff_assignments(ba, out->sources_a, bb, out->sources_b, options);
    return out;
}

py::dict pair_dict(hlomem::byte_pair const& p) {
    py::dict out;
    out["a"] = p.a;
    out["b"] = p.b;
    out["delta"] = p.delta();
    return out;
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
    if (backend) {
        options.backend = hlomem::xla_backend_named(*backend);
        if (!options.backend) throw py::value_error("backend takes 'gpu', 'cpu' or 'tpu', not '" + *backend + "'");
    }
    if (algorithm) {
        auto const a = hlomem::allocation_algorithm_named(*algorithm);
        if (!a) throw py::value_error("unknown algorithm '" + *algorithm + "'");
        options.algorithm = *a;
    }
    if (alignment) {
        if (*alignment <= 0 || (*alignment & (*alignment - 1)) != 0) throw py::value_error("alignment must be a power of two");
        options.alignment = *alignment;
    }
    if (!(time_limit > 0)) throw py::value_error("time_limit must be a positive number of seconds");
    auto const limit = std::chrono::milliseconds(static_cast<std::int64_t>(time_limit * 1000));
    options.plan.improve.time_limit = limit;
    options.plan.exact.time_limit = limit;
    options.module_text = module->text;

    // The assigner writes text of its own, which a view cannot hold: the module is read again
    // into strings it owns (hlomem::finish_assignment).
    std::optional<hlomem::predicted_assignment> predicted;
    std::optional<hlomem::parse_error_info> parse_error;
    std::size_t modules = 0;
    bool scheduled = true;
    std::optional<std::string> failure;
    {
        py::gil_scoped_release unlocked;
        auto parsed = hlomem::try_parse_hlo_modules<hlomem::default_policy>(module->text, path);
        if (!parsed) {
            parse_error = parsed.error();
        } else if ((modules = parsed->size()) == 1) {
            scheduled = parsed->front().is_scheduled();
            try {
                predicted = hlomem::predict_assignment(parsed->front(), options);
            } catch (hlomem::error const& e) {
                failure = path + ": " + e.what();
            }
        }
    }
    if (parse_error) raise_parse_error(*parse_error);
    if (failure) throw py::value_error(*failure);
    if (!predicted) throw py::value_error(path + ": " + std::to_string(modules) + " modules; give one");
    if (!scheduled) {
        auto const warn = py::module_::import("warnings").attr("warn");
        warn(path + " is not scheduled (no is_scheduled=true): its text order stands in for XLA's schedule");
    }

    // The dump, read as any dump is, from a str that keeps its text (`hlomem assign --json` reads
    // it the same way, under the module's name, without looking for siblings).
    auto out = std::make_shared<dump>();
    py::str text(predicted->text);
    Py_ssize_t size = 0;
    char const* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
    if (!data) throw py::error_already_set();
    out->owner = text;
    out->text = std::string_view(data, static_cast<std::size_t>(size));
    hlomem::load_result<loaded_type> r = [&] {
        py::gil_scoped_release unlocked;
        return hlomem::load_view<policy>(out->text, path, {});
    }();
    if (!r) raise_load_error(r.error());
    out->loaded = std::move(*r);
    py::dict how;
    how["backend"] = std::string(hlomem::to_string(predicted->backend));
    how["backend_source"] = predicted->backend_source;
    how["backend_reason"] = predicted->backend_reason;
    how["alignment"] = predicted->alignment;
    how["algorithm"] = std::string(hlomem::to_string(options.algorithm));
    how["module"] = path;
    out->prediction = how;
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

}  // namespace hlomem_python

PYBIND11_MODULE(_hlomem, m) {
    using namespace hlomem_python;
    m.doc() = "hlomem: the memory of XLA programs (the C++ extension; import hlomem).";
    m.attr("__version__") = HLOMEM_VERSION_STRING;

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

    py::class_<dump, std::shared_ptr<dump>>(m, "Dump",
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
        .def("to_json", [](dump& d) { return d.report(); },
            "The report as `hlomem report --json FILE` prints it, byte for byte (a str).")
        .def("to_dict", [](dump& d) { return json_loads(d.report()); },
            "The report as a dict: exactly what `hlomem report --json FILE` prints (a list of dicts\n"
            "for a file of several HLO modules).")
        .def("report", [](dump& d, std::size_t top) {
                if (!hlomem::reports(d.loaded.kind())) d.report();  // raises with the reason
                std::ostringstream out;
                hlomem::report_loaded(d.loaded, false, top, out);
                return out.str();
            }, py::arg("top") = 20,
            "The report as `hlomem report FILE` prints it (text); `top` values listed at each peak.")
        .def_property_readonly("assignment_dict", [](dump& d) { return json_loads(d.assignment_report()); },
            "The buffer-assignment report (`hlomem report --json` of a dump) of the dump, or of the\n"
            "assignment derived from the module: what allocations, values, colors and peak come from.")
        .def_property_readonly("total_bytes", [](dump& d) { return d.assignment().total_bytes(); },
            "Bytes of all allocations (the report's total_bytes).")
        .def_property_readonly("allocations", [](dump& d) -> py::object { return json_loads(d.assignment_report())["allocations"]; },
            "Every allocation as the report's 'allocations' lists it: index, size, color, kind, ...")
        .def_property_readonly("values", [](dump& d) -> py::object { return json_loads(d.assignment_report())["values"]; },
            "Every logical value as the report's 'values' lists it: id, name, index, allocation, offset,\n"
            "size, shape, live_range.")
        .def_property_readonly("colors", [](dump& d) -> py::object { return json_loads(d.assignment_report())["colors"]; },
            "Per color (memory space) as the report's 'colors' lists it: allocated bytes, peak live\n"
            "bytes, its time and instruction, the lower bound, padding.")
        .def_property_readonly("warnings", [](dump& d) -> py::object { return json_loads(d.assignment_report())["warnings"]; },
            "Where the dump contradicts itself (the report's 'warnings').")
        .def_property_readonly("peak", [](dump& d) -> py::object {
                auto const& ba = d.assignment();
                if (!ba.live_range || ba.live_range->not_available) return py::none();
                py::dict report = json_loads(d.assignment_report());
                py::dict lr = report["live_range"].cast<py::dict>();
                if (!lr.contains("peak_time")) return py::none();
                py::dict out;
                out["time"] = lr["peak_time"];
                out["instruction"] = std::string(ba.live_range->instruction_at(lr["peak_time"].cast<std::int64_t>()));
                out["bytes"] = lr["peak_bytes"];
                out["listed_bytes"] = lr["peak_listed_bytes"];
                out["rule"] = lr["peak_rule"];
                out["stated_time"] = lr["stated_peak_time"];
                out["matches_stated"] = lr["peak_matches_stated"];
                out["values"] = lr["peak_values"];
                return py::object(std::move(out));
            },
            "XLA's peak (HloLiveRange's), recomputed: time, instruction, bytes (XLA's running sum),\n"
            "listed_bytes, rule, stated_time and matches_stated (against the peak the dump states),\n"
            "values (id, name, index, bytes). The report's live_range.peak_* keys; None without live ranges.")
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
                for (auto const& f : found) out.append(diagnostic_dict(ba, f, &sources));
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
        .def_property_readonly("text", [](dump const& d) -> py::object {
                if (py::isinstance<py::str>(d.owner)) return d.owner;
                PyObject* text = PyUnicode_DecodeUTF8(d.text.data(), static_cast<Py_ssize_t>(d.text.size()), "replace");
                if (!text) throw py::error_already_set();
                return py::reinterpret_steal<py::object>(text);
            },
            "The text it was read from (a str; for hlomem.assign, the dump `hlomem assign` prints).")
        .def_readonly("prediction", &dump::prediction,
            "Set by hlomem.assign: how the assignment was predicted, a dict: backend ('gpu', 'cpu' or\n"
            "'tpu'), backend_source ('given', 'inferred' from the module, or 'default'), backend_reason,\n"
            "alignment (of temp buffers), algorithm (of the temp heaps) and module (its name); None otherwise.")
        .def_readwrite("memory_analysis", &dump::memory_analysis,
            "Set by hlomem.from_jax: jax's compiled.memory_analysis() figures next to hlomem's, a dict\n"
            "{figure: {'jax': bytes, 'hlomem': bytes or None}}; None otherwise.")
        .def("__repr__", [](dump const& d) {
            return "<hlomem.Dump " + std::string(hlomem::to_string(d.loaded.kind())) + " '" + d.loaded.path + "'>";
        });

    py::class_<timeline, std::shared_ptr<timeline>>(m, "Timeline",
        "Memory over program order, one panel per color: the live bytes with the peak marked, and every\n"
        "buffer as a rectangle over its live range at its offset (`hlomem timeline`).")
        .def("html", &timeline::html, "The self-contained HTML page (`hlomem timeline -o OUT.html`).")
        .def("svg", &timeline::svg, "The static SVG picture (`hlomem timeline -o OUT.svg`).")
        .def("to_json", &timeline::json, "The summary as `hlomem timeline --json` prints it (a str).")
        .def("to_dict", [](timeline const& t) { return json_loads(t.json()); },
            "The summary as a dict: exactly what `hlomem timeline --json` prints.")
        .def_property_readonly("colors", [](timeline const& t) -> py::object { return json_loads(t.json())["colors"]; },
            "Per color: its peak bytes, time and instruction, what was drawn (to_dict()['colors']).")
        .def("save", [](timeline const& t, py::object path) {
                std::string const file = path_string(path);
                bool const svg = has_suffix(file, ".svg");
                if (!svg && !has_suffix(file, ".html") && !has_suffix(file, ".htm")) {
                    throw py::value_error("cannot tell the format of '" + file + "': name it .html or .svg");
                }
                write_file(file, svg ? t.svg() : t.html());
            }, py::arg("path"),
            "Writes the page (path ending .html or .htm) or the SVG picture (.svg), as `hlomem timeline -o`.")
        .def("_repr_html_", &timeline::repr_html,
            "The page inline in Jupyter, in a sandboxed iframe (its script runs there, apart from the notebook).")
        .def("__repr__", &timeline::summary);

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
        .def_property_readonly("verdict", [](diff_result const& d) { return d.d.verdict; },
            "What explains most of the change, in sentences, the most telling first (the report's first lines).")
        .def_property_readonly("total_bytes", [](diff_result const& d) { return pair_dict(d.d.total_bytes); },
            "'Total bytes used' of A and B and its change: {'a': ..., 'b': ..., 'delta': b - a}.")
        .def_property_readonly("colors", [](diff_result& d) -> py::object { return json_loads(d.to_json())["colors"]; },
            "Per color (memory space), A's and B's allocated bytes, peak live bytes and its moment, bytes\n"
            "by allocation kind, the peak by source line, padding and the temp arena against its bound\n"
            "(to_dict()['colors']).")
        .def_property_readonly("matched_values", [](diff_result const& d) { return d.d.matching.pairs.size(); },
            "How many values of A were matched with one of B (the list: to_dict()['matched_values']).")
        .def_property_readonly("only_in_a", [](diff_result const& d) { return d.d.matching.only_in_a.size(); },
            "How many values of A match none of B (the list: to_dict()['only_in_a']).")
        .def_property_readonly("only_in_b", [](diff_result const& d) { return d.d.matching.only_in_b.size(); },
            "How many values of B match none of A (the list: to_dict()['only_in_b']).")
        .def_property_readonly("changes", [](diff_result const& d) { return d.d.changes.size(); },
            "How many matched values changed size, shape or live range (the list: to_dict()['changes']).")
        .def("html", &diff_result::html, "The self-contained HTML page (`hlomem diff -o OUT.html A B`).")
        .def("save", [](diff_result const& d, py::object path) {
                std::string const file = path_string(path);
                if (!has_suffix(file, ".html") && !has_suffix(file, ".htm")) {
                    throw py::value_error("the diff is a page: name it .html, not '" + file + "'");
                }
                write_file(file, d.html());
            }, py::arg("path"),
            "Writes the page (a path ending .html or .htm), as `hlomem diff -o`.")
        .def("_repr_html_", &diff_result::repr_html,
            "The page inline in Jupyter, in a sandboxed iframe (its script runs there, apart from the notebook).")
        .def("__repr__", [](diff_result const& d) {
            std::string out = "<hlomem.Diff A '" + d.a->loaded.path + "' B '" + d.b->loaded.path + "'";
            for (auto const& line : d.d.verdict) out += "\n  " + line;
            return out + ">";
        });

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

    m.def("shape", &parse_shape, py::arg("text"),
        "Reads an XLA shape, e.g. hlomem.shape('bf16[4096,3584]{1,0:T(8,128)(2,1)}'); ParseError when it does not read.");
    m.def("diff", &diff, py::arg("a"), py::arg("b"), py::kw_only(), py::arg("top") = 10,
        "Compares two compilations of one program (`hlomem diff A B`): a (the baseline) and b are\n"
        "Dumps of buffer-assignment dumps or of scheduled HLO modules (whose assignment is derived), or\n"
        "anything hlomem.load reads into one. top: how many values each list of largest changes holds.\n"
        "Returns a Diff; ValueError when a side holds no buffer assignment.");
    m.def("assign", &assign, py::arg("module"), py::arg("backend") = py::none(), py::arg("algorithm") = py::none(),
        py::arg("alignment") = py::none(), py::kw_only(), py::arg("time_limit") = 10.0,
        "XLA's buffer assignment predicted from a scheduled HLO module alone (`hlomem assign`): a Dump\n"
        "of the buffer-assignment dump XLA would write, read as any dump is (its text: Dump.text; how it\n"
        "was predicted: Dump.prediction).\n"
        "\n"
        "module: a Dump of an HLO module, or anything hlomem.load reads into one (compiled.as_text()).\n"
        "backend: 'gpu', 'cpu' or 'tpu', whose BufferAssigner options to follow; None: inferred from\n"
        "        the module (tiled layouts are TPU's, GPU/CPU library calls and backend configs), else gpu.\n"
        "algorithm: place the temp heaps with another of hlomem's allocators instead of XLA's best-fit\n"
        "        (best-fit-spatial, best-fit-temporal, greedy-by-size, first-fit, improve, exact).\n"
        "alignment: of temp buffers, a power of two instead of the backend's (128, 64, 512 bytes).\n"
        "time_limit: seconds per heap for improve and exact.\n"
        "Warns when the module is not scheduled (its text order then stands in for the schedule).");
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
