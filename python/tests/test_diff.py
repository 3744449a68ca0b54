"""hlomem.diff is `hlomem diff`: the same JSON, text and page, byte for byte, on the bundled pairs of
compilations (tests/data/corpus/compilations: one program compiled twice), from paths, texts and
loaded Dumps; its properties are the JSON's, and the totals are the dumps' own."""

import json
import pathlib
import re

import pytest

import hlomem
from conftest import DATA, run_tool

PAIRS = "corpus/compilations"
# (A, B, top): dumps of the resharding in two orders, a module's derived assignment against its
# own dump, two modules of the scan windows (renamed fusions), B's window against A's with --top 3.
CASES = [
    (f"{PAIRS}/reshard_xfirst.buffer_assignment.txt", f"{PAIRS}/reshard_yfirst.buffer_assignment.txt", None),
    (f"{PAIRS}/reshard_xfirst.after_opt.hlo", f"{PAIRS}/reshard_xfirst.buffer_assignment.txt", None),
    (f"{PAIRS}/scan_window_a.after_opt.hlo", f"{PAIRS}/scan_window_b.after_opt.hlo", None),
    (f"{PAIRS}/scan_window_b.buffer_assignment.txt", f"{PAIRS}/scan_window_a.buffer_assignment.txt", 3),
]


def stated_total(path: str) -> int:
    """`Total bytes used: N` as the dump states it."""
    return int(re.search(r"^Total bytes used: (\d+)", (DATA / path).read_text(), re.M).group(1))


def value_count(path: str) -> int:
    """The logical values a dump lists (`value: <ID name @0>` lines, each id once)."""
    return len(set(re.findall(r"^\s*value: <(\d+) ", (DATA / path).read_text(), re.M)))


@pytest.mark.parametrize("a, b, top", CASES)
def test_diff_is_the_tools(in_data, tmp_path, a, b, top):
    options = [] if top is None else ["--top", str(top)]
    d = hlomem.diff(a, b) if top is None else hlomem.diff(a, b, top=top)
    assert d.to_json() == run_tool("diff", "--json", *options, a, b).stdout.decode()
    assert d.report() == run_tool("diff", *options, a, b).stdout.decode()
    page = tmp_path / "tool.html"
    run_tool("diff", "-o", str(page), *options, a, b)
    d.save_page(tmp_path / "module.html")
    assert (tmp_path / "module.html").read_bytes() == page.read_bytes()
    assert d.page() == d.html() == page.read_text()  # html() and save(): page()'s names before 0.11

    # The properties are the JSON's.
    report = d.to_dict()
    assert report == json.loads(run_tool("diff", "--json", *options, a, b).stdout)
    assert (report["kind"], report["a"], report["b"]) == ("diff", a, b)
    assert d.verdict == report["verdict"] and d.verdict
    assert isinstance(d.total_bytes, hlomem.BytePair) and d.total_bytes.to_dict() == report["total_bytes"]
    assert d.total_bytes.delta == d.total_bytes.b - d.total_bytes.a
    # typed colors, built from the diff itself, are the JSON's
    assert all(isinstance(c, hlomem.DiffColor) for c in d.colors)
    assert [c.to_dict() for c in d.colors] == report["colors"]
    for color, row in zip(d.colors, report["colors"]):
        assert (color.color, color.peak_live_bytes.b, color.peak_time.a) == (row["color"], row["peak_live_bytes"]["b"], row["peak_time"]["a"])
        assert [k.to_dict() for k in color.allocated_by_kind] == row["allocated_by_kind"]
        assert [line.values_a for line in color.peak_by_source] == [line["values_a"] for line in row["peak_by_source"]]
    assert d.matched_values == len(report["matched_values"]) == report["matching"]["matched"]
    assert d.only_in_a == len(report["only_in_a"]) and d.only_in_b == len(report["only_in_b"])
    assert d.changes == len(report["changes"])
    assert d.matched_values + d.only_in_a == report["matching"]["a_values"]
    assert d.matched_values + d.only_in_b == report["matching"]["b_values"]
    assert isinstance(d.a, hlomem.Dump) and isinstance(d.b, hlomem.Dump)

    # The figures of each side that is XLA's dump are the dump's own (its `Total bytes used: N` line,
    # its `value:` lines); a module's side is compared with XLA's dump of it where one lies beside it.
    for side, path in (("a", a), ("b", b)):
        dump_path = path if path.endswith(".txt") else path.replace(".after_opt.hlo", ".buffer_assignment.txt")
        assert report["matching"][f"{side}_values"] == value_count(dump_path)
        if path.endswith(".txt"):
            assert getattr(d.total_bytes, side) == stated_total(path)


