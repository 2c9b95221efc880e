// The AVX-512 kernel variant built on SIMDe's portable AVX-512 (kernels_avx512_emulated.cpp),
// for the kernel tests on a CPU without AVX-512.
#pragma once

#include "engine/kernels.h"

namespace lmscope::engine::kernels {

const Kernels& avx512_emulated();

}  // namespace lmscope::engine::kernels
