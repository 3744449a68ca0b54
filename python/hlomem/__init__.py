"""hlomem: the memory of XLA programs, in Python.

    import hlomem
    dump = hlomem.load(compiled.as_text())     # or a dump's path, or bytes
    dump.peak.bytes, dump.breakdown()[0]["values"][:5]
    dump.timeline()                            # drawn inline in Jupyter
    hlomem.diff(before, after).verdict         # why memory changed between two compilations
    hlomem.assign(compiled.as_text())          # XLA's buffer assignment, predicted

Everything is computed by the C++ library (the extension hlomem._hlomem); Dump.to_dict() is
exactly what `hlomem report --json` prints, Diff.to_dict() what `hlomem diff --json` prints.
The stub __init__.pyi gives every signature.
"""

from ._hlomem import (Allocation, BytePair, Color, Diff, DiffColor, Dump, HoldingNode, Inconsistency, KindBytes, LogicalValue,
                      ParseError, Peak, PeakValue, Shape, ShapeError, Sides, SourceLine, SourceLineChange, Timeline, TimelineColor,
                      __version__, assign, diff, load, shape)

__all__ = ["Allocation", "BytePair", "Color", "Diff", "DiffColor", "Dump", "HoldingNode", "Inconsistency", "KindBytes",
           "LogicalValue", "ParseError", "Peak", "PeakValue", "Shape", "ShapeError", "Sides", "SourceLine", "SourceLineChange",
           "Timeline", "TimelineColor", "__version__", "assign", "diff", "from_jax", "load", "shape"]

# The figures of jax's CompiledMemoryStats (XLA's xla::CompiledMemoryStats, as
# compiled.memory_analysis() returns it), each with the figure of hlomem's report it compares with:
# a path into Dump.to_dict() of the module, or None where hlomem has no counterpart.
_MEMORY_FIGURES = (
    ("argument_size_in_bytes", ("entry_signature", "parameters", "padded_bytes")),
    ("output_size_in_bytes", ("entry_signature", "result", "padded_bytes")),
    ("alias_size_in_bytes", None),
    ("temp_size_in_bytes", None),
    ("generated_code_size_in_bytes", None),
)


def _figure(report, path):
    for key in path:
        if not isinstance(report, dict) or report.get(key) is None:
            return None
        report = report[key]
    return report


def from_jax(compiled, *, name="<jax>"):
    """Loads what a jax.stages.Compiled holds: its optimized module, compiled.as_text().

    Any object with as_text() will do (jax is not imported). When it also has memory_analysis()
    and that returns figures, Dump.memory_analysis holds them next to hlomem's:
    {figure: {"jax": bytes, "hlomem": bytes or None}} for argument_size_in_bytes,
    output_size_in_bytes, alias_size_in_bytes, temp_size_in_bytes, generated_code_size_in_bytes,
    and "peak_bytes": jax's argument + output + temp - alias against XLA's peak (HloLiveRange)
    that hlomem derives from the module. Raises TypeError when compiled has no as_text().
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
    report = dump.to_dict() if dump.kind == "hlo_module" else None
    if isinstance(report, list):
        report = None  # several modules: no one entry to compare with
    figures = {}
    for figure, path in _MEMORY_FIGURES:
        value = getattr(stats, figure, None)
        figures[figure] = {
            "jax": None if value is None else int(value),
            "hlomem": None if report is None or path is None else _figure(report, path),
        }
    jax_total = [figures[f]["jax"] for f in ("argument_size_in_bytes", "output_size_in_bytes", "temp_size_in_bytes",
                                             "alias_size_in_bytes")]
    peak = dump.peak if report is not None else None
    figures["peak_bytes"] = {
        "jax": None if None in jax_total else jax_total[0] + jax_total[1] + jax_total[2] - jax_total[3],
        "hlomem": None if peak is None else peak.bytes,
    }
    dump.memory_analysis = figures
    return dump
