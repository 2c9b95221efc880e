// The layer probe (engine/layer_probe.h) and the arithmetic drawn from it (layer_anatomy.h), on
// the fixtures of every architecture: the probe's rows equal the backend's own hooks of one
// teacher-forced forward, also when it grows step by step, switches layers or runs positions
// with different heads switched off; the score stages compose into the engine's scores and
// pattern (gemma3's window and the future masked); the mix adds up to z and the heads' shares to
// attn_out; the RoPE rotation is the engine's and its score depends only on the offset (flat
// within 1e-4), also on a NoPE layer; the FFN and stream figures are the hooks' norms.
#include "engine_fixture.h"

#include "engine/layer_anatomy.h"
#include "engine/layer_probe.h"
#include "trace/hooks.h"
#include "util/error.h"

#include <QtTest>

#include <cmath>

using namespace lmscope;
using namespace lmscope::testing;
using trace::Hook;

namespace {

struct HookRun {
    trace::StepCapture capture;
    const std::vector<float>& at(Hook h, int32_t layer) const {
        const trace::HookTensor* t = capture.hook({h, layer});
        if (!t) throw Error("hook " + trace::hook_name({h, layer}) + " was not captured");
        return t->data;
    }
};

// One forward of tokens[pos0..) on a fresh cache filled with tokens[0..pos0) first, capturing
// every layer hook of `layer` (and resid_pre / attn_out / mlp_out of every layer).
HookRun forward_hooks(const std::shared_ptr<const engine::Model>& m, std::span<const int32_t> tokens, int32_t layer,
                      std::span<const LayerHead> ablate = {}) {
    auto b = engine::make_cpu_backend(m, {});
    HookRun r;
    trace::CapturePolicy p;
    p.mode = trace::CaptureMode::None;
    for (int i = 0; i < trace::kHookCount; ++i)
        if (trace::is_layer_hook(Hook(i))) p.hooks.push_back({Hook(i), layer});
    for (int32_t l = 0; l < m->spec().n_layer(); ++l)
        if (l != layer)
            for (Hook h : {Hook::ResidPre, Hook::AttnOut, Hook::MlpOut}) p.hooks.push_back({h, l});
    std::vector<float> logits(size_t(m->spec().n_vocab()));
    b->forward({.tokens = tokens, .policy = p, .capture = &r.capture, .logits = logits, .ablate = ablate});
    return r;
}

// max |a - b| / max |b|
double rel_diff(std::span<const float> a, std::span<const float> b) {
    if (a.size() != b.size()) return INFINITY;
    double d = 0, top = 1e-30;
    for (size_t i = 0; i < a.size(); ++i) {
        d = std::max(d, std::fabs(double(a[i]) - double(b[i])));
        top = std::max(top, std::fabs(double(b[i])));
    }
    return d / top;
}

constexpr const char* kFixtures[] = {"fx-gqa", "fx-qwen3", "fx-gemma3", "fx-smollm3", "fx-llama3", "fx-qwen3-Q4_K_M"};

struct Loaded {
    std::string path;  // empty: the test data is absent
    std::shared_ptr<const engine::Model> model;
    std::vector<int32_t> tokens;
};

Loaded load(const QString& name) {
    const ReferenceRun ref = load_reference(name.toStdString());
    if (ref.model_path.empty()) return {};
    return {ref.model_path, engine::Model::load(ref.model_path), ref.tokens};
}

}  // namespace

