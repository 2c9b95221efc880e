// Every instruction-set variant of the CPU kernels against the portable reference, on random
// data with lengths that exercise the vector bodies and the scalar tails, and the x16 weight
// packing with the packed dot kernels. On a CPU without AVX-512 the AVX-512 variant runs too,
// built on SIMDe's portable AVX-512 (kernels_avx512_emulated.cpp), when SIMDe was found.
#include "engine/kernels.h"
#include "engine/matmul.h"
#include "engine/repack.h"
#include "gguf/quant.h"

#ifdef LMSCOPE_AVX512_EMULATED
#include "kernels_avx512_emulated.h"
#endif

#include <QtTest>

#include <algorithm>
#include <string_view>

#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <vector>

using namespace lmscope;
using namespace lmscope::engine;

namespace {

std::vector<float> random_floats(size_t n, uint32_t seed, float scale = 1.0f) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> d(0.0f, scale);
    std::vector<float> v(n);
    for (float& x : v) x = d(rng);
    return v;
}

// Every variant this CPU runs, and the AVX-512 one emulated where the CPU has none.
std::vector<const kernels::Kernels*> variants() {
    std::vector<const kernels::Kernels*> v = kernels::available();
#ifdef LMSCOPE_AVX512_EMULATED
    if (std::none_of(v.begin(), v.end(), [](const kernels::Kernels* k) { return std::string_view(k->name) == "avx512"; }))
        v.insert(v.begin(), &kernels::avx512_emulated());
#endif
    return v;
}

bool close(float a, float b, float tol) { return std::fabs(a - b) <= tol * (1.0f + std::fabs(b)); }

}  // namespace

class TestKernels : public QObject {
    Q_OBJECT

private slots:
    void variants_listed() {
        const auto v = kernels::available();
        QVERIFY(!v.empty());
        QCOMPARE(QString(v.back()->name), QString("portable"));
        QCOMPARE(&kernels::best(), v.front());
        qInfo("best kernels: %s", kernels::best().name);
        for (const kernels::Kernels* k : variants()) qInfo("tested: %s", k->name);
    }

    void float_kernels_data() {
        QTest::addColumn<int>("n");
        for (int n : {1, 7, 8, 15, 16, 31, 32, 33, 64, 100, 576})
            QTest::newRow(qPrintable(QString::number(n))) << n;
    }
    void float_kernels() {
        QFETCH(int, n);
        const kernels::Kernels& ref = kernels::portable();
        const std::vector<float> a = random_floats(size_t(n), 1), b = random_floats(size_t(n), 2);
        std::vector<uint16_t> ah(static_cast<size_t>(n));
        ref.f32_to_f16(a.data(), ah.data(), n);
        for (const kernels::Kernels* k : variants()) {
            QVERIFY2(close(k->dot_f32(a.data(), b.data(), n), ref.dot_f32(a.data(), b.data(), n), 1e-5f), k->name);
            QVERIFY2(close(k->dot_f16(ah.data(), b.data(), n), ref.dot_f16(ah.data(), b.data(), n), 1e-5f), k->name);
            std::vector<uint16_t> abf(static_cast<size_t>(n));
            for (int i = 0; i < n; ++i) abf[size_t(i)] = gguf::fp32_to_bf16(a[size_t(i)]);
            QVERIFY2(close(k->dot_bf16(abf.data(), b.data(), n), ref.dot_bf16(abf.data(), b.data(), n), 1e-5f), k->name);
            std::vector<uint16_t> h(static_cast<size_t>(n));
            k->f32_to_f16(a.data(), h.data(), n);
            QVERIFY2(h == ah, k->name);  // round to nearest even, bit exact
            std::vector<float> back(static_cast<size_t>(n)), back_ref(static_cast<size_t>(n));
            k->f16_to_f32(h.data(), back.data(), n);
            ref.f16_to_f32(h.data(), back_ref.data(), n);
            QVERIFY2(back == back_ref, k->name);
            std::vector<float> y = b, y_ref = b;
            k->axpy_f32(0.5f, a.data(), y.data(), n);
            ref.axpy_f32(0.5f, a.data(), y_ref.data(), n);
            for (int i = 0; i < n; ++i) QVERIFY2(close(y[size_t(i)], y_ref[size_t(i)], 1e-6f), k->name);
            y = b, y_ref = b;
            k->axpy_f16(-2.0f, ah.data(), y.data(), n);
            ref.axpy_f16(-2.0f, ah.data(), y_ref.data(), n);
            for (int i = 0; i < n; ++i) QVERIFY2(close(y[size_t(i)], y_ref[size_t(i)], 1e-6f), k->name);
        }
    }

