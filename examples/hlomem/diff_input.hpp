// diff_input.hpp: one side of `hlomem diff` or the input of `hlomem snapshot`, read by the
// library (hlomem::open_diff_side, <hlomem/load/diff_side.hpp>: a snapshot, or a dump or module
// with its values' metadata), with its errors printed as the tool prints them.
#ifndef HLOMEM_EXAMPLES_DIFF_INPUT_HPP
#define HLOMEM_EXAMPLES_DIFF_INPUT_HPP

#include <ostream>
#include <string>

#include <hlomem/hlomem.hpp>
#include <hlomem/load/diff_side.hpp>

#include "input.hpp"

namespace hlomem_cli {

using diff_side = hlomem::basic_diff_side<hlomem::view_policy>;

/// The side at `path`, kept until the process exits (keep_until_exit: a side views its loaded
/// model, some 50 MB in tens of thousands of blocks for a 50 MB dump); null after saying why on
/// `err`: what the file is not after "hlomem COMMAND: ", a parse error or an unreadable file as
/// every command prints them (print_load_error).
inline diff_side const* open_side(char const* command, std::string const& path, hlomem::diff_side_options const& options,
                                  std::ostream& err) {
    auto side = hlomem::open_diff_side(path, options);
    if (side) return &keep_until_exit(std::move(*side));
    auto const& e = side.error();
    if (e.failure == hlomem::load_failure::unknown_kind || (e.failure == hlomem::load_failure::unparsable && !e.parse)) {
        err << "hlomem " << command << ": " << e.message << '\n';
    } else {
        print_load_error(err, e);
    }
    return nullptr;
}

}  // namespace hlomem_cli

#endif  // HLOMEM_EXAMPLES_DIFF_INPUT_HPP
