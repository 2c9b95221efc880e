#include "gpu/device_weights.h"

#include "gpu/cuda_check.h"
#include "gpu/kernels/dequant.cuh"
#include "gguf/quant.h"
#include "util/error.h"

#include <cuda_runtime_api.h>

#include <algorithm>

namespace lmscope::gpu {

namespace {

// One tensor's rows of a matrix: the tensor and how many rows the spec says it holds.
struct Source {
    const gguf::TensorInfo* t;
    size_t rows;
};

class Uploader {
public:
    Uploader(std::string file, DeviceWeights& d) : file_(std::move(file)), d_(d) {}

    // m = the sources' rows in order, k values each, copied as the file stores them: one part
    // per run of sources of one type.
    void matrix(DeviceMatrix& m, int32_t k, const std::vector<Source>& src, const std::string& what) {
        m.k = k;
        m.rows = 0;
        m.parts.clear();
        for (size_t i = 0; i < src.size();) {
            size_t j = i;
            size_t rows = 0;
            for (; j < src.size() && src[j].t->type == src[i].t->type; ++j) rows += checked(*src[j].t, k, src[j].rows);
            const gguf::TensorType type = src[i].t->type;
            const size_t rb = gguf::row_bytes(type, k);
            DeviceMatrix::Part& p = m.parts.emplace_back();
            p.type = type;
            p.row0 = m.rows;
            p.rows = int32_t(rows);
            p.data.set_what(what + " (" + std::string(gguf::type_name(type)) + ")");
            p.data.ensure(checked_bytes(rows, rb, what));
            d_.bytes += p.data.bytes();
            size_t at = 0;
            for (; i < j; ++i) {
                const size_t n = src[i].rows * rb;
                LMSCOPE_CUDA_CHECK(cudaMemcpy(p.data.get() + at, src[i].t->data, n, cudaMemcpyHostToDevice));
                at += n;
            }
            m.rows += p.rows;
            if (type != gguf::TensorType::F16) d_.max_decoded = std::max(d_.max_decoded, int64_t(rows) * k);
        }
    }

private:
    // t holds `rows` rows of k values of a type the kernels decode; returns rows.
    size_t checked(const gguf::TensorInfo& t, int32_t k, size_t rows) const {
        const std::string field = "tensor " + t.name;
        if (t.ne[0] != k || size_t(t.n_elements()) != rows * size_t(k))
            throw FormatError(file_, field, "shape " + t.shape_string() + ", expected " + std::to_string(rows) +
                                                " rows of " + std::to_string(k));
        if (!kernels::has_decoder(t.type))
            throw UnsupportedError(file_ + ": " + field + ": the CUDA backend has no kernels for type " +
                                   std::string(gguf::type_name(t.type)));
        if (k % 8 != 0)
            throw UnsupportedError(file_ + ": " + field + ": the CUDA backend needs rows of a multiple of 8 values, not " +
                                   std::to_string(k));
        if (gguf::row_bytes(t.type, k) * rows > t.n_bytes)
            throw FormatError(file_, field, "data shorter than its shape");
        return rows;
    }

    std::string file_;
    DeviceWeights& d_;
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
    Uploader up(file, d);
    const int32_t E = spec.n_embd();
    const size_t V = size_t(spec.n_vocab());
    const size_t QD = size_t(spec.n_head()) * size_t(spec.head_dim());
    const size_t KD = size_t(spec.n_head_kv()) * size_t(spec.head_dim());
    const size_t F = size_t(spec.n_ff());

    up.matrix(d.token_embd, E, {{w.token_embd, V}}, "token_embd.weight");
    d.tied = w.output == w.token_embd || w.output == nullptr;
    if (!d.tied) up.matrix(d.output_own, E, {{w.output, V}}, "output.weight");
    allocate(d.output_norm, size_t(E), "output_norm.weight", d.bytes);
    upload_floats(file, w.output_norm, d.output_norm, 0, size_t(E));
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
        if (lw.wqkv)  // the file's rows are already q, k, v
            up.matrix(L.wqkv, E, {{lw.wqkv, QD + 2 * KD}}, blk + "attn_qkv.weight");
        else
            up.matrix(L.wqkv, E, {{lw.wq, QD}, {lw.wk, KD}, {lw.wv, KD}}, blk + "attn_q/k/v.weight");
        up.matrix(L.wo, int32_t(QD), {{lw.wo, size_t(E)}}, blk + "attn_output.weight");
        if (lw.ffn_gate_up)  // the file's rows are already gate, up
            up.matrix(L.wgu, E, {{lw.ffn_gate_up, 2 * F}}, blk + "ffn_up.weight");
        else
            up.matrix(L.wgu, E, {{lw.ffn_gate, F}, {lw.ffn_up, F}}, blk + "ffn_gate/up.weight");
        up.matrix(L.wdown, int32_t(F), {{lw.ffn_down, size_t(E)}}, blk + "ffn_down.weight");
        allocate(L.attn_norm, size_t(E), blk + "attn_norm.weight", d.bytes);
        upload_floats(file, lw.attn_norm, L.attn_norm, 0, size_t(E));
        allocate(L.ffn_norm, size_t(E), blk + "ffn_norm.weight", d.bytes);
        upload_floats(file, lw.ffn_norm, L.ffn_norm, 0, size_t(E));
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
            allocate(L.post_attn_norm, size_t(E), blk + "post_attention_norm.weight", d.bytes);
            upload_floats(file, lw.post_attn_norm, L.post_attn_norm, 0, size_t(E));
            allocate(L.post_ffn_norm, size_t(E), blk + "post_ffw_norm.weight", d.bytes);
            upload_floats(file, lw.post_ffn_norm, L.post_ffn_norm, 0, size_t(E));
        }
    }
    return d;
}

}  // namespace lmscope::gpu
