// lmscope-cli run and replay through QProcess: seeded runs repeat, a greedy run equals the
// engine's argmax, --trace writes a file that loads and that `replay --json` prints exactly
// as the run printed its steps, and bad input gives the documented exit codes.
#include "common/testing.h"
#include "engine/cpu_backend.h"
#include "engine/model.h"
#include "trace/trace_file.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>

using lmscope::testing::CliRun;
using lmscope::testing::run_cli;

using namespace lmscope;
using nlohmann::json;

namespace {

std::vector<json> json_lines(const QByteArray& out) {
    std::vector<json> lines;
    for (const QByteArray& l : out.split('\n'))
        if (!l.isEmpty()) lines.push_back(json::parse(l.toStdString()));
    return lines;
}

std::vector<int32_t> tokens_of(const std::vector<json>& steps) {
    std::vector<int32_t> ids;
    for (const json& s : steps) ids.push_back(s.at("token").get<int32_t>());
    return ids;
}

}  // namespace

class TestCliRun : public QObject {
    Q_OBJECT
private slots:
    void init();
    void seeded_run_repeats();
    void greedy_run_matches_engine_argmax();
    void kv_offload_run_is_the_same();
    void trace_round_trips_through_replay();
    void ablated_heads_are_traced();
    void skipped_sublayers_are_traced();
    void text_mode_streams_text();
    void chat_reads_turns_from_stdin();
    void errors_data();
    void errors();
    void sample_model_greedy_reads_coherently();

private:
    QString fx_;
};

void TestCliRun::init() {
    const std::string fx = testing::testdata_file("models/fx-gqa.gguf");
    LMSCOPE_REQUIRE_FILE(fx, "../shared/testdata/models/fx-gqa.gguf");
    fx_ = QString::fromStdString(fx);
}

void TestCliRun::seeded_run_repeats() {
    const QStringList args = {"run", fx_, "--prompt", "The quick brown fox", "-n", "10", "--temp", "0.9",
                              "--top-k", "50", "--seed", "1234", "--jsonl", "--threads", "2"};
    const CliRun a = run_cli(args), b = run_cli(args);
    QCOMPARE(a.code, 0);
    QCOMPARE(b.code, 0);
    const std::vector<json> sa = json_lines(a.out), sb = json_lines(b.out);
    QCOMPARE(sa.size(), size_t(10));
    QCOMPARE(tokens_of(sa), tokens_of(sb));
    for (size_t i = 0; i < sa.size(); ++i) {
        QCOMPARE(sa[i]["top"], sb[i]["top"]);
        QCOMPARE(sa[i]["how"].get<std::string>(), std::string("sampled"));
    }
}

void TestCliRun::greedy_run_matches_engine_argmax() {
    const CliRun r = run_cli({"run", fx_, "--prompt", "The quick brown fox", "-n", "8", "--temp", "0", "--jsonl"});
    QCOMPARE(r.code, 0);
    const std::vector<json> steps = json_lines(r.out);
    QCOMPARE(steps.size(), size_t(8));
    std::vector<int32_t> seq = steps[0]["fed"].get<std::vector<int32_t>>();
    const size_t n_prompt = seq.size();
    for (size_t i = 1; i < steps.size(); ++i) seq.push_back(steps[i]["fed"][0].get<int32_t>());
    // Teacher-forced on the engine in process: every step's choice is the argmax of its row.
    auto model = engine::Model::load(fx_.toStdString());
    auto backend = engine::make_cpu_backend(model, {});
    const size_t n_vocab = size_t(model->spec().n_vocab());
    std::vector<float> logits(seq.size() * n_vocab);
    backend->forward({.tokens = seq, .logits = logits, .all_logits = true});
    for (size_t i = 0; i < steps.size(); ++i) {
        const float* row = logits.data() + (n_prompt - 1 + i) * n_vocab;
        QCOMPARE(steps[i]["token"].get<int32_t>(), int32_t(std::max_element(row, row + n_vocab) - row));
        QCOMPARE(steps[i]["how"].get<std::string>(), std::string("greedy"));
    }
}

