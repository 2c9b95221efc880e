// The CUDA backend against the CPU reference backend: logits, attention weights, summaries,
// logit lens and every hook point (with a head switched off and a sub-layer skipped) on every
// fixture model, gemma2 and phi3 made from fixtures (arch_variants.h), and the sample model;
// fx-gqa re-encoded in every weight type the device decodes (typed_weights.h), and in a mix of
// types within one fused matrix; greedy decoding on SmolLM2; the three KV cache types;
// KV offload on and off. Every test skips with the reason when this
// machine has no usable CUDA device.
#include "core/engine/arch_variants.h"
#include "core/engine/engine_fixture.h"
#include "gpu/typed_weights.h"

#include "engine/cpu_backend.h"
#include "gpu/cuda_backend.h"
#include "gpu/devices.h"
#include "util/error.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace lmscope;
using namespace lmscope::testing;

namespace {

#define REQUIRE_CUDA_DEVICE()                                                                  \
    do {                                                                                       \
        const gpu::DeviceReport report_ = gpu::query_devices();                               \
        if (report_.devices.empty())                                                           \
            QSKIP(qPrintable(QString("no CUDA device: %1").arg(QString::fromStdString(report_.problem)))); \
    } while (0)

trace::CapturePolicy full_policy() {
    trace::CapturePolicy p;
    p.mode = trace::CaptureMode::Full;
    return p;
}

// A model: the fixture's reference tokens, or for the sample model a fixed id sequence.
struct Case {
    std::string path;
    std::vector<int32_t> tokens;
};

Case load_case(const QString& model) {
    Case c;
    if (model == "SmolLM2") {
        c.path = sample_model();
        // ids of a short English prompt in SmolLM2's vocabulary (any ids < 49152 would do)
        c.tokens = {1, 504, 2365, 6354, 16438, 27003, 690, 260, 23790, 2767, 30, 378, 1345, 314, 253};
        return c;
    }
    const ReferenceRun ref = load_reference(model.toStdString());
    c.path = ref.model_path;
    c.tokens = ref.tokens;
    return c;
}

// A model and a backend of each kind on it.
struct BothBackends {
    std::shared_ptr<const engine::Model> model;
    std::unique_ptr<engine::Backend> cpu, gpu;
};
BothBackends both_backends(const std::string& path) {
    BothBackends b;
    b.model = engine::Model::load(path);
    b.cpu = engine::make_cpu_backend(b.model, {});
    b.gpu = gpu::make_cuda_backend(b.model, {}, 0);
    return b;
}

int32_t argmax(std::span<const float> v) {
    return int32_t(std::max_element(v.begin(), v.end()) - v.begin());
}

// The prompt, then n greedy tokens (one decode step each).
std::vector<int32_t> greedy(engine::Backend& b, const std::vector<int32_t>& prompt, int n) {
    const size_t V = size_t(b.model().spec().n_vocab());
    std::vector<float> logits(V);
    std::vector<int32_t> out;
    b.forward({.tokens = prompt, .logits = logits});
    for (int i = 0; i < n; ++i) {
        const int32_t t = argmax(logits);
        out.push_back(t);
        const std::vector<int32_t> one{t};
        b.forward({.tokens = one, .pos0 = int32_t(prompt.size()) + i, .logits = logits});
    }
    return out;
}

// How close the CUDA backend must come to the CPU. For quantized weights the CPU multiplies
// with 8-bit-quantized activations (every type of issue 32's int8-dot path), which alone moves
// it up to rms/std 0.03 and |d attention| 0.025 from exact arithmetic
// (../shared/testdata/README.md); the CUDA backend multiplies the weights (fp16 tiles in
// prefill, decoded to float in decode) with fp16 activations. So quantized models get the
// bounds the engine's own tests use for quantized weights; float weights must agree to 0.01.
struct Bounds {
    double rms, kl, attn;
};
constexpr Bounds kFloatBounds{0.01, 1e-3, 0.01}, kQuantizedBounds{0.06, 1e-2, 0.025};

Bounds bounds_for(const QString& model) {
    return model.contains("-Q") || model == "SmolLM2" ? kQuantizedBounds : kFloatBounds;
}

// Logits of every token, the tokens fed `step` at a time (steps of a few rows: the GEMV path).
std::vector<float> logits_in_steps(engine::Backend& b, const std::vector<int32_t>& tokens, size_t step) {
    const size_t V = size_t(b.model().spec().n_vocab());
    std::vector<float> out(tokens.size() * V);  // [token][V]
    for (size_t t0 = 0; t0 < tokens.size(); t0 += step) {
        const size_t n = std::min(step, tokens.size() - t0);
        const std::vector<int32_t> part(tokens.begin() + std::ptrdiff_t(t0), tokens.begin() + std::ptrdiff_t(t0 + n));
        b.forward({.tokens = part, .pos0 = int32_t(t0), .logits = std::span<float>(out.data() + t0 * V, n * V),
                   .all_logits = true});
    }
    return out;
}

// Every recipe: qwen2, qwen3 (QK-norm), gemma3 (post-norms, GeGLU, windows, two RoPE bases,
// scaled embeddings), smollm3 (NoPE), llama3 (rope_freqs), float and Q4_K_M.
constexpr const char* kArchFixtures[] = {"fx-qwen2", "fx-qwen3", "fx-gemma3", "fx-smollm3", "fx-llama3",
                                         "fx-qwen2-Q4_K_M", "fx-qwen3-Q4_K_M", "fx-gemma3-Q4_K_M",
                                         "fx-smollm3-Q4_K_M", "fx-llama3-Q4_K_M"};

void add_models() {
    QTest::addColumn<QString>("model");
    for (const char* m : {"fx-gqa", "fx-mha-untied", "fx-gqa-Q8_0", "fx-gqa-Q4_1", "fx-gqa-Q4_K_M", "SmolLM2"})
        QTest::newRow(m) << m;
    for (const char* m : kArchFixtures) QTest::newRow(m) << m;
}

// Every hook of layers 0 and n_layer - 1, then final_norm and logits.
trace::CapturePolicy hooks_policy(int32_t n_layer) {
    trace::CapturePolicy p;
    p.mode = trace::CaptureMode::None;
    for (int32_t l : {0, n_layer - 1})
        for (int h = 0; h <= int(trace::Hook::ResidPost); ++h) p.hooks.push_back({trace::Hook(h), l});
    p.hooks.push_back({trace::Hook::FinalNorm, -1});
    p.hooks.push_back({trace::Hook::Logits, -1});
    return p;
}

// Each hook of g against c: masked scores (-inf) at the same places, and every other value
// within `rel` of the hook's largest magnitude on the CPU. Returns the worst relative difference.
double compare_hooks(const trace::StepCapture& c, const trace::StepCapture& g, double rel, const QString& what) {
    double worst = 0;
    if (g.hooks.size() != c.hooks.size()) {
        QTest::qFail(qPrintable(what + ": hook count differs"), __FILE__, __LINE__);
        return 1e9;
    }
    for (size_t i = 0; i < c.hooks.size(); ++i) {
        const trace::HookTensor& hc = c.hooks[i];
        const trace::HookTensor& hg = g.hooks[i];
        const QString name = what + " " + QString::fromStdString(trace::hook_name(hc.at));
        if (hg.at != hc.at || hg.shape != hc.shape || hg.data.size() != hc.data.size()) {
            QTest::qFail(qPrintable(name + ": shape differs"), __FILE__, __LINE__);
            return 1e9;
        }
        double scale = 0, d = 0;
        for (float v : hc.data)
            if (std::isfinite(v)) scale = std::max(scale, double(std::fabs(v)));
        for (size_t j = 0; j < hc.data.size(); ++j) {
            if (std::isinf(hc.data[j]) || std::isinf(hg.data[j])) {
                if (hc.data[j] != hg.data[j]) {
                    QTest::qFail(qPrintable(name + QString(": masked at %1 on one backend only").arg(j)), __FILE__, __LINE__);
                    return 1e9;
                }
                continue;
            }
            d = std::max(d, double(std::fabs(hg.data[j] - hc.data[j])));
        }
        const double r = scale > 0 ? d / scale : d;
        worst = std::max(worst, r);
        if (r > rel) {
            QTest::qFail(qPrintable(name + QString(": differs by %1 of its largest magnitude (> %2)").arg(r).arg(rel)),
                         __FILE__, __LINE__);
            return r;
        }
    }
    return worst;
}

}  // namespace