    // SwiGLU with the vectorised exp against the portable one (std::exp), from tiny to
    // saturating inputs (silu(g) -> 0 far below zero, -> g far above).
    void swiglu_data() {
        QTest::addColumn<float>("scale");
        for (float scale : {0.01f, 1.0f, 10.0f, 100.0f}) QTest::newRow(qPrintable(QString::number(double(scale)))) << scale;
    }
    void swiglu() {
        QFETCH(float, scale);
        const kernels::Kernels& ref = kernels::portable();
        constexpr int n = 1000;  // vector body and scalar tail
        const std::vector<float> g = random_floats(n, 10, scale), u = random_floats(n, 11);
        std::vector<float> want = g;
        ref.swiglu(want.data(), u.data(), n);
        for (const kernels::Kernels* k : variants()) {
            std::vector<float> got = g;
            k->swiglu(got.data(), u.data(), n);
            for (int i = 0; i < n; ++i)
                QVERIFY2(std::fabs(got[size_t(i)] - want[size_t(i)]) <= 1e-6f * std::fabs(want[size_t(i)]) + 1e-30f,
                         qPrintable(QString("%1 g %2: %3 vs %4").arg(k->name).arg(double(g[size_t(i)])).arg(double(got[size_t(i)])).arg(double(want[size_t(i)]))));
        }
    }