def test_the_totals_are_the_dumps_own(in_data):
    a, b = CASES[0][0], CASES[0][1]
    d = hlomem.diff(a, b)
    # 3666346368 and 2618818944 bytes, as the two dumps state them
    assert d.total_bytes.to_dict() == {"a": stated_total(a), "b": stated_total(b), "delta": stated_total(b) - stated_total(a)}
    assert (d.total_bytes.a, d.total_bytes.b) == (3666346368, 2618818944)
    # scan_window_a's dump has one value more than scan_window_b's (a loop_add_fusion), which
    # nothing of B matches; the rest are matched one to one
    a, b = f"{PAIRS}/scan_window_a.buffer_assignment.txt", f"{PAIRS}/scan_window_b.buffer_assignment.txt"
    d = hlomem.diff(a, b)
    assert (value_count(a), value_count(b)) == (d.matched_values + 1, d.matched_values)
    assert (d.only_in_a, d.only_in_b) == (1, 0)
    assert d.to_dict()["only_in_a"][0]["name"].startswith("loop_add_fusion")
    # a dump against itself: every value matched, nothing changed
    same = f"{PAIRS}/sternheimer_core_a.buffer_assignment.txt"
    d = hlomem.diff(same, same)
    assert (d.matched_values, d.only_in_a, d.only_in_b, d.changes) == (value_count(same), 0, 0, 0)
    assert d.total_bytes.delta == 0


def test_any_input_load_takes(in_data):
    a, b = CASES[1][0], CASES[1][1]
    expected = hlomem.diff(a, b).to_dict()
    # loaded Dumps, pathlib paths: named by their files as the tool names them
    assert hlomem.diff(hlomem.load(a), pathlib.Path(b)).to_dict() == expected
    # the texts themselves (str, bytes): named '<text>'
    d = hlomem.diff((DATA / a).read_text(), (DATA / b).read_bytes())
    got = d.to_dict()
    assert (got["a"], got["b"]) == ("<text>", "<text>")
    assert {**got, "a": a, "b": b} == expected
    # a Diff keeps what it compares alive
    del d
    d = hlomem.diff(hlomem.load((DATA / a).read_text()), hlomem.load((DATA / b).read_text()))
    import gc

    gc.collect()
    assert d.to_dict()["verdict"] == expected["verdict"]


def test_inline_and_errors(in_data, tmp_path):
    d = hlomem.diff(CASES[0][0], CASES[0][1])
    html = d._repr_html_()
    assert html.startswith("<iframe class=\"hlomem-diff\" sandbox=\"allow-scripts\"")
    assert "srcdoc=\"&lt;!DOCTYPE html&gt;" in html and "<script" not in html
    assert repr(d).startswith(f"<hlomem.Diff A '{CASES[0][0]}' B '{CASES[0][1]}'\n  {d.verdict[0]}")
    with pytest.raises(ValueError, match="name it .html"):
        d.save(tmp_path / "diff.svg")
    # what holds no buffer assignment, as the tool refuses it
    with pytest.raises(ValueError, match="holds no buffer assignment"):
        hlomem.diff("synthetic/newest_simple-live-range.txt", CASES[0][0])
    with pytest.raises(FileNotFoundError):
        hlomem.diff(f"{PAIRS}/nonexistent.txt", CASES[0][0])
    with pytest.raises(TypeError):
        hlomem.diff(3, CASES[0][0])


CHOL_A = "corpus/regressions/jit__batched_chol_06a294ff.buffer_assignment.txt"
CHOL_B = "corpus/regressions/jit__batched_chol_68697f6f.buffer_assignment.txt"
ROOT_A = "/global/homes/j/jackm/software/lorrax_B"
ROOT_B = "/pscratch/sd/j/jackm/lorrax_sandbox/sources/lorrax_D"


