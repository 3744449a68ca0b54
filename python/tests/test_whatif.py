"""Dump.what_if and hlomem.advise are `hlomem whatif` and `hlomem advise`: to_dict() is the tool's
--json key for key, str() its text, and the edited module read back has the peak they state.
The modules are the ones tests/cli runs the commands on (whatif_fft_cublas_while.out,
advise_fft_cublas_while.out, advise_dump_with_module.json, whatif_no_instruction.err)."""

import gc
import json
import re

import pytest

import hlomem
from conftest import DATA, SOURCE_DIR, DumpText, run_tool

FFT = "corpus/lorrax/lorrax_fft_cublas_while.after_opt.hlo"  # XLA's peak at 46 of 56, fft.8.0 live there
DIVIDE = "corpus/lorrax/lorrax_cpu_true_divide.after_opt.hlo"  # parameter 0 can be donated
MLP_STEP = "jax_0_11/mlp_step_1024.txt"  # a remat that pays only with its operand recomputed
DUMP_WITH_MODULE = "synthetic/module_0004.jit_left_ifft_after_optimizations-buffer-assignment.txt"
GOLDEN = SOURCE_DIR / "tests" / "cli"


def tool_json(*args):
    result = run_tool(*args, "--json", check=False)
    assert result.returncode in (0, 1), result.stderr.decode()
    return json.loads(result.stdout)


@pytest.mark.parametrize("edits, args, path, accepted", [
    ({"donate": [0]}, ["--donate", "0"], DIVIDE, [True]),
    ({"remat": ["fft.8.0"]}, ["--remat", "fft.8.0"], FFT, [True]),
    ({"offload": "fft.8.0"}, ["--offload", "fft.8.0"], FFT, [True]),
    # fft.9.0 is defined at 43 or after: a remat from 43 has nothing to split.
    ({"remat": ["fft.9.0"], "offload": ["fft.8.0"], "from_time": 43}, ["--from", "43", "--remat", "fft.9.0", "--offload", "fft.8.0"], FFT,
     [False, True]),
    # mlp_step's loop_reduce_fusion with the split-K dot it reads recomputed in turn.
    ({"remat": "loop_reduce_fusion", "from_time": 43, "chain": 2}, ["--from", "43", "--chain", "2", "--remat", "loop_reduce_fusion"],
     MLP_STEP, [True]),
    # A dump with its module beside it; XLA's input_output_alias already pairs parameter 0.
    ({"donate": 0}, ["--donate", "0"], DUMP_WITH_MODULE, [False]),
])
def test_what_if_is_the_tools_json(edits, args, path, accepted):
    result = hlomem.load(DATA / path).what_if(**edits)
    assert isinstance(result, hlomem.WhatIf)
    assert result.to_dict() == tool_json("whatif", *args, path)
    assert json.loads(result.to_json()) == result.to_dict()
    assert [e["accepted"] for e in result.to_dict()["edits"]] == accepted
    assert result.accepted == all(accepted)
    # before the edits, XLA's peak is where XLA's dump of the module states it (`Live ranges at T (peak):`)
    if path in (FFT, DIVIDE):
        stated = DumpText.of(path.replace(".after_opt.hlo", ".buffer_assignment.txt"))
        assert result.to_dict()["before"]["xla_peak_time"] == stated.peak_time == {FFT: 46, DIVIDE: 4}[path]
    if path == DIVIDE:
        # true_divide's dump: its peak lists 14746240 bytes (its `Total bytes used: 14746240`), and
        # parameter 0's is 7372800 (`allocation 0: size 7372800, parameter 0`): donated, the output
        # (allocation 1, 7372800) takes its bytes, and the peak falls by them
        assert result.to_dict()["before"]["xla_peak_bytes"] == stated.peak_listed == stated.total == 14746240
        assert stated.parameters == {(0, "{}"): 7372800, (1, "{}"): 640} and stated.allocations[1] == 7372800
        assert result.to_dict()["after"]["colors"][0]["peak_bytes"] == 14746240 - 7372800
    if "offload" in edits and path == FFT:
        # the bytes moved are fft.8.0's, as the dump's peak lists it: "fft.8.0: 26214400 bytes"
        offload = next(e for e in result.to_dict()["edits"] if e["kind"] == "offload")
        text = (DATA / FFT.replace(".after_opt.hlo", ".buffer_assignment.txt")).read_text()
        assert offload["bytes_to_host"] == int(re.search(r"^\s+fft\.8\.0: (\d+) bytes", text, re.M).group(1)) == 26214400


def test_a_refused_remat_keeps_xlas_reason():
    result = hlomem.load(DATA / FFT).what_if(remat="fft.9.0", from_time=43)
    assert not result.accepted
    assert result.to_dict()["edits"] == [{"edit": "remat fft.9.0 from 43", "kind": "remat", "instruction": "fft.9.0",
                                          "computation": "region_0.356_spmd", "called_as": "while_body", "caller": "while.1",
                                          "accepted": False, "reason": "time 43 is not after fft.9.0 is defined"}]
    assert result.to_dict()["after"] == result.to_dict()["before"]


