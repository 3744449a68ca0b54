"""hlomem.from_jax on a stand-in for jax.stages.Compiled: as_text() and memory_analysis(), whose
figures carry the names of jax's CompiledMemoryStats (XLA's xla::CompiledMemoryStats). jax is
never imported."""

import sys
from types import SimpleNamespace

import pytest

import hlomem
from conftest import DATA

MODULE = DATA / "corpus" / "lorrax" / "lorrax_donated_param_output_alias.after_opt.hlo"


class FakeCompiled:
    """What hlomem.from_jax uses of a jax.stages.Compiled."""

    def __init__(self, text, stats):
        self._text = text
        self._stats = stats

    def as_text(self):
        return self._text

    def memory_analysis(self):
        return self._stats


STATS = SimpleNamespace(argument_size_in_bytes=1000, output_size_in_bytes=200, temp_size_in_bytes=30,
                        alias_size_in_bytes=100, generated_code_size_in_bytes=5)


def test_from_jax_puts_jax_figures_next_to_hlomems():
    dump = hlomem.from_jax(FakeCompiled(MODULE.read_text(), STATS))
    assert dump.kind == "hlo_module" and dump.name == "<jax>"
    report = dump.to_dict()
    m = dump.memory_analysis
    assert m["argument_size_in_bytes"] == {"jax": 1000, "hlomem": report["entry_signature"]["parameters"]["padded_bytes"]}
    assert m["output_size_in_bytes"] == {"jax": 200, "hlomem": report["entry_signature"]["result"]["padded_bytes"]}
    assert m["temp_size_in_bytes"] == {"jax": 30, "hlomem": None}
    assert m["alias_size_in_bytes"] == {"jax": 100, "hlomem": None}
    assert m["generated_code_size_in_bytes"] == {"jax": 5, "hlomem": None}
    assert m["peak_bytes"] == {"jax": 1000 + 200 + 30 - 100, "hlomem": report["liveness"]["xla_peak"]["bytes"]}
    assert dump.peak.time == 4
    assert "jax" not in sys.modules


def test_without_memory_analysis():
    duck = SimpleNamespace(as_text=lambda: MODULE.read_text())
    dump = hlomem.from_jax(duck, name="step")
    assert dump.memory_analysis is None and dump.name == "step"
    assert hlomem.from_jax(FakeCompiled(MODULE.read_text(), None)).memory_analysis is None
    partial = hlomem.from_jax(FakeCompiled(MODULE.read_text(), SimpleNamespace(argument_size_in_bytes=7)))
    assert partial.memory_analysis["argument_size_in_bytes"]["jax"] == 7
    assert partial.memory_analysis["peak_bytes"]["jax"] is None


def test_what_is_not_compiled():
    with pytest.raises(TypeError, match="anything with as_text"):
        hlomem.from_jax(object())
    with pytest.raises(hlomem.ParseError):
        hlomem.from_jax(FakeCompiled("HloModule m\n\nENTRY e {\n  ROOT p = f32[8]{0 parameter(0)\n}\n", None))
