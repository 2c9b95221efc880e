// The fixture models' hyperparameters match the table in ../shared/testdata/README.md.
#include "common/testing.h"

#include "gguf/gguf.h"
#include "model/hparams.h"
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
};

QTEST_APPLESS_MAIN(TestHParamsFixtures)
#include "test_hparams_fixtures.moc"