def test_offload_and_refused_donation_print_the_tools_text():
    result = hlomem.load(DATA / FFT).what_if(donate=0, offload="fft.8.0")
    # The golden gives the offload first; a donation refused changes nothing, so the text differs
    # only in the order of the two edit paragraphs.
    golden = (GOLDEN / "whatif_fft_cublas_while.out").read_text()
    assert str(result) == run_tool("whatif", "--donate", "0", "--offload", "fft.8.0", FFT, check=False).stdout.decode()
    assert sorted(str(result).splitlines()) == sorted(golden.splitlines())
    assert not result.accepted
    donation, offload = result.to_dict()["edits"]
    assert donation == {"edit": "donate parameter 0 {}", "kind": "donate", "instruction": "param.2.0", "computation": "main.528_spmd",
                        "called_as": "entry", "caller": None, "accepted": False,
                        "reason": "no output has the shape c128[9]{0} of parameter 0"}
    assert offload["accepted"] and offload["bytes_to_host"] == 26214400 and offload["edit"] == "offload fft.8.0 from 46"
    assert result.to_dict()["after"]["xla_peak_bytes"] == 67676728


def test_the_emitted_module_has_the_peak_the_result_states():
    result = hlomem.load(DATA / FFT).what_if(offload="fft.8.0")
    after = result.to_dict()["after"]
    edited = hlomem.load(result.emit_module())
    assert edited.peak.bytes == after["xla_peak_bytes"] == 67676728
    assert edited.peak.time == after["xla_peak_time"]
    assert {c.color: c.peak_live_bytes for c in edited.colors} == {c["color"]: c["peak_bytes"] for c in after["colors"]}
    # Nothing accepted: the module as it was.
    assert hlomem.load(DATA / FFT).what_if(donate=0).emit_module() == (DATA / FFT).read_text()


def test_the_result_keeps_the_module_and_its_text():
    # A text read where it lies, and a dump whose module is given: the result outlives the Dump.
    result = hlomem.load((DATA / FFT).read_text()).what_if(offload=["fft.8.0"])
    gc.collect()
    assert repr(result) == "<hlomem.WhatIf of 'jit_minimax_tau_integrate_chi', 1 edits, XLA's peak 93.76MiB -> 64.54MiB>"
    assert hlomem.load(result.emit_module()).peak.bytes == 67676728
    module = DATA / DUMP_WITH_MODULE.replace("-buffer-assignment.txt", ".txt")
    dump = hlomem.load((DATA / DUMP_WITH_MODULE).read_bytes(), module=str(module))
    assert dump.what_if().emit_module() == module.read_text()
    assert repr(hlomem.advise(dump, budget="90%")) == "<hlomem.Advice of 'jit__left_ifft_conj', a set of 0 edits that does not fit>"


def test_an_unknown_instruction_raises_the_tools_message(in_data):
    tool = run_tool("whatif", "--remat", "nosuch", DIVIDE, check=False)
    assert tool.returncode == 2
    # The golden's, run from tests/ rather than tests/data.
    assert "hlomem whatif: data/" + tool.stderr.decode()[len("hlomem whatif: "):] == (GOLDEN / "whatif_no_instruction.err").read_text()
    with pytest.raises(ValueError) as raised:
        hlomem.load(DIVIDE).what_if(remat=["nosuch"])
    assert "hlomem whatif: " + str(raised.value) + "\n" == tool.stderr.decode()


def test_a_dump_without_its_module_says_what_is_missing():
    with pytest.raises(ValueError, match="no module beside the dump .* module=PATH"):
        hlomem.load(DATA / "synthetic" / "newest_simple-buffer-assignment.txt").what_if(donate=0)
    with pytest.raises(ValueError, match="not an HLO module nor a dump with its module beside it"):
        hlomem.load(DATA / "synthetic" / "newest_simple-live-range.txt").what_if(donate=0)
    with pytest.raises(ValueError, match="parameter numbers"):
        hlomem.load(DATA / DIVIDE).what_if(donate=-1)


def test_advise_at_90_percent_is_the_tools():
    advice = hlomem.advise(str(DATA / FFT), budget="90%")
    assert isinstance(advice, hlomem.Advice)
    assert advice.to_dict() == tool_json("advise", "--budget", "90%", FFT)
    assert str(advice) == (GOLDEN / "advise_fft_cublas_while.out").read_text()
    assert advice.fits
    colors = advice.to_dict()["colors"]
    assert [(c["budget"], c["peak_after"]) for c in colors] == [(88483096, 74230072)]
    edited = hlomem.load(advice.emit_module())
    assert {c.color: c.peak_live_bytes for c in edited.colors if c.color == 0} == {0: 74230072}
    # The same budget in bytes, and a jax Compiled (anything with as_text()) in place of the text.
    class Compiled:
        def as_text(self):
            return (DATA / FFT).read_text()
    assert hlomem.advise(Compiled(), budget=88483096).to_dict() == advice.to_dict()


