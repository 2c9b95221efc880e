// Every GGUF file in ../shared/testdata (fixture models, peer vocabularies) opens cleanly, and
// its tensors lie inside the file in increasing, aligned, non-overlapping order.
#include "common/testing.h"

#include "gguf/gguf.h"
#include "util/error.h"

#include <filesystem>

using namespace lmscope;

class TestGgufFixtures : public QObject {
    Q_OBJECT

private slots:
    void opens_data() {
        QTest::addColumn<QString>("relative");
        QTest::addColumn<int>("n_tensors");
        QTest::newRow("fx-gqa") << "models/fx-gqa.gguf" << 29;
        QTest::newRow("fx-gqa-Q8_0") << "models/fx-gqa-Q8_0.gguf" << 29;
        QTest::newRow("fx-gqa-Q4_1") << "models/fx-gqa-Q4_1.gguf" << 29;
        QTest::newRow("fx-gqa-Q4_K_M") << "models/fx-gqa-Q4_K_M.gguf" << 29;
        QTest::newRow("fx-mha-untied") << "models/fx-mha-untied.gguf" << 21;
        for (const char* v : {"llama-spm", "gpt-2", "phi-3", "deepseek-coder", "falcon", "starcoder"})
            QTest::newRow(v) << QString("vocab/ggml-vocab-%1.gguf").arg(v) << 0;
    }
    void opens() {
        QFETCH(QString, relative);
        QFETCH(int, n_tensors);
        const std::string path = testing::testdata_file(relative.toStdString());
        LMSCOPE_REQUIRE_FILE(path, "the shared test data");
        const gguf::File f = gguf::File::open(path);
        QCOMPARE(f.version(), 3u);
        QCOMPARE(int(f.tensors().size()), n_tensors);
        QCOMPARE(f.file_size(), uint64_t(std::filesystem::file_size(path)));
        QVERIFY(f.has("tokenizer.ggml.model"));
        QVERIFY(f.array_size("tokenizer.ggml.tokens") > 0);
        uint64_t prev_end = 0;
        for (const gguf::TensorInfo& t : f.tensors()) {
            QVERIFY2(t.offset % f.alignment() == 0, t.name.c_str());
            QVERIFY2(t.offset >= prev_end, t.name.c_str());
            prev_end = t.offset + t.n_bytes;
            QVERIFY2(t.data + t.n_bytes <= f.bytes() + f.file_size(), t.name.c_str());
            QCOMPARE(t.n_bytes, uint64_t(gguf::row_bytes(t.type, t.ne[0]) * uint64_t(t.n_rows())));
        }
    }

    void fx_gqa_tensor_shapes() {
        const std::string path = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(path, "models/fx-gqa.gguf");
        const gguf::File f = gguf::File::open(path);
        QCOMPARE(f.get_string("general.architecture"), std::string("llama"));
        QCOMPARE(f.tensor("token_embd.weight").shape_string(), std::string("[256, 1024]"));
        QCOMPARE(f.tensor("blk.0.attn_k.weight").shape_string(), std::string("[256, 64]"));
        QCOMPARE(f.tensor("blk.2.ffn_up.weight").shape_string(), std::string("[256, 512]"));
        QCOMPARE(f.tensor("blk.0.attn_q.weight").type, gguf::TensorType::F32);
        QVERIFY_THROWS_EXCEPTION(FormatError, f.tensor("output.weight"));  // tied embeddings
    }
};

QTEST_APPLESS_MAIN(TestGgufFixtures)
#include "test_gguf_fixtures.moc"
