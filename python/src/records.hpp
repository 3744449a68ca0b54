// python/src/records.hpp: the typed objects of the Python module: Dump.values[i] is a
// LogicalValue, Dump.allocations[i] an Allocation, Dump.colors[k] a Color, ... each an object with
// one attribute per key that `hlomem report --json` (`timeline --json`, `diff --json`) writes for
// it, read from the C++ model and the facts the JSON writer prints (output/assignment_report.hpp,
// facts_with), not from JSON text; to_dict() gives exactly the dict json.loads gives for that piece
// of the JSON (same keys, same order, same values).
//
// Each type is a table of fields (name, the attribute, its value in to_dict() where it differs, and
// whether to_dict() has the key): bind_record makes the attributes, to_dict() and __repr__ from it,
// so the attributes and the dict cannot drift apart.
#ifndef HLOMEM_PYTHON_RECORDS_HPP
#define HLOMEM_PYTHON_RECORDS_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "state.hpp"

namespace hlomem_python {

// ---------------------------------------------------------------------------------------------
// Fields
// ---------------------------------------------------------------------------------------------

template <class T>
struct field {
    char const* name;
    py::object (*get)(T const&);              ///< the attribute
    py::object (*plain)(T const&) = nullptr;  ///< its value in to_dict() when not the attribute (typed objects, ...)
    bool (*written)(T const&) = nullptr;      ///< whether to_dict() has the key (null: always)
};

/// A string of the model (a view of the text) as a str.
inline py::str text(std::string_view s) { return py::str(s.data(), s.size()); }

/// A string of metadata as the report writes it (output/sources.hpp, metadata_member): the text
/// read back from XLA's C escapes, None when absent.
inline py::object metadata(std::string_view s) {
    if (s.empty()) return py::none();
    if (s.find('\\') == std::string_view::npos) return text(s);
    return py::str(hlomem::c_unescape(s));
}

template <class T>
py::object optional_object(std::optional<T> const& v) {
    return v ? py::object(py::cast(*v)) : py::object(py::none());
}

/// The attribute of a field that is the member M of T, as Python has it (an int, a str, None for
/// an empty optional).
template <class T, auto M>
py::object member(T const& t) {
    if constexpr (std::is_base_of_v<py::handle, std::decay_t<decltype(t.*M)>>) {
        return t.*M;  // a Python object already
    } else {
        return py::cast(t.*M);
    }
}

/// Value ids of the values at `indices` of `ba`, as the JSON lists them.
inline py::list value_ids(assignment_type const& ba, std::vector<std::size_t> const& indices) {
    py::list out;
    for (std::size_t i : indices) out.append(ba.values[i].id);
    return out;
}

/// [x.to_dict() for x in objects].
inline py::list to_dicts(py::handle objects) {
    py::list out;
    for (auto item : objects) out.append(item.attr("to_dict")());
    return out;
}

/// x.to_dict(), or None for None.
inline py::object to_dict_or_none(py::object const& x) { return x.is_none() ? x : py::object(x.attr("to_dict")()); }

/// The class `name` with an attribute per field, to_dict() and a __repr__ that shows the fields
/// named in `shown` (names separated by spaces).
template <class T, std::size_t N>
py::class_<T> bind_record(py::module_& m, char const* name, char const* doc, std::array<field<T>, N> const& fields,
                          std::string const& shown) {
    py::class_<T> cls(m, name, doc);
    for (auto const& f : fields) cls.def_property_readonly(f.name, [get = f.get](T const& t) { return get(t); });
    cls.def("to_dict", [fields](T const& t) {
            py::dict out;
            for (auto const& f : fields) {
                if (f.written && !f.written(t)) continue;
                out[f.name] = f.plain ? f.plain(t) : f.get(t);
            }
            return out;
        }, "Exactly the dict json.loads gives for this object in the tool's JSON (same keys, same order).");
    cls.def("__repr__", [fields, shown = " " + shown + " ", type = std::string(name)](T const& t) {
        std::string out = "<hlomem." + type;
        for (auto const& f : fields) {
            if (shown.find(" " + std::string(f.name) + " ") == std::string::npos) continue;
            out += std::string(" ") + f.name + "=" + std::string(py::repr(f.get(t)));
        }
        return out + ">";
    });
    return cls;
}

/// r["key"] on a record that was a dict before 0.11 (Dump.breakdown, check, prediction): the
/// attribute, so that code written for the dict still runs, for one release.
template <class T, std::size_t N>
py::class_<T> with_dict_access(py::class_<T> cls, std::array<field<T>, N> const& fields) {
    cls.def("__getitem__", [fields](T const& t, std::string const& key) {
            for (auto const& f : fields) {
                if (key == f.name) return f.get(t);
            }
            throw py::key_error(key);
        }, py::arg("key"), "The attribute `key`, as the dict this object was before 0.11 gave it (kept for one release).");
    return cls;
}

// ---------------------------------------------------------------------------------------------
// Dump: LogicalValue, Allocation, Color (with SourceLine and HoldingNode), Inconsistency, Peak
// ---------------------------------------------------------------------------------------------

/// A Python stack as `report --json` writes it (output/sources.hpp, write_python_stack): a list of
/// {file_name, function_name, line, column}, outermost frame first; None when empty.
inline py::object stack_list(std::vector<hlomem::python_frame> const& stack) {
    if (stack.empty()) return py::none();
    py::list out;
    for (auto const& f : stack) {
        py::dict frame;
        frame["file_name"] = metadata(f.file_name);
        frame["function_name"] = metadata(f.function_name);
        frame["line"] = f.line;
        frame["column"] = f.column;
        out.append(frame);
    }
    return out;
}

/// A value's `origin` as `report --json` writes it (output/sources.hpp, write_value_origin), with
/// the Python stack of its source (`stack`, basic_source_attribution::stack_of).
inline py::dict origin_dict(assignment_type const& ba, hlomem::value_origin const& o,
                            std::vector<hlomem::python_frame> const& stack) {
    py::dict out;
    auto const& s = o.source;
    auto optional_int = [](bool has, std::int64_t v) { return has ? py::object(py::int_(v)) : py::object(py::none()); };
    out["kind"] = std::string(hlomem::to_string(o.kind));
    out["how"] = o.how == hlomem::inheritance::none ? py::object(py::none()) : py::object(py::str(std::string(hlomem::to_string(o.how))));
    out["op_type"] = metadata(s.op_type);
    out["op_name"] = metadata(s.op_name);
    out["source_file"] = metadata(s.source_file);
    out["source_line"] = optional_int(s.has_source_line(), s.source_line);
    out["argument"] = optional_int(o.is_argument(), o.argument);
    out["argument_name"] = metadata(o.is_argument() ? o.argument_name : std::string_view());
    auto const* shape = o.argument_value < ba.values.size() ? ba.shape_of(ba.values[o.argument_value]) : nullptr;
    out["argument_shape"] = o.is_argument() && shape ? py::object(py::str(hlomem::to_string(*shape))) : py::object(py::none());
    out["donated"] = o.is_argument() ? py::object(py::bool_(o.donated)) : py::object(py::none());
    out["output"] = optional_int(o.output >= 0, o.output);
    out["through"] = o.through.empty() ? py::object(py::none()) : py::object(py::str(o.through));
    out["stack"] = stack_list(stack);
    return out;
}

/// A logical value of a dump (output/assignment_report.hpp, write_value_members).
struct value_ref {
    std::shared_ptr<dump> d;
    std::size_t i;
    assignment_type const& ba() const { return d->assignment(); }
    hlomem::basic_logical_value<policy> const& v() const { return ba().values[i]; }
    hlomem::value_source const& source() const { return d->facts().sources[i]; }
    hlomem::value_origin const& origin() const { return d->facts().sources.origin_of(i); }
};

inline std::array<field<value_ref>, 16> const& value_fields() {
    using R = value_ref const&;
    static std::array<field<value_ref>, 16> const fields{{
        {"id", [](R r) -> py::object { return py::int_(r.v().id); }},
        {"name", [](R r) -> py::object { return text(r.v().name); }},
        {"index", [](R r) -> py::object { return py::str(r.v().index.empty() ? std::string("{}") : hlomem::to_string(r.v().index)); }},
        {"phi", [](R r) -> py::object { return py::bool_(r.v().is_phi); }},
        {"color", [](R r) { return optional_object(r.v().color); }},
        {"allocation", [](R r) -> py::object {
             auto const a = r.v().allocation;
             return a == hlomem::npos ? py::object(py::none()) : py::object(py::int_(r.ba().allocations[a].index));
         }},
        {"offset", [](R r) -> py::object { return py::int_(r.v().offset); }},
        {"size", [](R r) -> py::object { return py::int_(r.v().size); }},
        {"shape", [](R r) -> py::object { return r.d->shape_text(r.v().shape); }},
        {"instruction_shape", [](R r) -> py::object { return r.d->shape_text(r.v().instruction_shape); }},
        {"live_range", [](R r) -> py::object {
             auto const& lr = r.v().live_range;
             if (!lr) return py::none();
             py::list out;
             out.append(lr->start);
             out.append(lr->end);
             return std::move(out);
         }},
        {"op_type", [](R r) -> py::object { return metadata(r.source().op_type); }},
        {"op_name", [](R r) -> py::object { return metadata(r.source().op_name); }},
        {"source_file", [](R r) -> py::object { return metadata(r.source().source_file); }},
        {"source_line", [](R r) -> py::object {
             auto const& s = r.source();
             return s.has_source_line() ? py::object(py::int_(s.source_line)) : py::object(py::none());
         }},
        {"origin", [](R r) -> py::object { return origin_dict(r.ba(), r.origin(), r.d->facts().sources.stack_of(r.i)); }},
    }};
    return fields;
}

/// An allocation of a dump, its values the dump's LogicalValue objects.
struct allocation_ref {
    std::shared_ptr<dump> d;
    std::size_t i;
    py::list values;
    hlomem::basic_allocation<policy> const& a() const { return d->assignment().allocations[i]; }
};

inline std::array<field<allocation_ref>, 13> const& allocation_fields() {
    using R = allocation_ref const&;
    static std::array<field<allocation_ref>, 13> const fields{{
        {"index", [](R r) -> py::object { return py::int_(r.a().index); }},
        {"size", [](R r) -> py::object { return py::int_(r.a().size); }},
        {"color", [](R r) -> py::object { return py::int_(r.a().color); }},
        {"kind", [](R r) -> py::object { return py::str(std::string(hlomem::to_string(r.a().kind()))); }},
        {"parameter", [](R r) -> py::object { return optional_object(r.a().parameter_number); }},
        {"parameter_shape_index",
         [](R r) -> py::object {
             return r.a().parameter_number ? py::object(py::str(hlomem::to_string(r.a().parameter_shape_index))) : py::object(py::none());
         },
         nullptr, [](R r) { return r.a().parameter_number.has_value(); }},
        {"parameter_shape",
         [](R r) -> py::object { return r.a().parameter_number ? r.d->shape_text(r.a().parameter_shape) : py::object(py::none()); },
         nullptr, [](R r) { return r.a().parameter_number.has_value(); }},
        {"output_shape", [](R r) -> py::object { return r.a().output_shape ? r.d->shape_text(*r.a().output_shape) : py::object(py::none()); }},
        {"constant", [](R r) -> py::object { return py::bool_(r.a().is_constant); }},
        {"thread_local", [](R r) -> py::object { return py::bool_(r.a().is_thread_local); }},
        {"maybe_live_out", [](R r) -> py::object { return py::bool_(r.a().maybe_live_out); }},
        {"preallocated_temp", [](R r) -> py::object { return py::bool_(r.a().is_preallocated_temp); }},
        {"values", [](R r) -> py::object { return py::list(r.values); },
         [](R r) -> py::object { return value_ids(r.d->assignment(), r.a().values); }},
    }};
    return fields;
}

/// A group of a color's peak by source line (output/sources.hpp, write_peak_breakdowns).
struct source_line_group {
    py::object source_file, source_line, origin, argument;
    std::int64_t bytes;
    py::list values;
    py::object text;  ///< the line's text where its file was found (Dump.source_roots), else None
};

inline std::array<field<source_line_group>, 6> const& source_line_fields() {
    using R = source_line_group const&;
    static std::array<field<source_line_group>, 6> const fields{{
        {"source_file", member<source_line_group, &source_line_group::source_file>},
        {"source_line", member<source_line_group, &source_line_group::source_line>},
        {"origin", member<source_line_group, &source_line_group::origin>},
        {"argument", member<source_line_group, &source_line_group::argument>},
        {"bytes", member<source_line_group, &source_line_group::bytes>},
        {"values", [](R g) -> py::object { return py::list(g.values); }},
    }};
    return fields;
}

/// A node of a color's peak by op_name or by stack frame (output/sources.hpp, write_holding_tree).
struct holding_node {
    std::string name;
    std::int64_t bytes;
    py::list values;
    py::list children;

