"""hlomem.from_jax on a stand-in for jax.stages.Compiled: as_text() and memory_analysis(), whose
figures carry the names of jax's CompiledMemoryStats (XLA's xla::CompiledMemoryStats). The stand-in
returns what JAX 0.11.2 returned for the same compilations (tests/data/jax_0_11/*.memory_analysis.json,
written by jax on the H100 that compiled them). jax is never imported."""

import json
import sys
from types import SimpleNamespace

import pytest

import hlomem
from conftest import DATA

JAX = DATA / "jax_0_11"


class FakeCompiled:
    """What hlomem.from_jax uses of a jax.stages.Compiled."""

    def __init__(self, text, stats):
        self._text = text
        self._stats = stats

    def as_text(self):
        return self._text

    def memory_analysis(self):
        return self._stats


def jax_stats(name):
    return SimpleNamespace(**json.loads((JAX / f"{name}.memory_analysis.json").read_text()))


@pytest.mark.parametrize("name", ["grad_ckpt", "grad_plain", "mlp_step_1024", "scan_loop", "unused_donation"])
def test_from_jax_puts_every_figure_next_to_hlomems(name):
    stats = jax_stats(name)
    dump = hlomem.from_jax(FakeCompiled((JAX / f"{name}.txt").read_text(), stats))
    assert dump.kind == "hlo_module" and dump.name == "<jax>"
    side = dump.jax_memory_analysis
    assert set(side) == set(vars(stats))
    for figure, pair in side.items():
        assert pair["jax"] == getattr(stats, figure)
        if "generated_code" in figure:
            assert pair["hlomem"] is None  # in no text XLA dumps
        else:
            assert pair["hlomem"] == pair["jax"], figure
    assert "jax" not in sys.modules


def test_memory_analysis_is_typed_and_its_dict_is_the_reports():
    dump = hlomem.load(JAX / "grad_ckpt-buffer-assignment.txt")
    m = dump.memory_analysis
    assert isinstance(m, hlomem.MemoryAnalysis)
    assert m.peak_memory_in_bytes == 67108896 and m.temp_size_in_bytes == 58723864
    assert m.peak["static_bytes"] == 12582944 and m.peak["heap_bytes"] == 54525952 and m.peak["time"] == 22
    assert m.peak["instruction"] == "custom-call.3"
    assert m.generated_code_size_in_bytes is None
    assert m.to_dict() == dump.to_dict()["memory_analysis"]
    # The module alone: the assignment hlomem predicts gives the same figures.
    module = hlomem.load(JAX / "grad_ckpt.txt")
    assert module.memory_analysis.peak_memory_in_bytes == 67108896
    assert module.memory_analysis.to_dict() == module.to_dict()["memory_analysis"]


def test_without_memory_analysis():
    text = (JAX / "unused_donation.txt").read_text()
    duck = SimpleNamespace(as_text=lambda: text)
    dump = hlomem.from_jax(duck, name="step")
    assert dump.jax_memory_analysis is None and dump.name == "step"
    assert dump.memory_analysis.peak_memory_in_bytes == 16814080
    assert hlomem.from_jax(FakeCompiled(text, None)).jax_memory_analysis is None
    partial = hlomem.from_jax(FakeCompiled(text, SimpleNamespace(argument_size_in_bytes=7)))
    assert partial.jax_memory_analysis["argument_size_in_bytes"] == {"jax": 7, "hlomem": 16809984}
    assert partial.jax_memory_analysis["peak_memory_in_bytes"] == {"jax": None, "hlomem": 16814080}


def test_what_is_not_compiled():
    with pytest.raises(TypeError, match="anything with as_text"):
        hlomem.from_jax(object())
    with pytest.raises(hlomem.ParseError):
        hlomem.from_jax(FakeCompiled("HloModule m\n\nENTRY e {\n  ROOT p = f32[8]{0 parameter(0)\n}\n", None))
