// Requantizing a GGUF model (gguf/requantize.h): the targets, each tensor's planned type (the
// Q4_K_M mix against llama.cpp's own fixture files, the fallbacks on built files), the written
// file (metadata, copied tensors, errors against the F32 original, the same bytes for every
// thread count) and the refusals.
#include "common/testing.h"

#include "gguf/gguf.h"
#include "gguf/quant.h"
#include "gguf/requantize.h"
#include "util/error.h"

#include <QFile>
#include <QTemporaryDir>

#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace lmscope;
using namespace lmscope::gguf;

Q_DECLARE_METATYPE(lmscope::gguf::TensorType)

namespace {

// A small model-like file: F32 tensors of the given names and shapes (values from a fixed
// generator) and two metadata keys.
struct Built {
    std::vector<uint8_t> bytes;
    File file() const { return File::from_memory(bytes.data(), bytes.size(), "built.gguf"); }
};
Built build(const std::vector<std::pair<std::string, std::vector<int64_t>>>& tensors, uint32_t alignment = 32) {
    Writer w;
    w.set("general.architecture", Value::string("llama"));
    w.set("general.name", Value::string("built"));
    if (alignment != 32) w.set_alignment(alignment);
    std::mt19937 gen(3);
    std::normal_distribution<float> nd(0.0f, 0.02f);
    for (const auto& [name, ne] : tensors) {
        int64_t n = 1;
        for (int64_t d : ne) n *= d;
        std::vector<float> x(static_cast<size_t>(n));
        for (float& v : x) v = nd(gen);
        w.add_tensor(name, TensorType::F32, ne, x.data(), x.size() * sizeof(float));
    }
    return {w.to_bytes()};
}

TensorType planned(const std::vector<TensorPlan>& plan, const std::string& name) {
    for (const TensorPlan& p : plan)
        if (p.name == name) return p.to;
    throw Error("no tensor " + name + " in the plan");
}

}  // namespace

