// python/src/whatif.hpp: Dump.what_if and hlomem.advise, what `hlomem whatif` and `hlomem advise`
// do: edits named as the tool names them (whatif/edit_request.hpp), evaluated on the module's live
// ranges (whatif/what_if.hpp, advise.hpp), printed by the library's writer
// (output/whatif_report.hpp, output/whatif_page.hpp), which the tool prints through too: to_json()
// is `hlomem whatif --json`, str() its text, page() its --page.
#ifndef HLOMEM_PYTHON_WHATIF_HPP
#define HLOMEM_PYTHON_WHATIF_HPP

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <cstdint>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <hlomem/output/whatif_page.hpp>
#include <hlomem/output/whatif_report.hpp>
#include <hlomem/whatif.hpp>

#include "state.hpp"

namespace hlomem_python {

using module_type = hlomem::basic_hlo_module<policy>;
using what_if_type = hlomem::basic_what_if<policy>;

/// The module of a Dump that a what-if edits, with the text emit_module rewrites
/// (hlomem::editable_module, as `hlomem whatif` finds it); ValueError naming what is missing.
inline hlomem::basic_editable_module<policy> module_of(dump const& d) {
    auto m = hlomem::editable_module(d.loaded);
    if (m) return std::move(*m);
    std::string message = d.loaded.path + ": " + m.error().message;
    if (d.loaded.kind() == hlomem::dump_kind::buffer_assignment && !d.loaded.module) message += "; give it as hlomem.load(dump, module=PATH)";
    throw py::value_error(message);
}

/// A what-if on a Dump's module: the Dump keeps the module and its text alive.
struct edited_module {
    std::shared_ptr<dump> source;
    hlomem::basic_editable_module<policy> m;
    std::unique_ptr<what_if_type> w;

    explicit edited_module(std::shared_ptr<dump> d) : source(std::move(d)), m(module_of(*source)) {
        if (!m.module->is_scheduled()) {
            py::module_::import("warnings").attr("warn")(hlomem::not_scheduled_note(m.path));
        }
        py::gil_scoped_release unlocked;
        w = std::make_unique<what_if_type>(*m.module);
    }
    /// The module with the accepted edits written in (`--emit-module`).
    std::string emit() const { return hlomem::emit_module(m.text, *w); }
};

/// Dump.what_if's result: `hlomem whatif`'s.
struct what_if_result : edited_module {
    hlomem::what_if_peaks before;
    std::vector<hlomem::what_if_outcome> outcomes;

    using edited_module::edited_module;

    std::string write(bool as_json) const {
        std::ostringstream out;
        if (as_json) hlomem::print_what_if_json(out, *w, before, outcomes);
        else hlomem::print_what_if_text(out, *w, before, outcomes);
        return out.str();
    }
    bool accepted() const {
        return std::all_of(outcomes.begin(), outcomes.end(), [](hlomem::what_if_outcome const& o) { return o.accepted; });
    }
    /// `hlomem whatif --page`.
    std::string page() const {
        std::ostringstream out;
        hlomem::write_what_if_html(out, hlomem::what_if_page(*w));
        return out.str();
    }
};

/// hlomem.advise's result: `hlomem advise`'s.
struct advice_result : edited_module {
    hlomem::budget_advice a;
    std::size_t top = 10;

    using edited_module::edited_module;

