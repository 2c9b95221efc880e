#include "gpu/device_kv.h"

#include "gpu/cuda_check.h"
#include "util/error.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace lmscope::gpu {

DeviceKv::DeviceKv(engine::KvShape shape, int32_t n_ctx, int32_t offload_window, cudaStream_t stream)
    : shape_(shape), n_ctx_(n_ctx),
      window_(std::min(std::max(offload_window, 0), std::max(n_ctx, 0))), stream_(stream),
      ring_("kv cache"), staging_("kv offload staging"), host_("kv offload host copy") {
    if (shape.n_layer <= 0 || shape.n_kv_head <= 0 || shape.head_dim <= 0 || n_ctx <= 0)
        throw UsageError("kv cache: layers, kv heads, head dim and context must be positive");
    if (shape.type != KvType::F16 && shape.head_dim % kernels::kKvBlock != 0)
        throw UsageError("kv cache type " + std::string(kv_type_name(shape.type)) +
                         " needs a head dimension that is a multiple of 32, not " +
                         std::to_string(shape.head_dim));
    row_bytes_ = shape.row_bytes();
    if (window_ > 0) {
        ring_cap_ = window_;
        ring_.ensure(checked_bytes(size_t(shape_.n_layer) * 2 * size_t(ring_cap_), pos_stride(), "kv cache"));
    }
}

void DeviceKv::truncate(int32_t n) {
    if (n < 0 || n > n_tokens_)
        throw UsageError("kv truncate: " + std::to_string(n) + " is past the " +
                         std::to_string(n_tokens_) + " cached positions");
    n_tokens_ = n;
}

int32_t DeviceKv::device_tokens() const {
    return window_ > 0 ? std::max(0, n_tokens_ - std::max(valid_lo_, n_tokens_ - window_)) : n_tokens_;
}

void DeviceKv::reserve(int32_t n) {
    if (n > n_ctx_) throw UsageError("kv reserve: " + std::to_string(n) + " positions exceed the context");
    if (window_ > 0) {
        ensure_host(n);
        return;
    }
    if (n <= ring_cap_) return;
    const int32_t cap = std::min(n_ctx_, std::max({n, 2 * ring_cap_, 16}));
    DeviceArray<uint8_t> grown("kv cache");
    grown.ensure(checked_bytes(size_t(shape_.n_layer) * 2 * size_t(cap), pos_stride(), "kv cache"));
    const size_t held = size_t(n_tokens_) * pos_stride();
    for (int32_t l = 0; l < shape_.n_layer && held > 0; ++l)
        for (int which = 0; which < 2; ++which) {
            const size_t from = ring_offset(l, which);
            const size_t to = (size_t(l) * 2 + size_t(which)) * size_t(cap) * pos_stride();
            LMSCOPE_CUDA_CHECK(cudaMemcpyAsync(grown.get() + to, ring_.get() + from, held,
                                               cudaMemcpyDeviceToDevice, stream_));
        }
    LMSCOPE_CUDA_CHECK(cudaStreamSynchronize(stream_));  // the old buffer is freed next
    ring_ = std::move(grown);
    ring_cap_ = cap;
}

void DeviceKv::ensure_host(int32_t n) {
    if (n <= host_cap_) return;
    const int32_t cap = std::min(n_ctx_, std::max({n, 2 * host_cap_, 256}));
    PinnedArray<uint8_t> grown("kv offload host copy");
    grown.ensure(checked_bytes(size_t(shape_.n_layer) * 2 * size_t(cap), pos_stride(), "kv offload host copy"));
    LMSCOPE_CUDA_CHECK(cudaStreamSynchronize(stream_));  // pending write-through copies land first
    const size_t held = size_t(n_tokens_) * pos_stride();
    for (int32_t l = 0; l < shape_.n_layer && held > 0; ++l)
        for (int which = 0; which < 2; ++which)
            std::memcpy(grown.get() + (size_t(l) * 2 + size_t(which)) * size_t(cap) * pos_stride(),
                        host_row0(l, which), held);
    host_ = std::move(grown);
    host_cap_ = cap;
}

void DeviceKv::begin_segment(int32_t p, int32_t c) {
    if (c < 1 || c > max_segment_rows() || p < 0 || (window_ == 0 && p + c > ring_cap_))
        throw UsageError("kv segment [" + std::to_string(p) + ", " + std::to_string(p + c) +
                         ") does not fit the cache");
    if (window_ == 0) {
        ring_lo_ = 0;
        return;
    }
    ring_lo_ = std::max({0, std::min(valid_lo_, p), p + c - window_});
    // Whatever happens to this segment, the ring keeps [ring_lo, p) intact (the new rows
    // overwrite positions below p + c - W only).
    valid_lo_ = ring_lo_;
}

kernels::KvView DeviceKv::view(int32_t layer) {
    kernels::KvView v;
    v.k_ring = k_ring(layer);
    v.v_ring = v_ring(layer);
    v.ring_cap = ring_cap_;
    v.n_kv = shape_.n_kv_head;
    v.row_bytes = int32_t(row_bytes_);
    v.type = shape_.type;
    v.n_old = window_ > 0 ? ring_lo_ : 0;
    if (v.n_old > 0) {
        const size_t bytes = size_t(v.n_old) * pos_stride();
        if (staging_.capacity() < 2 * bytes)  // an earlier layer's attention may still read it
            LMSCOPE_CUDA_CHECK(cudaStreamSynchronize(stream_));
        staging_.ensure(2 * bytes, true);
        LMSCOPE_CUDA_CHECK(cudaMemcpyAsync(staging_.get(), host_row0(layer, 0), bytes,
                                           cudaMemcpyHostToDevice, stream_));
        LMSCOPE_CUDA_CHECK(cudaMemcpyAsync(staging_.get() + bytes, host_row0(layer, 1), bytes,
                                           cudaMemcpyHostToDevice, stream_));
        traffic_.to_device += 2 * bytes;
        v.k_old = staging_.get();
        v.v_old = staging_.get() + bytes;
    }
    return v;
}

void DeviceKv::write_through(int32_t layer, int32_t p, int32_t c) {
    if (window_ == 0) return;
    const int32_t slot = p % ring_cap_;
    const int32_t first = std::min(c, ring_cap_ - slot);  // rows before the ring wraps
    const size_t ps = pos_stride();
    for (int which = 0; which < 2; ++which) {
        const uint8_t* ring = which == 0 ? k_ring(layer) : v_ring(layer);
        uint8_t* host = host_row0(layer, which);
        LMSCOPE_CUDA_CHECK(cudaMemcpyAsync(host + size_t(p) * ps, ring + size_t(slot) * ps,
                                           size_t(first) * ps, cudaMemcpyDeviceToHost, stream_));
        if (c > first)
            LMSCOPE_CUDA_CHECK(cudaMemcpyAsync(host + size_t(p + first) * ps, ring,
                                               size_t(c - first) * ps, cudaMemcpyDeviceToHost, stream_));
    }
    traffic_.to_host += 2 * size_t(c) * ps;
}

}  // namespace lmscope::gpu
