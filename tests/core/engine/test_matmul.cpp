// MatMul over every weight type a GGUF file may carry, through the path the engine takes for
// it (packed int8 dots for the quantized types, fused over several matrices of one input;
// F16 rows 8 inputs at a time; F32 / BF16 float dots, and sgemm tiles in prefill): y = x W^T
// against a double-precision product of the stored (dequantized) weights, for a decode row and
// a prefill of 20 rows. The quantized types round the activations to 8 bits (a scale per 16
// values), so their bound is looser than the float types'.
#include "engine/matmul.h"
#include "engine/thread_pool.h"
#include "gguf/quant.h"

#include <QtTest>

#include <atomic>
#include <cmath>
#include <random>
#include <vector>

using namespace lmscope;
using namespace lmscope::engine;

Q_DECLARE_METATYPE(lmscope::gguf::TensorType)

namespace {

std::vector<float> random_floats(size_t n, uint32_t seed, float scale) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0.0f, scale);
    std::vector<float> v(n);
    for (float& x : v) x = d(rng);
    return v;
}

// A matrix of type t made from random weights: its bytes and the values they store.
struct Matrix {
    std::vector<uint8_t> bytes;  // [n_out][row_bytes]
    std::vector<float> values;   // [n_out][n_in] as stored
    Linear lin;
};

Matrix make_matrix(gguf::TensorType t, int64_t n_in, int64_t n_out, uint32_t seed) {
    Matrix m;
    const std::vector<float> w = random_floats(size_t(n_in * n_out), seed, 0.05f);
    m.lin.type = t;
    m.lin.n_in = n_in;
    m.lin.n_out = n_out;
    m.lin.row_bytes = gguf::row_bytes(t, n_in);
    m.bytes.resize(m.lin.row_bytes * size_t(n_out));
    m.values.resize(w.size());
    for (int64_t r = 0; r < n_out; ++r) {
        uint8_t* row = m.bytes.data() + size_t(r) * m.lin.row_bytes;
        gguf::quantize_row(t, w.data() + r * n_in, row, n_in);
        gguf::dequantize_row(t, row, m.values.data() + r * n_in, n_in);
    }
    m.lin.data = m.bytes.data();
    return m;
}

// The worst |y - exact| over the rows, relative to the rms of the exact outputs.
double worst_error(const Matrix& m, const std::vector<float>& x, int64_t n_rows, const std::vector<float>& y) {
    double worst = 0.0, sq = 0.0;
    std::vector<double> exact(size_t(n_rows * m.lin.n_out));
    for (int64_t t = 0; t < n_rows; ++t)
        for (int64_t n = 0; n < m.lin.n_out; ++n) {
            double s = 0.0;
            for (int64_t i = 0; i < m.lin.n_in; ++i)
                s += double(m.values[size_t(n * m.lin.n_in + i)]) * double(x[size_t(t * m.lin.n_in + i)]);
            exact[size_t(t * m.lin.n_out + n)] = s;
            sq += s * s;
        }
    const double rms = std::sqrt(sq / double(exact.size()));
    for (size_t i = 0; i < exact.size(); ++i) worst = std::max(worst, std::fabs(double(y[i]) - exact[i]) / rms);
    return worst;
}

}  // namespace

