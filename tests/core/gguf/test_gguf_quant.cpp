// Tensor types: the traits table, half/bfloat16 conversions, every decoder against reference
// values, quantize -> dequantize round trips, and the quantized fixtures against their F32
// original (with deliberately broken decodes that must exceed the same bounds).
#include "common/testing.h"

#include "gguf/gguf.h"
#include "gguf/quant.h"
#include "gguf/tensor_type.h"
#include "util/error.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace lmscope;
using namespace lmscope::gguf;

Q_DECLARE_METATYPE(lmscope::gguf::TensorType)

namespace {

const std::vector<uint32_t>& all_known_ids() {
    static const std::vector<uint32_t> ids = [] {
        std::vector<uint32_t> v;
        for (uint32_t id = 0; id < 64; ++id)
            if (type_traits(id)) v.push_back(id);
        return v;
    }();
    return ids;
}

// Deterministic bytes (64-bit LCG, top byte), the same generator that produced the golden
// values below.
std::vector<uint8_t> lcg_bytes(size_t n, uint64_t seed) {
    std::vector<uint8_t> out(n);
    uint64_t s = seed;
    for (auto& b : out) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        b = static_cast<uint8_t>(s >> 56);
    }
    return out;
}

// Gaussian samples from mt19937 via Box-Muller (the same on every standard library).
std::vector<float> gaussian(size_t n, uint32_t seed) {
    std::mt19937 gen(seed);
    std::vector<float> out(n);
    for (size_t i = 0; i < n; i += 2) {
        const double u1 = (double(gen()) + 1.0) / 4294967297.0;
        const double u2 = double(gen()) / 4294967296.0;
        const double r = std::sqrt(-2.0 * std::log(u1));
        out[i] = float(r * std::cos(2 * M_PI * u2));
        if (i + 1 < n) out[i + 1] = float(r * std::sin(2 * M_PI * u2));
    }
    return out;
}

// Heavy-tailed samples, as trained weights have: Student t with 3 degrees of freedom,
// z / sqrt(chi2_3 / 3) from the gaussian() samples.
std::vector<float> student_t3(size_t n, uint32_t seed) {
    const std::vector<float> g = gaussian(4 * n, seed);
    std::vector<float> out(n);
    for (size_t i = 0; i < n; ++i) {
        const double c = double(g[4 * i + 1]) * g[4 * i + 1] + double(g[4 * i + 2]) * g[4 * i + 2] +
                         double(g[4 * i + 3]) * g[4 * i + 3];
        out[i] = float(g[4 * i] / std::sqrt(c / 3.0));
    }
    return out;
}

// A tensor of `type` in `file` decoded with a byte mutation applied first.
struct Mutation {
    const char* name;
    TensorType decode_as;  // the type the mutated bytes are decoded as
    // Returns the mutated bytes of one tensor (its row bytes change when decode_as differs).
    std::function<std::vector<uint8_t>(const uint8_t* data, size_t n_bytes)> apply;
};

std::vector<uint8_t> per_block(const uint8_t* data, size_t n_bytes, size_t block,
                               const std::function<void(uint8_t*)>& f) {
    std::vector<uint8_t> out(data, data + n_bytes);
    for (size_t off = 0; off + block <= out.size(); off += block) f(out.data() + off);
    return out;
}

void swap_nibbles(uint8_t* p, size_t n) {
    for (size_t i = 0; i < n; ++i) p[i] = static_cast<uint8_t>((p[i] >> 4) | (p[i] << 4));
}

void double_f16(uint8_t* p) {  // multiplies a (normal) f16 by 2: exponent + 1
    uint16_t h = static_cast<uint16_t>(p[0] | (p[1] << 8));
    h = static_cast<uint16_t>(h + 0x0400);
    p[0] = static_cast<uint8_t>(h);
    p[1] = static_cast<uint8_t>(h >> 8);
}

const std::map<std::string, Mutation>& mutations() {
    static const std::map<std::string, Mutation> m = {
        {"Q8_0 scale doubled",
         {"Q8_0 scale doubled", TensorType::Q8_0,
          [](const uint8_t* d, size_t n) { return per_block(d, n, 34, [](uint8_t* b) { double_f16(b); }); }}},
        {"Q8_0 quants reversed",
         {"Q8_0 quants reversed", TensorType::Q8_0,
          [](const uint8_t* d, size_t n) {
              return per_block(d, n, 34, [](uint8_t* b) {
                  for (int j = 0; j < 16; ++j) std::swap(b[2 + j], b[2 + 31 - j]);
              });
          }}},
        {"Q4_1 nibbles swapped",
         {"Q4_1 nibbles swapped", TensorType::Q4_1,
          [](const uint8_t* d, size_t n) { return per_block(d, n, 20, [](uint8_t* b) { swap_nibbles(b + 4, 16); }); }}},
        {"Q4_1 scale doubled",
         {"Q4_1 scale doubled", TensorType::Q4_1,
          [](const uint8_t* d, size_t n) { return per_block(d, n, 20, [](uint8_t* b) { double_f16(b); }); }}},
        {"Q4_1 read as Q4_0",
         {"Q4_1 read as Q4_0", TensorType::Q4_0,
          [](const uint8_t* d, size_t n) {
              std::vector<uint8_t> out;  // keep d and the nibbles, drop the minimum
              for (size_t off = 0; off + 20 <= n; off += 20) {
                  out.insert(out.end(), d + off, d + off + 2);
                  out.insert(out.end(), d + off + 4, d + off + 20);
              }
              return out;
          }}},
        {"Q4_K nibbles swapped",
         {"Q4_K nibbles swapped", TensorType::Q4_K,
          [](const uint8_t* d, size_t n) { return per_block(d, n, 144, [](uint8_t* b) { swap_nibbles(b + 16, 128); }); }}},
        {"Q4_K d and dmin swapped",
         {"Q4_K d and dmin swapped", TensorType::Q4_K,
          [](const uint8_t* d, size_t n) {
              return per_block(d, n, 144, [](uint8_t* b) { std::swap(b[0], b[2]); std::swap(b[1], b[3]); });
          }}},
        {"Q6_K nibbles swapped",
         {"Q6_K nibbles swapped", TensorType::Q6_K,
          [](const uint8_t* d, size_t n) { return per_block(d, n, 210, [](uint8_t* b) { swap_nibbles(b, 128); }); }}},
        {"Q6_K scale doubled",
         {"Q6_K scale doubled", TensorType::Q6_K,
          [](const uint8_t* d, size_t n) { return per_block(d, n, 210, [](uint8_t* b) { double_f16(b + 208); }); }}},
    };
    return m;
}

// Max over the tensors of `type` in `quant_path` of the relative rms error against the same
// tensor in `f32_path`, decoded as they are or after `mutation`. Also checks names and shapes.
struct FixtureError {
    double max_rel = 0;
    double min_rel = std::numeric_limits<double>::infinity();
    int n_tensors = 0;
};