class TestCudaParity : public QObject {
    Q_OBJECT

private slots:
    // Runs everywhere: without a device the backend refuses with the reason.
    void no_device_is_a_clear_error() {
        const gpu::DeviceReport report = gpu::query_devices();
        if (!report.devices.empty()) QSKIP("a CUDA device exists here");
        const ReferenceRun ref = load_reference("fx-gqa");
        LMSCOPE_REQUIRE_FILE(ref.model_path, "the fixture model");
        auto m = engine::Model::load(ref.model_path);
        try {
            gpu::make_cuda_backend(m, {}, 0);
            QFAIL("the CUDA backend started without a device");
        } catch (const Error& e) {
            const QString what = e.what();
            QVERIFY2(what.startsWith("no CUDA device: "), qPrintable(what));
            QVERIFY2(what.size() > 16, qPrintable(what));
        }
    }

    void prefill_matches_cpu_data() { add_models(); }
    // Teacher-forced prefill with every attention plane: logits and attention vs the CPU.
    void prefill_matches_cpu() {
        QFETCH(QString, model);
        REQUIRE_CUDA_DEVICE();
        const Case c = load_case(model);
        LMSCOPE_REQUIRE_FILE(c.path, "the model");
        auto [m, cpu, gpu] = both_backends(c.path);
        const size_t V = size_t(m->spec().n_vocab());
        std::vector<float> lc(c.tokens.size() * V), lg(lc.size());
        trace::StepCapture cc, cg;
        cpu->forward({.tokens = c.tokens, .policy = full_policy(), .capture = &cc, .logits = lc, .all_logits = true});
        gpu->forward({.tokens = c.tokens, .policy = full_policy(), .capture = &cg, .logits = lg, .all_logits = true});
        const double rms = rms_over_std(lg, lc);
        const double kl = mean_kl_rows(lg, lc, V);
        const std::vector<float> ac = attention_cube(cc), ag = attention_cube(cg);
        const double da = max_abs_diff(ag, ac);
        const Bounds bound = bounds_for(model);
        qInfo("%s (%s): vs cpu rms/std %.3g, KL %.3g, max |d attention| %.3g (n = %zu)", qPrintable(model),
              gpu->name().c_str(), rms, kl, da, c.tokens.size());
        QCOMPARE(cg.planes.size(), cc.planes.size());
        QCOMPARE(ag.size(), ac.size());
        QVERIFY2(rms <= bound.rms, qPrintable(QString("rms/std %1 > %2").arg(rms).arg(bound.rms)));
        QVERIFY2(kl <= bound.kl, qPrintable(QString("KL %1 > %2").arg(kl).arg(bound.kl)));
        QVERIFY2(da <= bound.attn, qPrintable(QString("attention %1 > %2").arg(da).arg(bound.attn)));
        // and against the trusted reference run, where there is one
        const ReferenceRun ref = model == "SmolLM2" ? ReferenceRun{} : load_reference(model.toStdString());
        if (!ref.model_path.empty()) {
            const double rr = rms_over_std(lg, ref.logits);
            const double ra = max_abs_diff(ag, ref.attention);
            qInfo("%s: vs reference rms/std %.3g, max |d attention| %.3g", qPrintable(model), rr, ra);
            // llama.cpp multiplies quantized weights with 8-bit activations: its reference sits
            // up to rms/std 0.03 from exact arithmetic there (../shared/testdata/README.md)
            const double ref_rms = model.contains("-Q") ? 0.06 : bound.rms;
            QVERIFY2(rr <= ref_rms, qPrintable(QString("vs reference: rms/std %1 > %2").arg(rr).arg(ref_rms)));
            // the reference's own 8-bit activations put it up to 0.028 off on quantized weights
            QVERIFY2(ra <= std::max(bound.attn, 0.03), qPrintable(QString("vs reference: attention %1").arg(ra)));
        }
        // summaries of the same rows
        QCOMPARE(cg.summaries.size(), cc.summaries.size());
        double d_ent = 0, d_max = 0;
        for (size_t i = 0; i < cc.summaries.size(); ++i) {
            d_ent = std::max(d_ent, double(std::fabs(cg.summaries[i].entropy - cc.summaries[i].entropy)));
            d_max = std::max(d_max, double(std::fabs(cg.summaries[i].max_weight - cc.summaries[i].max_weight)));
        }
        qInfo("summaries: max |d entropy| %.3g, max |d max weight| %.3g", d_ent, d_max);
        QVERIFY2(d_ent <= 0.05, qPrintable(QString("entropy differs by %1").arg(d_ent)));
        QVERIFY2(d_max <= 0.01, qPrintable(QString("max weight differs by %1").arg(d_max)));
        QCOMPARE(cg.layer_ms.size(), size_t(m->spec().n_layer()));
        QCOMPARE(gpu->kv_tokens(), int32_t(c.tokens.size()));
    }

