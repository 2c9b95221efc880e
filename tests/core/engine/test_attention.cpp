// Attention::run against a float64 attention over the same (stored, rounded) K and V: every
// head dimension (multiples of 32 and not, below 32 too), GQA groups, thread counts that split a
// decode row's dimensions, sliding windows over a ring, and the scores / pattern hooks.
#include "engine/attention.h"
#include "gguf/quant.h"

#include <QtTest>

#include <cmath>
#include <random>
#include <vector>

using namespace lmscope;
using namespace lmscope::engine;

namespace {

std::vector<float> random_floats(size_t n, std::mt19937& rng) {
    std::normal_distribution<float> d(0.0f, 1.0f);
    std::vector<float> v(n);
    for (float& x : v) x = d(rng);
    return v;
}

// Writes random keys and values for positions [pos0, pos0 + n_rows) of layer 0 ([n_kv_head][hd] each).
void write_random_rows(KvCache& cache, int32_t pos0, int32_t n_rows, int32_t n_kv_head, int32_t hd, std::mt19937& rng) {
    cache.reserve(pos0, n_rows);
    cache.open_layer(0);
    for (int32_t t = 0; t < n_rows; ++t) {
        const std::vector<float> k = random_floats(size_t(n_kv_head) * size_t(hd), rng);
        const std::vector<float> v = random_floats(size_t(n_kv_head) * size_t(hd), rng);
        cache.write(0, pos0 + t, k.data(), v.data());
    }
}

// The values the cache gives back for one stored row: [head_dim]
std::vector<double> stored(const uint8_t* row, KvType type, int32_t hd) {
    std::vector<float> f(static_cast<size_t>(hd));
    gguf::dequantize_row(kv_storage_type(type), row, f.data(), hd);
    return {f.begin(), f.end()};
}

}  // namespace

class TestAttention : public QObject {
    Q_OBJECT

private slots:
    void matches_float64_data() {
        QTest::addColumn<int>("head_dim");
        QTest::addColumn<int>("n_head");
        QTest::addColumn<int>("n_kv_head");
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("window");
        QTest::addColumn<int>("type");
        const int f16 = int(KvType::F16), q8 = int(KvType::Q8_0);
        //                                    hd  heads kv thr window type
        QTest::newRow("hd 8, MHA, 2 threads") << 8 << 4 << 4 << 2 << 0 << f16;
        QTest::newRow("hd 16, GQA 4, 3 threads") << 16 << 8 << 2 << 3 << 0 << f16;
        QTest::newRow("hd 48, MQA, 2 threads") << 48 << 3 << 1 << 2 << 0 << f16;
        QTest::newRow("hd 80, GQA 2, 4 threads") << 80 << 4 << 2 << 4 << 0 << f16;
        QTest::newRow("hd 64, GQA 2, 2 threads") << 64 << 4 << 2 << 2 << 0 << f16;
        QTest::newRow("hd 96, MQA, window 5") << 96 << 4 << 1 << 2 << 5 << f16;
        QTest::newRow("hd 40, window 3, 3 threads") << 40 << 2 << 1 << 3 << 3 << f16;
        QTest::newRow("hd 64, q8_0, GQA 2, 3 threads") << 64 << 4 << 2 << 3 << 0 << q8;
        QTest::newRow("hd 32, q8_0, window 4") << 32 << 2 << 2 << 2 << 4 << q8;
    }

