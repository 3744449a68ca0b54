// python/src/state.hpp: what the Python objects Dump, Timeline and Diff hold: a loaded text and
// what has been computed from it, made on first use, and the loader and errors behind them.
#ifndef HLOMEM_PYTHON_STATE_HPP
#define HLOMEM_PYTHON_STATE_HPP

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <ios>
#include <iterator>
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
inline PyObject* parse_error_type = nullptr;
inline PyObject* shape_error_type = nullptr;

/// Raises hlomem.ParseError for `info`: the message is the C++ report (file:line:column, the
/// line, a caret); the attributes give each part.
[[noreturn]] inline void raise_parse_error(hlomem::parse_error_info const& info) {
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
[[noreturn]] inline void raise_load_error(hlomem::load_error const& e) {
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
    /// Set by hlomem.assign: the module's Dump, whose text `loaded`'s model views. Declared
    /// before `loaded`, so destroyed after it.
    std::shared_ptr<void const> model_owner;
    loaded_type loaded;
    /// A file of one module: the assignment derived from it, made on first use.
    std::optional<hlomem::basic_derived_assignment<policy>> derived;
    /// The text the models view: the str's or bytes' buffer, or the file's text in loaded.texts.
    std::string_view text;
    /// Set by hlomem.from_jax: jax's compiled.memory_analysis() figures next to hlomem's.
    py::object jax_memory_analysis = py::none();
    /// Set by hlomem.assign: how the assignment was predicted.
    py::object prediction = py::none();
    /// Where the program's source files are (Dump.source_roots, `--source-root`), and the text of
    /// the lines read from them so far (load/source_text.hpp).
    hlomem::source_text source_text{};
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

    /// The module that belongs with the assignment, as loaded.assignment_module() gives it for
    /// the tool (whose loader derives at once): also the module an assignment is derived from here.
    hlomem::basic_hlo_module<policy> const* assignment_module() {
        if (auto const* m = loaded.assignment_module()) return m;
        auto const* modules = std::get_if<std::vector<hlomem::basic_hlo_module<policy>>>(&loaded.model);
        if (!modules || modules->size() != 1) return nullptr;
        assignment();
        return &modules->front();
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

    using facts_type = hlomem::buffer_assignment_facts<policy>;

    /// What `hlomem report --json` writes about the assignment (output/assignment_report.hpp),
    /// computed once: to_json() prints it, the typed objects (Dump.values, .colors, ...) read it.
    facts_type const& facts() {
        if (!facts_) {
            auto const& ba = assignment();
            py::gil_scoped_release unlocked;
            if (derived) {
                facts_.emplace(hlomem::facts_of(ba, sources()));
            } else {
                facts_.emplace(dump_facts());
            }
        }
        return *facts_;
    }

    /// XLA's text of shape `id` as the report writes it, made once per shape; None for no_shape.
    py::object shape_text(hlomem::shape_id id) {
        if (id == hlomem::no_shape) return py::none();
        auto const& ba = assignment();
        if (shape_texts_.empty()) shape_texts_.resize(ba.shapes.size());
        auto& text = shape_texts_[id];
        if (!text) text = py::str(hlomem::to_string(ba.shapes[id]));
        return text;
    }

    /// `hlomem report --json`.
    std::string const& report() {
        if (!report_json) {
            if (!hlomem::reports(loaded.kind())) {
                throw py::value_error(loaded.path + ": `hlomem report` reads HLO modules, buffer-assignment dumps, "
                                                    "live-range texts and memory-usage reports; this text is of kind '" + kind() + "'");
            }
            if (std::holds_alternative<assignment_type>(loaded.model)) return assignment_report();
            std::ostringstream out;
            {
                py::gil_scoped_release unlocked;
                hlomem::print_report_json(out, loaded);
            }
            report_json = out.str();
        }
        return *report_json;
    }
    /// `hlomem report --json --strip-root ROOT...`: made afresh when roots are named, the report
    /// above otherwise.
    std::string report(std::vector<std::string> const& roots) {
        if (roots.empty()) return report();
        report();  // raises for a kind `report` does not read
        std::ostringstream out;
        {
            py::gil_scoped_release unlocked;
            hlomem::print_report_json(out, loaded, roots);
        }
        return out.str();
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
            auto const& f = facts();
            std::ostringstream out;
            {
                py::gil_scoped_release unlocked;
                hlomem::print_buffer_assignment_json(out, f);
            }
            assignment_json = out.str();
        }
        return *assignment_json;
    }

    /// What compiled.memory_analysis() would report (memory/memory_analysis.hpp): a dump's, from
    /// its assignment; a file of one module's, on the assignment hlomem predicts for it; nullopt
    /// for other kinds. Made once.
    std::optional<hlomem::memory_analysis> const& memory_analysis() {
        if (!memory_done_) {
            if (std::holds_alternative<assignment_type>(loaded.model)) {
                memory_ = facts().memory;
            } else if (auto const* modules = std::get_if<std::vector<hlomem::basic_hlo_module<policy>>>(&loaded.model);
                       modules && modules->size() == 1) {
                py::gil_scoped_release unlocked;
                memory_ = hlomem::predicted_memory_analysis(modules->front());
            }
            memory_done_ = true;
        }
        return memory_;
    }

private:
    std::optional<facts_type> facts_;
    std::optional<hlomem::memory_analysis> memory_;
    bool memory_done_ = false;
    std::vector<py::object> shape_texts_;

    /// The facts of a dump as `hlomem report --json` gathers them (output/report.hpp, dump_facts:
    /// every value's metadata).
    facts_type dump_facts() const { return hlomem::dump_facts(loaded, /*every_value=*/true); }
};

inline py::object json_loads(std::string const& text) { return py::module_::import("json").attr("loads")(text); }

/// Reads `source` (a path, or text as str or bytes) through the loader.
inline std::shared_ptr<dump> load(py::object source, std::optional<std::string> name, std::optional<std::string> live_range,
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
            return hlomem::load<policy>(path, options);
        }();
        if (!r) raise_load_error(r.error());
        out->loaded = std::move(*r);
        out->text = *out->loaded.texts.front();  // load() keeps the file's text first
        if (name) out->loaded.path = *name;
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Pages (the timeline's and the diff's)
// ---------------------------------------------------------------------------------------------

/// os.fspath(path) as a string.
inline std::string path_string(py::object const& path) { return py::str(py::module_::import("os").attr("fspath")(path)); }

inline bool has_suffix(std::string const& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// Writes `text` into `file`; OSError when it cannot.
inline void write_file(std::string const& file, std::string const& text) {
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
inline std::string sandboxed_iframe(char const* css_class, std::string const& page, double height) {
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
        hlomem::write_timeline_html(out, ba(), tl, source->sources(), &source->source_text);
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
        hlomem::print_timeline_text(out, ba(), tl);
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

inline std::shared_ptr<timeline> make_timeline(std::shared_ptr<dump> const& d, std::optional<std::string> size_function,
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
// Diff (diff/report.hpp, diff/page.hpp: what `hlomem diff` prints and draws)
// ---------------------------------------------------------------------------------------------

/// A Dump, or what hlomem.load reads into one.
inline std::shared_ptr<dump> as_dump(py::object source) {
    if (py::isinstance<dump>(source)) return source.cast<std::shared_ptr<dump>>();
    return load(std::move(source), std::nullopt, std::nullopt, std::nullopt, std::nullopt);
}

/// hlomem.Snapshot: a compilation's memory as `hlomem snapshot` writes it (diff/snapshot.hpp).
struct snapshot_object {
    hlomem::memory_snapshot s;
    std::string name;
    std::string to_json() const {
        std::ostringstream out;
        hlomem::write_snapshot_json(out, s);
        return out.str();
    }
};

/// The snapshot `source` names, when it is one: a Snapshot, a snapshot's JSON text, or the path
/// (a str of one line, or os.PathLike) of a file that holds one; nullopt for anything else.
inline std::optional<snapshot_object> as_snapshot(py::object const& source) {
    if (py::isinstance<snapshot_object>(source)) return source.cast<snapshot_object>();
    bool const is_path = py::isinstance(source, py::module_::import("os").attr("PathLike"));
    if (!is_path && !py::isinstance<py::str>(source)) return std::nullopt;
    std::string text = is_path ? std::string() : source.cast<std::string>();
    std::string name = "<snapshot>";
    if (is_path || (!hlomem::looks_like_snapshot(text) && text.find('\n') == std::string::npos)) {
        name = py::str(py::module_::import("os").attr("fspath")(source)).cast<std::string>();
        std::ifstream in(name, std::ios::binary);
        if (!in) return std::nullopt;  // hlomem.load says why
        // A dump may be gigabytes: its first characters tell it from a snapshot.
        char head[256];
        in.read(head, sizeof head);
        if (!hlomem::looks_like_snapshot(std::string_view(head, static_cast<std::size_t>(in.gcount())))) return std::nullopt;
        in.clear();
        in.seekg(0);
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    if (!hlomem::looks_like_snapshot(text)) return std::nullopt;
    try {
        return snapshot_object{hlomem::read_snapshot(text), name};
    } catch (hlomem::snapshot_error const& e) {
        throw py::value_error(name + ": not a snapshot: " + e.what());
    }
}

/// hlomem.Diff: two sides compared by the library (diff_sides, diff/side.hpp), written by its
/// writers (output/sides_diff_report.hpp), so that every format is the tool's.
struct diff_result {
    /// The Dumps compared (Diff.a, Diff.b); None when a side is a snapshot, and the diff compares
    /// snapshots.
    std::shared_ptr<dump> a, b;
    hlomem::basic_diff_side<policy> side_a, side_b;
    hlomem::basic_sides_diff<policy> result;  ///< views side_a and side_b: the object never moves (held by shared_ptr)
    std::optional<std::string> json;

    hlomem::assignment_diff const& diff() const { return result.d(); }

    /// The gate (`hlomem diff --fail-above ... --measure ... --fail-on-unused-donation`): a list
    /// of failures, empty when it passes.
    hlomem::gate_result gate(std::optional<std::string> const& fail_above, std::string const& measure, bool fail_on_unused) const {
        std::optional<hlomem::diff_threshold> threshold;
        if (fail_above && !(threshold = hlomem::diff_threshold_named(*fail_above))) {
            throw py::value_error("fail_above needs bytes ('1048576') or a percentage ('5%'), not '" + *fail_above + "'");
        }
        auto const m = hlomem::gate_measure_named(measure);
        if (!m) throw py::value_error("measure is 'peak' or 'total', not '" + measure + "'");
        return hlomem::diff_gate(result, threshold, *m, fail_on_unused);
    }
    std::string markdown(std::size_t rows, std::optional<std::string> const& fail_above, std::string const& measure, bool fail_on_unused) const {
        std::ostringstream out;
        hlomem::print_diff_markdown(out, result, rows, gate(fail_above, measure, fail_on_unused));
        return out.str();
    }
    std::string const& to_json() {
        if (!json) {
            std::ostringstream out;
            {
                py::gil_scoped_release unlocked;
                hlomem::print_diff_json(out, result);
            }
            json = out.str();
        }
        return *json;
    }
    std::string text() const {
        std::ostringstream out;
        hlomem::print_diff_text(out, result);
        return out.str();
    }
    std::string html() const {
        std::ostringstream out;
        {
            py::gil_scoped_release unlocked;
            hlomem::write_diff_html(out, result);
        }
        return out.str();
    }
    /// The page in a sandboxed iframe, as Timeline._repr_html_: tall enough for the verdict and
    /// the first color's two timelines; the page scrolls inside it for the rest.
    std::string repr_html() const { return sandboxed_iframe("hlomem-diff", html(), 900); }
};

/// The side `source` names, as `hlomem diff` reads a file (load/diff_side.hpp): a snapshot (a
/// Snapshot, its JSON text, or a file that holds one), else a dump or module (a Dump, or what
/// hlomem.load reads), whose Dump is returned in `held`.
inline hlomem::basic_diff_side<policy> diff_side(py::object source, std::vector<std::string> const& strip_roots,
                                                  std::shared_ptr<dump>& held) {
    if (auto s = as_snapshot(source)) {
        hlomem::basic_diff_side<policy> out;
        out.name = s->name;
        out.snapshot = std::move(s->s);
        return out;
    }
    held = as_dump(std::move(source));
    auto const& ba = held->assignment();
    auto const* m = held->assignment_module();
    py::gil_scoped_release unlocked;
    return hlomem::diff_side_of<policy>(held->loaded.path, held, ba, m, strip_roots);
}

/// hlomem.snapshot: `source` read (as hlomem.load reads it) and snapshotted, or a snapshot as it is.
inline snapshot_object snapshot(py::object source, std::size_t top, std::vector<std::string> const& strip_roots) {
    std::shared_ptr<dump> held;
    auto const side = diff_side(std::move(source), strip_roots, held);
    return {side.to_snapshot(top), side.name};
}

/// hlomem.diff: `a` and `b` read as sides (diff_side) and compared (diff_sides), `top` values in
/// each list.
inline std::shared_ptr<diff_result> diff(py::object a, py::object b, std::size_t top, std::vector<std::string> const& strip_roots) {
    auto out = std::make_shared<diff_result>();
    out->side_a = diff_side(std::move(a), strip_roots, out->a);
    out->side_b = diff_side(std::move(b), strip_roots, out->b);
    hlomem::diff_options options;
    options.top = top;
    {
        py::gil_scoped_release unlocked;
        out->result = hlomem::diff_sides(out->side_a, out->side_b, options);
    }
    if (!out->result.values_known()) out->a.reset(), out->b.reset();  // a diff of snapshots holds no Dumps
    return out;
}

inline py::dict pair_dict(hlomem::byte_pair const& p) {
    py::dict out;
    out["a"] = p.a;
    out["b"] = p.b;
    out["delta"] = p.delta();
    return out;
}

}  // namespace hlomem_python

#endif  // HLOMEM_PYTHON_STATE_HPP
