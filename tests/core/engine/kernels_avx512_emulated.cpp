// The AVX-512 kernels (kernels_x86.inc with its 512-bit and VNNI blocks) compiled for a CPU
// without AVX-512: every AVX-512 intrinsic is SIMDe's portable version (SIMDe's native aliases;
// built with -mavx2 -mfma -mf16c, so its 512-bit vectors are pairs of native AVX2 ones). The
// kernel tests run this table next to the real variants, so the AVX-512 code is checked on
// every machine, also one whose CPU has no AVX-512. Its speed means nothing.
#include "kernels_avx512_emulated.h"

#include "engine/kernels.h"
#include "gguf/quant.h"
#include "gguf/quant_blocks.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <immintrin.h>

#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>

// What SIMDe 0.7 lacks of what the kernels use, written lane by lane (each lane as the
// instruction defines it). GCC declares the real ones for AVX-512 targets only, so the names
// are redirected here.
namespace lmscope::engine::kernels::emulated {

inline simde__m512 cvtepi32_ps(simde__m512i v) {
    int32_t in[16];
    float out[16];
    simde_mm512_storeu_si512(in, v);
    for (int i = 0; i < 16; ++i) out[i] = float(in[i]);
    return simde_mm512_loadu_ps(out);
}

inline simde__m512i cvtepi8_epi32(simde__m128i v) {
    int8_t in[16];
    int32_t out[16];
    simde_mm_storeu_si128(in, v);
    for (int i = 0; i < 16; ++i) out[i] = in[i];
    return simde_mm512_loadu_si512(out);
}

inline simde__m512 cvtph_ps(simde__m256i v) {
    uint16_t in[16];
    float out[16];
    simde_mm256_storeu_si256(in, v);
    for (int i = 0; i < 16; ++i) out[i] = _cvtsh_ss(in[i]);
    return simde_mm512_loadu_ps(out);
}

inline void mask_storeu_ps(float* p, simde__mmask16 k, simde__m512 v) {
    float lanes[16];
    simde_mm512_storeu_ps(lanes, v);
    for (int i = 0; i < 16; ++i)
        if (k >> i & 1) p[i] = lanes[i];
}

inline simde__m512 maskz_loadu_ps(simde__mmask16 k, const float* p) {
    float lanes[16];
    for (int i = 0; i < 16; ++i) lanes[i] = (k >> i & 1) ? p[i] : 0.0f;
    return simde_mm512_loadu_ps(lanes);
}

// Halves added pairwise (lanes i and i + 8, then i + 4, ...), the order GCC's reduction uses.
inline float reduce_add_ps(simde__m512 v) {
    float lanes[16];
    simde_mm512_storeu_ps(lanes, v);
    for (int width = 8; width >= 1; width /= 2)
        for (int i = 0; i < width; ++i) lanes[i] += lanes[i + width];
    return lanes[0];
}

}  // namespace lmscope::engine::kernels::emulated

#define _mm512_cvtepi32_ps lmscope::engine::kernels::emulated::cvtepi32_ps
#define _mm512_cvtepi8_epi32 lmscope::engine::kernels::emulated::cvtepi8_epi32
#define _mm512_cvtph_ps lmscope::engine::kernels::emulated::cvtph_ps
#define _mm512_mask_storeu_ps lmscope::engine::kernels::emulated::mask_storeu_ps
#define _mm512_maskz_loadu_ps lmscope::engine::kernels::emulated::maskz_loadu_ps
#define _mm512_reduce_add_ps lmscope::engine::kernels::emulated::reduce_add_ps
#define _mm512_shuffle_f32x4 simde_mm512_shuffle_f32x4  // SIMDe has it, without the native alias

#define LMSCOPE_KERNELS_512 1
#define LMSCOPE_KERNELS_VNNI 1

namespace lmscope::engine::kernels {

namespace {
#include "engine/kernels_x86.inc"
}  // namespace

const Kernels& avx512_emulated() {
    static const Kernels k = make_kernels("avx512 (emulated)");
    return k;
}

}  // namespace lmscope::engine::kernels
