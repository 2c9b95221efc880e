// lmscope-cli dump: the fixture models' reference sequences (every architecture), written in
// the reference layouts and compared with the reference files; hook points written as .npy and
// heads switched off; bench --json fields; --kv-offload (the same bytes, bench's tiers); usage
// and runtime errors.
#include "common/testing.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

using namespace lmscope::testing;

class TestCliDump : public QObject {
    Q_OBJECT

private slots:
    void dump_matches_reference_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<double>("max_rms");
        QTest::addColumn<double>("max_kl");
        QTest::addColumn<double>("max_attn");
        QTest::newRow("fx-gqa") << "fx-gqa" << 0.01 << 1e-4 << 0.001;
        QTest::newRow("fx-mha-untied") << "fx-mha-untied" << 0.01 << 1e-4 << 0.001;
        QTest::newRow("fx-gqa-Q8_0") << "fx-gqa-Q8_0" << 0.06 << 1e-2 << 0.025;
        QTest::newRow("fx-gqa-Q4_1") << "fx-gqa-Q4_1" << 0.06 << 1e-2 << 0.025;
        // both sides round the activations to 8 bits, each its own way (as below)
        QTest::newRow("fx-gqa-Q4_K_M") << "fx-gqa-Q4_K_M" << 0.06 << 1e-2 << 0.03;
        for (const char* arch : {"fx-qwen2", "fx-qwen3", "fx-gemma3", "fx-smollm3", "fx-llama3"}) {
            QTest::newRow(arch) << arch << 0.01 << 1e-4 << 0.001;
            // the reference's 8-bit activations put its attention up to 0.028 off on Q4_K_M
            QTest::newRow(qPrintable(QString(arch) + "-Q4_K_M")) << QString(arch) + "-Q4_K_M" << 0.06 << 1e-2 << 0.03;
        }
    }
    void dump_matches_reference() {
        QFETCH(QString, model);
        QFETCH(double, max_rms);
        QFETCH(double, max_kl);
        QFETCH(double, max_attn);
        const std::string m = model.toStdString();
        const std::string gguf = testdata_file("models/" + m + ".gguf");
        const std::string json = testdata_file("reference/" + m + ".s1.json");
        LMSCOPE_REQUIRE_FILE(gguf, "the fixture model");
        LMSCOPE_REQUIRE_FILE(json, "the reference run");
        std::ifstream in(json);
        const nlohmann::json j = nlohmann::json::parse(in);
        QStringList ids;
        for (int id : j.at("prompt_tokens").get<std::vector<int>>()) ids << QString::number(id);
        const size_t n_vocab = j.at("n_vocab").get<size_t>();

        QTemporaryDir dir;
        const QString logits = dir.filePath("logits.f32"), attn = dir.filePath("attn.f32");
        const CliRun r = run_cli({"dump", QString::fromStdString(gguf), "--ids", ids.join(','), "--logits", logits,
                               "--attention", attn, "--threads", "2"});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto got_logits = read_f32_file(logits.toStdString());
        const auto ref_logits = read_f32_file(testdata_file("reference/" + m + ".s1.logits.f32"));
        const auto got_attn = read_f32_file(attn.toStdString());
        const auto ref_attn = read_f32_file(testdata_file("reference/" + m + ".s1.attn.f32"));
        QCOMPARE(got_logits.size(), ref_logits.size());
        QCOMPARE(got_attn.size(), ref_attn.size());
        const CompareResult c = compare(got_logits, ref_logits, 1e30, 0.0);
        const double rms = c.rms / c.expected_std;
        const double kl = mean_kl_rows(got_logits, ref_logits, n_vocab);
        const CompareResult a = compare(got_attn, ref_attn, max_attn, 0.0);
        qInfo("%s: rms/std %.3g, KL %.3g, max |d attention| %.3g", qPrintable(model), rms, kl, a.max_abs);
        QVERIFY2(rms <= max_rms, qPrintable(QString("rms/std %1").arg(rms)));
        QVERIFY2(kl <= max_kl, qPrintable(QString("KL %1").arg(kl)));
        LMSCOPE_VERIFY_CLOSE(a);
    }

    // --hooks NAME,... --out DIR: one float32 .npy per hook (numpy's format 1.0, the header
    // padded to 64 bytes), the shapes of trace/hooks.h; --ablate changes the logits.
    void hooks_as_npy() {
        const std::string gguf = testdata_file("models/fx-gemma3.gguf");
        LMSCOPE_REQUIRE_FILE(gguf, "the fixture model");
        QTemporaryDir dir;
        const QString out = dir.filePath("hooks");
        const CliRun r = run_cli({"dump", QString::fromStdString(gguf), "--ids", "1,5,9,200,7", "--hooks",
                                  "blk.1.q,blk.0.scores,blk.3.mlp_act,logits", "--out", out, "--logits",
                                  dir.filePath("l.f32")});
        QVERIFY2(r.code == 0, r.err.constData());
        const struct {
            const char* name;
            const char* shape;
            size_t count;
        } want[] = {{"blk.1.q", "(5, 4, 96)", 5 * 4 * 96}, {"blk.0.scores", "(4, 5, 5)", 4 * 5 * 5},
                    {"blk.3.mlp_act", "(5, 512)", 5 * 512}, {"logits", "(5, 1024)", 5 * 1024}};
        for (const auto& w : want) {
            QFile f(out + "/" + w.name + ".npy");
            QVERIFY2(f.open(QIODevice::ReadOnly), w.name);
            const QByteArray bytes = f.readAll();
            QVERIFY(bytes.startsWith(QByteArray("\x93NUMPY\x01\x00", 8)));
            const size_t header = 10 + size_t(uint8_t(bytes[8])) + 256 * size_t(uint8_t(bytes[9]));
            QCOMPARE(header % 64, size_t(0));
            const QByteArray dict = bytes.mid(10, int(header) - 10);
            QVERIFY2(dict.contains("'descr': '<f4'") && dict.contains("'fortran_order': False"), dict.constData());
            QVERIFY2(dict.contains(QByteArray("'shape': ") + w.shape), dict.constData());
            QVERIFY(dict.endsWith('\n'));
            QCOMPARE(size_t(bytes.size()), header + w.count * 4);
        }
        // the logits hook holds the --logits file's values
        QFile lf(out + "/logits.npy");
        QVERIFY(lf.open(QIODevice::ReadOnly));
        const QByteArray npy = lf.readAll();
        QFile raw(dir.filePath("l.f32"));
        QVERIFY(raw.open(QIODevice::ReadOnly));
        QCOMPARE(npy.right(5 * 1024 * 4), raw.readAll());
        // a head switched off moves the logits
        const CliRun a = run_cli({"dump", QString::fromStdString(gguf), "--ids", "1,5,9,200,7", "--ablate", "2:1,0:3",
                                  "--logits", dir.filePath("ablated.f32")});
        QVERIFY2(a.code == 0, a.err.constData());
        QVERIFY(read_f32_file(dir.filePath("ablated.f32").toStdString()) != read_f32_file(dir.filePath("l.f32").toStdString()));
    }

    void bench_json_fields() {
        const std::string gguf = testdata_file("models/fx-gqa-Q4_1.gguf");
        LMSCOPE_REQUIRE_FILE(gguf, "the fixture model");
        const CliRun r = run_cli({"bench", QString::fromStdString(gguf), "-p", "16", "-n", "8", "-r", "1",
                               "--capture", "full", "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        for (const char* k : {"prefill_tok_s", "decode_tok_s", "peak_rss_bytes", "kv_bytes"})
            QVERIFY2(o.value(k).toDouble() > 0, k);
        QCOMPARE(o.value("capture").toString(), QString("full"));
        QCOMPARE(o.value("kv_tokens").toInt(), 24);
        // 3 layers x 2 kv heads x 24 tokens x (K + V) x 32 values x 2 bytes
        QCOMPARE(o.value("kv_bytes").toDouble(), 3.0 * 2 * 24 * 2 * 32 * 2);
        // the decode ceiling: the measured bandwidth over the weights and the cache read a token
        const double bw = o.value("bandwidth_gb_s").toDouble(), ceiling = o.value("decode_ceiling_tok_s").toDouble();
        const double weights = o.value("decode_weight_bytes").toDouble(), kv = o.value("decode_kv_bytes").toDouble();
        QVERIFY(bw > 0.1);
        QVERIFY(weights > 0.5 * o.value("model_file_bytes").toDouble() && weights <= o.value("model_file_bytes").toDouble());
        QCOMPARE(kv, (3.0 * 2 * 16 * 2 * 32 * 2 + 3.0 * 2 * 23 * 2 * 32 * 2) / 2);  // mean of 16 and 23 tokens held
        QVERIFY(std::abs(ceiling - bw * 1e9 / (weights + kv)) <= 1e-6 * ceiling);
        QVERIFY(std::abs(o.value("decode_fraction_of_ceiling").toDouble() - o.value("decode_tok_s").toDouble() / ceiling) <= 1e-9);
    }

    // Full capture keeps the prefill's planes within the trace budget, as a session does: 24
    // planes of 400 x 400 floats (625 KiB each) are 15 MiB; a 4 MiB budget keeps 6 of them.
    void bench_capture_within_budget() {
        const std::string gguf = testdata_file("models/fx-gqa-Q4_1.gguf");
        LMSCOPE_REQUIRE_FILE(gguf, "the fixture model");
        for (const auto& [budget, kept] : {std::pair{"4", 6}, std::pair{"512", 24}}) {
            const CliRun r = run_cli({"bench", QString::fromStdString(gguf), "-p", "400", "-n", "2", "-r", "1",
                                      "--capture", "full", "--trace-budget", budget, "--json"});
            QVERIFY2(r.code == 0, r.err.constData());
            const QJsonObject o = QJsonDocument::fromJson(r.out).object();
            QCOMPARE(o.value("planes_total").toInt(), 24);
            QCOMPARE(o.value("planes_kept").toInt(), kept);
            QCOMPARE(o.value("trace_budget_bytes").toDouble(), QString(budget).toDouble() * 1048576.0);
        }
        const CliRun text = run_cli({"bench", QString::fromStdString(gguf), "-p", "400", "-n", "2", "-r", "1",
                                     "--capture", "full", "--trace-budget", "4"});
        QVERIFY2(text.out.contains("6 of 24 kept within the 4 MiB trace budget"), text.out.constData());
    }

    // -d N: the prompt and decode run after N tokens already in the cache (fed again each run
    // when a sliding window forgot them); fx-gemma3's three local layers hold 16 of them.
    void bench_at_depth() {
        const std::string gguf = testdata_file("models/fx-gemma3.gguf");
        LMSCOPE_REQUIRE_FILE(gguf, "the fixture model");
        const CliRun r = run_cli({"bench", QString::fromStdString(gguf), "-d", "100", "-p", "16", "-n", "8", "-r", "2",
                                  "--json"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value("depth").toInt(), 100);
        QCOMPARE(o.value("kv_tokens").toInt(), 124);
        // 1 global layer x 124 + 3 local x 16 positions, 2 (K, V) x 1 kv head x 96 x 2 bytes each
        QCOMPARE(o.value("kv_bytes").toDouble(), (124.0 + 3 * 16) * 2 * 96 * 2);
        QVERIFY(o.value("decode_tok_s").toDouble() > 0);
        const CliRun text = run_cli({"bench", QString::fromStdString(gguf), "-d", "100", "-p", "16", "-n", "8", "-r", "1"});
        QVERIFY2(text.out.contains("16 tokens at depth 100:"), text.out.constData());
        QVERIFY2(text.out.contains("decode reached"), text.out.constData());
        const CliRun too_deep = run_cli({"bench", QString::fromStdString(gguf), "-d", "1020", "-p", "16", "-n", "8"});
        QCOMPARE(too_deep.code, 2);
        QVERIFY2(too_deep.err.contains("-d + -p + -n = 1044 exceeds the model's context of 1024"), too_deep.err.constData());
    }

    void dump_with_kv_offload_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("fx-gqa (grouped heads)") << "fx-gqa";
        QTest::newRow("fx-gqa-Q8_0") << "fx-gqa-Q8_0";
        QTest::newRow("fx-gemma3 (sliding windows)") << "fx-gemma3";
    }
    // --kv-offload with a budget of a page a global layer: the older pages go through the file
    // within the one prefill step; the logits and attention are byte-equal to those without.
    void dump_with_kv_offload() {
        QFETCH(QString, model);
        const std::string gguf = testdata_file("models/" + model.toStdString() + ".gguf");
        LMSCOPE_REQUIRE_FILE(gguf, "the fixture model");
        QStringList ids;
        for (int i = 0; i < 300; ++i) ids << QString::number((i * 37) % 200 + 3);
        QTemporaryDir dir;
        auto dump = [&](const QString& tag, const QStringList& extra) {
            const CliRun r = run_cli(QStringList{"dump", QString::fromStdString(gguf), "--ids", ids.join(','), "--logits",
                                                 dir.filePath(tag + ".logits"), "--attention", dir.filePath(tag + ".attn"),
                                                 "--threads", "2"} + extra);
            QVERIFY2(r.code == 0, r.err.constData());
        };
        dump("whole", {});
        dump("offloaded", {"--kv-offload", "0.0001"});
        for (const char* kind : {".logits", ".attn"}) {
            QFile a(dir.filePath(QString("whole") + kind)), b(dir.filePath(QString("offloaded") + kind));
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            const QByteArray x = a.readAll(), y = b.readAll();
            QVERIFY(!x.isEmpty());
            QVERIFY2(x == y, kind);
        }
    }

    // bench with --kv-offload: the bytes stored are the formula's, most of them in the file, and
    // every decoded token moves bytes between the tiers; without it none.
    void bench_kv_offload() {
        const std::string gguf = testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(gguf, "the fixture model");
        for (const bool offload : {false, true}) {
            QStringList args{"bench", QString::fromStdString(gguf), "-p", "300", "-n", "8", "-r", "1", "--json"};
            if (offload) args << "--kv-offload" << "0.0001";
            const CliRun r = run_cli(args);
            QVERIFY2(r.code == 0, r.err.constData());
            const QJsonObject o = QJsonDocument::fromJson(r.out).object();
            // 3 layers x 2 kv heads x 308 tokens x (K + V) x 32 values x 2 bytes
            const double stored = 3.0 * 2 * 308 * 2 * 32 * 2;
            QCOMPARE(o.value("kv_bytes_stored").toDouble(), stored);
            QCOMPARE(o.value("kv_bytes_formula").toDouble(), stored);
            QVERIFY(o.value("kv_bytes_allocated").toDouble() >= o.value("kv_resident_bytes").toDouble());
            if (!offload) {
                QCOMPARE(o.value("kv_offloaded_bytes").toDouble(), 0.0);
                QCOMPARE(o.value("kv_bytes_moved_per_token").toDouble(), 0.0);
                QVERIFY(o.value("kv_resident_bytes").toDouble() >= stored);
                continue;
            }
            // one page of 64 positions a layer in memory, the 4 pages before it in the file
            const double page = 3.0 * 2 * 64 * 2 * 32 * 2;
            QCOMPARE(o.value("kv_resident_bytes").toDouble(), page);
            QCOMPARE(o.value("kv_offloaded_bytes").toDouble(), 4 * page);
            // each decoded token reads the file's pages of every layer back
            QVERIFY(o.value("kv_bytes_moved_per_token").toDouble() >= 4 * page);
            QVERIFY(o.value("decode_tok_s").toDouble() > 0);
        }
        const CliRun text = run_cli({"bench", QString::fromStdString(gguf), "-p", "300", "-n", "4", "-r", "1", "--kv-offload", "0.0001"});
        QVERIFY2(text.out.contains("bytes stored (measured)") && text.out.contains("in the file"), text.out.constData());
    }

    void errors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("bad id text") << QStringList{"--ids", "1,x,3"} << 2 << "'x' is not a token id";
        QTest::newRow("id past vocab") << QStringList{"--ids", "1,5000"} << 2 << "outside the vocabulary";
        QTest::newRow("cuda") << QStringList{"--ids", "1,2", "--backend", "cuda"} << 1
                                << "error: --backend cuda: (cuda backend not available|no CUDA device)";
        // cuda keeps a budget (its device window over pinned host memory): no refusal, the backend starts
        QTest::newRow("offload on cuda") << QStringList{"--ids", "1,2", "--backend", "cuda", "--kv-offload", "1"} << 1
                                         << "error: --backend cuda: (cuda backend not available|no CUDA device)";
        QTest::newRow("unknown backend") << QStringList{"--ids", "1,2", "--backend", "tpu"} << 2
                                         << "error: --backend: tpu not in \\{cpu";
        QTest::newRow("hooks without --out") << QStringList{"--ids", "1,2", "--hooks", "blk.0.q"} << 2
                                             << "error: --hooks: needs --out DIR";
        QTest::newRow("unknown hook") << QStringList{"--ids", "1,2", "--hooks", "blk.0.qq", "--out", "h"} << 2
                                      << "hook 'blk.0.qq': 'qq' is not a layer hook";
        QTest::newRow("hook past the layers") << QStringList{"--ids", "1,2", "--hooks", "blk.3.q", "--out", "h"} << 2
                                              << "hook 'blk.3.q': layer 3 does not exist \\(0 .. 2\\)";
        QTest::newRow("empty hook list") << QStringList{"--ids", "1,2", "--hooks", "", "--out", "h"} << 2
                                         << "the list is empty";
        QTest::newRow("ablate text") << QStringList{"--ids", "1,2", "--ablate", "1-2"} << 2
                                     << "--ablate: '1-2' is not LAYER:HEAD";
        QTest::newRow("skip part") << QStringList{"--ids", "1,2", "--skip", "0:mlp"} << 2
                                   << "--skip: '0:mlp' is not LAYER:attn or LAYER:ffn";
        QTest::newRow("skip layer") << QStringList{"--ids", "1,2", "--skip", "9:ffn"} << 2
                                    << "--skip: layer 9 does not exist \\(layers 0 .. 2\\)";
        QTest::newRow("ablate head") << QStringList{"--ids", "1,2", "--ablate", "0:8"} << 2
                                     << "--ablate: head 0:8 does not exist \\(layers 0 .. 2, heads 0 .. 7\\)";
    }
    void errors() {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        const std::string gguf = testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(gguf, "the fixture model");
        QTemporaryDir dir;
        const CliRun r = run_cli(QStringList{"dump", QString::fromStdString(gguf), "--logits", dir.filePath("l.f32")} + args);
        if (args.contains("cuda") && r.code == 0)
            QSKIP("a CUDA device is present: the no-device error cannot be seen here");
        QCOMPARE(r.code, code);
        // Builds without CUDA and CUDA builds on a machine without a device word it differently.
        QVERIFY2(QString(r.err).contains(QRegularExpression(message)), r.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("l.f32")));
    }

    void missing_model_is_a_runtime_error() {
        QTemporaryDir dir;
        const CliRun r = run_cli({"dump", dir.filePath("absent.gguf"), "--ids", "1", "--logits", dir.filePath("l.f32")});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.startsWith("lmscope-cli: error: "));
    }
};

QTEST_APPLESS_MAIN(TestCliDump)
#include "test_cli_dump.moc"