FixtureError fixture_error(const std::string& quant_path, const std::string& f32_path,
                           TensorType type, const Mutation* mutation) {
    const File q = File::open(quant_path);
    const File f = File::open(f32_path);
    FixtureError r;
    for (const TensorInfo& t : q.tensors()) {
        if (t.type != type) continue;
        const TensorInfo& ref = f.tensor(t.name);
        if (ref.ne != t.ne || ref.type != TensorType::F32)
            throw Error(t.name + ": shape or type differs from the F32 original");
        std::vector<float> got;
        if (mutation) {
            const std::vector<uint8_t> bytes = mutation->apply(t.data, t.n_bytes);
            TensorInfo m = t;
            m.type = mutation->decode_as;
            m.data = bytes.data();
            m.n_bytes = bytes.size();
            got = dequantize(m);
        } else {
            got = dequantize(t);
        }
        const double e = testing::rel_rms(got, dequantize(ref));
        r.max_rel = std::max(r.max_rel, e);
        r.min_rel = std::min(r.min_rel, e);
        ++r.n_tensors;
    }
    return r;
}

// Relative rms error bounds of each fixture type against fx-gqa.gguf (F32). Measured:
// see the comments in fixture_matches_f32_data().
constexpr double kBoundQ8_0 = 0.007;
constexpr double kBoundQ4_1 = 0.09;
constexpr double kBoundQ4_K = 0.085;
constexpr double kBoundQ6_K = 0.022;

}  // namespace

class TestGgufQuant : public QObject {
    Q_OBJECT

private slots:
    // ---- the traits table ----
    void traits_table_data() {
        QTest::addColumn<uint32_t>("id");
        QTest::addColumn<QString>("name");
        QTest::addColumn<uint32_t>("block");
        QTest::addColumn<uint32_t>("bytes");
        auto row = [](uint32_t id, const char* name, uint32_t block, uint32_t bytes) {
            QTest::newRow(name) << id << QString(name) << block << bytes;
        };
        row(0, "F32", 1, 4);      row(1, "F16", 1, 2);      row(2, "Q4_0", 32, 18);
        row(3, "Q4_1", 32, 20);   row(6, "Q5_0", 32, 22);   row(7, "Q5_1", 32, 24);
        row(8, "Q8_0", 32, 34);   row(9, "Q8_1", 32, 36);   row(10, "Q2_K", 256, 84);
        row(11, "Q3_K", 256, 110); row(12, "Q4_K", 256, 144); row(13, "Q5_K", 256, 176);
        row(14, "Q6_K", 256, 210); row(15, "Q8_K", 256, 292); row(16, "IQ2_XXS", 256, 66);
        row(17, "IQ2_XS", 256, 74); row(18, "IQ3_XXS", 256, 98); row(19, "IQ1_S", 256, 50);
        row(20, "IQ4_NL", 32, 18); row(21, "IQ3_S", 256, 110); row(22, "IQ2_S", 256, 82);
        row(23, "IQ4_XS", 256, 136); row(24, "I8", 1, 1);   row(25, "I16", 1, 2);
        row(26, "I32", 1, 4);     row(27, "I64", 1, 8);     row(28, "F64", 1, 8);
        row(29, "IQ1_M", 256, 56); row(30, "BF16", 1, 2);   row(34, "TQ1_0", 256, 54);
        row(35, "TQ2_0", 256, 66); row(39, "MXFP4", 32, 17);
    }
    void traits_table() {
        QFETCH(uint32_t, id);
        QFETCH(QString, name);
        QFETCH(uint32_t, block);
        QFETCH(uint32_t, bytes);
        const auto t = type_traits(id);
        QVERIFY(t.has_value());
        QCOMPARE(QString::fromUtf8(t->name.data(), qsizetype(t->name.size())), name);
        QCOMPARE(t->block_size, block);
        QCOMPARE(t->type_size, bytes);
        const auto type = static_cast<TensorType>(id);
        QCOMPARE(traits(type).type_size, bytes);
        QCOMPARE(type_from_name(name.toStdString()), std::optional<TensorType>(type));
        QCOMPARE(type_from_name(name.toLower().toStdString()), std::optional<TensorType>(type));
        QCOMPARE(row_bytes(type, int64_t(block) * 7), size_t(bytes) * 7);
    }
    void every_id_known_or_retired() {
        // 32 ids are defined; the retired ones (4, 5, 31..33, 36..38) and anything past 39 are not.
        QCOMPARE(all_known_ids().size(), size_t(32));
        for (uint32_t id : {4u, 5u, 31u, 32u, 33u, 36u, 37u, 38u, 40u, 41u, 1000u, 0xffffffffu})
            QVERIFY2(!type_traits(id).has_value(), qPrintable(QString::number(id)));
        for (uint32_t id : all_known_ids()) {
            const TypeTraits t = *type_traits(id);
            QVERIFY(t.block_size >= 1 && t.type_size >= 1);
            QCOMPARE(type_from_name(t.name), std::optional<TensorType>(static_cast<TensorType>(id)));
        }
        QVERIFY(!type_from_name("").has_value());
        QVERIFY(!type_from_name("Q4_2").has_value());
        QVERIFY(!type_from_name("Q8_0 ").has_value());
    }
    void supported_set() {
        int n = 0;
        for (uint32_t id : all_known_ids()) {
            const auto type = static_cast<TensorType>(id);
            n += is_supported(type);
            QCOMPARE(can_quantize(type), is_supported(type));  // every type read is also written
        }
        QCOMPARE(n, 15);
        QVERIFY(is_supported(TensorType::IQ4_NL) && is_supported(TensorType::IQ4_XS));
        QVERIFY(!is_supported(TensorType::IQ2_XXS) && !is_supported(TensorType::Q8_K));
    }

