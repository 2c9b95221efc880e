// The CUDA backend's block decoders (gpu/kernels/weight_blocks.cuh), run on the host: every
// chunk of random blocks of each type against gguf::dequantize_row, the CPU reference. Needs no
// device, so the decoders the GEMV, the prefill tiles and the embedding read weights through
// are checked in every CUDA build.
#include "gpu/typed_weights.h"

#include "gguf/quant.h"
#include "gpu/kernels/weight_blocks.cuh"

#include <QtTest>

#include <cmath>
#include <random>

using namespace lmscope;
using namespace lmscope::testing;

class TestWeightBlocks : public QObject {
    Q_OBJECT

private slots:
    void decoders_match_dequantize_row_data() {
        QTest::addColumn<int>("type");
        for (gguf::TensorType t : device_weight_types())
            QTest::newRow(std::string(gguf::type_name(t)).c_str()) << int(t);
    }
    // 64 blocks (2048 values of the float types), every chunk decoded on its own.
    void decoders_match_dequantize_row() {
        QFETCH(int, type);
        const auto t = gguf::TensorType(type);
        if (!gguf::is_supported(t))
            QSKIP(qPrintable(QString("%1: no CPU dequantizer in this build to compare with")
                                 .arg(QString::fromStdString(std::string(gguf::type_name(t))))));
        std::mt19937 rng(uint32_t(type) + 17);
        const int64_t block = std::max<int64_t>(gguf::traits(t).block_size, gpu::kernels::kChunk);
        const int64_t n = 64 * std::max<int64_t>(block, 32);
        // magnitudes over four decades, so small and large scales are both exercised
        std::vector<float> amax(64);
        for (size_t i = 0; i < amax.size(); ++i) amax[i] = std::pow(10.0f, float(i % 4) - 2.0f);
        const hostile::Bytes data = random_weights(t, n, amax, rng);
        std::vector<float> ref(static_cast<size_t>(n));
        gguf::dequantize_row(t, data.data(), ref.data(), n);

        int64_t checked = 0, bad = 0;
        double worst = 0;
        const bool known = gpu::kernels::visit_decoder(t, [&](auto dec) {
            using D = decltype(dec);
            constexpr int chunks = D::kBlock / gpu::kernels::kChunk;
            for (int64_t b = 0; b < n / D::kBlock; ++b)
                for (int c = 0; c < chunks; ++c) {
                    float v[gpu::kernels::kChunk];
                    D::decode8(data.data() + size_t(b) * D::kBytes, c, v);
                    for (int i = 0; i < gpu::kernels::kChunk; ++i, ++checked) {
                        const float r = ref[size_t(b * D::kBlock + c * gpu::kernels::kChunk + i)];
                        // the same operations; only a fused multiply-add may round once less
                        const double d = std::fabs(double(v[i]) - double(r));
                        worst = std::max(worst, d / std::max(1e-30, double(std::fabs(r))));
                        if (!(d <= 1e-6 * std::fabs(double(r)) + 1e-30)) ++bad;
                    }
                }
        });
        QVERIFY2(known, "no device decoder for a type the CPU dequantizes");
        QCOMPARE(checked, n);
        qInfo("%s: %lld values, worst relative difference %.3g", gguf::type_name(t).data(),
              static_cast<long long>(checked), worst);
        QVERIFY2(bad == 0, qPrintable(QString("%1 of %2 values differ").arg(bad).arg(checked)));
    }

    // Every type the CPU can dequantize has a device decoder (a file the CPU runs, the GPU runs).
    void every_supported_type_has_a_decoder() {
        for (uint32_t id = 0; id < 64; ++id) {
            if (!gguf::type_traits(id)) continue;
            const auto t = gguf::TensorType(id);
            if (!gguf::is_supported(t)) continue;
            QVERIFY2(gpu::kernels::visit_decoder(t, [](auto) {}), gguf::type_name(t).data());
        }
    }
};

QTEST_APPLESS_MAIN(TestWeightBlocks)
#include "test_weight_blocks.moc"