    // softmax with the vectorised exp against the portable one (ops::softmax_entropy): the
    // weights within 1e-6 relative and the entropy returned.
    void softmax_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<float>("scale");
        for (int n : {1, 7, 8, 9, 64, 200})
            for (float scale : {0.1f, 5.0f, 50.0f})
                QTest::newRow(qPrintable(QString("%1 x %2").arg(n).arg(double(scale)))) << n << scale;
    }
    void softmax() {
        QFETCH(int, n);
        QFETCH(float, scale);
        const kernels::Kernels& ref = kernels::portable();
        const std::vector<float> x = random_floats(size_t(n), 12, scale);
        std::vector<float> want = x;
        const float h_want = ref.softmax(want.data(), n);
        for (const kernels::Kernels* k : variants()) {
            std::vector<float> got = x;
            const float h = k->softmax(got.data(), n);
            QVERIFY2(std::fabs(h - h_want) <= 1e-5f * (1.0f + h_want), qPrintable(QString("%1 entropy %2 vs %3").arg(k->name).arg(double(h)).arg(double(h_want))));
            for (int i = 0; i < n; ++i)
                QVERIFY2(std::fabs(got[size_t(i)] - want[size_t(i)]) <= 1e-6f * want[size_t(i)] + 1e-30f,
                         qPrintable(QString("%1 [%2]: %3 vs %4").arg(k->name).arg(i).arg(double(got[size_t(i)])).arg(double(want[size_t(i)]))));
        }
    }

    // The many-row f16 kernels of attention (rows = cached positions, a stride apart; nq query
    // vectors = the heads of a GQA group) against the portable one-row dot and axpy, for row
    // counts around the 4-row unrolling and vector counts around the passes; and each vector's
    // results bit for bit those of a call with that vector alone (decode relies on it).
    void f16_rows_data() { float_kernels_data(); }
    void f16_rows() {
        QFETCH(int, n);
        const kernels::Kernels& ref = kernels::portable();
        constexpr int kMaxRows = 9, kMaxQ = 7;
        const size_t stride = size_t(n) + 3;  // halves from one row to the next
        const std::vector<float> a = random_floats(stride * kMaxRows, 7);
        const std::vector<float> b = random_floats(size_t(n) * kMaxQ, 8);  // [q][n]
        const std::vector<float> w = random_floats(size_t(kMaxQ) * kMaxRows, 9);  // [q][kMaxRows]
        std::vector<uint16_t> ah(a.size());  // [row][stride]
        ref.f32_to_f16(a.data(), ah.data(), int64_t(a.size()));
        std::vector<float> af(a.size());  // [row][stride] the halves' values
        ref.f16_to_f32(ah.data(), af.data(), int64_t(a.size()));
        for (const kernels::Kernels* k : variants())
            for (int nq : {1, 2, 3, 4, 5, 7})
                for (int rows : {1, 3, 4, 5, 8, 9}) {
                    float out[kMaxQ][kMaxRows + 1];  // [q][row], one spare column: out_stride != rows
                    k->dot_f16_rows(ah.data(), stride, b.data(), nq, n, rows, out[0], kMaxRows + 1);
                    std::vector<float> y(size_t(nq) * size_t(n) * 2), y_ref;  // [q][2 n]: y_stride 2 n
                    for (size_t i = 0; i < y.size(); ++i) y[i] = b[i % b.size()];
                    y_ref = y;
                    k->axpy_f16_rows(w.data(), kMaxRows, nq, ah.data(), stride, rows, y.data(), size_t(2 * n), n);
                    std::vector<float> y32 = y_ref;  // the float kernel on the same values: the same bits
                    k->axpy_f32_rows(w.data(), kMaxRows, nq, af.data(), stride, rows, y32.data(), size_t(2 * n), n);
                    QVERIFY2(std::memcmp(y32.data(), y.data(), y.size() * sizeof(float)) == 0,
                             qPrintable(QString("%1 axpy_f32_rows nq %2 rows %3 differs from axpy_f16_rows").arg(k->name).arg(nq).arg(rows)));
                    for (int q = 0; q < nq; ++q) {
                        const float* bq = b.data() + size_t(q) * size_t(n);
                        float alone[kMaxRows];
                        k->dot_f16_rows(ah.data(), stride, bq, 1, n, rows, alone, 0);
                        for (int r = 0; r < rows; ++r) {
                            const float want = ref.dot_f16(ah.data() + size_t(r) * stride, bq, n);
                            QVERIFY2(close(out[q][r], want, 1e-5f), qPrintable(QString("%1 dot nq %2 rows %3 [%4][%5]: %6 vs %7").arg(k->name).arg(nq).arg(rows).arg(q).arg(r).arg(out[q][r]).arg(want)));
                            QVERIFY2(std::memcmp(&out[q][r], &alone[r], sizeof(float)) == 0, qPrintable(QString("%1 dot nq %2 [%3][%4] differs from nq 1").arg(k->name).arg(nq).arg(q).arg(r)));
                            if (r >= rows / 4 * 4) {  // past the fours: dot_f16's bits
                                const float tail = k->dot_f16(ah.data() + size_t(r) * stride, bq, n);
                                QVERIFY2(std::memcmp(&tail, &alone[r], sizeof(float)) == 0, qPrintable(QString("%1 dot row %2 of %3 is not dot_f16's").arg(k->name).arg(r).arg(rows)));
                            }
                        }
                        const float* wq = w.data() + size_t(q) * kMaxRows;
                        float* yq = y_ref.data() + size_t(q) * size_t(2 * n);
                        std::vector<float> y_alone(yq, yq + n);
                        k->axpy_f16_rows(wq, 0, 1, ah.data(), stride, rows, y_alone.data(), 0, n);
                        for (int r = 0; r < rows; ++r) ref.axpy_f16(wq[r], ah.data() + size_t(r) * stride, yq, n);
                        const float* got = y.data() + size_t(q) * size_t(2 * n);
                        for (int i = 0; i < 2 * n; ++i) {
                            if (i >= n) {  // past n: untouched
                                QCOMPARE(got[i], yq[i]);
                                continue;
                            }
                            QVERIFY2(close(got[i], yq[i], 1e-5f), qPrintable(QString("%1 axpy nq %2 rows %3 [%4][%5]").arg(k->name).arg(nq).arg(rows).arg(q).arg(i)));
                            QVERIFY2(std::memcmp(&got[i], &y_alone[size_t(i)], sizeof(float)) == 0, qPrintable(QString("%1 axpy nq %2 [%3][%4] differs from nq 1").arg(k->name).arg(nq).arg(q).arg(i)));
                        }
                    }
                }
    }

    // The prefill attention's key tiles: f16 rows converted into columns (exactly), and query
    // vectors against those columns with the bits dot_f16_rows gives for the rows in its fours,
    // for column counts around the register width and head dims (multiples of 8) around the blocks.
    void key_columns_data() {
        QTest::addColumn<int>("n");
        for (int n : {8, 16, 24, 48, 64, 80, 128}) QTest::newRow(qPrintable(QString::number(n))) << n;
    }
    void key_columns() {
        QFETCH(int, n);
        const kernels::Kernels& ref = kernels::portable();
        constexpr int kMaxRows = 37, kMaxQ = 5;
        const size_t stride = size_t(n) + 8;  // halves from one key row to the next
        const std::vector<float> a = random_floats(stride * kMaxRows, 13);
        const std::vector<float> b = random_floats(size_t(n) * kMaxQ, 14);  // [q][n]
        std::vector<uint16_t> ah(a.size());  // [row][stride]
        ref.f32_to_f16(a.data(), ah.data(), int64_t(a.size()));
        for (const kernels::Kernels* k : variants())
            for (int rows : {1, 5, 8, 16, 17, 37}) {
                const size_t ld = size_t(rows) + 3;  // floats from one column row to the next
                std::vector<float> cols(size_t(n) * ld, NAN), cols_ref(cols.size(), NAN);  // [n][ld]
                k->f16_to_f32_t(ah.data(), stride, rows, n, cols.data(), ld);
                ref.f16_to_f32_t(ah.data(), stride, rows, n, cols_ref.data(), ld);
                QVERIFY2(std::memcmp(cols.data(), cols_ref.data(), cols.size() * sizeof(float)) == 0,
                         qPrintable(QString("%1 f16_to_f32_t rows %2").arg(k->name).arg(rows)));
                for (int nq : {1, 2, 3, 4, 5}) {
                    std::vector<float> got(size_t(nq) * size_t(rows + 1), NAN), want(size_t(nq) * size_t(rows));  // [q][rows (+1)]
                    k->dot_cols_f32(b.data(), nq, n, cols.data(), ld, rows, got.data(), size_t(rows + 1));
                    k->dot_f16_rows(ah.data(), stride, b.data(), nq, n, rows, want.data(), size_t(rows));
                    for (int q = 0; q < nq; ++q) {
                        for (int r = 0; r < rows / 4 * 4; ++r)
                            QVERIFY2(std::memcmp(&got[size_t(q * (rows + 1) + r)], &want[size_t(q * rows + r)], sizeof(float)) == 0,
                                     qPrintable(QString("%1 nq %2 rows %3 [%4][%5]: %6 vs %7").arg(k->name).arg(nq).arg(rows).arg(q).arg(r)
                                                    .arg(got[size_t(q * (rows + 1) + r)]).arg(want[size_t(q * rows + r)])));
                        QVERIFY2(std::isnan(got[size_t(q * (rows + 1) + rows)]), qPrintable(QString("%1 wrote past the columns").arg(k->name)));
                    }
                }
            }
    }

    void quantized_dots_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("n");
        for (gguf::TensorType t : {gguf::TensorType::Q4_0, gguf::TensorType::Q4_1, gguf::TensorType::Q8_0})
            for (int n : {32, 96, 576, 1536})
                QTest::newRow(qPrintable(QString("%1 x %2").arg(QString::fromUtf8(gguf::type_name(t).data(), int(gguf::type_name(t).size()))).arg(n)))
                    << int(t) << n;
    }
    // The activation quantizer agrees bit for bit; the fused dot products agree with the
    // portable ones and, loosely, with a float dot of the dequantized weights.
    void quantized_dots() {
        QFETCH(int, type);
        QFETCH(int, n);
        const auto t = gguf::TensorType(type);
        const kernels::Kernels& ref = kernels::portable();
        const int nb = n / kernels::kQ8Block;
        constexpr int kRows = 4;
        const std::vector<float> w = random_floats(size_t(n) * kRows, 3, 0.1f);  // 4 weight rows
        const std::vector<float> x = random_floats(size_t(n) * kRows, 4);
        const size_t wrow = gguf::row_bytes(t, n);
        std::vector<uint8_t> wq(wrow * kRows);
        for (int i = 0; i < kRows; ++i) gguf::quantize_row(t, w.data() + size_t(i) * size_t(n), wq.data() + size_t(i) * wrow, n);
        std::vector<float> wd(static_cast<size_t>(n));
        gguf::dequantize_row(t, wq.data(), wd.data(), n);

        std::vector<kernels::BlockQ8> xq_ref(size_t(nb) * kRows);
        ref.quantize_q8(x.data(), xq_ref.data(), int64_t(n) * kRows);
        auto dot_of = [&](const kernels::Kernels& k) {
            return t == gguf::TensorType::Q4_0 ? k.dot_q4_0 : t == gguf::TensorType::Q4_1 ? k.dot_q4_1 : k.dot_q8_0;
        };
        for (int r = 0; r < kRows; ++r) {
            const float exact = ref.dot_f32(wd.data(), x.data() + size_t(r) * size_t(n), n);
            const float q = dot_of(ref)(wq.data(), xq_ref.data() + size_t(r) * size_t(nb), nb);
            QVERIFY2(std::fabs(q - exact) <= 0.02f * std::sqrt(float(n)) * 0.1f + 1e-3f,
                     qPrintable(QString("q8 dot %1 vs float %2").arg(q).arg(exact)));
        }
        for (const kernels::Kernels* k : variants()) {
            std::vector<kernels::BlockQ8> xq(size_t(nb) * kRows);
            k->quantize_q8(x.data(), xq.data(), int64_t(n) * kRows);
            for (size_t i = 0; i < xq.size(); ++i) {
                QVERIFY2(xq[i].d[0] == xq_ref[i].d[0] && xq[i].d[1] == xq_ref[i].d[1] && xq[i].s == xq_ref[i].s, k->name);
                QVERIFY2(xq[i].sum[0] == xq_ref[i].sum[0] && xq[i].sum[1] == xq_ref[i].sum[1], k->name);
                QVERIFY2(std::equal(xq[i].q, xq[i].q + kernels::kQ8Block, xq_ref[i].q), k->name);
                for (int e = 0; e < kernels::kQ8Block; ++e)  // |q|, for the codebook kernels
                    QVERIFY2(int(xq[i].m[e]) == std::abs(int(xq[i].q[e])), k->name);
            }
            for (int r = 0; r < kRows; ++r) {
                const float want = dot_of(ref)(wq.data(), xq_ref.data() + size_t(r) * size_t(nb), nb);
                QVERIFY2(close(dot_of(*k)(wq.data(), xq.data() + size_t(r) * size_t(nb), nb), want, 1e-4f), k->name);
            }
        }
    }

    // The x16 packed kernels of every variant and format: random GGUF rows (any bytes are valid
    // quants and scales; the f16 scales are set to moderate values) packed 16 at a time (the last
    // group padded with zero rows), against 1..kMaxActs activation rows at once. Each product
    // equals the exact dot of the stored weights with the quantized activations up to float
    // rounding, has the same bits as that activation row alone and as the group expanded (where
    // the variant has an Expansion), and rows past the group's are not written. The error of the 8-bit activations against the float input is reported and
    // bounded per format.
    void packed_dots_data() {
        QTest::addColumn<int>("format");
        QTest::addColumn<int>("n_in");
        QTest::addColumn<int>("n_out");
        for (int f = 0; f < kernels::kNumPackFormats; ++f) {
            const int per = kernels::elements_per_chunk(kernels::PackFormat(f));
            for (int n_in : {per, 3 * per, per == 32 ? 576 : 1536})
                for (int n_out : {7, 16, 37})
                    QTest::newRow(qPrintable(QString("%1 %2 x %3").arg(format_name(f)).arg(n_out).arg(n_in))) << f << n_in << n_out;
        }
    }
    void packed_dots() {
        QFETCH(int, format);
        QFETCH(int, n_in);
        QFETCH(int, n_out);
        const auto f = kernels::PackFormat(format);
        check_packed(f, random_linear(f, n_in, n_out, 5), random_floats(size_t(n_in) * kernels::kMaxActs, 6));
    }

    // The same at the edges of the integer sums: every quant (and sub-scale) byte one value
    // (0x00: codebook entry -127, Q8_0 0; 0xFF: the largest quants and scales, Q8_0 -1; 0x80 and
    // 0x7F: Q8_0's -128 and 127), against activations that quantize to +-127 everywhere (all of
    // one sign, or alternating). The 16-bit sums of the AVX2 kernels are sized for these: a sum
    // taken over one word more saturates and fails here.
    void packed_dots_extreme_data() {
        QTest::addColumn<int>("format");
        QTest::addColumn<int>("fill");
        QTest::addColumn<int>("acts");  // 0: all +1, 1: all -1, 2: +1 -1 alternating
        for (int f = 0; f < kernels::kNumPackFormats; ++f)
            for (int fill : {0x00, 0xFF, 0x80, 0x7F})
                for (int acts = 0; acts < 3; ++acts)
                    QTest::newRow(qPrintable(QString("%1 fill %2 acts %3").arg(format_name(f)).arg(fill, 2, 16, QChar('0')).arg(acts)))
                        << f << fill << acts;
    }
    void packed_dots_extreme() {
        QFETCH(int, format);
        QFETCH(int, fill);
        QFETCH(int, acts);
        const auto f = kernels::PackFormat(format);
        const int n_in = 2 * kernels::elements_per_chunk(f);
        std::vector<float> x(size_t(n_in) * kernels::kMaxActs);
        for (size_t i = 0; i < x.size(); ++i) x[i] = acts == 0 ? 1.0f : acts == 1 ? -1.0f : (i % 2 ? -1.0f : 1.0f);
        check_packed(f, random_linear(f, n_in, 16, 7, uint8_t(fill)), x);
    }

