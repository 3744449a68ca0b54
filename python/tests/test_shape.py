"""hlomem.shape: sizes under XLA's rules, as the C++ library and `hlomem shape` give them."""

import json

import pytest

import hlomem
from conftest import run_tool


def test_the_readme_shape():
    s = hlomem.shape("bf16[4096,3584]{1,0:T(8,128)(2,1)}")
    assert s.padded_bytes == 29360128      # XLA's ShapeUtil::ArraySize
    assert s.byte_size_of == 29360128      # XLA's ShapeUtil::ByteSizeOf
    assert s.unpadded_bytes == 29360128
    assert s.physical == "bf16[512,28,4,128,2,1]"
    assert str(s) == "bf16[4096,3584]{1,0:T(8,128)(2,1)}"
    assert s == hlomem.shape("bf16[4096,3584]{1,0:T(8,128)(2,1)}")


def test_padding_and_elements():
    s = hlomem.shape("pred[64,512,2048]{2,1,0:T(8,128)E(32)}")
    assert s.unpadded_bytes == 67108864
    assert s.padded_bytes > s.unpadded_bytes


@pytest.mark.parametrize("text", ["f32[3,5]{1,0:T(8,128)}", "(f32[8]{0}, s32[])", "f32[29184,1,2560]{2,1,0:T(2,128)}"])
def test_sizes_are_the_tools(text):
    tool = json.loads(run_tool("shape", "--json", text).stdout)[0]
    s = hlomem.shape(text)
    # XLA's rules, worked by hand: elements, 4 bytes each (ShapeUtil::ByteSizeOf), and each minor
    # dimension padded to its tile (T(8,128): [3,5] -> [8,128]; T(2,128): [1,2560] -> [2,2560]); a
    # tuple holds its elements' (8 + 1 elements, 32 + 4 bytes) and a table of 8-byte pointers, one per element
    assert (s.elements, s.unpadded_bytes, s.padded_bytes, s.tuple_table_bytes, s.physical) == {
        "f32[3,5]{1,0:T(8,128)}": (15, 60, 8 * 128 * 4, 0, "f32[1,1,8,128]"),
        "(f32[8]{0}, s32[])": (9, 36, 36, 16, s.physical),
        "f32[29184,1,2560]{2,1,0:T(2,128)}": (29184 * 2560, 29184 * 2560 * 4, 29184 * 2 * 2560 * 4, 0, "f32[29184,1,20,2,128]"),
    }[text]
    assert (s.elements, s.unpadded_bytes, s.byte_size_of, s.padded_bytes, s.physical, s.tuple_table_bytes, str(s)) == (
        tool["elements"], tool["unpadded_bytes"], tool["byte_size_of"], tool["padded_bytes"], tool["physical_shape"],
        tool["tuple_table_bytes"], tool["shape"])


def test_explain_says_where_the_padding_is_and_how_to_remove_it():
    # core/padding.hpp: dimension 1 (extent 1) is padded to the tile's 2; relayout removes it.
    text = hlomem.shape("f32[29184,1,2560]{2,1,0:T(2,128)}").explain()
    assert text.splitlines()[0] == "f32[29184,1,2560]{2,1,0:T(2,128)}"
    assert "f32[29184,1,2560]{2,0,1:T(2,128)}" in text
    assert "fix:" in text
    assert "tuple of 2 arrays" in hlomem.shape("(f32[8]{0}, s32[])").explain()
