#include "gpu/cuda_backend.h"

#include "engine/model.h"
#include "gpu/cuda_backend_impl.h"
#include "gpu/cuda_check.h"
#include "kv/kv_math.h"
#include "gpu/devices.h"
#include "gpu/gemm.h"
#include "gpu/kernels/add.cuh"
#include "gpu/kernels/add_bias.cuh"
#include "gpu/kernels/embed.cuh"
#include "gpu/kernels/gemv.cuh"
#include "gpu/kernels/glu.cuh"
#include "gpu/kernels/head_rmsnorm.cuh"
#include "gpu/kernels/kv_store.cuh"
#include "gpu/kernels/rmsnorm.cuh"
#include "gpu/kernels/rope.cuh"
#include "gpu/kernels/softcap.cuh"
#include "util/clock.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace lmscope::gpu {

namespace {

constexpr int32_t kMaxSegmentRows = 2048;            // bounds the activation buffers
constexpr size_t kProbsBudget = size_t(256) << 20;   // bytes of attention weights per launch

int select_device(int index, std::string& label) {
    const DeviceReport r = query_devices();
    if (r.devices.empty()) throw Error("no CUDA device: " + r.problem);
    const auto it = std::find_if(r.devices.begin(), r.devices.end(),
                                 [&](const DeviceInfo& d) { return d.index == index; });
    if (it == r.devices.end())
        throw UsageError("cuda: device " + std::to_string(index) + " does not exist (" +
                         std::to_string(r.devices.size()) + " usable)");
    if (it->cc_major < 8)
        throw Error("cuda: " + it->name + " has compute capability " + std::to_string(it->cc_major) +
                    "." + std::to_string(it->cc_minor) + "; this build runs on 8.0 or newer");
    LMSCOPE_CUDA_CHECK(cudaSetDevice(index));
    label = it->name + ", cc " + std::to_string(it->cc_major) + "." + std::to_string(it->cc_minor);
    return index;
}

cudaStream_t create_stream() {
    cudaStream_t s = nullptr;
    LMSCOPE_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return s;
}

const model::ModelSpec& checked_spec(const std::shared_ptr<const engine::Model>& m) {
    if (!m) throw UsageError("cuda backend: no model");
    const model::ModelSpec& s = m->spec();
    if (s.head_dim() > kernels::kMaxHeadDim)
        throw UnsupportedError("cuda backend: head dimension " + std::to_string(s.head_dim()) +
                               " is larger than " + std::to_string(kernels::kMaxHeadDim));
    if (s.n_rot() > s.head_dim() || s.n_rot() % 2 != 0)
        throw UnsupportedError("cuda backend: rotary dimension " + std::to_string(s.n_rot()));
    return s;
}

}  // namespace

CudaBackend::Impl::Impl(std::shared_ptr<const engine::Model> model, const engine::BackendOptions& o,
                        const CudaOptions& c)
    : model_(std::move(model)),
      spec_(checked_spec(model_)),
      device_(select_device(c.device, name_)),
      n_embd_(spec_.n_embd()), n_head_(spec_.n_head()), n_kv_(spec_.n_head_kv()), hd_(spec_.head_dim()),
      QD_(n_head_ * hd_), KD_(n_kv_ * hd_), QKV_(QD_ + 2 * KD_), n_ff_(spec_.n_ff()),
      n_vocab_(spec_.n_vocab()), n_layer_(spec_.n_layer()), n_rot_(spec_.n_rot()),
      eps_(float(spec_.hp.rms_eps)), scale_(spec_.attn_scale), neox_(spec_.neox()),
      stream_{create_stream()},
      kv_(engine::KvShape{spec_.n_layer(), spec_.n_head_kv(), spec_.head_dim(), o.kv_type},
          o.n_ctx > 0 ? o.n_ctx : spec_.n_ctx_train(), c.offload_window, stream_.s) {
    LMSCOPE_CUBLAS_CHECK(cublas().create(&blas_.h));
    LMSCOPE_CUBLAS_CHECK(cublas().set_stream(blas_.h, stream_.s));
    events_.e.assign(size_t(n_layer_) + 1, nullptr);
    for (cudaEvent_t& e : events_.e) LMSCOPE_CUDA_CHECK(cudaEventCreate(&e));
    w_ = DeviceWeights::upload(spec_, model_->weights(), model_->file().path());
    name_ = "cuda (" + name_ + (c.offload_window > 0 ? ", kv offload " + std::to_string(kv_.offload_window()) : "") + ")";
}

