// Distributions over one logit row: log-sum-exp without overflow, softmax, entropy, KL against
// values worked out by hand, and top-k's order and ties.
#include "analysis/distribution.h"
#include "util/error.h"

#include <QtTest>

#include <cmath>

using namespace lmscope;

class TestDistribution : public QObject {
    Q_OBJECT
private slots:
    void log_sum_exp_data() {
        QTest::addColumn<QVector<float>>("logits");
        QTest::addColumn<double>("expected");
        QTest::newRow("one") << QVector<float>{3.0f} << 3.0;
        QTest::newRow("two equal: log 2") << QVector<float>{0.0f, 0.0f} << std::log(2.0);
        QTest::newRow("large: no overflow") << QVector<float>{1000.0f, 1000.0f} << 1000.0 + std::log(2.0);
        QTest::newRow("very negative: no underflow") << QVector<float>{-1000.0f, -1001.0f}
                                                     << -1000.0 + std::log(1.0 + std::exp(-1.0));
        QTest::newRow("-inf entries count as 0") << QVector<float>{0.0f, -INFINITY} << 0.0;
    }
    void log_sum_exp() {
        QFETCH(QVector<float>, logits);
        QFETCH(double, expected);
        QVERIFY(std::abs(analysis::log_sum_exp(logits) - expected) < 1e-12);
        const std::vector<double> p = analysis::softmax(logits);
        double sum = 0.0;
        for (double v : p) sum += v;
        QVERIFY(std::abs(sum - 1.0) < 1e-12);
    }

    void entropy_and_kl() {
        // uniform over 4: H = log 4; p = (1/2, 1/2, 0, 0) by a -inf pair: H = log 2
        QVERIFY(std::abs(analysis::entropy(std::vector<float>{1, 1, 1, 1}) - std::log(4.0)) < 1e-12);
        QVERIFY(std::abs(analysis::entropy(std::vector<float>{2, 2, -INFINITY, -INFINITY}) - std::log(2.0)) < 1e-12);
        // KL((1/2, 1/2) || (1/4, 3/4)) = 1/2 log 2 + 1/2 log (2/3)
        const std::vector<float> p{0.0f, 0.0f}, q{0.0f, float(std::log(3.0))};
        const double expected = 0.5 * std::log(2.0) + 0.5 * std::log(2.0 / 3.0);
        QVERIFY(std::abs(analysis::kl_divergence(p, q) - expected) < 1e-7);
        QCOMPARE(analysis::kl_divergence(p, p), 0.0);
        // where p is 0 nothing is added; where q is 0 and p is not, KL is infinite
        QVERIFY(std::abs(analysis::kl_divergence(std::vector<float>{0, -INFINITY}, std::vector<float>{0, 0}) - std::log(2.0)) < 1e-12);
        QVERIFY(std::isinf(analysis::kl_divergence(std::vector<float>{0, 0}, std::vector<float>{0, -INFINITY})));
        // shifting a row by a constant changes nothing
        const std::vector<float> q_shifted{5.0f, 5.0f + float(std::log(3.0))};
        QVERIFY(std::abs(analysis::kl_divergence(p, q_shifted) - expected) < 1e-6);
        QVERIFY_THROWS_EXCEPTION(UsageError, analysis::kl_divergence(p, std::vector<float>{1, 2, 3}));
        QVERIFY_THROWS_EXCEPTION(UsageError, analysis::kl_divergence(std::vector<float>{}, std::vector<float>{}));
        QVERIFY_THROWS_EXCEPTION(UsageError, analysis::log_sum_exp(std::vector<float>{}));
    }

    void top_k_data() {
        QTest::addColumn<QVector<float>>("values");
        QTest::addColumn<int>("k");
        QTest::addColumn<QVector<int32_t>>("expected");
        QTest::newRow("order") << QVector<float>{0.1f, 0.7f, 0.2f} << 2 << QVector<int32_t>{1, 2};
        QTest::newRow("ties by the smaller index") << QVector<float>{0.5f, 0.2f, 0.5f, 0.5f} << 3 << QVector<int32_t>{0, 2, 3};
        QTest::newRow("k past the size") << QVector<float>{1.0f, 2.0f} << 9 << QVector<int32_t>{1, 0};
        QTest::newRow("k 0") << QVector<float>{1.0f} << 0 << QVector<int32_t>{};
        QTest::newRow("negative k") << QVector<float>{1.0f} << -3 << QVector<int32_t>{};
    }
    void top_k() {
        QFETCH(QVector<float>, values);
        QFETCH(int, k);
        QFETCH(QVector<int32_t>, expected);
        const std::vector<int32_t> got = analysis::top_k(std::span<const float>(values), k);
        QCOMPARE(QVector<int32_t>(got.begin(), got.end()), expected);
        const std::vector<double> as_double(values.begin(), values.end());
        QCOMPARE(analysis::top_k(std::span<const double>(as_double), k), got);
    }

