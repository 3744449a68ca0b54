// hlomem/hlo/stack_frames.hpp: an instruction's place in the user's program when its metadata
// names it by `stack_frame_id`, as the XLA of JAX 0.5 and later prints it
// (tests/data/jax_0_11/grad_ckpt.txt):
//
//   FileNames
//   1 "/work/main/devcheck/make_pairs.py"
//   FunctionNames
//   1 "<module>"
//   2 "layer"
//   ...
//   FileLocations
//   2 {file_name_id=1 function_name_id=2 line=18 end_line=18 column=33 end_column=38}
//   ...
//   StackFrames
//   1 {file_location_id=1 parent_frame_id=1}
//   ...
//   3 {file_location_id=3 parent_frame_id=2}
//   ...
//   %wrapped_tanh = f32[2048,512]{1,0} fusion(%get-tuple-element), kind=kLoop, calls=%wrapped_tanh_computation,
//       metadata={op_name="jit(grad_ckpt)/jvp()/tanh" scheduling_name="wrapped_tanh" stack_frame_id=3}
//
// The tables (basic_stack_frame_index, hlo/module.hpp) are the module's: a buffer-assignment dump
// repeats the instruction's `stack_frame_id=3` after ` from instruction: ` but not the tables, so
// its ids resolve only with the module it was assigned from. python_stack gives a frame's whole
// stack; metadata_position the file and line an instruction's metadata names, its own
// source_file / source_line or, without them, its stack frame's.
#ifndef HLOMEM_HLO_STACK_FRAMES_HPP
#define HLOMEM_HLO_STACK_FRAMES_HPP

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include <hlomem/hlo/metadata.hpp>
#include <hlomem/hlo/module.hpp>

namespace hlomem {

/// One frame of a Python stack, from the module's tables.
struct python_frame {
    std::int64_t frame_id = 0;       ///< its id in StackFrames (1-based)
    std::string_view file_name;      ///< FileNames, as written (C escapes kept)
    std::string_view function_name;  ///< FunctionNames; empty when the location names none
    std::int64_t line = 0;
    std::int64_t column = 0;
};

namespace detail {

inline bool frame_table_has(std::int64_t id, std::size_t n) noexcept {
    return id >= 1 && static_cast<std::uint64_t>(id) <= n;
}

/// Frame `frame_id` (which must be in the table) with its location's file, function and line;
/// the parts whose ids are outside their tables are left empty.
template <class P>
python_frame frame_of(basic_stack_frame_index<P> const& index, std::int64_t frame_id) {
    auto const& f = index.stack_frames[static_cast<std::size_t>(frame_id - 1)];
    python_frame pf;
    pf.frame_id = frame_id;
    if (frame_table_has(f.file_location_id, index.file_locations.size())) {
        auto const& l = index.file_locations[static_cast<std::size_t>(f.file_location_id - 1)];
        if (frame_table_has(l.file_name_id, index.file_names.size())) {
            pf.file_name = index.file_names[static_cast<std::size_t>(l.file_name_id - 1)];
        }
        if (frame_table_has(l.function_name_id, index.function_names.size())) {
            pf.function_name = index.function_names[static_cast<std::size_t>(l.function_name_id - 1)];
        }
        pf.line = l.line;
        pf.column = l.column;
    }
    return pf;
}

}  // namespace detail

/// The stack of frame `frame_id`, outermost frame first: the frame and its parent_frame_id chain
/// (StackFrameIndexBuilder::AddCallStackAndGetFirstFrameId, xla/hlo/translate/mhlo_to_hlo/
/// stack_frame_index_builder.cc, adds a call stack from its outermost frame, parent 0, to the
/// op's own, whose id the op's stack_frame_id names; module_builder.hpp has already taken off the
/// one XLA's text adds to each parent).
/// Ids outside the tables end the chain, and so does a cycle: a damaged table gives a shorter
/// stack, never a crash. Empty for 0 or an unknown id.
template <class P>
std::vector<python_frame> python_stack(basic_stack_frame_index<P> const& index, std::int64_t frame_id) {
    std::vector<python_frame> out;
    while (detail::frame_table_has(frame_id, index.stack_frames.size()) && out.size() < index.stack_frames.size()) {
        out.push_back(detail::frame_of(index, frame_id));
        frame_id = index.stack_frames[static_cast<std::size_t>(frame_id - 1)].parent_frame_id;
    }
    return {out.rbegin(), out.rend()};
}

/// A place in a source file: a file (as XLA wrote it, C escapes kept) and a line; `file` empty
/// when the metadata names none.
struct source_position {
    std::string_view file;
    std::int64_t line = 0;

    bool has_line() const noexcept { return !file.empty(); }
};

/// The file and line an instruction's metadata `m` names: its own `source_file="..."
/// source_line=N` when it has them, else the frame its `stack_frame_id=N` names in `frames` (the
/// module's tables; null: none at hand), the innermost of its stack. That frame is the op's own
/// position: StackFrameIndexBuilder::AddCallStackAndGetFirstFrameId (xla/hlo/translate/
/// mhlo_to_hlo/stack_frame_index_builder.cc) returns, for the op's location, the id of the frame
/// it added last (the innermost) with that frame's file and line, which older XLA printed as
/// source_file and source_line:
///
///   auto stack_frame = indexes_.stack_frames(parent_frame_id - 1);
///   auto file_location = indexes_.file_locations(stack_frame.file_location_id() - 1);
///   return {parent_frame_id, indexes_.file_names(file_location.file_name_id() - 1), file_location.line(), ...};
///
/// JAX keeps only the user's frames in the stack it hands XLA, so the innermost is a line of the
/// user's program. An id outside the tables, or a frame whose location names no file, names none.
template <class P, class Q>
source_position metadata_position(basic_hlo_metadata<P> const& m, basic_stack_frame_index<Q> const* frames) {
    std::string_view const own(m.source_file);
    if (!own.empty()) return {own, m.source_line};
    if (!frames || !detail::frame_table_has(m.stack_frame_id, frames->stack_frames.size())) return {};
    auto const f = detail::frame_of(*frames, m.stack_frame_id);
    if (f.file_name.empty()) return {};
    return {f.file_name, f.line};
}

}  // namespace hlomem

#endif  // HLOMEM_HLO_STACK_FRAMES_HPP