CudaBackend::Impl::~Impl() { cudaSetDevice(device_); }

void CudaBackend::Impl::ensure_buffers(const Step& st) {
    const size_t seg = size_t(st.seg_rows);
    ids_.ensure(size_t(st.n), true);
    ids_host_.ensure(size_t(st.n), true);
    x_.ensure(seg * size_t(n_embd_));
    xn_.ensure(seg * size_t(n_embd_));
    qkv_.ensure(seg * size_t(QKV_));
    z_.ensure(seg * size_t(QD_));
    gu_.ensure(seg * 2 * size_t(n_ff_));
    out_.ensure(seg * size_t(n_embd_));
    act_.ensure(seg * size_t(n_ff_));
    logits_.ensure((st.all_logits ? seg : 1) * size_t(n_vocab_));
    if (st.seg_rows > kernels::kMaxGemvRows)
        tile_.ensure(size_t(tile_values_for(w_.max_decoded, std::max({n_embd_, QD_, n_ff_}))));
    probs_.ensure(size_t(n_head_) * size_t(st.chunk_rows) * size_t(st.n_keys), true);
}

void CudaBackend::Impl::forward(const engine::ForwardRequest& r) {
    engine::check_forward_request(r, *model_, kv_.n_tokens(), kv_.n_ctx());
    const std::span<const int32_t> tokens = r.tokens;
    const int32_t pos0 = r.pos0;
    const trace::CapturePolicy& policy = r.policy;
    trace::StepCapture* capture = r.capture;
    const bool all_logits = r.all_logits;
    const std::span<float> logits_out = r.logits;
    const CancelToken* cancel = r.cancel;
    const auto t_start = Clock::now();
    LMSCOPE_CUDA_CHECK(cudaSetDevice(device_));  // the engine may call from any thread
    // a step that threw may have left copies in flight into buffers about to be resized
    LMSCOPE_CUDA_CHECK(cudaStreamSynchronize(stream_.s));

    Step st;
    st.tokens = tokens;
    st.pos0 = pos0;
    st.n = int32_t(tokens.size());
    st.n_keys = pos0 + st.n;
    st.seg_rows = std::min({st.n, kv_.max_segment_rows(), kMaxSegmentRows});
    const size_t row_probs = size_t(n_head_) * size_t(st.n_keys) * sizeof(float);
    st.chunk_rows = int32_t(std::clamp<size_t>(kProbsBudget / row_probs, 1, size_t(st.seg_rows)));
    st.policy = &policy;
    st.capture = capture;
    st.all_logits = all_logits;
    st.logits_out = logits_out;
    st.interventions = {r.ablate, r.skip};

    kv_.truncate(pos0);
    kv_.reserve(pos0 + st.n);
    kv_.traffic() = {};
    hooks_.clear();
    if (capture) prepare_capture(st);
    ensure_buffers(st);

    std::memcpy(ids_host_.get(), tokens.data(), tokens.size() * sizeof(int32_t));
    LMSCOPE_CUDA_CHECK(cudaMemcpyAsync(ids_.get(), ids_host_.get(), tokens.size() * sizeof(int32_t),
                                       cudaMemcpyHostToDevice, stream_.s));
    for (int32_t s0 = 0; s0 < st.n; s0 += st.seg_rows)
        segment(st, s0, std::min(st.seg_rows, st.n - s0), cancel);
    if (capture) finish_capture(st);  // synchronizes
    LMSCOPE_CUDA_CHECK(cudaStreamSynchronize(stream_.s));

    kv_.set_n_tokens(pos0 + st.n);
    last_traffic_ = kv_.traffic();
    total_traffic_.to_device += last_traffic_.to_device;
    total_traffic_.to_host += last_traffic_.to_host;
    if (capture) capture->total_ms = ms_since(t_start);
}

