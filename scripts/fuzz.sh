#!/usr/bin/env bash
# Builds hlomem's libFuzzer targets (fuzz/, Clang with ASan and UBSan), seeds each one's corpus
# from tests/data, and runs each for SECONDS (default 60). Fails when any target finds a crash,
# a sanitizer report, a failed check, a leak or a hang; the input is left in
# build-fuzz/findings/TARGET/ and the command to reproduce it is printed.
#
#   scripts/fuzz.sh                      every target for 60 s
#   scripts/fuzz.sh 1800 shape hlo_module   two targets for 30 minutes each
#   JOBS=2 scripts/fuzz.sh 60            two targets at a time (default: one per core)
#   OPTIMIZATION=-O0 scripts/fuzz.sh 30  built at -O0: half the build time, for a short run
#                                        (default -O1, libFuzzer's recommendation)
#
# The corpora in build-fuzz/corpus/TARGET/ grow from run to run.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(shape buffer_assignment live_range memory_usage_report hlo_module oom_report minimalloc_csv)
fi
jobs=${JOBS:-$(nproc)}
build=build-fuzz

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ -DHLOMEM_BUILD_FUZZERS=ON \
  -DHLOMEM_BUILD_TESTS=OFF -DHLOMEM_BUILD_EXAMPLES=OFF -DHLOMEM_FUZZ_OPTIMIZATION="${OPTIMIZATION:--O1}" > /dev/null
cmake --build "$build" -j"$jobs" --target $(printf 'hlomem_fuzz_%s ' "${targets[@]}")

# Seed corpora: every file of tests/data whose first line says it is of the target's kind (files
# up to 64 KiB, so that each run stays fast), the live-range sections of buffer-assignment dumps,
# and the distinct shapes of all dumps, one per file.
seed() {
  local target=$1 dir=$build/corpus/$1
  mkdir -p "$dir"
  local f first
  while IFS= read -r -d '' f; do
    first=$(grep -m1 -v '^[[:space:]]*$' "$f" || true)
    case $target:$first in
      buffer_assignment:BufferAssignment:*) cp "$f" "$dir/" ;;
      live_range:HloLiveRange*) cp "$f" "$dir/" ;;
      live_range:BufferAssignment:*)
        sed -n '/^HloLiveRange/,$p' "$f" > "$dir/$(basename "$f").live-range" ;;
      memory_usage_report:Total\ bytes\ used:*) cp "$f" "$dir/" ;;
      hlo_module:HloModule\ *) cp "$f" "$dir/" ;;
      oom_report:*) case $f in */oom/*) cp "$f" "$dir/" ;; esac ;;
      minimalloc_csv:*) case $f in *.csv) cp "$f" "$dir/" ;; esac ;;
    esac
  done < <(find tests/data -type f -size -64k -print0)
  if [ "$target" = shape ]; then
    find tests/data -type f -print0 | xargs -0 grep -ohE '\b(pred|[sufc][0-9]+|bf16|f8e[0-9a-z]+|token)\[[0-9,<=?]*\](\{[^}]*\})?' |
      sort -u | head -2000 | split -l 1 - "$dir/shape-"
  fi
  find "$dir" -type f -empty -delete
}

run() {
  local target=$1
  local findings=$build/findings/$target
  mkdir -p "$findings"
  local log=$build/fuzz-$target.log
  if "$build/fuzz/hlomem_fuzz_$target" "$build/corpus/$target" -dict="fuzz/dictionaries/$target.dict" \
       -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
       -artifact_prefix="$findings/" > "$log" 2>&1; then
    echo "fuzz $target: $(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$') executions in ${seconds}s, no finding"
  else
    echo "fuzz $target: FINDING (log: $log)" >&2
    tail -40 "$log" >&2
    echo "reproduce: $build/fuzz/hlomem_fuzz_$target $findings/<file>" >&2
    return 1
  fi
}

for t in "${targets[@]}"; do seed "$t"; done
export -f run
export build seconds
printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'run {}'
