// Warp and block reductions for the kernels (device code only; include from .cu files).
// Every block function must be called by all threads of the block (blockDim.x a multiple of
// 32, at most 1024); each returns the result to every thread.
#pragma once

#include <cuda_runtime.h>

namespace lmscope::gpu::kernels {

__device__ inline float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ inline float block_sum(float v) {
    __shared__ float partial[32];  // [warp]
    const int lane = int(threadIdx.x) & 31, warp = int(threadIdx.x) >> 5;
    const int n_warps = int(blockDim.x) >> 5;
    v = warp_sum(v);
    __syncthreads();  // a previous call may still be reading `partial`
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    return warp_sum(lane < n_warps ? partial[lane] : 0.0f);
}

// Larger value wins; on equal values the smaller index wins (the first maximum).
__device__ inline void argmax_merge(float& v, int& i, float ov, int oi) {
    if (ov > v || (ov == v && oi < i)) {
        v = ov;
        i = oi;
    }
}

__device__ inline void warp_argmax(float& v, int& i) {
    for (int o = 16; o > 0; o >>= 1) {
        const float ov = __shfl_xor_sync(0xffffffffu, v, o);
        const int oi = __shfl_xor_sync(0xffffffffu, i, o);
        argmax_merge(v, i, ov, oi);
    }
}

__device__ inline void block_argmax(float& v, int& i) {
    __shared__ float pv[32];  // [warp]
    __shared__ int pi[32];    // [warp]
    const int lane = int(threadIdx.x) & 31, warp = int(threadIdx.x) >> 5;
    const int n_warps = int(blockDim.x) >> 5;
    warp_argmax(v, i);
    __syncthreads();
    if (lane == 0) {
        pv[warp] = v;
        pi[warp] = i;
    }
    __syncthreads();
    v = lane < n_warps ? pv[lane] : __int_as_float(0xff800000);  // -inf
    i = lane < n_warps ? pi[lane] : 0x7fffffff;
    warp_argmax(v, i);
}

}  // namespace lmscope::gpu::kernels