// Rows [s0, s0 + ns) of the step through every layer, then their logits.
void CudaBackend::Impl::segment(Step& st, int32_t s0, int32_t ns, const CancelToken* cancel) {
    const bool last = s0 + ns == st.n;
    const bool timing = st.capture != nullptr;
    cudaStream_t s = stream_.s;
    const DeviceMatrix::Part& embd = w_.token_embd.parts.front();
    kernels::embed(embd.data.get(), embd.type, ids_.get() + s0, ns, n_embd_, spec_.embed_scale, x_.get(), s);
    kv_.begin_segment(st.pos0 + s0, ns);
    st_ = &st;
    s0_ = s0;
    ns_ = ns;
    for (int32_t l = 0; l < n_layer_; ++l) {
        if (cancel && cancel->cancelled()) {
            cudaStreamSynchronize(s);  // let the queued work finish; the cache stays at pos0
            throw CancelledError();
        }
        if (timing) LMSCOPE_CUDA_CHECK(cudaEventRecord(events_.e[size_t(l)], s));
        engine::run_block(*this, spec_, l, st.interventions);
        if (last && st.lens_k > 0) lens_layer(l, ns - 1);
    }
    if (timing) {
        LMSCOPE_CUDA_CHECK(cudaEventRecord(events_.e[size_t(n_layer_)], s));
        LMSCOPE_CUDA_CHECK(cudaEventSynchronize(events_.e[size_t(n_layer_)]));
        for (int32_t l = 0; l < n_layer_; ++l) {
            float ms = 0.0f;
            LMSCOPE_CUDA_CHECK(cudaEventElapsedTime(&ms, events_.e[size_t(l)], events_.e[size_t(l) + 1]));
            st.capture->layer_ms[size_t(l)] += double(ms);
        }
    }
    // logits: final norm and output head
    if (st.all_logits) {
        kernels::rmsnorm(x_.get(), w_.output_norm.get(), eps_, ns, n_embd_, xn_.get(), s);
        head(ns, logits_.get());
        final_hooks(s0, ns);
        LMSCOPE_CUDA_CHECK(cudaMemcpyAsync(st.logits_out.data() + size_t(s0) * size_t(n_vocab_), logits_.get(),
                                           size_t(ns) * size_t(n_vocab_) * sizeof(float),
                                           cudaMemcpyDeviceToHost, s));
    } else if (last) {
        kernels::rmsnorm(x_.get() + size_t(ns - 1) * size_t(n_embd_), w_.output_norm.get(), eps_, 1, n_embd_,
                         xn_.get(), s);
        head(1, logits_.get());
        final_hooks(0, 1);
        LMSCOPE_CUDA_CHECK(cudaMemcpyAsync(st.logits_out.data(), logits_.get(), size_t(n_vocab_) * sizeof(float),
                                           cudaMemcpyDeviceToHost, s));
    }
}

void CudaBackend::Impl::norm_in(int32_t l, engine::BlockNorm which) {
    const DeviceLayer& L = w_.layers[size_t(l)];
    kernels::rmsnorm(x_.get(), (which == engine::BlockNorm::Attn ? L.attn_norm : L.ffn_norm).get(), eps_, ns_, n_embd_,
                     xn_.get(), stream_.s);
}

void CudaBackend::Impl::qkv(int32_t l) {
    const DeviceLayer& L = w_.layers[size_t(l)];
    gemm(L.wqkv, xn_.get(), ns_, qkv_.get(), false);
    if (L.bqkv.get()) kernels::add_bias(qkv_.get(), L.bqkv.get(), ns_, QKV_, stream_.s);
}

