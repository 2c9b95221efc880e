#include "engine/cpu_backend.h"

#include "analysis/distribution.h"
#include "analysis/softmax_top_k.h"
#include "engine/attention.h"
#include "engine/block.h"
#include "engine/cpu_weights.h"
#include "engine/kernels.h"
#include "engine/matmul.h"
#include "engine/model.h"
#include "engine/ops.h"
#include "engine/thread_pool.h"
#include "gguf/quant.h"
#include "kv/kv_math.h"
#include "util/cpu_info.h"
#include "util/error.h"

#include "util/clock.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

namespace lmscope::engine {

namespace {

// Values of the gated activation per pool part: small enough that a decode row is shared where
// its work is worth a pool job (an empty one costs 0.2-0.3 us; the wait for the slower part more)
constexpr int64_t kGeluGrain = 512;     // scalar tanh, ~10 ns a value: ~5 us a part
constexpr int64_t kSwigluGrain = 8192;  // the vector kernel: a decode row stays on the caller

std::vector<int32_t> layer_windows(const model::ModelSpec& spec) {
    std::vector<int32_t> w;
    for (const model::LayerPlan& p : spec.layers) w.push_back(p.window);
    return w;
}

// The CPU backend: the reference implementation of the block's operations (block.h).
class CpuBackend final : public Backend, private BlockOps {
public:
    CpuBackend(std::shared_ptr<const Model> model, const BackendOptions& o);

    std::string name() const override;
    std::string notice() const override;
    const Model& model() const override { return *model_; }
    void forward(const ForwardRequest& r) override;
    int32_t n_ctx() const override { return cache_.n_ctx(); }
    int32_t kv_tokens() const override { return cache_.n_tokens(); }
    void kv_truncate(int32_t n) override { cache_.truncate(n); }
    KvStats kv_stats() const override;
    PartTimes part_times() const override { return times_; }
    void clear_part_times() override { times_.clear(); }

private:
    // mm_.run on this step's rows, its time shared among the matrices' types ("matmul Q4_K")
    // by the bytes each reads
    void matmul(std::span<const Linear* const> ws, const float* x, std::span<float* const> ys);
    void prepare_capture(const trace::CapturePolicy& policy, trace::StepCapture& c, int32_t n_rows,
                         int32_t pos0, int32_t n_out);
    // The buffer of hook (h, layer) in this step's capture, or null when it was not asked for.
    float* hook_out(trace::Hook h, int32_t layer) const;
    // Copies count floats of src into hook (h, layer), when asked for.
    void hook_copy(trace::Hook h, int32_t layer, const float* src, size_t count) const;

    // BlockOps over rows [0, n_rows_) of this step's buffers
    void norm_in(int32_t layer, BlockNorm which) override;
    void qkv(int32_t layer) override;
    void qk_norm(int32_t layer) override;
    void rope(int32_t table) override;
    void store_kv(int32_t layer) override;
    void attention(int32_t layer, int32_t window) override;
    void zero_head(int32_t head) override;
    void project(int32_t layer, Projection which) override;
    void post_norm(int32_t layer, Projection which) override;
    void add_out() override;
    void clear_out() override;
    void project_add(int32_t layer, Projection which, bool post_norm) override;
    void gate_up(int32_t layer, model::FfnActivation act) override;
    bool wants(trace::Hook h, int32_t layer) const override { return hook_out(h, layer) != nullptr; }
    void hook(trace::Hook h, int32_t layer) override;
    // rms_norm of each row of `rows` ([n_rows_][n_embd]) with weight w, into dst (may be rows)
    void norm_rows(const float* rows, const std::vector<float>& w, float* dst);
    // logits of rows [r0, r0 + n_out) of x (final norm + head) into out [n_out][n_vocab]
    void head(const float* x_rows, int32_t n_out, float* out);
    // logits = c * tanh(logits / c) when the model soft-caps them
    void softcap(float* logits, int64_t n) const;
    void logit_lens(const float* x_row, int32_t k, trace::LensEntry* out);

    std::shared_ptr<const Model> model_;
    const model::ModelSpec& spec_;
    std::shared_ptr<ThreadPool> pool_;  // the process's pool of this size, leased per forward step
    const kernels::Kernels& kernels_;
    MatMul mm_;
    KvCache cache_;
    Attention attn_;

    // dimensions
    int32_t n_embd_, n_head_, n_kv_, hd_, n_ff_, n_vocab_, n_layer_, n_rot_;
    float eps_;
    bool neox_;

