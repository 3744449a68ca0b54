#!/usr/bin/env bash
# run_benchmarks.sh: builds hlomem's benchmarks, runs them, and writes BENCHMARKS.md and
# docs/scaling.svg at the repository root.
#
#   benchmarks/run_benchmarks.sh           # the full run: dumps of 10^3..10^6 values (some 20 minutes)
#   benchmarks/run_benchmarks.sh --quick   # stops at 10^5 values, fewer repetitions, 5 s searches
#
# Everything it generates (the synthetic dumps and modules, the raw results) stays under
# build-bench/, which git ignores; only BENCHMARKS.md and docs/scaling.svg are written in the tree.
# Timed programs run pinned to core 0 (taskset) when taskset exists, so that figures are those of
# one core. On a shared machine, compare the load averages the report records.
set -euo pipefail

quick=0
for arg in "$@"; do
    case "$arg" in
        --quick) quick=1 ;;
        -h | --help)
            sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "run_benchmarks.sh: unknown argument '$arg' (expected --quick)" >&2
            exit 2
            ;;
    esac
done

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="$root/build-bench"
bin="$build/benchmarks"
results="$build/bench-results"
scratch="$build/scaling"
mkdir -p "$results" "$scratch"
rm -f "$results"/*

pin=()
if command -v taskset > /dev/null 2>&1; then pin=(taskset -c 0); fi

# What the report says about the run: read by write_report.py.
meta="$results/meta.txt"
{
    echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "loadavg_start=$(cut -d' ' -f1-3 /proc/loadavg)"
    echo "commit=$(git rev-parse --short HEAD 2> /dev/null || echo unknown)"
    if [ -n "$(git status --porcelain --untracked-files=no 2> /dev/null)" ]; then echo "dirty=1"; else echo "dirty=0"; fi
    echo "quick=$quick"
    echo "pinned=${pin[*]:-none}"
} > "$meta"

step() { echo "== $*" >&2; }

step "configuring and building $build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DHLOMEM_BUILD_BENCHMARKS=ON -DHLOMEM_BUILD_TESTS=OFF \
    -DHLOMEM_BUILD_EXAMPLES=ON > "$results/cmake.log"
# The benchmark programs and the command-line tool (timed as whole commands), not the other examples.
targets=(hlomem-cli)
for program in $(sed -n 's/^hlomem_benchmark_program(\([a-z_]*\) .*/\1/p' "$root/benchmarks/CMakeLists.txt"); do targets+=("$program"); done
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}" >> "$results/cmake.log"
cxx="$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")"
echo "compiler=$("$cxx" --version | head -n 1)" >> "$meta"

# Google Benchmark programs: every iteration of every repetition goes into the JSON; the report
# keeps the fastest repetition (the least disturbed on a shared machine).
repetitions=5
[ "$quick" = 1 ] && repetitions=2
for program in shapes buffer_assignment hlo_module liveness oom_report; do
    step "hlomem_bench_$program"
    echo "loadavg_before_$program=$(cut -d' ' -f1 /proc/loadavg)" >> "$meta"
    "${pin[@]}" "$bin/hlomem_bench_$program" --benchmark_format=json --benchmark_repetitions="$repetitions" \
        > "$results/bench_$program.json"
done

# Scaling: dumps replicated from seed 000 (135 values) and modules from seed 004 (9,917
# instructions, so 5000 stands for the seed itself), each measured a few times (the report keeps
# each step's fastest time). A generated file is reused until its generator is rebuilt.
sizes=(1000 10000 100000 1000000)
module_sizes=(5000 10000 100000 1000000)
if [ "$quick" = 1 ]; then
    sizes=(1000 10000 100000)
    module_sizes=(5000 10000 100000)
fi
runs_for() { if [ "$1" -ge 1000000 ]; then echo 3; else echo 5; fi; }

# scale KIND EXT SEED UNIT SIZE...: inputs of each size generated from SEED by hlomem_generate_KIND
# (kept while newer than the generator), each timed by hlomem_measure_KIND.
scale() {
    local kind=$1 ext=$2 seed=$3 unit=$4
    shift 4
    local n input
    for n in "$@"; do
        input="$scratch/$kind-$n.$ext"
        [ "$input" -nt "$bin/hlomem_generate_$kind" ] || { step "generating $input"; "$bin/hlomem_generate_$kind" "$seed" "$n" "$input"; }
        step "measure_$kind $n $unit"
        echo "loadavg_before_${kind}_$n=$(cut -d' ' -f1 /proc/loadavg)" >> "$meta"
        for _ in $(seq "$(runs_for "$n")"); do
            "${pin[@]}" "$bin/hlomem_measure_$kind" "$input" >> "$results/$kind-$n.txt"
        done
    done
}
scale dump txt tests/data/seeds/000_5960cad812240b69.txt values "${sizes[@]}"
scale module hlo tests/data/seeds/004_c00fd3afea504246.txt instructions "${module_sizes[@]}"
# XLA's buffer assignment predicted from the same generated modules (hlomem assign).
for n in "${module_sizes[@]}"; do
    step "measure_assign $n instructions"
    echo "loadavg_before_assign_$n=$(cut -d' ' -f1 /proc/loadavg)" >> "$meta"
    for _ in $(seq "$(runs_for "$n")"); do
        "${pin[@]}" "$bin/hlomem_measure_assign" "$scratch/module-$n.hlo" >> "$results/assign-$n.txt"
    done