    // ---- half and bfloat16 ----
    void half_decode_data() {
        QTest::addColumn<uint16_t>("bits");
        QTest::addColumn<float>("value");
        QTest::newRow("+0") << uint16_t(0x0000) << 0.0f;
        QTest::newRow("-0") << uint16_t(0x8000) << -0.0f;
        QTest::newRow("1") << uint16_t(0x3c00) << 1.0f;
        QTest::newRow("-2") << uint16_t(0xc000) << -2.0f;
        QTest::newRow("max") << uint16_t(0x7bff) << 65504.0f;
        QTest::newRow("min normal") << uint16_t(0x0400) << 0x1p-14f;
        QTest::newRow("min subnormal") << uint16_t(0x0001) << 0x1p-24f;
        QTest::newRow("max subnormal") << uint16_t(0x03ff) << 1023 * 0x1p-24f;
        QTest::newRow("-subnormal") << uint16_t(0x8201) << -513 * 0x1p-24f;
        QTest::newRow("+inf") << uint16_t(0x7c00) << std::numeric_limits<float>::infinity();
        QTest::newRow("-inf") << uint16_t(0xfc00) << -std::numeric_limits<float>::infinity();
        QTest::newRow("1/3") << uint16_t(0x3555) << 0.333251953125f;
    }
    void half_decode() {
        QFETCH(uint16_t, bits);
        QFETCH(float, value);
        QCOMPARE(std::bit_cast<uint32_t>(fp16_to_fp32(bits)), std::bit_cast<uint32_t>(value));
        QCOMPARE(fp32_to_fp16(value), bits);
    }
    void half_rounding_data() {
        QTest::addColumn<float>("value");
        QTest::addColumn<uint16_t>("bits");
        // Ties go to the even neighbour; everything else to the nearest.
        QTest::newRow("1 + half ulp (tie, down)") << (1.0f + 0x1p-11f) << uint16_t(0x3c00);
        QTest::newRow("1 + 3 half ulps (tie, up)") << (1.0f + 3 * 0x1p-11f) << uint16_t(0x3c02);
        QTest::newRow("just above the tie") << std::nextafter(1.0f + 0x1p-11f, 2.0f) << uint16_t(0x3c01);
        QTest::newRow("65519 (below the tie)") << 65519.0f << uint16_t(0x7bff);
        QTest::newRow("65520 (tie, to inf)") << 65520.0f << uint16_t(0x7c00);
        QTest::newRow("1e10 overflows") << 1e10f << uint16_t(0x7c00);
        QTest::newRow("-1e10 overflows") << -1e10f << uint16_t(0xfc00);
        QTest::newRow("2^-25 (tie, to 0)") << 0x1p-25f << uint16_t(0x0000);
        QTest::newRow("3*2^-25 (tie, to 2)") << 3 * 0x1p-25f << uint16_t(0x0002);
        QTest::newRow("just above 2^-25") << std::nextafter(0x1p-25f, 1.0f) << uint16_t(0x0001);
        QTest::newRow("2^-26 to 0") << 0x1p-26f << uint16_t(0x0000);
        QTest::newRow("-tiny to -0") << -1e-30f << uint16_t(0x8000);
        QTest::newRow("subnormal rounds to min normal") << (0x1p-14f - 0x1p-26f) << uint16_t(0x0400);
        QTest::newRow("float subnormal") << std::numeric_limits<float>::denorm_min() << uint16_t(0);
        QTest::newRow("0.1") << 0.1f << uint16_t(0x2e66);
    }
    void half_rounding() {
        QFETCH(float, value);
        QFETCH(uint16_t, bits);
        QCOMPARE(fp32_to_fp16(value), bits);
    }
    void fp16_every_value_round_trips() {
        int nans = 0;
        for (uint32_t h = 0; h < 65536; ++h) {
            const float f = fp16_to_fp32(uint16_t(h));
            if (std::isnan(f)) {
                ++nans;
                QVERIFY(std::isnan(fp16_to_fp32(fp32_to_fp16(f))));
                continue;
            }
            if (fp32_to_fp16(f) != h) QFAIL(qPrintable(QString("0x%1 does not round-trip").arg(h, 4, 16)));
        }
        QCOMPARE(nans, 2 * 1023);
    }
    void fp16_nan_stays_nan() {
        QVERIFY(std::isnan(fp16_to_fp32(fp32_to_fp16(std::numeric_limits<float>::quiet_NaN()))));
        // A NaN whose payload sits only in the low float mantissa bits must not become inf.
        const float low_payload = std::bit_cast<float>(0x7f800001u);
        QVERIFY(std::isnan(fp16_to_fp32(fp32_to_fp16(low_payload))));
        QCOMPARE(fp32_to_fp16(-std::numeric_limits<float>::quiet_NaN()) & 0x8000, 0x8000);
    }
    void bf16_conversions_data() {
        QTest::addColumn<float>("value");
        QTest::addColumn<uint16_t>("bits");
        QTest::newRow("1") << 1.0f << uint16_t(0x3f80);
        QTest::newRow("-0") << -0.0f << uint16_t(0x8000);
        QTest::newRow("1 + half ulp (tie, down)") << (1.0f + 0x1p-8f) << uint16_t(0x3f80);
        QTest::newRow("1 + 3 half ulps (tie, up)") << (1.0f + 3 * 0x1p-8f) << uint16_t(0x3f82);
        QTest::newRow("just above the tie") << std::nextafter(1.0f + 0x1p-8f, 2.0f) << uint16_t(0x3f81);
        QTest::newRow("float max rounds to inf") << std::numeric_limits<float>::max() << uint16_t(0x7f80);
        QTest::newRow("inf") << std::numeric_limits<float>::infinity() << uint16_t(0x7f80);
        QTest::newRow("float subnormal") << std::bit_cast<float>(0x00018000u) << uint16_t(0x0002);
        QTest::newRow("3.14159") << 3.14159f << uint16_t(0x4049);
    }
    void bf16_conversions() {
        QFETCH(float, value);
        QFETCH(uint16_t, bits);
        QCOMPARE(fp32_to_bf16(value), bits);
    }
    void bf16_every_value_round_trips() {
        for (uint32_t h = 0; h < 65536; ++h) {
            const float f = bf16_to_fp32(uint16_t(h));
            QCOMPARE(std::bit_cast<uint32_t>(f), h << 16);
            if (std::isnan(f)) {
                if (!std::isnan(bf16_to_fp32(fp32_to_bf16(f)))) QFAIL("a NaN became a number");
            } else if (fp32_to_bf16(f) != h) {
                QFAIL(qPrintable(QString("0x%1 does not round-trip").arg(h, 4, 16)));
            }
        }
        QVERIFY(std::isnan(bf16_to_fp32(fp32_to_bf16(std::bit_cast<float>(0x7f800001u)))));
    }