class TestGgufRequantize : public QObject {
    Q_OBJECT

private slots:
    void targets_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<TensorType>("base");
        QTest::addColumn<bool>("mix");
        QTest::addColumn<uint32_t>("file_type");  // llama.cpp's llama_ftype
        auto row = [](const char* n, TensorType t, bool mix, uint32_t ft) { QTest::newRow(n) << QString(n) << t << mix << ft; };
        row("F32", TensorType::F32, false, 0);
        row("F16", TensorType::F16, false, 1);
        row("BF16", TensorType::BF16, false, 32);
        row("Q8_0", TensorType::Q8_0, false, 7);
        row("Q6_K", TensorType::Q6_K, false, 18);
        row("Q5_K_M", TensorType::Q5_K, true, 17);
        row("Q5_K", TensorType::Q5_K, false, 16);
        row("Q5_1", TensorType::Q5_1, false, 9);
        row("Q5_0", TensorType::Q5_0, false, 8);
        row("Q4_K_M", TensorType::Q4_K, true, 15);
        row("Q4_K", TensorType::Q4_K, false, 14);
        row("Q4_1", TensorType::Q4_1, false, 3);
        row("Q4_0", TensorType::Q4_0, false, 2);
        row("IQ4_XS", TensorType::IQ4_XS, false, 30);
        row("IQ4_NL", TensorType::IQ4_NL, false, 25);
        row("Q3_K", TensorType::Q3_K, false, 11);
        row("Q2_K", TensorType::Q2_K, false, 10);
    }
    void targets() {
        QFETCH(QString, name);
        QFETCH(TensorType, base);
        QFETCH(bool, mix);
        QFETCH(uint32_t, file_type);
        for (const QString& spelled : {name, name.toLower()}) {
            const auto t = quant_target(spelled.toStdString());
            QVERIFY(t.has_value());
            QCOMPARE(QString::fromUtf8(t->name.data(), qsizetype(t->name.size())), name);
            QCOMPARE(t->base, base);
            QCOMPARE(t->mix, mix);
            QCOMPARE(t->file_type, file_type);
        }
        QVERIFY(QString::fromStdString(quant_target_names()).split(", ").contains(name));
    }
    void unknown_targets() {
        QCOMPARE(quant_targets().size(), size_t(17));
        for (const char* bad : {"", "Q4_K_X", "Q8_1", "IQ2_XXS", "Q4_K_S", "q4_k ", "Q4"})
            QVERIFY2(!quant_target(bad).has_value(), bad);
    }

    // Q4_K_M: the type of every tensor equals the one llama.cpp's quantizer gave the fixture
    // (made from the F32 fixture of the same name): the output / tied embedding in Q6_K,
    // attn_v and ffn_down in Q6_K in the use_more_bits layers, Q5_0 / Q8_0 where rows of 384
    // or 640 do not fit 256, norms and biases copied.
    void q4_k_m_matches_llama_cpp_data() {
        QTest::addColumn<QString>("model");
        for (const char* m : {"fx-gqa", "fx-gemma3", "fx-qwen2", "fx-qwen3", "fx-smollm3", "fx-llama3"}) QTest::newRow(m) << m;
    }
    void q4_k_m_matches_llama_cpp() {
        QFETCH(QString, model);
        const std::string f32 = testing::testdata_file("models/" + model.toStdString() + ".gguf");
        const std::string ref = testing::testdata_file("models/" + model.toStdString() + "-Q4_K_M.gguf");
        LMSCOPE_REQUIRE_FILE(f32, "the F32 fixture");
        LMSCOPE_REQUIRE_FILE(ref, "its Q4_K_M fixture");
        const File in = File::open(f32);
        const File expected = File::open(ref);
        const std::vector<TensorPlan> plan = plan_requantize(in, *quant_target("Q4_K_M"));
        QCOMPARE(plan.size(), expected.tensors().size());
        std::map<std::string, int> kinds;
        for (const TensorPlan& p : plan) {
            const TensorInfo& t = expected.tensor(p.name);
            QVERIFY2(p.to == t.type, qPrintable(QString::fromStdString(p.name + ": planned " + std::string(type_name(p.to)) +
                                                                      ", llama.cpp gave " + std::string(type_name(t.type)))));
            ++kinds[std::string(type_name(p.to))];
        }
        QVERIFY(kinds["Q6_K"] > 0 && kinds["Q4_K"] > 0 && kinds["F32"] > 0);
    }

    // The rules on a built file: rows of 256 take the wanted type, rows of 288 (a multiple of
    // 32, not of 256) the type's fallback, rows of 48 (not a multiple of 32) F16.
    void plan_rules_data() {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("tensor");
        QTest::addColumn<TensorType>("type");
        auto row = [](const char* target, const char* tensor, TensorType t) {
            QTest::newRow(qPrintable(QString("%1 %2").arg(target, tensor))) << QString(target) << QString(tensor) << t;
        };
        row("Q4_K", "blk.0.attn_q.weight", TensorType::Q4_K);
        row("Q4_K", "blk.1.ffn_up.weight", TensorType::Q5_0);
        row("Q4_K", "blk.0.ffn_down.weight", TensorType::F16);
        row("Q4_K", "token_embd.weight", TensorType::Q4_K);  // plain targets: no output rule
        row("Q4_K", "blk.0.attn_norm.weight", TensorType::F32);
        row("Q4_K", "blk.1.ssm_norm.weight", TensorType::F32);  // a 2-D norm stays
        row("Q4_K", "blk.1.ffn_gate_inp.weight", TensorType::F32);
        row("Q5_K", "blk.1.ffn_up.weight", TensorType::Q5_1);
        row("Q6_K", "blk.1.ffn_up.weight", TensorType::Q8_0);
        row("Q3_K", "blk.1.ffn_up.weight", TensorType::IQ4_NL);
        row("Q2_K", "blk.1.ffn_up.weight", TensorType::IQ4_NL);
        row("IQ4_XS", "blk.1.ffn_up.weight", TensorType::IQ4_NL);
        row("IQ4_XS", "blk.0.attn_q.weight", TensorType::IQ4_XS);
        row("Q8_0", "blk.0.ffn_down.weight", TensorType::F16);
        row("IQ4_NL", "blk.0.ffn_down.weight", TensorType::F16);
        row("BF16", "blk.0.ffn_down.weight", TensorType::BF16);
        row("Q4_K_M", "token_embd.weight", TensorType::Q6_K);  // tied: the output rule
        row("Q4_K_M", "blk.0.attn_v.weight", TensorType::Q6_K);  // layer 0 of 8: use_more_bits
        row("Q4_K_M", "blk.1.attn_v.weight", TensorType::Q4_K);
        row("Q4_K_M", "blk.3.attn_v.weight", TensorType::Q6_K);  // (3 - 1) % 3 == 2
        row("Q4_K_M", "blk.7.attn_v.weight", TensorType::Q6_K);  // the last eighth
        row("Q4_K_M", "blk.0.ffn_down.weight", TensorType::F16);  // Q6_K, then Q8_0, rows of 48
        row("Q4_K_M", "blk.1.attn_qkv.weight", TensorType::Q5_K);
        row("Q5_K_M", "blk.1.attn_qkv.weight", TensorType::Q6_K);
        row("Q5_K_M", "blk.1.ffn_up.weight", TensorType::Q5_1);
        row("Q5_K_M", "blk.1.attn_v.weight", TensorType::Q5_K);
    }
    void plan_rules() {
        QFETCH(QString, target);
        QFETCH(QString, tensor);
        QFETCH(TensorType, type);
        const Built b = build({{"token_embd.weight", {256, 16}},
                               {"blk.0.attn_norm.weight", {256}},
                               {"blk.0.attn_q.weight", {256, 4}},
                               {"blk.0.attn_v.weight", {256, 4}},
                               {"blk.0.ffn_down.weight", {48, 4}},
                               {"blk.1.attn_v.weight", {256, 4}},
                               {"blk.1.attn_qkv.weight", {256, 4}},
                               {"blk.1.ffn_up.weight", {288, 4}},
                               {"blk.1.ssm_norm.weight", {256, 2}},
                               {"blk.1.ffn_gate_inp.weight", {256, 4}},
                               {"blk.3.attn_v.weight", {256, 4}},
                               {"blk.7.attn_v.weight", {256, 4}}});
        const std::vector<TensorPlan> plan = plan_requantize(b.file(), *quant_target(target.toStdString()));
        QCOMPARE(planned(plan, tensor.toStdString()), type);
    }

    // Each plain target written and read back: metadata copied (file type and quantization
    // version set), 1-D tensors byte for byte, every matrix within its type's error against
    // the F32 original (bounds: the round trips of test_gguf_quant on normal data, with the
    // small matrices' margin), and the same bytes with 1 and 3 threads.
    void written_file_data() {
        QTest::addColumn<QString>("target");
        QTest::addColumn<double>("bound");
        // Measured (max over the matrices of fx-gqa): F16 2.1e-4, BF16 1.7e-3, Q8_0 5.5e-3, Q6_K 0.0170,
        // Q5_1 0.038, Q5_K 0.0360, Q5_0 0.0435, Q4_K 0.0716, Q4_1 0.0787, Q4_0 0.0874, IQ4_XS 0.0748,
        // IQ4_NL 0.0741, Q3_K 0.145, Q2_K 0.269.
        auto row = [](const char* t, double bound) { QTest::newRow(t) << QString(t) << bound; };
        row("F32", 0.0);
        row("F16", 2.5e-4);
        row("BF16", 2e-3);
        row("Q8_0", 6.5e-3);
        row("Q6_K", 0.0185);
        row("Q5_1", 0.042);
        row("Q5_K", 0.039);
        row("Q5_0", 0.047);
        row("Q4_K", 0.077);
        row("Q4_1", 0.085);
        row("Q4_0", 0.095);
        row("IQ4_XS", 0.08);
        row("IQ4_NL", 0.08);
        row("Q3_K", 0.155);
        row("Q2_K", 0.285);
    }
    void written_file() {
        QFETCH(QString, target);
        QFETCH(double, bound);
        const std::string f32 = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(f32, "fx-gqa.gguf");
        const File in = File::open(f32);
        const QuantTarget t = *quant_target(target.toStdString());
        QTemporaryDir dir;
        const QString a = dir.filePath("a.gguf"), b = dir.filePath("b.gguf");
        const RequantizeResult r = requantize(in, a.toStdString(), t, 1);
        QCOMPARE(r.plan.size(), in.tensors().size());
        const File out = File::open(a.toStdString());
        QCOMPARE(r.bytes_out + 0, [&] {
            uint64_t n = 0;
            for (const TensorInfo& x : out.tensors()) n += x.n_bytes;
            return n;
        }());
        for (const auto& [key, value] : in.metadata()) {
            const Value* got = out.find(key);
            QVERIFY2(got, key.c_str());
            if (key != "general.file_type") QCOMPARE(got->to_display(), value.to_display());
        }
        QCOMPARE(out.get_uint("general.file_type"), uint64_t(t.file_type));
        QCOMPARE(out.get_uint("general.quantization_version"), uint64_t(2));
        double worst = 0;
        for (const TensorInfo& x : out.tensors()) {
            const TensorInfo& src = in.tensor(x.name);
            QCOMPARE(x.ne, src.ne);
            if (x.n_dims == 1) {
                QCOMPARE(x.type, src.type);
                QVERIFY(std::memcmp(x.data, src.data, src.n_bytes) == 0);
                continue;
            }
            QCOMPARE(x.type, t.base);  // fx-gqa's rows (256, 512) fit every block
            worst = std::max(worst, testing::rel_rms(dequantize(x), dequantize(src)));
        }
        qInfo("%s: largest relative rms error of a matrix %.3g", qPrintable(target), worst);
        QVERIFY2(worst <= bound, qPrintable(QString("error %1 > %2").arg(worst).arg(bound)));
        requantize(in, b.toStdString(), t, 3);
        QVERIFY(testing::read_bytes(a.toStdString()) == testing::read_bytes(b.toStdString()));
    }

    // A quantized input is dequantized first; tensors already of the target type are copied.
    void quantized_input() {
        const std::string src = testing::testdata_file("models/fx-gqa-Q4_K_M.gguf");
        const std::string f32 = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(src, "fx-gqa-Q4_K_M.gguf");
        LMSCOPE_REQUIRE_FILE(f32, "fx-gqa.gguf");
        const File in = File::open(src);
        const File original = File::open(f32);
        QTemporaryDir dir;
        const std::string path = dir.filePath("q4k.gguf").toStdString();
        requantize(in, path, *quant_target("Q4_K"), 2);
        const File out = File::open(path);
        int copied = 0, requantized = 0;
        for (const TensorInfo& x : out.tensors()) {
            const TensorInfo& before = in.tensor(x.name);
            if (x.n_dims == 1) continue;
            QCOMPARE(x.type, TensorType::Q4_K);
            if (before.type == TensorType::Q4_K) {
                QVERIFY(std::memcmp(x.data, before.data, x.n_bytes) == 0);
                ++copied;
            } else {  // Q6_K -> Q4_K: about Q4_K's own error against the original
                const double e = testing::rel_rms(dequantize(x), dequantize(original.tensor(x.name)));
                QVERIFY2(e < 0.08, qPrintable(QString("%1: %2").arg(QString::fromStdString(x.name)).arg(e)));
                ++requantized;
            }
        }
        QCOMPARE(copied, 19);
        QCOMPARE(requantized, 3);
    }

    void alignment_kept() {
        const Built b = build({{"blk.0.attn_q.weight", {256, 4}}, {"blk.0.attn_norm.weight", {256}}}, 64);
        QTemporaryDir dir;
        const std::string path = dir.filePath("o.gguf").toStdString();
        requantize(b.file(), path, *quant_target("Q8_0"), 1);
        const File out = File::open(path);
        QCOMPARE(out.alignment(), uint64_t(64));
        QCOMPARE(out.get_uint("general.alignment"), uint64_t(64));
    }

    void refusals() {
        const std::string f32 = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(f32, "fx-gqa.gguf");
        QTemporaryDir dir;
        const QString copy = dir.filePath("in.gguf");
        QVERIFY(QFile::copy(QString::fromStdString(f32), copy));
        const std::vector<uint8_t> before = testing::read_bytes(copy.toStdString());
        const File in = File::open(copy.toStdString());
        QVERIFY_THROWS_EXCEPTION(UsageError, requantize(in, copy.toStdString(), *quant_target("Q4_0"), 1));
        QVERIFY(testing::read_bytes(copy.toStdString()) == before);
        QVERIFY_THROWS_EXCEPTION(IoError, requantize(in, dir.path().toStdString(), *quant_target("Q4_0"), 1));
        // A weight matrix of a type lmscope cannot read: refused, naming the tensor.
        Writer w;
        w.add_tensor("blk.0.attn_q.weight", TensorType::IQ2_XXS, {256, 2}, std::vector<uint8_t>(2 * 66, 0));
        const std::vector<uint8_t> bytes = w.to_bytes();
        const File bad = File::from_memory(bytes.data(), bytes.size(), "iq2.gguf");
        try {
            plan_requantize(bad, *quant_target("Q4_K"));
            QFAIL("an IQ2_XXS matrix was accepted");
        } catch (const UnsupportedError& e) {
            QVERIFY2(QString(e.what()).contains("iq2.gguf: tensor 'blk.0.attn_q.weight': type IQ2_XXS"), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestGgufRequantize)
#include "test_gguf_requantize.moc"
