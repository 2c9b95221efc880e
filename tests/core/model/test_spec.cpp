// Model spec and weight binding on small GGUF models built in memory: llama (tied / separate
// head, GQA, Llama-3 rope_freqs), qwen2 (NeoX RoPE, q/k/v biases) and the layer plans of the
// other recipes (qwen3, gemma3, smollm3); every wrong shape, missing tensor or key and
// unsupported type is an error naming the tensor or key.
#include "gguf/gguf.h"
#include "model/spec.h"
#include "model/weights.h"
#include "util/error.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace lmscope;
using gguf::TensorType;
using gguf::Value;

Q_DECLARE_METATYPE(lmscope::gguf::TensorType)

namespace {

constexpr int kEmbd = 64, kHead = 2, kKv = 1, kHd = 32, kFf = 96, kLayer = 2, kVocab = 40;

struct Tiny {
    std::string arch = "llama";
    bool tied = true;
    bool rope_freqs = false;
    // name -> shape overrides / type overrides / tensors to drop
    std::map<std::string, std::vector<int64_t>> shape;
    std::map<std::string, TensorType> type;
    std::vector<std::string> drop;
    std::vector<std::string> extra;  // more [head_dim / 2] tensors (rope_factors_long.weight, ...)
    uint32_t head_kv = kKv;
    int n_layer = kLayer;
    std::map<std::string, Value> keys;  // extra metadata ({arch}. is prefixed)
};

// The bytes of a GGUF model of that description (F32 tensors filled with small values).
std::vector<uint8_t> build(const Tiny& t) {
    gguf::Writer w;
    const std::string a = t.arch;
    w.set("general.architecture", Value::string(a));
    auto u32 = [](uint32_t v) { return Value(Value::Scalar(v)); };
    w.set(a + ".block_count", u32(uint32_t(t.n_layer)));
    w.set(a + ".embedding_length", u32(kEmbd));
    w.set(a + ".feed_forward_length", u32(kFf));
    w.set(a + ".attention.head_count", u32(kHead));
    w.set(a + ".attention.head_count_kv", u32(t.head_kv));
    w.set(a + ".context_length", u32(128));
    w.set(a + ".attention.layer_norm_rms_epsilon", Value(Value::Scalar(1e-5f)));
    w.set(a + ".rope.freq_base", Value(Value::Scalar(10000.0f)));
    w.set(a + ".vocab_size", u32(kVocab));
    for (const auto& [k, v] : t.keys) w.set(a + "." + k, v);
    const bool qk_norm = a == "qwen3" || a == "gemma3", post_norms = a == "gemma3" || a == "gemma2";
    const bool fused = a == "phi3";

    std::vector<std::pair<std::string, std::vector<int64_t>>> tensors = {
        {"token_embd.weight", {kEmbd, kVocab}}, {"output_norm.weight", {kEmbd}}};
    if (!t.tied) tensors.push_back({"output.weight", {kEmbd, kVocab}});
    if (t.rope_freqs) tensors.push_back({"rope_freqs.weight", {kHd / 2}});
    for (const std::string& name : t.extra) tensors.push_back({name, {kHd / 2}});
    for (int l = 0; l < t.n_layer; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        tensors.push_back({b + "attn_norm.weight", {kEmbd}});
        if (fused) {
            tensors.push_back({b + "attn_qkv.weight", {kEmbd, (kHead + 2 * kKv) * kHd}});
        } else {
            tensors.push_back({b + "attn_q.weight", {kEmbd, kHead * kHd}});
            tensors.push_back({b + "attn_k.weight", {kEmbd, kKv * kHd}});
            tensors.push_back({b + "attn_v.weight", {kEmbd, kKv * kHd}});
        }
        tensors.push_back({b + "attn_output.weight", {kHead * kHd, kEmbd}});
        if (a == "qwen2") {
            tensors.push_back({b + "attn_q.bias", {kHead * kHd}});
            tensors.push_back({b + "attn_k.bias", {kKv * kHd}});
            tensors.push_back({b + "attn_v.bias", {kKv * kHd}});
        }
        if (qk_norm) {
            tensors.push_back({b + "attn_q_norm.weight", {kHd}});
            tensors.push_back({b + "attn_k_norm.weight", {kHd}});
        }
        if (post_norms) tensors.push_back({b + "post_attention_norm.weight", {kEmbd}});
        tensors.push_back({b + "ffn_norm.weight", {kEmbd}});
        if (fused) {
            tensors.push_back({b + "ffn_up.weight", {kEmbd, 2 * kFf}});
        } else {
            tensors.push_back({b + "ffn_gate.weight", {kEmbd, kFf}});
            tensors.push_back({b + "ffn_up.weight", {kEmbd, kFf}});
        }
        tensors.push_back({b + "ffn_down.weight", {kFf, kEmbd}});
        if (post_norms) tensors.push_back({b + "post_ffw_norm.weight", {kEmbd}});
    }
    for (auto& [name, ne] : tensors) {
        if (std::find(t.drop.begin(), t.drop.end(), name) != t.drop.end()) continue;
        if (auto it = t.shape.find(name); it != t.shape.end()) ne = it->second;
        const TensorType type = t.type.count(name) ? t.type.at(name) : TensorType::F32;
        int64_t n = 1;
        for (int64_t d : ne) n *= d;
        std::vector<float> values(size_t(n), name == "rope_freqs.weight" ? 2.0f : 0.01f);
        std::vector<uint8_t> bytes(gguf::row_bytes(type, ne[0]) * size_t(n / ne[0]));
        if (type == TensorType::F32) std::memcpy(bytes.data(), values.data(), bytes.size());
        w.add_tensor(name, type, ne, bytes.data(), bytes.size());
    }
    return w.to_bytes();
}

// Runs fn on the File of that model (kept alive meanwhile).
void with_file(const Tiny& t, const std::function<void(const gguf::File&)>& fn) {
    const std::vector<uint8_t> bytes = build(t);
    const gguf::File f = gguf::File::from_memory(bytes.data(), bytes.size(), "tiny.gguf");
    fn(f);
}

}  // namespace

