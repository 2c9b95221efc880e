// CudaBackend's capture: what the policy asks for is laid out once per step, filled on the
// device (attention weights of the asked pairs, per-row summaries, logit-lens logits), copied
// asynchronously into page-locked host memory and handed back after the step.
#include "gpu/cuda_backend_impl.h"

#include "analysis/softmax_top_k.h"
#include "engine/kernels.h"
#include "gpu/cuda_check.h"

#include <algorithm>
#include <cstring>

namespace lmscope::gpu {

void CudaBackend::Impl::prepare_capture(Step& st) {
    const trace::CapturePolicy& policy = *st.policy;
    trace::StepCapture& c = *st.capture;
    const int32_t n = st.n;
    c = trace::StepCapture{};
    c.n_layer = n_layer_;
    c.n_head = n_head_;
    c.n_rows = n;
    c.layer_ms.assign(size_t(n_layer_), 0.0);
    st.summaries = policy.wants_summary();
    if (st.summaries)
        c.summaries.assign(size_t(n_layer_) * size_t(n_head_) * size_t(n), HeadSummary{});
    plane_of_head_.assign(size_t(n_layer_) * size_t(n_head_), -1);
    for (int32_t l = 0; l < n_layer_; ++l)
        for (int32_t h = 0; h < n_head_; ++h) {
            if (!policy.wants_full(l, h)) continue;
            plane_of_head_[size_t(l) * size_t(n_head_) + size_t(h)] = int32_t(c.planes.size());
            trace::AttentionPlane p;
            p.at = {l, h};
            p.first_row_pos = st.pos0;
            p.n_rows = n;
            p.n_keys = st.n_keys;
            p.weights.assign(size_t(n) * size_t(st.n_keys), 0.0f);
            c.planes.push_back(std::move(p));
        }
    hooks_.prepare(policy, c, trace::HookDims{n_embd_, n_head_, n_kv_, hd_, n_ff_, n_vocab_}, n_layer_, n, st.n_keys,
                   st.all_logits ? n : 1);
    if (std::any_of(policy.hooks.begin(), policy.hooks.end(),
                    [](const trace::HookPoint& p) { return p.hook == trace::Hook::Scores; }))
        scores_.ensure(size_t(n_head_) * size_t(st.chunk_rows) * size_t(st.n_keys), true);
    st.lens_k = policy.logit_lens ? std::clamp(policy.lens_top_k, 1, n_vocab_) : 0;
    if (st.lens_k > 0) c.lens.assign(size_t(n_layer_) * size_t(st.lens_k), trace::LensEntry{});

    // device and page-locked buffers (grown geometrically: decode steps grow by one key)
    const size_t plane_floats = checked_bytes(size_t(n), size_t(st.n_keys), "attention planes");
    if (!c.planes.empty())
        planes_host_.ensure(checked_bytes(c.planes.size(), plane_floats, "attention planes"), true);
    if (st.summaries) {
        const size_t count = size_t(n_layer_) * size_t(n_head_) * size_t(n);
        summaries_.ensure(count, true);
        summaries_host_.ensure(count, true);
    }
    if (st.lens_k > 0) {
        lens_xn_.ensure(size_t(n_embd_));
        lens_logits_.ensure(size_t(n_layer_) * size_t(n_vocab_));
        lens_host_.ensure(size_t(n_layer_) * size_t(n_vocab_));
    }
}

void CudaBackend::Impl::finish_capture(Step& st) {
    trace::StepCapture& c = *st.capture;
    const size_t count = size_t(n_layer_) * size_t(n_head_) * size_t(st.n);
    if (st.summaries)
        LMSCOPE_CUDA_CHECK(cudaMemcpyAsync(summaries_host_.get(), summaries_.get(),
                                           count * sizeof(HeadSummary),
                                           cudaMemcpyDeviceToHost, stream_.s));
    if (st.lens_k > 0)
        LMSCOPE_CUDA_CHECK(cudaMemcpyAsync(lens_host_.get(), lens_logits_.get(),
                                           size_t(n_layer_) * size_t(n_vocab_) * sizeof(float),
                                           cudaMemcpyDeviceToHost, stream_.s));
    LMSCOPE_CUDA_CHECK(cudaStreamSynchronize(stream_.s));

    const size_t plane_floats = size_t(st.n) * size_t(st.n_keys);
    for (size_t i = 0; i < c.planes.size(); ++i)
        std::memcpy(c.planes[i].weights.data(), planes_host_.get() + i * plane_floats,
                    plane_floats * sizeof(float));
    if (st.summaries) std::copy_n(summaries_host_.get(), count, c.summaries.begin());
    // logit lens: softmax and top k of each layer's logits in one pass, as the CPU backend takes
    // them (probability descending, then token id ascending)
    const int32_t k = st.lens_k;
    analysis::SoftmaxTopK acc;
    for (int32_t l = 0; l < n_layer_ && k > 0; ++l) {
        acc.reset(k);
        acc.add(lens_host_.get() + size_t(l) * size_t(n_vocab_), 0, n_vocab_);  // [n_vocab] logits
        const std::vector<analysis::SoftmaxTopK::Entry> top = acc.top();
        for (size_t i = 0; i < top.size(); ++i) c.lens[size_t(l) * size_t(k) + i] = {top[i].index, float(top[i].p)};
    }
}

// Hook points of the segment's rows [s0_, s0_ + ns_): the block names them where their value
// is complete on the device (scores and pattern come from attention(), final_norm and logits
// from final_hooks()).
void CudaBackend::Impl::hook(trace::Hook h, int32_t l) {
    using trace::Hook;
    float* dst = hooks_.find(h, l);
    if (!dst) return;
    const size_t row0 = size_t(s0_), E = size_t(n_embd_), QD = size_t(QD_), KD = size_t(KD_), F = size_t(n_ff_);
    switch (h) {
    case Hook::ResidPre: case Hook::ResidMid: case Hook::ResidPost: copy_rows(dst + row0 * E, x_.get(), E, 0, E, ns_); break;
    case Hook::AttnIn: case Hook::MlpIn: copy_rows(dst + row0 * E, xn_.get(), E, 0, E, ns_); break;
    case Hook::Q: case Hook::QRot: copy_rows(dst + row0 * QD, qkv_.get(), size_t(QKV_), 0, QD, ns_); break;
    case Hook::K: case Hook::KRot: copy_rows(dst + row0 * KD, qkv_.get(), size_t(QKV_), QD, KD, ns_); break;
    case Hook::V: copy_rows(dst + row0 * KD, qkv_.get(), size_t(QKV_), QD + KD, KD, ns_); break;
    case Hook::Z: copy_rows(dst + row0 * QD, z_.get(), QD, 0, QD, ns_); break;
    case Hook::AttnOut: case Hook::MlpOut: copy_rows(dst + row0 * E, out_.get(), E, 0, E, ns_); break;
    case Hook::MlpAct: copy_rows(dst + row0 * F, act_.get(), F, 0, F, ns_); break;
    case Hook::Scores: case Hook::Pattern: case Hook::FinalNorm: case Hook::Logits: break;
    }
}

void CudaBackend::Impl::final_hooks(int32_t row0, int32_t rows) {
    if (float* dst = hooks_.find(trace::Hook::FinalNorm, -1))
        copy_rows(dst + size_t(row0) * size_t(n_embd_), xn_.get(), size_t(n_embd_), 0, size_t(n_embd_), rows);
    if (float* dst = hooks_.find(trace::Hook::Logits, -1))
        copy_rows(dst + size_t(row0) * size_t(n_vocab_), logits_.get(), size_t(n_vocab_), 0, size_t(n_vocab_), rows);
}

void CudaBackend::Impl::copy_rows(float* dst, const float* src, size_t stride, size_t col0, size_t width, int32_t rows) {
    // into pageable memory: the copy is complete when the call returns
    LMSCOPE_CUDA_CHECK(cudaMemcpy2DAsync(dst, width * sizeof(float), src + col0, stride * sizeof(float),
                                         width * sizeof(float), size_t(rows), cudaMemcpyDeviceToHost, stream_.s));
    LMSCOPE_CUDA_CHECK(cudaStreamSynchronize(stream_.s));
}

void CudaBackend::Impl::copy_rows(float* dst, const __half* src, size_t stride, size_t col0, size_t width, int32_t rows) {
    const size_t count = size_t(rows) * width;
    hook_half_host_.ensure(count, true);
    LMSCOPE_CUDA_CHECK(cudaMemcpy2DAsync(hook_half_host_.get(), width * sizeof(__half), src + col0,
                                         stride * sizeof(__half), width * sizeof(__half), size_t(rows),
                                         cudaMemcpyDeviceToHost, stream_.s));
    LMSCOPE_CUDA_CHECK(cudaStreamSynchronize(stream_.s));
    engine::kernels::best().f16_to_f32(reinterpret_cast<const uint16_t*>(hook_half_host_.get()), dst, int64_t(count));
}

void CudaBackend::Impl::copy_attention_rows(float* hook, const float* rows, const Step& st, int32_t row0, int32_t n_rows) {
    const size_t n_keys = size_t(st.n_keys);
    const size_t rows_floats = size_t(n_rows) * n_keys;  // one head's rows in the launch
    LMSCOPE_CUDA_CHECK(cudaMemcpy2DAsync(hook + size_t(row0) * n_keys, size_t(st.n) * n_keys * sizeof(float), rows,
                                         rows_floats * sizeof(float), rows_floats * sizeof(float), size_t(n_head_),
                                         cudaMemcpyDeviceToHost, stream_.s));
    LMSCOPE_CUDA_CHECK(cudaStreamSynchronize(stream_.s));
}

}  // namespace lmscope::gpu
