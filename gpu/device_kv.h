// The CUDA backend's KV cache: per layer, K and V of every held position in the engine's
// formats (f16, q8_0, q4_0; exact byte accounting as engine::KvShape), with optional offload.
//
// Without offload (window 0) the device holds every position: a buffer that grows
// geometrically up to n_ctx, position j in slot j.
//
// With offload (window W > 0) the device holds a ring of W slots (position j in slot j % W)
// and every position is also written through to page-locked host memory. A forward segment
// writing positions [p, p + c) (c <= W) reads
//   keys [ring_lo, p + c) from the ring, ring_lo = max(min(valid_lo, p), p + c - W),
//   keys [0, ring_lo) from a device staging buffer filled from host memory per layer,
// where [valid_lo, p) are the positions the ring still holds intact. So the device keeps the
// most recent W positions; the bytes moved each step (host -> device staging, device -> host
// write-through) are counted exactly as the copies are issued.
#pragma once

#include "engine/kv_cache.h"
#include "gpu/device_memory.h"
#include "gpu/kernels/kv_format.cuh"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace lmscope::gpu {

struct KvTraffic {
    uint64_t to_device = 0;  // bytes copied host -> device (staged old positions)
    uint64_t to_host = 0;    // bytes copied device -> host (write-through of new positions)
};

class DeviceKv {
public:
    // Throws UsageError on shapes the format cannot store (q8_0 / q4_0 need head_dim % 32 == 0).
    DeviceKv(engine::KvShape shape, int32_t n_ctx, int32_t offload_window, cudaStream_t stream);

    const engine::KvShape& shape() const { return shape_; }
    int32_t n_ctx() const { return n_ctx_; }
    int32_t n_tokens() const { return n_tokens_; }
    int32_t offload_window() const { return window_; }
    // Most rows one forward segment may write (W when offloading).
    int32_t max_segment_rows() const { return window_ > 0 ? window_ : n_ctx_; }

    void truncate(int32_t n);        // n <= n_tokens(); UsageError otherwise
    void set_n_tokens(int32_t n) { n_tokens_ = n; }
    void reserve(int32_t n);         // room for positions [0, n), n <= n_ctx()

    // A segment writing positions [p, p + c): call before its first layer.
    void begin_segment(int32_t p, int32_t c);
    uint8_t* k_ring(int32_t layer) const { return ring_.get() + ring_offset(layer, 0); }
    uint8_t* v_ring(int32_t layer) const { return ring_.get() + ring_offset(layer, 1); }
    int32_t ring_cap() const { return ring_cap_; }
    // What the attention of `layer` reads; stages [0, ring_lo) of the layer when offloading.
    kernels::KvView view(int32_t layer);
    // Offload: copies the segment's new rows [p, p + c) of `layer` to host memory.
    void write_through(int32_t layer, int32_t p, int32_t c);

    KvTraffic& traffic() { return traffic_; }
    int32_t device_tokens() const;  // positions whose K/V sit on the device
    size_t device_bytes() const { return ring_.bytes() + staging_.bytes(); }
    size_t host_bytes() const { return host_.bytes(); }

private:
    size_t pos_stride() const { return size_t(shape_.n_kv_head) * row_bytes_; }  // one position
    size_t ring_offset(int32_t layer, int which) const {
        return (size_t(layer) * 2 + size_t(which)) * size_t(ring_cap_) * pos_stride();
    }
    uint8_t* host_row0(int32_t layer, int which) const {
        return host_.get() + (size_t(layer) * 2 + size_t(which)) * size_t(host_cap_) * pos_stride();
    }
    void ensure_host(int32_t n);

    engine::KvShape shape_;
    int32_t n_ctx_;
    int32_t window_;
    cudaStream_t stream_;
    size_t row_bytes_;
    int32_t n_tokens_ = 0;
    int32_t ring_cap_ = 0;   // slots per layer and K/V
    int32_t valid_lo_ = 0;   // offload: the ring holds positions [valid_lo, n_tokens) intact
    int32_t ring_lo_ = 0;    // offload: first position the current segment reads from the ring
    int32_t host_cap_ = 0;   // positions per layer and K/V in host memory
    DeviceArray<uint8_t> ring_;     // [layer][K, V][ring_cap][n_kv][row_bytes]
    DeviceArray<uint8_t> staging_;  // [K, V][ring_lo][n_kv][row_bytes], one layer at a time
    PinnedArray<uint8_t> host_;     // [layer][K, V][host_cap][n_kv][row_bytes]
    KvTraffic traffic_;
};

}  // namespace lmscope::gpu
