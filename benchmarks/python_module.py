#!/usr/bin/env python3
"""The Python module against the tool: import time, load time and peak memory.

    PYTHONPATH=build/python python3 benchmarks/python_module.py [--tool build/examples/hlomem] FILE...

For each FILE it prints, as a Markdown table, the best of --repeat runs of:
  import     `import hlomem` in a fresh interpreter, as -X importtime counts it (json included);
  load       hlomem.load(path), in the same process (the file read, parsed with the view policy);
  load text  hlomem.load(text) on a str already in memory (parsed where it lies, no copy);
  to_dict    Dump.to_dict() on a fresh Dump (the report computed, written, read by json.loads);
  peak RSS   of a fresh interpreter that imports, loads and calls to_dict(), and of the bare
             interpreter;
  tool       `hlomem report --json FILE` wall time and peak RSS (a process of its own).
Timings are wall clock on whatever else the machine runs: compare figures of one run.
"""

import argparse
import json
import pathlib
import resource
import subprocess
import sys
import time


def import_time():
    """What `python3 -X importtime -c 'import hlomem'` says hlomem took, cumulative, in seconds."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", "import hlomem"], check=True, capture_output=True)
    for line in out.stderr.decode().splitlines():
        fields = [f.strip() for f in line.split("|")]
        if len(fields) == 3 and fields[2] == "hlomem":
            return int(fields[1]) / 1e6
    raise RuntimeError("python3 -X importtime did not list hlomem")


def rss_of(argv):
    """Peak RSS in KiB of one process running argv, read by a wrapper that waits for it."""
    wrapper = ("import resource,subprocess,sys;subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,check=True);"
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", wrapper, *argv], check=True, capture_output=True)
    return int(out.stdout)


def best(f, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--tool", default="build/examples/hlomem")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    import hlomem

    imported = min(import_time() for _ in range(args.repeat))
    rss_bare = rss_of([sys.executable, "-c", "pass"])
    rss_import = rss_of([sys.executable, "-c", "import hlomem"])
    print(f"import hlomem: {1000 * imported:.1f} ms (python3 -X importtime, cumulative); "
          f"peak RSS bare interpreter {rss_bare / 1024:.1f} MiB, after import {rss_import / 1024:.1f} MiB\n")
    print("| file | size | load | load text | to_dict | tool report --json | peak RSS module | peak RSS tool |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in args.files:
        path = pathlib.Path(name)
        text = path.read_text()
        load = best(lambda: hlomem.load(path), args.repeat)
        load_text = best(lambda: hlomem.load(text), args.repeat)
        dumps = [hlomem.load(path) for _ in range(args.repeat)]
        to_dict = best(lambda: dumps.pop().to_dict(), args.repeat)
        tool = best(lambda: subprocess.run([args.tool, "report", "--json", str(path)], check=True,
                                           stdout=subprocess.DEVNULL), args.repeat)
        rss_module = rss_of([sys.executable, "-c", f"import hlomem; hlomem.load({str(path)!r}).to_dict()"])
        rss_tool = rss_of([args.tool, "report", "--json", str(path)])
        # the same figures, checked equal
        assert hlomem.load(path).to_dict() == json.loads(subprocess.run([args.tool, "report", "--json", str(path)],
                                                                        check=True, capture_output=True).stdout)
        print(f"| {path.name} | {path.stat().st_size / 1e6:.2f} MB | {1000 * load:.1f} ms | {1000 * load_text:.1f} ms "
              f"| {1000 * to_dict:.1f} ms | {1000 * tool:.1f} ms | {rss_module / 1024:.1f} MiB | {rss_tool / 1024:.1f} MiB |")


if __name__ == "__main__":
    main()
