#include "gpu/kernels/kv_store.cuh"

#include "gpu/cuda_check.h"

#include <cuda_fp16.h>

namespace lmscope::gpu::kernels {

namespace {

__device__ inline void store_half_le(uint8_t* p, float v) {
    const unsigned short bits = __half_as_ushort(__float2half_rn(v));
    p[0] = uint8_t(bits & 0xffu);
    p[1] = uint8_t(bits >> 8);
}

// Selects as in the host quantizer: NaN gives the bound.
__device__ inline float clamp_low(float v, float lo) { return v > lo ? v : lo; }
__device__ inline float clamp_high(float v, float hi) { return v < hi ? v : hi; }

// q8_0: d = amax / 127, q = round(x / d) half away from zero, clamped to [-127, 127].
__device__ void quantize_q8_0(const float* x, uint8_t* blk) {
    float amax = 0.0f;
    for (int j = 0; j < kKvBlock; ++j) amax = clamp_low(fabsf(x[j]), amax);
    const float d = amax / 127.0f;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    store_half_le(blk, d);
    for (int j = 0; j < kKvBlock; ++j) {
        const float v = clamp_high(clamp_low(x[j] * id, -127.0f), 127.0f);
        const float a = fabsf(v);
        const int t = int(a);
        const int r = t + int((a - float(t)) * 2.0f);  // +1 when the fraction >= 0.5
        blk[2 + j] = uint8_t(int8_t(v < 0.0f ? -r : r));
    }
}

// q4_0: d = (first value of largest magnitude) / -8, q = floor(x / d + 8.5) clamped to [0, 15];
// byte k holds element k (low nibble) and element k + 16 (high nibble).
__device__ void quantize_q4_0(const float* x, uint8_t* blk) {
    float amax = 0.0f, vmax = 0.0f;
    for (int j = 0; j < kKvBlock; ++j) {
        const float a = fabsf(x[j]);
        if (a > amax) {
            amax = a;
            vmax = x[j];
        }
    }
    const float d = vmax / -8.0f;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    store_half_le(blk, d);
    for (int j = 0; j < kKvBlock / 2; ++j) {
        const int q0 = int(clamp_high(clamp_low(x[j] * id + 8.5f, 0.0f), 15.0f));
        const int q1 = int(clamp_high(clamp_low(x[j + kKvBlock / 2] * id + 8.5f, 0.0f), 15.0f));
        blk[2 + j] = uint8_t(q0 | (q1 << 4));
    }
}

// f16: one thread per value; index = ((t * 2 + which) * n_kv + g) * head_dim + d
__global__ void kv_store_f16_kernel(const float* __restrict__ k_src, const float* __restrict__ v_src,
                                    int32_t src_stride, int64_t total, int32_t n_kv,
                                    int32_t head_dim, int32_t row_bytes, uint8_t* k_ring,
                                    uint8_t* v_ring, int32_t ring_cap, int32_t pos0) {
    for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
         idx += int64_t(gridDim.x) * blockDim.x) {
        int64_t e = idx;
        const int32_t d = int32_t(e % head_dim);
        e /= head_dim;
        const int32_t g = int32_t(e % n_kv);
        e /= n_kv;
        const int32_t which = int32_t(e % 2);  // 0: K, 1: V
        const int32_t t = int32_t(e / 2);
        const float* src = (which == 0 ? k_src : v_src) + size_t(t) * size_t(src_stride) +
                           size_t(g) * size_t(head_dim);
        const int32_t slot = (pos0 + t) % ring_cap;
        uint8_t* dst = (which == 0 ? k_ring : v_ring) +
                       (size_t(slot) * size_t(n_kv) + size_t(g)) * size_t(row_bytes);
        reinterpret_cast<__half*>(dst)[d] = __float2half_rn(src[d]);
    }
}

// q8_0 / q4_0: one thread per block of 32 values; index = ((t * 2 + which) * n_kv + g) * nb + b
__global__ void kv_store_block_kernel(const float* __restrict__ k_src, const float* __restrict__ v_src,
                                      int32_t src_stride, int64_t total, int32_t n_kv,
                                      int32_t head_dim, KvType type, int32_t row_bytes,
                                      uint8_t* k_ring, uint8_t* v_ring, int32_t ring_cap,
                                      int32_t pos0) {
    const int32_t nb = head_dim / kKvBlock;
    const int32_t block_bytes = type == KvType::Q8_0 ? kQ8_0Bytes : kQ4_0Bytes;
    for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
         idx += int64_t(gridDim.x) * blockDim.x) {
        int64_t e = idx;
        const int32_t b = int32_t(e % nb);
        e /= nb;
        const int32_t g = int32_t(e % n_kv);
        e /= n_kv;
        const int32_t which = int32_t(e % 2);
        const int32_t t = int32_t(e / 2);
        const float* src = (which == 0 ? k_src : v_src) + size_t(t) * size_t(src_stride) +
                           size_t(g) * size_t(head_dim) + size_t(b) * kKvBlock;
        const int32_t slot = (pos0 + t) % ring_cap;
        uint8_t* dst = (which == 0 ? k_ring : v_ring) +
                       (size_t(slot) * size_t(n_kv) + size_t(g)) * size_t(row_bytes) +
                       size_t(b) * size_t(block_bytes);
        if (type == KvType::Q8_0)
            quantize_q8_0(src, dst);
        else
            quantize_q4_0(src, dst);
    }
}

unsigned grid_for(int64_t total, int threads) {
    const int64_t blocks = (total + threads - 1) / threads;
    return unsigned(blocks < 65535 ? blocks : 65535);  // grid-stride loops cover the rest
}

}  // namespace

void kv_store(const float* k_src, const float* v_src, int32_t src_stride, int32_t n_rows,
              int32_t n_kv, int32_t head_dim, KvType type, int32_t row_bytes,
              uint8_t* k_ring, uint8_t* v_ring, int32_t ring_cap, int32_t pos0,
              cudaStream_t stream) {
    if (n_rows <= 0) return;
    constexpr int kThreads = 256;
    if (type == KvType::F16) {
        const int64_t total = int64_t(n_rows) * 2 * n_kv * head_dim;
        kv_store_f16_kernel<<<grid_for(total, kThreads), kThreads, 0, stream>>>(
            k_src, v_src, src_stride, total, n_kv, head_dim, row_bytes, k_ring, v_ring, ring_cap, pos0);
    } else {
        const int64_t total = int64_t(n_rows) * 2 * n_kv * (head_dim / kKvBlock);
        kv_store_block_kernel<<<grid_for(total, kThreads), kThreads, 0, stream>>>(
            k_src, v_src, src_stride, total, n_kv, head_dim, type, row_bytes, k_ring, v_ring,
            ring_cap, pos0);
    }
    LMSCOPE_CUDA_LAUNCHED();
}

}  // namespace lmscope::gpu::kernels
