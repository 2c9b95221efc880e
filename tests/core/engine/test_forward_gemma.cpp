// The CPU backend on the second sample model, the real Gemma 3 270M Q4_K_M (18 layers, 4 query
// heads sharing one KV head, local layers with a 512-token sliding window, 262144 tokens),
// against an exact float64 forward pass of the same file (data/make_gemma3_reference.py runs
// ../shared/tools/ref_hooks.py and keeps what these tests read: data/gemma3_*.json, *.f32):
//   - greedy picks of two fixed prompts equal the float64 pass's (each by a margin of over one
//     logit there);
//   - the logits of a 38-token and an 817-token text (past the window) are no further from the
//     exact pass than llama.cpp's own (the bounds: KL <= 3e-3 short, <= 5e-3 long);
//   - hook values of every layer and the last position's attention weights, short and long
//     (a local layer attends to exactly the last 512 keys, a global one to all).
#include "engine_fixture.h"

#include "tokenizer/tokenizer.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace lmscope;
using namespace lmscope::testing;
using trace::Hook;

namespace {

nlohmann::json read_json(const std::string& name) {
    std::ifstream in(std::string(LMSCOPE_ENGINE_TEST_DATA "/") + name);
    if (!in) throw IoError(name + ": cannot open");
    return nlohmann::json::parse(in);
}

int32_t argmax(std::span<const float> v) { return int32_t(std::max_element(v.begin(), v.end()) - v.begin()); }

double logsumexp(std::span<const float> v) {
    const double m = *std::max_element(v.begin(), v.end());
    double s = 0;
    for (const float x : v) s += std::exp(double(x) - m);
    return m + std::log(s);
}

// What the float64 pass keeps of one text (make_gemma3_reference.py).
struct GemmaReference {
    nlohmann::json json;
    std::vector<int32_t> tokens;
    std::vector<double> lse;  // [n] log-sum-exp of the exact logits
    size_t top_k = 0, tail = 0;
    std::vector<float> pairs;  // [n][top_k + tail][2]: (id, exact logit)

    explicit GemmaReference(const std::string& name) : json(read_json("gemma3_" + name + ".json")) {
        tokens = json.at("tokens").get<std::vector<int32_t>>();
        lse = json.at("lse").get<std::vector<double>>();
        top_k = json.at("top_k").get<size_t>();
        tail = json.at("tail_samples").get<size_t>();
        pairs = read_f32_file(std::string(LMSCOPE_ENGINE_TEST_DATA "/gemma3_") + name + ".logits.f32");
        if (pairs.size() != tokens.size() * (top_k + tail) * 2 || lse.size() != tokens.size())
            throw Error("gemma3_" + name + ": sizes disagree");
    }
};

// How far one row of logits is from the exact pass's, from the kept pairs: the top entries
// exactly and the rest of the vocabulary through the samples drawn from it.
struct RowDistance {
    double kl = 0;        // estimate of KL(exact || ours); unbiased
    double kl_var = 0;    // the variance of the estimate (from the tail samples' spread)
    double max_diff = 0;  // max |logit - exact| over the kept ids
    bool same_top = false;
};

RowDistance row_distance(const GemmaReference& r, size_t t, std::span<const float> ours) {
    const double lse_ours = logsumexp(ours);
    const float* pair = r.pairs.data() + t * (r.top_k + r.tail) * 2;
    RowDistance d;
    double top_mass = 0, sum = 0, sum2 = 0;
    for (size_t i = 0; i < r.top_k + r.tail; ++i) {
        const auto id = size_t(pair[2 * i]);
        const double exact = pair[2 * i + 1];
        // log p - log q of this token
        const double e = (exact - r.lse[t]) - (double(ours[id]) - lse_ours);
        d.max_diff = std::max(d.max_diff, std::fabs(double(ours[id]) - exact));
        if (i < r.top_k) {
            const double p = std::exp(exact - r.lse[t]);
            top_mass += p;
            d.kl += p * e;
        } else {
            sum += e;
            sum2 += e * e;
        }
    }
    const double tail_mass = std::max(0.0, 1.0 - top_mass), n = double(r.tail);
    const double mean = sum / n, var = std::max(0.0, sum2 / n - mean * mean);
    d.kl += tail_mass * mean;
    d.kl_var = tail_mass * tail_mass * var / n;
    d.same_top = size_t(pair[0]) == size_t(argmax(ours));
    return d;
}

// max |ours - exact| / max |exact| over the kept values of one hook.
double hook_error(const trace::HookTensor& t, const nlohmann::json& ref) {
    const auto at = ref.at("at").get<std::vector<size_t>>();
    const auto values = ref.at("values").get<std::vector<double>>();
    double m = 0;
    for (size_t i = 0; i < at.size(); ++i)
        m = at[i] < t.data.size() ? std::max(m, std::fabs(double(t.data[at[i]]) - values[i])) : INFINITY;
    return m / std::max(ref.at("max_abs").get<double>(), 1e-30);
}

}  // namespace

