// Every CPU backend on one model shares one CpuWeights (packed once) and the process's thread
// pool of its size: a second backend builds nothing, the weights go when the last backend goes,
// and backends stepping on the shared pool from two threads at once compute exactly what each
// computes alone.
#include "engine_fixture.h"

#include "engine/cpu_weights.h"
#include "engine/thread_pool.h"

#include <QtTest>

#include <thread>

using namespace lmscope;
using namespace lmscope::engine;
using namespace lmscope::testing;

class TestCpuWeights : public QObject {
    Q_OBJECT
private slots:
    void backends_share_one_packing_data() {
        QTest::addColumn<QString>("fixture");
        QTest::newRow("f32") << QStringLiteral("fx-gqa");
        QTest::newRow("Q4_1 (packed x4)") << QStringLiteral("fx-gqa-Q4_1");
        QTest::newRow("Q4_K_M") << QStringLiteral("fx-qwen3-Q4_K_M");
    }
    void backends_share_one_packing() {
        QFETCH(QString, fixture);
        const std::string path = testdata_file("models/" + fixture.toStdString() + ".gguf");
        LMSCOPE_REQUIRE_FILE(path, "the fixture");
        const std::shared_ptr<const Model> model = Model::load(path);
        std::unique_ptr<Backend> a = make_cpu_backend(model, {.n_threads = 2});
        const std::shared_ptr<const CpuWeights> w = CpuWeights::of(model);
        QCOMPARE(w.use_count(), 2);  // backend a and w: of() built nothing new
        std::unique_ptr<Backend> b = make_cpu_backend(model, {.n_threads = 2});
        QCOMPARE(w.use_count(), 3);  // b took the same weights
        QCOMPARE(CpuWeights::of(model).get(), w.get());
        a.reset();
        b.reset();
        QCOMPARE(w.use_count(), 1);  // only the test holds them now
        std::unique_ptr<Backend> c = make_cpu_backend(model, {.n_threads = 2});
        QCOMPARE(w.use_count(), 2);  // still held by the test: c reuses them
    }

    void weights_go_with_the_last_backend() {
        const std::string path = testdata_file("models/fx-gqa-Q4_1.gguf");
        LMSCOPE_REQUIRE_FILE(path, "fx-gqa-Q4_1");
        const std::shared_ptr<const Model> model = Model::load(path);
        std::weak_ptr<const CpuWeights> held;
        {
            std::unique_ptr<Backend> a = make_cpu_backend(model, {.n_threads = 1});
            held = CpuWeights::of(model);
            QVERIFY(!held.expired());
        }
        QVERIFY(held.expired());
    }

    void pool_is_shared_by_size() {
        const std::shared_ptr<ThreadPool> a = ThreadPool::shared(2);
        QCOMPARE(ThreadPool::shared(2).get(), a.get());
        QVERIFY(ThreadPool::shared(1).get() != a.get());
        QCOMPARE(ThreadPool::shared(0).get(), ThreadPool::shared(1).get());  // clamped to 1
    }

    void two_threads_step_on_the_shared_pool() {
        const std::string path = testdata_file("models/fx-gqa-Q4_1.gguf");
        LMSCOPE_REQUIRE_FILE(path, "fx-gqa-Q4_1");
        const std::shared_ptr<const Model> model = Model::load(path);
        std::vector<int32_t> tokens;
        for (int i = 0; i < 48; ++i) tokens.push_back((i * 131 + 7) % model->spec().n_vocab());
        std::unique_ptr<Backend> solo = make_cpu_backend(model, {.n_threads = 2});
        const std::vector<float> want_prefill = run_logits(*solo, tokens, false);
        const std::vector<float> want_decode = run_logits(*solo, tokens, true);

        std::unique_ptr<Backend> a = make_cpu_backend(model, {.n_threads = 2});
        std::unique_ptr<Backend> b = make_cpu_backend(model, {.n_threads = 2});
        std::vector<float> got_prefill, got_decode;
        std::thread other([&] { got_decode = run_logits(*b, tokens, true); });
        got_prefill = run_logits(*a, tokens, false);
        other.join();
        QCOMPARE(got_prefill, want_prefill);  // bit for bit: the same kernels, the same split
        QCOMPARE(got_decode, want_decode);
    }
};

QTEST_APPLESS_MAIN(TestCpuWeights)
#include "test_cpu_weights.moc"
