#!/usr/bin/env python3
"""time_commands.py: times whole `hlomem` commands on one input, next to `wc -l` on the same file.

    time_commands.py HLOMEM KIND INPUT RUNS [PIN...] >> commands.txt

KIND is `dump` (a buffer-assignment dump: report, report --json, check, timeline, repack with
each heuristic: XLA's best-fit, TensorFlow Lite's greedy-by-size and first-fit, and diff of the
dump against itself) or `module` (an HLO module: liveness, liveness --json, report, report --json,
assign, and diff of the module against itself, which derives both assignments). Every command
runs RUNS times, its output thrown away (/dev/null); each line
printed holds the fastest run's wall time and processor time (user + system, from the kernel's
accounting of the child), in the `key=value` form benchmarks/write_report.py reads. `wc -l`
runs the same way in the same session: on a shared machine the ratio of the two is what stays
stable when the load changes. PIN (e.g. `taskset -c 0`) prefixes every command.
"""
import os
import resource
import subprocess
import sys
import time

COMMANDS = {
    "dump": [
        ("check", ["check"]),
        ("report", ["report"]),
        ("report --json", ["report", "--json"]),
        ("timeline", ["timeline", "-o", "{scratch}/timeline.html"]),
        ("repack best-fit", ["repack", "--algorithm", "best-fit", "--no-times"]),
        ("repack greedy-by-size", ["repack", "--algorithm", "greedy-by-size", "--no-times"]),
        ("repack first-fit", ["repack", "--algorithm", "first-fit", "--no-times"]),
        ("diff", ["diff", "{input}"]),
        ("diff --json", ["diff", "--json", "{input}"]),
    ],
    "module": [
        ("liveness", ["liveness"]),
        ("liveness --json", ["liveness", "--json"]),
        ("report", ["report"]),
        ("report --json", ["report", "--json"]),
        ("assign", ["assign"]),
        ("diff", ["diff", "{input}"]),
    ],
}


def fastest(argv, runs):
    """(wall seconds, processor seconds, output bytes) of the fastest of `runs` runs."""
    best_wall = best_cpu = float("inf")
    output = 0
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(argv, stdout=subprocess.PIPE if output == 0 else subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode not in (0, 1):
            sys.exit(f"time_commands.py: {' '.join(argv)} exited with {done.returncode}")
        if output == 0 and done.stdout is not None:
            output = len(done.stdout)
            continue  # the run that measured the output size does not count: it went through a pipe
        best_wall = min(best_wall, wall)
        best_cpu = min(best_cpu, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return best_wall, best_cpu, output


def main(argv):
    if len(argv) < 5 or argv[2] not in COMMANDS:
        sys.exit(__doc__)
    hlomem, kind, path, runs = argv[1], argv[2], argv[3], int(argv[4])
    pin = argv[5:]
    scratch = os.path.dirname(os.path.abspath(path))
    size = os.path.getsize(path)
    wall, cpu, _ = fastest(pin + ["wc", "-l", path], runs + 1)
    print(f"kind={kind} input={os.path.basename(path)} bytes={size} command=wc_-l wall_s={wall:.6f} cpu_s={cpu:.6f} output_bytes=0")
    for name, args in COMMANDS[kind]:
        args = [a.format(scratch=scratch, input=path) for a in args]
        wall, cpu, output = fastest(pin + [hlomem] + args + [path], runs + 1)
        print(f"kind={kind} input={os.path.basename(path)} bytes={size} command={name.replace(' ', '_')} "
              f"wall_s={wall:.6f} cpu_s={cpu:.6f} output_bytes={output}", flush=True)


if __name__ == "__main__":
    main(sys.argv)