    holding_node(hlomem::holding_tree const& t, assignment_type const& ba)
        : name(hlomem::c_unescape(t.name)), bytes(t.bytes), values(value_ids(ba, t.values)) {
        for (auto const& c : t.children) children.append(holding_node(c, ba));
    }
};

inline std::array<field<holding_node>, 4> const& holding_node_fields() {
    using R = holding_node const&;
    static std::array<field<holding_node>, 4> const fields{{
        {"name", member<holding_node, &holding_node::name>},
        {"bytes", member<holding_node, &holding_node::bytes>},
        {"values", [](R n) -> py::object { return py::list(n.values); }},
        {"children", [](R n) -> py::object { return py::list(n.children); }, [](R n) -> py::object { return to_dicts(n.children); }},
    }};
    return fields;
}

/// A color (memory space) of a dump, as the report's "colors" lists it.
struct color_ref {
    std::shared_ptr<dump> d;
    std::int64_t color;
    std::int64_t allocated_bytes;

    /// The row of this color in one of the facts' lists by color (colors, bounds, padding); null
    /// when it has none.
    template <class Row>
    Row const* of_color(std::vector<Row> const& rows) const {
        for (auto const& r : rows) {
            if (r.color == color) return &r;
        }
        return nullptr;
    }
    hlomem::color_live_bytes const* live() const { return of_color(d->facts().colors); }
    hlomem::color_bounds const* bounds() const { return of_color(d->facts().bounds); }
    hlomem::color_padding const* padding() const { return of_color(d->facts().padding); }
    /// The smallest temp arenas hlomem found; null where one was not searched (the report's null).
    hlomem::color_temp_optimum const* optimum() const {
        auto const* o = of_color(d->facts().optima);
        return o && o->unsearched == 0 ? o : nullptr;
    }
    hlomem::peak_holdings const* holdings() const { return hlomem::holdings_of(d->facts().holdings, color); }