    void hooks_match_cpu_data() { add_models(); }
    // Every hook point of the first and last layer and the final ones, for a teacher-forced
    // prefill and for a decode step with a head switched off, against the CPU backend.
    void hooks_match_cpu() {
        QFETCH(QString, model);
        REQUIRE_CUDA_DEVICE();
        const Case c = load_case(model);
        LMSCOPE_REQUIRE_FILE(c.path, "the model");
        auto [m, cpu, gpu] = both_backends(c.path);
        const int32_t n_layer = m->spec().n_layer();
        const trace::CapturePolicy policy = hooks_policy(n_layer);
        // the CUDA backend rounds GEMM inputs to fp16; 8-bit activations move the CPU further
        const double rel = bounds_for(model).rms <= 0.01 ? 0.02 : 0.08;
        const size_t V = size_t(m->spec().n_vocab());
        const std::vector<int32_t> prompt(c.tokens.begin(), c.tokens.end() - 1);
        std::vector<float> lc(prompt.size() * V), lg(lc.size());
        trace::StepCapture cc, cg;
        cpu->forward({.tokens = prompt, .policy = policy, .capture = &cc, .logits = lc, .all_logits = true});
        gpu->forward({.tokens = prompt, .policy = policy, .capture = &cg, .logits = lg, .all_logits = true});
        const double prefill = compare_hooks(cc, cg, rel, model + " prefill");
        // decode one token with the last layer's head 1 switched off and layer 0's FFN skipped
        const std::vector<int32_t> one{c.tokens.back()};
        const LayerHead off{n_layer - 1, 1};
        const LayerSkip skip{0, Sublayer::Ffn};
        std::vector<float> dc(V), dg(V);
        cpu->forward({.tokens = one, .pos0 = int32_t(prompt.size()), .policy = policy, .capture = &cc, .logits = dc,
                      .ablate = std::span<const LayerHead>(&off, 1), .skip = std::span<const LayerSkip>(&skip, 1)});
        gpu->forward({.tokens = one, .pos0 = int32_t(prompt.size()), .policy = policy, .capture = &cg, .logits = dg,
                      .ablate = std::span<const LayerHead>(&off, 1), .skip = std::span<const LayerSkip>(&skip, 1)});
        const double decode = compare_hooks(cc, cg, rel, model + " decode, head off, FFN skipped");
        const trace::HookTensor* mlp_out = cg.hook({trace::Hook::MlpOut, 0});
        QVERIFY(mlp_out && std::all_of(mlp_out->data.begin(), mlp_out->data.end(), [](float v) { return v == 0.0f; }));
        const trace::HookTensor* z = cg.hook({trace::Hook::Z, n_layer - 1});
        QVERIFY(z);
        const int64_t hd = z->shape[2];
        QVERIFY(std::all_of(z->data.begin() + hd, z->data.begin() + 2 * hd, [](float v) { return v == 0.0f; }));
        qInfo("%s: hooks vs cpu, worst %.3g (prefill) and %.3g (decode, head %d:%d off, 0:ffn skipped) of the largest "
              "magnitude", qPrintable(model), prefill, decode, off.layer, off.head);
    }