class TestLayerProbe : public QObject {
    Q_OBJECT

private slots:
    void rows_equal_hooks_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("layer");
        for (const char* m : kFixtures) {
            QTest::newRow(qPrintable(QString("%1 layer 0").arg(m))) << m << 0;
            QTest::newRow(qPrintable(QString("%1 layer 1").arg(m))) << m << 1;
        }
    }
    // Grown in three requests (a prefill of 20, one decode, the rest), the rows equal one
    // forward of the whole sequence.
    void rows_equal_hooks() {
        QFETCH(QString, model);
        QFETCH(int, layer);
        const Loaded f = load(model);
        LMSCOPE_REQUIRE_FILE(f.path, "the fixture model and its reference");
        auto backend = engine::make_cpu_backend(f.model, {});
        engine::LayerProbe probe(*backend);
        const std::span<const int32_t> all(f.tokens);
        probe.run(all.first(20), {}, layer);
        probe.run(all.first(21), {}, layer);
        const engine::LayerRows& rows = probe.run(all, {}, layer);
        QCOMPARE(rows.n, int32_t(f.tokens.size()));
        const HookRun ref = forward_hooks(f.model, all, layer);
        const std::pair<Hook, const std::vector<float>*> pairs[] = {
            {Hook::ResidPre, &rows.resid_pre}, {Hook::AttnIn, &rows.attn_in},   {Hook::Q, &rows.q},
            {Hook::QRot, &rows.q_rot},         {Hook::Z, &rows.z},              {Hook::K, &rows.k},
            {Hook::KRot, &rows.k_rot},         {Hook::V, &rows.v},              {Hook::AttnOut, &rows.attn_out},
            {Hook::ResidMid, &rows.resid_mid}, {Hook::MlpIn, &rows.mlp_in},     {Hook::MlpAct, &rows.mlp_act},
            {Hook::MlpOut, &rows.mlp_out},     {Hook::ResidPost, &rows.resid_post}};
        for (const auto& [h, buf] : pairs) {
            const double d = rel_diff(*buf, ref.at(h, layer));
            // rows fed in a later request read the earlier positions' K/V back from the F16
            // cache, the rows of one forward read them as computed
            QVERIFY2(d < 1e-3, qPrintable(QString("%1: %2").arg(QString::fromStdString(trace::hook_name({h, layer}))).arg(d)));
        }
        // the stream norms at the last position
        const int32_t L = f.model->spec().n_layer(), E = f.model->spec().n_embd(), last = rows.n - 1;
        const engine::StreamNorms s = engine::stream_norms(*f.model, rows, last);
        for (int32_t l = 0; l < L; ++l) {
            const double pre = engine::l2_norm(engine::LayerRows::row(ref.at(Hook::ResidPre, l), last, E));
            const double mlp = engine::l2_norm(engine::LayerRows::row(ref.at(Hook::MlpOut, l), last, E));
            QVERIFY2(std::fabs(s.resid_pre[size_t(l)] - pre) <= 1e-3 * pre, qPrintable(QString::number(l)));
            QVERIFY2(std::fabs(s.mlp_out[size_t(l)] - mlp) <= 1e-3 * mlp + 1e-6, qPrintable(QString::number(l)));
        }
    }

    // Positions of steps that ran with other heads switched off are computed with those heads
    // off; a request with other sets recomputes from the first position that differs.
    void ablation_by_position() {
        const Loaded f = load("fx-qwen3");
        LMSCOPE_REQUIRE_FILE(f.path, "fx-qwen3");
        const int32_t n = int32_t(f.tokens.size()), split = 30;
        const std::vector<LayerHead> off{{0, 1}, {1, 0}};
        std::vector<std::vector<LayerHead>> sets(static_cast<size_t>(n));
        for (int32_t p = split; p < n; ++p) sets[size_t(p)] = off;
        auto backend = engine::make_cpu_backend(f.model, {});
        engine::LayerProbe probe(*backend);
        probe.run(f.tokens, {}, 1);  // first without: the second request must redo from `split`
        const engine::LayerRows& rows = probe.run(f.tokens, sets, 1);
        // reference: two forwards on one cache
        auto b = engine::make_cpu_backend(f.model, {});
        trace::CapturePolicy p;
        p.mode = trace::CaptureMode::None;
        p.hooks = {{Hook::Z, 1}, {Hook::ResidPost, 1}};
        std::vector<float> logits(size_t(f.model->spec().n_vocab()));
        trace::StepCapture first, second;
        const std::span<const int32_t> all(f.tokens);
        b->forward({.tokens = all.first(split), .policy = p, .capture = &first, .logits = logits});
        b->forward({.tokens = all.subspan(split), .pos0 = split, .policy = p, .capture = &second, .logits = logits,
                    .ablate = off});
        std::vector<float> z = first.hook({Hook::Z, 1})->data, post = first.hook({Hook::ResidPost, 1})->data;
        z.insert(z.end(), second.hook({Hook::Z, 1})->data.begin(), second.hook({Hook::Z, 1})->data.end());
        post.insert(post.end(), second.hook({Hook::ResidPost, 1})->data.begin(), second.hook({Hook::ResidPost, 1})->data.end());
        // the probe fed positions 0..split in one pass with the rest, the reference in its own:
        // on AVX2 (no AVX-512) the attention's prefill tiles round those rows differently, by
        // about 5e-5 (a head left on or off would move z by its whole size)
        QVERIFY2(rel_diff(rows.z, z) < 2e-4, qPrintable(QString::number(rel_diff(rows.z, z))));
        QVERIFY2(rel_diff(rows.resid_post, post) < 2e-4, qPrintable(QString::number(rel_diff(rows.resid_post, post))));
        // head 1:0 is off after the split: its z is zero there, not before
        const int32_t hd = f.model->spec().head_dim();
        const int32_t H = f.model->spec().n_head();
        QCOMPARE(engine::l2_norm(std::span(rows.z).subspan(size_t(split * H) * size_t(hd), size_t(hd))), 0.0);
        QVERIFY(engine::l2_norm(std::span(rows.z).subspan(size_t((split - 1) * H) * size_t(hd), size_t(hd))) > 0.0);
    }

    void score_stages_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("layer");
        QTest::addColumn<int>("query");
        for (const char* m : kFixtures) QTest::newRow(m) << m << 1 << 40;
        QTest::newRow("gemma3 local layer, window 16") << "fx-gemma3" << 0 << 50;
        QTest::newRow("first position") << "fx-gqa" << 0 << 0;
    }
    // dot x scale = the engine's scores (with -inf exactly where it masks), softmax = its
    // pattern (within the rounding of k in the engine's F16 cache); the reasons: the future after the query, the window's edge before it.
    void score_stages() {
        QFETCH(QString, model);
        QFETCH(int, layer);
        QFETCH(int, query);
        const Loaded f = load(model);
        LMSCOPE_REQUIRE_FILE(f.path, "the fixture model");
        auto backend = engine::make_cpu_backend(f.model, {});
        engine::LayerProbe probe(*backend);
        const engine::LayerRows& rows = probe.run(f.tokens, {}, layer);
        const HookRun ref = forward_hooks(f.model, f.tokens, layer);
        const std::vector<float>& scores = ref.at(Hook::Scores, layer);    // [n_head][n][n]
        const std::vector<float>& pattern = ref.at(Hook::Pattern, layer);  // [n_head][n][n]
        const int32_t n = rows.n, window = f.model->spec().layers[size_t(layer)].window;
        for (int32_t h = 0; h < rows.dims.n_head; ++h) {
            const engine::ScoreStages st = engine::score_stages(*f.model, rows, query, h);
            QCOMPARE(int32_t(st.weights.size()), n);
            const size_t base = (size_t(h) * size_t(n) + size_t(query)) * size_t(n);
            double top = 0, sum = 0;
            for (int32_t j = 0; j < n; ++j) top = std::max(top, std::fabs(st.scaled[size_t(j)]));
            for (int32_t j = 0; j < n; ++j) {
                const float s = scores[base + size_t(j)];
                const auto why = st.hidden[size_t(j)];
                QCOMPARE(why == engine::KeyHidden::No, std::isfinite(s));
                QCOMPARE(why == engine::KeyHidden::Future, j > query);
                QCOMPARE(why == engine::KeyHidden::OutsideWindow, window > 0 && j <= query && query - j >= window);
                QCOMPARE(std::isinf(st.masked[size_t(j)]), !std::isfinite(s));
                if (std::isfinite(s)) QVERIFY2(std::fabs(st.masked[size_t(j)] - s) <= 2e-3 * std::max(1.0, top), qPrintable(QString("h%1 key %2").arg(h).arg(j)));
                QVERIFY(std::fabs(st.scaled[size_t(j)] - st.dot[size_t(j)] * st.scale) <= 1e-12 * std::max(1.0, top));
                QVERIFY2(std::fabs(st.weights[size_t(j)] - pattern[base + size_t(j)]) <= 2e-3, qPrintable(QString("h%1 key %2").arg(h).arg(j)));
                if (why != engine::KeyHidden::No) QCOMPARE(st.weights[size_t(j)], 0.0);
                sum += st.weights[size_t(j)];
            }
            QVERIFY(std::fabs(sum - 1.0) < 1e-9);
        }
    }

    void mix_adds_up_data() {
        QTest::addColumn<QString>("model");
        for (const char* m : kFixtures) QTest::newRow(m) << m;
    }
    // The terms and the rest add up to the engine's z; the heads' shares add up to attn_out
    // (before gemma3's post-attention norm, so there only the sum of terms is checked).
    void mix_adds_up() {
        QFETCH(QString, model);
        const Loaded f = load(model);
        LMSCOPE_REQUIRE_FILE(f.path, "the fixture model");
        auto backend = engine::make_cpu_backend(f.model, {});
        engine::LayerProbe probe(*backend);
        const engine::LayerRows& rows = probe.run(f.tokens, {}, 1);
        const int32_t q = rows.n - 1, E = rows.dims.n_embd;
        std::vector<float> shares(size_t(E), 0.0f);
        for (int32_t h = 0; h < rows.dims.n_head; ++h) {
            const engine::Mix m = engine::mix(*f.model, rows, engine::score_stages(*f.model, rows, q, h), 3);
            QVERIFY(m.top.size() <= 3);
            for (size_t i = 1; i < m.top.size(); ++i) QVERIFY(m.top[i - 1].norm >= m.top[i].norm);
            std::vector<float> total = m.rest;
            for (const engine::MixTerm& t : m.top)
                for (size_t d = 0; d < total.size(); ++d) total[d] += t.term[d];
            QVERIFY2(rel_diff(total, m.z) < 1e-3, qPrintable(QString("head %1: %2").arg(h).arg(rel_diff(total, m.z))));
            QVERIFY(rel_diff(m.sum, m.z) < 1e-3);  // the engine reads v from its F16 cache
            QCOMPARE(int32_t(m.share.size()), E);
            QVERIFY(std::fabs(m.head_share[size_t(h)] - engine::l2_norm(m.share)) <= 1e-4 * (1 + m.head_share[size_t(h)]));
            for (int32_t e = 0; e < E; ++e) shares[size_t(e)] += m.share[size_t(e)];
        }
        if (!f.model->spec().arch.post_norms) {
            const auto row = engine::LayerRows::row(rows.attn_out, q, E);
            const std::vector<float> attn_out(row.begin(), row.end());
            const double d = rel_diff(shares, attn_out);
            // the shares are float products of Wo's stored weights; the engine's quantized Wo
            // (Q4_K_M) takes z rounded to 8 bits, a scale per 16 values
            const double bound = model.contains("Q4_K_M") ? 1e-2 : 2e-3;
            QVERIFY2(d < bound, qPrintable(QString::number(d)));
        }
    }

    void rope_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("layer");
        QTest::addColumn<bool>("rotates");
        for (const char* m : kFixtures) QTest::newRow(m) << m << 1 << true;
        QTest::newRow("gemma3 local layer (its own base)") << "fx-gemma3" << 0 << true;
        QTest::newRow("smollm3 NoPE layer") << "fx-smollm3" << 3 << false;
    }
    // rope_rotate is the engine's rotation (q -> q_rot, k -> k_rot), and the score of the same q
    // and k depends only on their offset: flat within 1e-4 over every position tried.
    void rope() {
        QFETCH(QString, model);
        QFETCH(int, layer);
        QFETCH(bool, rotates);
        const Loaded f = load(model);
        LMSCOPE_REQUIRE_FILE(f.path, "the fixture model");
        if (layer >= f.model->spec().n_layer()) QSKIP("the fixture has fewer layers");
        auto backend = engine::make_cpu_backend(f.model, {});
        engine::LayerProbe probe(*backend);
        const engine::LayerRows& rows = probe.run(f.tokens, {}, layer);
        const int32_t q = rows.n - 1, key = 5, hd = rows.dims.head_dim;
        const engine::RopeDemo r = engine::rope_demo(*f.model, rows, q, key, 0, 4, 24, 6);
        QCOMPARE(r.rope, rotates);
        const auto qrow = std::span(rows.q).subspan(size_t(q) * size_t(rows.dims.n_head) * size_t(hd), size_t(hd));
        const auto qrot = std::span(rows.q_rot).subspan(size_t(q) * size_t(rows.dims.n_head) * size_t(hd), size_t(hd));
        const std::vector<double> mine = engine::rope_rotate(*f.model, layer, qrow, q);
        double d = 0, top = 1e-30;
        for (int32_t i = 0; i < hd; ++i) {
            d = std::max(d, std::fabs(mine[size_t(i)] - qrot[size_t(i)]));
            top = std::max(top, std::fabs(double(qrot[size_t(i)])));
        }
        QVERIFY2(d <= 1e-4 * top, qPrintable(QString::number(d / top)));
        if (rotates) {
            QVERIFY(r.pairs.size() >= 2);
            QCOMPARE(r.pairs.front().pair, 0);
            QCOMPARE(int32_t(r.theta.size()), f.model->spec().n_rot() / 2);
            for (const engine::RopePair& p : r.pairs) {
                // the rotation keeps each pair's length
                QVERIFY(std::fabs(std::hypot(p.q_before[0], p.q_before[1]) - std::hypot(p.q_after[0], p.q_after[1])) <=
                        1e-4 * (1 + std::hypot(p.q_before[0], p.q_before[1])));
                QCOMPARE(p.q_angle, double(q) * p.theta);
            }
        } else {
            QVERIFY(r.pairs.empty());
            QVERIFY(r.theta.empty());
        }
        QCOMPARE(int32_t(r.offsets.size()), 25);
        double spread = 0, scale = 1;
        for (const engine::RopeOffset& o : r.offsets) {
            QCOMPARE(o.samples, 6);
            spread = std::max(spread, o.max - o.min);
            scale = std::max(scale, std::fabs(o.mean));
        }
        QVERIFY2(spread <= 1e-4 * scale, qPrintable(QString::number(spread)));
        // and it does change with the offset where q and k rotate
        if (rotates) QVERIFY(std::fabs(r.offsets.front().mean - r.offsets.back().mean) > 1e-6);
    }

    void ffn() {
        const Loaded f = load("fx-gemma3");
        LMSCOPE_REQUIRE_FILE(f.path, "fx-gemma3");
        auto backend = engine::make_cpu_backend(f.model, {});
        engine::LayerProbe probe(*backend);
        const engine::LayerRows& rows = probe.run(f.tokens, {}, 1);
        const engine::FfnAnatomy a = engine::ffn_anatomy(rows, 10, 8, 20);
        QCOMPARE(a.top.size(), size_t(8));
        const auto act = engine::LayerRows::row(rows.mlp_act, 10, rows.dims.n_ff);
        double biggest = 0;
        for (float v : act) biggest = std::max(biggest, std::fabs(double(v)));
        QCOMPARE(std::fabs(a.top_values.front()), biggest);
        for (size_t i = 0; i < a.top.size(); ++i) QCOMPARE(a.top_values[i], double(act[size_t(a.top[i])]));
        int32_t total = 0;
        for (int32_t c : a.counts) total += c;
        QCOMPARE(total, rows.dims.n_ff);
        QCOMPARE(a.edges.size(), size_t(21));
        QCOMPARE(a.out_norm, engine::l2_norm(engine::LayerRows::row(rows.mlp_out, 10, rows.dims.n_embd)));
    }

    void errors_data() {
        QTest::addColumn<int>("layer");
        QTest::addColumn<int>("bad_token");
        QTest::addColumn<QString>("error");
        QTest::newRow("layer") << 7 << -1 << "layer 7 does not exist";
        QTest::newRow("token") << 0 << 99999 << "token id 99999 at index 2 is outside the vocabulary";
    }
    void errors() {
        QFETCH(int, layer);
        QFETCH(int, bad_token);
        QFETCH(QString, error);
        const Loaded f = load("fx-gqa");
        LMSCOPE_REQUIRE_FILE(f.path, "fx-gqa");
        auto backend = engine::make_cpu_backend(f.model, {});
        engine::LayerProbe probe(*backend);
        std::vector<int32_t> t(f.tokens.begin(), f.tokens.begin() + 5);
        if (bad_token >= 0) t[2] = bad_token;
        try {
            probe.run(t, {}, layer);
            QFAIL("accepted");
        } catch (const UsageError& e) {
            QVERIFY2(QString(e.what()).contains(error), e.what());
        }
        // a cancelled run throws, and the probe answers the next request
        CancelToken cancel;
        cancel.cancel();
        QVERIFY_THROWS_EXCEPTION(CancelledError, probe.run(f.tokens, {}, 0, &cancel));
        QCOMPARE(probe.run(f.tokens, {}, 0).n, int32_t(f.tokens.size()));
    }
};

QTEST_GUILESS_MAIN(TestLayerProbe)
#include "test_layer_probe.moc"
