// The model summary: JSON fields and the readable text, for a supported model and for a
// valid GGUF of another architecture (described, with unreadable counts as null).
#include "common/testing.h"

#include "gguf/gguf.h"
#include "model/summary.h"

using namespace lmscope;
using gguf::Value;

namespace {

Value u32(uint32_t v) { return Value(Value::Scalar(v)); }

}  // namespace

class TestSummary : public QObject {
    Q_OBJECT

private slots:
    void supported_model() {
        gguf::Writer w;
        w.set("general.architecture", Value::string("qwen2"));
        w.set("general.name", Value::string("mini"));
        w.set("general.file_type", u32(7));
        w.set("qwen2.block_count", u32(2));
        w.set("qwen2.context_length", u32(128));
        w.set("qwen2.embedding_length", u32(32));
        w.set("qwen2.feed_forward_length", u32(64));
        w.set("qwen2.attention.head_count", u32(4));
        w.set("qwen2.attention.head_count_kv", u32(1));
        w.set("qwen2.attention.layer_norm_rms_epsilon", Value(Value::Scalar(1e-6f)));
        w.set("qwen2.rope.freq_base", Value(Value::Scalar(1000000.0f)));
        w.set("tokenizer.ggml.model", Value::string("gpt2"));
        w.set("tokenizer.ggml.pre", Value::string("qwen2"));
        const std::vector<float> embd(32 * 5, 0.5f), norm(32, 1.0f);
        w.add_tensor("token_embd.weight", gguf::TensorType::F32, {32, 5}, embd.data(), embd.size() * 4);
        w.add_tensor("output_norm.weight", gguf::TensorType::F32, {32}, norm.data(), norm.size() * 4);
        const std::vector<uint8_t> bytes = w.to_bytes();
        const gguf::File f = gguf::File::from_memory(bytes.data(), bytes.size(), "mini.gguf");
        const model::ModelSummary s = model::ModelSummary::of(f);
        const nlohmann::json j = s.to_json();
        QCOMPARE(j["architecture"].get<std::string>(), std::string("qwen2"));
        QCOMPARE(j["name"].get<std::string>(), std::string("mini"));
        QCOMPARE(j["n_layer"].get<int>(), 2);
        QCOMPARE(j["n_embd"].get<int>(), 32);
        QCOMPARE(j["n_head"].get<int>(), 4);
        QCOMPARE(j["n_head_kv"].get<int>(), 1);
        QCOMPARE(j["head_dim"].get<int>(), 8);
        QCOMPARE(j["n_ff"].get<int>(), 64);
        QCOMPARE(j["n_vocab"].get<int>(), 5);
        QCOMPARE(j["context_length"].get<int>(), 128);
        QCOMPARE(j["rope_freq_base"].get<double>(), 1000000.0);
        QCOMPARE(j["rms_eps"].get<double>(), 1e-6);
        QCOMPARE(j["tokenizer_model"].get<std::string>(), std::string("gpt2"));
        QCOMPARE(j["tokenizer_pre"].get<std::string>(), std::string("qwen2"));
        QCOMPARE(j["file_type"]["id"].get<int>(), 7);
        QCOMPARE(j["file_type"]["name"].get<std::string>(), std::string("Q8_0"));
        QCOMPARE(j["kv_bytes_per_token_f16"].get<uint64_t>(), uint64_t(2 * 2 * 1 * 8 * 2));
        QCOMPARE(j["total_bytes"].get<uint64_t>(), uint64_t(32 * 5 * 4 + 32 * 4));
        QCOMPARE(j["gguf_version"].get<int>(), 3);
        QCOMPARE(j["n_metadata"].get<int>(), 13);
        QCOMPARE(j["n_tensors"].get<int>(), 2);
        QCOMPARE(j["supported"].get<bool>(), true);
        QVERIFY(j["problems"].empty());
        QCOMPARE(j["tensors"].size(), size_t(2));
        QCOMPARE(j["tensors"][0]["name"].get<std::string>(), std::string("token_embd.weight"));
        QCOMPARE(j["tensors"][0]["type"].get<std::string>(), std::string("F32"));
        QCOMPARE(j["tensors"][0]["shape"].get<std::vector<int64_t>>(), (std::vector<int64_t>{32, 5}));
        QCOMPARE(j["tensors"][0]["bytes"].get<uint64_t>(), uint64_t(640));

        const QString text = QString::fromStdString(s.to_text());
        QVERIFY2(text.contains("architecture  qwen2\n"), qPrintable(text));
        QVERIFY2(text.contains("4 query, 1 KV (MQA)"), qPrintable(text));
        QVERIFY2(text.contains("file type     Q8_0 (7)"), qPrintable(text));
        QVERIFY2(text.contains("F32: 2 tensors, 768 B"), qPrintable(text));
        QVERIFY2(text.contains("token_embd.weight   F32      [32, 5]"), qPrintable(text));
        QVERIFY(!QString::fromStdString(s.to_text(false)).contains("token_embd.weight"));
    }

    void other_architecture_described() {
        gguf::Writer w;
        w.set("general.architecture", Value::string("mamba"));
        w.set("mamba.block_count", u32(4));
        const std::vector<uint8_t> bytes = w.to_bytes();
        const gguf::File f = gguf::File::from_memory(bytes.data(), bytes.size(), "m.gguf");
        const model::ModelSummary s = model::ModelSummary::of(f);
        const nlohmann::json j = s.to_json();
        QCOMPARE(j["supported"].get<bool>(), false);
        QCOMPARE(j["n_layer"].get<int>(), 4);
        QVERIFY(j["n_embd"].is_null());
        QVERIFY(j["n_vocab"].is_null());
        QVERIFY(j["file_type"].is_null());
        QVERIFY(j["kv_bytes_per_token_f16"].is_null());
        QVERIFY(!j["problems"].empty());
        QVERIFY(QString::fromStdString(s.to_text()).contains("lmscope cannot run this model"));
    }

    void byte_formatting() {
        QCOMPARE(model::format_bytes(0), std::string("0 B"));
        QCOMPARE(model::format_bytes(1023), std::string("1023 B"));
        QCOMPARE(model::format_bytes(1536), std::string("1.5 KiB"));
        QCOMPARE(model::format_bytes(uint64_t(3) << 30), std::string("3.0 GiB"));
    }
};

QTEST_APPLESS_MAIN(TestSummary)
#include "test_summary.moc"