    // A prefill of 7 rows, a decode row, a prefill of 70 rows (in tiles: more rows than a tile,
    // more keys than a key tile), a decode row; each step's output and hooks against float64.
    void matches_float64() {
        QFETCH(int, head_dim);
        QFETCH(int, n_head);
        QFETCH(int, n_kv_head);
        QFETCH(int, threads);
        QFETCH(int, window);
        QFETCH(int, type);
        const KvType kv_type = KvType(type);
        const int32_t hd = head_dim, group = n_head / n_kv_head;
        const float scale = 1.0f / std::sqrt(float(hd));
        ThreadPool pool(threads);
        Attention att(pool, kernels::best(), n_head, n_kv_head, hd, scale);
        KvCache cache(KvShape{1, n_kv_head, hd, kv_type}, 128, {window});
        std::mt19937 rng(uint32_t(hd * 131 + n_head * 7 + threads));

        int32_t pos0 = 0;
        for (const int32_t n_rows : {7, 1, 70, 1}) {
            write_random_rows(cache, pos0, n_rows, n_kv_head, hd, rng);
            const std::vector<float> q = random_floats(size_t(n_rows) * size_t(n_head) * size_t(hd), rng);
            const int32_t n_keys_all = pos0 + n_rows;
            std::vector<float> out(q.size(), NAN);                 // [n_rows][n_head][hd]
            std::vector<float> scores(size_t(n_head) * size_t(n_rows) * size_t(n_keys_all), NAN);  // [n_head][n_rows][n_keys_all]
            std::vector<float> pattern(scores.size(), NAN);
            AttentionCapture cap;
            cap.scores = scores.data();
            cap.pattern = pattern.data();
            att.run(cache, 0, q.data(), n_rows, pos0, window, out.data(), cap);

            for (int32_t t = 0; t < n_rows; ++t) {
                const int32_t n_keys = pos0 + t + 1;
                const int32_t j0 = window > 0 ? std::max(0, n_keys - window) : 0;
                for (int32_t h = 0; h < n_head; ++h) {
                    const int32_t kvh = h / group;
                    const float* qh = q.data() + (size_t(t) * size_t(n_head) + size_t(h)) * size_t(hd);
                    std::vector<double> w(size_t(n_keys), 0.0);  // scores, then weights
                    double mx = -INFINITY;
                    for (int32_t j = j0; j < n_keys; ++j) {
                        const std::vector<double> kj = stored(cache.k_row(0, j, kvh), kv_type, hd);
                        double s = 0;
                        for (int32_t i = 0; i < hd; ++i) s += double(qh[i]) * kj[size_t(i)];
                        w[size_t(j)] = s * scale;
                        mx = std::max(mx, w[size_t(j)]);
                    }
                    const size_t hook = (size_t(h) * size_t(n_rows) + size_t(t)) * size_t(n_keys_all);
                    // a q8_0 cache dots against 8-bit queries: its scores are that close
                    const double tol = kv_type == KvType::F16 ? 1e-4 : 5e-2;
                    for (int32_t j = 0; j < n_keys_all; ++j) {
                        const bool visible = j >= j0 && j < n_keys;
                        if (!visible) {
                            QVERIFY2(std::isinf(scores[hook + size_t(j)]) && scores[hook + size_t(j)] < 0,
                                     qPrintable(QString("score of masked key %1, row %2, head %3").arg(j).arg(t).arg(h)));
                            QCOMPARE(pattern[hook + size_t(j)], 0.0f);
                        } else {
                            QVERIFY2(std::fabs(scores[hook + size_t(j)] - w[size_t(j)]) <= tol * (1 + std::fabs(w[size_t(j)])),
                                     qPrintable(QString("score %1 vs %2 at key %3, row %4, head %5")
                                                    .arg(scores[hook + size_t(j)]).arg(w[size_t(j)]).arg(j).arg(t).arg(h)));
                        }
                    }
                    double sum = 0;
                    for (int32_t j = j0; j < n_keys; ++j) sum += (w[size_t(j)] = std::exp(w[size_t(j)] - mx));
                    std::vector<double> z(size_t(hd), 0.0);
                    for (int32_t j = j0; j < n_keys; ++j) {
                        w[size_t(j)] /= sum;
                        QVERIFY(std::fabs(pattern[hook + size_t(j)] - w[size_t(j)]) <= tol);
                        const std::vector<double> vj = stored(cache.v_row(0, j, kvh), kv_type, hd);
                        for (int32_t i = 0; i < hd; ++i) z[size_t(i)] += w[size_t(j)] * vj[size_t(i)];
                    }
                    const float* o = out.data() + (size_t(t) * size_t(n_head) + size_t(h)) * size_t(hd);
                    for (int32_t i = 0; i < hd; ++i)
                        QVERIFY2(std::fabs(o[i] - z[size_t(i)]) <= tol * (1 + std::fabs(z[size_t(i)])),
                                 qPrintable(QString("out %1 vs %2 at dim %3, row %4, head %5")
                                                .arg(o[i]).arg(z[size_t(i)]).arg(i).arg(t).arg(h)));
                }
            }
            pos0 += n_rows;
            cache.set_n_tokens(pos0);
        }
    }

