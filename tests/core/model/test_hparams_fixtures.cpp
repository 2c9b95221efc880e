// The fixture models' hyperparameters match the tables in ../shared/testdata/README.md, and the
// architecture fixtures get their recipe's layer plan (windows, RoPE bases, NoPE layers).
#include "common/testing.h"

#include "gguf/gguf.h"
#include "model/hparams.h"
#include "model/spec.h"
#include "model/summary.h"

using namespace lmscope;

class TestHParamsFixtures : public QObject {
    Q_OBJECT

private slots:
    void spec_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("n_embd");
        QTest::addColumn<int>("n_layer");
        QTest::addColumn<int>("n_head");
        QTest::addColumn<int>("n_head_kv");
        QTest::addColumn<int>("n_ff");
        QTest::addColumn<int>("head_dim");
        QTest::addColumn<QString>("file_type");
        QTest::newRow("fx-gqa") << "fx-gqa.gguf" << 256 << 3 << 8 << 2 << 512 << 32 << "F32";
        QTest::newRow("fx-gqa-Q8_0") << "fx-gqa-Q8_0.gguf" << 256 << 3 << 8 << 2 << 512 << 32 << "Q8_0";
        QTest::newRow("fx-gqa-Q4_1") << "fx-gqa-Q4_1.gguf" << 256 << 3 << 8 << 2 << 512 << 32 << "Q4_1";
        QTest::newRow("fx-gqa-Q4_K_M") << "fx-gqa-Q4_K_M.gguf" << 256 << 3 << 8 << 2 << 512 << 32 << "Q4_K_M";
        QTest::newRow("fx-mha-untied") << "fx-mha-untied.gguf" << 256 << 2 << 4 << 4 << 512 << 64 << "F16";
    }
    void spec() {
        QFETCH(QString, file);
        QFETCH(int, n_embd);
        QFETCH(int, n_layer);
        QFETCH(int, n_head);
        QFETCH(int, n_head_kv);
        QFETCH(int, n_ff);
        QFETCH(int, head_dim);
        QFETCH(QString, file_type);
        const std::string path = testing::testdata_file("models/" + file.toStdString());
        LMSCOPE_REQUIRE_FILE(path, "the fixture models");
        const gguf::File f = gguf::File::open(path);
        const model::HParams hp = model::HParams::from_file(f);
        QCOMPARE(hp.architecture, std::string("llama"));
        QCOMPARE(int(hp.n_embd), n_embd);
        QCOMPARE(int(hp.n_layer), n_layer);
        QCOMPARE(int(hp.n_head), n_head);
        QCOMPARE(int(hp.n_head_kv), n_head_kv);
        QCOMPARE(int(hp.n_ff), n_ff);
        QCOMPARE(int(hp.head_dim), head_dim);
        QCOMPARE(int(hp.n_vocab), 1024);
        QCOMPARE(int(hp.n_rot), head_dim);
        QCOMPARE(hp.rope_freq_base, 10000.0);
        QCOMPARE(float(hp.rms_eps), 1e-5f);
        QCOMPARE(hp.tokenizer_model, std::string("llama"));
        QVERIFY(hp.file_type.has_value());
        QCOMPARE(QString::fromStdString(std::string(model::file_type_name(*hp.file_type))), file_type);
        QCOMPARE(hp.kv_bytes_per_token_f16(), uint64_t(2) * n_layer * n_head_kv * head_dim * 2);

        const model::ModelSummary s = model::ModelSummary::of(f);
        QVERIFY(s.supported);
        QVERIFY(s.problems.empty());
        QCOMPARE(s.tensors.size(), f.tensors().size());
        uint64_t total = 0;
        for (const auto& t : f.tensors()) total += t.n_bytes;
        QCOMPARE(s.total_bytes, total);
    }

    void recipes_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("plan");    // per layer: R RoPE, - none, L local (window, local base)
        QTest::addColumn<QString>("recipe");  // words info prints
        QTest::newRow("qwen2") << "fx-qwen2" << "RRR" << "q/k/v biases, NeoX RoPE (base 1e+06), SwiGLU";
        QTest::newRow("qwen3") << "fx-qwen3" << "RRR" << "8 x 64 heads != 256, QK-norm, NeoX RoPE (base 1e+06), SwiGLU";
        QTest::newRow("gemma3") << "fx-gemma3" << "LLRL"
                                << "4 x 96 heads != 256, QK-norm, NeoX RoPE (base 1e+06), sliding window 16 on 3 of 4 "
                                   "layers (RoPE base 10000 there), post-attention and post-FFN norms, GeGLU (GELU "
                                   "tanh), embeddings x sqrt(256)";
        QTest::newRow("smollm3") << "fx-smollm3" << "RRR-"
                                 << "RoPE (adjacent pairs, base 5e+06), no RoPE on 1 of 4 layers, SwiGLU";
        QTest::newRow("llama3") << "fx-llama3" << "RRR" << "RoPE (adjacent pairs, base 500000), rope_freqs factors, SwiGLU";
        QTest::newRow("llama") << "fx-gqa" << "RRR" << "RoPE (adjacent pairs, base 10000), SwiGLU";
    }
    void recipes() {
        QFETCH(QString, file);
        QFETCH(QString, plan);
        QFETCH(QString, recipe);
        const std::string path = testing::testdata_file("models/" + file.toStdString() + ".gguf");
        LMSCOPE_REQUIRE_FILE(path, "the architecture fixtures");
        const gguf::File f = gguf::File::open(path);
        const model::ModelSpec spec = model::ModelSpec::from_file(f);
        QString got;
        for (const model::LayerPlan& p : spec.layers)
            got += !p.rope ? "-" : p.window > 0 && p.rope_table == 1 ? "L" : p.window == 0 && p.rope_table == 0 ? "R" : "?";
        QCOMPARE(got, plan);
        const model::ModelSummary s = model::ModelSummary::of(f);
        QCOMPARE(QString::fromStdString(s.recipe_text), recipe);
        QVERIFY(QString::fromStdString(s.to_text(false)).contains("recipe        " + recipe + "\n"));
        const nlohmann::json j = s.to_json();
        QCOMPARE(QString::fromStdString(j.at("recipe").get<std::string>()), recipe);
        QCOMPARE(j.at("layer_plan").size(), size_t(spec.n_layer()));
        for (size_t l = 0; l < spec.layers.size(); ++l) {
            const nlohmann::json& e = j["layer_plan"][l];
            QCOMPARE(e.at("window").get<int>(), spec.layers[l].window);
            QCOMPARE(e.at("rope").get<bool>(), spec.layers[l].rope);
            if (spec.layers[l].rope) QVERIFY(e.at("rope_base").get<double>() > 0);
            else QVERIFY(e.at("rope_base").is_null());
        }
    }
};

QTEST_APPLESS_MAIN(TestHParamsFixtures)
#include "test_hparams_fixtures.moc"
