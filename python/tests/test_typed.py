"""The typed objects (Dump.values, .allocations, .colors, .warnings, .peak; Timeline.colors) are built
from the C++ model, not from JSON text, and each one's to_dict() is exactly its piece of what
`hlomem report --json` prints: checked on every text under tests/data that the report reads."""

import importlib.util
import json
import os
import pathlib
import re

import pytest

import hlomem
from conftest import (DATA, DumpText, assert_the_dumps_figures, assert_the_modules_figures, assert_the_usage_reports_figures,
                      run_tool)

REPORTED_KINDS = {"buffer_assignment", "live_range", "memory_usage_report", "hlo_module"}


def reported_files():
    """Every file under tests/data that hlomem.load reads as a kind `hlomem report` reports."""
    found = []
    for root, _, files in os.walk(DATA):
        for name in files:
            path = pathlib.Path(root, name)
            try:
                kind = hlomem.load(path).kind
            except (ValueError, OSError):
                continue  # a text no reader takes (the malformed inputs of the error tests, READMEs, ...)
            if kind in REPORTED_KINDS:
                found.append(str(path.relative_to(DATA)))
    return sorted(found)


REPORTED = reported_files()


def test_the_walk_finds_every_kind():
    # the 73 real texts of test_report plus the synthetic and hand-written ones
    assert len(REPORTED) >= 100
    assert {hlomem.load(DATA / f).kind for f in REPORTED} == REPORTED_KINDS


def check_values(dump, report):
    values = dump.values
    assert [v.to_dict() for v in values] == report["values"]
    assert values[0] is dump.values[0] if values else True  # made once
    for v, row in zip(values[:40], report["values"][:40]):
        assert {key: getattr(v, key) for key in row} == row
        assert repr(v).startswith(f"<hlomem.LogicalValue id={row['id']} name='")


def check_allocations(dump, report):
    allocations = dump.allocations
    assert [a.to_dict() for a in allocations] == report["allocations"]
    by_id = {v.id: v for v in dump.values}
    for a, row in zip(allocations, report["allocations"]):
        assert all(isinstance(v, hlomem.LogicalValue) for v in a.values)
        assert [v.id for v in a.values] == row["values"]
        assert all(by_id[v.id] is v for v in a.values)
        assert {key: getattr(a, key) for key in row if key != "values"} == {k: row[k] for k in row if k != "values"}
        if "parameter_shape" not in row:
            assert a.parameter_shape is None and a.parameter_shape_index is None


def check_colors(dump, report):
    colors = dump.colors
    assert [c.to_dict() for c in colors] == report["colors"]
    for c, row in zip(colors, report["colors"]):
        assert (c.color, c.allocated_bytes, c.peak_live_bytes) == (row["color"], row["allocated_bytes"], row["peak_live_bytes"])
        assert [g.to_dict() for g in c.peak_by_source] == row["peak_by_source"]
        if row["peak_by_op_name"] is None:
            assert c.peak_by_op_name is None and c.peak_by_stack_frame is None
        else:
            assert c.peak_by_op_name.bytes == row["peak_by_op_name"]["bytes"]
            assert [n.name for n in c.peak_by_stack_frame.children] == [n["name"] for n in row["peak_by_stack_frame"]["children"]]


def check_peak(dump, report):
    peak, lr = dump.peak, report["live_range"]
    if lr is None or "peak_time" not in lr:
        assert peak is None
        return
    assert peak.to_dict() == {
        "time": lr["peak_time"], "instruction": peak.instruction, "bytes": lr["peak_bytes"], "listed_bytes": lr["peak_listed_bytes"],
        "rule": lr["peak_rule"], "stated_time": lr["stated_peak_time"], "matches_stated": lr["peak_matches_stated"],
        "values": lr["peak_values"]}
    # the instruction at the peak's time in the sequence XLA prints (HloLiveRange)
    assert f"\n    {peak.time}:{peak.instruction}\n" in dump.liveness()


def assert_the_texts_figures(dump, expected, text) -> set:
    """The report's figures against the text's own (conftest: regexes, not hlomem); returns those compared."""
    if dump.kind == "buffer_assignment":
        return assert_the_dumps_figures(expected, text)
    if dump.kind == "memory_usage_report":
        assert_the_usage_reports_figures(expected, text)
        return {"total"}
    if dump.kind == "live_range":
        stated = DumpText(text)
        if stated.peak_time is None:
            return set()
        # the `Live ranges at T (peak):` line and the `name: N bytes` lines under it
        assert (expected["stated_peak_time"], expected["stated_peak_values"]) == (
            stated.peak_time, len(re.findall(r"^[ \t]+\S+: \d+ bytes", text.split("(peak):", 1)[1].split("\n\n", 1)[0], re.M)))
        return {"peak"}
    for module, module_text in zip(expected if isinstance(expected, list) else [expected], re.split(r"\n(?=HloModule )", text)):
        assert_the_modules_figures(module, module_text)
    return {"module"}


def test_the_texts_figures_are_compared_on_many_files(in_data):
    compared = {}
    for name in REPORTED:
        dump = hlomem.load(name)
        for figure in assert_the_texts_figures(dump, dump.to_dict(), (DATA / name).read_text()):
            compared[figure] = compared.get(figure, 0) + 1
    assert compared["total"] >= 40 and compared["allocations"] >= 30 and compared["peak"] >= 30, compared
    assert compared["module"] >= 30, compared


@pytest.mark.parametrize("name", REPORTED)
def test_typed_objects_are_the_tools_json(in_data, name):
    expected = json.loads(run_tool("report", "--json", name).stdout)
    dump = hlomem.load(name)
    assert dump.to_dict() == expected
    assert_the_texts_figures(dump, expected, (DATA / name).read_text())
    if dump.kind in ("live_range", "memory_usage_report") or isinstance(expected, list):
        # no buffer assignment (or several modules): the typed collections say so, as the report's
        # assignment does
        for attribute in ("values", "allocations", "colors", "warnings", "peak"):
            with pytest.raises(ValueError, match="holds no buffer assignment|modules; the buffer assignment"):
                getattr(dump, attribute)
        return
    # a dump's report is its assignment's; a module's assignment is the one derived from it
    report = expected if dump.kind == "buffer_assignment" else dump.assignment_dict
    assert report["kind"] == "buffer_assignment"
    check_values(dump, report)
    check_allocations(dump, report)
    check_colors(dump, report)
    assert [w.to_dict() for w in dump.warnings] == report["warnings"]
    check_peak(dump, report)
    if dump.peak is not None:
        timeline = dump.timeline()
        assert [c.to_dict() for c in timeline.colors] == timeline.to_dict()["colors"]


def test_values_frame_needs_pandas_only_when_asked(in_data):
    dump = hlomem.load("seeds/002_b0117d631587537a.txt")
    if importlib.util.find_spec("pandas") is None:
        with pytest.raises(ImportError, match="needs pandas, which is not installed"):
            dump.values_frame()
    else:
        frame = dump.values_frame()
        assert list(frame.columns) == list(dump.values[0].to_dict())
        assert frame["id"].tolist() == [v.id for v in dump.values]
        assert frame["name"].tolist() == [v.name for v in dump.values]
        assert int(frame["size"].sum()) == sum(v.size for v in dump.values)


def test_a_value_outlives_its_dump(in_data):
    # The objects hold the model, not the Dump: its text stays alive as long as they do.
    text = (DATA / "seeds" / "002_b0117d631587537a.txt").read_text()
    expected = hlomem.load(text).to_dict()["values"][-1]
    value = hlomem.load("".join([text])).values[-1]
    assert value.to_dict() == expected