@pytest.mark.parametrize("strip_roots", [[], [ROOT_A, ROOT_B + "/"]])
def test_two_checkouts_are_one_file(in_data, tmp_path, strip_roots):
    """jit__batched_chol built from two checkouts (cholesky_2d.py under lorrax_B and lorrax_D):
    one row per source line in the JSON, the text and the page, as the tool prints them; line
    204's bytes are the dumps' (tests/unit/diff/source_files.test.cpp adds them up)."""
    options = [arg for root in strip_roots for arg in ("--strip-root", root)]
    d = hlomem.diff(CHOL_A, CHOL_B, strip_roots=strip_roots)
    assert d.to_json() == run_tool("diff", "--json", *options, CHOL_A, CHOL_B).stdout.decode()
    assert d.report() == run_tool("diff", *options, CHOL_A, CHOL_B).stdout.decode()
    rows = d.to_dict()["colors"][0]["peak_by_source"]
    # Argument 0 (all_C_q), the loop state it feeds and the copies of it (hlo/origin.hpp), then
    # the lines; 16 bytes have no source.
    file = "src/common/cholesky_2d.py"
    assert [(r["relative_file"], r["source_line"], r["argument"]) for r in rows] == [
        (None, None, 0), (file, 253, None), (file, 204, None), (file, 161, None), (None, None, None),
        (file, 221, None), (file, 133, None)]
    line = rows[2]
    assert (line["a"], line["b"], line["delta"]) == (4608016, 8192016, 3584000)
    if strip_roots:
        assert line["source_file"] == line["source_file_b"] == "src/common/cholesky_2d.py"
    else:
        assert line["source_file"] == ROOT_A + "/src/common/cholesky_2d.py"
        assert line["source_file_b"] == ROOT_B + "/src/common/cholesky_2d.py"
    assert [c.to_dict() for c in d.colors] == d.to_dict()["colors"]
    assert d.colors[0].peak_by_source[1].relative_file == "src/common/cholesky_2d.py"
    assert d.report().count("src/common/cholesky_2d.py:204 ") == 1
    page = d.html()
    assert page.count(">src/common/cholesky_2d.py:204<") == 1
    assert "lorrax_B/src" not in page.split("the peak by source line", 1)[1].split("</table>", 1)[0]


def test_report_strip_root(in_data):
    """Dump.report and to_json with strip_roots are `hlomem report --strip-root`; without, unchanged."""
    dump = hlomem.load(CHOL_A)
    assert dump.report(strip_roots=[ROOT_A]) == run_tool("report", "--strip-root", ROOT_A, CHOL_A).stdout.decode()
    assert dump.to_json(strip_roots=[ROOT_A]) == run_tool("report", "--json", "--strip-root", ROOT_A, CHOL_A).stdout.decode()
    assert dump.to_json() == run_tool("report", "--json", CHOL_A).stdout.decode()
    assert ROOT_A not in dump.to_json(strip_roots=[ROOT_A])
    assert dump.total_bytes == stated_total(CHOL_A) == 123496255  # the dump's "Total bytes used: 123496255"
    assert ROOT_A in dump.to_json()


def test_knobs(in_data):
    # grad_ckpt is grad_plain with every layer under jax.checkpoint (tests/data/jax_0_11): its
    # recomputation is named by JAX (`.../checkpoint/rematted_computation/tanh`), and a tanh layer
    # keeps its output either way, so the saved residuals stay at four 4 MiB activations.
    d = hlomem.diff("jax_0_11/grad_plain-buffer-assignment.txt", "jax_0_11/grad_ckpt-buffer-assignment.txt")
    assert [k.knob for k in d.knobs] == [k["knob"] for k in d.to_dict()["knobs"]]
    (remat,) = [k for k in d.knobs if k.knob == "remat"]
    assert remat.effect == "no_effect"
    assert "A 4 values (16.00MiB), B 4 values (16.00MiB)" in remat.text
    assert {"side": "b", "name": "wrapped_tanh.4"}.items() <= next(v for v in remat.values if v["name"] == "wrapped_tanh.4").items()
    assert repr(remat).startswith("<hlomem.Knob remat: no effect, ")
    assert d.report().split("\n")[1].startswith("  knob ")