class TestSpec : public QObject {
    Q_OBJECT

private slots:
    void llama_tied() {
        with_file(Tiny{}, [](const gguf::File& f) {
            const model::ModelSpec s = model::ModelSpec::from_file(f);
            QCOMPARE(s.arch.name, std::string_view("llama"));
            QCOMPARE(s.rope_style(), model::RopeStyle::Normal);
            QVERIFY(s.tied_output);
            QVERIFY(!s.arch.qkv_bias);
            QCOMPARE(s.n_group(), kHead / kKv);
            QCOMPARE(s.head_dim(), kHd);
            QCOMPARE(int(s.rope_inv_freq.size()), 1);
            QCOMPARE(int(s.rope_inv_freq[0].size()), kHd / 2);
            QCOMPARE(s.rope_inv_freq[0][0], 1.0f);
            QVERIFY(std::fabs(s.rope_inv_freq[0][1] - std::pow(10000.0f, -2.0f / kHd)) < 1e-7f);
            QCOMPARE(int(s.layers.size()), kLayer);
            QVERIFY(s.layers[1].rope && s.layers[1].window == 0 && s.layers[1].rope_table == 0);
            QCOMPARE(s.attn_scale, float(1.0 / std::sqrt(double(kHd))));
            QCOMPARE(s.embed_scale, 1.0f);
            const model::Weights w = model::Weights::bind(f, s);
            QCOMPARE(w.output, w.token_embd);
            QCOMPARE(int(w.layers.size()), kLayer);
            QCOMPARE(w.layers[1].wk->name, std::string("blk.1.attn_k.weight"));
            QVERIFY(w.layers[0].bq == nullptr);
        });
    }

    void llama_separate_head_and_rope_freqs() {
        Tiny t;
        t.tied = false;
        t.rope_freqs = true;
        with_file(t, [](const gguf::File& f) {
            const model::ModelSpec s = model::ModelSpec::from_file(f);
            QVERIFY(!s.tied_output);
            QVERIFY(s.has_rope_freqs);
            QCOMPARE(s.rope_inv_freq[0][0], 0.5f);  // factor 2 halves every frequency
            const model::Weights w = model::Weights::bind(f, s);
            QCOMPARE(w.output->name, std::string("output.weight"));
        });
    }