// --kv-offload: the same steps (tokens, probabilities) as without; every step's record has
// the bytes stored equal to the formula's, and past the budget most of them in the file and
// bytes moved by the step.
void TestCliRun::kv_offload_run_is_the_same() {
    const QStringList base{"run", fx_, "--prompt", "The quick brown fox", "-n", "150", "--temp", "0", "--jsonl", "--ignore-eos"};
    const CliRun a = run_cli(base), b = run_cli(base + QStringList{"--kv-offload", "0.0001"});
    QVERIFY2(a.code == 0 && b.code == 0, (a.err + b.err).constData());
    const std::vector<json> sa = json_lines(a.out), sb = json_lines(b.out);
    QCOMPARE(sb.size(), sa.size());
    uint64_t moved = 0;
    for (size_t i = 0; i < sa.size(); ++i) {
        QCOMPARE(sb[i]["token"], sa[i]["token"]);
        QCOMPARE(sb[i]["prob"], sa[i]["prob"]);
        QCOMPARE(sb[i]["kv_bytes"], sa[i]["kv_bytes"]);
        QCOMPARE(sb[i]["kv_bytes"], sb[i]["kv_bytes_formula"]);
        QCOMPARE(sa[i]["kv_offloaded_bytes"].get<uint64_t>(), uint64_t(0));
        QCOMPARE(sa[i]["kv_bytes_moved"].get<uint64_t>(), uint64_t(0));
        moved += sb[i]["kv_bytes_moved"].get<uint64_t>();
    }
    const json& last = sb.back();
    QVERIFY(last["kv_offloaded_bytes"].get<uint64_t>() > last["kv_resident_bytes"].get<uint64_t>());
    QVERIFY(last["kv_bytes_moved"].get<uint64_t>() > 0);
    QVERIFY(moved > 0);
}

void TestCliRun::trace_round_trips_through_replay() {
    QTemporaryDir dir;
    const QString path = dir.filePath("run.trace");
    const CliRun r = run_cli({"run", fx_, "--prompt", "Hello world", "-n", "6", "--seed", "3", "--jsonl",
                          "--capture", "full", "--kv-type", "q8_0", "--trace", path});
    QCOMPARE(r.code, 0);
    const trace::SessionTrace t = trace::load_trace(path.toStdString());
    QCOMPARE(t.size(), size_t(6));
    QCOMPARE(t.model.file, std::string("fx-gqa.gguf"));
    QCOMPARE(kv_type_name(t.step(0).kv.type), std::string_view("q8_0"));
    QVERIFY(!t.step(5).attention.planes.empty());
    const CliRun replay = run_cli({"replay", path, "--json"});
    QCOMPARE(replay.code, 0);
    QCOMPARE(replay.out, r.out);  // byte for byte what the run printed
    const CliRun text = run_cli({"replay", path});
    QCOMPARE(text.code, 0);
    QCOMPARE(text.out.count("\n#"), 6);
    QVERIFY(text.out.contains("fx-gqa.gguf"));
}

// run --ablate: each step's trace records the heads switched off, replay shows them, and the
// greedy text differs from the run with every head on.
void TestCliRun::ablated_heads_are_traced() {
    QTemporaryDir dir;
    const QString path = dir.filePath("off.trace");
    const QStringList base{"run", fx_, "--prompt", "The quick brown fox", "-n", "6", "--temp", "0", "--jsonl"};
    const CliRun on = run_cli(base);
    const CliRun off = run_cli(base + QStringList{"--ablate", "1:2,0:0,2:7", "--trace", path});
    QCOMPARE(off.code, 0);
    QVERIFY(off.out != on.out);
    const trace::SessionTrace t = trace::load_trace(path.toStdString());
    const std::vector<LayerHead> want = {{1, 2}, {0, 0}, {2, 7}};
    for (size_t i = 0; i < t.size(); ++i) QCOMPARE(t.step(int32_t(i)).ablated, want);
    const CliRun text = run_cli({"replay", path});
    QCOMPARE(text.out.count("[heads off: 1:2 0:0 2:7]"), 6);
    QCOMPARE(run_cli({"replay", path, "--json"}).out, off.out);
    const CliRun bad = run_cli(base + QStringList{"--ablate", "5:0"});
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.contains("--ablate: head 5:0 does not exist"), bad.err.constData());
}

// run --skip: each step's trace records the sub-layers skipped, replay shows them, the greedy
// text differs from the full model's, and a bad item is a usage error naming it.
void TestCliRun::skipped_sublayers_are_traced() {
    QTemporaryDir dir;
    const QString path = dir.filePath("skip.trace");
    const QStringList base{"run", fx_, "--prompt", "The quick brown fox", "-n", "6", "--temp", "0", "--jsonl"};
    const CliRun on = run_cli(base);
    const CliRun off = run_cli(base + QStringList{"--skip", "1:attn,2:ffn", "--trace", path});
    QCOMPARE(off.code, 0);
    QVERIFY(off.out != on.out);
    const trace::SessionTrace t = trace::load_trace(path.toStdString());
    const std::vector<LayerSkip> want = {{1, Sublayer::Attn}, {2, Sublayer::Ffn}};
    for (size_t i = 0; i < t.size(); ++i) QCOMPARE(t.step(int32_t(i)).skipped, want);
    QCOMPARE(run_cli({"replay", path}).out.count("[skipped: 1:attn 2:ffn]"), 6);
    QCOMPARE(run_cli({"replay", path, "--json"}).out, off.out);
    const CliRun bad = run_cli(base + QStringList{"--skip", "1:mlp"});
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.contains("--skip: '1:mlp' is not LAYER:attn or LAYER:ffn"), bad.err.constData());
    const CliRun far = run_cli(base + QStringList{"--skip", "3:attn"});
    QCOMPARE(far.code, 2);
    QVERIFY2(far.err.contains("--skip: layer 3 does not exist (layers 0 .. 2)"), far.err.constData());
}