private:
    // Every variant's packed kernel for format f against the exact dots (double) of lin's stored
    // weights with the quantized activations x ([kMaxActs][n_in]).
    void check_packed(kernels::PackFormat f, const engine::Linear& lin, const std::vector<float>& x) {
        const int format = int(f);
        const int n_in = int(lin.n_in), n_out = int(lin.n_out);
        const int nb = n_in / kernels::kQ8Block;
        constexpr int kActs = kernels::kMaxActs;
        const int n_groups = (n_out + kernels::kPackRows - 1) / kernels::kPackRows;
        QCOMPARE(lin.packed_bytes(), size_t(n_groups) * lin.group_bytes());
        std::vector<uint8_t> packed(lin.packed_bytes(), 0);  // [group][chunks][chunk bytes]
        engine::pack_rows(f, lin.data, lin.row_bytes, n_out, n_in, packed.data());

        std::vector<kernels::BlockQ8> xq(size_t(nb) * kActs);                  // [act][nb]
        kernels::portable().quantize_q8(x.data(), xq.data(), int64_t(n_in) * kActs);
        // the exact dots (double) of the stored weights with the quantized activations, and
        // with the float activations; the sums of |products| scale the tolerances, and so do the
        // sums of |x|: an offset taken off in floats (VNNI's Q8_0 + 128, the minima) rounds
        // against 128 x the largest scale x sum |x| (it shows where the weights are all zero)
        std::vector<double> exact(size_t(n_out) * kActs), exact_x(exact.size()), mag(exact.size());
        std::vector<double> sum_x(kActs, 0.0);  // [act]
        for (int j = 0; j < kActs; ++j)
            for (int i = 0; i < n_in; ++i) sum_x[size_t(j)] += std::fabs(double(x[size_t(j) * size_t(n_in) + size_t(i)]));
        const double offset_tol = 1e-7 * 128.0 * double(kMaxScale);
        const std::vector<float> wd = stored_values(lin);  // [n_out][n_in]
        for (int r = 0; r < n_out; ++r)
            for (int j = 0; j < kActs; ++j) {
                double e = 0.0, ex = 0.0, m = 0.0;
                for (int i = 0; i < n_in; ++i) {
                    const kernels::BlockQ8& ab = xq[size_t(j * nb + i / 32)];
                    const double w = wd[size_t(r) * size_t(n_in) + size_t(i)];
                    e += w * double(ab.d[i % 32 / 16]) * double(ab.q[i % 32]);
                    ex += w * double(x[size_t(j) * size_t(n_in) + size_t(i)]);
                    m += std::fabs(w * double(x[size_t(j) * size_t(n_in) + size_t(i)]));
                }
                exact[size_t(r * kActs + j)] = e, exact_x[size_t(r * kActs + j)] = ex, mag[size_t(r * kActs + j)] = m;
            }
        double worst_act = 0.0;  // the activations' rounding, relative to sum |w x|
        for (size_t i = 0; i < exact.size(); ++i) worst_act = std::max(worst_act, std::fabs(exact[i] - exact_x[i]) / mag[i]);
        qInfo("%s: 8-bit activations move a dot by at most %.2e of sum |w x|", qPrintable(format_name(format)), worst_act);
        QVERIFY2(worst_act < 2e-2, "the 8-bit activation path is far from the float path");

        for (const kernels::Kernels* k : variants())
            for (int na = 1; na <= kActs; ++na)
                for (int g = 0; g < n_groups; ++g) {
                    const int rows = std::min(kernels::kPackRows, n_out - g * kernels::kPackRows);
                    const uint8_t* wg = packed.data() + size_t(g) * lin.group_bytes();
                    float out[kActs][kernels::kPackRows];  // [activation row][weight row]
                    std::fill(&out[0][0], &out[0][0] + kActs * kernels::kPackRows, NAN);
                    k->packed[format](wg, nb, xq.data(), nb, na, rows, &out[0][0], kernels::kPackRows);
                    for (int j = 0; j < kActs; ++j)
                        for (int i = 0; i < kernels::kPackRows; ++i) {
                            const int r = g * kernels::kPackRows + i;
                            if (j >= na || i >= rows) {  // past the rows asked for: not written
                                QVERIFY2(std::isnan(out[j][i]), qPrintable(QString("%1 wrote row %2 act %3").arg(k->name).arg(r).arg(j)));
                                continue;
                            }
                            const double want = exact[size_t(r * kActs + j)];
                            QVERIFY2(std::fabs(out[j][i] - want) <= 1e-5 * mag[size_t(r * kActs + j)] + offset_tol * sum_x[size_t(j)] + 1e-6,
                                     qPrintable(QString("%1 n_act %2 row %3 act %4: %5 vs exact %6").arg(k->name).arg(na).arg(r).arg(j)
                                                    .arg(out[j][i]).arg(want)));
                        }
                    for (int j = 0; j < na; ++j) {  // each row alone: the same bits
                        float alone[kernels::kPackRows];
                        k->packed[format](wg, nb, xq.data() + size_t(j) * size_t(nb), nb, 1, rows, alone, kernels::kPackRows);
                        QVERIFY2(std::memcmp(alone, out[j], size_t(rows) * sizeof(float)) == 0,
                                 qPrintable(QString("%1 n_act %2 act %3 differs from n_act 1").arg(k->name).arg(na).arg(j)));
                    }
                    // the group expanded (where the variant has an expansion): the same bits, and
                    // the same rows left alone
                    const kernels::Expansion& e = k->expanded[size_t(format)];
                    if (!e.expand) continue;
                    struct alignas(64) Line {
                        uint8_t bytes[64];
                    };
                    std::vector<Line> ex(size_t((nb * e.bytes_per_block + 63) / 64));
                    e.expand(wg, nb, ex.data());
                    float via[kActs][kernels::kPackRows];
                    std::fill(&via[0][0], &via[0][0] + kActs * kernels::kPackRows, NAN);
                    e.kernel(wg, ex.data(), nb, xq.data(), nb, na, rows, &via[0][0], kernels::kPackRows);
                    QVERIFY2(std::memcmp(via, out, sizeof(out)) == 0,
                             qPrintable(QString("%1 n_act %2: the expanded group's products differ").arg(k->name).arg(na)));
                }
    }

    std::vector<uint8_t> rows_store_;  // the rows random_linear made
    static constexpr float kMaxScale = 0.02f;  // random_linear's f16 scales lie in [0.001, kMaxScale)

    static QString format_name(int f) {
        static const char* names[] = {"Q4_0", "Q4_1", "Q8_0", "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K", "Q5_0", "Q5_1", "IQ4_NL", "IQ4_XS"};
        static_assert(sizeof(names) / sizeof(names[0]) == kernels::kNumPackFormats);
        return names[f];
    }

    static gguf::TensorType type_of(kernels::PackFormat f) {
        for (uint32_t id = 0; id < 64; ++id)
            if (gguf::type_traits(id) && kernels::pack_format(gguf::TensorType(id)) == f) return gguf::TensorType(id);
        qFatal("no GGUF type packs to format %d", int(f));
    }

    // n_out random rows of format f's GGUF type: random bytes (or every byte `fill`) with the
    // f16 scales (d, and dmin / m where the type has one) set to small positive values.
    engine::Linear random_linear(kernels::PackFormat f, int n_in, int n_out, uint32_t seed,
                                 std::optional<uint8_t> fill = std::nullopt) {
        const gguf::TensorType t = type_of(f);
        const gguf::TypeTraits tr = gguf::traits(t);
        engine::Linear lin;
        lin.type = t;
        lin.n_in = n_in;
        lin.n_out = n_out;
        lin.row_bytes = gguf::row_bytes(t, n_in);
        rows_store_.assign(lin.row_bytes * size_t(n_out), 0);
        std::mt19937 rng(seed);
        for (uint8_t& b : rows_store_) b = fill ? *fill : uint8_t(rng());
        // byte offsets of the f16 scales in one block, by type
        std::vector<int> halves;
        switch (t) {
        case gguf::TensorType::Q2_K: halves = {80, 82}; break;
        case gguf::TensorType::Q3_K: halves = {108}; break;
        case gguf::TensorType::Q6_K: halves = {208}; break;
        case gguf::TensorType::Q4_1: case gguf::TensorType::Q5_1: case gguf::TensorType::Q4_K: case gguf::TensorType::Q5_K:
            halves = {0, 2}; break;
        default: halves = {0}; break;
        }
        std::uniform_real_distribution<float> scale(0.001f, kMaxScale);
        for (size_t b = 0; b < rows_store_.size() / tr.type_size; ++b)
            for (int off : halves) {
                const uint16_t h = gguf::fp32_to_fp16(scale(rng));
                std::memcpy(rows_store_.data() + b * tr.type_size + size_t(off), &h, 2);
            }
        lin.data = rows_store_.data();
        return lin;
    }

    // The values lin's rows store, by GGUF's own dequantizer.
    static std::vector<float> stored_values(const engine::Linear& lin) {
        std::vector<float> v(size_t(lin.n_out) * size_t(lin.n_in));  // [n_out][n_in]
        for (int64_t r = 0; r < lin.n_out; ++r)
            gguf::dequantize_row(lin.type, lin.row(r), v.data() + size_t(r) * size_t(lin.n_in), lin.n_in);
        return v;
    }
};

QTEST_APPLESS_MAIN(TestKernels)
#include "test_kernels.moc"
