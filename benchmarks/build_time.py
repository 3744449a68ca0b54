#!/usr/bin/env python3
"""build_time.py: how long a newcomer and a developer wait for hlomem to build, measured from a
fresh clone on the machine it runs on.

    benchmarks/build_time.py            # the README's two commands (some 15 minutes on 2 cores)
    benchmarks/build_time.py --ci       # and CI's .ci/run in a second fresh clone (30 minutes more)
    benchmarks/build_time.py --commit REV   # an earlier commit, as its own README says, for a
                                            # before-and-after: its section goes to
                                            # build-bench/build-time/REV.md only

It clones HEAD into a scratch folder (build-bench/build-time/, which git ignores), runs the README's
first command there (the packages must already be installed: scripts/install-deps.sh is part of
the command and finds nothing to do), then its second command right after it (the full build and
ctest, timed apart), as CI reads them from README.md. Each step's wall time is recorded with the
1-minute load average before and after, and each translation unit's compile time from Ninja's log
(.ninja_log: start and end of every object). The results go to benchmarks/build_times.md, which
write_report.py includes in BENCHMARKS.md, and replace that section of BENCHMARKS.md at once.
"""

import os
import pathlib
import platform
import re
import shutil
import subprocess
import sys
import time

import sections  # benchmarks/sections.py: the section of BENCHMARKS.md this script writes

ROOT = pathlib.Path(__file__).resolve().parent.parent
FAILED = []  # the steps that failed (their times are in the table, marked)


def readme_command(clone, n):
    """The n-th ```sh block of the clone's README.md, as .ci/run reads it."""
    blocks = re.findall(r"^```sh\n(.*?)^```$", (clone / "README.md").read_text(), flags=re.M | re.S)
    return blocks[n - 1].strip()


def load():
    return os.getloadavg()[0]


def timed(command, cwd, log):
    """Runs `command` in bash, its output to `log`; (wall seconds, load before, load after)."""
    before = load()
    start = time.monotonic()
    with open(log, "w") as out:
        status = subprocess.run(["bash", "-euo", "pipefail", "-c", command], cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
    seconds = time.monotonic() - start
    if status.returncode != 0:  # timed all the same, and said in the table
        print(f"build_time: `{command}` failed ({status.returncode}); see {log}", file=sys.stderr)
        FAILED.append(f"`{command}` exited {status.returncode}")
    return seconds, before, load()


def ninja_units(build):
    """Each object Ninja compiled, with its seconds: [(seconds, output)], slowest first."""
    units = []
    log = build / ".ninja_log"
    if not log.exists():  # a build with make (an older README): no log of each object
        return units
    for line in log.read_text().splitlines()[1:]:
        start, end, _, output, _ = line.split("\t")
        if output.endswith(".o"):
            units.append(((int(end) - int(start)) / 1000, output))
    return sorted(units, reverse=True)


def unit_name(output):
    """A Ninja output as 'target: unit', never a build-tree path (the docs test checks that every
    path the documents cite exists in the repository): a unity unit by its group, a source of the
    repository by its path, a generated source by its name."""
    match = re.fullmatch(r"(?:(.*)/)?CMakeFiles/([^/]+)\.dir/(.*)\.o", output)
    if not match:
        return output
    folder, target, source = match.groups()
    if source.startswith("Unity/unity_"):
        return f"{target}: unity unit {source[len('Unity/unity_'):].removesuffix('_cxx.cxx')}"
    in_repo = f"{folder}/{source}" if folder else source
    if (ROOT / in_repo).exists():
        return f"{target}: `{in_repo}`"
    return f"{target}: {pathlib.PurePosixPath(source).name} (generated)"


def fresh_clone(where, commit="HEAD"):
    if where.exists():
        shutil.rmtree(where)
    subprocess.run(["git", "clone", "-q", str(ROOT), str(where)], check=True)
    subprocess.run(["git", "checkout", "-q", commit], cwd=where, check=True)
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=where, check=True, capture_output=True, text=True).stdout.strip()


def cpu():
    for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def main(argv):
    ci = "--ci" in argv[1:]
    rev = argv[argv.index("--commit") + 1] if "--commit" in argv[1:] else "HEAD"
    scratch = ROOT / "build-bench" / "build-time"
    scratch.mkdir(parents=True, exist_ok=True)
    clone = scratch / "clone"
    commit = fresh_clone(clone, rev)
    first, second = readme_command(clone, 1), readme_command(clone, 2)
    # The second command is the first's packages and configuration, then the full build and ctest:
    # timed as one, and its build and its ctest apart from the same run's logs.
    rows = []
    s1 = timed(first, clone, scratch / "command-1.log")
    first_units = ninja_units(clone / "build")
    rows.append(("the README's first command (packages installed): configure, build the tool, report on the TPU seed", s1))
    build_part = second.split("&& ctest")[0]
    s2b = timed(build_part, clone, scratch / "command-2-build.log")
    units = ninja_units(clone / "build")
    s2t = timed("ctest" + second.split("&& ctest", 1)[1], clone, scratch / "command-2-ctest.log")
    rows.append(("the README's second command after the first: the rest of the full build", s2b))
    rows.append(("its ctest", s2t))
    rows.append(("both, the second command after the first", (s2b[0] + s2t[0], s2b[1], s2t[2])))
    if ci:
        ci_clone = scratch / "ci"
        fresh_clone(ci_clone, rev)
        rows.append(("CI's `.ci/run` from a fresh clone (packages installed)", timed(".ci/run", ci_clone, scratch / "ci.log")))

    md = ["### Build time (written by `benchmarks/build_time.py`)", ""]
    md.append(f"Wall time from a fresh clone of `{commit}`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
              f"on {cpu()} ({os.cpu_count()} cores), GCC and CMake from Debian 12, the README's commands as that commit "
              "states them (`-j2`); the 1-minute load average before and after each step.")
    md.append("")
    md.append("| step | wall time | load before, after |")
    md.append("|---|---|---|")
    for label, (seconds, before, after) in rows:
        md.append(f"| {label} | {seconds:.0f} s | {before:.1f}, {after:.1f} |")
    if FAILED:
        md.append("")
        md.append("**Failed:** " + "; ".join(FAILED) + ".")
    md.append("")
    md.append("Translation units of the first command (Ninja's log, wall seconds each, two at a time):")
    md.append("")
    md.append("| seconds | object |")
    md.append("|---|---|")
    for seconds, output in first_units:
        md.append(f"| {seconds:.1f} | {unit_name(output)} |")
    md.append("")
    md.append(f"The full build's {len(units)} objects took {sum(s for s, _ in units):.0f} s of compilation in all; "
              "the slowest ten:")
    md.append("")
    md.append("| seconds | object |")
    md.append("|---|---|")
    for seconds, output in units[:10]:
        md.append(f"| {seconds:.1f} | {unit_name(output)} |")
    text = "\n".join(md) + "\n"
    if rev != "HEAD":
        (scratch / f"{rev}.md").write_text(text)
        print(f"build_time: {scratch / (rev + '.md')}")
        return
    print(f"build_time: {sections.write_section('build_times.md', text)} and BENCHMARKS.md")


if __name__ == "__main__":
    main(sys.argv)
