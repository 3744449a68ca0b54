"""Dump.peak_by_source: which lines of the program hold each color's peak (hlo/attribution.hpp).
Every byte live at the peak goes to one value, so each breakdown adds up to the peak exactly."""

import json
import re

import pytest

import hlomem
from conftest import DATA, run_tool

# A module with XLA's stack tables (HloModule::PrintStackFrameIndex), written by hand in their
# format (each parent_frame_id printed one higher than the frame it names): dot.2 is `dense`
# (layers.py:41) called from `forward` (model.py:12) from `<module>`; tanh.3 states only
# stack_frame_id=4, `forward` at model.py:13 called from `<module>`.
MODULE = (DATA / "hand" / "stack_frames.hlo").read_text()


def tree_total(node):
    """The bytes a node's own values hold plus its children's, checked against node['bytes']."""
    total = sum(v["bytes"] for v in node["values"]) + sum(tree_total(c) for c in node["children"])
    assert total == node["bytes"]
    return total


def test_a_module_with_stack_tables():
    dump = hlomem.load(MODULE, name="forward")
    peak = dump.colors[0].peak_live_bytes
    (by_line,) = dump.peak_by_source()
    assert by_line["bytes"] == peak and by_line["color"] == 0
    assert isinstance(by_line, hlomem.PeakSources) and by_line.tree is None and "tree" not in by_line.to_dict()
    assert by_line.bytes == sum(g.bytes for g in by_line.groups) == sum(v.bytes for g in by_line.groups for v in g.values)
    assert sum(g["bytes"] for g in by_line["groups"]) == peak
    lines = {(g["source_file"], g["source_line"]): g for g in by_line["groups"]}
    assert ("/src/layers.py", 41) in lines and ("/src/model.py", 13) in lines
    assert [v["name"] for v in lines[("/src/layers.py", 41)]["values"]] == ["dot.2"]
    assert lines[("/src/layers.py", 41)]["bytes"] == 64 * 64 * 4

    (by_stack,) = dump.peak_by_source(by="stack_frame")
    tree = by_stack["tree"]
    assert by_stack.groups is None and isinstance(by_stack.tree, hlomem.HeldNode) and tree_total(by_stack.to_dict()["tree"]) == peak
    assert tree["name"] == "" and tree_total(tree) == peak
    top = next(c for c in tree["children"] if c["name"] == "<module> (/src/train.py:30)")
    assert [c["name"] for c in top["children"]] == ["forward (/src/model.py:12)", "forward (/src/model.py:13)"]
    assert top["children"][0]["children"][0]["name"] == "dense (/src/layers.py:41)"

    (by_op,) = dump.peak_by_source(by="op_name")
    assert tree_total(by_op["tree"]) == peak
    assert "jit(forward)" in [c["name"] for c in by_op["tree"]["children"]]


@pytest.mark.parametrize("pair", ["scan_window_b", "sternheimer_core_a", "reshard_xfirst"])
def test_real_dumps_with_their_modules_add_up_to_each_peak(in_data, pair):
    base = "corpus/compilations/" + pair
    dump = hlomem.load(base + ".buffer_assignment.txt", module=base + ".after_opt.hlo")
    assert dump.module_file == base + ".after_opt.hlo"
    peaks = {c.color: c.peak_live_bytes for c in dump.colors if c.peak_live_bytes is not None}
    for by in ("source_line", "op_name", "stack_frame"):
        result = dump.peak_by_source(by=by)
        assert {c["color"]: c["bytes"] for c in result} == peaks
        for color in result:
            if by == "source_line":
                sizes = [g["bytes"] for g in color["groups"]]
                assert sum(sizes) == color["bytes"] and sizes == sorted(sizes, reverse=True)
            else:
                assert tree_total(color["tree"]) == color["bytes"]


def test_peak_by_source_refuses_an_unknown_grouping():
    with pytest.raises(ValueError, match="'source_line', 'op_name' or 'stack_frame'"):
        hlomem.load(MODULE).peak_by_source(by="file")


