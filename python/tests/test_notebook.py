"""A notebook session, cell by cell: load what jax gives, find the peak, see what is live there,
draw the timeline inline, save it."""

import json
import re
import sys

import hlomem
from conftest import DATA, DumpText, run_tool


def test_a_session_on_a_tpu_dump(in_data, tmp_path):
    # [1] the dump XLA wrote (XLA_FLAGS=--xla_dump_to=...), its live ranges at its end
    name = "seeds/002_b0117d631587537a.txt"
    dump = hlomem.load(name)
    assert repr(dump).startswith("<hlomem.Dump buffer_assignment ")

    # [2] the peak: XLA's own, recomputed, and the one the dump states agree
    peak = dump.peak
    assert peak.matches_stated is True
    # the dump's own figures: "Live ranges at 78 (peak):", its lines adding up to 830472464 bytes,
    # and "Total bytes used: 2885767252"
    stated = DumpText.of(name)
    assert (stated.peak_time, stated.peak_listed, stated.total) == (78, 830472464, 2885767252)
    assert (peak.time, peak.listed_bytes, dump.total_bytes) == (stated.peak_time, stated.peak_listed, stated.total)
    assert peak.bytes >= peak.listed_bytes > 0
    sequence = re.search(rf"^\s+{peak.time}:(\S+)$", dump.liveness(), re.M)
    assert sequence and peak.instruction == sequence.group(1)

    # [3] what is live at each color's peak, largest first
    breakdown = dump.breakdown(top=5)
    report = dump.to_dict()
    assert [c["color"] for c in breakdown] == [c["color"] for c in report["colors"] if c["peak_live_bytes"] is not None]
    for color, row in zip(breakdown, [c for c in report["colors"] if c["peak_live_bytes"] is not None]):
        assert (color["peak_bytes"], color["peak_time"], color["peak_instruction"]) == (
            row["peak_live_bytes"], row["peak_time"], row["peak_instruction"])
        sizes = [v["bytes"] for v in color["values"]]
        assert sizes == sorted(sizes, reverse=True) and 0 < len(sizes) <= 5
        assert color["live_values"] >= len(sizes)
    # the text report lists the same values at the color 0 peak
    text = dump.report(top=5)
    for v in breakdown[0]["values"]:
        assert re.search(rf"^\s+{v['id']}\s+", text, re.M)

    # [4] the timeline, inline: the page in a sandboxed iframe
    timeline = dump.timeline()
    html = timeline._repr_html_()
    assert html.startswith("<iframe class=\"hlomem-timeline\" sandbox=\"allow-scripts\"")
    assert "srcdoc=\"&lt;!DOCTYPE html&gt;" in html and "<script" not in html
    assert timeline.to_dict() == json.loads(run_tool("timeline", "--json", name).stdout)
    assert timeline.colors[0].peak_bytes == breakdown[0]["peak_bytes"]
    assert timeline.colors[0].peak_bytes >= stated.peak_listed  # at least what the dump lists live at its peak

    # [5] saved, it is the tool's page and picture, byte for byte
    timeline.save_page(tmp_path / "t.html")
    timeline.save(str(tmp_path / "t.svg"))
    assert (tmp_path / "t.html").read_bytes() == run_tool("timeline", "-o", "-", "--format", "html", name).stdout
    assert timeline.page() == timeline.html() == (tmp_path / "t.html").read_text()  # html(): page() before 0.11
    assert (tmp_path / "t.svg").read_bytes() == run_tool("timeline", "-o", "-", "--format", "svg", name).stdout
    assert (tmp_path / "t.html").read_text().startswith("<!DOCTYPE html>")
    assert (tmp_path / "t.svg").read_text().startswith("<?xml")
    try:
        timeline.save(tmp_path / "t.png")
    except ValueError as e:
        assert "name it .html or .svg" in str(e)
    else:
        raise AssertionError("a .png must be refused")


def test_a_session_on_what_jax_gives(in_data):
    # compiled.as_text() of a 2.6 MB training step: a str, parsed where it lies.
    text = (DATA / "seeds" / "004_c00fd3afea504246.txt").read_text()
    module = hlomem.load(text)
    assert module.kind == "hlo_module" and module.name == "<text>"
    report = module.to_dict()
    assert report["name"] == "jit_train_step"
    peak = module.peak
    assert peak.bytes == report["liveness"]["xla_peak"]["bytes"]
    assert peak.time == report["liveness"]["xla_peak"]["time"]
    assert peak.instruction == report["liveness"]["xla_peak"]["instruction"]
    top = module.breakdown(top=3)[0]
    assert [v["bytes"] for v in top["values"]] == [v["bytes"] for v in report["liveness"]["memory_spaces"][0]["largest_at_peak"][:3]]
    assert module.total_bytes == module.assignment_dict["total_bytes"] > 0
    page = module.timeline(max_rectangles=500)
    assert "data-color=\"0\"" in page.html()
    assert page.to_dict()["colors"][0]["peak_bytes"] == top["peak_bytes"]
    assert "jax" not in sys.modules