    py::object peak_by_source() const {
        py::list out;
        auto const* h = holdings();
        if (!h) return std::move(out);
        auto const& f = d->facts();
        for (auto const& g : hlomem::peak_by_source_line(*h, f.sources)) {
            bool const line = !g.key.is_no_source() && !g.key.is_argument();
            auto const text = line ? d->source_text.line(hlomem::c_unescape(g.key.source_file), g.key.source_line) : std::nullopt;
            out.append(source_line_group{metadata(g.key.source_file), line ? py::object(py::int_(g.key.source_line)) : py::object(py::none()),
                                         py::str(std::string(hlomem::to_string(g.key.kind))),
                                         g.key.is_argument() ? py::object(py::int_(g.key.argument)) : py::object(py::none()),
                                         g.bytes, value_ids(f.ba, g.values), text ? py::object(py::str(*text)) : py::object(py::none())});
        }
        return std::move(out);
    }
    template <class Tree>
    py::object tree(Tree make) const {
        auto const* h = holdings();
        if (!h) return py::none();
        return py::cast(holding_node(make(*h, d->facts().sources), d->facts().ba));
    }
};

inline std::array<field<color_ref>, 15> const& color_fields() {
    using R = color_ref const&;
    auto const has_peak = [](R c) { return c.live() != nullptr; };
    auto const has_bounds = [](R c) { return c.bounds() != nullptr; };
    auto const has_padding = [](R c) { return c.padding() != nullptr; };
    static std::array<field<color_ref>, 15> const fields{{
        {"color", [](R c) -> py::object { return py::int_(c.color); }},
        {"allocated_bytes", [](R c) -> py::object { return py::int_(c.allocated_bytes); }},
        {"peak_live_bytes", [](R c) -> py::object { return c.live() ? py::object(py::int_(c.live()->peak_bytes)) : py::object(py::none()); }},
        {"peak_time", [](R c) -> py::object { return c.live() ? py::object(py::int_(c.live()->peak_time)) : py::object(py::none()); },
         nullptr, has_peak},
        {"peak_instruction",
         [](R c) -> py::object {
             return c.live() ? py::object(text(c.d->assignment().live_range->instruction_at(c.live()->peak_time))) : py::object(py::none());
         },
         nullptr, has_peak},
        {"temp_allocated_bytes", [](R c) -> py::object { return c.bounds() ? py::object(py::int_(c.bounds()->temp_allocated_bytes)) : py::object(py::none()); },
         nullptr, has_bounds},
        {"temp_lower_bound_bytes", [](R c) -> py::object { return c.bounds() ? py::object(py::int_(c.bounds()->temp.bytes)) : py::object(py::none()); },
         nullptr, has_bounds},
        {"temp_smallest_bytes", [](R c) -> py::object { return c.optimum() ? py::object(py::int_(c.optimum()->smallest_bytes)) : py::object(py::none()); },
         nullptr, has_bounds},
        {"temp_smallest_proven", [](R c) -> py::object { return c.optimum() ? py::object(py::bool_(c.optimum()->proven)) : py::object(py::none()); },
         nullptr, has_bounds},
        {"lower_bound_bytes", [](R c) -> py::object { return c.bounds() ? py::object(py::int_(c.bounds()->all.bytes)) : py::object(py::none()); },
         nullptr, has_bounds},
        {"padded_bytes", [](R c) -> py::object { return c.padding() ? py::object(py::int_(c.padding()->padded_bytes)) : py::object(py::none()); },
         nullptr, has_padding},
        {"unpadded_bytes", [](R c) -> py::object { return c.padding() ? py::object(py::int_(c.padding()->unpadded_bytes)) : py::object(py::none()); },
         nullptr, has_padding},
        {"peak_by_source", [](R c) { return c.peak_by_source(); }, [](R c) -> py::object { return to_dicts(c.peak_by_source()); }},
        {"peak_by_op_name", [](R c) { return c.tree([](auto const& h, auto const& s) { return hlomem::peak_by_op_name(h, s); }); },
         [](R c) { return to_dict_or_none(c.tree([](auto const& h, auto const& s) { return hlomem::peak_by_op_name(h, s); })); }},
        {"peak_by_stack_frame", [](R c) { return c.tree([](auto const& h, auto const& s) { return hlomem::peak_by_stack_frame(h, s); }); },
         [](R c) { return to_dict_or_none(c.tree([](auto const& h, auto const& s) { return hlomem::peak_by_stack_frame(h, s); })); }},
    }};
    return fields;
}

/// Where a dump contradicts itself (the report's "warnings").
struct inconsistency {
    std::size_t line;
    std::string message;
};

inline std::array<field<inconsistency>, 2> const& inconsistency_fields() {
    static std::array<field<inconsistency>, 2> const fields{{
        {"line", member<inconsistency, &inconsistency::line>},
        {"message", member<inconsistency, &inconsistency::message>},
    }};
    return fields;
}

/// A value live at a color's peak, as the text report lists the largest (Dump.breakdown).
struct breakdown_value {
    std::int64_t id;
    std::string name, index;
    std::int64_t bytes, allocation;
    std::string allocation_kind;
    py::object shape;  ///< XLA's text of its shape; None when it has none
};

inline std::array<field<breakdown_value>, 7> const& breakdown_value_fields() {
    static std::array<field<breakdown_value>, 7> const fields{{
        {"id", member<breakdown_value, &breakdown_value::id>},
        {"name", member<breakdown_value, &breakdown_value::name>},
        {"index", member<breakdown_value, &breakdown_value::index>},
        {"bytes", member<breakdown_value, &breakdown_value::bytes>},
        {"allocation", member<breakdown_value, &breakdown_value::allocation>},
        {"allocation_kind", member<breakdown_value, &breakdown_value::allocation_kind>},
        {"shape", member<breakdown_value, &breakdown_value::shape>},
    }};
    return fields;
}

/// What is live at one color's peak (Dump.breakdown): the peak and the largest values there.
struct color_breakdown {
    std::int64_t color, allocated_bytes, peak_bytes, peak_time;
    std::string peak_instruction;
    std::int64_t live_values;
    py::list values;  ///< BreakdownValue objects, largest first
};

inline std::array<field<color_breakdown>, 7> const& color_breakdown_fields() {
    static std::array<field<color_breakdown>, 7> const fields{{
        {"color", member<color_breakdown, &color_breakdown::color>},
        {"allocated_bytes", member<color_breakdown, &color_breakdown::allocated_bytes>},
        {"peak_bytes", member<color_breakdown, &color_breakdown::peak_bytes>},
        {"peak_time", member<color_breakdown, &color_breakdown::peak_time>},
        {"peak_instruction", member<color_breakdown, &color_breakdown::peak_instruction>},
        {"live_values", member<color_breakdown, &color_breakdown::live_values>},
        {"values", member<color_breakdown, &color_breakdown::values>, [](color_breakdown const& c) -> py::object { return to_dicts(c.values); }},
    }};
    return fields;
}

/// A violation of soundness (Dump.check), as `hlomem check --json` lists it in 'violations', with
/// its severity and column besides.
struct violation {
    std::string kind, severity;
    std::int64_t line, column;
    py::object allocation;  ///< the allocation's index; None when it names none
    py::list values;        ///< the ids of the values it names
    py::list sources;       ///< each value's id, metadata and origin (dicts, as the JSON's)
    std::string message;
};

inline std::array<field<violation>, 8> const& violation_fields() {
    static std::array<field<violation>, 8> const fields{{
        {"kind", member<violation, &violation::kind>},
        {"severity", member<violation, &violation::severity>},
        {"line", member<violation, &violation::line>},
        {"column", member<violation, &violation::column>},
        {"allocation", member<violation, &violation::allocation>},
        {"values", member<violation, &violation::values>},
        {"sources", member<violation, &violation::sources>},
        {"message", member<violation, &violation::message>},
    }};
    return fields;
}

/// How hlomem.assign predicted an assignment (Dump.prediction): the backend whose options it
/// followed and why, the temp alignment, the heap algorithm and the module's file.
struct prediction {
    std::string backend, backend_source, backend_reason;
    std::int64_t alignment;
    std::string algorithm, module;
};

inline std::array<field<prediction>, 6> const& prediction_fields() {
    static std::array<field<prediction>, 6> const fields{{
        {"backend", member<prediction, &prediction::backend>},
        {"backend_source", member<prediction, &prediction::backend_source>},
        {"backend_reason", member<prediction, &prediction::backend_reason>},
        {"alignment", member<prediction, &prediction::alignment>},
        {"algorithm", member<prediction, &prediction::algorithm>},
        {"module", member<prediction, &prediction::module>},
    }};
    return fields;
}

/// A value at a peak and its bytes there: under XLA's rule for a value XLA lists at its peak (the
/// report's peak_values, Dump.peak.values); the bytes of the peak it holds, shared bytes once, for
/// Dump.peak_by_source's values.
struct peak_value {
    std::int64_t id;
    std::string name, index;
    std::int64_t bytes;
};

inline std::array<field<peak_value>, 4> const& peak_value_fields() {
    static std::array<field<peak_value>, 4> const fields{{
        {"id", member<peak_value, &peak_value::id>},
        {"name", member<peak_value, &peak_value::name>},
        {"index", member<peak_value, &peak_value::index>},
        {"bytes", member<peak_value, &peak_value::bytes>},
    }};
    return fields;
}

/// A node of Dump.peak_by_source's tree by op_name or by stack frame: its bytes, the values held
/// right there (PeakValue objects) and its children (HeldNode objects).
struct held_node {
    std::string name;
    std::int64_t bytes;
    py::list values, children;
};

inline std::array<field<held_node>, 4> const& held_node_fields() {
    static std::array<field<held_node>, 4> const fields{{
        {"name", member<held_node, &held_node::name>},
        {"bytes", member<held_node, &held_node::bytes>},
        {"values", member<held_node, &held_node::values>, [](held_node const& n) -> py::object { return to_dicts(n.values); }},
        {"children", member<held_node, &held_node::children>, [](held_node const& n) -> py::object { return to_dicts(n.children); }},
    }};
    return fields;
}

/// A source line's share of a color's peak in Dump.peak_by_source(by='source_line'): where its
/// bytes are traced to, how it reads, and its values with the bytes each holds.
struct source_group {
    py::object source_file, source_line;  ///< None for an argument or no source
    std::string origin;
    py::object argument;  ///< the parameter number of an argument, None otherwise
    std::string label;
    std::int64_t bytes;
    py::list values;  ///< PeakValue objects, the largest first
};

inline std::array<field<source_group>, 7> const& source_group_fields() {
    static std::array<field<source_group>, 7> const fields{{
        {"source_file", member<source_group, &source_group::source_file>},
        {"source_line", member<source_group, &source_group::source_line>},
        {"origin", member<source_group, &source_group::origin>},
        {"argument", member<source_group, &source_group::argument>},
        {"label", member<source_group, &source_group::label>},
        {"bytes", member<source_group, &source_group::bytes>},
        {"values", member<source_group, &source_group::values>, [](source_group const& g) -> py::object { return to_dicts(g.values); }},
    }};
    return fields;
}

/// One color's peak in Dump.peak_by_source: its moment and bytes, and either the groups by
/// source line or the tree by op_name or stack frame (the other None, and not in to_dict()).
struct peak_sources {
    std::int64_t color, time;
    std::string instruction;
    std::int64_t bytes;
    py::object groups = py::none();  ///< SourceGroup objects, by='source_line'
    py::object tree = py::none();    ///< a HeldNode, by='op_name' or 'stack_frame'
};

inline std::array<field<peak_sources>, 6> const& peak_sources_fields() {
    static std::array<field<peak_sources>, 6> const fields{{
        {"color", member<peak_sources, &peak_sources::color>},
        {"time", member<peak_sources, &peak_sources::time>},
        {"instruction", member<peak_sources, &peak_sources::instruction>},
        {"bytes", member<peak_sources, &peak_sources::bytes>},
        {"groups", member<peak_sources, &peak_sources::groups>, [](peak_sources const& p) -> py::object { return to_dicts(p.groups); },
         [](peak_sources const& p) { return !p.groups.is_none(); }},
        {"tree", member<peak_sources, &peak_sources::tree>, [](peak_sources const& p) -> py::object { return to_dict_or_none(p.tree); },
         [](peak_sources const& p) { return !p.tree.is_none(); }},
    }};
    return fields;
}


/// XLA's peak recomputed (memory/peak.hpp, compute_xla_peak): the report's live_range.peak_*.
struct peak {
    std::int64_t time;
    std::string instruction;
    std::int64_t bytes, listed_bytes;
    std::string rule;
    std::optional<std::int64_t> stated_time;
    bool matches_stated;
    py::list values;
};

inline std::array<field<peak>, 8> const& peak_fields() {
    using R = peak const&;
    static std::array<field<peak>, 8> const fields{{
        {"time", member<peak, &peak::time>},
        {"instruction", member<peak, &peak::instruction>},
        {"bytes", member<peak, &peak::bytes>},
        {"listed_bytes", member<peak, &peak::listed_bytes>},
        {"rule", member<peak, &peak::rule>},
        {"stated_time", member<peak, &peak::stated_time>},
        {"matches_stated", member<peak, &peak::matches_stated>},
        {"values", [](R p) -> py::object { return py::list(p.values); }, [](R p) -> py::object { return to_dicts(p.values); }},
    }};
    return fields;
}

/// MemoryAnalysis: the fields of compiled.memory_analysis() under JAX's names (an int, None when
/// no text states it), `peak` (how it was reached) and `notes`, as `hlomem report --json` writes
/// its 'memory_analysis' (output/memory_analysis_report.hpp, whose object to_dict() is read from).
template <std::size_t I>
py::object memory_analysis_field(hlomem::memory_analysis const& m) {
    return optional_object(hlomem::value_of(m, hlomem::memory_analysis_members[I]));
}
inline py::dict memory_analysis_json(hlomem::memory_analysis const& m) {
    std::ostringstream out;
    hlomem::json_writer json(out);
    hlomem::write_memory_analysis_json(json, m);
    json.finish();
    return py::module_::import("json").attr("loads")(out.str());
}
inline std::array<field<hlomem::memory_analysis>, 16> const& memory_analysis_record_fields() {
    using R = hlomem::memory_analysis const&;
    static_assert(hlomem::memory_analysis_field_count == 14);
    auto const& names = hlomem::memory_analysis_members;
    static std::array<field<hlomem::memory_analysis>, 16> const fields{{
        {names[0].name.data(), memory_analysis_field<0>},
        {names[1].name.data(), memory_analysis_field<1>},
        {names[2].name.data(), memory_analysis_field<2>},
        {names[3].name.data(), memory_analysis_field<3>},
        {names[4].name.data(), memory_analysis_field<4>},
        {names[5].name.data(), memory_analysis_field<5>},
        {names[6].name.data(), memory_analysis_field<6>},
        {names[7].name.data(), memory_analysis_field<7>},
        {names[8].name.data(), memory_analysis_field<8>},
        {names[9].name.data(), memory_analysis_field<9>},
        {names[10].name.data(), memory_analysis_field<10>},
        {names[11].name.data(), memory_analysis_field<11>},
        {names[12].name.data(), memory_analysis_field<12>},
        {names[13].name.data(), memory_analysis_field<13>},
        {"peak", [](R m) -> py::object { return memory_analysis_json(m)["peak"]; }},
        {"notes", [](R m) -> py::object { return py::list(py::cast(m.notes)); }},
    }};
    return fields;
}

/// The peak of `d`'s assignment as the report writes it; None without live ranges.
inline py::object peak_of(dump& d) {
    auto const& f = d.facts();
    if (!f.peak) return py::none();
    auto const& ba = f.ba;
    auto const& p = *f.peak;
    peak out{p.time, std::string(ba.live_range->instruction_at(p.time)), p.bytes, 0,
             p.rule == hlomem::peak_size_rule::instruction_shape ? "instruction_shape" : "value_subshape",
             ba.live_range->stated_peak ? std::optional<std::int64_t>(ba.live_range->stated_peak->time) : std::nullopt,
             ba.live_range->stated_peak && hlomem::compare_stated_peak(ba, p).empty(), py::list()};
    for (std::size_t k = 0; k < p.values.size(); ++k) {
        auto const& v = ba.values[p.values[k]];
        out.listed_bytes += p.sizes[k];
        out.values.append(peak_value{v.id, std::string(v.name), hlomem::to_string(v.index), p.sizes[k]});
    }
    return py::cast(std::move(out));
}

// ---------------------------------------------------------------------------------------------
// Timeline: TimelineColor
// ---------------------------------------------------------------------------------------------

/// A color of a timeline, as `hlomem timeline --json` lists it (output/timeline_page.hpp, write_color_members).
struct timeline_color_ref {
    std::shared_ptr<timeline> t;
    std::size_t i;
    hlomem::timeline_color const& c() const { return t->tl.colors[i]; }
};

inline std::array<field<timeline_color_ref>, 12> const& timeline_color_fields() {
    using R = timeline_color_ref const&;
    static std::array<field<timeline_color_ref>, 12> const fields{{
        {"color", [](R r) -> py::object { return py::int_(r.c().color); }},
        {"allocated_bytes", [](R r) -> py::object { return py::int_(r.c().allocated_bytes); }},
        {"peak_bytes", [](R r) -> py::object { return py::int_(r.c().peak_bytes); }},
        {"peak_time", [](R r) -> py::object { return py::int_(r.c().peak_time); }},
        {"peak_instruction", [](R r) -> py::object { return py::str(r.c().peak_instruction); }},
        {"unpadded_bytes_at_peak", [](R r) -> py::object { return py::int_(r.c().unpadded_at(r.c().peak_time)); }},
        {"live_at_peak", [](R r) -> py::object { return py::int_(r.c().live_at_peak); }},
        {"values", [](R r) -> py::object { return py::int_(r.c().ranged_values); }},
        {"drawn", [](R r) -> py::object { return py::int_(r.c().buffers.size()); }},
        {"aggregated", [](R r) -> py::object { return py::int_(r.c().aggregated_values); }},
        {"bands", [](R r) -> py::object { return py::int_(r.c().bands.size()); }},
        {"unranged_values", [](R r) -> py::object { return py::int_(r.c().unranged_values); }},
    }};
    return fields;
}

// ---------------------------------------------------------------------------------------------
// Diff: DiffColor, BytePair, Sides, KindBytes, SourceLineChange
// ---------------------------------------------------------------------------------------------

inline std::array<field<hlomem::byte_pair>, 3> const& byte_pair_fields() {
    using R = hlomem::byte_pair const&;
    static std::array<field<hlomem::byte_pair>, 3> const fields{{
        {"a", [](R p) -> py::object { return py::int_(p.a); }},
        {"b", [](R p) -> py::object { return py::int_(p.b); }},
        {"delta", [](R p) -> py::object { return py::int_(p.delta()); }},
    }};
    return fields;
}

/// A figure of A and of B that is not a byte count (a time, an instruction, the values live).
struct sides {
    py::object a, b;
};

inline std::array<field<sides>, 2> const& sides_fields() {
    static std::array<field<sides>, 2> const fields{{
        {"a", member<sides, &sides::a>},
        {"b", member<sides, &sides::b>},
    }};
    return fields;
}

inline std::array<field<hlomem::kind_bytes>, 4> const& kind_bytes_fields() {
    using R = hlomem::kind_bytes const&;
    static std::array<field<hlomem::kind_bytes>, 4> const fields{{
        {"kind", [](R k) -> py::object { return py::str(std::string(hlomem::to_string(k.kind))); }},
        {"a", [](R k) -> py::object { return py::int_(k.bytes.a); }},
        {"b", [](R k) -> py::object { return py::int_(k.bytes.b); }},
        {"delta", [](R k) -> py::object { return py::int_(k.bytes.delta()); }},
    }};
    return fields;
}

/// A source line's bytes at A's and B's peaks, with the values of each side (ids).
struct source_line_change {
    py::object source_file, source_file_b, relative_file, source_line, argument;
    hlomem::byte_pair bytes;
    py::list values_a, values_b;
};

inline std::array<field<source_line_change>, 10> const& source_line_change_fields() {
    using R = source_line_change const&;
    static std::array<field<source_line_change>, 10> const fields{{
        {"source_file", member<source_line_change, &source_line_change::source_file>},
        {"source_file_b", member<source_line_change, &source_line_change::source_file_b>},
        {"relative_file", member<source_line_change, &source_line_change::relative_file>},
        {"source_line", member<source_line_change, &source_line_change::source_line>},
        {"argument", member<source_line_change, &source_line_change::argument>},
        {"a", [](R l) -> py::object { return py::int_(l.bytes.a); }},
        {"b", [](R l) -> py::object { return py::int_(l.bytes.b); }},
        {"delta", [](R l) -> py::object { return py::int_(l.bytes.delta()); }},
        {"values_a", [](R l) -> py::object { return py::list(l.values_a); }},
        {"values_b", [](R l) -> py::object { return py::list(l.values_b); }},
    }};
    return fields;
}

/// A color of a diff, as `hlomem diff --json` lists it (output/diff_report.hpp, print_diff_json).
struct diff_color_ref {
    std::shared_ptr<diff_result> d;
    std::size_t i;
    hlomem::color_diff const& c() const { return d->diff().colors[i]; }

