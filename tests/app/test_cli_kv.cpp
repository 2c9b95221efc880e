// lmscope-cli kv: the Llama 3.1 70B figure through --preset, the JSON fields, the shape read
// from the sample model, and the usage errors (exit 2, one line naming the problem).
#include "common/testing.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

using lmscope::testing::CliRun;
using lmscope::testing::run_cli;

namespace {

QJsonObject run_json(const QStringList& args) {
    const CliRun r = run_cli(args + QStringList{"--json"});
    if (r.code != 0) qWarning() << "exit" << r.code << r.err;
    return QJsonDocument::fromJson(r.out).object();
}

}  // namespace

class TestCliKv : public QObject {
    Q_OBJECT

private slots:
    void llama_70b_at_128k_is_43_gb() {
        const QJsonObject j = run_json({"kv", "--preset", "llama-3.1-70b", "--ctx", "131072"});
        QCOMPARE(j["bytes"].toInteger(), 42949672960ll);
        QCOMPARE(j["bytes_per_token"].toInteger(), 327680ll);
        QCOMPARE(j["gib"].toDouble(), 40.0);
        QVERIFY(std::abs(j["gb"].toDouble() - 42.95) < 0.005);
        QCOMPARE(j["n_layer"].toInteger(), 80);
        QCOMPARE(j["n_head_kv"].toInteger(), 8);
        QCOMPARE(j["head_dim"].toInteger(), 128);
        QCOMPARE(j["kv_type"].toString(), QString("f16"));
        QCOMPARE(j["attention"].toString(), QString("GQA"));
        // The preset's own context is 128K, so --ctx can be left out.
        QCOMPARE(run_json({"kv", "--preset", "llama-3.1-70b"})["bytes"].toInteger(), 42949672960ll);
        const CliRun text = run_cli({"kv", "--preset", "llama-3.1-70b", "--ctx", "131072"});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("42,949,672,960 bytes"), text.out.constData());
        QVERIFY2(text.out.contains("42.95 GB = 40.00 GiB"), text.out.constData());
    }

    void storage_types_batch_and_explicit_shapes_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<qint64>("bytes");
        QTest::newRow("70b q8_0") << QStringList{"kv", "--preset", "llama-3.1-70b", "--kv-type", "q8_0"}
                                  << 22817013760ll;
        QTest::newRow("70b q4_0") << QStringList{"kv", "--preset", "llama-3.1-70b", "--kv-type", "q4_0"}
                                  << 12079595520ll;
        QTest::newRow("70b Q8_0 (any case)") << QStringList{"kv", "--preset", "llama-3.1-70b", "--kv-type", "Q8_0"}
                                             << 22817013760ll;
        QTest::newRow("llama-2-7b batch 4") << QStringList{"kv", "--preset", "llama-2-7b", "--batch", "4"}
                                            << 8589934592ll;
        QTest::newRow("explicit = 70b") << QStringList{"kv", "--layers", "80", "--kv-heads", "8", "--head-dim",
                                                       "128", "--ctx", "131072"}
                                        << 42949672960ll;
        // ARCHITECTURES.md: 3 x 32768 + 15 x 512 positions x 1 KiB = 103.5 MiB (not 576 MiB)
        QTest::newRow("gemma-3-270m 32K") << QStringList{"kv", "--preset", "gemma-3-270m"}
                                          << (3ll * 32768 + 15ll * 512) * 1024;
        QTest::newRow("explicit windows = gemma-3-270m")
            << QStringList{"kv", "--layers", "18", "--kv-heads", "1", "--head-dim", "256", "--window", "512",
                           "--local-layers", "15", "--ctx", "32768"}
            << (3ll * 32768 + 15ll * 512) * 1024;
        QTest::newRow("--window alone: every layer") << QStringList{"kv", "--layers", "4", "--kv-heads", "1", "--head-dim",
                                                                    "64", "--window", "16", "--ctx", "100"}
                                                     << 4ll * 16 * 256;
    }

    // A model's recipe gives its local layers: fx-gemma3 has 3 of 4 layers on a 16-token window.
    void windows_from_a_model() {
        const QString model = QString::fromStdString(lmscope::testing::testdata_file("models/fx-gemma3.gguf"));
        LMSCOPE_REQUIRE_FILE(model.toStdString(), "fx-gemma3");
        const QJsonObject j = run_json({"kv", "--model", model, "--ctx", "64"});
        QCOMPARE(j["n_layer"].toInteger(), 4);
        QCOMPARE(j["n_layer_local"].toInteger(), 3);
        QCOMPARE(j["window"].toInteger(), 16);
        QCOMPARE(j["positions_held"].toInteger(), 64 + 3 * 16);
        QCOMPARE(j["bytes"].toInteger(), j["positions_held"].toInteger() * 2 * 1 * 96 * 2);
        const CliRun text = run_cli({"kv", "--model", model, "--ctx", "64"});
        QVERIFY2(text.out.contains("1 global x 64 + 3 local x min(64, 16) = 112 layer-positions"), text.out.constData());
        // a model without windows says nothing of them
        const QJsonObject smol = run_json({"kv", "--preset", "smollm2-135m"});
        QCOMPARE(smol["n_layer_local"].toInteger(), 0);
        QVERIFY(smol["window"].isNull());
    }
    void storage_types_batch_and_explicit_shapes() {
        QFETCH(QStringList, args);
        QFETCH(qint64, bytes);
        QCOMPARE(run_json(args)["bytes"].toInteger(), bytes);
    }

    void list_presets() {
        const CliRun r = run_cli({"kv", "--list-presets", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonArray list = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(list.size(), 19);
        QStringList names;
        for (const auto& v : list) names << v.toObject()["name"].toString();
        for (const char* n : {"llama-2-7b", "llama-3.1-405b", "llama-3.2-1b", "mistral-7b", "qwen2.5-0.5b",
                              "smollm2-1.7b", "tinyllama-1.1b", "qwen3-0.6b", "gemma-3-270m", "gemma-3-1b", "gemma-3-4b"})
            QVERIFY2(names.contains(n), n);
        for (const auto& v : list)
            if (v.toObject()["name"].toString() == "gemma-3-1b") {
                QCOMPARE(v.toObject()["n_layer_local"].toInteger(), 22);
                QCOMPARE(v.toObject()["window"].toInteger(), 512);
            }
    }

    void shape_from_the_sample_model() {
        const std::string model = lmscope::testing::sample_model();
        LMSCOPE_REQUIRE_FILE(model, "the sample model");
        const QJsonObject j = run_json({"kv", "--model", QString::fromStdString(model), "--ctx", "1000"});
        QCOMPARE(j["source"].toString(), QString("model"));
        QCOMPARE(j["n_layer"].toInteger(), 30);
        QCOMPARE(j["n_head"].toInteger(), 9);
        QCOMPARE(j["n_head_kv"].toInteger(), 3);
        QCOMPARE(j["head_dim"].toInteger(), 64);
        QCOMPARE(j["bytes"].toInteger(), 23040000ll);  // 2 x 30 x 3 x 64 x 2 x 1000
        QCOMPARE(j["max_context"].toInteger(), 8192);
        QCOMPARE(j["n_params"].toInteger(), 134515008ll);  // same as the published count
    }

    void usage_errors_exit_2_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("no source") << QStringList{"kv"} << "exactly one shape source";
        QTest::newRow("preset and model") << QStringList{"kv", "--preset", "llama-2-7b", "--model", "m.gguf"}
                                          << "--preset and --model";
        QTest::newRow("preset and explicit")
            << QStringList{"kv", "--preset", "llama-2-7b", "--layers", "2", "--kv-heads", "2", "--head-dim", "64"}
            << "--preset and --layers";
        QTest::newRow("partial explicit") << QStringList{"kv", "--layers", "2", "--kv-heads", "2", "--ctx", "9"}
                                          << "missing --head-dim";
        QTest::newRow("explicit without ctx")
            << QStringList{"kv", "--layers", "2", "--kv-heads", "2", "--head-dim", "64"} << "--ctx";
        QTest::newRow("unknown preset") << QStringList{"kv", "--preset", "gpt-5"} << "unknown preset 'gpt-5'";
        QTest::newRow("bad kv type") << QStringList{"kv", "--preset", "llama-2-7b", "--kv-type", "q5_1"}
                                     << "--kv-type: 'q5_1' is not one of f16, q8_0, q4_0";
        QTest::newRow("ctx 0") << QStringList{"kv", "--preset", "llama-2-7b", "--ctx", "0"} << "--ctx";
        QTest::newRow("negative ctx") << QStringList{"kv", "--preset", "llama-2-7b", "--ctx", "-5"} << "'-5'";
        QTest::newRow("q4_0 head dim 100")
            << QStringList{"kv", "--layers", "2", "--kv-heads", "2", "--head-dim", "100", "--ctx", "9", "--kv-type",
                           "q4_0"}
            << "not a multiple";
        QTest::newRow("list with a source") << QStringList{"kv", "--list-presets", "--preset", "llama-2-7b"}
                                            << "--list-presets";
        QTest::newRow("window with a preset") << QStringList{"kv", "--preset", "llama-2-7b", "--window", "512"}
                                              << "describe an explicit shape";
        QTest::newRow("local layers without a window")
            << QStringList{"kv", "--layers", "4", "--kv-heads", "1", "--head-dim", "64", "--local-layers", "2", "--ctx", "9"}
            << "--local-layers needs --window";
        QTest::newRow("more local layers than layers")
            << QStringList{"kv", "--layers", "4", "--kv-heads", "1", "--head-dim", "64", "--window", "8",
                           "--local-layers", "5", "--ctx", "9"}
            << "5 local (sliding-window) layers exceed 4 layers";
    }
    void usage_errors_exit_2() {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        const CliRun r = run_cli(args);
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.isEmpty());
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(err.startsWith("lmscope-cli: error: ") && !err.contains('\n'), qPrintable(err));
        QVERIFY2(err.contains(mentions), qPrintable(err));
    }

    void missing_model_is_a_runtime_error() {
        const CliRun r = run_cli({"kv", "--model", "/nonexistent/model.gguf"});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("/nonexistent/model.gguf"));
    }
};

QTEST_APPLESS_MAIN(TestCliKv)
#include "test_cli_kv.moc"
