// input.hpp: how the commands of the hlomem tool read their files: through the library's loader
// (<hlomem/load.hpp>), with its errors printed as the tool has always printed them.
#ifndef HLOMEM_EXAMPLES_INPUT_HPP
#define HLOMEM_EXAMPLES_INPUT_HPP

#include <optional>
#include <ostream>
#include <string>
#include <utility>

#include <hlomem/load.hpp>

namespace hlomem_cli {

/// A parse error as the parser wrote it (file:line:column, the line, a caret); a file that
/// cannot be read after "hlomem: ".
inline void print_load_error(std::ostream& err, hlomem::load_error const& e) {
    if (e.failure != hlomem::load_failure::unparsable) err << "hlomem: ";
    err << e.message << '\n';
}

/// The text of `path` ("-": standard input), read once; nullopt after saying why on `err`.
inline std::optional<hlomem::input> read_input(std::string const& path, std::ostream& err) {
    auto in = hlomem::read_input(path);
    if (!in) {
        print_load_error(err, in.error());
        return std::nullopt;
    }
    return std::move(*in);
}

/// `in` read into its model (hlomem::load); nullopt after saying why on `err`.
template <class P = hlomem::default_policy>
std::optional<hlomem::basic_loaded<P>> load(hlomem::input in, hlomem::load_options const& options, std::ostream& err) {
    auto loaded = hlomem::load<P>(std::move(in), options);
    if (!loaded) {
        print_load_error(err, loaded.error());
        return std::nullopt;
    }
    return std::move(*loaded);
}

/// The buffer-assignment dump at `path`, with the live ranges `options` name or find; nullopt
/// after saying why on `err`. What check and timeline read. A command that keeps no name past the
/// model reads with the view policy: no string of its own for every name and instruction text.
template <class P = hlomem::default_policy>
std::optional<hlomem::basic_loaded<P>> load_dump(std::string const& path, hlomem::load_options const& options,
                                                 std::ostream& err) {
    auto in = read_input(path, err);
    if (!in) return std::nullopt;
    if (in->kind != hlomem::dump_kind::buffer_assignment) {
        err << "hlomem: " << path << ": not a buffer-assignment dump (it should start with 'BufferAssignment:')\n";
        return std::nullopt;
    }
    return load<P>(std::move(*in), options, err);
}

}  // namespace hlomem_cli

#endif  // HLOMEM_EXAMPLES_INPUT_HPP