    void prefill_is_decode_data() {
        QTest::addColumn<int>("head_dim");
        QTest::addColumn<int>("n_head");
        QTest::addColumn<int>("n_kv_head");
        QTest::addColumn<int>("window");
        QTest::addColumn<float>("softcap");
        //                                          hd  heads kv window cap
        QTest::newRow("hd 64, GQA 3") << 64 << 9 << 3 << 0 << 0.0f;
        QTest::newRow("hd 32, MHA") << 32 << 4 << 4 << 0 << 0.0f;
        QTest::newRow("hd 48, GQA 4, window 20") << 48 << 8 << 2 << 20 << 0.0f;
        QTest::newRow("hd 128, MQA, soft-cap") << 128 << 5 << 1 << 0 << 30.0f;
        QTest::newRow("hd 8, GQA 2, window 70") << 8 << 4 << 2 << 70 << 0.0f;
    }
    // Rows fed at once (in tiles, or a few in tasks) give the bits of the same rows fed one at a
    // time, output and hooks, on every kernel variant and for 1 to 3 threads (a decode row's keys
    // are cut among them): after a first prefill, a few rows, then more rows than a tile over
    // more keys than a key tile (a local layer's ring wrapping).
    void prefill_is_decode() {
        QFETCH(int, head_dim);
        QFETCH(int, n_head);
        QFETCH(int, n_kv_head);
        QFETCH(int, window);
        QFETCH(float, softcap);
        const int32_t hd = head_dim;
        const float scale = 1.0f / std::sqrt(float(hd));
        std::mt19937 rng(uint32_t(hd * 17 + n_head));
        for (const kernels::Kernels* k : kernels::available())
        for (const int threads : {1, 2, 3}) {
            ThreadPool pool(threads);
            Attention att(pool, *k, n_head, n_kv_head, hd, scale, softcap);
            KvCache cache(KvShape{1, n_kv_head, hd, KvType::F16}, 256, {window});
            int32_t pos0 = 0;
            for (const int32_t n_rows : {50, 5, 90}) {
                write_random_rows(cache, pos0, n_rows, n_kv_head, hd, rng);
                const std::vector<float> q = random_floats(size_t(n_rows) * size_t(n_head) * size_t(hd), rng);
                const int32_t n_keys_all = pos0 + n_rows;
                const size_t QD = size_t(n_head) * size_t(hd);
                std::vector<float> out(q.size()), scores(size_t(n_head) * size_t(n_rows) * size_t(n_keys_all));  // [n_rows][n_head][hd], [n_head][n_rows][n_keys_all]
                std::vector<float> pattern(scores.size());
                AttentionCapture cap;
                cap.scores = scores.data();
                cap.pattern = pattern.data();
                att.run(cache, 0, q.data(), n_rows, pos0, window, out.data(), cap);
                for (int32_t t = 0; t < n_rows; ++t) {
                    std::vector<float> o1(QD), s1(size_t(n_head) * size_t(pos0 + t + 1)), p1(s1.size());  // [n_head][hd], [n_head][pos0 + t + 1]
                    AttentionCapture c1;
                    c1.scores = s1.data();
                    c1.pattern = p1.data();
                    att.run(cache, 0, q.data() + size_t(t) * QD, 1, pos0 + t, window, o1.data(), c1);
                    const QString at = QString("%1, %2 threads, rows %3, row %4").arg(k->name).arg(threads).arg(n_rows).arg(t);
                    QVERIFY2(std::memcmp(o1.data(), out.data() + size_t(t) * QD, QD * sizeof(float)) == 0, qPrintable(at + ": out"));
                    for (int32_t h = 0; h < n_head; ++h) {
                        const size_t n_keys = size_t(pos0 + t + 1), row = (size_t(h) * size_t(n_rows) + size_t(t)) * size_t(n_keys_all);
                        QVERIFY2(std::memcmp(s1.data() + size_t(h) * n_keys, scores.data() + row, n_keys * sizeof(float)) == 0,
                                 qPrintable(at + QString(": scores of head %1").arg(h)));
                        QVERIFY2(std::memcmp(p1.data() + size_t(h) * n_keys, pattern.data() + row, n_keys * sizeof(float)) == 0,
                                 qPrintable(at + QString(": pattern of head %1").arg(h)));
                    }
                }
                pos0 += n_rows;
                cache.set_n_tokens(pos0);
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestAttention)
#include "test_attention.moc"
