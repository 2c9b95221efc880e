// The instruction-set variants of kernels.h (internal to the engine). Each returns nullptr
// when this CPU lacks the instructions it was compiled for.
#pragma once

#include "engine/kernels.h"

namespace lmscope::engine::kernels {

const Kernels* avx512_kernels();  // kernels_avx512.cpp: AVX-512 F/BW/VL/VNNI + F16C
const Kernels* avx2_kernels();    // kernels_avx2.cpp: AVX2 + FMA + F16C

}  // namespace lmscope::engine::kernels