    // ---- decoders against reference values ----
    // Eight blocks of deterministic bytes, f16 scale fields set to 0x2000 + (37 b + 101 k) % 1024
    // (field k of block b). The expected sums come from an independent decoder of the formats
    // (the numpy dequantizers of the `gguf` Python package, run once on the same bytes).
    void decode_golden_data() {
        QTest::addColumn<TensorType>("type");
        QTest::addColumn<QList<int>>("half_fields");  // byte offsets of f16 fields in a block
        QTest::addColumn<double>("sum");
        QTest::addColumn<double>("wsum");   // sum of x[i] * ((7919 i) % 251 - 125)
        QTest::addColumn<double>("sumsq");
        QTest::addColumn<float>("x5");
        QTest::newRow("Q4_0") << TensorType::Q4_0 << QList<int>{0} << -2.337928772 << 10.76898193 << 0.482238668 << -0.03125f;
        QTest::newRow("Q4_1") << TensorType::Q4_1 << QList<int>{0, 2} << 19.37672424 << -34.55780029 << 1.861619091 << 0.0320205688f;
        QTest::newRow("Q5_0") << TensorType::Q5_0 << QList<int>{0} << -2.80002594 << 65.62343597 << 1.557044786 << -0.0078125f;
        QTest::newRow("Q5_1") << TensorType::Q5_1 << QList<int>{0, 2} << 36.91453552 << -122.5424652 << 6.993127375 << 0.250770569f;
        QTest::newRow("Q8_0") << TensorType::Q8_0 << QList<int>{0} << 7.014060974 << -1104.417389 << 109.4889366 << -0.734375f;
        QTest::newRow("Q2_K") << TensorType::Q2_K << QList<int>{80, 82} << 45.67531586 << -166.962738 << 30.12432779 << -0.128746033f;
        QTest::newRow("Q3_K") << TensorType::Q3_K << QList<int>{108} << -52.48440552 << -717.809227 << 297.8258017 << -0.3984375f;
        QTest::newRow("Q4_K") << TensorType::Q4_K << QList<int>{0, 2} << 2695.207924 << -1613.102379 << 9033.333498 << 0.214233398f;
        QTest::newRow("Q5_K") << TensorType::Q5_K << QList<int>{0, 2} << 8442.567368 << -11058.37752 << 61237.31402 << 6.15689087f;
        QTest::newRow("Q6_K") << TensorType::Q6_K << QList<int>{208} << -1.930992126 << -8430.429993 << 283776.392 << -12.234375f;
        QTest::newRow("IQ4_NL") << TensorType::IQ4_NL << QList<int>{0} << -30.65890503 << 242.9545441 << 105.5811468 << -0.3828125f;
        QTest::newRow("IQ4_XS") << TensorType::IQ4_XS << QList<int>{0} << 858.3925781 << 56108.0207 << 255597.5705 << 13.6171875f;
    }
    void decode_golden() {
        QFETCH(TensorType, type);
        QFETCH(QList<int>, half_fields);
        QFETCH(double, sum);
        QFETCH(double, wsum);
        QFETCH(double, sumsq);
        QFETCH(float, x5);
        const TypeTraits t = traits(type);
        const int nb = 8;
        std::vector<uint8_t> raw = lcg_bytes(size_t(nb) * t.type_size, 0x853c49e6748fea9bull ^ t.type_size);
        for (int b = 0; b < nb; ++b) {
            for (int k = 0; k < int(half_fields.size()); ++k) {
                const uint16_t h = uint16_t(0x2000 + (b * 37 + k * 101) % 0x400);
                raw[size_t(b) * t.type_size + size_t(half_fields[k])] = uint8_t(h);
                raw[size_t(b) * t.type_size + size_t(half_fields[k]) + 1] = uint8_t(h >> 8);
            }
        }
        const int64_t n = int64_t(nb) * t.block_size;
        std::vector<float> x(static_cast<size_t>(n));  // [n]
        dequantize_row(type, raw.data(), x.data(), n);
        double s = 0, ws = 0, ss = 0;
        for (int64_t i = 0; i < n; ++i) {
            s += x[size_t(i)];
            ws += double(x[size_t(i)]) * double((i * 7919) % 251 - 125);
            ss += double(x[size_t(i)]) * x[size_t(i)];
        }
        auto close = [](double a, double e) { return std::fabs(a - e) <= 1e-6 * std::max(1.0, std::fabs(e)); };
        QVERIFY2(close(s, sum), qPrintable(QString("sum %1, expected %2").arg(s, 0, 'g', 10).arg(sum, 0, 'g', 10)));
        QVERIFY2(close(ws, wsum), qPrintable(QString("weighted sum %1, expected %2").arg(ws, 0, 'g', 10).arg(wsum, 0, 'g', 10)));
        QVERIFY2(close(ss, sumsq), qPrintable(QString("sum of squares %1, expected %2").arg(ss, 0, 'g', 10).arg(sumsq, 0, 'g', 10)));
        QCOMPARE(x[5], x5);
        // The same bytes at an odd address decode identically (blocks may sit anywhere).
        std::vector<uint8_t> shifted(raw.size() + 1);
        std::memcpy(shifted.data() + 1, raw.data(), raw.size());
        std::vector<float> y(static_cast<size_t>(n));
        dequantize_row(type, shifted.data() + 1, y.data(), n);
        QVERIFY(y == x);
    }
    void decode_hand_built_blocks() {
        // Q4_0: d = 0.5, byte j = j | (15 - j) << 4 -> x[j] = 0.5 (j - 8), x[j + 16] = 0.5 (7 - j).
        uint8_t q40[18] = {0x00, 0x38};
        for (int j = 0; j < 16; ++j) q40[2 + j] = uint8_t(j | ((15 - j) << 4));
        float x[32];
        dequantize_row(TensorType::Q4_0, q40, x, 32);
        for (int j = 0; j < 16; ++j) {
            QCOMPARE(x[j], 0.5f * float(j - 8));
            QCOMPARE(x[j + 16], 0.5f * float(7 - j));
        }
        // Q5_1: d = 1, m = -16, qh = element j's 5th bit set for odd j -> x[j] = q - 16.
        uint8_t q51[24] = {0x00, 0x3c, 0x00, 0xcc, 0xaa, 0xaa, 0xaa, 0xaa};
        for (int j = 0; j < 16; ++j) q51[8 + j] = uint8_t(j | ((15 - j) << 4));
        dequantize_row(TensorType::Q5_1, q51, x, 32);
        for (int j = 0; j < 16; ++j) {
            QCOMPARE(x[j], float((j | ((j & 1) << 4)) - 16));
            QCOMPARE(x[j + 16], float(((15 - j) | ((j & 1) << 4)) - 16));
        }
        // Q8_0: d = 2^-3, qs[j] = j - 16.
        uint8_t q80[34] = {0x00, 0x30};
        for (int j = 0; j < 32; ++j) q80[2 + j] = uint8_t(int8_t(j - 16));
        dequantize_row(TensorType::Q8_0, q80, x, 32);
        for (int j = 0; j < 32; ++j) QCOMPARE(x[j], 0.125f * float(j - 16));
        // IQ4_NL: d = 0.5, byte j = j | (15 - j) << 4 -> x[j] = 0.5 * code[j], x[j + 16] = 0.5 * code[15 - j].
        const float code[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};
        uint8_t nl[18] = {0x00, 0x38};
        for (int j = 0; j < 16; ++j) nl[2 + j] = uint8_t(j | ((15 - j) << 4));
        dequantize_row(TensorType::IQ4_NL, nl, x, 32);
        for (int j = 0; j < 16; ++j) {
            QCOMPARE(x[j], 0.5f * code[j]);
            QCOMPARE(x[j + 16], 0.5f * code[15 - j]);
        }
        // IQ4_XS: d = 0.25; group g's 6-bit scale 32 + 3g - 11 (signed 3g - 11: -11 .. 10, so
        // both the low nibbles and the high 2 bits vary); byte j of group g = (j + g) % 16 | j << 4.
        uint8_t xs[136] = {0x00, 0x34};
        uint16_t high = 0;
        for (int g = 0; g < 8; ++g) {
            const int u = 32 + 3 * g - 11;
            xs[4 + g / 2] = uint8_t(xs[4 + g / 2] | ((u & 15) << (4 * (g % 2))));
            high = uint16_t(high | ((u >> 4) << (2 * g)));
            for (int j = 0; j < 16; ++j) xs[8 + 16 * g + j] = uint8_t(((j + g) % 16) | (j << 4));
        }
        xs[2] = uint8_t(high);
        xs[3] = uint8_t(high >> 8);
        float y[256];
        dequantize_row(TensorType::IQ4_XS, xs, y, 256);
        for (int g = 0; g < 8; ++g) {
            for (int j = 0; j < 16; ++j) {
                QCOMPARE(y[32 * g + j], 0.25f * float(3 * g - 11) * code[(j + g) % 16]);
                QCOMPARE(y[32 * g + j + 16], 0.25f * float(3 * g - 11) * code[j]);
            }
        }
    }

