#!/usr/bin/env python3
"""side_by_side.py: the `hlomem` tool of an earlier commit against this one, whole commands on
the same input, in one session on one machine.

    side_by_side.py OLD_REV INPUT [INPUT...] [--pairs N] [--commands "report --json" "report"]
                    [--new HLOMEM] [--write]

OLD_REV is built from a fresh clone (Release, Ninja, only the tool) under build-bench/tools/REV,
once; the new tool is HEAD's, built the same way unless --new names one. Each command runs N
pairs of times (default 7), old and new alternating so that a change of the machine's load falls
on both; the figures are the medians of wall time and of processor time (user + system of the child,
from the kernel's accounting), output to /dev/null, and in how many pairs the new tool took less
of each. The 1-minute load average is taken
before and after. The result is a Markdown table on stdout; --write makes it BENCHMARKS.md's
section benchmarks/side_by_side.md (sections.py), the figure of issue 39's "back to the speed of
three weeks ago".

The inputs are the generated ones of run_benchmarks.sh (hlomem_generate_dump SEED 60000 for the
52 MB dump, hlomem_generate_module SEED 190000 for the 54 MB module).
"""
import argparse
import os
import pathlib
import platform
import resource
import statistics
import subprocess
import sys
import time

import sections  # benchmarks/sections.py: the section of BENCHMARKS.md this script writes

ROOT = pathlib.Path(__file__).resolve().parent.parent


def load():
    return float(pathlib.Path("/proc/loadavg").read_text().split()[0])


def build_tool(rev):
    """The tool of `rev` (a commit), built once under build-bench/tools/REV from a fresh clone."""
    sha = subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    where = ROOT / "build-bench" / "tools" / sha
    tool = where / "build" / "examples" / "hlomem"
    if tool.exists():
        return sha, tool
    src = where / "src"
    if not src.exists():
        subprocess.run(["git", "clone", "-q", str(ROOT), str(src)], check=True)
        subprocess.run(["git", "checkout", "-q", sha], cwd=src, check=True)
    subprocess.run(["cmake", "-S", str(src), "-B", str(where / "build"), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                    "-DHLOMEM_BUILD_TESTS=OFF", "-DHLOMEM_BUILD_PYTHON=OFF"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["ninja", "-C", str(where / "build"), "examples/hlomem"], check=True, stdout=subprocess.DEVNULL)
    return sha, tool


def one_run(argv):
    """(wall seconds, processor seconds) of one run, its output thrown away."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"side_by_side.py: {' '.join(map(str, argv))} exited with {done.returncode}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old_rev")
    parser.add_argument("inputs", nargs="+")
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--commands", nargs="+", default=["report --json", "report"])
    parser.add_argument("--new", help="the new tool (default: HEAD built like the old one)")
    parser.add_argument("--write", action="store_true", help="write BENCHMARKS.md's section side_by_side.md")
    args = parser.parse_args()
    old_sha, old_tool = build_tool(args.old_rev)
    if args.new:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
        new_name, new_tool = f"{head} (built from the working tree)", pathlib.Path(args.new)
    else:
        new_name, new_tool = build_tool("HEAD")
    rows = []
    load_before = load()
    for path in args.inputs:
        size = os.path.getsize(path)
        for command in args.commands:
            words = command.split()
            old_runs, new_runs = [], []
            one_run([old_tool] + words + [path])  # each tool once first: the file in the page cache
            one_run([new_tool] + words + [path])
            for _ in range(args.pairs):
                old_runs.append(one_run([old_tool] + words + [path]))
                new_runs.append(one_run([new_tool] + words + [path]))
            old_cpu = statistics.median(r[1] for r in old_runs)
            new_cpu = statistics.median(r[1] for r in new_runs)
            old_wall = statistics.median(r[0] for r in old_runs)
            new_wall = statistics.median(r[0] for r in new_runs)
            # In how many pairs the new tool took less: a median moves with the machine's load,
            # a pair's two runs share it.
            wall_wins = sum(n[0] < o[0] for o, n in zip(old_runs, new_runs))
            cpu_wins = sum(n[1] < o[1] for o, n in zip(old_runs, new_runs))
            rows.append(f"| `{pathlib.Path(path).name}` ({size / 1e6:.0f} MB) | `{command}` | "
                        f"{old_wall * 1000:.0f} / {new_wall * 1000:.0f} ms | **{new_wall / old_wall:.2f}x** | {wall_wins} of {args.pairs} | "
                        f"{old_cpu * 1000:.0f} / {new_cpu * 1000:.0f} ms | **{new_cpu / old_cpu:.2f}x** | {cpu_wins} of {args.pairs} |")
            print(rows[-1], file=sys.stderr, flush=True)
    load_after = load()
    md = ["### Whole commands against an earlier tool (written by `benchmarks/side_by_side.py`)", "",
          f"`hlomem` of `{old_sha}` against `{new_name}`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"{platform.processor() or platform.machine()} ({os.cpu_count()} cores), {args.pairs} pairs of runs alternating, medians; "
          f"1-minute load average {load_before:.1f} before, {load_after:.1f} after.",
          "",
          "| input | command | wall time, old / new | new / old | pairs new took less | processor time, old / new | new / old | pairs new took less |",
          "|---|---|---:|---:|---:|---:|---:|---:|"] + rows
    text = "\n".join(md) + "\n"
    sections.publish("side_by_side", "side_by_side.md", text, args.write)


if __name__ == "__main__":
    main()
