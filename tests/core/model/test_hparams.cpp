// Hyperparameters from GGUF metadata: inconsistent or missing keys give errors naming the key,
// defaults and fallbacks apply where the format allows them, the tolerant path reads any arch.
#include "common/testing.h"

#include "gguf/gguf.h"
#include "model/hparams.h"
#include "util/error.h"

using namespace lmscope;
using gguf::Value;
using gguf::ValueType;

namespace {

// A consistent llama: 2 layers, width 64, 4 heads sharing 2 KV heads, vocab 10.
gguf::Writer base_writer() {
    gguf::Writer w;
    w.set("general.architecture", Value::string("llama"));
    w.set("general.name", Value::string("tiny"));
    w.set("general.file_type", Value(Value::Scalar(uint32_t(15))));
    w.set("llama.block_count", Value(Value::Scalar(uint32_t(2))));
    w.set("llama.context_length", Value(Value::Scalar(uint32_t(256))));
    w.set("llama.embedding_length", Value(Value::Scalar(uint32_t(64))));
    w.set("llama.feed_forward_length", Value(Value::Scalar(uint32_t(128))));
    w.set("llama.attention.head_count", Value(Value::Scalar(uint32_t(4))));
    w.set("llama.attention.head_count_kv", Value(Value::Scalar(uint32_t(2))));
    w.set("llama.attention.layer_norm_rms_epsilon", Value(Value::Scalar(1e-5f)));
    w.set("tokenizer.ggml.model", Value::string("llama"));
    std::vector<Value::Scalar> tokens;
    for (int i = 0; i < 10; ++i) tokens.emplace_back(std::string("t") + std::to_string(i));
    w.set("tokenizer.ggml.tokens", Value::array(ValueType::STRING, std::move(tokens)));
    return w;
}

// Applies "set KEY TYPE VALUE" or "del KEY" (a Writer cannot delete, so the file is rebuilt).
gguf::Writer mutated(const QString& mutation) {
    const QStringList p = mutation.split(' ');
    gguf::Writer base = base_writer();
    if (p[0] == "set") {
        const std::string key = p[1].toStdString();
        const QString type = p[2], v = p[3];
        if (type == "u32") base.set(key, Value(Value::Scalar(uint32_t(v.toUInt()))));
        else if (type == "u64") base.set(key, Value(Value::Scalar(uint64_t(v.toULongLong()))));
        else if (type == "i32") base.set(key, Value(Value::Scalar(int32_t(v.toInt()))));
        else if (type == "f32") base.set(key, Value(Value::Scalar(v.toFloat())));
        else if (type == "str") base.set(key, Value::string(v.toStdString()));
        return base;
    }
    // del: copy every pair but KEY into a new writer.
    const std::vector<uint8_t> bytes = base.to_bytes();
    const gguf::File f = gguf::File::from_memory(bytes.data(), bytes.size(), "m");
    gguf::Writer out;
    for (const auto& [k, val] : f.metadata())
        if (QString::fromStdString(k) != p[1]) out.set(k, val);
    return out;
}

model::HParams read(const gguf::Writer& w) {
    const std::vector<uint8_t> bytes = w.to_bytes();
    const gguf::File f = gguf::File::from_memory(bytes.data(), bytes.size(), "h.gguf");
    return model::HParams::from_file(f);
}

}  // namespace

class TestHParams : public QObject {
    Q_OBJECT

private slots:
    void consistent_base() {
        const model::HParams hp = read(base_writer());
        QCOMPARE(hp.architecture, std::string("llama"));
        QCOMPARE(hp.name, std::string("tiny"));
        QCOMPARE(hp.n_layer, 2u);
        QCOMPARE(hp.n_embd, 64u);
        QCOMPARE(hp.n_head, 4u);
        QCOMPARE(hp.n_head_kv, 2u);
        QCOMPARE(hp.head_dim, 16u);
        QCOMPARE(hp.n_ff, 128u);
        QCOMPARE(hp.n_vocab, 10u);
        QCOMPARE(hp.context_length, uint64_t(256));
        QCOMPARE(hp.rope_freq_base, 10000.0);
        QCOMPARE(hp.n_rot, 16u);
        QVERIFY(!hp.rope_scaling.has_value());
        QCOMPARE(float(hp.rms_eps), 1e-5f);
        QCOMPARE(hp.tokenizer_model, std::string("llama"));
        QCOMPARE(hp.file_type, std::optional<uint32_t>(15));
        QCOMPARE(model::file_type_name(*hp.file_type), std::string_view("Q4_K_M"));
        QCOMPARE(hp.kv_bytes_per_token_f16(), uint64_t(2 * 2 * 2 * 16 * 2));
    }

