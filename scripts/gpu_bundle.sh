#!/usr/bin/env bash
# Prepares, on a machine without a GPU, what scripts/gpu_check.sh needs on a bare GPU machine
# that has CUDA 13 but none of lmscope's other packages (the device tool's H200 machines):
#   .gpu/run.tar.xz     the CUDA test, lmscope-cli and make_shape_model built here, the shared libraries they
#                       need beyond glibc, the C++ runtime and CUDA, the fixture models and
#                       their references, and the sample model's sha256
#   .gpu/model.part-NN  the sample model in pieces of 48 MiB (each device call carries at most
#                       64 MiB, so the pieces travel in calls of their own; see gpu_check.sh)
# .gpu/ is git-ignored (.gitignore). Usage: scripts/gpu_bundle.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build=${1:-build-cuda}
testdata=${LMSCOPE_TESTDATA:-$root/../shared/testdata}
model=sample_models/SmolLM2-135M-Instruct.Q4_1.gguf

cmake -S . -B "$build" -G Ninja -DLMSCOPE_CUDA=ON -DLMSCOPE_GUI=OFF >/dev/null
cmake --build "$build" --target test_cuda_parity lmscope-cli make_shape_model -j"${JOBS:-2}"

rm -rf .gpu
stage=.gpu/stage
mkdir -p "$stage/bin" "$stage/lib" "$stage/testdata"
cp "$build/tests/gpu/test_cuda_parity" "$build/tests/gpu/make_shape_model" "$build/app/lmscope-cli" "$stage/bin/"
for lib in $(ldd "$stage"/bin/* | awk '/=>/ { print $3 }' | sort -u); do
  case "$(basename "$lib")" in
    libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|libstdc++.so*|libgcc_s.so*|libcudart.so*|libcublas*.so*) ;;
    *) cp -L "$lib" "$stage/lib/" ;;
  esac
done
cp -r "$testdata/models" "$testdata/reference" "$stage/testdata/"
if [ -f "$model" ]; then
  sha256sum "$model" | cut -d' ' -f1 > "$stage/model.sha256"
  split -b 48M -d "$model" .gpu/model.part-
fi
tar -cf - -C "$stage" . | xz -T"${JOBS:-2}" -6 > .gpu/run.tar.xz
rm -rf "$stage"
ls -la .gpu
