"""hlomem: the memory of XLA programs, in Python.

    import hlomem
    dump = hlomem.load(compiled.as_text())     # or a dump's path, or bytes
    dump.peak.bytes, dump.breakdown()[0]["values"][:5]
    dump.timeline()                            # drawn inline in Jupyter
    hlomem.diff(before, after).verdict         # why memory changed between two compilations
    hlomem.assign(compiled.as_text())          # XLA's buffer assignment, predicted
    dump.what_if(remat=["fusion.3"]).to_dict() # an edit's peak before and after (`hlomem whatif`)
    hlomem.advise(compiled, budget="90%")      # which edits bring it under a budget
    hlomem.what_if(compiled, offload="fft.8")  # the same edits as Dump.what_if, from any source

Everything is computed by the C++ library (the extension hlomem._hlomem); Dump.to_dict() is
exactly what `hlomem report --json` prints, Diff.to_dict() what `hlomem diff --json` prints,
WhatIf.to_dict() and Advice.to_dict() what `hlomem whatif --json` and `hlomem advise --json` print.
The stub __init__.pyi gives every signature.
"""

import os

from ._hlomem import (Advice, Allocation, BreakdownValue, BytePair, Color, ColorBreakdown, Diff, DiffColor, Dump, HeldNode,
                      HoldingNode, Inconsistency, KindBytes, Knob, LogicalValue, MemoryAnalysis, ParseError, Peak,
                      PeakSources, PeakValue, Prediction, Shape, ShapeError, Sides, Snapshot, SourceGroup, SourceLine,
                      SourceLineChange, Timeline, TimelineColor, Violation, WhatIf, __version__, assign, diff, load, shape)
from ._hlomem import advise as _advise
from ._hlomem import snapshot as _snapshot

__all__ = ["Advice", "Allocation", "BreakdownValue", "BytePair", "Color", "ColorBreakdown", "Diff", "DiffColor", "Dump",
           "HeldNode", "HoldingNode", "Inconsistency", "KindBytes", "Knob", "LogicalValue", "MemoryAnalysis",
           "ParseError", "Peak", "PeakSources", "PeakValue", "Prediction", "Shape", "ShapeError", "Sides", "Snapshot",
           "SourceGroup", "SourceLine", "SourceLineChange", "Timeline", "TimelineColor", "Violation", "WhatIf", "__version__",
           "advise", "assert_memory", "assign", "diff", "from_jax", "load", "shape", "snapshot", "what_if"]

# The environment variable that makes assert_memory write its snapshots instead of comparing, as
# snapshot-testing plugins (syrupy's --snapshot-update, jest's -u) do.
UPDATE_SNAPSHOTS = "HLOMEM_UPDATE_SNAPSHOTS"


def _text_of(source):
    """compiled.as_text() for a jax.stages.Compiled (anything with as_text()); source otherwise."""
    as_text = getattr(source, "as_text", None)
    if callable(as_text):
        text = as_text()
        if text is None:
            raise ValueError("compiled.as_text() returned None: this executable does not expose its HLO text")
        return text
    return source


def snapshot(text_or_compiled, *, top=10, strip_roots=()):
    """A Snapshot of a compilation (`hlomem snapshot`): its memory in a small JSON to keep in git.

    text_or_compiled: a jax.stages.Compiled (its compiled.as_text()), a Dump, or anything
    hlomem.load reads (a path, a module's or a dump's text). top: how many values at each peak it
    keeps; strip_roots: folders source paths are kept below.
    """
    return _snapshot(_text_of(text_or_compiled), top=top, strip_roots=list(strip_roots))


def advise(text_or_compiled, *, budget, top=10, against="peak"):
    """The edits that bring each memory space of a scheduled module under a budget (`hlomem advise`).

    text_or_compiled: a jax.stages.Compiled (its compiled.as_text()), a Dump of a module or of a
    dump read with its module, or anything hlomem.load reads (a module's text, a path; a dump's
    path finds its module beside it, X.txt beside X-buffer-assignment.txt). budget: the budget of
    every memory space, bytes (an int, or a str of digits) or a percent of its peak ("90%").
    top: how many ranked candidates are listed. against: "peak" (each memory space's live peak) or
    "memory_analysis" (the peak compiled.memory_analysis() reports; a percent is of that figure;
    the set is checked on the edited module, `hlomem advise --against memory_analysis`).
    Returns an Advice (to_dict() is `hlomem advise --json`, str() its text, fits, emit_module()).
    """
    return _advise(_text_of(text_or_compiled), budget=budget, top=top, against=against)