    // A few best (one pass) and many (a partial sort) rank alike: each short list is the start
    // of the whole ranking, ties among repeated values by the smaller index.
    void top_k_short_and_long_agree() {
        std::vector<float> values(300);
        uint32_t state = 12345;
        for (float& v : values) {
            state = state * 1664525u + 1013904223u;
            v = float((state >> 24) % 7);  // 7 values: ties everywhere
        }
        const std::vector<int32_t> all = analysis::top_k(std::span<const float>(values), 300);
        for (int k : {1, 2, 5, 33, 64, 65, 100}) {
            const std::vector<int32_t> got = analysis::top_k(std::span<const float>(values), k);
            QCOMPARE(got, std::vector<int32_t>(all.begin(), all.begin() + k));
        }
    }

    // Two distributions side by side, worked out by hand. a = (1/2, 1/4, 1/4) from the logits
    // (log 2, 0, 0); against uniform u = (1/3, 1/3, 1/3) and b = (1/5, 3/5, 1/5) from (0, log 3, 0).
    void compare_distributions_data() {
        QTest::addColumn<QVector<float>>("b");
        QTest::addColumn<double>("kl_ab");
        QTest::addColumn<double>("kl_ba");
        QTest::addColumn<QVector<double>>("top_a");  // id, p_a, p_b per row
        QTest::addColumn<QVector<double>>("top_b");
        // KL(a || u) = 1/2 log(3/2) + 2 x 1/4 log(3/4) = 1/2 log(9/8);
        // KL(u || a) = 1/3 log(2/3) + 2 x 1/3 log(4/3) = 1/3 log(32/27). u ties: smaller ids first.
        QTest::newRow("against uniform") << QVector<float>{0, 0, 0} << 0.5 * std::log(9.0 / 8.0)
                                         << std::log(32.0 / 27.0) / 3.0
                                         << QVector<double>{0, 0.5, 1.0 / 3, 1, 0.25, 1.0 / 3}
                                         << QVector<double>{0, 0.5, 1.0 / 3, 1, 0.25, 1.0 / 3};
        // KL(a || b) = 1/2 log(5/2) + 1/4 log(5/12) + 1/4 log(5/4);
        // KL(b || a) = 1/5 log(2/5) + 3/5 log(12/5) + 1/5 log(4/5).
        QTest::newRow("different tops")
            << QVector<float>{0, float(std::log(3.0)), 0}
            << 0.5 * std::log(2.5) + 0.25 * std::log(5.0 / 12) + 0.25 * std::log(1.25)
            << 0.2 * std::log(0.4) + 0.6 * std::log(2.4) + 0.2 * std::log(0.8)
            << QVector<double>{0, 0.5, 0.2, 1, 0.25, 0.6} << QVector<double>{1, 0.25, 0.6, 0, 0.5, 0.2};
    }
    void compare_distributions() {
        QFETCH(QVector<float>, b);
        QFETCH(double, kl_ab);
        QFETCH(double, kl_ba);
        QFETCH(QVector<double>, top_a);
        QFETCH(QVector<double>, top_b);
        const std::vector<float> a{float(std::log(2.0)), 0.0f, 0.0f};
        const analysis::DistributionComparison c = analysis::compare_distributions(a, b, 2);
        QVERIFY2(std::abs(c.kl_ab - kl_ab) < 1e-7, qPrintable(QString::number(c.kl_ab, 'g', 10)));
        QVERIFY2(std::abs(c.kl_ba - kl_ba) < 1e-7, qPrintable(QString::number(c.kl_ba, 'g', 10)));
        QCOMPARE(c.kl_ab, analysis::kl_divergence(a, b));
        QCOMPARE(c.kl_ba, analysis::kl_divergence(b, a));
        const auto check = [](const std::vector<analysis::TokenProbs>& got, const QVector<double>& want) {
            QCOMPARE(qsizetype(got.size() * 3), want.size());
            for (size_t r = 0; r < got.size(); ++r) {
                QCOMPARE(got[r].id, int32_t(want[qsizetype(r * 3)]));
                QVERIFY(std::abs(got[r].p_a - want[qsizetype(r * 3 + 1)]) < 1e-7);
                QVERIFY(std::abs(got[r].p_b - want[qsizetype(r * 3 + 2)]) < 1e-7);
            }
        };
        check(c.top_a, top_a);
        check(c.top_b, top_b);
    }

    void compare_distributions_limits() {
        const std::vector<float> a{1, 2, 3};
        QCOMPARE(analysis::compare_distributions(a, a, 0).top_a.size(), size_t(0));
        QCOMPARE(analysis::compare_distributions(a, a, 9).top_b.size(), size_t(3));  // k clamped
        QCOMPARE(analysis::compare_distributions(a, a, 3).kl_ab, 0.0);
        QVERIFY_THROWS_EXCEPTION(UsageError, analysis::compare_distributions(a, std::vector<float>{1, 2}, 1));
        QVERIFY_THROWS_EXCEPTION(UsageError, analysis::compare_distributions(std::vector<float>{}, std::vector<float>{}, 1));
    }
};

QTEST_APPLESS_MAIN(TestDistribution)
#include "test_distribution.moc"
