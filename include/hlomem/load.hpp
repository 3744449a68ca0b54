// hlomem/load.hpp: the loader above the parsers: reads a file or standard input once, tells its
// kind from its content, finds a dump's sibling files, derives an assignment from a bare module,
// and returns one value a program can switch on.
//
//   auto r = hlomem::load("module-buffer-assignment.txt");
//   if (r && r->kind() == hlomem::dump_kind::buffer_assignment) use(*r->assignment());
//
//   <hlomem/load/kind.hpp>    dump_kind and detect_dump_kind: which XLA text, from its content
//   <hlomem/load/input.hpp>   read_input: one read; load_error and load_result
//   <hlomem/load/derive.hpp>  derive_assignment: a buffer assignment for a bare HLO module
//   <hlomem/load/editable_module.hpp>  editable_module: the module a what-if edits, with its text
//   <hlomem/load/dump_directory.hpp>  find_compilations: the compilations of a --xla_dump_to folder
//   <hlomem/load/loaded.hpp>  load, load_text: the model of any kind, with its sibling files
//   <hlomem/load/diff_side.hpp>  open_diff_side: a side of a diff, a snapshot or a dump or module
#ifndef HLOMEM_LOAD_HPP
#define HLOMEM_LOAD_HPP

#include <hlomem/load/derive.hpp>
#include <hlomem/load/diff_side.hpp>
#include <hlomem/load/dump_directory.hpp>
#include <hlomem/load/editable_module.hpp>
#include <hlomem/load/input.hpp>
#include <hlomem/load/kind.hpp>
#include <hlomem/load/loaded.hpp>
#include <hlomem/load/mapped_file.hpp>
#include <hlomem/load/source_text.hpp>

#endif  // HLOMEM_LOAD_HPP