void CudaBackend::Impl::qk_norm(int32_t l) {
    const DeviceLayer& L = w_.layers[size_t(l)];
    kernels::head_rmsnorm(qkv_.get(), ns_, QKV_, n_head_, n_kv_, hd_, L.q_norm.get(), L.k_norm.get(), eps_, stream_.s);
}

void CudaBackend::Impl::rope(int32_t table) {
    kernels::rope(qkv_.get(), ns_, QKV_, n_head_ + n_kv_, hd_, n_rot_, w_.rope_inv_freq[size_t(table)].get(),
                  st_->pos0 + s0_, neox_, stream_.s);
}

void CudaBackend::Impl::store_kv(int32_t l) {
    const int32_t p = st_->pos0 + s0_;  // position of the segment's first row
    kernels::kv_store(qkv_.get() + QD_, qkv_.get() + QD_ + KD_, QKV_, ns_, n_kv_, hd_, kv_.shape().type,
                      int32_t(kv_.shape().row_bytes()), kv_.k_ring(l), kv_.v_ring(l), kv_.ring_cap(), p, stream_.s);
    kv_.write_through(l, p, ns_);
}

void CudaBackend::Impl::attention(int32_t l, int32_t window) {
    Step& st = *st_;
    cudaStream_t s = stream_.s;
    const kernels::KvView view = kv_.view(l);
    kernels::AttentionArgs a;
    a.pos0 = st.pos0;
    a.n_step = st.n;
    a.q = qkv_.get();
    a.q_row0 = s0_;
    a.q_stride = QKV_;
    a.n_head = n_head_;
    a.n_kv = n_kv_;
    a.head_dim = hd_;
    a.scale = scale_;
    a.softcap = spec_.attn_softcap;
    a.window = window;
    a.probs = probs_.get();
    a.summaries = st.summaries ? summaries_.get() + size_t(l) * size_t(n_head_) * size_t(st.n) : nullptr;
    a.out = z_.get();
    float* scores_hook = hooks_.find(trace::Hook::Scores, l);
    float* pattern_hook = hooks_.find(trace::Hook::Pattern, l);
    if (scores_hook) a.scores = scores_.get();
    const int32_t* planes = st.capture ? plane_of_head_.data() + size_t(l) * size_t(n_head_) : nullptr;
    // every head of the layer captured: its planes are consecutive (prepare_capture numbers
    // them layer by layer, head by head), so one 2-D copy per chunk moves them all
    const bool whole_layer = planes && std::all_of(planes, planes + n_head_, [](int32_t plane) { return plane >= 0; });
    const size_t plane_floats = size_t(st.n) * size_t(st.n_keys);
    for (int32_t c0 = 0; c0 < ns_; c0 += st.chunk_rows) {
        a.row0 = s0_ + c0;
        a.n_rows = std::min(st.chunk_rows, ns_ - c0);
        kernels::attention(a, view, s);
        if (scores_hook) copy_attention_rows(scores_hook, a.scores, st, a.row0, a.n_rows);
        if (pattern_hook) copy_attention_rows(pattern_hook, a.probs, st, a.row0, a.n_rows);
        if (!planes) continue;
        // captured heads: rows [row0, row0 + n_rows) of their planes, [n_rows][n_keys] each;
        // the launch's weights are [n_head][n_rows][n_keys]
        const size_t rows_floats = size_t(a.n_rows) * size_t(st.n_keys);
        float* rows0 = planes_host_.get() + size_t(a.row0) * size_t(st.n_keys);  // plane 0's rows
        if (whole_layer) {
            LMSCOPE_CUDA_CHECK(cudaMemcpy2DAsync(rows0 + size_t(planes[0]) * plane_floats,
                                                 plane_floats * sizeof(float), a.probs,
                                                 rows_floats * sizeof(float), rows_floats * sizeof(float),
                                                 size_t(n_head_), cudaMemcpyDeviceToHost, s));
            continue;
        }
        for (int32_t h = 0; h < n_head_; ++h) {
            const int32_t pi = planes[h];
            if (pi < 0) continue;
            LMSCOPE_CUDA_CHECK(cudaMemcpyAsync(rows0 + size_t(pi) * plane_floats, a.probs + size_t(h) * rows_floats,
                                               rows_floats * sizeof(float), cudaMemcpyDeviceToHost, s));
        }
    }
}