class TestForwardGemma : public QObject {
    Q_OBJECT

    std::shared_ptr<const engine::Model> model_;
    std::unique_ptr<tok::Tokenizer> tok_;

private slots:
    void initTestCase() {
        const std::string path = gemma_model();
        if (path.empty()) return;
        model_ = engine::Model::load(path);
        tok_ = tok::load_tokenizer(model_->file());
    }

    void the_model() {
        LMSCOPE_REQUIRE_FILE(gemma_model(), "the sample model Gemma 3 270M");
        const model::ModelSpec& s = model_->spec();
        QCOMPARE(QString::fromStdString(s.hp.architecture), QStringLiteral("gemma3"));
        QCOMPARE(s.n_layer(), 18);
        QCOMPARE(s.n_head(), 4);
        QCOMPARE(s.n_head_kv(), 1);
        QCOMPARE(s.head_dim(), 256);
        QCOMPARE(s.n_vocab(), 262144);
        for (int32_t l = 0; l < s.n_layer(); ++l)  // five local layers, then a global one
            QCOMPARE(s.layers[size_t(l)].window, l % 6 == 5 ? 0 : 512);
    }

    void greedy_data() {
        QTest::addColumn<int>("row");
        QTest::newRow("days of the week") << 0;
        QTest::newRow("capitals") << 1;
    }
    // The prompt's ids are the independent tokenizer's; the picks are the float64 pass's.
    void greedy() {
        QFETCH(int, row);
        LMSCOPE_REQUIRE_FILE(gemma_model(), "the sample model Gemma 3 270M");
        const nlohmann::json g = read_json("gemma3_greedy.json").at(size_t(row));
        const auto ids = g.at("tokens").get<std::vector<int32_t>>();
        const auto expected = g.at("greedy").get<std::vector<int32_t>>();
        const std::string prompt = g.at("prompt").get<std::string>();
        QCOMPARE(tok_->encode_ids(prompt, true), ids);
        auto b = engine::make_cpu_backend(model_, {});
        std::vector<float> logits(size_t(model_->spec().n_vocab()));
        b->forward({.tokens = ids, .logits = logits});
        std::vector<int32_t> out;
        while (out.size() < expected.size()) {
            out.push_back(argmax(logits));
            const int32_t next[1] = {out.back()};
            b->forward({.tokens = next, .pos0 = int32_t(ids.size() + out.size() - 1), .logits = logits});
        }
        qInfo("greedy: \"%s%s\"", prompt.c_str(), tok_->decode(out).c_str());
        QCOMPARE(out, expected);
    }

