// The CPU backend on the sample model (SmolLM2-135M Q4_1): greedy text is coherent, prefill
// agrees with token-by-token decode, q8_0 / q4_0 KV caches stay close to f16, cancel leaves
// the cache where the step began.
#include "engine_fixture.h"

#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <QtTest>

#include <chrono>
#include <thread>

using namespace lmscope;
using namespace lmscope::testing;

namespace {

const char* kText =
    "The history of the city goes back more than two thousand years. It grew on both banks of the "
    "river, and its bridges carried traders from the north to the markets of the south. Today the "
    "old town is a quiet place of narrow streets, small squares and churches";

int32_t argmax(std::span<const float> v) {
    return int32_t(std::max_element(v.begin(), v.end()) - v.begin());
}

}  // namespace

class TestForwardSample : public QObject {
    Q_OBJECT

    std::shared_ptr<const engine::Model> model_;
    std::unique_ptr<tok::Tokenizer> tok_;

private slots:
    void initTestCase() {
        const std::string path = sample_model();
        if (path.empty()) return;
        model_ = engine::Model::load(path);
        tok_ = tok::load_tokenizer(model_->file());
    }

    void greedy_text_is_coherent() {
        LMSCOPE_REQUIRE_FILE(sample_model(), "the sample model");
        auto b = engine::make_cpu_backend(model_, {});
        std::vector<int32_t> ids = tok_->encode_ids("The capital of France is");
        std::vector<float> logits(size_t(model_->spec().n_vocab()));
        b->forward({.tokens = ids, .logits = logits});
        std::vector<int32_t> out;
        for (int i = 0; i < 8; ++i) {
            out.push_back(argmax(logits));
            const int32_t next[1] = {out.back()};
            b->forward({.tokens = next, .pos0 = int32_t(ids.size() + out.size() - 1), .logits = logits});
        }
        const std::string text = tok_->decode(out);
        qInfo("greedy: \"The capital of France is%s\"", text.c_str());
        QVERIFY2(text.find("Paris") != std::string::npos, text.c_str());
    }

    void prefill_matches_decode() {
        LMSCOPE_REQUIRE_FILE(sample_model(), "the sample model");
        const std::vector<int32_t> ids = tok_->encode_ids(kText);
        const size_t V = size_t(model_->spec().n_vocab());
        auto b = engine::make_cpu_backend(model_, {});
        std::vector<float> pre(ids.size() * V), dec(ids.size() * V);
        b->forward({.tokens = ids, .logits = pre, .all_logits = true});
        for (size_t t = 0; t < ids.size(); ++t)
            b->forward({.tokens = std::span(ids).subspan(t, 1), .pos0 = int32_t(t), .logits = std::span(dec).subspan(t * V, V)});
        const double rms = rms_over_std(dec, pre), kl = mean_kl_rows(dec, pre, V);
        qInfo("SmolLM2: %zu tokens, decode vs prefill rms/std %.3g, KL %.3g", ids.size(), rms, kl);
        // Prefill's 16 x 8 tiles and decode's 16 x 1 kernels accumulate in the same order, so
        // the two agree exactly today (measured 0). Any change of summation order may move an
        // 8-bit activation quant that 30 layers carry on (as in llama.cpp; an earlier kernel
        // pair measured rms/std 0.032, KL 0.0026), so hold them to the quantized-weight bounds.
        QVERIFY2(rms <= 0.06, qPrintable(QString("rms/std %1").arg(rms)));
        QVERIFY2(kl <= 1e-2, qPrintable(QString("KL %1").arg(kl)));
    }

    void kv_types_data() {
        QTest::addColumn<QString>("kv");
        QTest::addColumn<double>("max_kl");
        QTest::newRow("q8_0") << "q8_0" << 0.01;
        QTest::newRow("q4_0") << "q4_0" << 0.2;
    }
    // KL(f16 || quantized) of the next-token distributions over the text, every position.
    void kv_types() {
        QFETCH(QString, kv);
        QFETCH(double, max_kl);
        LMSCOPE_REQUIRE_FILE(sample_model(), "the sample model");
        const std::vector<int32_t> ids = tok_->encode_ids(kText);
        const size_t V = size_t(model_->spec().n_vocab());
        engine::BackendOptions o;
        auto f16 = engine::make_cpu_backend(model_, o);
        o.kv_type = *parse_kv_type(kv.toStdString());
        auto q = engine::make_cpu_backend(model_, o);
        std::vector<float> a(ids.size() * V), b(ids.size() * V);
        for (size_t t = 0; t < ids.size(); ++t) {  // decode steps: every row reads the cache
            f16->forward({.tokens = std::span(ids).subspan(t, 1), .pos0 = int32_t(t), .logits = std::span(a).subspan(t * V, V)});
            q->forward({.tokens = std::span(ids).subspan(t, 1), .pos0 = int32_t(t), .logits = std::span(b).subspan(t * V, V)});
        }
        const double kl = mean_kl_rows(b, a, V);
        size_t same = 0;
        for (size_t t = 0; t < ids.size(); ++t)
            same += argmax(std::span(a).subspan(t * V, V)) == argmax(std::span(b).subspan(t * V, V));
        qInfo("SmolLM2 kv %s: KL vs f16 %.3g, same argmax %zu / %zu, bytes %zu vs %zu", qPrintable(kv), kl, same,
              ids.size(), q->kv_stats().total_bytes, f16->kv_stats().total_bytes);
        QVERIFY2(kl <= max_kl, qPrintable(QString("KL %1 > %2").arg(kl).arg(max_kl)));
    }

    void cancel_from_another_thread() {
        LMSCOPE_REQUIRE_FILE(sample_model(), "the sample model");
        auto b = engine::make_cpu_backend(model_, {});
        std::vector<int32_t> ids = tok_->encode_ids(kText);
        std::vector<float> logits(size_t(model_->spec().n_vocab()));
        b->forward({.tokens = std::span(ids).first(5), .logits = logits});
        std::vector<int32_t> longer;
        while (longer.size() < 1024) longer.insert(longer.end(), ids.begin(), ids.end());
        CancelToken cancel;
        using Clock = std::chrono::steady_clock;
        Clock::time_point set_at;
        std::thread t([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            set_at = Clock::now();
            cancel.cancel();
        });
        bool cancelled = false;
        try {
            b->forward({.tokens = longer, .pos0 = 5, .logits = logits, .cancel = &cancel});
        } catch (const CancelledError&) {
            cancelled = true;
        }
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - set_at).count();
        t.join();
        QVERIFY(cancelled);
        qInfo("cancel honoured %.1f ms after the token was cancelled (1024-token prefill)", ms);
        QCOMPARE(b->kv_tokens(), 5);
    }
};

QTEST_APPLESS_MAIN(TestForwardSample)
#include "test_forward_sample.moc"