def what_if(text_or_compiled, *, donate=(), remat=(), offload=(), from_time=None, chain=0):
    """Edits evaluated on a scheduled module (`hlomem whatif`), as advise() takes its source.

    text_or_compiled: a jax.stages.Compiled (its compiled.as_text()), a Dump of a module or of a
    dump read with its module, or anything hlomem.load reads (a module's text, a path; a dump's
    path finds its module beside it). donate: entry parameter numbers; remat, offload: instruction
    names, each in the order given; a remat or offload splits at from_time, or at XLA's peak; a
    remat may recompute up to `chain` of its operands in turn (`hlomem whatif --chain`).
    Returns a WhatIf, as Dump.what_if does (to_dict() is `hlomem whatif --json`, str() its text).
    """
    source = _text_of(text_or_compiled)
    dump = source if isinstance(source, Dump) else load(source)
    return dump.what_if(donate=donate, remat=remat, offload=offload, from_time=from_time, chain=chain)


def assert_memory(text_or_compiled, path, *, tolerance="2%", measure="peak", fail_on_unused_donation=False, update=None,
                  strip_roots=()):
    """Asserts that a compilation's memory did not grow past its snapshot at path.

    Writes the snapshot (and passes) when path does not exist, or when asked to update: update=True,
    or the environment variable HLOMEM_UPDATE_SNAPSHOTS set to 1 (true, yes). Otherwise compares
    the compilation with the snapshot as `hlomem diff SNAPSHOT NEW --fail-above TOLERANCE --measure
    MEASURE` does and raises AssertionError with the gate's failures and the diff's verdict when
    a color's peak (measure="total": its allocated bytes) grew by more than tolerance allows
    (bytes, e.g. 1048576, or a percentage of the snapshot's, "2%"), or with
    fail_on_unused_donation, when a donated parameter went unused. Returns the Diff (None when it
    wrote the snapshot).
    """
    current = snapshot(text_or_compiled, strip_roots=strip_roots)
    if update is None:
        update = os.environ.get(UPDATE_SNAPSHOTS, "").strip().lower() in ("1", "true", "yes")
    path = os.fspath(path)
    if update or not os.path.exists(path):
        folder = os.path.dirname(path)
        if folder:
            os.makedirs(folder, exist_ok=True)
        current.save(path)
        return None
    result = diff(path, current)
    failures = result.gate(str(tolerance), measure=measure, fail_on_unused_donation=fail_on_unused_donation)
    if failures:
        lines = [f"hlomem: memory grew past {path}:"] + [f"  {f}" for f in failures] + [f"  {v}" for v in result.verdict]
        lines.append(f"  (set {UPDATE_SNAPSHOTS}=1 to accept it and write the snapshot again)")
        raise AssertionError("\n".join(lines))
    return result

# The figures of jax's CompiledMemoryStats (XLA's xla::CompiledMemoryStats, as
# compiled.memory_analysis() returns it), each compared with hlomem's MemoryAnalysis of the same name.
_MEMORY_FIGURES = (
    "generated_code_size_in_bytes", "argument_size_in_bytes", "output_size_in_bytes", "alias_size_in_bytes",
    "temp_size_in_bytes", "host_generated_code_size_in_bytes", "host_argument_size_in_bytes",
    "host_output_size_in_bytes", "host_alias_size_in_bytes", "host_temp_size_in_bytes", "peak_memory_in_bytes",
    "total_allocation_bytes", "indefinite_allocations", "peak_unpadded_heap_bytes",
)


def from_jax(compiled, *, name="<jax>"):
    """Loads what a jax.stages.Compiled holds: its optimized module, compiled.as_text().

    Any object with as_text() will do (jax is not imported). Dump.memory_analysis is what
    compiled.memory_analysis() would report, computed by XLA's rules on the assignment hlomem
    predicts for the module. When compiled also has memory_analysis() and that returns figures,
    Dump.jax_memory_analysis holds them next to hlomem's, {figure: {"jax": bytes or None,
    "hlomem": bytes or None}} for every figure of CompiledMemoryStats. Raises TypeError when
    compiled has no as_text().
    """
    as_text = getattr(compiled, "as_text", None)
    if not callable(as_text):
        raise TypeError(f"hlomem.from_jax takes a jax.stages.Compiled (anything with as_text()), not {type(compiled).__name__}")
    text = as_text()
    if text is None:
        raise ValueError("compiled.as_text() returned None: this executable does not expose its HLO text")
    dump = load(text, name=name)
    analyze = getattr(compiled, "memory_analysis", None)
    stats = analyze() if callable(analyze) else None
    if stats is None:
        return dump
    ours = dump.memory_analysis
    figures = {}
    for figure in _MEMORY_FIGURES:
        value = getattr(stats, figure, None)
        figures[figure] = {
            "jax": None if value is None else int(value),
            "hlomem": None if ours is None else getattr(ours, figure),
        }
    dump.jax_memory_analysis = figures
    return dump
