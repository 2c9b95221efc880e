// Backends by name: a KV offload budget reaches a backend registered with an offload tier and
// is refused, naming the backend, by one registered without (never silently ignored).
#include "engine/backend_factory.h"
#include "engine/cpu_backend.h"
#include "engine/model.h"
#include "util/error.h"

#include "engine_fixture.h"

#include <QtTest>

using namespace lmscope;

class TestBackendFactory : public QObject {
    Q_OBJECT
private slots:
    void offload_budget_data() {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<bool>("tier");
        QTest::addColumn<quint64>("budget");
        QTest::addColumn<bool>("refused");
        QTest::newRow("cpu, a budget") << "cpu" << true << quint64(1) << false;
        QTest::newRow("a tier, a budget") << "tiered" << true << quint64(1 << 20) << false;
        QTest::newRow("no tier, no budget") << "flat" << false << quint64(0) << false;
        QTest::newRow("no tier, a budget: refused") << "flat" << false << quint64(1 << 20) << true;
    }
    void offload_budget() {
        QFETCH(QString, backend);
        QFETCH(bool, tier);
        QFETCH(quint64, budget);
        QFETCH(bool, refused);
        const std::string path = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(path, "the fixture model");
        auto model = engine::Model::load(path);
        if (backend != "cpu") engine::register_backend(backend.toStdString(), engine::make_cpu_backend, tier);
        engine::BackendOptions o;
        o.kv_offload_bytes = budget;
        try {
            auto b = engine::make_backend(backend.toStdString(), model, o);
            QVERIFY2(!refused, "a budget the backend would not keep was accepted");
            QVERIFY(b);
        } catch (const UnsupportedError& e) {
            QVERIFY2(refused, e.what());
            QVERIFY2(QString(e.what()).contains(backend), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestBackendFactory)
#include "test_backend_factory.moc"