    // ---- quantize -> dequantize ----
    void round_trip_data() {
        QTest::addColumn<TensorType>("type");
        QTest::addColumn<bool>("heavy_tailed");   // Student t (3 degrees of freedom) instead of normal
        QTest::addColumn<double>("max_rel_rms");  // bound on the relative rms error
        QTest::addColumn<double>("max_abs");      // bound on the largest error relative to the rms of the data
        // Measured on 64 Ki values (rel rms / max abs), normal:
        // F16 2.1e-4 / 0.0015, BF16 1.7e-3 / 0.0083, Q8_0 5.3e-3 / 0.019, Q5_1 0.038 / 0.11,
        // Q5_0 0.043 / 0.18, Q4_1 0.078 / 0.23, Q4_0 0.086 / 0.37, Q6_K 0.0167 / 0.068,
        // Q5_K 0.0352 / 0.16, Q4_K 0.0710 / 0.30, IQ4_XS 0.0738 / 0.38, IQ4_NL 0.0732 / 0.39,
        // Q3_K 0.144 / 0.74, Q2_K 0.268 / 1.45;
        // Student t(3): Q8_0 8.4e-3 / 0.125, Q4_0 0.129 / 1.82, Q6_K 0.0245 / 0.46,
        // Q5_K 0.0462 / 0.53, Q4_K 0.0920 / 1.08, IQ4_XS 0.100 / 1.4, IQ4_NL 0.0989 / 1.4,
        // Q3_K 0.184 / 2.46, Q2_K 0.299 / 2.95.
        // The data are fixed, so the K and IQ4 bounds on normal data sit 2% above the measured
        // errors: a scale search switched off (IQ4_NL 0.0763, Q4_K 0.0750) fails them.
        auto row = [](const char* name, TensorType t, bool heavy, double rel, double abs) {
            QTest::newRow(name) << t << heavy << rel << abs;
        };
        row("F32", TensorType::F32, false, 0.0, 0.0);
        row("F16", TensorType::F16, false, 2.5e-4, 2e-3);
        row("BF16", TensorType::BF16, false, 2e-3, 0.01);
        row("Q8_0", TensorType::Q8_0, false, 6.5e-3, 0.025);
        row("Q5_1", TensorType::Q5_1, false, 0.045, 0.14);
        row("Q5_0", TensorType::Q5_0, false, 0.05, 0.22);
        row("Q4_1", TensorType::Q4_1, false, 0.09, 0.28);
        row("Q4_0", TensorType::Q4_0, false, 0.10, 0.45);
        row("Q6_K", TensorType::Q6_K, false, 0.0171, 0.08);
        row("Q5_K", TensorType::Q5_K, false, 0.036, 0.19);
        row("Q4_K", TensorType::Q4_K, false, 0.0725, 0.35);
        row("IQ4_XS", TensorType::IQ4_XS, false, 0.0753, 0.45);
        row("IQ4_NL", TensorType::IQ4_NL, false, 0.0747, 0.45);
        row("Q3_K", TensorType::Q3_K, false, 0.147, 0.85);
        row("Q2_K", TensorType::Q2_K, false, 0.273, 1.7);
        row("Q8_0 t3", TensorType::Q8_0, true, 8.8e-3, 0.15);
        row("Q4_0 t3", TensorType::Q4_0, true, 0.135, 2.1);
        row("Q6_K t3", TensorType::Q6_K, true, 0.026, 0.53);
        row("Q5_K t3", TensorType::Q5_K, true, 0.049, 0.62);
        row("Q4_K t3", TensorType::Q4_K, true, 0.097, 1.25);
        row("IQ4_XS t3", TensorType::IQ4_XS, true, 0.105, 1.65);
        row("IQ4_NL t3", TensorType::IQ4_NL, true, 0.104, 1.65);
        row("Q3_K t3", TensorType::Q3_K, true, 0.193, 2.85);
        row("Q2_K t3", TensorType::Q2_K, true, 0.315, 3.4);
    }
    void round_trip() {
        QFETCH(TensorType, type);
        QFETCH(bool, heavy_tailed);
        QFETCH(double, max_rel_rms);
        QFETCH(double, max_abs);
        const int64_t n = 65536;
        const std::vector<float> x = heavy_tailed ? student_t3(size_t(n), 7) : gaussian(size_t(n), 7);  // [n]
        std::vector<uint8_t> q(row_bytes(type, n));
        quantize_row(type, x.data(), q.data(), n);
        std::vector<float> y(static_cast<size_t>(n));
        dequantize_row(type, q.data(), y.data(), n);
        double worst = 0, ss = 0;
        for (int64_t i = 0; i < n; ++i) {
            worst = std::max(worst, std::fabs(double(y[size_t(i)]) - x[size_t(i)]));
            ss += double(x[size_t(i)]) * x[size_t(i)];
        }
        worst /= std::sqrt(ss / double(n));
        const double rel = testing::rel_rms(y, x);
        qInfo("%s%s: relative rms error %.4g, max abs error %.3g", type_name(type).data(),
              heavy_tailed ? " (t3)" : "", rel, worst);
        QVERIFY2(rel <= max_rel_rms, qPrintable(QString("relative rms error %1 > %2").arg(rel).arg(max_rel_rms)));
        QVERIFY2(worst <= max_abs, qPrintable(QString("max error %1 > %2").arg(worst).arg(max_abs)));
        // Deterministic: the same input gives the same bytes.
        std::vector<uint8_t> again(q.size());
        quantize_row(type, x.data(), again.data(), n);
        QVERIFY(again == q);
    }
    // Values on the type's own grid come back exactly: a zero block, then a block of
    // offset + step * (j % levels) (element 0 replaced by `first` when it is set).
    void round_trip_exact_grid_data() {
        QTest::addColumn<TensorType>("type");
        QTest::addColumn<float>("offset");
        QTest::addColumn<float>("step");
        QTest::addColumn<int>("levels");
        QTest::addColumn<float>("first");
        QTest::newRow("F16") << TensorType::F16 << -2.0f << 0.125f << 32 << 65504.0f;
        QTest::newRow("BF16") << TensorType::BF16 << -2.0f << 0.125f << 32 << 0x1p100f;
        QTest::newRow("Q8_0") << TensorType::Q8_0 << -1.0f << 0.0625f << 32 << 127 * 0.0625f;
        QTest::newRow("Q5_1") << TensorType::Q5_1 << -2.0f << 0.125f << 32 << 0.0f;
        QTest::newRow("Q5_0") << TensorType::Q5_0 << -2.0f << 0.125f << 32 << 0.0f;
        QTest::newRow("Q4_1") << TensorType::Q4_1 << -2.0f << 0.25f << 16 << 0.0f;
        QTest::newRow("Q4_0") << TensorType::Q4_0 << -2.0f << 0.25f << 16 << 0.0f;
    }
    void round_trip_exact_grid() {
        QFETCH(TensorType, type);
        QFETCH(float, offset);
        QFETCH(float, step);
        QFETCH(int, levels);
        QFETCH(float, first);
        std::vector<float> x(64, 0.0f);  // [2 blocks][32]
        for (int j = 0; j < 32; ++j) x[size_t(32 + j)] = offset + step * float(j % levels);
        if (first != 0.0f) x[32] = first;
        std::vector<uint8_t> q(row_bytes(type, 64));
        quantize_row(type, x.data(), q.data(), 64);
        std::vector<float> y(64);
        dequantize_row(type, q.data(), y.data(), 64);
        for (int j = 0; j < 64; ++j)
            QVERIFY2(y[size_t(j)] == x[size_t(j)],
                     qPrintable(QString("element %1: %2, expected %3").arg(j).arg(y[size_t(j)]).arg(x[size_t(j)])));
        // Non-finite input must not crash or hit undefined float-to-int conversions.
        x[3] = std::numeric_limits<float>::quiet_NaN();
        x[40] = std::numeric_limits<float>::infinity();
        x[41] = -std::numeric_limits<float>::infinity();
        quantize_row(type, x.data(), q.data(), 64);
        dequantize_row(type, q.data(), y.data(), 64);
    }

