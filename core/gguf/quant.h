// Dequantization of GGUF tensor types to float32, and the quantizers the engine needs
// (KV cache storage and test data). Block layouts follow the GGUF / ggml format.
#pragma once

#include "gguf/gguf.h"
#include "gguf/half.h"
#include "gguf/tensor_type.h"

#include <cstdint>
#include <vector>

namespace lmscope::gguf {

// dst[0..n) = the n values stored in src (row_bytes(type, n) bytes, at any alignment).
// Throws UnsupportedError("unsupported tensor type NAME") for types outside is_supported(),
// UsageError when n is negative or not a multiple of the block size.
void dequantize_row(TensorType type, const void* src, float* dst, int64_t n);

// The whole tensor as float32, ne[0] fastest. Throws UnsupportedError like dequantize_row,
// FormatError(field "tensor NAME") when its shape and n_bytes disagree.
std::vector<float> dequantize(const TensorInfo& tensor);

// True when quantize_row() can produce this type: every type dequantize_row() reads.
bool can_quantize(TensorType type);
// dst receives row_bytes(type, n) bytes. Q4_0 .. Q8_0: the reference round-to-nearest
// encoding (the reference quantizers' rounding); the K-quants and IQ4 types: scales searched
// for the least squared error (gguf/quant_fit.h). Deterministic. Throws UnsupportedError for
// other types, UsageError for a partial block. NaN or inf inputs never cause undefined
// behaviour (their blocks decode to garbage, the others are unaffected).
void quantize_row(TensorType type, const float* src, void* dst, int64_t n);

// IEEE half and bfloat16 conversions: exact widening; narrowing rounds to nearest even,
// overflows to inf, keeps NaN a (quiet) NaN.
// Inline (see gguf/half.h) so per-element use in kernels costs no call.
inline float fp16_to_fp32(uint16_t h) { return detail::half_to_float(h); }
inline uint16_t fp32_to_fp16(float f) { return detail::float_to_half(f); }
inline float bf16_to_fp32(uint16_t h) { return detail::bf16_to_float(h); }
inline uint16_t fp32_to_bf16(float f) { return detail::float_to_bf16(f); }

}  // namespace lmscope::gguf
