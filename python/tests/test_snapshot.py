"""hlomem.snapshot is `hlomem snapshot`, byte for byte; hlomem.diff takes a snapshot on either side as
`hlomem diff` does; hlomem.assert_memory writes a missing snapshot, passes while memory stays
within its tolerance, fails with the gate's failures and the verdict when it grew past it, and
writes the snapshot again when asked (update=True or HLOMEM_UPDATE_SNAPSHOTS=1).

The pair: tests/data/corpus/compilations/scan_window_b and scan_window_a, one program compiled
twice; from b to a the peak of color 0 grows by 463688 bytes, +0.17% (tests/cli/cli_tests.cmake)."""

import json

import pytest

import hlomem
from conftest import DATA, DumpText, run_tool

PAIRS = "corpus/compilations"
BASE = f"{PAIRS}/scan_window_b.buffer_assignment.txt"
GROWN = f"{PAIRS}/scan_window_a.buffer_assignment.txt"


class Compiled:
    """What assert_memory reads of a jax.stages.Compiled: as_text()."""

    def __init__(self, path):
        self.text = (DATA / path).read_text()

    def as_text(self):
        return self.text


def test_snapshot_is_the_tool_s(in_data):
    assert hlomem.snapshot(BASE).to_json() == run_tool("snapshot", BASE).stdout.decode()
    assert hlomem.snapshot(Compiled(BASE)).to_json() == hlomem.snapshot(hlomem.load(BASE)).to_json()
    s = hlomem.snapshot(BASE).to_dict()
    assert s["kind"] == "hlomem_snapshot" and s["format_version"] == 1
    assert s["total_bytes"] == hlomem.load(BASE).to_dict()["total_bytes"]
    assert s["total_bytes"] == DumpText.of(BASE).total == 268297668  # the dump's "Total bytes used: 268297668"


def test_diff_with_a_snapshot_side_is_the_tool_s(in_data, tmp_path):
    path = tmp_path / "base.hlomem.json"
    hlomem.snapshot(BASE).save(path)
    d = hlomem.diff(path, GROWN)
    assert d.a is None and d.b is None
    assert len(d.not_compared) == 3
    full = hlomem.diff(BASE, GROWN)
    assert d.verdict[0] == full.verdict[0]
    assert [c.peak_live_bytes.delta for c in d.colors] == [c.peak_live_bytes.delta for c in full.colors] == [463688]
    assert d.to_json() == run_tool("diff", "--json", str(path), GROWN).stdout.decode()
    # the totals are the dumps' "Total bytes used" lines, 268297668 and 268761356
    assert (d.total_bytes.a, d.total_bytes.b) == (DumpText.of(BASE).total, DumpText.of(GROWN).total) == (268297668, 268761356)
    assert d.gate("0.1%") == ["the peak of color 0 grew by 463688 bytes (+0.17%), more than --fail-above allows"]
    assert d.gate("1%") == []
    markdown = d.markdown(rows=3, fail_above="0.1%")
    assert markdown == run_tool("diff", "--format", "markdown", "--rows", "3", "--fail-above", "0.1%", str(path), GROWN,
                                check=False).stdout.decode()
    assert "**Gate: failed.**\n\n- the peak of color 0 grew by 463688 bytes (+0.17%)" in markdown
    assert markdown.endswith("".join(f"- {line}\n" for line in d.not_compared))
    with pytest.raises(ValueError, match="snapshot"):
        d.html()


def test_assert_memory_writes_a_missing_snapshot_then_passes(in_data, tmp_path, monkeypatch):
    monkeypatch.delenv("HLOMEM_UPDATE_SNAPSHOTS", raising=False)
    path = tmp_path / "memory" / "step.hlomem.json"
    assert hlomem.assert_memory(Compiled(BASE), path) is None
    assert json.loads(path.read_text())["total_bytes"] == hlomem.load(BASE).to_dict()["total_bytes"]
    result = hlomem.assert_memory(Compiled(BASE), path)
    assert result.verdict[0].startswith("no change in memory")
    assert hlomem.assert_memory(Compiled(GROWN), path, tolerance="1%") is not None


def test_assert_memory_fails_with_the_verdict(in_data, tmp_path, monkeypatch):
    monkeypatch.delenv("HLOMEM_UPDATE_SNAPSHOTS", raising=False)
    path = tmp_path / "step.hlomem.json"
    hlomem.assert_memory(BASE, path)
    with pytest.raises(AssertionError) as failure:
        hlomem.assert_memory(GROWN, path, tolerance="0.1%")
    message = str(failure.value)
    assert "the peak of color 0 grew by 463688 bytes (+0.17%), more than --fail-above allows" in message
    assert hlomem.diff(BASE, GROWN).verdict[0] in message
    with pytest.raises(AssertionError, match="the peak of color 0 grew by 463688 bytes"):
        hlomem.assert_memory(GROWN, path, tolerance=463687)
    hlomem.assert_memory(GROWN, path, tolerance=463688)


def test_assert_memory_updates_when_asked(in_data, tmp_path, monkeypatch):
    path = tmp_path / "step.hlomem.json"
    hlomem.assert_memory(BASE, path)
    base = path.read_text()
    monkeypatch.delenv("HLOMEM_UPDATE_SNAPSHOTS", raising=False)
    assert hlomem.assert_memory(GROWN, path, tolerance="0.1%", update=True) is None
    assert path.read_text() == hlomem.snapshot(GROWN).to_json() != base
    path.write_text(base)
    monkeypatch.setenv("HLOMEM_UPDATE_SNAPSHOTS", "1")
    assert hlomem.assert_memory(GROWN, path, tolerance="0.1%") is None
    assert path.read_text() == hlomem.snapshot(GROWN).to_json()
    monkeypatch.setenv("HLOMEM_UPDATE_SNAPSHOTS", "0")
    hlomem.assert_memory(GROWN, path, tolerance="0.1%")  # the snapshot is GROWN's now


def test_a_broken_snapshot_says_where(in_data, tmp_path):
    path = tmp_path / "bad.hlomem.json"
    path.write_text('{\n  "format_version": 1,\n}\n')
    with pytest.raises(ValueError, match="line 3, column 1"):
        hlomem.diff(path, BASE)
