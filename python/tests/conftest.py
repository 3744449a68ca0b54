"""What the hlomem Python tests share: the repository's test data and the hlomem tool.

ctest sets HLOMEM_SOURCE_DIR, HLOMEM_TOOL (the tool built with the module) and PYTHONPATH (the
package in the build tree); run by hand, the tool is looked for in build/examples/hlomem. The
tests compare the module with the tool's own output, so a missing tool is a failure, not a skip.

The tool and the module print what one library computes, so their agreeing shows only that both
hand it the same input. DumpText reads what XLA's text states itself, with regexes and no hlomem,
so that each test also asserts the library's values against the dump's own figures.
"""

import os
import pathlib
import re
import subprocess

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("HLOMEM_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
DATA = SOURCE_DIR / "tests" / "data"


def tool_path() -> pathlib.Path:
    tool = pathlib.Path(os.environ.get("HLOMEM_TOOL", SOURCE_DIR / "build" / "examples" / "hlomem"))
    if not tool.is_file():
        pytest.fail(f"the hlomem tool is not built at {tool} (set HLOMEM_TOOL, or build the target hlomem-cli)")
    return tool


def run_tool(*args: str, cwd: pathlib.Path = DATA, check: bool = True) -> subprocess.CompletedProcess:
    """Runs `hlomem ARGS...` in `cwd` (tests/data by default, so that names are relative there)."""
    result = subprocess.run([str(tool_path()), *args], cwd=cwd, capture_output=True)
    if check and result.returncode != 0:
        pytest.fail(f"hlomem {' '.join(args)} exited {result.returncode}: {result.stderr.decode()}")
    return result


@pytest.fixture
def in_data(monkeypatch):
    """Runs the test in tests/data, so that paths (and the names reports print) are relative there."""
    monkeypatch.chdir(DATA)
    return DATA


class DumpText:
    """What a buffer-assignment dump states in its own text, read with regexes, not with hlomem.

    total: the `Total bytes used: N` line (None where the text has none).
    allocations: {K: N} of the `allocation K: size N, ...` lines.
    allocation_values: {K: [ids]} of the `value: <ID name @P>` lines under each allocation.
    value_sizes: {ID: size} of the `(size=N,offset=O)` of those lines. (hlomem adds the phi values of
      conditionals and loops, which these lines do not list: compare them with the values not phi.)
    parameters: {(P, index): N} of the `allocation K: size N, parameter P, shape |S| at ShapeIndex I` lines.
    peak_time, peak_listed: the `Live ranges at T (peak):` line and the sum of the `name: N bytes`
      lines under it (None where the text has none).
    """

    def __init__(self, text: str):
        text = text.replace("\r\n", "\n")
        total = re.search(r"^Total bytes used: (\d+)", text, re.M)
        self.total = int(total.group(1)) if total else None
        assignment = text[: total.start()] if total else text
        self.allocations = {}
        self.allocation_values = {}
        self.value_sizes = {}
        self.parameters = {}
        current = None
        for line in assignment.splitlines():
            a = re.match(r"allocation (\d+): (?:0x[0-9a-f]+, )?size (\d+),", line)  # XLA before 2023 printed an address
            if a:
                current = int(a.group(1))
                self.allocations[current] = int(a.group(2))
                self.allocation_values[current] = []
                p = re.search(r", parameter (\d+), shape (?:\|.*?\||\S+) at ShapeIndex (\{[\d,]*\})[,:]", line)
                if p:
                    self.parameters[(int(p.group(1)), p.group(2))] = int(a.group(2))
                continue
            v = re.match(r"\s*value: <(\d+) \S+(?: @\d+)?> \(size=(\d+),offset=\d+\)", line)
            if v and current is not None:
                self.allocation_values[current].append(int(v.group(1)))
                self.value_sizes[int(v.group(1))] = int(v.group(2))
        # each line `name: N bytes`, newer XLA adding ` (cumulative: M bytes)`
        peak = re.search(r"^\s*Live ranges at (\d+) \(peak\):\n((?:[ \t]+\S+: \d+ bytes.*\n?)*)", text, re.M)
        self.peak_time = int(peak.group(1)) if peak else None
        self.peak_listed = (sum(int(re.match(r"\s+\S+: (\d+) bytes", line).group(1)) for line in peak.group(2).splitlines())
                            if peak else None)

    @classmethod
    def of(cls, path) -> "DumpText":
        return cls((DATA / path).read_text())


def assert_the_dumps_figures(report: dict, text: str) -> set:
    """Asserts a buffer assignment's report (to_dict()) against what its dump's text states: the total,
    each allocation's size and values, each value's size, the stated peak's time and bytes. Returns
    the names of the figures the text carries (and so were compared)."""
    stated = DumpText(text)
    compared = set()
    if stated.total is not None:
        assert report["stated_total_bytes"] == stated.total
        compared.add("total")
    # hlomem's total is the allocations' sizes added up (XLA's, which its line states: they differ only
    # in malformed/ba-total-disagrees.txt)
    assert report["total_bytes"] == (sum(stated.allocations.values()) if stated.allocations else stated.total)
    if stated.allocations:
        assert {a["index"]: a["size"] for a in report["allocations"]} == stated.allocations
        phi = {v["id"] for v in report["values"] if v["phi"]}  # not listed under the allocations
        assert {a["index"]: sorted(set(a["values"]) - phi) for a in report["allocations"]} == {
            k: sorted(ids) for k, ids in stated.allocation_values.items()}
        assert {v["id"]: v["size"] for v in report["values"] if not v["phi"]} == stated.value_sizes
        assert {(a["parameter"], a["parameter_shape_index"]): a["size"] for a in report["allocations"]
                if a["parameter"] is not None} == stated.parameters
        compared.add("allocations")
    if stated.peak_time is not None:
        lr = report["live_range"]
        assert (lr["stated_peak_time"], lr["peak_listed_bytes"]) == (stated.peak_time, stated.peak_listed)
        compared.add("peak")
    return compared


def assert_the_modules_figures(report: dict, text: str) -> None:
    """Asserts an HLO module's report against its text: the `HloModule NAME` line, its header's
    is_scheduled=true and num_partitions=N (1 when absent), the computations (`[ENTRY] name ... {` lines)."""
    header = text.split("\n", 1)[0]
    assert report["name"] == re.match(r"HloModule ([^\s,]+)", header).group(1)
    assert report["is_scheduled"] == ("is_scheduled=true" in header)
    partitions = re.search(r"num_partitions=(\d+)", header)
    assert report["num_partitions"] == (int(partitions.group(1)) if partitions else 1)
    assert report["computations"] == len(re.findall(r"^(?:ENTRY )?%?[\w.\-]+(?: \(.*\) -> .*)? \{\s*$", text, re.M))


def assert_the_usage_reports_figures(report: dict, text: str) -> None:
    """Asserts a memory-usage report's report against its text: `Total bytes used: N` (`Total bytes: N`
    in newer XLA) and the `allocation K: size S,` rows of its first table, in its order."""
    assert report["total_bytes"] == int(re.search(r"^Total bytes(?: used)?: (\d+)", text, re.M).group(1))
    table = text.split("Allocations sorted by size with their values")[0]
    assert [(a["index"], a["size"]) for a in report["allocations"]] == [
        (int(k), size) for k, size in re.findall(r"; allocation (\d+): size ([^,]+),", table)]
