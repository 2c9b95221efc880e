// Weight rows decoded to half in device memory: the tiles prefill hands to cuBLAS.
#pragma once

#include "gguf/tensor_type.h"

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu::kernels {

// True when weight_blocks.cuh has a decoder for `type` (the kernels take it).
bool has_decoder(gguf::TensorType type);

// w: [rows][row_bytes(type, k)] (as gemv's); out: [rows][k] half, 16-byte aligned.
// Throws UnsupportedError for a type with no decoder.
void dequant_rows(const uint8_t* w, gguf::TensorType type, int32_t rows, int32_t k, __half* out,
                  cudaStream_t stream);

}  // namespace lmscope::gpu::kernels