    void qwen2_biases_and_neox() {
        Tiny t;
        t.arch = "qwen2";
        with_file(t, [](const gguf::File& f) {
            const model::ModelSpec s = model::ModelSpec::from_file(f);
            QCOMPARE(s.arch.name, std::string_view("qwen2"));
            QCOMPARE(s.rope_style(), model::RopeStyle::NeoX);
            QVERIFY(s.arch.qkv_bias);
            const model::Weights w = model::Weights::bind(f, s);
            QCOMPARE(w.layers[0].bv->name, std::string("blk.0.attn_v.bias"));
        });
        t.drop = {"blk.1.attn_k.bias"};
        with_file(t, [](const gguf::File& f) {
            const model::ModelSpec s = model::ModelSpec::from_file(f);
            try {
                model::Weights::bind(f, s);
                QFAIL("a missing bias was accepted");
            } catch (const FormatError& e) {
                QCOMPARE(e.field(), std::string("blk.1.attn_k.bias"));
                QVERIFY2(e.reason().find("missing") != std::string::npos, e.what());
            }
        });
    }

    void qwen3_qk_norm() {
        Tiny t;
        t.arch = "qwen3";
        with_file(t, [](const gguf::File& f) {
            const model::ModelSpec s = model::ModelSpec::from_file(f);
            QVERIFY(s.arch.qk_norm && !s.arch.qkv_bias && s.neox());
            const model::Weights w = model::Weights::bind(f, s);
            QCOMPARE(w.layers[1].k_norm->name, std::string("blk.1.attn_k_norm.weight"));
            QVERIFY(w.layers[0].post_attn_norm == nullptr);
            QVERIFY2(model::recipe_text(s).find("QK-norm") != std::string::npos, model::recipe_text(s).c_str());
        });
        t.drop = {"blk.0.attn_q_norm.weight"};
        with_file(t, [](const gguf::File& f) {
            try {
                model::Weights::bind(f, model::ModelSpec::from_file(f));
                QFAIL("a missing QK-norm weight was accepted");
            } catch (const FormatError& e) {
                QCOMPARE(e.field(), std::string("blk.0.attn_q_norm.weight"));
                QVERIFY2(e.reason().find("missing tensor (expected shape [32])") != std::string::npos, e.what());
            }
        });
    }

    void phi3_fused_matrices() {
        Tiny t;
        t.arch = "phi3";
        with_file(t, [](const gguf::File& f) {
            const model::ModelSpec s = model::ModelSpec::from_file(f);
            QVERIFY(s.arch.fused_qkv && s.arch.fused_gate_up && s.neox());
            const model::Weights w = model::Weights::bind(f, s);
            QCOMPARE(w.layers[1].wqkv->name, std::string("blk.1.attn_qkv.weight"));
            QCOMPARE(w.layers[1].ffn_gate_up->name, std::string("blk.1.ffn_up.weight"));
            QVERIFY(w.layers[0].wq == nullptr && w.layers[0].ffn_gate == nullptr);
            const std::string text = model::recipe_text(s);
            QVERIFY2(text.find("fused q/k/v matrix") != std::string::npos && text.find("fused gate/up matrix") != std::string::npos,
                     text.c_str());
        });
        Tiny wrong = t;
        wrong.shape["blk.0.ffn_up.weight"] = {kEmbd, kFf};  // an unfused up matrix
        with_file(wrong, [](const gguf::File& f) {
            try {
                model::Weights::bind(f, model::ModelSpec::from_file(f));
                QFAIL("phi3's up matrix without its gate rows was accepted");
            } catch (const FormatError& e) {
                QCOMPARE(e.field(), std::string("blk.0.ffn_up.weight"));
                QVERIFY2(QString(e.what()).contains("expected [64, 192]"), e.what());
            }
        });
        Tiny longrope = t;
        longrope.extra = {"rope_factors_long.weight"};
        with_file(longrope, [](const gguf::File& f) {
            try {
                (void)model::ModelSpec::from_file(f);
                QFAIL("LongRoPE factors were accepted");
            } catch (const UnsupportedError& e) {
                QVERIFY2(QString(e.what()).contains("rope_factors_long.weight: long-context RoPE scaling (LongRoPE) is not supported"),
                         e.what());
            }
        });
    }

