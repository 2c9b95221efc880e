// The named hook points (trace/hooks.h) of the CPU backend: every hook of every layer equals
// an independent float64 forward pass (float64_forward.h) on the float fixtures; on every
// fixture the hooks agree with each other (pattern = softmax(scores), z = pattern . v,
// resid_mid = resid_pre + attn_out, resid_post = resid_mid + mlp_out, q_rot = RoPE(q)); a decode
// step's hooks are the prefill's last row; switching a head off equals zeroing its columns of
// Wo in the file, and skipping a sub-layer equals zeroing its output matrix (Wo or Wdown).
// gemma2 and phi3, which the testdata has no file of, are made from fixtures that it has
// (arch_variants.h) and held to the float64 pass too.
#include "arch_variants.h"
#include "engine_fixture.h"
#include "float64_forward.h"

#include "common/hostile_files.h"
#include "trace/hooks.h"
#include "util/error.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstring>

using namespace lmscope;
using namespace lmscope::testing;
using namespace lmscope::testing::hostile;
using trace::Hook;

namespace {

constexpr const char* kFloatFixtures[] = {"fx-gqa", "fx-mha-untied", "fx-qwen2", "fx-qwen3",
                                          "fx-gemma3", "fx-smollm3", "fx-llama3"};
constexpr const char* kQuantFixtures[] = {"fx-gqa-Q4_1", "fx-gqa-Q8_0", "fx-qwen3-Q4_K_M", "fx-gemma3-Q4_K_M",
                                          "fx-smollm3-Q4_K_M"};

double max_abs(std::span<const double> v) {
    double m = 0;
    for (double x : v)
        if (std::isfinite(x)) m = std::max(m, std::fabs(x));
    return m;
}

// max |a - b| over the finite entries of b, where a is also finite exactly there (masked
// scores are -inf in both); INFINITY when the masks differ.
double max_diff(std::span<const float> a, std::span<const double> b) {
    if (a.size() != b.size()) return INFINITY;
    double m = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        if (std::isfinite(b[i]) != std::isfinite(a[i])) return INFINITY;
        if (std::isfinite(b[i])) m = std::max(m, std::fabs(double(a[i]) - b[i]));
    }
    return m;
}

std::vector<double> widen(std::span<const float> v) { return {v.begin(), v.end()}; }

}  // namespace

