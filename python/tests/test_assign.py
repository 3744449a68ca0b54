"""hlomem.assign is `hlomem assign`: the same dump, byte for byte, for every bundled module; the
Dump it returns works as any loaded dump; and diff(assign(m), XLA's own dump) shows where the
prediction and XLA agree."""

import collections
import json
import re
import warnings

import pytest

import hlomem
from conftest import DATA, DumpText, run_tool

# Every bundled optimized module (each with XLA's own dump beside it).
MODULES = sorted(str(p.relative_to(DATA)) for p in DATA.glob("corpus/*/*.after_opt.hlo"))


def test_the_bundled_modules_are_there():
    assert len(MODULES) >= 15


@pytest.mark.parametrize("module", MODULES)
def test_assign_is_the_tools(in_data, module):
    predicted = hlomem.assign(module)
    tool = run_tool("assign", module)
    assert predicted.text == tool.stdout.decode()
    assert predicted.kind == "buffer_assignment" and predicted.name == module
    assert f"hlomem assign: backend {predicted.prediction['backend']} " in tool.stderr.decode()
    # the text as jax gives it: the same dump
    assert hlomem.assign((DATA / module).read_text()).text == predicted.text
    # every Dump method works on it
    assert predicted.check() == []
    assert predicted.total_bytes == int(re.search(r"^Total bytes used: (\d+)", predicted.text, re.M).group(1))
    # against XLA's own dump of the module (read with regexes): each parameter's allocation has the
    # dump's size (`allocation K: size N, parameter P, shape |S| at ShapeIndex I`), and the values
    # listed are the dump's, by name and size (`value: <ID name @P> (size=N,...)`)
    actual = (DATA / module.replace(".after_opt.hlo", ".buffer_assignment.txt")).read_text()
    assert {(a.parameter, a.parameter_shape_index): a.size for a in predicted.allocations if a.parameter is not None} == (
        DumpText(actual).parameters)
    listed = re.compile(r"^\s*value: <\d+ (\S+?)(?: @\d+)?> \(size=(\d+),", re.M)
    assert collections.Counter(listed.findall(predicted.text)) == collections.Counter(listed.findall(actual))
    assert sorted(v.size for v in predicted.values if not v.phi) == sorted(int(size) for _, size in listed.findall(actual))


def test_json_options_and_prediction(in_data):
    module = "corpus/lorrax/lorrax_psum_4gpu.after_opt.hlo"
    predicted = hlomem.assign(hlomem.load(module))
    assert predicted.to_json() == run_tool("assign", "--json", module).stdout.decode()
    assert predicted.prediction.to_dict() == {
        "backend": "gpu", "backend_source": "inferred", "alignment": 256, "algorithm": "best-fit", "module": module,
        "backend_reason": predicted.prediction["backend_reason"]}
    assert "fingerprint_before_lhs" in predicted.prediction["backend_reason"]
    # XLA's dump of it: parameter 0 (`allocation 1: size 4, parameter 0, ...`), 6 values
    stated = DumpText.of("corpus/lorrax/lorrax_psum_4gpu.buffer_assignment.txt")
    assert {(a.parameter, a.size) for a in predicted.allocations if a.parameter is not None} == {
        (p, size) for (p, _), size in stated.parameters.items()}
    assert len([v for v in predicted.values if not v.phi]) == len(stated.value_sizes) == 6
    assert hlomem.load(module).prediction is None

    module = "corpus/lorrax/lorrax_conditional.after_opt.hlo"
    given = hlomem.assign(module, backend="cpu", alignment=256)
    assert given.text == run_tool("assign", "--backend", "cpu", "--alignment", "256", module).stdout.decode()
    assert (given.prediction["backend"], given.prediction["backend_source"], given.prediction["alignment"]) == ("cpu", "given", 256)
    # another of hlomem's allocators for the temp heaps
    other = hlomem.assign(module, algorithm="greedy-by-size")
    assert other.text == run_tool("assign", "--algorithm", "greedy-by-size", module).stdout.decode()
    assert other.prediction["algorithm"] == "greedy-by-size"
    # the allocator changes no parameter: each is XLA's (`allocation K: size N, parameter P ...`)
    stated = DumpText.of("corpus/lorrax/lorrax_conditional.buffer_assignment.txt").parameters
    for assignment in (given, other):
        assert {(a.parameter, a.parameter_shape_index): a.size for a in assignment.allocations if a.parameter is not None} == stated
    assert stated[(0, "{}")] == 230400  # c128[9,40,40]: 14400 elements of 16 bytes


