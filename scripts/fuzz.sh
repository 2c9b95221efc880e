#!/usr/bin/env bash
# Builds one libFuzzer harness (fuzz/NAME.cpp) with clang and -fsanitize=fuzzer,address,undefined
# (CMake preset "fuzz", folder build-fuzz/) and runs it for MINUTES on one core.
#
#   scripts/fuzz.sh NAME MINUTES [libFuzzer options]
#   NAME: gguf_reader model_load tokenizer spm_model trace_file chat_template vocab_text json_depth
#         trace_writer
#
# Corpus: build-fuzz/corpus/NAME (grows; new inputs land here), read with the seeds that
# lmscope-fuzz-seeds derives from ../shared/testdata (build-fuzz/seeds/NAME) and the committed
# regression cases (tests/fuzz/corpus/NAME). A crash stops the run: its input is written to
# build-fuzz/crashes/NAME/ and the script exits non-zero. Fix the bug, then copy the input
# (small) into tests/fuzz/corpus/NAME/ so CTest replays it in every build.
# Needs clang-14 (Debian's clang-14 package ships the libFuzzer runtime); the normal build does not.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ $# -lt 2 ]]; then
  echo "usage: scripts/fuzz.sh NAME MINUTES [libFuzzer options]" >&2
  exit 2
fi
name=$1 minutes=$2
shift 2
if [[ ! -f fuzz/$name.cpp ]]; then
  echo "fuzz.sh: no harness fuzz/$name.cpp" >&2
  exit 2
fi
command -v clang++-14 >/dev/null || { echo "fuzz.sh: clang++-14 is missing (apt-get install clang-14)" >&2; exit 1; }

cmake --preset fuzz >/dev/null
cmake --build build-fuzz --parallel "$(nproc)" --target "fuzz-$name" lmscope-fuzz-seeds

export LMSCOPE_TESTDATA="${LMSCOPE_TESTDATA:-$PWD/../shared/testdata}"
export LMSCOPE_SAMPLE_MODEL="${LMSCOPE_SAMPLE_MODEL:-$PWD/sample_models/SmolLM2-135M-Instruct.Q4_1.gguf}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
build-fuzz/fuzz/lmscope-fuzz-seeds build-fuzz/seeds >/dev/null

corpus=build-fuzz/corpus/$name crashes=build-fuzz/crashes/$name log=build-fuzz/logs/$name.log
mkdir -p "$corpus" "$crashes" "$(dirname "$log")" "build-fuzz/seeds/$name" "tests/fuzz/corpus/$name"

echo "fuzz.sh: running fuzz-$name for $minutes minute(s), log in $log"
start=$(date +%s)
set +e
# -timeout: one input may take 25 s at most (a hang counts as a crash); -rss_limit_mb: memory.
TIMEFORMAT="%U %S"
{ time "build-fuzz/fuzz/fuzz-$name" "$corpus" "build-fuzz/seeds/$name" "tests/fuzz/corpus/$name" \
  -max_total_time=$((minutes * 60)) -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$crashes/" "$@" >"$log" 2>&1 ; } 2>"$log.time"
status=$?
cpu=$(awk '{printf "%.1f", ($1 + $2) / 60}' "$log.time")
set -e
seconds=$(( $(date +%s) - start ))

execs=$(grep -Eo 'stat::number_of_executed_units: [0-9]+' "$log" | awk '{print $2}' | tail -1)
grep -E '^#[0-9]+ +(INITED|DONE)' "$log" | tail -2 || true
echo "fuzz.sh: $name: ${execs:-?} executions in ${seconds} s (${cpu} CPU-minutes), corpus $(ls "$corpus" | wc -l) inputs"
if [[ $status -ne 0 ]]; then
  grep -E "ERROR: |runtime error:|==[0-9]+==|deadly signal|Test unit written|SUMMARY" "$log" | head -20 >&2 || true
  echo "fuzz.sh: $name: crash (exit $status), inputs in $crashes/, full report in $log" >&2
  exit 1
fi
echo "fuzz.sh: $name: no crash"