    void inconsistent_data() {
        QTest::addColumn<QString>("mutation");
        QTest::addColumn<QString>("message");
        QTest::addColumn<bool>("unsupported");
        QTest::newRow("zero heads") << "set llama.attention.head_count u32 0"
                                    << "h.gguf: llama.attention.head_count: zero attention heads" << false;
        QTest::newRow("heads not dividing width")
            << "set llama.attention.head_count u32 6"
            << "llama.attention.head_count: embedding length 64 is not a multiple of 6 heads" << false;
        QTest::newRow("kv heads not dividing heads")
            << "set llama.attention.head_count_kv u32 3"
            << "llama.attention.head_count_kv: 4 query heads are not a multiple of 3 KV heads" << false;
        QTest::newRow("zero kv heads") << "set llama.attention.head_count_kv u32 0"
                                       << "llama.attention.head_count_kv: zero KV heads" << false;
        QTest::newRow("missing block_count") << "del llama.block_count" << "h.gguf: llama.block_count: missing"
                                             << false;
        QTest::newRow("missing embedding_length") << "del llama.embedding_length"
                                                  << "llama.embedding_length: missing" << false;
        QTest::newRow("missing feed_forward_length") << "del llama.feed_forward_length"
                                                     << "llama.feed_forward_length: missing" << false;
        QTest::newRow("missing context_length") << "del llama.context_length" << "llama.context_length: missing"
                                                << false;
        QTest::newRow("missing head_count") << "del llama.attention.head_count"
                                            << "llama.attention.head_count: missing" << false;
        QTest::newRow("missing rms eps") << "del llama.attention.layer_norm_rms_epsilon"
                                         << "llama.attention.layer_norm_rms_epsilon: missing" << false;
        QTest::newRow("rms eps not positive") << "set llama.attention.layer_norm_rms_epsilon f32 0"
                                              << "layer_norm_rms_epsilon: must be in (0, 1)" << false;
        QTest::newRow("missing architecture") << "del general.architecture" << "general.architecture: missing"
                                              << false;
        QTest::newRow("missing vocabulary") << "del tokenizer.ggml.tokens"
                                            << "tokenizer.ggml.tokens: missing (and no token_embd.weight" << false;
        QTest::newRow("block_count is a string") << "set llama.block_count str two"
                                                 << "llama.block_count: is string, expected an integer" << false;
        QTest::newRow("block_count negative") << "set llama.block_count i32 -2"
                                              << "llama.block_count: value -2 is negative" << false;
        QTest::newRow("zero layers") << "set llama.block_count u32 0" << "llama.block_count: zero layers" << false;
        QTest::newRow("huge block_count") << "set llama.block_count u64 100000000000"
                                          << "llama.block_count: value 100000000000 exceeds the limit" << false;
        QTest::newRow("rope dims beyond head") << "set llama.rope.dimension_count u32 32"
                                               << "llama.rope.dimension_count: 32 rotated dimensions do not fit"
                                               << false;
        QTest::newRow("rope dims odd") << "set llama.rope.dimension_count u32 15"
                                       << "llama.rope.dimension_count: 15 rotated dimensions" << false;
        QTest::newRow("rope base zero") << "set llama.rope.freq_base f32 0" << "llama.rope.freq_base: must be positive"
                                        << false;
        QTest::newRow("unknown arch") << "set general.architecture str gpt2"
                                      << "h.gguf: general.architecture: unsupported architecture 'gpt2'" << true;
    }
    void inconsistent() {
        QFETCH(QString, mutation);
        QFETCH(QString, message);
        QFETCH(bool, unsupported);
        const gguf::Writer w = mutated(mutation);
        try {
            read(w);
            QFAIL("no error");
        } catch (const UnsupportedError& e) {
            QVERIFY2(unsupported, e.what());
            QVERIFY2(QString(e.what()).contains(message), e.what());
        } catch (const FormatError& e) {
            QVERIFY2(!unsupported, e.what());
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }

    void defaults_and_fallbacks() {
        // No head_count_kv: MHA. key_length gives head_dim even when the width does not divide.
        gguf::Writer w = mutated("del llama.attention.head_count_kv");
        w.set("llama.attention.head_count", Value(Value::Scalar(uint32_t(6))));
        w.set("llama.attention.key_length", Value(Value::Scalar(uint32_t(24))));
        w.set("llama.rope.freq_base", Value(Value::Scalar(500000.0f)));
        w.set("llama.rope.dimension_count", Value(Value::Scalar(uint32_t(16))));
        w.set("llama.rope.scaling.type", Value::string("linear"));
        w.set("llama.rope.scaling.factor", Value(Value::Scalar(4.0f)));
        w.set("llama.rope.scaling.original_context_length", Value(Value::Scalar(uint32_t(2048))));
        const model::HParams hp = read(w);
        QCOMPARE(hp.n_head_kv, 6u);
        QCOMPARE(hp.head_dim, 24u);
        QCOMPARE(hp.n_rot, 16u);
        QCOMPARE(hp.rope_freq_base, 500000.0);
        QVERIFY(hp.rope_scaling.has_value());
        QCOMPARE(hp.rope_scaling->type, std::string("linear"));
        QCOMPARE(hp.rope_scaling->factor, 4.0);
        QCOMPARE(hp.rope_scaling->original_context_length, uint64_t(2048));
        QCOMPARE(hp.kv_bytes_per_token_f16(), uint64_t(2 * 2 * 6 * 24 * 2));
    }

    void vocabulary_from_token_embd() {
        gguf::Writer w = mutated("del tokenizer.ggml.tokens");
        const std::vector<float> embd(64 * 7, 0.0f);
        w.add_tensor("token_embd.weight", gguf::TensorType::F32, {64, 7}, embd.data(), embd.size() * 4);
        QCOMPARE(read(w).n_vocab, 7u);
    }

    void qwen2_supported() {
        gguf::Writer w;
        const std::vector<uint8_t> bytes = base_writer().to_bytes();
        const gguf::File f = gguf::File::from_memory(bytes.data(), bytes.size(), "m");
        for (const auto& [k, v] : f.metadata()) {
            std::string key = k;
            if (key.rfind("llama.", 0) == 0) key = "qwen2." + key.substr(6);
            w.set(key, v);
        }
        w.set("general.architecture", Value::string("qwen2"));
        const model::HParams hp = read(w);
        QCOMPARE(hp.architecture, std::string("qwen2"));
        QCOMPARE(hp.n_head_kv, 2u);
    }

    // describe() reads any architecture and collects every problem instead of throwing.
    void tolerant_path() {
        gguf::Writer w;
        w.set("general.architecture", Value::string("gpt2"));
        w.set("gpt2.block_count", Value(Value::Scalar(uint32_t(12))));
        w.set("gpt2.embedding_length", Value(Value::Scalar(uint32_t(768))));
        w.set("gpt2.attention.head_count", Value(Value::Scalar(uint32_t(12))));
        w.set("gpt2.feed_forward_length", Value::string("wide"));
        std::vector<uint8_t> bytes = w.to_bytes();
        gguf::File f = gguf::File::from_memory(bytes.data(), bytes.size(), "g.gguf");
        std::vector<FormatError> problems;
        const model::HParams hp = model::HParams::describe(f, &problems);
        QCOMPARE(hp.n_layer, 12u);
        QCOMPARE(hp.head_dim, 64u);
        QCOMPARE(hp.n_ff, 0u);
        QVERIFY(!model::is_supported_architecture(hp.architecture));
        QStringList fields;
        for (const auto& p : problems) fields << QString::fromStdString(p.field());
        QCOMPARE(fields, (QStringList{"tokenizer.ggml.tokens", "gpt2.feed_forward_length", "gpt2.context_length"}));
        QVERIFY_THROWS_EXCEPTION(UnsupportedError, model::HParams::from_file(f));
    }

    void file_type_names() {
        QCOMPARE(model::file_type_name(0), std::string_view("F32"));
        QCOMPARE(model::file_type_name(1), std::string_view("F16"));
        QCOMPARE(model::file_type_name(3), std::string_view("Q4_1"));
        QCOMPARE(model::file_type_name(7), std::string_view("Q8_0"));
        QCOMPARE(model::file_type_name(32), std::string_view("BF16"));
        QCOMPARE(model::file_type_name(5), std::string_view("unknown"));
    }
};

QTEST_APPLESS_MAIN(TestHParams)
#include "test_hparams.moc"
