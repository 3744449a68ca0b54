// Python stacks from a module's StackFrames tables (hlo/stack_frames.hpp): a damaged table or a
// parent printed out of range ends the stack, and the line an instruction's metadata names.
#include <hlomem/hlo/stack_frames.hpp>

#include <catch2/catch.hpp>

#include <hlomem/hlomem.hpp>

TEST_CASE("a damaged stack table ends the stack, never loops", "[attribution]") {
    hlomem::stack_frame_index index;
    index.file_names.push_back("a.py");
    index.file_locations.push_back({1, 7, 3, 3, 0, 0});  // function 7 does not exist
    index.stack_frames.push_back({1, 2});
    index.stack_frames.push_back({5, 1});  // a cycle 1 -> 2 -> 1, and location 5 does not exist
    auto const stack = hlomem::python_stack(index, 1);
    CHECK(stack.size() == 2);
    CHECK(stack[1].file_name == "a.py");
    CHECK(stack[1].function_name.empty());
    CHECK(stack[0].file_name.empty());
    CHECK(hlomem::frame_label(stack[1]) == "a.py:3");
}

TEST_CASE("a printed parent_frame_id of 0 or past the table ends the stack there", "[attribution]") {
    // XLA prints each parent one higher than it is, so it never prints 0, nor a parent past the
    // table; such a frame is the last of its stack.
    auto const m = hlomem::parse_hlo_module(R"(HloModule bad_frames, entry_computation_layout={(f32[4]{0})->f32[4]{0}}

FileNames
1 "a.py"

FunctionNames
1 "f"

FileLocations
1 {file_name_id=1 function_name_id=1 line=3 end_line=3 column=0 end_column=4}
2 {file_name_id=1 function_name_id=1 line=7 end_line=7 column=0 end_column=4}

StackFrames
1 {file_location_id=1 parent_frame_id=0}
2 {file_location_id=2 parent_frame_id=2}
3 {file_location_id=2 parent_frame_id=9}


ENTRY %main (p: f32[4]) -> f32[4] {
  ROOT %p = f32[4]{0} parameter(0)
}
)");
    auto const& index = m.stack_frame_index();
    REQUIRE(index.stack_frames.size() == 3);
    CHECK(index.stack_frames[0].parent_frame_id == -1);
    CHECK(index.stack_frames[2].parent_frame_id == 8);
    auto const two = hlomem::python_stack(index, 2);
    REQUIRE(two.size() == 2);  // frame 1's printed 0 ends the chain after it
    CHECK(two[0].line == 3);
    CHECK(two[1].line == 7);
    auto const three = hlomem::python_stack(index, 3);
    REQUIRE(three.size() == 1);
    CHECK(three[0].frame_id == 3);
}

TEST_CASE("hlo/stack_frames: metadata_position takes the metadata's own line, else its frame's", "[stack_frames]") {
    // XLA's rule (StackFrameIndexBuilder::AddCallStackAndGetFirstFrameId, stack_frame_index_builder.cc):
    // a frame names file_names[file_location.file_name_id - 1] at file_location.line; older XLA
    // printed that pair as the metadata's own source_file / source_line, which come first.
    hlomem::stack_frame_index index;
    index.file_names.push_back("a.py");
    index.file_locations.push_back({1, 1, 3, 3, 0, 0});  // a.py:3
    index.file_locations.push_back({9, 1, 5, 5, 0, 0});  // file 9 is not in the table
    index.stack_frames.push_back({1, 0});
    index.stack_frames.push_back({2, 1});
    hlomem::hlo_metadata md;
    md.stack_frame_id = 1;
    auto const framed = hlomem::metadata_position(md, &index);
    CHECK(framed.file == "a.py");
    CHECK(framed.line == 3);
    CHECK(framed.has_line());
    md.stack_frame_id = 2;  // its location names no file: no line
    CHECK_FALSE(hlomem::metadata_position(md, &index).has_line());
    md.stack_frame_id = 0;  // none
    CHECK_FALSE(hlomem::metadata_position(md, &index).has_line());
    md.stack_frame_id = -4;  // damaged: outside the table, never an index
    CHECK_FALSE(hlomem::metadata_position(md, &index).has_line());
    md.stack_frame_id = 1;
    md.source_file = "b.py";
    md.source_line = 8;
    auto const own = hlomem::metadata_position(md, &index);
    CHECK(own.file == "b.py");
    CHECK(own.line == 8);
    CHECK(hlomem::python_stack(index, -1).empty());
}
