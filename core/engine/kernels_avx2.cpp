// AVX2 + FMA + F16C kernels (this file is compiled with -mavx2 -mfma -mf16c).
#include "engine/kernels_variants.h"

#include "gguf/quant.h"
#include "gguf/quant_blocks.h"

#include "util/cpu_info.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <immintrin.h>

#define LMSCOPE_KERNELS_512 0
#define LMSCOPE_KERNELS_VNNI 0

namespace lmscope::engine::kernels {

namespace {
#include "engine/kernels_x86.inc"
}  // namespace

const Kernels* avx2_kernels() {
    static const Kernels k = make_kernels("avx2");
    const CpuFeatures& f = cpu_features();
    return (f.avx2 && f.fma && f.f16c) ? &k : nullptr;
}

}  // namespace lmscope::engine::kernels
