// The SmolLM2-135M sample model: its spec (30 layers, 576 wide, 9 heads / 3 KV heads, ...).
#include "common/testing.h"

#include "gguf/gguf.h"
#include "model/hparams.h"
#include "model/summary.h"

using namespace lmscope;

class TestHParamsModel : public QObject {
    Q_OBJECT

private slots:
    void smollm2_spec() {
        const std::string path = testing::sample_model();
        LMSCOPE_REQUIRE_FILE(path, "the sample model");
        const gguf::File f = gguf::File::open(path);
        const model::HParams hp = model::HParams::from_file(f);
        QCOMPARE(hp.architecture, std::string("llama"));
        QCOMPARE(hp.n_layer, 30u);
        QCOMPARE(hp.n_head, 9u);
        QCOMPARE(hp.n_head_kv, 3u);
        QCOMPARE(hp.n_vocab, 49152u);
        QCOMPARE(hp.n_embd, 576u);
        QCOMPARE(hp.head_dim, 64u);
        QCOMPARE(hp.n_ff, 1536u);
        QCOMPARE(hp.tokenizer_model, std::string("gpt2"));
        QCOMPARE(hp.file_type, std::optional<uint32_t>(3));
        QCOMPARE(hp.kv_bytes_per_token_f16(), uint64_t(2 * 30 * 3 * 64 * 2));
        const model::ModelSummary s = model::ModelSummary::of(f);
        QCOMPARE(s.tensors.size(), size_t(272));
        QCOMPARE(s.to_json()["file_type"]["name"].get<std::string>(), std::string("Q4_1"));
    }
};

QTEST_APPLESS_MAIN(TestHParamsModel)
#include "test_hparams_model.moc"
