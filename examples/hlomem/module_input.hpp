// module_input.hpp: the scheduled module `hlomem whatif` and `hlomem advise` edit, as the library
// finds it (hlomem::editable_module: a module file, or the module beside a buffer-assignment
// dump), read with view_policy so that the text emit_module rewrites stays; the errors and the
// note on a module that is not scheduled printed as the tool prints them.
#ifndef HLOMEM_EXAMPLES_MODULE_INPUT_HPP
#define HLOMEM_EXAMPLES_MODULE_INPUT_HPP

#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include <hlomem/hlomem.hpp>

#include "input.hpp"

namespace hlomem_cli {

using module_input = hlomem::basic_editable_module<hlomem::view_policy>;

inline std::optional<module_input> read_module_input(std::string const& path, std::string_view command, std::ostream& err) {
    auto in = open_input(path, err);
    if (!in) return std::nullopt;
    hlomem::load_options options;
    options.find_module = true;
    auto const* loaded = load(*in, options, err);
    if (!loaded) return std::nullopt;
    auto m = hlomem::editable_module(*loaded);
    if (!m) {
        err << "hlomem " << command << ": " << m.error().file << ": " << m.error().message << '\n';
        return std::nullopt;
    }
    if (!m->module->is_scheduled()) err << "hlomem " << command << ": note: " << hlomem::not_scheduled_note(m->path) << '\n';
    return std::move(*m);
}

}  // namespace hlomem_cli

#endif  // HLOMEM_EXAMPLES_MODULE_INPUT_HPP
