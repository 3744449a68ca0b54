#!/usr/bin/env python3
"""exact_budgets.py: the exact allocator minimising MiniMalloc's eleven challenging instances
(tests/data/minimalloc) at fixed budgets, as OmniMalloc's benchmark measures allocators: each
instance once per time limit and thread count, `hlomem repack --algorithm exact --time-limit S
--threads T --json`, and for each the arena, whether it is proven smallest, the time the command
took, and the efficiency: the most bytes live at once over the arena (100% when the arena meets
the live bytes). Writes the section benchmarks/exact_budgets.md of BENCHMARKS.md (sections.py)
with the machine and its load, and prints it.

With --supermalloc DRIVER, OmniMalloc's SuperMalloc is measured side by side, in the same run:
each instance, budget and thread count (and each of --peer-threads) runs right after hlomem's.
DRIVER is a program built outside this repository against OmniMalloc's unmodified C++ sources
(none of them are here): `DRIVER CSV SECONDS THREADS` minimises the CSV's arena as OmniMalloc's
Python SuperMalloc allocator does, checks its placement, and prints one JSON line with `peak`
(bytes) and `proven` (the allocator's own `proved_optimal`). BENCHMARKS.md says which snapshot.

    python3 benchmarks/exact_budgets.py [--tool build/examples/hlomem] [--limits 1 3 30]
                                        [--threads 1 2] [--instances A B ...]
                                        [--supermalloc DRIVER [--peer-version COMMIT] [--peer-threads 8]]
                                        [--write]
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


def run_peer(driver, path, limit, threads):
    """SuperMalloc once: (bytes, proven, seconds of wall time), through the driver."""
    started = time.monotonic()
    out = subprocess.run([driver, str(path), str(limit), str(threads)], check=True, capture_output=True,
                         text=True).stdout
    seconds = time.monotonic() - started
    result = json.loads(out.strip().splitlines()[-1])
    return {"bytes": result["peak"], "optimal": bool(result["proven"]), "seconds": seconds}


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
    ap.add_argument("--supermalloc", metavar="DRIVER", help="also run OmniMalloc's SuperMalloc through this driver")
    ap.add_argument("--peer-version", default="?", help="the OmniMalloc snapshot DRIVER was built from (a commit)")
    ap.add_argument("--peer-threads", type=int, nargs="*", default=[],
                    help="SuperMalloc's thread counts beyond --threads")
    ap.add_argument("--write", action="store_true", help="write benchmarks/exact_budgets.md and BENCHMARKS.md")
    args = ap.parse_args()

    peer_threads = sorted(set(args.threads) | set(args.peer_threads)) if args.supermalloc else []
    load_before = os.getloadavg()
    results, peer = {}, {}
    for limit in args.limits:
        for threads in sorted(set(args.threads) | set(peer_threads)):
            for name in args.instances:
                path = DATA / f"{name}.1048576.csv"
                if threads in args.threads:
                    results[(limit, threads, name)] = run(args.tool, path, limit, threads)
                if threads in peer_threads:
                    peer[(limit, threads, name)] = run_peer(args.supermalloc, path, limit, threads)
    load_after = os.getloadavg()
    live_of = {name: results[(args.limits[0], args.threads[0], name)]["live"] for name in args.instances}

    lines = ["### Exact allocation at a budget (issue 42; `benchmarks/exact_budgets.py`)", ""]
    lines.append(f"{time.strftime('%Y-%m-%d')}, {machine()}; load average {load_before[0]:.1f} before, "
                 f"{load_after[0]:.1f} after. Each of MiniMalloc's challenging instances minimised once per budget "
                 "and thread count with `hlomem repack --algorithm exact --time-limit S --threads T`; efficiency "
                 "is the most bytes live at once over the arena (OmniMalloc's measure), `s` the command's wall "
                 "time (reading the CSV and the heuristics included), `proven` that no smaller arena fits.")
    if peer:
        lines[-1] += (f" SuperMalloc (OmniMalloc {args.peer_version}'s exact branch-and-bound, its C++ core unmodified, driven by "
                      "a driver that calls it as OmniMalloc's Python allocator does) ran each instance right after "
                      "hlomem, in the same run; its `s` is the driver's wall time, `proven` the allocator's own "
                      "`proved_optimal`.")
    lines.append("")
    lines.append("| budget | solver | threads | mean efficiency | proven | slowest proof | D | J |")
    lines.append("|---|---|---|---|---|---|---|---|")

    def summary(limit, solver, threads, table):
        rows = [(n, table[(limit, threads, n)]) for n in args.instances]
        mean = sum(100.0 * live_of[n] / r["bytes"] for n, r in rows) / len(rows)
        proven = [r for _, r in rows if r["optimal"]]
        slowest = f"{max(r['seconds'] for r in proven):.2f} s" if proven else "-"
        show = lambda n: (f"{table[(limit, threads, n)]['bytes']:,} "
                          f"({100.0 * live_of[n] / table[(limit, threads, n)]['bytes']:.2f}%)"
                          if (limit, threads, n) in table else "-")
        lines.append(f"| {limit} s | {solver} | {threads} | {mean:.3f}% | {len(proven)} of {len(rows)} | "
                     f"{slowest} | {show('D')} | {show('J')} |")

    for limit in args.limits:
        for threads in args.threads:
            summary(limit, "hlomem", threads, results)
        for threads in peer_threads:
            summary(limit, "SuperMalloc", threads, peer)
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
    if peer:
        lines.append("")
        lines.append("SuperMalloc, the same instances in the same run:")
        lines.append("")
        lines.append("| instance | live bytes | " + " | ".join(f"{l} s, {t} thr." for l in args.limits for t in peer_threads) + " |")
        lines.append("|---|---|" + "---|" * (len(args.limits) * len(peer_threads)))
        for name in args.instances:
            cells = []
            for limit in args.limits:
                for threads in peer_threads:
                    r = peer[(limit, threads, name)]
                    cells.append(f"{r['bytes']:,}, {'proven' if r['optimal'] else 'not proven'}, {r['seconds']:.2f} s")
            lines.append(f"| {name} | {live_of[name]:,} | " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    sections.publish("exact_budgets", "exact_budgets.md", text, args.write)


if __name__ == "__main__":
    main()