void CudaBackend::Impl::zero_head(int32_t head) {
    LMSCOPE_CUDA_CHECK(cudaMemset2DAsync(z_.get() + size_t(head) * size_t(hd_), size_t(QD_) * sizeof(__half), 0,
                                         size_t(hd_) * sizeof(__half), size_t(ns_), stream_.s));
}

CudaBackend::Impl::ProjectionArgs CudaBackend::Impl::projection(int32_t l, engine::Projection which) const {
    const DeviceLayer& L = w_.layers[size_t(l)];
    if (which == engine::Projection::Attn) return {&L.wo, z_.get(), L.post_attn_norm.get()};
    return {&L.wdown, act_.get(), L.post_ffn_norm.get()};
}

void CudaBackend::Impl::gemm(const DeviceMatrix& w, const __half* in, int32_t rows, float* y, bool accumulate) {
    const GemmContext c{blas_.h, stream_.s, tile_.get(), int64_t(tile_.capacity())};
    gemm_rows(c, w, in, rows, y, accumulate);
}

void CudaBackend::Impl::project(int32_t l, engine::Projection which) {
    const ProjectionArgs p = projection(l, which);
    gemm(*p.w, p.in, ns_, out_.get(), false);
}

void CudaBackend::Impl::post_norm(int32_t l, engine::Projection which) {
    kernels::rmsnorm_f32(out_.get(), projection(l, which).post_norm, eps_, ns_, n_embd_, out_.get(), stream_.s);
}

void CudaBackend::Impl::clear_out() {
    LMSCOPE_CUDA_CHECK(cudaMemsetAsync(out_.get(), 0, size_t(ns_) * size_t(n_embd_) * sizeof(float), stream_.s));
}

void CudaBackend::Impl::add_out() { kernels::add(x_.get(), out_.get(), int64_t(ns_) * n_embd_, stream_.s); }

void CudaBackend::Impl::project_add(int32_t l, engine::Projection which, bool post) {
    const ProjectionArgs p = projection(l, which);
    if (!post) {  // the GEMM accumulates into x
        gemm(*p.w, p.in, ns_, x_.get(), true);
        return;
    }
    gemm(*p.w, p.in, ns_, out_.get(), false);
    kernels::rmsnorm_add(x_.get(), out_.get(), p.post_norm, eps_, ns_, n_embd_, stream_.s);
}

void CudaBackend::Impl::gate_up(int32_t l, model::FfnActivation act) {
    const DeviceLayer& L = w_.layers[size_t(l)];
    gemm(L.wgu, xn_.get(), ns_, gu_.get(), false);
    kernels::glu(gu_.get(), ns_, n_ff_,
                 act == model::FfnActivation::GeluTanh ? kernels::GluActivation::GeluTanh : kernels::GluActivation::SiLU,
                 act_.get(), stream_.s);
}

void CudaBackend::Impl::head(int32_t rows, float* out) {
    gemm(w_.output(), xn_.get(), rows, out, false);
    if (spec_.final_softcap > 0.0f)
        kernels::softcap(out, int64_t(rows) * n_vocab_, spec_.final_softcap, stream_.s);
}

void CudaBackend::Impl::lens_layer(int32_t l, int32_t last_row) {
    kernels::rmsnorm(x_.get() + size_t(last_row) * size_t(n_embd_), w_.output_norm.get(), eps_, 1, n_embd_,
                     lens_xn_.get(), stream_.s);
    float* out = lens_logits_.get() + size_t(l) * size_t(n_vocab_);
    gemm(w_.output(), lens_xn_.get(), 1, out, false);
    if (spec_.final_softcap > 0.0f) kernels::softcap(out, n_vocab_, spec_.final_softcap, stream_.s);
}

