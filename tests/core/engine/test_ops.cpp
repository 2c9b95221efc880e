// The block's row operations (ops.h) against the same formulas in double: rms_norm for lengths
// around its eight summing chains (the values past the last eight included), in place and not.
#include "engine/ops.h"

#include <QtTest>

#include <cmath>
#include <vector>

using namespace lmscope::engine;

class TestOps : public QObject {
    Q_OBJECT
private slots:
    void rms_norm_data() {
        QTest::addColumn<int>("n");
        for (int n : {1, 7, 8, 9, 15, 64, 576, 1001}) QTest::addRow("n %d", n) << n;
    }
    void rms_norm() {
        QFETCH(int, n);
        std::vector<float> x(static_cast<size_t>(n)), w(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) {
            x[size_t(i)] = float(std::sin(0.7 * i + 0.3) * (1.0 + i % 5));  // one large value among small ones too
            w[size_t(i)] = float(0.5 + 0.01 * i);
        }
        x[size_t(n - 1)] *= 40.0f;  // the last value (past the chains for most lengths) weighs most
        constexpr float eps = 1e-6f;
        double ss = 0;
        for (float v : x) ss += double(v) * double(v);
        const double scale = 1.0 / std::sqrt(ss / n + eps);
        std::vector<float> out(static_cast<size_t>(n));
        ops::rms_norm(x.data(), w.data(), eps, out.data(), n);
        for (int i = 0; i < n; ++i) {
            const double want = double(x[size_t(i)]) * scale * double(w[size_t(i)]);
            QVERIFY2(std::abs(out[size_t(i)] - want) <= 3e-7 * std::abs(want) + 1e-30,
                     qPrintable(QString("[%1]: %2, want %3").arg(i).arg(out[size_t(i)]).arg(want)));
        }
        std::vector<float> in_place = x;  // out may alias x: the same bits
        ops::rms_norm(in_place.data(), w.data(), eps, in_place.data(), n);
        QVERIFY(in_place == out);
    }
};

QTEST_APPLESS_MAIN(TestOps)
#include "test_ops.moc"