void TestCliRun::text_mode_streams_text() {
    const CliRun r = run_cli({"run", fx_, "--prompt", "Hello", "-n", "5", "--temp", "0"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.endsWith('\n'));
    QVERIFY(r.err.isEmpty());
}

void TestCliRun::chat_reads_turns_from_stdin() {
    QTemporaryDir dir;
    const QString path = dir.filePath("chat.trace");
    const CliRun r = run_cli({"run", fx_, "--chat", "-n", "4", "--temp", "0", "--jsonl", "--trace", path},
                         "Hello there\nAnd then?\n");
    QCOMPARE(r.code, 0);
    std::vector<json> prefills;
    for (const json& s : json_lines(r.out))
        if (s["phase"] == "prefill") prefills.push_back(s);
    QCOMPARE(prefills.size(), size_t(2));
    QCOMPARE(prefills[0]["turn"].get<int>(), 1);
    QCOMPARE(prefills[1]["turn"].get<int>(), 2);
    QCOMPARE(prefills[0]["reused"].get<int>(), 0);
    QVERIFY(prefills[1]["reused"].get<int>() >= int(prefills[0]["fed"].size()));  // turn 1 stays cached
    const CliRun off = run_cli({"run", fx_, "--chat", "-n", "4", "--temp", "0", "--jsonl", "--no-prefix-reuse"},
                           "Hello there\nAnd then?\n");
    QCOMPARE(off.code, 0);
    std::vector<json> off_prefills;
    for (const json& s : json_lines(off.out))
        if (s["phase"] == "prefill") off_prefills.push_back(s);
    QCOMPARE(off_prefills.size(), size_t(2));
    QCOMPARE(off_prefills[1]["reused"].get<int>(), 0);
    QCOMPARE(off_prefills[1]["fed"].size(), prefills[1]["reused"].get<size_t>() + prefills[1]["fed"].size());
    QCOMPARE(off_prefills[1]["token"], prefills[1]["token"]);
    QCOMPARE(run_cli({"replay", path, "--json"}).out, r.out);
}

void TestCliRun::errors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    QTest::newRow("no model") << QStringList{"run", "/nonexistent.gguf", "--prompt", "x"} << 1 << "nonexistent.gguf";
    QTest::newRow("no prompt") << QStringList{"run", "@FX@"} << 2 << "--prompt";
    QTest::newRow("prompt and chat") << QStringList{"run", "@FX@", "--prompt", "x", "--chat"} << 2 << "--chat";
    QTest::newRow("bad kv type") << QStringList{"run", "@FX@", "--prompt", "x", "--kv-type", "q5"} << 2
                                 << "--kv-type: 'q5' is not one of f16, q8_0, q4_0";
    QTest::newRow("bad top-p") << QStringList{"run", "@FX@", "--prompt", "x", "--top-p", "2"} << 2 << "top_p";
    QTest::newRow("bad capture") << QStringList{"run", "@FX@", "--prompt", "x", "--capture", "all"} << 2
                                 << "--capture: 'all' is not one of none, summary, full";
    // A prompt over the context is refused before the prefill, with both numbers and the way out.
    QString prompt;
    for (int i = 0; i < 120; ++i) prompt += QStringLiteral("river bank %1 ").arg(i % 10);  // over 512 tokens
    QTest::newRow("prompt over --ctx") << QStringList{"run", "@FX@", "--prompt", prompt.left(240), "--ctx", "16"} << 2
                                       << "more than the context of 16 positions; --ctx 512 holds it";
    QTest::newRow("prompt over the model's context") << QStringList{"run", "@FX@", "--prompt", prompt} << 2
                                                     << "more than the context of 512 positions; the model's context_length is 512";
    QTest::newRow("replay missing") << QStringList{"replay", "/nonexistent.trace"} << 1 << "nonexistent.trace";
    QTest::newRow("replay not a trace") << QStringList{"replay", "@FX@"} << 1 << "header: the file is a GGUF model file, not an lmscope trace";  // it said "header length" (#33)
}

void TestCliRun::errors() {
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, message);
    args.replaceInStrings("@FX@", fx_);
    const CliRun r = run_cli(args);
    QCOMPARE(r.code, code);
    QVERIFY2(r.err.startsWith("lmscope-cli: error: "), r.err.constData());
    QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    QCOMPARE(r.err.count('\n'), 1);
}

void TestCliRun::sample_model_greedy_reads_coherently() {
    const std::string model = testing::sample_model();
    LMSCOPE_REQUIRE_FILE(model, "the sample model");
    const CliRun r = run_cli({"run", QString::fromStdString(model), "--prompt", "The capital of France is", "-n", "12",
                          "--temp", "0"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("Paris"), r.out.constData());
}

QTEST_APPLESS_MAIN(TestCliRun)
#include "test_cli_run.moc"