class TestMatMul : public QObject {
    Q_OBJECT

private slots:
    void every_type_data() {
        QTest::addColumn<gguf::TensorType>("type");
        QTest::addColumn<int>("n_in");
        QTest::addColumn<double>("bound");  // worst error / rms of the outputs
        using T = gguf::TensorType;
        for (T t : {T::F32, T::F16, T::BF16})
            QTest::newRow(gguf::type_name(t).data()) << t << 576 << 1e-5;
        for (T t : {T::Q4_0, T::Q4_1, T::Q5_0, T::Q5_1, T::Q8_0, T::IQ4_NL})
            QTest::newRow(gguf::type_name(t).data()) << t << 576 << 2.5e-2;
        for (T t : {T::Q2_K, T::Q3_K, T::Q4_K, T::Q5_K, T::Q6_K, T::IQ4_XS})
            QTest::newRow(gguf::type_name(t).data()) << t << 768 << 2.5e-2;
    }
    void every_type() {
        QFETCH(gguf::TensorType, type);
        QFETCH(int, n_in);
        QFETCH(double, bound);
        constexpr int64_t kOut = 37, kPrefill = 20;
        // two matrices of one input, as q and k are, so the fused path runs
        Matrix a = make_matrix(type, n_in, kOut, 1), b = make_matrix(type, n_in, 2 * kOut + 3, 2);
        PackedWeights packed;
        Linear* ws[2] = {&a.lin, &b.lin};
        packed.pack(ws);
        QCOMPARE(a.lin.packed != nullptr, a.lin.pack_format().has_value());
        ThreadPool pool(2);
        MatMul mm(pool, kernels::best());
        for (int64_t n_rows : {int64_t(1), kPrefill}) {
            const std::vector<float> x = random_floats(size_t(n_rows * n_in), 3, 1.0f);
            std::vector<float> ya(size_t(n_rows * a.lin.n_out)), yb(size_t(n_rows * b.lin.n_out));
            const Linear* cws[2] = {&a.lin, &b.lin};
            float* ys[2] = {ya.data(), yb.data()};
            mm.run(cws, x.data(), n_rows, ys);
            const double ea = worst_error(a, x, n_rows, ya), eb = worst_error(b, x, n_rows, yb);
            qInfo("%s, %lld rows: worst error %.2e / %.2e of the outputs' rms", gguf::type_name(type).data(),
                  (long long)n_rows, ea, eb);
            QVERIFY2(ea <= bound && eb <= bound, qPrintable(QString("error %1 / %2 > %3").arg(ea).arg(eb).arg(bound)));
        }
    }

    // run_row hands every output over exactly once, in pieces of at most kPieceRows, each final
    // when handed over (equal to what run() writes), from the thread that wrote it.
    void pieces_cover_every_row_data() {
        QTest::addColumn<gguf::TensorType>("type");
        using T = gguf::TensorType;
        for (T t : {T::F32, T::F16, T::Q8_0, T::Q4_K})
            QTest::newRow(gguf::type_name(t).data()) << t;
    }
    void pieces_cover_every_row() {
        QFETCH(gguf::TensorType, type);
        constexpr int64_t kIn = 256, kOut = 3 * MatMul::kPieceRows + 37;  // whole and partial pieces per thread
        Matrix m = make_matrix(type, kIn, kOut, 4);
        PackedWeights packed;
        Linear* ws[1] = {&m.lin};
        packed.pack(ws);
        ThreadPool pool(2);
        MatMul mm(pool, kernels::best());
        const std::vector<float> x = random_floats(size_t(kIn), 5, 1.0f);
        std::vector<float> y(static_cast<size_t>(kOut)), seen(static_cast<size_t>(kOut), NAN);
        std::vector<int> times(size_t(kOut), 0);
        std::atomic<bool> bad_piece{false};
        mm.run_row(m.lin, x.data(), y.data(), [&](float* piece, int64_t r0, int64_t r1, int thread) {
            if (r1 <= r0 || r1 - r0 > MatMul::kPieceRows || piece != y.data() + r0 || thread < 0 || thread >= pool.size())
                bad_piece = true;
            for (int64_t r = r0; r < r1; ++r) {  // pieces of different threads never overlap
                seen[size_t(r)] = piece[r - r0];
                ++times[size_t(r)];
            }
        });
        QVERIFY(!bad_piece);
        std::vector<float> whole(static_cast<size_t>(kOut));
        mm.run(m.lin, x.data(), 1, whole.data());
        for (int64_t r = 0; r < kOut; ++r) {
            QVERIFY2(times[size_t(r)] == 1, qPrintable(QString("output %1 handed over %2 times").arg(r).arg(times[size_t(r)])));
            QCOMPARE(seen[size_t(r)], whole[size_t(r)]);
        }
    }
};

QTEST_APPLESS_MAIN(TestMatMul)
#include "test_matmul.moc"