    void gemma2_softcap_and_windows() {
        Tiny t;
        t.arch = "gemma2";
        t.n_layer = 3;
        t.keys["attention.sliding_window"] = Value(Value::Scalar(uint32_t(8)));
        t.keys["attn_logit_softcapping"] = Value(Value::Scalar(50.0f));
        with_file(t, [](const gguf::File& f) {
            const model::ModelSpec s = model::ModelSpec::from_file(f);
            QCOMPARE(s.attn_softcap, 50.0f);
            QCOMPARE(s.rope_inv_freq.size(), size_t(1));  // local layers rotate like the global ones
            QCOMPARE(s.layers[0].window, 8);
            QCOMPARE(s.layers[1].window, 0);
            QCOMPARE(s.layers[2].window, 8);
            QCOMPARE(s.layers[2].rope_table, 0);
            QVERIFY(model::Weights::bind(f, s).layers[0].q_norm == nullptr);
            const std::string text = model::recipe_text(s);
            QVERIFY2(text.find("attention scores soft-capped at 50") != std::string::npos, text.c_str());
        });
        t.keys["attn_logit_softcapping"] = Value(Value::Scalar(-1.0f));
        with_file(t, [](const gguf::File& f) {
            try {
                (void)model::ModelSpec::from_file(f);
                QFAIL("a negative soft-cap was accepted");
            } catch (const FormatError& e) {
                QVERIFY2(QString(e.what()).contains("gemma2.attn_logit_softcapping"), e.what());
            }
        });
    }

    void gemma3_layer_plan_data() {
        QTest::addColumn<int>("pattern");  // 0: the key absent (the recipe's 6)
        QTest::addColumn<QString>("plan");  // per layer: L local (window, table 1), G global
        QTest::newRow("pattern 2") << 2 << "LG";
        QTest::newRow("pattern 1: all global") << 1 << "GG";
        QTest::newRow("default 6") << 0 << "LL";
    }
    // Local layers get the window and the local RoPE base; embeddings are scaled.
    void gemma3_layer_plan() {
        QFETCH(int, pattern);
        QFETCH(QString, plan);
        Tiny t;
        t.arch = "gemma3";
        t.keys["attention.sliding_window"] = Value(Value::Scalar(uint32_t(16)));
        t.keys["rope.freq_base_swa"] = Value(Value::Scalar(100.0f));
        if (pattern > 0) t.keys["attention.sliding_window_pattern"] = Value(Value::Scalar(uint32_t(pattern)));
        with_file(t, [&](const gguf::File& f) {
            const model::ModelSpec s = model::ModelSpec::from_file(f);
            QCOMPARE(int(s.rope_inv_freq.size()), 2);
            QCOMPARE(s.rope_inv_freq[1][1], float(std::pow(100.0, -2.0 / kHd)));
            QString got;
            for (const model::LayerPlan& p : s.layers) {
                QVERIFY(p.rope);
                got += p.window == 16 && p.rope_table == 1 ? "L" : p.window == 0 && p.rope_table == 0 ? "G" : "?";
            }
            QCOMPARE(got, plan);
            QCOMPARE(s.embed_scale, float(std::sqrt(double(kEmbd))));
            QCOMPARE(s.arch.ffn_act, model::FfnActivation::GeluTanh);
            const model::Weights w = model::Weights::bind(f, s);
            QCOMPARE(w.layers[1].post_ffn_norm->name, std::string("blk.1.post_ffw_norm.weight"));
        });
    }

    void gemma3_needs_its_window() {
        Tiny t;
        t.arch = "gemma3";
        with_file(t, [](const gguf::File& f) {
            try {
                (void)model::ModelSpec::from_file(f);
                QFAIL("gemma3 without a sliding window was accepted");
            } catch (const FormatError& e) {
                QCOMPARE(e.field(), std::string("gemma3.attention.sliding_window"));
                QCOMPARE(e.reason(), std::string("missing"));
            }
        });
    }

    void smollm3_nope_layers() {
        Tiny t;
        t.arch = "smollm3";
        t.n_layer = 8;
        with_file(t, [](const gguf::File& f) {
            const model::ModelSpec s = model::ModelSpec::from_file(f);
            QString got;  // layer il has no RoPE iff (il + 1) % 4 == 0
            for (const model::LayerPlan& p : s.layers) got += p.rope ? "R" : "-";
            QCOMPARE(got, QString("RRR-RRR-"));
            QVERIFY2(model::recipe_text(s).find("no RoPE on 2 of 8 layers") != std::string::npos,
                     model::recipe_text(s).c_str());
        });
    }