    void logits_match_float64_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("max_kl");
        QTest::newRow("short (38 tokens)") << "short" << 3e-3;
        QTest::newRow("long (817 tokens, past the window)") << "long" << 5e-3;
    }
    // Mean over positions of KL(exact || ours), fed in chunks of 128 (the local layers' caches
    // wrap around their window in the long text). The bounds are how far llama.cpp's own
    // logits are from the exact pass on these sequence lengths (KL 3.4e-3 and 5.2e-3).
    void logits_match_float64() {
        QFETCH(QString, text);
        QFETCH(double, max_kl);
        LMSCOPE_REQUIRE_FILE(gemma_model(), "the sample model Gemma 3 270M");
        const GemmaReference r(text.toStdString());
        QCOMPARE(tok_->encode_ids(r.json.at("text").get<std::string>(), true), r.tokens);
        auto b = engine::make_cpu_backend(model_, {});
        const size_t V = size_t(model_->spec().n_vocab()), n = r.tokens.size(), chunk = 128;
        std::vector<float> logits(chunk * V);
        double kl = 0, kl_var = 0, max_diff = 0;
        size_t same_top = 0;
        for (size_t t0 = 0; t0 < n; t0 += chunk) {
            const size_t m = std::min(chunk, n - t0);
            b->forward({.tokens = std::span(r.tokens).subspan(t0, m), .pos0 = int32_t(t0),
                        .logits = std::span(logits).first(m * V), .all_logits = true});
            for (size_t i = 0; i < m; ++i) {
                const RowDistance d = row_distance(r, t0 + i, std::span(logits).subspan(i * V, V));
                kl += d.kl;
                kl_var += d.kl_var;
                max_diff = std::max(max_diff, d.max_diff);
                same_top += d.same_top;
            }
        }
        kl /= double(n);
        const double kl_se = std::sqrt(kl_var) / double(n);
        qInfo("Gemma 3 %s: %zu tokens, KL(exact || ours) %.3g (+- %.2g), max |dlogit| %.3g over the kept ids, "
              "same argmax %zu / %zu", qPrintable(text), n, kl, kl_se, max_diff, same_top, n);
        QVERIFY2(kl <= max_kl, qPrintable(QString("KL %1 > %2").arg(kl).arg(max_kl)));
        QVERIFY2(same_top * 10 >= n * 9, qPrintable(QString("same argmax at %1 of %2 positions").arg(same_top).arg(n)));
    }

    // Every layer's hooks at the kept indices, within 2% of the hook's largest magnitude, and
    // the last position's attention weights of every layer within 0.025 (the quantized-weight
    // bounds of the reference fixtures: activations may be rounded to 8 bits on the way).
    void hooks_match_float64() {
        LMSCOPE_REQUIRE_FILE(gemma_model(), "the sample model Gemma 3 270M");
        const GemmaReference r("short");
        const nlohmann::json& ref = r.json.at("hooks");
        auto b = engine::make_cpu_backend(model_, {});
        std::vector<trace::HookPoint> points;
        for (const auto& [name, _] : ref.items()) points.push_back(trace::parse_hook_point(name, model_->spec().n_layer()));
        for (int32_t l = 0; l < model_->spec().n_layer(); ++l) points.push_back({Hook::Pattern, l});
        const Captured c = run_hooks(*b, r.tokens, 0, points);
        double worst = 0;
        std::string worst_name;
        for (const auto& [name, kept] : ref.items()) {
            const trace::HookPoint at = trace::parse_hook_point(name, model_->spec().n_layer());
            const double e = hook_error(hook(c, at.hook, at.layer), kept);
            if (e > worst) {
                worst = e;
                worst_name = name;
            }
            QVERIFY2(e <= 0.02, qPrintable(QString("%1: %2 of its largest magnitude off the float64 pass")
                                                .arg(QString::fromStdString(name)).arg(e)));
        }
        const double attn = last_row_attention_error(c, r);
        qInfo("Gemma 3 short: %zu hooks, worst %s at %.3g of its largest magnitude; last row's attention within %.3g",
              ref.size(), worst_name.c_str(), worst, attn);
        QVERIFY2(attn <= 0.025, qPrintable(QString("attention weights %1 off").arg(attn)));
    }

    // The long text's last position: a local layer (0) gives weight to exactly its last 512
    // keys, the global layer (5) to keys before them too; both as the float64 pass.
    void sliding_window() {
        LMSCOPE_REQUIRE_FILE(gemma_model(), "the sample model Gemma 3 270M");
        const GemmaReference r("long");
        const size_t n = r.tokens.size();
        auto b = engine::make_cpu_backend(model_, {});
        std::vector<float> logits(size_t(model_->spec().n_vocab()));
        b->forward({.tokens = std::span(r.tokens).first(n - 1), .logits = logits});
        const Captured c = run_hooks(*b, std::span(r.tokens).subspan(n - 1), int32_t(n - 1),
                                     {{Hook::Pattern, 0}, {Hook::Pattern, 5}});
        for (const int32_t l : {0, 5}) {
            const trace::HookTensor& p = hook(c, Hook::Pattern, l);  // [n_head][1][n]
            for (int32_t h = 0; h < model_->spec().n_head(); ++h) {
                const std::span<const float> row = std::span(p.data).subspan(size_t(h) * n, n);
                double before = 0;  // weight on keys outside the last 512
                for (size_t k = 0; k + 512 < n; ++k) before += row[k];
                if (l == 0) QCOMPARE(before, 0.0);
                else QVERIFY2(before > 1e-4, qPrintable(QString("head %1 of the global layer: %2 before the window").arg(h).arg(before)));
            }
        }
        const double attn = last_row_attention_error(c, r);
        qInfo("Gemma 3 long: last row's attention (layers 0 and 5) within %.3g of the float64 pass", attn);
        QVERIFY2(attn <= 0.025, qPrintable(QString("attention weights %1 off").arg(attn)));
    }

private:
    // max |ours - exact| over the last row of the pattern of each layer the reference keeps.
    static double last_row_attention_error(const Captured& c, const GemmaReference& r) {
        double m = 0;
        for (const auto& [layer, heads] : r.json.at("pattern").items()) {
            const trace::HookTensor& p = hook(c, Hook::Pattern, std::stoi(layer));  // [n_head][rows][n_keys]
            const size_t rows = size_t(p.shape[1]), keys = size_t(p.shape[2]);
            for (size_t h = 0; h < heads.size(); ++h) {
                const auto exact = heads[h].get<std::vector<double>>();
                if (exact.size() != keys) return INFINITY;
                const float* last = p.data.data() + (h * rows + rows - 1) * keys;
                for (size_t k = 0; k < keys; ++k) m = std::max(m, std::fabs(double(last[k]) - exact[k]));
            }
        }
        return m;
    }
};

QTEST_APPLESS_MAIN(TestForwardGemma)
#include "test_forward_gemma.moc"
