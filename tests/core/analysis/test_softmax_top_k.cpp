// The streaming softmax + top k against the whole-row softmax() and top_k(): the same indices
// in the same order and the same probabilities, whatever the pieces and however they are
// split among accumulators and merged.
#include "analysis/distribution.h"
#include "analysis/softmax_top_k.h"
#include "util/error.h"

#include <QtTest>

#include <cmath>
#include <random>

using namespace lmscope;

namespace {

// Row of n logits: normal(0, 3), with `ties` copies of the largest value spread over it and
// every 7th entry -inf when masked.
std::vector<float> make_row(int n, int ties, bool masked, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0.0f, 3.0f);
    std::vector<float> x(static_cast<size_t>(n));
    for (float& v : x) v = d(rng);
    if (masked)
        for (int i = 0; i < n; i += 7) x[size_t(i)] = -INFINITY;
    const float top = *std::max_element(x.begin(), x.end());
    for (int t = 0; t < ties; ++t) x[size_t((t * 97 + 13) % n)] = top;
    return x;
}

}  // namespace

class TestSoftmaxTopK : public QObject {
    Q_OBJECT
private slots:
    void equals_whole_row_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("piece");
        QTest::addColumn<int>("accumulators");
        QTest::addColumn<int>("ties");
        QTest::addColumn<bool>("masked");
        QTest::newRow("one piece") << 1000 << 5 << 1000 << 1 << 0 << false;
        QTest::newRow("vocabulary in 1024-row pieces, 2 threads") << 49152 << 10 << 1024 << 2 << 0 << false;
        QTest::newRow("uneven pieces, 3 threads") << 5003 << 7 << 333 << 3 << 0 << false;
        QTest::newRow("ties across pieces: smaller index first") << 4096 << 6 << 100 << 4 << 5 << false;
        QTest::newRow("-inf entries") << 3000 << 5 << 64 << 2 << 0 << true;
        QTest::newRow("k larger than the row") << 9 << 20 << 4 << 2 << 0 << false;
        QTest::newRow("k = 0: the sum only") << 500 << 0 << 50 << 2 << 0 << false;
    }
    void equals_whole_row() {
        QFETCH(int, n);
        QFETCH(int, k);
        QFETCH(int, piece);
        QFETCH(int, accumulators);
        QFETCH(int, ties);
        QFETCH(bool, masked);
        const std::vector<float> x = make_row(n, ties, masked, uint32_t(n * 31 + k));
        // pieces dealt round-robin to the accumulators, the last accumulator's taken first
        std::vector<analysis::SoftmaxTopK> acc(static_cast<size_t>(accumulators), analysis::SoftmaxTopK(k));
        for (int p0 = 0, a = 0; p0 < n; p0 += piece, a = (a + 1) % accumulators)
            acc[size_t(a)].add(x.data() + p0, p0, std::min(piece, n - p0));
        analysis::SoftmaxTopK all = acc.back();
        for (int a = 0; a + 1 < accumulators; ++a) all.merge(acc[size_t(a)]);

        const double z = analysis::log_sum_exp(x);
        QVERIFY2(std::abs(all.log_sum_exp() - z) < 1e-5 * std::max(1.0, std::abs(z)),
                 qPrintable(QString("log Z %1 against %2").arg(all.log_sum_exp()).arg(z)));
        const std::vector<int32_t> want = analysis::top_k(x, k);
        const std::vector<double> p = analysis::softmax(x);
        const std::vector<analysis::SoftmaxTopK::Entry> got = all.top();
        QCOMPARE(got.size(), want.size());
        for (size_t i = 0; i < got.size(); ++i) {
            QCOMPARE(got[i].index, want[i]);
            QCOMPARE(got[i].value, x[size_t(want[i])]);
            QVERIFY2(std::abs(got[i].p - p[size_t(want[i])]) < 1e-6 * p[size_t(want[i])],
                     qPrintable(QString("p[%1] %2 against %3").arg(want[i]).arg(got[i].p).arg(p[size_t(want[i])])));
        }
    }

    void refuses_bad_use() {
        QVERIFY_THROWS_EXCEPTION(UsageError, analysis::SoftmaxTopK(-1));
        analysis::SoftmaxTopK a(3), b(4);
        QVERIFY_THROWS_EXCEPTION(UsageError, a.merge(b));
        QVERIFY(std::isinf(a.log_sum_exp()));
        QVERIFY(a.top().empty());
    }
};

QTEST_GUILESS_MAIN(TestSoftmaxTopK)
#include "test_softmax_top_k.moc"
