#!/usr/bin/env bash
# The CUDA checks in one go, on a machine with an NVIDIA GPU (sm_80 or newer):
#   1. the parity tests (label cuda): every fixture model and SmolLM2, CUDA vs CPU;
#   2. lmscope-cli bench --backend cuda: prefill(512) and decode tok/s with capture none and
#      full, on the sample model (SmolLM2 Q4_1) and on random-weight models made here with
#      make_shape_model: SmolLM2's shapes in Q8_0 and Llama 3.2 1B's shapes in F16 (and the
#      CPU on the sample model for comparison, short);
#   3. the same per weight type (LMSCOPE_GPU_TYPES: SHAPE:TYPE pairs), capture none, one run.
# Results (test log, bench JSON) go to $OUT when set (the device tool), else ./gpu-results.
#
# Two ways to get the programs:
#   - a bundle made by scripts/gpu_bundle.sh (for bare machines with only CUDA): .gpu/run.tar.xz
#     is unpacked into $STAGE; the sample model comes from .gpu/model.part-NN pieces carried
#     now or copied into $STAGE by earlier calls (cp .gpu/model.part-NN $STAGE/);
#   - otherwise builds build-gpu here (needs the packages of scripts/setup.sh) and runs ctest.
# Device tool, three calls in a row (the machine stays warm between them):
#   run "mkdir -p /tmp/lmscope-gpu && cp .gpu/model.part-00 /tmp/lmscope-gpu/"  carry .gpu/model.part-00
#   run "cp .gpu/model.part-01 /tmp/lmscope-gpu/"                                carry .gpu/model.part-01
#   run "bash scripts/gpu_check.sh"                           carry .gpu/run.tar.xz  (timeout 540)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
out=${OUT:-$root/gpu-results}
stage=${STAGE:-/tmp/lmscope-gpu}
mkdir -p "$out" "$stage"
exec > >(tee "$out/gpu_check.log") 2>&1
date -u
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 | head -3

if [ -f .gpu/run.tar.xz ]; then
  tar -xJf .gpu/run.tar.xz -C "$stage" || exit 1
  for p in .gpu/model.part-*; do [ -f "$p" ] && cp "$p" "$stage/"; done
  model=""
  if ls "$stage"/model.part-* >/dev/null 2>&1; then
    cat "$stage"/model.part-* > "$stage/model.gguf"
    if [ "$(sha256sum "$stage/model.gguf" | cut -d' ' -f1)" = "$(cat "$stage/model.sha256")" ]; then
      model=$stage/model.gguf
    else
      echo "sample model pieces incomplete (sha256 differs): SmolLM2 checks skip"
    fi
  fi
  cuda_lib=$(dirname "$(ls /usr/local/cuda/lib64/libcublas.so.13 /usr/local/cuda*/lib64/libcublas.so.13 2>/dev/null | head -1)" 2>/dev/null)
  export LD_LIBRARY_PATH="$stage/lib:${cuda_lib:-/usr/local/cuda/lib64}:${LD_LIBRARY_PATH:-}"
  cli=$stage/bin/lmscope-cli
  maker=$stage/bin/make_shape_model
  "$cli" --version
  echo "== parity tests (cuda)"
  LMSCOPE_TESTDATA=$stage/testdata LMSCOPE_SAMPLE_MODEL=$model QT_QPA_PLATFORM=offscreen \
    timeout 300 "$stage/bin/test_cuda_parity" 2>&1 | tee "$out/test_cuda_parity.log"
  echo "test exit: ${PIPESTATUS[0]}"
else
  cmake -S . -B build-gpu -G Ninja -DLMSCOPE_CUDA=ON -DLMSCOPE_GUI=OFF -DCMAKE_BUILD_TYPE=Release || exit 1
  cmake --build build-gpu --target test_cuda_parity lmscope-cli make_shape_model -j"$(nproc)" || exit 1
  cli=build-gpu/app/lmscope-cli
  maker=build-gpu/tests/gpu/make_shape_model
  model=sample_models/SmolLM2-135M-Instruct.Q4_1.gguf
  [ -f "$model" ] || model=""
  "$cli" --version
  echo "== parity tests (cuda)"
  (cd build-gpu && timeout 300 ctest -L cuda -V) 2>&1 | tee "$out/test_cuda_parity.log"
fi

if [ -n "$model" ]; then
  for capture in none full; do
    echo "== bench cuda, capture $capture"
    timeout 120 "$cli" bench "$model" --backend cuda -p 512 -n 128 -r 3 --capture "$capture" --json \
      | tee "$out/bench-cuda-$capture.json"
  done
  echo "== bench cuda, q8_0 kv cache, capture none"
  timeout 60 "$cli" bench "$model" --backend cuda -p 512 -n 128 -r 3 --kv-type q8_0 --json \
    | tee "$out/bench-cuda-kvq8.json"
  echo "== bench cpu (reference), capture none"
  timeout 120 "$cli" bench "$model" --backend cpu -p 128 -n 32 -r 1 --threads "$(nproc)" --json \
    | tee "$out/bench-cpu.json"
else
  echo "no sample model: its benchmarks skipped"
fi

# random-weight models with published shapes (timing only)
for shape in "smollm2-135m q8_0" "llama-3.2-1b f16"; do
  set -- $shape
  file=$stage/$1-$2.gguf
  echo "== make $1 $2"
  timeout 120 "$maker" "$file" "$1" "$2" || continue
  for capture in none full; do
    echo "== bench cuda $1 $2, capture $capture"
    timeout 120 "$cli" bench "$file" --backend cuda -p 512 -n 128 -r 3 --capture "$capture" --json \
      | tee "$out/bench-cuda-$1-$2-$capture.json"
  done
  rm -f "$file"
done

# decode and prefill per weight type, weights decoded on the device (random weights with
# published shapes): the 32-element block types on SmolLM2's shapes, the 256-element ones on
# Llama 3.2 1B's (576 is no multiple of 256). Types the quantizer cannot make yet are skipped.
for shape_type in ${LMSCOPE_GPU_TYPES:-smollm2-135m:q4_0 smollm2-135m:q5_0 smollm2-135m:q5_1 smollm2-135m:bf16 \
                  smollm2-135m:iq4_nl llama-3.2-1b:q4_k llama-3.2-1b:q6_k llama-3.2-1b:q5_k llama-3.2-1b:iq4_xs}; do
  shape=${shape_type%%:*}
  type=${shape_type#*:}
  file=$stage/$shape-$type.gguf
  echo "== make $shape $type"
  timeout 120 "$maker" "$file" "$shape" "$type" || continue
  echo "== bench cuda $shape $type, capture none"
  timeout 90 "$cli" bench "$file" --backend cuda -p 512 -n 128 -r 1 --capture none --json \
    | tee "$out/bench-cuda-$shape-$type.json"
  rm -f "$file"
done
date -u
