// AVX-512 kernels (this file is compiled with -mavx2 -mfma -mf16c -mavx512f -mavx512bw
// -mavx512vl -mavx512vnni): 512-bit float loops, VNNI byte dot products.
#include "engine/kernels_variants.h"

#include "util/cpu_info.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <immintrin.h>

namespace lmscope::engine::kernels {

namespace {
#include "engine/kernels_x86.inc"
}  // namespace

const Kernels* avx512_kernels() {
    static const Kernels k{"avx512", dot_f32,    dot_f16,     axpy_f32, axpy_f16, dot_f16_rows, axpy_f16_rows, f16_to_f32,
                           axpy_f32_rows, f16_to_f32_t, dot_cols_f32, f32_to_f16, swiglu,      softmax,     quantize_q8, dot_q4_0,   dot_q4_1, dot_q8_0,
                           packed<Q4_0P>, packed<Q4_1P>, packed<Q8_0P>};
    const CpuFeatures& f = cpu_features();
    const bool ok = f.avx2 && f.fma && f.f16c && f.avx512f && f.avx512bw && f.avx512vl && f.avx512vnni;
    return ok ? &k : nullptr;
}

}  // namespace lmscope::engine::kernels
