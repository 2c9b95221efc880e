#include "gpu/device_weights.h"

#include "gpu/cuda_check.h"
#include "gguf/quant.h"
#include "util/error.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <thread>

namespace lmscope::gpu {

namespace {

// Rows [r0, r1) of tensor t as fp16 into dst ([r1 - r0][ne0] halves).
void rows_to_fp16(const gguf::TensorInfo& t, int64_t r0, int64_t r1, uint16_t* dst) {
    const int64_t ne0 = t.ne[0];
    const size_t rb = gguf::row_bytes(t.type, ne0);
    std::vector<float> row(static_cast<size_t>(ne0));
    for (int64_t r = r0; r < r1; ++r) {
        gguf::dequantize_row(t.type, t.data + size_t(r) * rb, row.data(), ne0);
        uint16_t* out = dst + size_t(r - r0) * size_t(ne0);
        for (int64_t i = 0; i < ne0; ++i) out[i] = gguf::fp32_to_fp16(row[size_t(i)]);
    }
}

// Converts tensor t to fp16 on the host (rows split over the cores) and copies it to dst.
class Uploader {
public:
    explicit Uploader(std::string file)
        : file_(std::move(file)), n_threads_(std::max(1u, std::min(16u, std::thread::hardware_concurrency()))) {}

    // t must hold exactly `expected` values (checked: dst has room for them).
    void matrix(const gguf::TensorInfo& t, size_t expected, __half* dst) {
        const int64_t rows = t.n_rows(), ne0 = t.ne[0];
        if (size_t(t.n_elements()) != expected)
            throw FormatError(file_, "tensor " + t.name, "has " + std::to_string(t.n_elements()) +
                                                          " values, expected " + std::to_string(expected));
        if (gguf::row_bytes(t.type, ne0) * size_t(rows) > t.n_bytes)
            throw FormatError(file_, "tensor " + t.name, "data shorter than its shape");
        // chunks of about 16 Mi values so the host staging stays small
        const int64_t chunk_rows = std::max<int64_t>(1, (int64_t(1) << 24) / std::max<int64_t>(1, ne0));
        host_.resize(size_t(std::min(rows, chunk_rows)) * size_t(ne0));
        for (int64_t c0 = 0; c0 < rows; c0 += chunk_rows) {
            const int64_t c1 = std::min(rows, c0 + chunk_rows);
            convert_parallel(t, c0, c1);
            LMSCOPE_CUDA_CHECK(cudaMemcpy(reinterpret_cast<uint16_t*>(dst) + size_t(c0) * size_t(ne0),
                                          host_.data(), size_t(c1 - c0) * size_t(ne0) * 2,
                                          cudaMemcpyHostToDevice));
        }
    }

private:
    void convert_parallel(const gguf::TensorInfo& t, int64_t c0, int64_t c1) {
        const int64_t n = c1 - c0;
        const int64_t per = (n + n_threads_ - 1) / n_threads_;
        std::vector<std::thread> pool;
        std::vector<std::exception_ptr> errors(static_cast<size_t>(n_threads_));
        for (int64_t k = 0; k < n_threads_; ++k) {
            const int64_t a = c0 + k * per, b = std::min(c1, a + per);
            if (a >= b) break;
            pool.emplace_back([&, a, b, k] {
                try {
                    rows_to_fp16(t, a, b, host_.data() + size_t(a - c0) * size_t(t.ne[0]));
                } catch (...) {
                    errors[size_t(k)] = std::current_exception();
                }
            });
        }
        for (std::thread& th : pool) th.join();
        for (const std::exception_ptr& e : errors)
            if (e) std::rethrow_exception(e);
    }

