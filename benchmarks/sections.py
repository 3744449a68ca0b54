"""sections.py: a section of BENCHMARKS.md that a script writes whole (build_time.py's build
times, side_by_side.py's commands against an earlier tool): kept in benchmarks/NAME, between the
markers `<!-- NAME -->` and `<!-- end NAME -->`, which write_report.py includes as it is and which
is spliced into BENCHMARKS.md in place (appended when BENCHMARKS.md has no such markers yet)."""
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def markers(name):
    return f"<!-- {name} -->", f"<!-- end {name} -->"


def write_section(name, body):
    """Writes `body` (Markdown, without the markers) as section `name`; returns its path."""
    begin, end = markers(name)
    text = begin + "\n" + body.rstrip("\n") + "\n" + end + "\n"
    section = ROOT / "benchmarks" / name
    section.write_text(text)
    bench = ROOT / "BENCHMARKS.md"
    old = bench.read_text()
    if begin in old and end in old:
        new = old[:old.index(begin)] + text.rstrip("\n") + old[old.index(end) + len(end):]
    else:
        new = old.rstrip("\n") + "\n\n" + text
    bench.write_text(new)
    return section


def publish(script, name, text, write):
    """Prints section `name` that `script` measured, and with `write` writes it (write_section)."""
    print(text)
    if write:
        print(f"{script}: {write_section(name, text)} and BENCHMARKS.md")