def test_jax_0_11_values_take_the_lines_of_their_stack_frames(in_data):
    # JAX 0.11.2 writes `stack_frame_id=N` and no source_file; the module beside the dump holds the
    # tables. custom-call.3{1}, the 32 MiB cuBLAS workspace, is frame 7: layer (make_pairs.py:18)
    # called from loss_ckpt (:25), grad_ckpt (:35) and <module> (:46).
    dump = hlomem.load("jax_0_11/grad_ckpt-buffer-assignment.txt")
    assert dump.module_file == "jax_0_11/grad_ckpt.txt"
    workspace = next(v for v in dump.values if v.name == "custom-call.3" and v.index == "{1}")
    assert (workspace.source_file, workspace.source_line) == ("/work/main/devcheck/make_pairs.py", 18)
    origin = workspace.origin
    assert origin["kind"] == "own" and origin["source_line"] == 18
    assert [(f["function_name"], f["line"]) for f in origin["stack"]] == [
        ("<module>", 46), ("grad_ckpt", 35), ("loss_ckpt", 25), ("layer", 18)]
    (by_line,) = dump.peak_by_source()
    top = by_line["groups"][0]
    assert (top["source_file"], top["source_line"], top["origin"]) == ("/work/main/devcheck/make_pairs.py", 18, "own")
    assert top["bytes"] == 33554432 + 4 * 4194304 + 16
    # The same key, key for key, as the tool's `report --json`.
    tool = json.loads(run_tool("report", "--json", "jax_0_11/grad_ckpt-buffer-assignment.txt").stdout)
    listed = next(v for v in tool["values"] if v["name"] == "custom-call.3" and v["index"] == "{1}")
    assert listed["origin"] == origin
    # the dump's own line for it: `value: <ID custom-call.3{1} @0> (size=33554432,...)`
    text = (DATA / "jax_0_11" / "grad_ckpt-buffer-assignment.txt").read_text()
    assert workspace.size == int(re.search(r"value: <\d+ custom-call\.3\{1\} @\d+> \(size=(\d+),", text).group(1)) == 33554432
    # and the module gives it frame 7 (`%custom-call.3 = (f32[2048,512]{1,0}, s8[33554432]{0}) ... stack_frame_id=7`)
    assert re.search(r"^\s*%custom-call\.3 = .*stack_frame_id=7\b", (DATA / "jax_0_11" / "grad_ckpt.txt").read_text(), re.M)


# The JAX 0.11 modules name /work/main/devcheck/make_pairs.py; data/jax_0_11/source_root holds a
# stand-in for it (its README), whose line N reads "# line N of a stand-in for make_pairs.py ...".
GRAD_CKPT = DATA / "jax_0_11" / "grad_ckpt-buffer-assignment.txt"
SOURCE_ROOT = DATA / "jax_0_11" / "source_root"


def test_source_roots_give_each_line_its_text():
    dump = hlomem.load(GRAD_CKPT)
    assert dump.source_roots == []
    dump.source_roots = [str(DATA / "no-such-folder")]
    assert all(line.text is None for line in dump.colors[0].peak_by_source)
    dump.source_roots = [str(SOURCE_ROOT)]
    assert dump.source_roots == [str(SOURCE_ROOT)]
    lines = dump.colors[0].peak_by_source
    # The peak's two lines, make_pairs.py:18 (48 MiB) and :26, with the text of those lines.
    assert [(line.source_line, line.text) for line in lines[:2]] == [
        (18, "# line 18 of a stand-in for make_pairs.py (see tests/data/jax_0_11/source_root/README.md)"),
        (26, "# line 26 of a stand-in for make_pairs.py (see tests/data/jax_0_11/source_root/README.md)"),
    ]
    # to_dict() stays the report's row, without the text.
    assert [line.to_dict() for line in lines] == dump.to_dict()["colors"][0]["peak_by_source"]
    page = dump.timeline().html()
    assert '"source_text":["# line 18 of a stand-in' in page
    assert '"source_missing":[]' in page
