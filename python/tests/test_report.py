"""Dump.to_dict() is exactly what `hlomem report --json` prints, for every bundled real dump and module."""

import gc
import json
import re

import pytest

import hlomem
from conftest import (DATA, DumpText, assert_the_dumps_figures, assert_the_modules_figures, assert_the_usage_reports_figures,
                      run_tool)

# Every real XLA text bundled with the tests that `hlomem report` reads: the seed dumps and modules,
# the corpus' modules, dumps and memory-usage reports, and a dump whose live ranges are a sibling file.
REAL = sorted(
    str(p.relative_to(DATA))
    for p in [*DATA.glob("seeds/*.txt"), *DATA.glob("corpus/*/*.hlo"), *DATA.glob("corpus/*/*.txt"),
              DATA / "synthetic" / "newest_simple-buffer-assignment.txt", DATA / "hand" / "two_modules.hlo"]
    if p.name != "README.md"
)


def test_the_bundled_dumps_are_all_there():
    # 5 seeds, the corpus' 66 texts and the two above: a glob that finds nothing must not pass.
    assert len(REAL) >= 73
    kinds = {hlomem.load(DATA / f).kind for f in REAL}
    assert kinds == {"buffer_assignment", "hlo_module", "memory_usage_report"}


@pytest.mark.parametrize("name", REAL)
def test_to_dict_is_the_tools_json(in_data, name):
    expected = run_tool("report", "--json", name).stdout.decode()
    dump = hlomem.load(name)
    assert dump.to_json() == expected
    assert dump.to_dict() == json.loads(expected)
    # and the figures are the text's own (conftest: read with regexes, not hlomem)
    report, text = dump.to_dict(), (DATA / name).read_text()
    if dump.kind == "buffer_assignment":
        assert "total" in assert_the_dumps_figures(report, text)
        assert report["total_bytes"] == DumpText(text).total  # each real dump's allocations add up to its total
    elif dump.kind == "memory_usage_report":
        assert_the_usage_reports_figures(report, text)
    else:
        for module, module_text in zip(report if isinstance(report, list) else [report], re.split(r"\n(?=HloModule )", text)):
            assert_the_modules_figures(module, module_text)


def test_the_figures_compared_cover_the_bundled_dumps(in_data):
    # the comparisons above ran on dumps that state each figure: a total, allocations, a peak
    compared = {"total": 0, "allocations": 0, "peak": 0}
    for name in REAL:
        dump = hlomem.load(name)
        if dump.kind == "buffer_assignment":
            for figure in assert_the_dumps_figures(dump.to_dict(), (DATA / name).read_text()):
                compared[figure] += 1
    assert compared["total"] >= 25 and compared["allocations"] >= 25 and compared["peak"] >= 25, compared
    # seeds/002 as its dump states it: 10 allocations, `Total bytes used: 2885767252`, peak at 78
    stated = DumpText.of("seeds/002_b0117d631587537a.txt")
    assert (len(stated.allocations), stated.total, stated.peak_time) == (10, 2885767252, 78)


@pytest.mark.parametrize("name", ["seeds/002_b0117d631587537a.txt", "seeds/004_c00fd3afea504246.txt",
                                  "corpus/lorrax/lorrax_scan_while_phi.buffer_assignment.txt"])
def test_text_as_str_or_bytes_reads_as_the_file_does(in_data, name):
    data = (DATA / name).read_bytes()
    from_file = hlomem.load(name).to_dict()
    assert hlomem.load(data, name=name).to_dict() == from_file
    assert hlomem.load(data.decode(), name=name).to_dict() == from_file
    assert hlomem.load(bytearray(data), name=name).to_dict() == from_file


def test_text_report_is_the_tools(in_data):
    name = "seeds/002_b0117d631587537a.txt"
    text = hlomem.load(name).report(top=5)
    assert text == run_tool("report", "--top", "5", name).stdout.decode()
    # the dump's "Total bytes used: 2885767252" and its largest allocation, "allocation 6: size 2114011136"
    assert "2885767252" in text.replace(",", "") and "2114011136" in text.replace(",", "")


def test_a_dump_keeps_the_text_it_views_alive():
    # The models view the str; the Dump holds the only reference left to it.
    text = (DATA / "seeds" / "000_5960cad812240b69.txt").read_text()
    expected = hlomem.load(text).to_dict()
    dump = hlomem.load("".join([text]))  # a new str object, referenced only here
    gc.collect()
    assert dump.to_dict() == expected
    assert expected["file"] == "<text>"