    void unsupported_architecture_names_the_supported() {
        Tiny t;
        t.arch = "mamba";
        with_file(t, [](const gguf::File& f) {
            try {
                (void)model::ModelSpec::from_file(f);
                QFAIL("mamba was accepted");
            } catch (const UnsupportedError& e) {
                QVERIFY2(QString(e.what()).contains("general.architecture: unsupported architecture 'mamba'"), e.what());
                QVERIFY2(QString(e.what()).contains("llama, qwen2, qwen3, gemma2, gemma3, smollm3 and phi3"), e.what());
            }
        });
    }

    void wrong_shapes_data() {
        QTest::addColumn<QString>("tensor");
        QTest::addColumn<QString>("shape");    // comma-separated
        QTest::addColumn<QString>("expected"); // text the error must hold
        QTest::newRow("k rows") << "blk.1.attn_k.weight" << "64,64" << "shape [64, 64], expected [64, 32]";
        QTest::newRow("q row length") << "blk.0.attn_q.weight" << "32,64" << "expected [64, 64]";
        QTest::newRow("ffn down") << "blk.0.ffn_down.weight" << "64,96" << "expected [96, 64]";
        QTest::newRow("norm rank") << "output_norm.weight" << "64,1" << "shape [64, 1], expected [64]";
        QTest::newRow("head rows") << "output.weight" << "64,39" << "shape [64, 39], expected [64, 40]";
    }
    void wrong_shapes() {
        QFETCH(QString, tensor);
        QFETCH(QString, shape);
        QFETCH(QString, expected);
        Tiny t;
        t.tied = false;
        std::vector<int64_t> ne;
        for (const QString& d : shape.split(',')) ne.push_back(d.toLongLong());
        t.shape[tensor.toStdString()] = ne;
        with_file(t, [&](const gguf::File& f) {
            try {
                const model::ModelSpec s = model::ModelSpec::from_file(f);
                model::Weights::bind(f, s);
                QFAIL("a wrong shape was accepted");
            } catch (const FormatError& e) {
                QCOMPARE(QString::fromStdString(e.field()), tensor);
                QVERIFY2(QString(e.what()).contains(expected), e.what());
                QVERIFY2(QString(e.what()).startsWith("tiny.gguf"), e.what());
            }
        });
    }

    void unsupported_tensor_type_data() {
        QTest::addColumn<TensorType>("type");
        QTest::newRow("Q8_1") << TensorType::Q8_1;
        QTest::newRow("MXFP4") << TensorType::MXFP4;  // (the tiny model's rows of 64 fit only 32-blocks)
    }
    void unsupported_tensor_type() {
        QFETCH(TensorType, type);
        Tiny t;
        t.type["blk.0.ffn_up.weight"] = type;
        with_file(t, [type](const gguf::File& f) {
            const model::ModelSpec s = model::ModelSpec::from_file(f);
            try {
                model::Weights::bind(f, s);
                QFAIL("an unsupported type was accepted");
            } catch (const UnsupportedError& e) {
                const QString expected = QString("tiny.gguf: blk.0.ffn_up.weight: tensor type %1 is not supported")
                                             .arg(QString::fromUtf8(gguf::type_name(type).data()));
                QVERIFY2(QString(e.what()) == expected, e.what());
            }
        });
    }
    // IQ4_NL weights bind (IQ4_XS needs rows of 256; the CLI tests run whole models of both).
    void iq4_nl_binds() {
        Tiny t;
        t.type["blk.0.ffn_up.weight"] = TensorType::IQ4_NL;
        with_file(t, [](const gguf::File& f) {
            const model::Weights w = model::Weights::bind(f, model::ModelSpec::from_file(f));
            QCOMPARE(w.layers[0].ffn_up->type, TensorType::IQ4_NL);
        });
    }

    void unsupported_architecture() {
        Tiny t;
        t.arch = "gpt2";
        with_file(t, [](const gguf::File& f) {
            QVERIFY_THROWS_EXCEPTION(UnsupportedError, model::ModelSpec::from_file(f));
        });
    }

    void inconsistent_heads() {
        Tiny t;
        t.head_kv = 3;  // does not divide 2 heads
        with_file(t, [](const gguf::File& f) {
            QVERIFY_THROWS_EXCEPTION(FormatError, model::ModelSpec::from_file(f));
        });
    }
};

QTEST_APPLESS_MAIN(TestSpec)
#include "test_spec.moc"