    /// Sides of `get(side_peak, its assignment)`.
    template <class Get>
    py::object both(Get get) const {
        return py::cast(sides{get(c().peak_a, d->a->assignment()), get(c().peak_b, d->b->assignment())});
    }
    py::object peak_time() const {
        return both([](hlomem::side_peak const& p, assignment_type const&) { return p.measured ? py::object(py::int_(p.time)) : py::object(py::none()); });
    }
    py::object peak_instruction() const {
        return both([](hlomem::side_peak const& p, assignment_type const&) { return p.measured ? py::object(py::str(p.instruction)) : py::object(py::none()); });
    }
    py::object live_at_peak() const {
        return both([](hlomem::side_peak const& p, assignment_type const& ba) -> py::object { return value_ids(ba, p.live); });
    }
    py::object allocated_by_kind() const {
        py::list out;
        for (auto const& k : c().allocated_by_kind) out.append(k);
        return std::move(out);
    }
    py::object peak_by_source() const {
        py::list out;
        auto const& a = d->a->assignment();
        auto const& b = d->b->assignment();
        for (auto const& l : c().peak_by_source) {
            bool const line = l.known && l.argument < 0;  // an argument's row names no file (diff_report.hpp)
            auto text = [&](std::string const& s) { return line && !s.empty() ? py::object(py::str(s)) : py::object(py::none()); };
            out.append(source_line_change{line ? py::object(py::str(l.source_file)) : py::object(py::none()), text(l.source_file_b),
                                          line ? py::object(py::str(l.relative_file)) : py::object(py::none()),
                                          line && l.source_line ? py::object(py::int_(l.source_line)) : py::object(py::none()),
                                          l.argument >= 0 ? py::object(py::int_(l.argument)) : py::object(py::none()), l.bytes, value_ids(a, l.values_a), value_ids(b, l.values_b)});
        }
        return std::move(out);
    }
};

/// A BytePair field of a diff's color: EXPR, a member of hlomem::color_diff or a call of one.
#define HLOMEM_PYTHON_BYTE_PAIR_FIELD(NAME, EXPR) \
    {NAME, [](diff_color_ref const& r) { return py::cast(r.c().EXPR); }, [](diff_color_ref const& r) -> py::object { return pair_dict(r.c().EXPR); }}

inline std::array<field<diff_color_ref>, 13> const& diff_color_fields() {
    using R = diff_color_ref const&;
    static std::array<field<diff_color_ref>, 13> const fields{{
        {"color", [](R r) -> py::object { return py::int_(r.c().color); }},
        HLOMEM_PYTHON_BYTE_PAIR_FIELD("allocated_bytes", allocated_bytes),
        HLOMEM_PYTHON_BYTE_PAIR_FIELD("peak_live_bytes", peak_live_bytes),
        {"peak_time", [](R r) { return r.peak_time(); }, [](R r) { return to_dict_or_none(r.peak_time()); }},
        {"peak_instruction", [](R r) { return r.peak_instruction(); }, [](R r) { return to_dict_or_none(r.peak_instruction()); }},
        {"live_at_peak", [](R r) { return r.live_at_peak(); }, [](R r) { return to_dict_or_none(r.live_at_peak()); }},
        {"allocated_by_kind", [](R r) { return r.allocated_by_kind(); }, [](R r) -> py::object { return to_dicts(r.allocated_by_kind()); }},
        {"peak_by_source", [](R r) { return r.peak_by_source(); }, [](R r) -> py::object { return to_dicts(r.peak_by_source()); }},
        HLOMEM_PYTHON_BYTE_PAIR_FIELD("padded_bytes", padded_bytes),
        HLOMEM_PYTHON_BYTE_PAIR_FIELD("unpadded_bytes", unpadded_bytes),
        HLOMEM_PYTHON_BYTE_PAIR_FIELD("temp_allocated_bytes", temp_allocated_bytes),
        HLOMEM_PYTHON_BYTE_PAIR_FIELD("temp_lower_bound_bytes", temp_lower_bound_bytes),
        HLOMEM_PYTHON_BYTE_PAIR_FIELD("temp_above_bound_bytes", temp_above_bound()),
    }};
    return fields;
}

#undef HLOMEM_PYTHON_BYTE_PAIR_FIELD

}  // namespace hlomem_python

#endif  // HLOMEM_PYTHON_RECORDS_HPP
