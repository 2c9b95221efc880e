#!/usr/bin/env bash
# Benchmarks on models with the exact shapes of real ones (random weights; speed only).
#
#   scripts/perf_models.sh [--shapes smollm2-135m,qwen3-0.6b,llama-3.2-1b] [--types Q4_0,Q4_1,Q8_0]
#                          [--cli PATH]... [-- BENCH ARGS]
#
# Writes the models with ../shared/tools/make_perf_model.py into $LMSCOPE_PERF_DIR (default
# ~/.cache/lmscope-perf, outside the repository; written once), in a virtual environment there
# holding numpy, sentencepiece and gguf (installed with python3 -m pip on first use). Then runs
# `lmscope-cli bench` on each model with every --cli given (default build/app/lmscope-cli), one
# after the other per model so that two builds are compared side by side in one run, and prints
# one line per model and build. Bench arguments after -- (default: --threads 2 -r 5).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${LMSCOPE_SHARED:-$root/../shared}/tools"
spm="${LMSCOPE_SHARED:-$root/../shared}/testdata/tokenizer/fx-spm-1024.model"
dir="${LMSCOPE_PERF_DIR:-$HOME/.cache/lmscope-perf}"
shapes="smollm2-135m,qwen3-0.6b,llama-3.2-1b"
types="Q4_0,Q4_1,Q8_0"
clis=()
bench=(--threads 2 -r 5)
while [ $# -gt 0 ]; do
  case "$1" in
    --shapes) shapes="$2"; shift 2 ;;
    --types) types="$2"; shift 2 ;;
    --cli) clis+=("$2"); shift 2 ;;
    --) shift; bench=("$@"); break ;;
    *) echo "perf_models.sh: unknown argument '$1' (see the header of this script)" >&2; exit 2 ;;
  esac
done
[ ${#clis[@]} -gt 0 ] || clis=("$root/build/app/lmscope-cli")
for cli in "${clis[@]}"; do
  [ -x "$cli" ] || { echo "perf_models.sh: $cli is not an executable lmscope-cli (build first)" >&2; exit 1; }
done
[ -f "$tools/make_perf_model.py" ] || { echo "perf_models.sh: $tools/make_perf_model.py not found (set LMSCOPE_SHARED)" >&2; exit 1; }

mkdir -p "$dir"
if [ ! -x "$dir/venv/bin/python3" ]; then
  python3 -m venv "$dir/venv"
  "$dir/venv/bin/python3" -m pip install --quiet numpy sentencepiece gguf
fi

IFS=, read -r -a shape_list <<< "$shapes"
IFS=, read -r -a type_list <<< "$types"
for shape in "${shape_list[@]}"; do
  for type in "${type_list[@]}"; do
    model="$dir/$shape-$type.gguf"
    if [ ! -s "$model" ]; then
      echo "perf_models.sh: writing $model" >&2
      "$dir/venv/bin/python3" "$tools/make_perf_model.py" "$spm" "$model.part" "$shape" "$type" >&2
      mv "$model.part" "$model"
    fi
    for cli in "${clis[@]}"; do
      "$cli" bench "$model" "${bench[@]}" --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
ceiling = j.get("decode_ceiling_tok_s")
extra = " (ceiling %.0f, %.0f%%)" % (ceiling, 100 * j["decode_fraction_of_ceiling"]) if ceiling else ""
print("%-24s %-40s prefill %7.1f tok/s  decode %6.1f tok/s%s  rss %d MiB" % (
    sys.argv[1], sys.argv[2], j["prefill_tok_s"], j["decode_tok_s"], extra, j["peak_rss_bytes"] >> 20))
' "$shape-$type" "$cli"
    done
  done
done