engine::KvStats CudaBackend::Impl::kv_stats() const {
    engine::KvStats s;
    s.type = kv_.shape().type;
    s.n_tokens = kv_.n_tokens();
    s.n_ctx = kv_.n_ctx();
    s.bytes_per_token = kv_.shape().bytes(1);
    s.layer_bytes.assign(size_t(n_layer_), kv_.shape().bytes_per_token_layer() * size_t(kv_.n_tokens()));
    s.total_bytes = kv_.shape().bytes(kv_.n_tokens());
    s.formula_bytes = s.total_bytes;
    // with offload every position is in pinned host memory and the newest `window` on the device
    const int32_t on_device = kv_.offload_window() > 0 ? kv_.device_tokens() : kv_.n_tokens();
    s.resident_bytes = kv_.shape().bytes(on_device);
    s.offloaded_bytes = kv_.offload_window() > 0 ? s.total_bytes - s.resident_bytes : 0;
    s.moved_bytes = total_traffic_.to_device + total_traffic_.to_host;
    s.reserved_bytes = kv_.device_bytes() + kv_.host_bytes();
    return s;
}

KvOffloadStats CudaBackend::Impl::offload_stats() const {
    KvOffloadStats o;
    o.window = kv_.offload_window();
    o.device_tokens = kv_.device_tokens();
    o.host_tokens = o.window > 0 ? kv_.n_tokens() - o.device_tokens : 0;
    o.device_bytes = kv_.device_bytes();
    o.host_bytes = kv_.host_bytes();
    o.step_to_device = last_traffic_.to_device;
    o.step_to_host = last_traffic_.to_host;
    o.total_to_device = total_traffic_.to_device;
    o.total_to_host = total_traffic_.to_host;
    return o;
}

// ---- public face -----------------------------------------------------------------------

CudaBackend::CudaBackend(std::shared_ptr<const engine::Model> model, const engine::BackendOptions& options,
                         const CudaOptions& cuda)
    : impl_(std::make_unique<Impl>(std::move(model), options, cuda)) {}
CudaBackend::~CudaBackend() = default;
std::string CudaBackend::name() const { return impl_->name(); }
const engine::Model& CudaBackend::model() const { return impl_->model(); }
void CudaBackend::forward(const engine::ForwardRequest& r) { impl_->forward(r); }
int32_t CudaBackend::n_ctx() const { return impl_->n_ctx(); }
int32_t CudaBackend::kv_tokens() const { return impl_->kv_tokens(); }
void CudaBackend::kv_truncate(int32_t n) { impl_->kv_truncate(n); }
engine::KvStats CudaBackend::kv_stats() const { return impl_->kv_stats(); }
KvOffloadStats CudaBackend::offload_stats() const { return impl_->offload_stats(); }

std::unique_ptr<engine::Backend> make_cuda_backend(std::shared_ptr<const engine::Model> model,
                                                   const engine::BackendOptions& options, int device) {
    CudaOptions c;
    c.device = device;
    if (options.kv_offload_bytes > 0 && model) {  // the budget as a device window of whole positions
        const uint64_t per_token = kv::bytes_per_token(model->spec().kv_shape(), options.kv_type);
        c.offload_window = int32_t(std::clamp<uint64_t>(options.kv_offload_bytes / std::max<uint64_t>(per_token, 1), 1,
                                                        uint64_t(std::numeric_limits<int32_t>::max())));
    }
    return std::make_unique<CudaBackend>(std::move(model), options, c);
}

std::unique_ptr<CudaBackend> make_cuda_backend(std::shared_ptr<const engine::Model> model,
                                               const engine::BackendOptions& options,
                                               const CudaOptions& cuda) {
    return std::make_unique<CudaBackend>(std::move(model), options, cuda);
}

}  // namespace lmscope::gpu