    void variants_match_cpu_data() {
        QTest::addColumn<QString>("variant");
        QTest::addColumn<QString>("from");
        QTest::newRow("phi3 (fx-gqa's weights)") << "phi3" << "fx-gqa";
        QTest::newRow("gemma2 (fx-gemma3's)") << "gemma2" << "fx-gemma3";
    }
    // The recipes the testdata has no file of (fused matrices; soft-capped scores, every other
    // layer local): logits, attention and every hook of the first and last layer vs the CPU.
    void variants_match_cpu() {
        QFETCH(QString, variant);
        QFETCH(QString, from);
        REQUIRE_CUDA_DEVICE();
        const ReferenceRun ref = load_reference(from.toStdString());
        LMSCOPE_REQUIRE_FILE(ref.model_path, "the fixture model");
        auto base = engine::Model::load(ref.model_path);
        const int32_t n_layer = base->spec().n_layer();
        QTemporaryDir dir;
        const std::string path = dir.filePath(variant + ".gguf").toStdString();
        hostile::write_file(path, variant == "phi3" ? phi3_from_llama(base->file(), n_layer)
                                                    : gemma2_from_gemma3(base->file(), n_layer, 1.5f));
        auto [m, cpu, gpu] = both_backends(path);
        trace::CapturePolicy policy = hooks_policy(n_layer);
        policy.mode = trace::CaptureMode::Full;
        const size_t V = size_t(m->spec().n_vocab());
        std::vector<float> lc(ref.tokens.size() * V), lg(lc.size());
        trace::StepCapture cc, cg;
        cpu->forward({.tokens = ref.tokens, .policy = policy, .capture = &cc, .logits = lc, .all_logits = true});
        gpu->forward({.tokens = ref.tokens, .policy = policy, .capture = &cg, .logits = lg, .all_logits = true});
        const double rms = rms_over_std(lg, lc), da = max_abs_diff(attention_cube(cg), attention_cube(cc));
        const double worst = compare_hooks(cc, cg, 0.02, variant);
        qInfo("%s: vs cpu rms/std %.3g, max |d attention| %.3g, hooks worst %.3g", qPrintable(variant), rms, da, worst);
        QVERIFY2(rms <= 0.01, qPrintable(QString("rms/std %1").arg(rms)));
        QVERIFY2(da <= 0.01, qPrintable(QString("attention %1").arg(da)));
    }

