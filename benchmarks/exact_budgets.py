#!/usr/bin/env python3
"""exact_budgets.py: the exact allocator minimising MiniMalloc's eleven challenging instances
(tests/data/minimalloc) at fixed budgets, as OmniMalloc's benchmark measures allocators: each
instance once per time limit and thread count, `hlomem repack --algorithm exact --time-limit S
--threads T --json`, and for each the arena, whether it is proven smallest, the time the command
took, and the efficiency: the most bytes live at once over the arena (100% when the arena meets
the live bytes). Writes the section benchmarks/exact_budgets.md of BENCHMARKS.md (sections.py)
with the machine and its load, and prints it.

    python3 benchmarks/exact_budgets.py [--tool build/examples/hlomem] [--limits 1 3 30]
                                        [--threads 1 2] [--instances A B ...] [--write]
"""
import argparse
import json
import os
import pathlib
import platform
import subprocess
import time

import sections  # benchmarks/sections.py: the section of BENCHMARKS.md this script writes

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "minimalloc"


def run(tool, path, limit, threads):
    """One minimisation: (bytes, optimal, lower bound, live bytes, seconds of wall time)."""
    started = time.monotonic()
    out = subprocess.run([tool, "repack", "--algorithm", "exact", "--time-limit", str(limit), "--threads", str(threads),
                          "--json", str(path)], check=True, capture_output=True, text=True).stdout
    seconds = time.monotonic() - started
    arena = json.loads(out)["arenas"][0]
    exact = arena["algorithms"]["exact"]
    return {"bytes": exact["bytes"], "optimal": exact["optimal"], "bound": exact["proven_infeasible_bytes"] + 1,
            "live": arena["lower_bound_bytes"], "seconds": seconds, "search_ms": exact["ms"]}


def machine():
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores ({cpu})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", default=str(ROOT / "build" / "examples" / "hlomem"))
    ap.add_argument("--limits", type=int, nargs="+", default=[1, 3, 30])
    ap.add_argument("--threads", type=int, nargs="+", default=[1, os.cpu_count() or 1])
    ap.add_argument("--instances", nargs="+", default=list("ABCDEFGHIJK"))
    ap.add_argument("--write", action="store_true", help="write benchmarks/exact_budgets.md and BENCHMARKS.md")
    args = ap.parse_args()

    load_before = os.getloadavg()
    results = {}
    for limit in args.limits:
        for threads in args.threads:
            for name in args.instances:
                results[(limit, threads, name)] = run(args.tool, DATA / f"{name}.1048576.csv", limit, threads)
    load_after = os.getloadavg()

    lines = ["### Exact allocation at a budget (issue 42; `benchmarks/exact_budgets.py`)", ""]
    lines.append(f"{time.strftime('%Y-%m-%d')}, {machine()}; load average {load_before[0]:.1f} before, "
                 f"{load_after[0]:.1f} after. Each of MiniMalloc's challenging instances minimised once per budget "
                 "and thread count with `hlomem repack --algorithm exact --time-limit S --threads T`; efficiency "
                 "is the most bytes live at once over the arena (OmniMalloc's measure), `s` the command's wall "
                 "time (reading the CSV and the heuristics included), `proven` that no smaller arena fits.")
    lines.append("")
    lines.append("| budget | threads | mean efficiency | proven | slowest proof | D | J |")
    lines.append("|---|---|---|---|---|---|---|")
    for limit in args.limits:
        for threads in args.threads:
            rows = [results[(limit, threads, n)] for n in args.instances]
            mean = sum(100.0 * r["live"] / r["bytes"] for r in rows) / len(rows)
            proven = [r for r in rows if r["optimal"]]
            slowest = max((r["seconds"] for r in proven), default=0.0)
            d = results.get((limit, threads, "D"))
            j = results.get((limit, threads, "J"))
            show = lambda r: f"{r['bytes']:,} ({100.0 * r['live'] / r['bytes']:.2f}%)" if r else "-"
            lines.append(f"| {limit} s | {threads} | {mean:.3f}% | {len(proven)} of {len(rows)} | {slowest:.2f} s | "
                         f"{show(d)} | {show(j)} |")
    lines.append("")
    header = "| instance | live bytes | " + " | ".join(f"{l} s, {t} thr." for l in args.limits for t in args.threads) + " |"
    lines.append(header)
    lines.append("|---|---|" + "---|" * (len(args.limits) * len(args.threads)))
    for name in args.instances:
        live = results[(args.limits[0], args.threads[0], name)]["live"]
        cells = []
        for limit in args.limits:
            for threads in args.threads:
                r = results[(limit, threads, name)]
                mark = "proven" if r["optimal"] else f"bound {r['bound']:,}"
                cells.append(f"{r['bytes']:,}, {mark}, {r['seconds']:.2f} s")
        lines.append(f"| {name} | {live:,} | " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    sections.publish("exact_budgets", "exact_budgets.md", text, args.write)


if __name__ == "__main__":
    main()