class TestHooks : public QObject {
    Q_OBJECT

private slots:
    void names_and_shapes_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");  // empty: parses, and prints back as text
        QTest::newRow("q") << "blk.2.q" << "";
        QTest::newRow("resid_post") << "blk.0.resid_post" << "";
        QTest::newRow("logits") << "logits" << "";
        QTest::newRow("final_norm") << "final_norm" << "";
        QTest::newRow("layer out of range") << "blk.3.q" << "blk.3.q': layer 3 does not exist (0 .. 2)";
        QTest::newRow("unknown name") << "blk.0.query" << "'query' is not a layer hook";
        QTest::newRow("layer hook without layer") << "pattern" << "a layer hook needs its layer (blk.L.pattern)";
        QTest::newRow("no layer number") << "blk.x.q" << "expected blk.L.NAME with a layer number L";
        QTest::newRow("final hook with layer") << "blk.0.logits" << "'logits' is not a layer hook";
        QTest::newRow("sign") << "blk.+1.q" << "expected blk.L.NAME";
        QTest::newRow("empty") << "" << "not a hook name";
    }
    void names_and_shapes() {
        QFETCH(QString, text);
        QFETCH(QString, error);
        try {
            const trace::HookPoint p = trace::parse_hook_point(text.toStdString(), 3);
            QVERIFY2(error.isEmpty(), qPrintable("accepted: " + text));
            QCOMPARE(QString::fromStdString(trace::hook_name(p)), text);
        } catch (const UsageError& e) {
            QVERIFY2(!error.isEmpty(), e.what());
            QVERIFY2(QString(e.what()).contains(error), e.what());
        }
        const trace::HookDims d{256, 8, 2, 32, 512, 1024};
        QCOMPARE(trace::hook_shape(Hook::Q, d, 5, 9, 1), (std::vector<int64_t>{5, 8, 32}));
        QCOMPARE(trace::hook_shape(Hook::KRot, d, 5, 9, 1), (std::vector<int64_t>{5, 2, 32}));
        QCOMPARE(trace::hook_shape(Hook::Scores, d, 5, 9, 1), (std::vector<int64_t>{8, 5, 9}));
        QCOMPARE(trace::hook_shape(Hook::MlpAct, d, 5, 9, 1), (std::vector<int64_t>{5, 512}));
        QCOMPARE(trace::hook_shape(Hook::Logits, d, 5, 9, 1), (std::vector<int64_t>{1, 1024}));
        QCOMPARE(trace::parse_hook_list("blk.0.q,logits,blk.0.q", 3).size(), size_t(2));
    }

    void match_float64_data() {
        QTest::addColumn<QString>("model");
        for (const char* m : kFloatFixtures) QTest::newRow(m) << m;
    }
    // Every hook within 5e-3 of its largest magnitude of the float64 pass (64 tokens: longer
    // than gemma3's window of 16).
    void match_float64() {
        QFETCH(QString, model);
        const ReferenceRun ref = load_reference(model.toStdString());
        LMSCOPE_REQUIRE_FILE(ref.model_path, "the fixture model and its reference");
        auto m = engine::Model::load(ref.model_path);
        auto b = engine::make_cpu_backend(m, {});
        const Captured c = run_hooks(*b, ref.tokens, 0, every_hook(*b));
        const Float64Run exact = float64_forward(*m, ref.tokens);
        QCOMPARE(c.capture.hooks.size(), every_hook(*b).size());
        double worst = 0;
        QString worst_name;
        for (const trace::HookTensor& t : c.capture.hooks) {
            const std::vector<double>& e = exact.at(t.at.hook, t.at.layer);
            const double rel = max_diff(t.data, e) / std::max(max_abs(e), 1e-30);
            if (rel > worst) {
                worst = rel;
                worst_name = QString::fromStdString(trace::hook_name(t.at));
            }
            QVERIFY2(rel <= 5e-3, qPrintable(QString("%1: %2 of its largest magnitude off the float64 pass")
                                                 .arg(QString::fromStdString(trace::hook_name(t.at)))
                                                 .arg(rel)));
        }
        qInfo("%s: %zu hooks, worst %s at %.3g of its largest magnitude", qPrintable(model), c.capture.hooks.size(),
              qPrintable(worst_name), worst);
        // the logits hook is the step's logits
        QCOMPARE(hook(c, Hook::Logits, -1).data, c.logits);
    }

    void variants_match_float64_data() {
        QTest::addColumn<QString>("variant");
        QTest::addColumn<QString>("from");
        QTest::newRow("phi3 (fx-gqa's weights)") << "phi3" << "fx-gqa";
        QTest::newRow("phi3 (fx-llama3's: rope_freqs)") << "phi3" << "fx-llama3";
        QTest::newRow("gemma2 (fx-gemma3's)") << "gemma2" << "fx-gemma3";
    }
    // gemma2 and phi3 made from a fixture: every hook within 5e-3 of its largest magnitude of
    // the float64 pass; gemma2's local layers are every other one on the global RoPE base, and
    // its soft-capping changes the logits (the cap is small enough to bite on random weights).
    void variants_match_float64() {
        QFETCH(QString, variant);
        QFETCH(QString, from);
        const ReferenceRun ref = load_reference(from.toStdString());
        LMSCOPE_REQUIRE_FILE(ref.model_path, "the fixture model and its reference");
        auto base = engine::Model::load(ref.model_path);
        const int32_t n_layer = base->spec().n_layer();
        QTemporaryDir dir;
        auto write_variant = [&](float cap) {
            const std::string path = dir.filePath(variant + QString::number(cap) + ".gguf").toStdString();
            write_file(path, variant == "phi3" ? phi3_from_llama(base->file(), n_layer)
                                               : gemma2_from_gemma3(base->file(), n_layer, cap));
            return engine::Model::load(path);
        };
        auto m = write_variant(1.5f);
        const model::ModelSpec& s = m->spec();
        QCOMPARE(QString::fromStdString(s.hp.architecture), variant);
        if (variant == "gemma2") {
            QCOMPARE(s.attn_softcap, 1.5f);
            QCOMPARE(s.rope_inv_freq.size(), size_t(1));
            for (int32_t l = 0; l < n_layer; ++l) QCOMPARE(s.layers[size_t(l)].window > 0, l % 2 == 0);
        } else {
            QVERIFY(s.arch.fused_qkv && s.arch.fused_gate_up && s.neox());
        }
        auto b = engine::make_cpu_backend(m, {});
        const Captured c = run_hooks(*b, ref.tokens, 0, every_hook(*b));
        const Float64Run exact = float64_forward(*m, ref.tokens);
        double worst = 0;
        for (const trace::HookTensor& t : c.capture.hooks) {
            const std::vector<double>& e = exact.at(t.at.hook, t.at.layer);
            const double rel = max_diff(t.data, e) / std::max(max_abs(e), 1e-30);
            worst = std::max(worst, rel);
            QVERIFY2(rel <= 5e-3, qPrintable(QString("%1 %2: %3 of its largest magnitude off the float64 pass")
                                                 .arg(variant, QString::fromStdString(trace::hook_name(t.at)))
                                                 .arg(rel)));
        }
        qInfo("%s from %s: %zu hooks, worst at %.3g of its largest magnitude", qPrintable(variant), qPrintable(from),
              c.capture.hooks.size(), worst);
        if (variant == "gemma2") {
            auto uncapped = engine::make_cpu_backend(write_variant(0.0f), {});
            const double moved = rms_over_std(run_hooks(*uncapped, ref.tokens, 0, every_hook(*uncapped)).logits, c.logits);
            qInfo("gemma2: the soft-cap moves the logits by rms/std %.3g", moved);
            QVERIFY2(moved > 1e-3, "the attention soft-cap changed nothing: the test could not fail");
        }
    }

    void agree_with_each_other_data() {
        QTest::addColumn<QString>("model");
        for (const char* m : kFloatFixtures) QTest::newRow(m) << m;
        for (const char* m : kQuantFixtures) QTest::newRow(m) << m;
    }
    // The relations between the hooks, on every fixture (quantized ones included).
    void agree_with_each_other() {
        QFETCH(QString, model);
        const ReferenceRun ref = load_reference(model.toStdString());
        LMSCOPE_REQUIRE_FILE(ref.model_path, "the fixture model and its reference");
        auto m = engine::Model::load(ref.model_path);
        const model::ModelSpec& s = m->spec();
        auto b = engine::make_cpu_backend(m, {});
        const std::vector<int32_t> tokens(ref.tokens.begin(), ref.tokens.begin() + 40);
        const Captured c = run_hooks(*b, tokens, 0, every_hook(*b));
        const size_t n = tokens.size(), H = size_t(s.n_head()), KV = size_t(s.n_head_kv());
        const size_t HD = size_t(s.head_dim()), NR = size_t(s.n_rot());
        const gguf::TensorInfo* rf = m->file().find_tensor("rope_freqs.weight");  // Llama 3.x divisors
        const std::vector<float> factors = rf ? gguf::dequantize(*rf) : std::vector<float>{};
        auto rel_ok = [](std::span<const float> got, const std::vector<double>& want, double tol) {
            return max_diff(got, want) <= tol * std::max(max_abs(want), 1e-30);
        };
        for (int32_t l = 0; l < s.n_layer(); ++l) {
            const QString at = QString("%1 layer %2").arg(model).arg(l);
            // resid_mid = resid_pre + attn_out; resid_post = resid_mid + mlp_out
            std::vector<double> mid = widen(hook(c, Hook::ResidPre, l).data), post = widen(hook(c, Hook::ResidMid, l).data);
            for (size_t i = 0; i < mid.size(); ++i) mid[i] += hook(c, Hook::AttnOut, l).data[i];
            for (size_t i = 0; i < post.size(); ++i) post[i] += hook(c, Hook::MlpOut, l).data[i];
            QVERIFY2(rel_ok(hook(c, Hook::ResidMid, l).data, mid, 1e-6), qPrintable(at + ": resid_mid"));
            QVERIFY2(rel_ok(hook(c, Hook::ResidPost, l).data, post, 1e-6), qPrintable(at + ": resid_post"));
            // pattern = softmax(scores) per row
            const std::vector<float>& sc = hook(c, Hook::Scores, l).data;
            std::vector<double> soft(sc.size(), 0.0);
            for (size_t r = 0; r < H * n; ++r) {
                double mx = -INFINITY, sum = 0;
                for (size_t j = 0; j < n; ++j) mx = std::max(mx, double(sc[r * n + j]));
                for (size_t j = 0; j < n; ++j) sum += std::isfinite(sc[r * n + j]) ? std::exp(double(sc[r * n + j]) - mx) : 0.0;
                for (size_t j = 0; j < n; ++j)
                    soft[r * n + j] = std::isfinite(sc[r * n + j]) ? std::exp(double(sc[r * n + j]) - mx) / sum : 0.0;
            }
            QVERIFY2(rel_ok(hook(c, Hook::Pattern, l).data, soft, 1e-5), qPrintable(at + ": pattern"));
            // z = pattern . v, query head h reading kv head h / (H / KV)
            const std::vector<float>& pat = hook(c, Hook::Pattern, l).data;
            const std::vector<float>& v = hook(c, Hook::V, l).data;
            std::vector<double> z(n * H * HD, 0.0);
            for (size_t h = 0; h < H; ++h)
                for (size_t i = 0; i < n; ++i)
                    for (size_t j = 0; j < n; ++j)
                        for (size_t d = 0; d < HD; ++d)
                            z[(i * H + h) * HD + d] += double(pat[(h * n + i) * n + j]) * v[(j * KV + h / (H / KV)) * HD + d];
            QVERIFY2(rel_ok(hook(c, Hook::Z, l).data, z, 2e-3), qPrintable(at + ": z"));  // an f16 cache holds v
            // q_rot = RoPE(q) with the layer's base, or q itself on NoPE layers
            const model::LayerPlan& plan = s.layers[size_t(l)];
            const std::vector<float>& q = hook(c, Hook::Q, l).data;
            std::vector<double> rot = widen(q);
            if (plan.rope) {
                const double base = plan.rope_table == 1 ? s.hp.rope_freq_base_swa.value_or(1e4) : s.hp.rope_freq_base;
                for (size_t t = 0; t < n; ++t)
                    for (size_t h = 0; h < H; ++h)
                        for (size_t i = 0; i < NR / 2; ++i) {
                            double* vv = &rot[(t * H + h) * HD];
                            const double divisor = factors.empty() ? 1.0 : double(factors[i]);
                            const double ang = double(t) * std::pow(base, -2.0 * double(i) / double(NR)) / divisor;
                            const size_t a = s.neox() ? i : 2 * i, bb = s.neox() ? i + NR / 2 : 2 * i + 1;
                            const double x0 = vv[a], x1 = vv[bb];
                            vv[a] = x0 * std::cos(ang) - x1 * std::sin(ang);
                            vv[bb] = x0 * std::sin(ang) + x1 * std::cos(ang);
                        }
            }
            QVERIFY2(rel_ok(hook(c, Hook::QRot, l).data, rot, 1e-4), qPrintable(at + ": q_rot"));
        }
    }

    // A decode step's hooks are the rows of the prefill at its position.
    void decode_step_is_the_prefill_row() {
        const ReferenceRun ref = load_reference("fx-gemma3");
        LMSCOPE_REQUIRE_FILE(ref.model_path, "the fixture model and its reference");
        auto m = engine::Model::load(ref.model_path);
        auto b = engine::make_cpu_backend(m, {});
        const size_t n = 30;
        const std::vector<int32_t> tokens(ref.tokens.begin(), ref.tokens.begin() + std::ptrdiff_t(n));
        const Captured all = run_hooks(*b, tokens, 0, every_hook(*b));
        (void)run_hooks(*b, std::span(tokens).first(n - 1), 0, every_hook(*b));
        const Captured one = run_hooks(*b, std::span(tokens).subspan(n - 1), int32_t(n - 1), every_hook(*b));
        for (const trace::HookTensor& t : one.capture.hooks) {
            const trace::HookTensor& full = hook(all, t.at.hook, t.at.layer);
            const size_t count = t.data.size();
            // per-row hooks: the last row; scores and pattern: row n-1 of every head
            std::vector<double> want;
            if (t.at.hook == Hook::Scores || t.at.hook == Hook::Pattern) {
                for (int64_t h = 0; h < t.shape[0]; ++h)
                    for (size_t j = 0; j < n; ++j) want.push_back(full.data[(size_t(h) * n + (n - 1)) * n + j]);
            } else {
                want.assign(full.data.end() - std::ptrdiff_t(count), full.data.end());
            }
            const double d = max_diff(t.data, want);
            QVERIFY2(d <= 1e-3 * std::max(max_abs(want), 1e-30),
                     qPrintable(QString("%1: decode differs by %2").arg(QString::fromStdString(trace::hook_name(t.at))).arg(d)));
        }
    }

    void ablation_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("layer");
        QTest::addColumn<int>("head");
        QTest::newRow("fx-gqa 1:2") << "fx-gqa" << 1 << 2;
        QTest::newRow("fx-gemma3 2:3 (post-norm)") << "fx-gemma3" << 2 << 3;
        QTest::newRow("fx-qwen3 0:5") << "fx-qwen3" << 0 << 5;
    }
    // Head (l, h) switched off gives the logits of the model whose Wo columns for that head
    // are zero, and its z is zero; the other heads' z in that layer are unchanged.
    void ablation() {
        QFETCH(QString, model);
        QFETCH(int, layer);
        QFETCH(int, head);
        const ReferenceRun ref = load_reference(model.toStdString());
        LMSCOPE_REQUIRE_FILE(ref.model_path, "the fixture model and its reference");
        auto m = engine::Model::load(ref.model_path);
        const model::ModelSpec& s = m->spec();
        const std::vector<int32_t> tokens(ref.tokens.begin(), ref.tokens.begin() + 24);

        // the same model with columns [head * hd, (head + 1) * hd) of blk.L.attn_output zeroed
        const std::string wo = "blk." + std::to_string(layer) + ".attn_output.weight";
        const gguf::TensorInfo* t = m->file().find_tensor(wo);
        QCOMPARE(t->type, gguf::TensorType::F32);
        std::vector<float> w = gguf::dequantize(*t);  // [n_embd rows][n_head * hd]
        const size_t cols = size_t(t->ne[0]), hd = size_t(s.head_dim());
        for (size_t r = 0; r < size_t(t->ne[1]); ++r)
            std::fill_n(w.begin() + std::ptrdiff_t(r * cols + size_t(head) * hd), hd, 0.0f);
        Bytes data(w.size() * sizeof(float));
        std::memcpy(data.data(), w.data(), data.size());
        QTemporaryDir dir;
        const std::string zeroed = dir.filePath("zeroed.gguf").toStdString();
        write_file(zeroed, GgufEdit(m->file()).fill_tensor(wo, data).bytes());

        auto b = engine::make_cpu_backend(m, {});
        const LayerHead off[] = {{layer, head}};
        const Captured ablated = run_hooks(*b, tokens, 0, every_hook(*b), off);
        const Captured plain = run_hooks(*b, tokens, 0, every_hook(*b));
        auto bz = engine::make_cpu_backend(engine::Model::load(zeroed), {});
        const Captured edited = run_hooks(*bz, tokens, 0, every_hook(*bz));
        const double rms = rms_over_std(ablated.logits, edited.logits);
        const double moved = rms_over_std(plain.logits, edited.logits);
        qInfo("%s head %d:%d off: rms/std vs zeroed Wo %.3g (the unablated model: %.3g)", qPrintable(model), layer, head,
              rms, moved);
        QVERIFY2(rms <= 1e-5, qPrintable(QString("rms/std %1").arg(rms)));
        QVERIFY2(moved > 1e-4, "switching the head off changed nothing: the test could not fail");
        const std::vector<float>& z = hook(ablated, Hook::Z, layer).data;
        const std::vector<float>& z0 = hook(plain, Hook::Z, layer).data;
        const size_t H = size_t(s.n_head());
        for (size_t r = 0; r < tokens.size(); ++r)
            for (size_t h = 0; h < H; ++h)
                for (size_t d = 0; d < hd; ++d) {
                    const size_t i = (r * H + h) * hd + d;
                    QCOMPARE(z[i], int(h) == head ? 0.0f : z0[i]);
                }
    }

    void skip_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("layer");
        QTest::addColumn<QString>("part");
        QTest::newRow("fx-gqa 1:attn") << "fx-gqa" << 1 << "attn";
        QTest::newRow("fx-gqa 0:ffn") << "fx-gqa" << 0 << "ffn";
        QTest::newRow("fx-gemma3 2:ffn (post-norm)") << "fx-gemma3" << 2 << "ffn";
        QTest::newRow("fx-gemma3 1:attn (post-norm, window)") << "fx-gemma3" << 1 << "attn";
        QTest::newRow("fx-qwen3 0:attn") << "fx-qwen3" << 0 << "attn";
    }
    // Skipping layer L's attention (or FFN) gives the logits of the model whose Wo (or Wdown) of
    // that layer is zero; attn_out (mlp_out) shows zeros and resid_mid = resid_pre (resid_post =
    // resid_mid) exactly.
    void skip() {
        QFETCH(QString, model);
        QFETCH(int, layer);
        QFETCH(QString, part);
        const ReferenceRun ref = load_reference(model.toStdString());
        LMSCOPE_REQUIRE_FILE(ref.model_path, "the fixture model and its reference");
        auto m = engine::Model::load(ref.model_path);
        const std::vector<int32_t> tokens(ref.tokens.begin(), ref.tokens.begin() + 24);
        const bool attn = part == "attn";
        const std::string name = "blk." + std::to_string(layer) + (attn ? ".attn_output.weight" : ".ffn_down.weight");
        const gguf::TensorInfo* t = m->file().find_tensor(name);
        QCOMPARE(t->type, gguf::TensorType::F32);
        QTemporaryDir dir;
        const std::string zeroed = dir.filePath("zeroed.gguf").toStdString();
        write_file(zeroed, GgufEdit(m->file()).fill_tensor(name, Bytes(gguf::dequantize(*t).size() * sizeof(float), 0)).bytes());

        auto b = engine::make_cpu_backend(m, {});
        const LayerSkip skip[] = {{layer, attn ? Sublayer::Attn : Sublayer::Ffn}};
        const Captured skipped = run_hooks(*b, tokens, 0, every_hook(*b), {}, skip);
        const Captured plain = run_hooks(*b, tokens, 0, every_hook(*b));
        auto bz = engine::make_cpu_backend(engine::Model::load(zeroed), {});
        const Captured edited = run_hooks(*bz, tokens, 0, every_hook(*bz));
        const double rms = rms_over_std(skipped.logits, edited.logits);
        const double moved = rms_over_std(plain.logits, edited.logits);
        qInfo("%s %d:%s skipped: rms/std vs zeroed %s %.3g (the full model: %.3g)", qPrintable(model), layer,
              qPrintable(part), name.c_str(), rms, moved);
        QVERIFY2(rms <= 1e-5, qPrintable(QString("rms/std %1").arg(rms)));
        QVERIFY2(moved > 1e-4, "skipping the sub-layer changed nothing: the test could not fail");
        const std::vector<float>& out = hook(skipped, attn ? Hook::AttnOut : Hook::MlpOut, layer).data;
        QVERIFY(std::all_of(out.begin(), out.end(), [](float v) { return v == 0.0f; }));
        QVERIFY(hook(skipped, attn ? Hook::ResidMid : Hook::ResidPost, layer).data ==
                hook(skipped, attn ? Hook::ResidPre : Hook::ResidMid, layer).data);
    }

    void bad_requests_data() {
        QTest::addColumn<int>("layer");
        QTest::addColumn<int>("head");
        QTest::addColumn<QString>("error");
        QTest::newRow("layer") << 3 << 0 << "forward: switching off heads: head 3:0 does not exist (layers 0 .. 2, heads 0 .. 7)";
        QTest::newRow("head") << 0 << 8 << "head 0:8 does not exist";
        QTest::newRow("negative") << -1 << 0 << "head -1:0 does not exist";
    }
    void bad_requests() {
        QFETCH(int, layer);
        QFETCH(int, head);
        QFETCH(QString, error);
        const ReferenceRun ref = load_reference("fx-gqa");
        LMSCOPE_REQUIRE_FILE(ref.model_path, "the fixture model");
        auto m = engine::Model::load(ref.model_path);
        auto b = engine::make_cpu_backend(m, {});
        std::vector<float> logits(size_t(m->spec().n_vocab()));
        const LayerHead off[] = {{layer, head}};
        try {
            b->forward({.tokens = std::span(ref.tokens).first(3), .logits = logits, .ablate = off});
            QFAIL("a head that does not exist was switched off");
        } catch (const UsageError& e) {
            QVERIFY2(QString(e.what()).contains(error), e.what());
        }
        QCOMPARE(b->kv_tokens(), 0);
    }
};

QTEST_APPLESS_MAIN(TestHooks)
#include "test_hooks.moc"