    std::string file_;
    int64_t n_threads_;
    std::vector<uint16_t> host_;  // [chunk rows][ne0] fp16
};

// The n values of vector tensor t as float at dst + offset.
void upload_floats(const std::string& file, const gguf::TensorInfo* t, DeviceArray<float>& dst,
                   size_t offset, size_t n) {
    const std::vector<float> v = gguf::dequantize(*t);
    if (v.size() != n || offset + n > dst.capacity())
        throw FormatError(file, "tensor " + t->name, "has " + std::to_string(v.size()) +
                                                      " values, expected " + std::to_string(n));
    LMSCOPE_CUDA_CHECK(cudaMemcpy(dst.get() + offset, v.data(), n * sizeof(float),
                                  cudaMemcpyHostToDevice));
}

template <class T>
void allocate(DeviceArray<T>& a, size_t n, const std::string& what, size_t& bytes) {
    a.set_what(what);
    a.ensure(n);
    bytes += a.bytes();
}

}  // namespace

DeviceWeights DeviceWeights::upload(const model::ModelSpec& spec, const model::Weights& w,
                                    const std::string& file) {
    DeviceWeights d;
    Uploader up(file);
    const size_t E = size_t(spec.n_embd()), V = size_t(spec.n_vocab());
    const size_t QD = size_t(spec.n_head()) * size_t(spec.head_dim());
    const size_t KD = size_t(spec.n_head_kv()) * size_t(spec.head_dim());
    const size_t F = size_t(spec.n_ff());

    allocate(d.token_embd, V * E, "token_embd.weight (fp16)", d.bytes);
    up.matrix(*w.token_embd, V * E, d.token_embd.get());
    if (w.output == w.token_embd || w.output == nullptr) {
        d.output = d.token_embd.get();
    } else {
        allocate(d.output_own, V * E, "output.weight (fp16)", d.bytes);
        up.matrix(*w.output, V * E, d.output_own.get());
        d.output = d.output_own.get();
    }
    allocate(d.output_norm, E, "output_norm.weight", d.bytes);
    upload_floats(file, w.output_norm, d.output_norm, 0, E);
    for (const std::vector<float>& table : spec.rope_inv_freq) {
        DeviceArray<float>& t = d.rope_inv_freq.emplace_back("rope frequencies");
        allocate(t, std::max<size_t>(1, table.size()), "rope frequencies", d.bytes);
        LMSCOPE_CUDA_CHECK(cudaMemcpy(t.get(), table.data(), table.size() * sizeof(float), cudaMemcpyHostToDevice));
    }

    d.layers.resize(size_t(spec.n_layer()));
    for (size_t l = 0; l < d.layers.size(); ++l) {
        const model::LayerWeights& lw = w.layers[l];
        DeviceLayer& L = d.layers[l];
        const std::string blk = "blk." + std::to_string(l) + ".";
        allocate(L.wqkv, (QD + 2 * KD) * E, blk + "attn_q/k/v.weight (fp16)", d.bytes);
        if (lw.wqkv) {  // the file's rows are already q, k, v
            up.matrix(*lw.wqkv, (QD + 2 * KD) * E, L.wqkv.get());
        } else {
            up.matrix(*lw.wq, QD * E, L.wqkv.get());
            up.matrix(*lw.wk, KD * E, L.wqkv.get() + QD * E);
            up.matrix(*lw.wv, KD * E, L.wqkv.get() + (QD + KD) * E);
        }
        allocate(L.wo, E * QD, blk + "attn_output.weight (fp16)", d.bytes);
        up.matrix(*lw.wo, E * QD, L.wo.get());
        allocate(L.wgu, 2 * F * E, blk + "ffn_gate/up.weight (fp16)", d.bytes);
        if (lw.ffn_gate_up) {  // the file's rows are already gate, up
            up.matrix(*lw.ffn_gate_up, 2 * F * E, L.wgu.get());
        } else {
            up.matrix(*lw.ffn_gate, F * E, L.wgu.get());
            up.matrix(*lw.ffn_up, F * E, L.wgu.get() + F * E);
        }
        allocate(L.wdown, E * F, blk + "ffn_down.weight (fp16)", d.bytes);
        up.matrix(*lw.ffn_down, E * F, L.wdown.get());
        allocate(L.attn_norm, E, blk + "attn_norm.weight", d.bytes);
        upload_floats(file, lw.attn_norm, L.attn_norm, 0, E);
        allocate(L.ffn_norm, E, blk + "ffn_norm.weight", d.bytes);
        upload_floats(file, lw.ffn_norm, L.ffn_norm, 0, E);
        if (lw.bq || lw.bk || lw.bv) {
            allocate(L.bqkv, QD + 2 * KD, blk + "attn_q/k/v.bias", d.bytes);
            LMSCOPE_CUDA_CHECK(cudaMemset(L.bqkv.get(), 0, (QD + 2 * KD) * sizeof(float)));
            if (lw.bq) upload_floats(file, lw.bq, L.bqkv, 0, QD);
            if (lw.bk) upload_floats(file, lw.bk, L.bqkv, QD, KD);
            if (lw.bv) upload_floats(file, lw.bv, L.bqkv, QD + KD, KD);
        }
        const size_t HD = size_t(spec.head_dim());
        if (lw.q_norm && lw.k_norm) {
            allocate(L.q_norm, HD, blk + "attn_q_norm.weight", d.bytes);
            upload_floats(file, lw.q_norm, L.q_norm, 0, HD);
            allocate(L.k_norm, HD, blk + "attn_k_norm.weight", d.bytes);
            upload_floats(file, lw.k_norm, L.k_norm, 0, HD);
        }
        if (lw.post_attn_norm && lw.post_ffn_norm) {
            allocate(L.post_attn_norm, E, blk + "post_attention_norm.weight", d.bytes);
            upload_floats(file, lw.post_attn_norm, L.post_attn_norm, 0, E);
            allocate(L.post_ffn_norm, E, blk + "post_ffw_norm.weight", d.bytes);
            upload_floats(file, lw.post_ffn_norm, L.post_ffn_norm, 0, E);
        }
    }
    return d;
}

}  // namespace lmscope::gpu
