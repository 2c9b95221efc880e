#include "engine/cpu_weights.h"

#include "engine/model.h"
#include "gguf/quant.h"

#include <map>
#include <mutex>

namespace lmscope::engine {

namespace {

std::vector<float> to_float(const gguf::TensorInfo* t) {
    if (!t) return {};
    return gguf::dequantize(*t);
}

// Rows [r0, r0 + n) of w: one part of a fused matrix (rows are whole blocks, so any row range
// of any type is a matrix of its own).
Linear rows_of(Linear w, int64_t r0, int64_t n) {
    w.data += size_t(r0) * w.row_bytes;
    w.n_out = n;
    return w;
}

}  // namespace

CpuWeights::CpuWeights(std::shared_ptr<const Model> model) : model_(std::move(model)) {
    const model::ModelSpec& s = model_->spec();
    const model::Weights& w = model_->weights();
    tok_embd = Linear::from(*w.token_embd);
    output = Linear::from(*w.output);
    output_norm = to_float(w.output_norm);
    layers.resize(size_t(s.n_layer()));
    for (size_t l = 0; l < layers.size(); ++l) {
        const model::LayerWeights& lw = w.layers[l];
        CpuLayerWeights& L = layers[l];
        const int64_t QD = int64_t(s.n_head()) * s.head_dim(), KD = int64_t(s.n_head_kv()) * s.head_dim();
        if (lw.wqkv) {  // rows: q, then k, then v
            const Linear qkv = Linear::from(*lw.wqkv);
            L.wq = rows_of(qkv, 0, QD);
            L.wk = rows_of(qkv, QD, KD);
            L.wv = rows_of(qkv, QD + KD, KD);
        } else {
            L.wq = Linear::from(*lw.wq);
            L.wk = Linear::from(*lw.wk);
            L.wv = Linear::from(*lw.wv);
        }
        L.wo = Linear::from(*lw.wo);
        if (lw.ffn_gate_up) {  // rows: gate, then up
            const Linear gate_up = Linear::from(*lw.ffn_gate_up);
            L.gate = rows_of(gate_up, 0, s.n_ff());
            L.up = rows_of(gate_up, s.n_ff(), s.n_ff());
        } else {
            L.gate = Linear::from(*lw.ffn_gate);
            L.up = Linear::from(*lw.ffn_up);
        }
        L.down = Linear::from(*lw.ffn_down);
        L.attn_norm = to_float(lw.attn_norm);
        L.ffn_norm = to_float(lw.ffn_norm);
        L.bq = to_float(lw.bq);
        L.bk = to_float(lw.bk);
        L.bv = to_float(lw.bv);
        L.q_norm = to_float(lw.q_norm);
        L.k_norm = to_float(lw.k_norm);
        L.post_attn_norm = to_float(lw.post_attn_norm);
        L.post_ffn_norm = to_float(lw.post_ffn_norm);
        L.plan = s.layers[l];
    }
    std::vector<Linear*> mats;  // every matrix the matmuls read (tok_embd is read by row)
    for (CpuLayerWeights& L : layers)
        for (Linear* m : {&L.wq, &L.wk, &L.wv, &L.wo, &L.gate, &L.up, &L.down}) mats.push_back(m);
    mats.push_back(&output);
    packed_.pack(mats);
}

std::shared_ptr<const CpuWeights> CpuWeights::of(const std::shared_ptr<const Model>& model) {
    // A CpuWeights keeps its Model alive, so an entry whose weights still live names that very
    // model; expired entries are swept on the way.
    static std::mutex mutex;
    static std::map<const Model*, std::weak_ptr<const CpuWeights>> built;
    std::lock_guard lock(mutex);
    std::erase_if(built, [](const auto& entry) { return entry.second.expired(); });
    if (auto it = built.find(model.get()); it != built.end())
        if (std::shared_ptr<const CpuWeights> w = it->second.lock()) return w;
    auto w = std::make_shared<const CpuWeights>(model);
    built[model.get()] = w;
    return w;
}

}  // namespace lmscope::engine