    std::shared_ptr<const CpuWeights> w_;  // shared by every CPU backend on this model

    // the step in progress
    int32_t n_rows_ = 0, pos0_ = 0;  // rows fed, position of the first
    AttentionCapture cap_;           // this layer's attention capture

    // activations of one step (n = rows fed), named after block.h's roles
    std::vector<float> x_;    // [n][n_embd] residual stream
    std::vector<float> xn_;   // [n][n_embd] normed rows
    std::vector<float> q_;    // [n][n_head][hd]
    std::vector<float> k_;    // [n][n_kv][hd]
    std::vector<float> v_;    // [n][n_kv][hd]
    std::vector<float> z_;    // [n][n_head][hd] each head's weighted sum of values
    std::vector<float> out_;  // [n][n_embd] a block's projection
    std::vector<float> act_;  // [n][n_ff] the gate's rows, then act(gate) * up in place
    std::vector<float> up_;   // [n][n_ff] the up projection's rows
    std::vector<std::vector<float>> rope_cs_;  // [table][n][n_rot / 2][cos, sin] rotations of the rows' positions
    std::vector<float> lens_x_;       // [n_embd] normed residual of the last row
    std::vector<float> lens_logits_;  // [n_vocab] lens logits (softcapped)
    std::vector<analysis::SoftmaxTopK> lens_acc_;  // [slot] softmax sum and top k of its pieces
    std::vector<int32_t> plane_of_head_;  // [layer][head] -> plane index or -1
    std::vector<int32_t> plane_index_;    // [head] -> plane index or -1, the current layer
    trace::HookSlots hooks_;              // this step's hook tensors
    PartTimes times_;                     // where the steps' time went, since clear_part_times()
};

CpuBackend::CpuBackend(std::shared_ptr<const Model> model, const BackendOptions& o)
    : model_(std::move(model)),
      spec_(model_->spec()),
      pool_(ThreadPool::shared(o.n_threads > 0 ? o.n_threads : hardware_threads())),
      kernels_(kernels::best()),
      mm_(*pool_, kernels_),
      cache_(KvShape{spec_.n_layer(), spec_.n_head_kv(), spec_.head_dim(), o.kv_type},
             o.n_ctx > 0 ? o.n_ctx : spec_.n_ctx_train(), layer_windows(spec_), o.kv_offload_bytes),
      attn_(*pool_, kernels_, spec_.n_head(), spec_.n_head_kv(), spec_.head_dim(), spec_.attn_scale,
            spec_.attn_softcap) {
    const model::ModelSpec& s = spec_;
    n_embd_ = s.n_embd();
    n_head_ = s.n_head();
    n_kv_ = s.n_head_kv();
    hd_ = s.head_dim();
    n_ff_ = s.n_ff();
    n_vocab_ = s.n_vocab();
    n_layer_ = s.n_layer();
    n_rot_ = s.n_rot();
    eps_ = float(s.hp.rms_eps);
    neox_ = s.neox();

    w_ = CpuWeights::of(model_);
}

std::string CpuBackend::name() const {
    return std::string("cpu (") + kernels_.name + ", " + std::to_string(pool_->size()) + " threads)";
}

std::string CpuBackend::notice() const {
    if (pool_->size() >= pool_->requested()) return {};
    return "running on " + std::to_string(pool_->size()) + " of the " + std::to_string(pool_->requested()) +
           " CPU threads asked for: the system refused to start more (its limit on threads or address space)";
}

KvStats CpuBackend::kv_stats() const {
    KvStats s;
    s.type = cache_.shape().type;
    s.n_tokens = cache_.n_tokens();
    s.n_ctx = cache_.n_ctx();
    s.bytes_per_token = cache_.shape().bytes(1);
    s.layer_bytes.resize(size_t(n_layer_));
    for (int32_t l = 0; l < n_layer_; ++l) s.layer_bytes[size_t(l)] = cache_.layer_bytes(l);
    s.total_bytes = cache_.total_bytes();
    s.formula_bytes = kv::cache_bytes(spec_.kv_shape(), s.type, uint64_t(s.n_tokens));
    s.reserved_bytes = cache_.allocated_bytes();
    s.resident_bytes = cache_.resident_bytes();
    s.offloaded_bytes = cache_.offloaded_bytes();
    s.moved_bytes = cache_.bytes_moved();
    return s;
}

void CpuBackend::prepare_capture(const trace::CapturePolicy& policy, trace::StepCapture& c,
                                 int32_t n, int32_t pos0, int32_t n_out) {
    // Reuses the buffers of the previous step (decode would otherwise allocate one plane per
    // head every token); every value is overwritten below or by the layers.
    c.n_layer = n_layer_;
    c.n_head = n_head_;
    c.n_rows = n;
    c.total_ms = 0.0;
    c.layer_ms.assign(size_t(n_layer_), 0.0);
    c.summaries.resize(policy.wants_summary() ? size_t(n_layer_) * size_t(n_head_) * size_t(n) : 0);
    plane_of_head_.assign(size_t(n_layer_) * size_t(n_head_), -1);
    size_t n_planes = 0;
    for (int32_t l = 0; l < n_layer_; ++l)
        for (int32_t h = 0; h < n_head_; ++h) {
            if (!policy.wants_full(l, h)) continue;
            plane_of_head_[size_t(l) * size_t(n_head_) + size_t(h)] = int32_t(n_planes);
            if (c.planes.size() <= n_planes) c.planes.emplace_back();
            trace::AttentionPlane& p = c.planes[n_planes++];
            p.at = {l, h};
            p.first_row_pos = pos0;
            p.n_rows = n;
            p.n_keys = pos0 + n;
            p.weights.resize(size_t(n) * size_t(pos0 + n));  // [n][pos0 + n], rows written whole
        }
    c.planes.resize(n_planes);
    const int32_t k = policy.logit_lens ? std::clamp(policy.lens_top_k, 1, n_vocab_) : 0;
    c.lens.resize(size_t(n_layer_) * size_t(k));

    hooks_.prepare(policy, c, trace::HookDims{n_embd_, n_head_, n_kv_, hd_, n_ff_, n_vocab_}, n_layer_, n, pos0 + n,
                   n_out);
}

float* CpuBackend::hook_out(trace::Hook h, int32_t layer) const { return hooks_.find(h, layer); }

void CpuBackend::hook_copy(trace::Hook h, int32_t layer, const float* src, size_t count) const {
    if (float* dst = hook_out(h, layer)) std::memcpy(dst, src, count * sizeof(float));
}

void CpuBackend::forward(const ForwardRequest& r) {
    check_forward_request(r, *model_, cache_.n_tokens(), cache_.n_ctx());
    const ThreadPool::Lease lease = pool_->lease();  // another backend's step on this pool waits
    const std::span<const int32_t> tokens = r.tokens;
    const int32_t pos0 = r.pos0;
    const trace::CapturePolicy& policy = r.policy;
    trace::StepCapture* capture = r.capture;
    const auto t_start = Clock::now();
    const int32_t n = int32_t(tokens.size());
    n_rows_ = n;
    pos0_ = pos0;
    if (!cache_.resumable(pos0))
        throw UsageError("cpu backend: the sliding-window layers no longer hold the " +
                         std::to_string(spec_.hp.sliding_window) + " positions before position " +
                         std::to_string(pos0) + "; truncate the cache (kv_truncate) and feed again from kv_tokens()");
    cache_.truncate(pos0);
    cache_.reserve(pos0, n);

    x_.resize(size_t(n) * size_t(n_embd_));
    xn_.resize(x_.size());
    out_.resize(x_.size());
    q_.resize(size_t(n) * size_t(n_head_) * size_t(hd_));
    z_.resize(q_.size());
    k_.resize(size_t(n) * size_t(n_kv_) * size_t(hd_));
    v_.resize(k_.size());
    act_.resize(size_t(n) * size_t(n_ff_));
    up_.resize(act_.size());
    rope_cs_.resize(spec_.rope_inv_freq.size());
    for (size_t table = 0; table < rope_cs_.size(); ++table) {
        rope_cs_[table].resize(size_t(n) * size_t(n_rot_));
        for (int32_t t = 0; t < n; ++t)
            ops::rope_angles(spec_.rope_inv_freq[table].data(), n_rot_, float(pos0 + t),
                             rope_cs_[table].data() + size_t(t) * size_t(n_rot_));
    }

    hooks_.clear();
    if (capture) prepare_capture(policy, *capture, n, pos0, r.all_logits ? n : 1);
    const int32_t lens_k = capture && policy.logit_lens ? std::clamp(policy.lens_top_k, 1, n_vocab_) : 0;

    // token embeddings
    for (int32_t t = 0; t < n; ++t)
        dequantize_rows(kernels_, w_->tok_embd, tokens[size_t(t)], tokens[size_t(t)] + 1, x_.data() + size_t(t) * size_t(n_embd_));
    if (spec_.embed_scale != 1.0f)
        for (float& v : x_) v *= spec_.embed_scale;

    for (int32_t l = 0; l < n_layer_; ++l) {
        if (r.cancel && r.cancel->cancelled()) {
            cache_.truncate(pos0);
            throw CancelledError();
        }
        const auto t_layer = Clock::now();
        cap_ = {};
        if (capture) {
            cap_.capture = capture;
            cap_.summaries = policy.wants_summary();
            plane_index_.assign(plane_of_head_.begin() + size_t(l) * size_t(n_head_),
                                plane_of_head_.begin() + size_t(l + 1) * size_t(n_head_));
            cap_.plane_of_head = &plane_index_;
        }
        run_block(*this, spec_, l, {r.ablate, r.skip});
        if (lens_k > 0)
            logit_lens(x_.data() + size_t(n - 1) * size_t(n_embd_), lens_k,
                       capture->lens.data() + size_t(l) * size_t(lens_k));
        if (capture) capture->layer_ms[size_t(l)] = ms_since(t_layer);
        if (r.on_layer) r.on_layer(l + 1);
    }
    cache_.set_n_tokens(pos0 + n);

    if (r.all_logits) {
        head(x_.data(), n, r.logits.data());
    } else {
        head(x_.data() + size_t(n - 1) * size_t(n_embd_), 1, r.logits.data());
    }
    times_.total_s += seconds_since(t_start);
    ++times_.steps;
    if (capture) capture->total_ms = ms_since(t_start);
}

void CpuBackend::norm_rows(const float* rows, const std::vector<float>& w, float* dst) {
    const size_t E = size_t(n_embd_);
    pool_->parallel_for(n_rows_, 1, [&](int64_t t0, int64_t t1, int) {
        for (int64_t t = t0; t < t1; ++t) ops::rms_norm(rows + size_t(t) * E, w.data(), eps_, dst + size_t(t) * E, n_embd_);
    });
}

void CpuBackend::norm_in(int32_t l, BlockNorm which) {
    const CpuLayerWeights& L = w_->layers[size_t(l)];
    norm_rows(x_.data(), which == BlockNorm::Attn ? L.attn_norm : L.ffn_norm, xn_.data());
}

void CpuBackend::qkv(int32_t l) {
    const CpuLayerWeights& L = w_->layers[size_t(l)];
    const Linear* ws[3] = {&L.wq, &L.wk, &L.wv};
    float* ys[3] = {q_.data(), k_.data(), v_.data()};
    matmul(ws, xn_.data(), ys);
    if (L.bq.empty() && L.bk.empty() && L.bv.empty()) return;
    const int64_t QD = int64_t(n_head_) * hd_, KD = int64_t(n_kv_) * hd_;
    pool_->parallel_for(n_rows_, 1, [&](int64_t t0, int64_t t1, int) {
        for (int64_t t = t0; t < t1; ++t) {
            if (!L.bq.empty()) ops::add(q_.data() + t * QD, L.bq.data(), QD);
            if (!L.bk.empty()) ops::add(k_.data() + t * KD, L.bk.data(), KD);
            if (!L.bv.empty()) ops::add(v_.data() + t * KD, L.bv.data(), KD);
        }
    });
}

void CpuBackend::qk_norm(int32_t l) {
    const CpuLayerWeights& L = w_->layers[size_t(l)];
    const size_t hd = size_t(hd_);
    pool_->parallel_for(n_rows_, 1, [&](int64_t t0, int64_t t1, int) {
        for (int64_t t = t0; t < t1; ++t) {
            float* qt = q_.data() + size_t(t) * size_t(n_head_) * hd;  // [n_head][hd]
            float* kt = k_.data() + size_t(t) * size_t(n_kv_) * hd;  // [n_kv][hd]
            for (int32_t h = 0; h < n_head_; ++h) ops::rms_norm(qt + size_t(h) * hd, L.q_norm.data(), eps_, qt + size_t(h) * hd, hd_);
            for (int32_t h = 0; h < n_kv_; ++h) ops::rms_norm(kt + size_t(h) * hd, L.k_norm.data(), eps_, kt + size_t(h) * hd, hd_);
        }
    });
}

void CpuBackend::rope(int32_t table) {
    const std::vector<float>& rope_cs = rope_cs_[size_t(table)];
    const size_t hd = size_t(hd_);
    pool_->parallel_for(n_rows_, 1, [&](int64_t t0, int64_t t1, int) {
        for (int64_t t = t0; t < t1; ++t) {
            const float* cs = rope_cs.data() + size_t(t) * size_t(n_rot_);
            float* qt = q_.data() + size_t(t) * size_t(n_head_) * hd;
            float* kt = k_.data() + size_t(t) * size_t(n_kv_) * hd;
            for (int32_t h = 0; h < n_head_; ++h) ops::rope(qt + size_t(h) * hd, n_rot_, cs, neox_);
            for (int32_t h = 0; h < n_kv_; ++h) ops::rope(kt + size_t(h) * hd, n_rot_, cs, neox_);
        }
    });
}

void CpuBackend::store_kv(int32_t l) {
    const size_t KD = size_t(n_kv_) * size_t(hd_);
    cache_.open_layer(l);
    pool_->parallel_for(n_rows_, 1, [&](int64_t t0, int64_t t1, int) {  // rows write distinct positions
        for (int64_t t = t0; t < t1; ++t)
            cache_.write(l, pos0_ + int32_t(t), k_.data() + size_t(t) * KD, v_.data() + size_t(t) * KD, kernels_.f32_to_f16);
    });
}

void CpuBackend::attention(int32_t l, int32_t window) {
    cap_.scores = hook_out(trace::Hook::Scores, l);
    cap_.pattern = hook_out(trace::Hook::Pattern, l);
    auto t0 = Clock::now();
    if (cache_.offloads()) {
        cache_.offload(l);  // the layer's pages beyond the resident budget, to the file
        cache_.stage(l);    // and those in the file, back for this attention
        times_.add("kv offload", seconds_since(t0));
        t0 = Clock::now();
    }
    attn_.run(cache_, l, q_.data(), n_rows_, pos0_, window, z_.data(), cap_);
    times_.add("attention", seconds_since(t0));
}

void CpuBackend::zero_head(int32_t head) {
    const size_t QD = size_t(n_head_) * size_t(hd_);
    for (size_t t = 0; t < size_t(n_rows_); ++t) std::fill_n(z_.data() + t * QD + size_t(head) * size_t(hd_), size_t(hd_), 0.0f);
}

void CpuBackend::project(int32_t l, Projection which) {
    const CpuLayerWeights& L = w_->layers[size_t(l)];
    const Linear* w[1] = {which == Projection::Attn ? &L.wo : &L.down};
    float* y[1] = {out_.data()};
    matmul(w, which == Projection::Attn ? z_.data() : act_.data(), y);
}

void CpuBackend::post_norm(int32_t l, Projection which) {
    const CpuLayerWeights& L = w_->layers[size_t(l)];
    norm_rows(out_.data(), which == Projection::Attn ? L.post_attn_norm : L.post_ffn_norm, out_.data());
}

void CpuBackend::clear_out() { std::fill_n(out_.data(), size_t(n_rows_) * size_t(n_embd_), 0.0f); }

void CpuBackend::add_out() { ops::add(x_.data(), out_.data(), int64_t(size_t(n_rows_) * size_t(n_embd_))); }

void CpuBackend::project_add(int32_t l, Projection which, bool post) {
    project(l, which);
    if (post) post_norm(l, which);
    add_out();
}

void CpuBackend::gate_up(int32_t l, model::FfnActivation act) {
    const CpuLayerWeights& L = w_->layers[size_t(l)];
    const Linear* ws[2] = {&L.gate, &L.up};
    float* ys[2] = {act_.data(), up_.data()};
    matmul(ws, xn_.data(), ys);
    // elementwise over [n_rows][n_ff], in parts sized per activation (kGeluGrain, kSwigluGrain)
    const bool gelu = act == model::FfnActivation::GeluTanh;
    const int64_t n = int64_t(n_rows_) * n_ff_;
    pool_->parallel_for(n, gelu ? kGeluGrain : std::max<int64_t>(n_ff_, kSwigluGrain), [&](int64_t b, int64_t e, int) {
        float* g = act_.data() + b;
        const float* u = up_.data() + b;
        if (gelu) ops::geglu_tanh(g, u, e - b);
        else kernels_.swiglu(g, u, e - b);
    });
}

void CpuBackend::hook(trace::Hook h, int32_t l) {
    using trace::Hook;
    const size_t rows = size_t(n_rows_), E = size_t(n_embd_);
    const size_t QD = size_t(n_head_) * size_t(hd_), KD = size_t(n_kv_) * size_t(hd_);
    switch (h) {
    case Hook::ResidPre: case Hook::ResidMid: case Hook::ResidPost: hook_copy(h, l, x_.data(), rows * E); break;
    case Hook::AttnIn: case Hook::MlpIn: hook_copy(h, l, xn_.data(), rows * E); break;
    case Hook::Q: case Hook::QRot: hook_copy(h, l, q_.data(), rows * QD); break;
    case Hook::K: case Hook::KRot: hook_copy(h, l, k_.data(), rows * KD); break;
    case Hook::V: hook_copy(h, l, v_.data(), rows * KD); break;
    case Hook::Z: hook_copy(h, l, z_.data(), rows * QD); break;
    case Hook::AttnOut: case Hook::MlpOut: hook_copy(h, l, out_.data(), rows * E); break;
    case Hook::MlpAct: hook_copy(h, l, act_.data(), rows * size_t(n_ff_)); break;
    case Hook::Scores: case Hook::Pattern: break;  // written by the attention itself
    case Hook::FinalNorm: case Hook::Logits: break;  // after the last layer (head())
    }
}

void CpuBackend::head(const float* x_rows, int32_t n_out, float* out) {
    const size_t E = size_t(n_embd_);
    std::vector<float>& xn = xn_;  // reuse: at least n_out rows of n_embd
    for (int32_t t = 0; t < n_out; ++t)
        ops::rms_norm(x_rows + t * E, w_->output_norm.data(), eps_, xn.data() + t * E, n_embd_);
    hook_copy(trace::Hook::FinalNorm, -1, xn.data(), size_t(n_out) * E);
    const auto t0 = Clock::now();
    mm_.run(w_->output, xn.data(), n_out, out);
    times_.add("output head", seconds_since(t0));
    softcap(out, int64_t(n_out) * n_vocab_);
    hook_copy(trace::Hook::Logits, -1, out, size_t(n_out) * size_t(n_vocab_));
}

void CpuBackend::matmul(std::span<const Linear* const> ws, const float* x, std::span<float* const> ys) {
    const auto t0 = Clock::now();
    mm_.run(ws, x, n_rows_, ys);
    const double s = seconds_since(t0);
    size_t total = 0;
    for (const Linear* w : ws) total += w->row_bytes * size_t(w->n_out);
    for (const Linear* w : ws) {
        const std::string_view type = gguf::type_name(w->type);
        char name[32] = "matmul ";
        type.copy(name + 7, std::min(type.size(), sizeof(name) - 8));
        times_.add(name, total ? s * double(w->row_bytes * size_t(w->n_out)) / double(total) : 0.0);
    }
}

void CpuBackend::softcap(float* logits, int64_t n) const {
    const float c = spec_.final_softcap;
    if (c <= 0.0f) return;
    for (int64_t i = 0; i < n; ++i) logits[i] = c * std::tanh(logits[i] / c);
}

void CpuBackend::logit_lens(const float* x_row, int32_t k, trace::LensEntry* out) {
    lens_logits_.resize(size_t(n_vocab_));
    lens_x_.resize(size_t(n_embd_));
    ops::rms_norm(x_row, w_->output_norm.data(), eps_, lens_x_.data(), n_embd_);
    // softcap, softmax sum and top k taken piece by piece as the head writes the logits (no
    // second pass over the vocabulary), one accumulator per pool slot, merged in slot order
    lens_acc_.assign(size_t(pool_->size()), analysis::SoftmaxTopK(k));
    mm_.run_row(w_->output, lens_x_.data(), lens_logits_.data(), [&](float* piece, int64_t r0, int64_t r1, int slot) {
        softcap(piece, r1 - r0);
        lens_acc_[size_t(slot)].add(piece, r0, r1 - r0);
    });
    for (size_t t = 1; t < lens_acc_.size(); ++t) lens_acc_[0].merge(lens_acc_[t]);
    const std::vector<analysis::SoftmaxTopK::Entry> top = lens_acc_[0].top();
    for (size_t i = 0; i < top.size(); ++i) out[i] = {top[i].index, float(top[i].p)};
}

}  // namespace

std::unique_ptr<Backend> make_cpu_backend(std::shared_ptr<const Model> model, const BackendOptions& options) {
    if (!model) throw UsageError("cpu backend: no model");
    return std::make_unique<CpuBackend>(std::move(model), options);
}

}  // namespace lmscope::engine
