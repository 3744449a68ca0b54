// hlomem/load/editable_module.hpp: the scheduled module a what-if edits (`hlomem whatif`,
// `hlomem advise`, Dump.what_if, hlomem.advise), from what the loader read: a file of one module,
// or the module read beside a buffer-assignment dump (X.txt beside X-buffer-assignment.txt, or
// load_options::module_file), with the text it was parsed from, which emit_module rewrites. One
// door for the tool and Python, and one note for a module that is not scheduled.
//
//   hlomem::load_options o;
//   o.find_module = true;
//   auto loaded = hlomem::load<hlomem::view_policy>(path, o);     // the text kept: views into it
//   auto m = hlomem::editable_module(*loaded);                     // load_error when there is none
//   hlomem::basic_what_if<hlomem::view_policy> w(*m->module);
#ifndef HLOMEM_LOAD_EDITABLE_MODULE_HPP
#define HLOMEM_LOAD_EDITABLE_MODULE_HPP

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <hlomem/hlo/module.hpp>
#include <hlomem/load/input.hpp>
#include <hlomem/load/loaded.hpp>

namespace hlomem {

/// A module to edit: its file, the module (owned by the loaded value it came from) and its text.
template <class P>
struct basic_editable_module {
    std::string path;
    basic_hlo_module<P> const* module = nullptr;
    std::string_view text;
};

/// What every client says of a module without `is_scheduled=true`: hlomem then takes the order of
/// its text for XLA's schedule (HloModule::has_schedule is false; hlo/module.hpp).
inline std::string not_scheduled_note(std::string_view path) {
    return std::string(path) + " is not scheduled (no is_scheduled=true): its text order stands in for XLA's schedule";
}

/// The module of `loaded` to edit (see the file's comment), or why there is none: a text of
/// another kind, a file of several modules, a dump with no module beside it, or a module whose
/// text was not kept (a policy that owns its strings keeps none: load with view_policy).
template <class P>
load_result<basic_editable_module<P>> editable_module(basic_loaded<P> const& loaded) {
    auto refuse = [&](std::string message) { return load_error{load_failure::unknown_kind, loaded.path, std::move(message)}; };
    basic_editable_module<P> out;
    if (auto const* modules = std::get_if<std::vector<basic_hlo_module<P>>>(&loaded.model)) {
        if (modules->size() != 1) return refuse("holds " + std::to_string(modules->size()) + " modules; a what-if edits one");
        out = {loaded.path, &modules->front(), loaded.module_text};
    } else if (loaded.kind() != dump_kind::buffer_assignment) {
        return refuse("not an HLO module nor a dump with its module beside it");
    } else if (!loaded.module || !loaded.module_file) {
        return refuse("no module beside the dump (X.txt beside X-buffer-assignment.txt)");
    } else {
        out = {*loaded.module_file, &*loaded.module, loaded.module_text};
    }
    if (out.text.empty()) return refuse("the module's text was not kept (load it with view_policy): a what-if rewrites it");
    return out;
}

// Compiled once in programs that link hlomem::compiled (HLOMEM_COMPILED_LIBRARY; output/instantiate.hpp).
#define HLOMEM_EDITABLE_MODULE_INSTANTIATIONS(EXTERN, P) \
    EXTERN template load_result<basic_editable_module<P>> editable_module<P>(basic_loaded<P> const&);
#ifdef HLOMEM_COMPILED_LIBRARY
HLOMEM_FOR_EACH_POLICY(HLOMEM_EDITABLE_MODULE_INSTANTIATIONS, extern)
#endif

}  // namespace hlomem

#endif  // HLOMEM_LOAD_EDITABLE_MODULE_HPP
