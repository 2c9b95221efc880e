#include "gpu/kernels/attention.cuh"

#include "gpu/cuda_check.h"
#include "gpu/kernels/reduce.cuh"

namespace lmscope::gpu::kernels {

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kDimsPerLane = kMaxHeadDim / 32;

__device__ inline float half_le(const uint8_t* p) {
    return __half2float(__ushort_as_half(static_cast<unsigned short>(p[0] | (p[1] << 8))));
}

// Value d of a stored row (format layouts in kv_format.cuh).
__device__ inline float load_value(const uint8_t* row, int32_t d, KvType type) {
    if (type == KvType::F16) return __half2float(reinterpret_cast<const __half*>(row)[d]);
    const int32_t e = d & (kKvBlock - 1);
    if (type == KvType::Q8_0) {
        const uint8_t* blk = row + size_t(d / kKvBlock) * kQ8_0Bytes;
        return half_le(blk) * float(static_cast<int8_t>(blk[2 + e]));
    }
    const uint8_t* blk = row + size_t(d / kKvBlock) * kQ4_0Bytes;
    const uint8_t b = blk[2 + (e & 15)];
    const int32_t q = e < 16 ? (b & 0x0f) : (b >> 4);
    return half_le(blk) * float(q - 8);
}

__device__ inline const uint8_t* kv_row(const uint8_t* old_base, const uint8_t* ring_base,
                                        const KvView& kv, int32_t j, int32_t g) {
    if (j < kv.n_old)
        return old_base + (size_t(j) * size_t(kv.n_kv) + size_t(g)) * size_t(kv.row_bytes);
    return ring_base +
           (size_t(j % kv.ring_cap) * size_t(kv.n_kv) + size_t(g)) * size_t(kv.row_bytes);
}

// One block per (row, head): blockIdx.x = (r - row0) * n_head + h.
// Shared memory: q [head_dim] then the warps' partial outputs [kWarps][head_dim].
__global__ void __launch_bounds__(kThreads)
attention_kernel(AttentionArgs a, KvView kv) {
    extern __shared__ float smem[];
    float* qs = smem;                  // [head_dim]
    float* part = smem + a.head_dim;   // [kWarps][head_dim]
    const int32_t h = int32_t(blockIdx.x) % a.n_head;
    const int32_t rl = int32_t(blockIdx.x) / a.n_head;  // row within this launch
    const int32_t r = a.row0 + rl;                        // row within the step
    const int32_t g = h / (a.n_head / a.n_kv);            // kv head
    const int32_t n_keys = a.pos0 + r + 1;                // causal: keys 0 .. position of r
    const int32_t j0 = a.window > 0 ? max(0, n_keys - a.window) : 0;  // first visible key
    const int32_t n_keys_all = a.pos0 + a.n_step;
    const int32_t hd = a.head_dim;
    const int32_t tid = int32_t(threadIdx.x), lane = tid & 31, warp = tid >> 5;

    const float* q = a.q + size_t(r - a.q_row0) * size_t(a.q_stride) + size_t(h) * size_t(hd);
    for (int32_t d = tid; d < hd; d += kThreads) qs[d] = q[d];
    __syncthreads();

    float* p = a.probs + (size_t(h) * size_t(a.n_rows) + size_t(rl)) * size_t(n_keys_all);

    // 1. scores p[j] = scale * q . K[j] (soft-capped when asked): one warp per key, lanes over
    //    the dimensions
    float best = __int_as_float(0xff800000);  // -inf
    int best_j = 0x7fffffff;
    for (int32_t j = j0 + warp; j < n_keys; j += kWarps) {
        const uint8_t* krow = kv_row(kv.k_old, kv.k_ring, kv, j, g);
        float acc = 0.0f;
        for (int32_t d = lane; d < hd; d += 32) acc += qs[d] * load_value(krow, d, kv.type);
        acc = warp_sum(acc) * a.scale;  // every lane holds the sum
        if (a.softcap > 0.0f) acc = a.softcap * tanhf(acc / a.softcap);
        if (lane == 0) p[j] = acc;
        argmax_merge(best, best_j, acc, j);
    }
    block_argmax(best, best_j);  // synchronizes the block: p[] is visible to every thread
    if (a.scores) {  // uniform across the block
        float* sc = a.scores + (size_t(h) * size_t(a.n_rows) + size_t(rl)) * size_t(n_keys_all);
        for (int32_t j = tid; j < n_keys_all; j += kThreads) sc[j] = j >= j0 && j < n_keys ? p[j] : __int_as_float(0xff800000);
        __syncthreads();  // read before step 2 rewrites p[]
    }

    // 2. p[j] = exp(p[j] - max), summed
    float sum = 0.0f;
    for (int32_t j = j0 + tid; j < n_keys; j += kThreads) {
        const float e = expf(p[j] - best);
        p[j] = e;
        sum += e;
    }
    sum = block_sum(sum);
    const float inv = 1.0f / sum;

    // 3. normalize (each thread rewrites only the entries it wrote in step 2), entropy,
    //    zeros before the window and past the causal limit
    float ent = 0.0f;
    for (int32_t j = j0 + tid; j < n_keys; j += kThreads) {
        const float w = p[j] * inv;
        p[j] = w;
        if (w > 0.0f) ent -= w * logf(w);
    }
    for (int32_t j = tid; j < j0; j += kThreads) p[j] = 0.0f;
    for (int32_t j = n_keys + tid; j < n_keys_all; j += kThreads) p[j] = 0.0f;
    if (a.summaries) {  // uniform across the block
        ent = block_sum(ent);
        if (tid == 0) {
            HeadSummary s;
            s.entropy = ent;
            s.max_weight = inv;  // exp(max - max) / sum
            s.argmax_key = best_j;
            a.summaries[size_t(h) * size_t(a.n_step) + size_t(r)] = s;
        }
    }
    __syncthreads();  // the normalized p[] is visible to every thread

    // 4. out = sum_j p[j] V[j]: one warp per key, lane holds dimensions lane + 32 i
    float acc[kDimsPerLane];
    for (int i = 0; i < kDimsPerLane; ++i) acc[i] = 0.0f;
    for (int32_t j = j0 + warp; j < n_keys; j += kWarps) {
        const float w = p[j];
        const uint8_t* vrow = kv_row(kv.v_old, kv.v_ring, kv, j, g);
#pragma unroll
        for (int i = 0; i < kDimsPerLane; ++i) {
            const int32_t d = lane + 32 * i;
            if (d < hd) acc[i] += w * load_value(vrow, d, kv.type);
        }
    }
#pragma unroll
    for (int i = 0; i < kDimsPerLane; ++i) {
        const int32_t d = lane + 32 * i;
        if (d < hd) part[size_t(warp) * size_t(hd) + size_t(d)] = acc[i];
    }
    __syncthreads();
    __half* o = a.out + size_t(r - a.q_row0) * size_t(a.n_head) * size_t(hd) + size_t(h) * size_t(hd);
    for (int32_t d = tid; d < hd; d += kThreads) {
        float s = 0.0f;
        for (int w = 0; w < kWarps; ++w) s += part[size_t(w) * size_t(hd) + size_t(d)];
        o[d] = __float2half_rn(s);
    }
}

}  // namespace

void attention(const AttentionArgs& args, const KvView& kv, cudaStream_t stream) {
    if (args.n_rows <= 0) return;
    const size_t shared = size_t(args.head_dim) * (1 + kWarps) * sizeof(float);
    const int64_t blocks = int64_t(args.n_rows) * args.n_head;
    attention_kernel<<<unsigned(blocks), kThreads, shared, stream>>>(args, kv);
    LMSCOPE_CUDA_LAUNCHED();
}

}  // namespace lmscope::gpu::kernels