done

# Whole commands, as a user runs them, on a dump and a module of some 50 MB (seed 000 replicated to
# 60,000 values, seed 004 to 190,000 instructions) and on the 10^4 and 10^5 sizes above, each next
# to `wc -l` on the same file (benchmarks/time_commands.py). The 50 MB inputs are also measured in
# process, so that each command compares with its own parser on the same file.
scale dump txt tests/data/seeds/000_5960cad812240b69.txt values 60000
scale module hlo tests/data/seeds/004_c00fd3afea504246.txt instructions 190000
command_runs=5
[ "$quick" = 1 ] && command_runs=3
for input in dump-10000.txt dump-60000.txt dump-100000.txt module-10000.hlo module-190000.hlo module-100000.hlo; do
    kind=${input%%-*}
    step "commands on $input"
    echo "loadavg_before_commands_${input%%.*}=$(cut -d' ' -f1 /proc/loadavg)" >> "$meta"
    python3 "$root/benchmarks/time_commands.py" "$build/examples/hlomem" "$kind" "$scratch/$input" "$command_runs" "${pin[@]}" \
        >> "$results/commands.txt"
done

# The parse of a large dump on two threads (parser/buffer_assignment.hpp, read_in_parts) against one,
# in wall time, pinned to cores 0 and 1 where there are two: the one figure here that needs more than
# one core. Like for like (benchmarks/measure_parse.cpp): each parse is the first of a fresh process,
# as a command's is, its model kept to the end, one thread and two alternately, fastest of each.
if [ "$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 1)" -ge 2 ]; then
    step "threaded read"
    pin_two=()
    if command -v taskset > /dev/null 2>&1; then pin_two=(taskset -c 0,1); fi
    echo "loadavg_before_threads=$(cut -d' ' -f1 /proc/loadavg)" >> "$meta"
    for _ in $(seq 9); do
        for t in 1 2; do
            "${pin_two[@]}" "$bin/hlomem_measure_parse" first "$scratch/dump-100000.txt" "$t" >> "$results/threaded_read_$t.txt"
        done
    done
    # Where the threaded read spends its processor time (finding the parts, the parts, joining them,
    # the lookup by name and the live ranges: hlomem_measure_parse threads), which holds on a loaded
    # machine where wall time does not.
    "${pin_two[@]}" "$bin/hlomem_measure_parse" threads "$scratch/dump-100000.txt" 9 >> "$results/thread_parts.txt"
    echo "loadavg_after_threads=$(cut -d' ' -f1 /proc/loadavg)" >> "$meta"
fi

# hlomem diff: two dumps of the largest size, generated from the two sides of a bundled pair of
# compilations (the same program at two problem sizes), diffed (diff-N.txt: one line a run).
n=${sizes[-1]}
pair=tests/data/corpus/compilations/sternheimer_core
for side in a b; do
    input="$scratch/diff-$side-$n.txt"
    [ "$input" -nt "$bin/hlomem_generate_dump" ] || { step "generating $input"; "$bin/hlomem_generate_dump" "${pair}_$side.buffer_assignment.txt" "$n" "$input"; }
done
step "measure_diff $n values"
echo "loadavg_before_diff_$n=$(cut -d' ' -f1 /proc/loadavg)" >> "$meta"
for _ in $(seq "$(runs_for "$n")"); do
    "${pin[@]}" "$bin/hlomem_measure_diff" "$scratch/diff-a-$n.txt" "$scratch/diff-b-$n.txt" >> "$results/diff-$n.txt"
done

# Compile time and memory of one translation unit that includes the whole library and
# instantiates every parser (both policies), at -O2.
step "compiling the all-parsers translation unit"
tu="$scratch/all_parsers.cpp"
printf '#include <hlomem/hlomem.hpp>\n#include <hlomem/parser/instantiate.hpp>\n' > "$tu"
echo "loadavg_before_compile=$(cut -d' ' -f1 /proc/loadavg)" >> "$meta"
/usr/bin/time -v "$cxx" -std=c++17 -O2 -I "$root/include" -c "$tu" -o "$scratch/all_parsers.o" 2> "$results/compile.txt"

# The allocation algorithms on the eleven MiniMalloc instances (not Google Benchmark: the exact
# search runs up to its time limit, so each algorithm runs once; its times are wall clock).
step "hlomem_bench_allocation"
echo "loadavg_before_allocation=$(cut -d' ' -f1 /proc/loadavg)" >> "$meta"
allocation_limit=120
[ "$quick" = 1 ] && allocation_limit=5
echo "allocation_time_limit=$allocation_limit" >> "$meta"
"${pin[@]}" "$bin/hlomem_bench_allocation" --time-limit "$allocation_limit" > "$results/allocation.txt"

echo "loadavg_end=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$meta"
step "writing BENCHMARKS.md and docs/scaling.svg"
python3 "$root/benchmarks/write_report.py" "$results" "$root/BENCHMARKS.md" "$root/docs/scaling.svg"