def test_diff_of_the_prediction_and_xlas_dump(in_data, tmp_path):
    # scan_while_phi: the prediction is XLA's assignment (as the CLI test of assign shows) at the
    # alignment of the XLA that wrote the dump, 128 (today's XLA:GPU aligns at 256)
    module = "corpus/lorrax/lorrax_scan_while_phi.after_opt.hlo"
    actual = "corpus/lorrax/lorrax_scan_while_phi.buffer_assignment.txt"
    d = hlomem.diff(hlomem.assign(module, alignment=128), actual)
    text = (DATA / actual).read_text()
    stated = int(re.search(r"^Total bytes used: (\d+)", text, re.M).group(1))
    values = len(set(re.findall(r"^\s*value: <(\d+) ", text, re.M)))
    assert d.total_bytes.to_dict() == {"a": stated, "b": stated, "delta": 0}
    assert (d.matched_values, d.only_in_a, d.only_in_b, d.changes) == (values, 0, 0, 0)
    assert all(c.peak_live_bytes.delta == 0 for c in d.colors)
    # the tool says the same of the prediction written to a file (named otherwise)
    (tmp_path / "predicted.txt").write_text(run_tool("assign", "--alignment", "128", module).stdout.decode())
    tool = json.loads(run_tool("diff", "--json", str(tmp_path / "predicted.txt"), actual).stdout)
    assert d.to_dict() == {**tool, "a": module}


def test_errors(in_data):
    with pytest.raises(ValueError, match="not an HLO module"):
        hlomem.assign("corpus/lorrax/lorrax_psum_4gpu.buffer_assignment.txt")
    module = "corpus/lorrax/lorrax_psum_4gpu.after_opt.hlo"
    with pytest.raises(ValueError, match=r"unknown backend 'npu' \(gpu, cpu or tpu\)"):
        hlomem.assign(module, backend="npu")
    with pytest.raises(ValueError, match="unknown algorithm 'fastest'"):
        hlomem.assign(module, algorithm="fastest")
    with pytest.raises(ValueError, match="power of two"):
        hlomem.assign(module, alignment=96)
    with pytest.raises(ValueError, match="time limit must be a positive number of seconds"):
        hlomem.assign(module, time_limit=0)
    with pytest.raises(hlomem.ParseError) as e:
        hlomem.assign("HloModule broken, is_scheduled=true\n\nENTRY %main {\n  %p = f32[ parameter(0)\n}\n")
    assert e.value.line == 4
    # a module without a schedule: its text order stands in, with a warning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        unscheduled = hlomem.assign("corpus/lorrax/lorrax_iota_tiny.before_opt.hlo")
    assert [str(w.message) for w in caught] == [
        "corpus/lorrax/lorrax_iota_tiny.before_opt.hlo is not scheduled (no is_scheduled=true): its text order stands in "
        "for XLA's schedule"]
    assert unscheduled.text == run_tool("assign", "corpus/lorrax/lorrax_iota_tiny.before_opt.hlo").stdout.decode()
    # its one instruction, `%iota.1 = s64[4]{0} iota()`: 4 elements of 8 bytes, XLA's dump of the
    # optimized module's `Total bytes used: 32`
    assert DumpText.of("corpus/lorrax/lorrax_iota_tiny.buffer_assignment.txt").total == 32
    assert unscheduled.total_bytes == 32 and [(a.size, a.maybe_live_out) for a in unscheduled.allocations] == [(32, True)]