    std::string write(bool as_json) const {
        std::ostringstream out;
        if (as_json) hlomem::print_advice_json(out, *w, a, top);
        else hlomem::print_advice_text(out, *w, a, top);
        return out.str();
    }
    bool fits() const { return a.fits(); }
    /// `hlomem advise --page`: the chosen set applied, each color's budget drawn.
    std::string page() const {
        std::ostringstream out;
        hlomem::write_what_if_html(out, hlomem::what_if_page(*w, a.live.budgets()));
        return out.str();
    }
};

/// `names` as a list: one str, or an iterable of them.
inline std::vector<std::string> names_of(py::object const& names, char const* what) {
    if (py::isinstance<py::str>(names)) return {names.cast<std::string>()};
    std::vector<std::string> out;
    for (auto const& n : names) {
        if (!py::isinstance<py::str>(n)) throw py::type_error(std::string(what) + " takes instruction names (str)");
        out.push_back(n.cast<std::string>());
    }
    return out;
}

/// Dump.what_if: donations, then rematerializations, then offloads, each in the order given.
inline std::shared_ptr<what_if_result> what_if(std::shared_ptr<dump> const& d, py::object const& donate, py::object const& remat,
                                               py::object const& offload, std::optional<std::int64_t> from_time, std::int64_t chain) {
    if (from_time && *from_time < 0) throw py::value_error("from_time is a time of the schedule (0, 1, ...), not " + std::to_string(*from_time));
    if (chain < 0) throw py::value_error("chain is how many operands a remat may recompute (0, 1, ...), not " + std::to_string(chain));
    std::vector<hlomem::edit_request> requests;
    std::vector<std::int64_t> parameters;
    try {
        parameters = py::isinstance<py::int_>(donate) ? std::vector<std::int64_t>{donate.cast<std::int64_t>()}
                                                       : donate.cast<std::vector<std::int64_t>>();
    } catch (py::cast_error const&) {
        throw py::type_error("donate takes parameter numbers (int)");
    }
    for (std::int64_t p : parameters) {
        if (p < 0) throw py::value_error("donate takes parameter numbers (0, 1, ...), not " + std::to_string(p));
        requests.push_back(hlomem::edit_request::donate(p));
    }
    for (auto& n : names_of(remat, "remat")) requests.push_back(hlomem::edit_request::remat(std::move(n), from_time, static_cast<std::size_t>(chain)));
    for (auto& n : names_of(offload, "offload")) requests.push_back(hlomem::edit_request::offload(std::move(n), from_time));
    auto out = std::make_shared<what_if_result>(d);
    auto outcomes = [&] {
        py::gil_scoped_release unlocked;
        out->before = out->w->peaks();
        return hlomem::apply_requests(*out->w, requests);
    }();
    if (!outcomes) throw py::value_error(d->loaded.path + ": " + outcomes.error().message);
    out->outcomes = std::move(*outcomes);
    return out;
}

/// hlomem.advise: `budget` bytes (an int) or text (`hlomem advise --budget`'s: "1048576", "90%").
inline std::shared_ptr<advice_result> advise(py::object source, py::object const& budget, std::int64_t top, std::string const& against) {
    auto const against_named = hlomem::advise_against_named(against);
    if (!against_named) throw py::value_error("against needs " + std::string(hlomem::advise_against_expected) + ", not '" + against + "'");
    std::optional<hlomem::advise_options> options;
    if (py::isinstance<py::int_>(budget) && !py::isinstance<py::bool_>(budget)) {
        std::int64_t const bytes = budget.cast<std::int64_t>();
        if (bytes >= 0) options = hlomem::advise_budget_named(std::to_string(bytes));
    } else if (py::isinstance<py::str>(budget)) {
        options = hlomem::advise_budget_named(budget.cast<std::string>());
    }
    if (!options) {
        throw py::value_error("budget needs " + std::string(hlomem::advise_budget_expected) + ", not " +
                              py::repr(budget).cast<std::string>());
    }
    if (top < 0) throw py::value_error("top is how many candidates are listed (0, 1, ...), not " + std::to_string(top));
    auto out = std::make_shared<advice_result>(as_dump(std::move(source)));
    out->top = static_cast<std::size_t>(top);
    py::gil_scoped_release unlocked;
    out->a = hlomem::advise_budget(*out->w, out->m.text, *options, *against_named);
    return out;
}

/// What WhatIf and Advice share: the command's --json and text, and the edited module.
template <class Result>
py::class_<Result, std::shared_ptr<Result>> bind_edited(py::module_& m, char const* name, char const* doc, std::string const& command,
                                                        char const* emitted) {
    py::class_<Result, std::shared_ptr<Result>> c(m, name, doc);
    c.def("to_json", [](Result const& r) { return r.write(true); }, ("What `" + command + " --json` prints, byte for byte (a str).").c_str())
        .def("to_dict", [](Result const& r) { return json_loads(r.write(true)); }, ("What `" + command + " --json` prints, as a dict.").c_str())
        .def("report", [](Result const& r) { return r.write(false); }, ("What `" + command + "` prints (text), as str() gives it.").c_str())
        .def("__str__", [](Result const& r) { return r.write(false); }, ("What `" + command + "` prints.").c_str())
        .def("emit_module", [](Result const& r) { return r.emit(); }, emitted)
        .def("page", [](Result const& r) { return r.page(); },
             ("The self-contained HTML page of `" + command + " --page`: each memory space's live bytes before and after "
              "the edits, the edited values marked (a str).").c_str())
        .def("save_page", [](Result const& r, py::object path) { write_file(path_string(path), r.page()); }, py::arg("path"),
             ("Writes page() to `path`, as `" + command + " --page PATH` does.").c_str());
    return c;
}

/// hlomem.WhatIf and hlomem.Advice.
inline void bind_whatif(py::module_& m) {
    bind_edited<what_if_result>(m, "WhatIf",
        "Edits evaluated on a scheduled module (`hlomem whatif`): XLA's peak and each memory space's live\n"
        "peak before and after them, each edit with its cost or XLA's reason to refuse it.", "hlomem whatif",
        "The module's text with the accepted edits written in (`--emit-module`): read back, its peak is the 'after' one.")
        .def_property_readonly("accepted", &what_if_result::accepted,
            "Whether every edit was accepted (the tool exits 1 when one is refused).")
        .def("__repr__", [](what_if_result const& r) {
            auto const after = r.w->peak();
            return "<hlomem.WhatIf of '" + std::string(std::string_view(r.m.module->name())) + "', " + std::to_string(r.outcomes.size()) +
                   " edits, XLA's peak " + hlomem::human_bytes(r.before.xla.bytes) + " -> " + hlomem::human_bytes(after.bytes) + ">";
        });
    bind_edited<advice_result>(m, "Advice",
        "The edits that bring each memory space of a scheduled module under a budget (`hlomem advise`):\n"
        "the candidates ranked by bytes saved per byte of cost, the smallest set found, what stands in\n"
        "the way where it does not fit.", "hlomem advise",
        "The module's text with the set written in (`--emit-module`): read back, each color's peak is its peak_after.")
        .def_property_readonly("fits", &advice_result::fits,
            "Whether the set brings every memory space under its budget (the tool exits 1 when not).")
        .def("__repr__", [](advice_result const& r) {
            return "<hlomem.Advice of '" + std::string(std::string_view(r.m.module->name())) + "', a set of " + std::to_string(r.a.live.chosen.size()) +
                   (r.fits() ? " edits that fits>" : " edits that does not fit>");
        });
}

}  // namespace hlomem_python

#endif  // HLOMEM_PYTHON_WHATIF_HPP