    // The super-block and IQ4 types: values on the format's own grid come back exactly. Block 0
    // is zero; in block 1, element j of group g takes level (7 j + g) % levels (level 0, the
    // lowest, at j = 0), times the group's scale d * code[g] (minus dmin * min_code[g] for the
    // types with a minimum). d and dmin are powers of two and the codes fit the format, so every
    // field holds them exactly; the largest code is the format's extreme, where the encoder
    // puts it.
    void round_trip_exact_superblock_data() {
        QTest::addColumn<TensorType>("type");
        QTest::addColumn<int>("group");
        QTest::addColumn<QList<float>>("levels");  // the values a quant stands for
        QTest::addColumn<float>("d");
        QTest::addColumn<int>("code0");  // code[g] = code0 + code_step * g
        QTest::addColumn<int>("code_step");
        QTest::addColumn<float>("dmin");  // 0: no minimum; else min code[g] = 63 - g (15 - g / 2 for Q2_K)
        auto ints = [](int lo, int hi) {
            QList<float> v;
            for (int q = lo; q <= hi; ++q) v << float(q);
            return v;
        };
        const QList<float> code = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};
        QTest::newRow("Q2_K") << TensorType::Q2_K << 16 << ints(0, 3) << 0.0625f << 15 << 0 << 0.03125f;
        QTest::newRow("Q3_K") << TensorType::Q3_K << 16 << ints(-4, 3) << 0.0625f << -32 << 3 << 0.0f;
        QTest::newRow("Q4_K") << TensorType::Q4_K << 32 << ints(0, 15) << 0.015625f << 63 << -2 << 0.03125f;
        QTest::newRow("Q5_K") << TensorType::Q5_K << 32 << ints(0, 31) << 0.015625f << 63 << -3 << 0.03125f;
        QTest::newRow("Q6_K") << TensorType::Q6_K << 16 << ints(-32, 31) << 0.00390625f << -128 << 13 << 0.0f;
        QTest::newRow("IQ4_NL") << TensorType::IQ4_NL << 32 << code << 0.125f << 1 << 0 << 0.0f;
        QTest::newRow("IQ4_XS") << TensorType::IQ4_XS << 32 << code << 0.015625f << -32 << 5 << 0.0f;
    }
    void round_trip_exact_superblock() {
        QFETCH(TensorType, type);
        QFETCH(int, group);
        QFETCH(QList<float>, levels);
        QFETCH(float, d);
        QFETCH(int, code0);
        QFETCH(int, code_step);
        QFETCH(float, dmin);
        const int n = 512;
        std::vector<float> x(size_t(n), 0.0f);  // [2 blocks][256]
        for (int e = 0; e < 256; ++e) {
            const int g = e / group, j = e % group;
            const int level = j == 0 ? 0 : (7 * j + g) % int(levels.size());
            const int min_code = type == TensorType::Q2_K ? 15 - g / 2 : 63 - g;
            const float block_d = type == TensorType::IQ4_NL ? d : d * float(code0 + code_step * g);
            x[size_t(256 + e)] = block_d * levels[level] - dmin * float(min_code);
        }
        std::vector<uint8_t> q(row_bytes(type, n));
        quantize_row(type, x.data(), q.data(), n);
        std::vector<float> y(static_cast<size_t>(n));
        dequantize_row(type, q.data(), y.data(), n);
        for (int e = 0; e < n; ++e)
            QVERIFY2(y[size_t(e)] == x[size_t(e)],
                     qPrintable(QString("element %1: %2, expected %3").arg(e).arg(y[size_t(e)]).arg(x[size_t(e)])));
        // Non-finite or huge input: no crash or undefined conversion, the other block intact.
        x[size_t(256 + 3)] = std::numeric_limits<float>::quiet_NaN();
        x[size_t(256 + 40)] = std::numeric_limits<float>::infinity();
        x[size_t(256 + 41)] = -std::numeric_limits<float>::infinity();
        x[size_t(256 + 77)] = 3e38f;
        quantize_row(type, x.data(), q.data(), n);
        dequantize_row(type, q.data(), y.data(), n);
        for (int e = 0; e < 256; ++e) QCOMPARE(y[size_t(e)], 0.0f);
    }

    // ---- errors ----
    void unsupported_types_throw_data() {
        QTest::addColumn<TensorType>("type");
        for (uint32_t id : all_known_ids())
            if (!is_supported(static_cast<TensorType>(id)))
                QTest::newRow(type_traits(id)->name.data()) << static_cast<TensorType>(id);
    }
    void unsupported_types_throw() {
        QFETCH(TensorType, type);
        const TypeTraits t = traits(type);
        std::vector<uint8_t> bytes(t.type_size * 2, 0);
        std::vector<float> out(t.block_size * 2);
        const std::string expected = "unsupported tensor type " + std::string(t.name);
        try {
            dequantize_row(type, bytes.data(), out.data(), int64_t(t.block_size) * 2);
            QFAIL("dequantize_row did not throw");
        } catch (const UnsupportedError& e) {
            QCOMPARE(QString(e.what()), QString::fromStdString(expected));
        }
        try {
            quantize_row(type, out.data(), bytes.data(), int64_t(t.block_size) * 2);
            QFAIL("quantize_row did not throw");
        } catch (const UnsupportedError& e) {
            QCOMPARE(QString(e.what()), QString::fromStdString(expected));
        }
        TensorInfo info;
        info.name = "w";
        info.type = type;
        info.ne = {int64_t(t.block_size) * 2, 1, 1, 1};
        info.n_bytes = bytes.size();
        info.data = bytes.data();
        QVERIFY_THROWS_EXCEPTION(UnsupportedError, dequantize(info));
    }
    void partial_block_rejected() {
        std::vector<uint8_t> bytes(64, 0);
        std::vector<float> out(64);
        QVERIFY_THROWS_EXCEPTION(UsageError, dequantize_row(TensorType::Q8_0, bytes.data(), out.data(), 33));
        QVERIFY_THROWS_EXCEPTION(UsageError, quantize_row(TensorType::Q4_0, out.data(), bytes.data(), 16));
        QVERIFY_THROWS_EXCEPTION(UsageError, dequantize_row(TensorType::F16, bytes.data(), out.data(), -1));
    }
    void inconsistent_tensor_rejected() {
        std::vector<uint8_t> bytes(34 * 4, 0);
        TensorInfo info;
        info.name = "blk.0.attn_q.weight";
        info.type = TensorType::Q8_0;
        info.ne = {64, 2, 1, 1};
        info.data = bytes.data();
        info.n_bytes = bytes.size();
        QCOMPARE(dequantize(info).size(), size_t(128));
        info.n_bytes = bytes.size() - 1;  // one byte short
        try {
            dequantize(info);
            QFAIL("a short tensor was accepted");
        } catch (const FormatError& e) {
            QVERIFY2(QString(e.what()).contains("blk.0.attn_q.weight"), e.what());
        }
        info.n_bytes = bytes.size();
        info.ne = {48, 2, 1, 1};  // not a whole number of blocks
        QVERIFY_THROWS_EXCEPTION(FormatError, dequantize(info));
        info.ne = {64, -2, 1, 1};
        QVERIFY_THROWS_EXCEPTION(FormatError, dequantize(info));
        info.ne = {64, int64_t(1) << 40, int64_t(1) << 40, 1};  // element count overflows
        QVERIFY_THROWS_EXCEPTION(FormatError, dequantize(info));
    }

    // ---- the quantized fixtures against their F32 original ----
    void fixture_matches_f32_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<TensorType>("type");
        QTest::addColumn<double>("bound");
        // Measured relative rms error over the tensors of each type (min .. max):
        // Q8_0 0.0053 .. 0.0055, Q4_1 0.0776 .. 0.0787, Q4_K 0.0704 .. 0.0716,
        // Q6_K 0.0178 .. 0.0180; the F32 norms are copied exactly. Broken decodes give
        // 0.37 (Q4_1 read as Q4_0) .. 19 (see fixture_broken_decode_fails).
        QTest::newRow("Q8_0 in Q8_0") << "fx-gqa-Q8_0.gguf" << TensorType::Q8_0 << kBoundQ8_0;
        QTest::newRow("F32 in Q8_0") << "fx-gqa-Q8_0.gguf" << TensorType::F32 << 0.0;
        QTest::newRow("Q4_1 in Q4_1") << "fx-gqa-Q4_1.gguf" << TensorType::Q4_1 << kBoundQ4_1;
        QTest::newRow("Q6_K in Q4_1") << "fx-gqa-Q4_1.gguf" << TensorType::Q6_K << kBoundQ6_K;
        QTest::newRow("F32 in Q4_1") << "fx-gqa-Q4_1.gguf" << TensorType::F32 << 0.0;
        QTest::newRow("Q4_K in Q4_K_M") << "fx-gqa-Q4_K_M.gguf" << TensorType::Q4_K << kBoundQ4_K;
        QTest::newRow("Q6_K in Q4_K_M") << "fx-gqa-Q4_K_M.gguf" << TensorType::Q6_K << kBoundQ6_K;
        QTest::newRow("F32 in Q4_K_M") << "fx-gqa-Q4_K_M.gguf" << TensorType::F32 << 0.0;
    }
    void fixture_matches_f32() {
        QFETCH(QString, file);
        QFETCH(TensorType, type);
        QFETCH(double, bound);
        const std::string path = testing::testdata_file("models/" + file.toStdString());
        const std::string f32 = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(path, "the quantized fixture");
        LMSCOPE_REQUIRE_FILE(f32, "fx-gqa.gguf");
        const FixtureError e = fixture_error(path, f32, type, nullptr);
        qInfo("%s %s: %d tensors, relative rms error %.4g .. %.4g (bound %.3g)",
              qPrintable(file), type_name(type).data(), e.n_tensors, e.min_rel, e.max_rel, bound);
        QVERIFY(e.n_tensors > 0);
        QVERIFY2(e.max_rel <= bound, qPrintable(QString("error %1 > bound %2").arg(e.max_rel).arg(bound)));
        if (type != TensorType::F32) QVERIFY(e.min_rel > 0);  // really quantized
    }
    // Our quantizer against the reference converter's: each tensor of `type` in the fixture
    // (made by llama.cpp from fx-gqa.gguf) is quantized again here from the F32 original, and
    // its error may exceed the reference's by at most `ratio`.
    void quantizer_matches_reference_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<TensorType>("type");
        QTest::addColumn<double>("ratio");
        // Measured ours / reference, per tensor (min .. max): Q8_0 1 .. 1 and Q4_1 1 .. 1 (the
        // same rounding), Q4_K 0.991 .. 0.997, Q6_K 0.940 .. 0.942.
        QTest::newRow("Q8_0") << "fx-gqa-Q8_0.gguf" << TensorType::Q8_0 << 1.001;
        QTest::newRow("Q4_1") << "fx-gqa-Q4_1.gguf" << TensorType::Q4_1 << 1.001;
        QTest::newRow("Q4_K") << "fx-gqa-Q4_K_M.gguf" << TensorType::Q4_K << 1.005;
        QTest::newRow("Q6_K") << "fx-gqa-Q4_K_M.gguf" << TensorType::Q6_K << 0.95;
    }
    void quantizer_matches_reference() {
        QFETCH(QString, file);
        QFETCH(TensorType, type);
        QFETCH(double, ratio);
        const std::string path = testing::testdata_file("models/" + file.toStdString());
        const std::string f32 = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(path, "the quantized fixture");
        LMSCOPE_REQUIRE_FILE(f32, "fx-gqa.gguf");
        const File q = File::open(path);
        const File f = File::open(f32);
        double lo = std::numeric_limits<double>::infinity(), hi = 0;
        for (const TensorInfo& t : q.tensors()) {
            if (t.type != type) continue;
            const std::vector<float> x = dequantize(f.tensor(t.name));
            const double reference = testing::rel_rms(dequantize(t), x);
            std::vector<uint8_t> bytes(row_bytes(type, t.ne[0]) * size_t(t.n_rows()));
            const size_t rb = row_bytes(type, t.ne[0]);
            for (int64_t r = 0; r < t.n_rows(); ++r)
                quantize_row(type, x.data() + r * t.ne[0], bytes.data() + size_t(r) * rb, t.ne[0]);
            TensorInfo ours = t;
            ours.data = bytes.data();
            const double r = testing::rel_rms(dequantize(ours), x) / reference;
            lo = std::min(lo, r);
            hi = std::max(hi, r);
        }
        qInfo("%s: our error / the reference converter's %.4g .. %.4g", type_name(type).data(), lo, hi);
        QVERIFY(hi > 0);
        QVERIFY2(hi <= ratio, qPrintable(QString("ours %1 x the reference's error > %2").arg(hi).arg(ratio)));
    }

    // Trained weights: SmolLM2's ffn_down matrices of layers 0, 14 and 29 (rows of 1536, as the
    // sample model stores them: Q4_1, decoded) quantized again to each type.
    void sample_model_weights_data() {
        QTest::addColumn<TensorType>("type");
        QTest::addColumn<double>("max_rel_rms");
        // Measured (max over the three, 3% margin in the bounds): Q8_0 0.0057, Q6_K 0.0163,
        // Q5_K 0.0167, Q5_0 0.0454, Q4_K 0.0171, IQ4_XS 0.0663, IQ4_NL 0.0653, Q4_0 0.0900,
        // Q3_K 0.149, Q2_K 0.276. Q4_K and Q5_K come out close because the values already sit on
        // Q4_1's grid (a scale and a minimum per 32), which their groups of 32 can hold.
        QTest::newRow("Q8_0") << TensorType::Q8_0 << 0.0059;
        QTest::newRow("Q6_K") << TensorType::Q6_K << 0.0168;
        QTest::newRow("Q5_K") << TensorType::Q5_K << 0.0172;
        QTest::newRow("Q5_0") << TensorType::Q5_0 << 0.0468;
        QTest::newRow("Q4_K") << TensorType::Q4_K << 0.0176;
        QTest::newRow("IQ4_XS") << TensorType::IQ4_XS << 0.0683;
        QTest::newRow("IQ4_NL") << TensorType::IQ4_NL << 0.0673;
        QTest::newRow("Q4_0") << TensorType::Q4_0 << 0.0927;
        QTest::newRow("Q3_K") << TensorType::Q3_K << 0.154;
        QTest::newRow("Q2_K") << TensorType::Q2_K << 0.284;
    }
    void sample_model_weights() {
        QFETCH(TensorType, type);
        QFETCH(double, max_rel_rms);
        const std::string path = testing::sample_model();
        LMSCOPE_REQUIRE_FILE(path, "the sample model");
        const File f = File::open(path);
        double worst = 0;
        for (const char* name : {"blk.0.ffn_down.weight", "blk.14.ffn_down.weight", "blk.29.ffn_down.weight"}) {
            const TensorInfo& t = f.tensor(name);
            const std::vector<float> x = dequantize(t);  // [rows][ne0]
            const int64_t n = int64_t(x.size());
            std::vector<uint8_t> q(row_bytes(type, n));
            quantize_row(type, x.data(), q.data(), n);
            std::vector<float> y(x.size());
            dequantize_row(type, q.data(), y.data(), n);
            worst = std::max(worst, testing::rel_rms(y, x));
        }
        qInfo("%s: relative rms error %.4g", type_name(type).data(), worst);
        QVERIFY2(worst <= max_rel_rms, qPrintable(QString("relative rms error %1 > %2").arg(worst).arg(max_rel_rms)));
    }

    // A decode with a known bug exceeds the bound above by a wide margin on every tensor.
    void fixture_broken_decode_fails_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<TensorType>("type");
        QTest::addColumn<QString>("mutation");
        QTest::addColumn<double>("bound");
        auto row = [](const char* file, TensorType t, const char* m, double bound) {
            QTest::newRow(m) << QString(file) << t << QString(m) << bound;
        };
        row("fx-gqa-Q8_0.gguf", TensorType::Q8_0, "Q8_0 scale doubled", kBoundQ8_0);
        row("fx-gqa-Q8_0.gguf", TensorType::Q8_0, "Q8_0 quants reversed", kBoundQ8_0);
        row("fx-gqa-Q4_1.gguf", TensorType::Q4_1, "Q4_1 nibbles swapped", kBoundQ4_1);
        row("fx-gqa-Q4_1.gguf", TensorType::Q4_1, "Q4_1 scale doubled", kBoundQ4_1);
        row("fx-gqa-Q4_1.gguf", TensorType::Q4_1, "Q4_1 read as Q4_0", kBoundQ4_1);
        row("fx-gqa-Q4_K_M.gguf", TensorType::Q4_K, "Q4_K nibbles swapped", kBoundQ4_K);
        row("fx-gqa-Q4_K_M.gguf", TensorType::Q4_K, "Q4_K d and dmin swapped", kBoundQ4_K);
        row("fx-gqa-Q4_K_M.gguf", TensorType::Q6_K, "Q6_K nibbles swapped", kBoundQ6_K);
        row("fx-gqa-Q4_K_M.gguf", TensorType::Q6_K, "Q6_K scale doubled", kBoundQ6_K);
    }
    void fixture_broken_decode_fails() {
        QFETCH(QString, file);
        QFETCH(TensorType, type);
        QFETCH(QString, mutation);
        QFETCH(double, bound);
        const std::string path = testing::testdata_file("models/" + file.toStdString());
        const std::string f32 = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(path, "the quantized fixture");
        LMSCOPE_REQUIRE_FILE(f32, "fx-gqa.gguf");
        const Mutation& m = mutations().at(mutation.toStdString());
        const FixtureError e = fixture_error(path, f32, type, &m);
        qInfo("%s: relative rms error %.3g .. %.3g (bound %.3g)", m.name, e.min_rel, e.max_rel, bound);
        QVERIFY(e.n_tensors > 0);
        QVERIFY2(e.min_rel > 3 * bound,
                 qPrintable(QString("a broken decode stays within %1 (error %2)").arg(3 * bound).arg(e.min_rel)));
    }
    void fixture_f16_finite() {
        const std::string path = testing::testdata_file("models/fx-mha-untied.gguf");
        LMSCOPE_REQUIRE_FILE(path, "fx-mha-untied.gguf");
        const File f = File::open(path);
        int n_f16 = 0;
        for (const TensorInfo& t : f.tensors()) {
            const std::vector<float> x = dequantize(t);
            QCOMPARE(int64_t(x.size()), t.n_elements());
            double ss = 0;
            for (float v : x) {
                if (!std::isfinite(v)) QFAIL(qPrintable(QString::fromStdString(t.name + ": non-finite value")));
                ss += double(v) * v;
            }
            QVERIFY2(ss > 0, t.name.c_str());
            n_f16 += t.type == TensorType::F16;
        }
        QCOMPARE(n_f16, 16);
        // The F16 output matrix decodes exactly: every value is a half.
        const std::vector<float> w = dequantize(f.tensor("output.weight"));
        for (size_t i = 0; i < w.size(); i += 97) QCOMPARE(fp16_to_fp32(fp32_to_fp16(w[i])), w[i]);
    }
};

QTEST_APPLESS_MAIN(TestGgufQuant)
#include "test_gguf_quant.moc"