    void weight_types_match_cpu_data() {
        QTest::addColumn<QString>("types");
        for (gguf::TensorType t : device_weight_types()) {
            const QString name = QString::fromStdString(std::string(gguf::type_name(t)));
            QTest::newRow(qPrintable(name)) << name;
        }
        // q, k and v of one type each (a fused matrix of three parts: Q4_K, F16, Q6_K), gate Q4_K
        // and up Q5_0, attn_output BF16, the rest Q5_K
        QTest::newRow("mixed") << "mixed";
    }
    // fx-gqa with its weight matrices re-encoded: a teacher-forced prefill (tiles decoded for
    // cuBLAS), the same tokens one decode step at a time and five at a time (the GEMV of one
    // and of several rows), each against the CPU.
    void weight_types_match_cpu() {
        QFETCH(QString, types);
        REQUIRE_CUDA_DEVICE();
        const ReferenceRun ref = load_reference("fx-gqa");
        LMSCOPE_REQUIRE_FILE(ref.model_path, "the fixture model");
        auto base = engine::Model::load(ref.model_path);
        using T = gguf::TensorType;
        const TypeOf type_of = [&](const std::string& name) {
            if (types != "mixed") return *gguf::type_from_name(types.toStdString());
            if (name.ends_with("attn_q.weight")) return T::Q4_K;
            if (name.ends_with("attn_k.weight")) return T::F16;  // cuBLAS on the part itself, mid-matrix
            if (name.ends_with("attn_v.weight")) return T::Q6_K;
            if (name.ends_with("attn_output.weight")) return T::BF16;
            if (name.ends_with("ffn_gate.weight")) return T::Q4_K;
            if (name.ends_with("ffn_up.weight")) return T::Q5_0;
            return T::Q5_K;
        };
        QTemporaryDir dir;
        const std::string path = dir.filePath(types + ".gguf").toStdString();
        hostile::write_file(path, retyped_model(base->file(), type_of, 7));
        std::shared_ptr<const engine::Model> m;
        try {
            m = engine::Model::load(path);
        } catch (const UnsupportedError& e) {
            QSKIP(qPrintable(QString("the CPU backend cannot run %1 yet: %2").arg(types, e.what())));
        }
        auto cpu = engine::make_cpu_backend(m, {});
        auto gpu = gpu::make_cuda_backend(m, {}, 0);
        const size_t V = size_t(m->spec().n_vocab());
        const bool floats = types == "F32" || types == "F16" || types == "BF16";
        const Bounds bound = floats ? kFloatBounds : kQuantizedBounds;
        std::vector<float> lc(ref.tokens.size() * V), lg(lc.size());
        trace::StepCapture cc, cg;
        cpu->forward({.tokens = ref.tokens, .policy = full_policy(), .capture = &cc, .logits = lc, .all_logits = true});
        gpu->forward({.tokens = ref.tokens, .policy = full_policy(), .capture = &cg, .logits = lg, .all_logits = true});
        const double rms = rms_over_std(lg, lc), kl = mean_kl_rows(lg, lc, V);
        const double da = max_abs_diff(attention_cube(cg), attention_cube(cc));
        const double drms = rms_over_std(logits_in_steps(*gpu::make_cuda_backend(m, {}, 0), ref.tokens, 1), lc);
        const double srms = rms_over_std(logits_in_steps(*gpu::make_cuda_backend(m, {}, 0), ref.tokens, 5), lc);
        qInfo("%s (%s): prefill vs cpu rms/std %.3g, KL %.3g, max |d attention| %.3g; decode rms/std %.3g, "
              "steps of 5 %.3g", qPrintable(types), gpu->name().c_str(), rms, kl, da, drms, srms);
        QVERIFY2(rms <= bound.rms, qPrintable(QString("prefill rms/std %1 > %2").arg(rms).arg(bound.rms)));
        QVERIFY2(kl <= bound.kl, qPrintable(QString("KL %1 > %2").arg(kl).arg(bound.kl)));
        QVERIFY2(da <= bound.attn, qPrintable(QString("attention %1 > %2").arg(da).arg(bound.attn)));
        QVERIFY2(drms <= bound.rms, qPrintable(QString("decode rms/std %1 > %2").arg(drms).arg(bound.rms)));
        QVERIFY2(srms <= bound.rms, qPrintable(QString("steps of 5: rms/std %1 > %2").arg(srms).arg(bound.rms)));
    }

