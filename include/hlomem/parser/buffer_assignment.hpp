// hlomem/parser/buffer_assignment.hpp: the Spirit X3 grammar for the `*-buffer-assignment.txt`
// dump XLA writes (BufferAssignment::ToString, ToVerboseString), with or without the HloLiveRange
// text appended (parser/live_range.hpp), and the entry point `try_parse_buffer_assignment`.
//
// The text is line-structured (docs/FORMATS.md 5): blanks between tokens are skipped, line ends
// are tokens, and every line must be one of the forms below; a line that fits none is an error at
// that line and column, never skipped.
//
//   BufferAssignment:
//   allocation 2: size 268435456, parameter 2, shape |f32[32,512,4096]| at ShapeIndex {}:
//    value: <151 param @0> (size=268435456,offset=0): f32[32,512,4096]{2,1,0:T(8,128)}
//   allocation 0: 0x27017c46b600, size 32768, maybe-live-out:          (legacy: an address)
//
//   Total bytes used: 2885767252 (2.69GiB)
//
//   Used values:
//   <130 param.2 @0>                                                   (or `<106 param.5{1} (phi) @0>`)
//    positions:
//     param.2                                                          (or `tuple.16 {0}`)
//    uses:                                                             (or ` uses are not initialized yet.`)
//     convert.1, operand 0                                             (or `while.2.0, operand 0 {1}`, `(none)`)
//    from instruction: %param.2 = f32[3584,4096]{1,0:T(8,128)} parameter(1), ...
//
//   HloLiveRange (max 80):                                             (parser/live_range.hpp)
//   ...
//
// Every shape (value lines, allocation headers, the defining instruction's result shape) is read
// into the model's shape table, each distinct text parsed once.
//
// The reading is in parts, each a header of its own:
//   parser/buffer_assignment_grammar.hpp  the rules of the lines above, of a whole dump and of its parts;
//   parser/buffer_assignment_builder.hpp  the builder that makes the model as the rules match;
//   parser/threaded_read.hpp              a large dump read on several threads (read_in_parts), with
//     parser/dump_parts.hpp               where a dump splits into parts,
//     parser/worker_threads.hpp           the threads that read them,
//     parser/block_store.hpp              where their Used-values blocks are kept,
//     parser/read_statistics.hpp          and where the time goes (benchmarks/measure_parse.cpp).
// This header includes them all.
#ifndef HLOMEM_PARSER_BUFFER_ASSIGNMENT_HPP
#define HLOMEM_PARSER_BUFFER_ASSIGNMENT_HPP

#include <cstddef>
#include <exception>
#include <string>
#include <string_view>
#include <utility>

#include <hlomem/dump/buffer_assignment.hpp>
#include <hlomem/parser/api.hpp>
#include <hlomem/parser/buffer_assignment_builder.hpp>
#include <hlomem/parser/buffer_assignment_grammar.hpp>
#include <hlomem/parser/common.hpp>
#include <hlomem/parser/dump_common.hpp>
#include <hlomem/parser/threaded_read.hpp>
#include <hlomem/parser/worker_threads.hpp>

namespace hlomem::parser {

// Declared with its default arguments and documentation in parser/api.hpp.
template <class P>
parse_result<basic_buffer_assignment<P>> try_parse_buffer_assignment(std::string_view text, std::string_view file,
                                                                      std::size_t threads) {
    char const* const begin = text.data();
    char const* const end = begin + text.size();
    if (threads == 0) threads = text.size() >= dump::threaded_read_bytes ? dump::available_threads() : 1;
    if (threads > 1) {
        try {
            if (auto ba = dump::read_in_parts<P>(file, begin, end, threads)) return parse_result<basic_buffer_assignment<P>>(std::move(*ba));
        } catch (std::exception const&) {
            // Memory or threads ran short: read it whole below.
        }
    }
    return run_parse<basic_buffer_assignment<P>>(file, begin, end, [&] {
        basic_buffer_assignment<P> ba;
        ba.file = std::string(file);
        dump::buffer_assignment_builder<P> builder(file, begin, end, ba);
        builder.reserve_for(text.size());
        dump::run(builder, dump::buffer_assignment_rule);
        builder.finish();
        return ba;
    });
}

}  // namespace hlomem::parser

#endif  // HLOMEM_PARSER_BUFFER_ASSIGNMENT_HPP