def test_several_modules_report_as_a_list(in_data):
    dump = hlomem.load("hand/two_modules.hlo")
    report = dump.to_dict()
    assert isinstance(report, list) and len(report) == 2
    with pytest.raises(ValueError, match="holds 2 modules"):
        dump.peak


def test_sibling_files_are_found_beside_a_dump(in_data):
    dump = hlomem.load("synthetic/newest_simple-buffer-assignment.txt")
    assert dump.live_range_file == "synthetic/newest_simple-live-range.txt"
    assert dump.peak is not None
    # Given as text, nothing is beside it.
    text = hlomem.load((DATA / "synthetic" / "newest_simple-buffer-assignment.txt").read_bytes())
    assert text.live_range_file is None and text.peak is None


def test_properties_mirror_the_report(in_data):
    dump = hlomem.load("seeds/002_b0117d631587537a.txt")
    report = dump.to_dict()
    assert dump.total_bytes == report["total_bytes"]
    assert [a.to_dict() for a in dump.allocations] == report["allocations"] and len(dump.allocations) == 10
    assert [v.to_dict() for v in dump.values] == report["values"]
    assert [c.to_dict() for c in dump.colors] == report["colors"]
    assert [w.to_dict() for w in dump.warnings] == report["warnings"]
    lr = report["live_range"]
    peak = dump.peak
    assert (peak.time, peak.bytes, [v.to_dict() for v in peak.values]) == (lr["peak_time"], lr["peak_bytes"], lr["peak_values"])
    assert peak.matches_stated is True


def test_a_module_reports_its_derived_assignment(in_data):
    # XLA's own dump of this module states its peak at 4 (README); hlomem derives it from the module.
    dump = hlomem.load("corpus/lorrax/lorrax_donated_param_output_alias.after_opt.hlo")
    assert dump.kind == "hlo_module"
    assert dump.peak.time == 4
    assert dump.peak.bytes == dump.to_dict()["liveness"]["xla_peak"]["bytes"]
    # XLA's dump of it: "Live ranges at 4 (peak):" lists fft.2.0 and input_transpose_fusion, 31457280
    # bytes each; the peak adds the donated parameter's 31457280 (allocation 0), so it is the dump's
    # "Total bytes used: 94371840" (both allocations live at once)
    stated = DumpText.of("corpus/lorrax/lorrax_donated_param_output_alias.buffer_assignment.txt")
    assert (stated.peak_time, stated.peak_listed, stated.total, stated.allocations[0]) == (4, 62914560, 94371840, 31457280)
    assert (dump.peak.time, dump.peak.listed_bytes, dump.peak.bytes) == (stated.peak_time, stated.peak_listed, stated.total)
    assert dump.liveness() == run_tool("liveness", "corpus/lorrax/lorrax_donated_param_output_alias.after_opt.hlo").stdout.decode()


def test_check_lists_what_hlomem_check_finds(in_data):
    expected = json.loads(run_tool("check", "--json", "synthetic/unsound.txt", check=False).stdout)
    found = hlomem.load("synthetic/unsound.txt").check()
    assert found, "the unsound dump must have violations"
    # tests/cli/check_unsound.out: lines 6 (exp and log overlap at [512, 1024)) and 7 (add: color 1 in
    # allocation 1 of color 0, in memory space 0; overlapping exp)
    assert [(f.kind, f.line) for f in found] == [("overlap", 6), ("color-mismatch", 7), ("memory-space-mismatch", 7), ("overlap", 7)]
    assert "share bytes [512, 1024) while both are live at 2-3" in found[0].message
    assert [{k: f.to_dict()[k] for k in ("kind", "line", "allocation", "values", "sources", "message")} for f in found] == expected["violations"]
    assert [(f.kind, f.line, f.message) for f in found] == [(v["kind"], v["line"], v["message"]) for v in expected["violations"]]
    assert found[0]["kind"] == found[0].kind  # the dict's way, kept for one release
    assert hlomem.load("seeds/002_b0117d631587537a.txt").check() == []


def test_kinds_report_does_not_read(in_data):
    oom = hlomem.load("oom/gpu_oom_jax_13428.txt")
    assert oom.kind == "oom_log"
    with pytest.raises(ValueError, match="of kind 'oom_log'"):
        oom.to_dict()
    with pytest.raises(ValueError, match="holds no buffer assignment"):
        oom.peak