    void decode_matches_cpu_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("kv");
        QTest::addColumn<double>("max_rms");
        // a quantized cache rounds K and V computed slightly differently on each side
        for (const char* m : {"fx-gqa", "fx-mha-untied", "fx-gqa-Q4_1", "SmolLM2", "fx-qwen3", "fx-gemma3",
                              "fx-smollm3", "fx-llama3"}) {
            const double base = bounds_for(m).rms;
            QTest::newRow(qPrintable(QString("%1 f16").arg(m))) << m << "f16" << base;
            QTest::newRow(qPrintable(QString("%1 q8_0").arg(m))) << m << "q8_0" << base + 0.005;
            QTest::newRow(qPrintable(QString("%1 q4_0").arg(m))) << m << "q4_0" << base + 0.03;
        }
    }
    // One token per step through the KV cache of each type, vs the CPU with the same type.
    void decode_matches_cpu() {
        QFETCH(QString, model);
        QFETCH(QString, kv);
        QFETCH(double, max_rms);
        REQUIRE_CUDA_DEVICE();
        const Case c = load_case(model);
        LMSCOPE_REQUIRE_FILE(c.path, "the model");
        auto m = engine::Model::load(c.path);
        engine::BackendOptions o;
        o.kv_type = *parse_kv_type(kv.toStdString());
        auto cpu = engine::make_cpu_backend(m, o);
        auto gpu = gpu::make_cuda_backend(m, o, 0);
        const std::vector<float> lc = run_logits(*cpu, c.tokens, true);
        const std::vector<float> lg = run_logits(*gpu, c.tokens, true);
        const double rms = rms_over_std(lg, lc);
        qInfo("%s kv %s: decode rms/std %.3g, KL %.3g", qPrintable(model), qPrintable(kv), rms,
              mean_kl_rows(lg, lc, size_t(m->spec().n_vocab())));
        QVERIFY2(rms <= max_rms, qPrintable(QString("rms/std %1 > %2").arg(rms).arg(max_rms)));
        // exact byte accounting, as the CPU's on the global layers (the device cache keeps every
        // position of a local layer, the CPU's ring only its window)
        const engine::KvStats sc = cpu->kv_stats(), sg = gpu->kv_stats();
        const model::ModelSpec& spec = m->spec();
        for (int32_t l = 0; l < spec.n_layer(); ++l)
            if (spec.layers[size_t(l)].window == 0) QCOMPARE(sg.layer_bytes[size_t(l)], sc.layer_bytes[size_t(l)]);
            else QCOMPARE(sg.layer_bytes[size_t(l)], sg.bytes_per_token / size_t(spec.n_layer()) * c.tokens.size());
        if (spec.kv_shape().n_local == 0) QCOMPARE(sg.total_bytes, sc.total_bytes);
        QCOMPARE(sg.n_tokens, int32_t(c.tokens.size()));
        // the cached path gives the prefill's logits
        const std::vector<float> pre = run_logits(*gpu, c.tokens, false);
        QVERIFY2(rms_over_std(lg, pre) <= max_rms, "decode and prefill disagree on the device");
    }

    // SmolLM2: the same 32 greedy tokens as the CPU.
    void greedy_tokens_match_cpu() {
        REQUIRE_CUDA_DEVICE();
        const Case c = load_case("SmolLM2");
        LMSCOPE_REQUIRE_FILE(c.path, "the sample model");
        auto [m, cpu, gpu] = both_backends(c.path);
        const std::vector<int32_t> tc = greedy(*cpu, c.tokens, 32), tg = greedy(*gpu, c.tokens, 32);
        QString a, b;
        for (size_t i = 0; i < tc.size(); ++i) {
            a += QString::number(tc[i]) + " ";
            b += QString::number(tg[i]) + " ";
        }
        qInfo("cpu:  %s\ncuda: %s", qPrintable(a), qPrintable(b));
        const auto diff = std::mismatch(tc.begin(), tc.end(), tg.begin());
        if (diff.first != tc.end()) {
            // say how close the CPU's own choice was at the first difference
            const size_t i = size_t(diff.first - tc.begin());
            std::vector<int32_t> seq = c.tokens;
            seq.insert(seq.end(), tc.begin(), tc.begin() + std::ptrdiff_t(i));
            std::vector<float> logits(size_t(m->spec().n_vocab()));
            cpu->forward({.tokens = seq, .logits = logits});
            const float margin = logits[size_t(tc[i])] - logits[size_t(tg[i])];
            QFAIL(qPrintable(QString("step %1: cpu chose %2, cuda %3; cpu logit margin %4")
                                 .arg(i).arg(tc[i]).arg(tg[i]).arg(margin)));
        }
    }

    void offload_matches_data() { add_models(); }
    // KV offload (window 4: most positions staged from host memory; prefill in segments of
    // 4 rows) gives the logits and attention of the all-on-device cache, and counts its traffic.
    void offload_matches() {
        QFETCH(QString, model);
        REQUIRE_CUDA_DEVICE();
        const Case c = load_case(model);
        LMSCOPE_REQUIRE_FILE(c.path, "the model");
        auto m = engine::Model::load(c.path);
        const size_t V = size_t(m->spec().n_vocab());
        gpu::CudaOptions off;
        off.offload_window = 4;
        auto all = gpu::make_cuda_backend(m, {}, gpu::CudaOptions{});
        auto part = gpu::make_cuda_backend(m, {}, off);
        // prefill of all but the last 3 tokens, then 3 decode steps, then a rewind by 2
        const size_t n0 = c.tokens.size() - 3;
        const std::vector<int32_t> prompt(c.tokens.begin(), c.tokens.begin() + std::ptrdiff_t(n0));
        std::vector<float> la(n0 * V), lp(n0 * V);
        trace::StepCapture ca, cp;
        all->forward({.tokens = prompt, .policy = full_policy(), .capture = &ca, .logits = la, .all_logits = true});
        part->forward({.tokens = prompt, .policy = full_policy(), .capture = &cp, .logits = lp, .all_logits = true});
        QVERIFY2(rms_over_std(lp, la) <= 5e-3, "offloaded prefill differs");  // GEMM shapes differ: fp16 rounding only
        QVERIFY2(max_abs_diff(attention_cube(cp), attention_cube(ca)) <= 5e-3, "offloaded attention differs");
        std::vector<float> da(V), dp(V);
        for (size_t t = n0; t < c.tokens.size(); ++t) {
            const std::vector<int32_t> one{c.tokens[t]};
            all->forward({.tokens = one, .pos0 = int32_t(t), .logits = da});
            part->forward({.tokens = one, .pos0 = int32_t(t), .logits = dp});
            QVERIFY2(rms_over_std(dp, da) <= 5e-3, qPrintable(QString("decode step %1 differs").arg(t)));
        }
        const gpu::KvOffloadStats s = part->offload_stats();
        const engine::KvShape shape{m->spec().n_layer(), m->spec().n_head_kv(), m->spec().head_dim(),
                                    KvType::F16};
        QCOMPARE(s.window, 4);
        QCOMPARE(s.device_tokens, 4);
        QCOMPARE(s.host_tokens, int32_t(c.tokens.size()) - 4);
        // last step: positions [0, n - 4) staged in, the new position written through
        QCOMPARE(s.step_to_device, uint64_t(shape.bytes(int64_t(c.tokens.size()) - 4)));
        QCOMPARE(s.step_to_host, uint64_t(shape.bytes(1)));
        QCOMPARE(all->offload_stats().total_to_device, uint64_t(0));
        // rewind below the window and branch: still the all-on-device result
        const size_t r = c.tokens.size() - 6;
        const std::vector<int32_t> branch{c.tokens[1], c.tokens[2]};
        all->forward({.tokens = branch, .pos0 = int32_t(r), .logits = da});
        part->forward({.tokens = branch, .pos0 = int32_t(r), .logits = dp});
        QVERIFY2(rms_over_std(dp, da) <= 5e-3, "branch after a rewind differs");
    }

    // Summary mode with one full pair and the logit lens: the same pair, the same lens tokens.
    void capture_policy_and_lens() {
        REQUIRE_CUDA_DEVICE();
        const ReferenceRun ref = load_reference("fx-gqa");
        LMSCOPE_REQUIRE_FILE(ref.model_path, "the fixture model and its reference");
        auto [m, cpu, gpu] = both_backends(ref.model_path);
        trace::CapturePolicy p;
        p.mode = trace::CaptureMode::Summary;
        p.full_pairs = {{1, 3}};
        p.logit_lens = true;
        p.lens_top_k = 3;
        std::vector<float> lc(size_t(m->spec().n_vocab())), lg(lc.size());
        trace::StepCapture cc, cg;
        const std::vector<int32_t> prompt(ref.tokens.begin(), ref.tokens.begin() + 12);
        cpu->forward({.tokens = prompt, .policy = p, .capture = &cc, .logits = lc});
        gpu->forward({.tokens = prompt, .policy = p, .capture = &cg, .logits = lg});
        QCOMPARE(cg.planes.size(), size_t(1));
        QCOMPARE(cg.planes[0].at, (LayerHead{1, 3}));
        QVERIFY(max_abs_diff(cg.planes[0].weights, cc.planes[0].weights) <= 0.01);
        QCOMPARE(cg.lens.size(), cc.lens.size());
        for (size_t i = 0; i < cc.lens.size(); i += 3) {  // each layer's top entry
            QVERIFY(std::fabs(cg.lens[i].prob - cc.lens[i].prob) <= 0.01f);
            if (cc.lens[i].prob - cc.lens[i + 1].prob > 0.02f)  // a clear winner must agree
                QCOMPARE(cg.lens[i].token, cc.lens[i].token);
        }
        // no capture at all: nothing copied, logits still right
        trace::CapturePolicy none;
        none.mode = trace::CaptureMode::None;
        gpu->forward({.tokens = prompt, .policy = none, .capture = &cg, .logits = lg});
        QVERIFY(cg.planes.empty());
        QVERIFY(cg.summaries.empty());
        QVERIFY(rms_over_std(lg, lc) <= 0.01);
    }

    // Bad requests are UsageErrors that leave the cache alone; a cancelled token stops the step.
    void bad_requests_and_cancel() {
        REQUIRE_CUDA_DEVICE();
        const ReferenceRun ref = load_reference("fx-gqa");
        LMSCOPE_REQUIRE_FILE(ref.model_path, "the fixture model and its reference");
        auto m = engine::Model::load(ref.model_path);
        auto b = gpu::make_cuda_backend(m, {}, 0);
        std::vector<float> logits(size_t(m->spec().n_vocab()));
        const std::vector<int32_t> ok{1, 2, 3}, bad{1, 5000};
        QVERIFY_THROWS_EXCEPTION(UsageError, b->forward({.tokens = bad, .logits = logits}));
        QVERIFY_THROWS_EXCEPTION(UsageError, b->forward({.tokens = ok, .pos0 = 1, .logits = logits}));
        std::vector<float> small(10);
        QVERIFY_THROWS_EXCEPTION(UsageError, b->forward({.tokens = ok, .logits = small}));
        QCOMPARE(b->kv_tokens(), 0);
        b->forward({.tokens = ok, .logits = logits});
        CancelToken cancel;
        cancel.cancel();
        const std::vector<int32_t> more{4, 5};
        QVERIFY_THROWS_EXCEPTION(CancelledError, b->forward({.tokens = more, .pos0 = 3, .logits = logits, .cancel = &cancel}));
        QCOMPARE(b->kv_tokens(), 3);
        QVERIFY_THROWS_EXCEPTION(UsageError, b->kv_truncate(4));
        QVERIFY_THROWS_EXCEPTION(UsageError, gpu::make_cuda_backend(m, {}, 99));
    }
};

QTEST_APPLESS_MAIN(TestCudaParity)
#include "test_cuda_parity.moc"
