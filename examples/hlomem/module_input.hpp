// module_input.hpp: the scheduled module `hlomem whatif` and `hlomem advise` edit: a module file,
// or a buffer-assignment dump whose module lies beside it (X.txt beside X-buffer-assignment.txt,
// as the loader finds it), with the text it was parsed from (what apply_edits rewrites).
#ifndef HLOMEM_EXAMPLES_MODULE_INPUT_HPP
#define HLOMEM_EXAMPLES_MODULE_INPUT_HPP

#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include <hlomem/hlomem.hpp>

#include "input.hpp"

namespace hlomem_cli {

struct module_input {
    std::string path;
    std::string text;
    hlomem::hlo_module module;
};

inline std::optional<module_input> read_module_input(std::string path, std::string_view command, std::ostream& err) {
    auto in = read_input(path, err);
    if (!in) return std::nullopt;
    if (in->kind == hlomem::dump_kind::buffer_assignment) {
        hlomem::load_options options;
        options.find_module = true;
        auto loaded = load(std::move(*in), options, err);
        if (!loaded) return std::nullopt;
        if (!loaded->module_file) {
            err << "hlomem " << command << ": " << path << ": no module beside the dump (X.txt beside X-buffer-assignment.txt)\n";
            return std::nullopt;
        }
        path = *loaded->module_file;
        in = read_input(path, err);
        if (!in) return std::nullopt;
    }
    if (in->kind != hlomem::dump_kind::hlo_module) {
        err << "hlomem " << command << ": " << path << ": not an HLO module nor a dump with its module beside it\n";
        return std::nullopt;
    }
    try {
        std::string text(in->text);
        auto m = hlomem::parse_hlo_module(text, path);
        if (!m.is_scheduled()) err << "hlomem " << command << ": note: " << path << " is not scheduled: its text order stands in for XLA's schedule\n";
        return module_input{path, std::move(text), std::move(m)};
    } catch (hlomem::error const& e) {
        err << "hlomem " << command << ": " << path << ": " << e.what() << '\n';
    }
    return std::nullopt;
}

}  // namespace hlomem_cli

#endif  // HLOMEM_EXAMPLES_MODULE_INPUT_HPP