def test_advise_on_a_dump_finds_its_module_beside_it():
    advice = hlomem.advise(str(DATA / DUMP_WITH_MODULE), budget="90%", top=3)
    assert advice.to_dict() == json.loads((GOLDEN / "advise_dump_with_module.json").read_text())
    assert not advice.fits
    assert advice.to_dict()["colors"][0]["obstacles"][0] == "parameter 0 is already aliased to output {} (31457280 bytes)"


def test_a_budget_in_digits_is_bytes():
    advice = hlomem.advise(str(DATA / FFT), budget="90")
    assert advice.to_dict()["colors"][0]["budget"] == 90
    assert not advice.fits
    assert advice.to_dict() == tool_json("advise", "--budget", "90", FFT)


@pytest.mark.parametrize("budget", ["ninety", "90 %", "101%", "%", "8GiB", "-1", -1, 1.5, True])
def test_a_budget_that_is_not_bytes_nor_a_percent_raises(budget):
    with pytest.raises(ValueError, match="budget needs bytes or a percent such as 90%"):
        hlomem.advise(str(DATA / FFT), budget=budget)
    if isinstance(budget, str) and not budget.startswith("-"):  # the tool reads -1 as an option
        tool = run_tool("advise", "--budget", budget, FFT, check=False)
        assert tool.returncode == 2
        assert tool.stderr.decode().startswith("hlomem advise: --budget needs bytes or a percent such as 90%\n")


def test_the_pages_are_the_tools(tmp_path):
    """page() is `hlomem whatif --page` / `hlomem advise --page`, byte for byte; save_page writes it."""
    what_if = hlomem.load(DATA / FFT).what_if(offload="fft.8.0")
    tool_page = tmp_path / "tool_whatif.html"
    run_tool("whatif", "--offload", "fft.8.0", "--page", str(tool_page), FFT)
    assert what_if.page() == tool_page.read_text()
    assert "fft.8.0" in what_if.page()
    advice = hlomem.advise(str(DATA / FFT), budget="90%")
    saved = tmp_path / "advice.html"
    advice.save_page(str(saved))
    tool_page = tmp_path / "tool_advise.html"
    run_tool("advise", "--budget", "90%", "--page", str(tool_page), FFT)
    assert saved.read_text() == tool_page.read_text() == advice.page()
    with pytest.raises(OSError, match="cannot write"):  # as every save_page, save and Snapshot.save
        advice.save_page(tmp_path / "no" / "such" / "folder" / "page.html")
    assert advice.report() == str(advice) and what_if.report() == str(what_if)  # one text API on every result


def test_advise_against_memory_analysis_is_the_tools_and_its_after_is_the_edited_modules():
    advice = hlomem.advise(str(DATA / FFT), budget="90%", top=2, against="memory_analysis")
    assert str(advice) == (GOLDEN / "advise_fft_memory_analysis.out").read_text()
    assert advice.fits
    ma = advice.to_dict()["memory_analysis"]
    assert (ma["peak_memory_in_bytes_before"], ma["budget"], ma["peak_memory_in_bytes_after"]) == (98314560, 88483104, 74230080)
    # The module as given and as edited, each read back on its own: their predicted figures.
    assert hlomem.load(str(DATA / FFT)).memory_analysis.peak_memory_in_bytes == 98314560
    assert hlomem.load(advice.emit_module()).memory_analysis.peak_memory_in_bytes == 74230080
    # Against the peak, the same text budget has no memory_analysis.
    plain = hlomem.advise(str(DATA / FFT), budget="90%").to_dict()
    assert (plain["against"], plain["memory_analysis"]) == ("peak", None)
    with pytest.raises(ValueError, match="against needs peak or memory_analysis, not 'live'"):
        hlomem.advise(str(DATA / FFT), budget="90%", against="live")


def test_hlomem_what_if_takes_what_advise_takes():
    # hlomem.what_if beside hlomem.advise: a path, a module's text or a Dump, the same edits. On
    # the FFT module, offloading fft.8.0 from XLA's peak (time 46) moves 26214400 bytes to the host
    # and leaves XLA's peak at 67676728 bytes (the golden tests/cli/whatif_fft_cublas_while.out).
    for source in (DATA / FFT, (DATA / FFT).read_text(), hlomem.load(DATA / FFT)):
        result = hlomem.what_if(source, offload="fft.8.0")
        (offload,) = result.to_dict()["edits"]
        assert offload["accepted"] and offload["bytes_to_host"] == 26214400
        assert result.to_dict()["after"]["xla_peak_bytes"] == 67676728
    with pytest.raises(ValueError, match="not an HLO module nor a dump with its module beside it"):
        hlomem.what_if(DATA / "synthetic" / "newest_simple-live-range.txt", remat="x")
