// The KV panel's bytes come from the cache's storage, not from the formula: a session on a
// backend whose cache keeps a row too many (a test-only Backend around the CPU one, reporting
// the extra row's bytes for layer 0 as such a cache would) shows the red mark of a
// disagreement at every step in the KV chart; the same session on the plain backend none.
#include "common/testing.h"

#include "engine/cpu_backend.h"
#include "engine/prepared_model.h"
#include "engine/session.h"
#include "trace_adapter/trace_adapter.h"
#include "widgets/kv_chart.h"

#include <QtTest>

using namespace lmscope;

namespace {

// The CPU backend, but its cache keeps one row more in layer 0 than it was fed.
class RowTooMany final : public engine::Backend {
public:
    explicit RowTooMany(std::unique_ptr<engine::Backend> inner) : inner_(std::move(inner)) {}
    std::string name() const override { return inner_->name(); }
    const engine::Model& model() const override { return inner_->model(); }
    void forward(const engine::ForwardRequest& r) override { inner_->forward(r); }
    int32_t n_ctx() const override { return inner_->n_ctx(); }
    int32_t kv_tokens() const override { return inner_->kv_tokens(); }
    void kv_truncate(int32_t n) override { inner_->kv_truncate(n); }
    engine::KvStats kv_stats() const override {
        engine::KvStats s = inner_->kv_stats();
        const size_t row = s.bytes_per_token / s.layer_bytes.size();  // K and V of one position, one layer
        s.layer_bytes[0] += row;
        s.total_bytes += row;
        return s;
    }

private:
    std::unique_ptr<engine::Backend> inner_;
};

}  // namespace

class TestKvMeasured : public QObject {
    Q_OBJECT

private slots:
    void disagreement_shows_data() {
        QTest::addColumn<bool>("row_too_many");
        QTest::newRow("the cache as fed") << false;
        QTest::newRow("a row too many") << true;
    }
    void disagreement_shows() {
        QFETCH(bool, row_too_many);
        const std::string path = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(path, "../shared/testdata/models/fx-gqa.gguf");
        engine::PreparedModel pm = engine::prepare_model(path);
        std::unique_ptr<engine::Backend> backend = engine::make_cpu_backend(pm.model, {});
        if (row_too_many) backend = std::make_unique<RowTooMany>(std::move(backend));
        engine::Session session(*backend, *pm.tokenizer);
        session.prefill(std::vector<int32_t>{1, 2, 3, 4});
        session.decode();
        session.decode();
        const engine::KvStats kv = session.kv_stats();
        QCOMPARE(kv.total_bytes != kv.formula_bytes, row_too_many);

        widgets::TraceModel model;
        QVERIFY(app::load_trace(model, session.trace()));
        model.setCurrentStep(2);
        widgets::KvChart chart(&model);
        const QVector<double> want = row_too_many ? QVector<double>{4, 5, 6} : QVector<double>{};
        QCOMPARE(chart.viewState().disagree_tokens, want);
        QCOMPARE(chart.viewState().measured.back(), double(kv.total_bytes));
    }
};

QTEST_MAIN(TestKvMeasured)
#include "test_kv_measured.moc"
