// AVX-512 kernels (this file is compiled with -mavx2 -mfma -mf16c -mavx512f -mavx512bw
// -mavx512vl -mavx512vnni): 512-bit float loops, VNNI byte dot products.
#include "engine/kernels_variants.h"

#include "gguf/quant.h"
#include "gguf/quant_blocks.h"

#include "util/cpu_info.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <immintrin.h>

#if !defined(__AVX512F__) || !defined(__AVX512BW__) || !defined(__AVX512VL__) || !defined(__AVX512VNNI__)
#error "kernels_avx512.cpp needs -mavx512f -mavx512bw -mavx512vl -mavx512vnni"
#endif
#define LMSCOPE_KERNELS_512 1
#define LMSCOPE_KERNELS_VNNI 1

namespace lmscope::engine::kernels {

namespace {
#include "engine/kernels_x86.inc"
}  // namespace

const Kernels* avx512_kernels() {
    static const Kernels k = make_kernels("avx512");
    const CpuFeatures& f = cpu_features();
    const bool ok = f.avx2 && f.fma && f.f16c && f.avx512f && f.avx512bw && f.avx512vl && f.avx512vnni;
    return ok ? &k : nullptr;
}

}  // namespace lmscope::engine::kernels
