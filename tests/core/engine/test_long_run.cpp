// A long run with full capture: 2 000 decode steps on the fixture model (chained prompts,
// a reset whenever the context is full) under a trace budget far below what the planes of
// every step would take. After every step the trace's byte accounting stays within the
// budget and matches the sum over its steps; at the end the planes kept are those of the
// most recent steps, and the process's peak resident set stays under model + KV cache +
// budget + the steps' summaries + slack.
#include "common/testing.h"
#include "engine/cpu_backend.h"
#include "engine/model.h"
#include "engine/session.h"
#include "tokenizer/tokenizer.h"

#include <QFile>
#include <QtTest>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>

using namespace lmscope;
using namespace lmscope::engine;

namespace {

constexpr int kDecodeSteps = 2000;
constexpr int32_t kCtx = 512;                     // positions per chained run
constexpr uint64_t kBudget = uint64_t(5) << 20;   // 5 MiB: a small part of the planes produced
constexpr uint64_t kSlack = uint64_t(24) << 20;   // allocator, thread stacks, Qt

// A field of /proc/self/status in bytes (VmRSS, VmHWM), nullopt when unreadable.
std::optional<uint64_t> status_bytes(const char* field) {
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly)) return std::nullopt;
    const QByteArray key = QByteArray(field) + ':';
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (!line.startsWith(key)) continue;
        const QList<QByteArray> parts = line.mid(key.size()).simplified().split(' ');
        bool ok = false;
        const qulonglong kb = parts.value(0).toULongLong(&ok);
        if (ok) return uint64_t(kb) * 1024;
    }
    return std::nullopt;
}

// Bytes of attention weights a step holds (its planes, as stored: f16).
uint64_t plane_bytes(const trace::StepTrace& s) { return uint64_t(s.attention.weights.size()) * sizeof(uint16_t); }

}  // namespace

class TestLongRun : public QObject {
    Q_OBJECT
private slots:
    void full_capture_stays_inside_the_budget();
};

void TestLongRun::full_capture_stays_inside_the_budget() {
    const std::string path = testing::testdata_file("models/fx-gqa.gguf");
    LMSCOPE_REQUIRE_FILE(path, "../shared/testdata/models/fx-gqa.gguf");
    const std::optional<uint64_t> rss0 = status_bytes("VmRSS");

    const std::shared_ptr<const Model> model = Model::load(path);
    QVERIFY(model->spec().n_ctx_train() >= kCtx);
    BackendOptions bo;
    bo.n_threads = 1;  // no pool hand-offs: quick on a busy CI machine
    bo.n_ctx = kCtx;
    const std::unique_ptr<Backend> backend = make_cpu_backend(model, bo);
    const std::unique_ptr<tok::Tokenizer> tokenizer = tok::load_tokenizer(path);
    SessionOptions so;
    so.sampling.temperature = 0.8f;  // seeded sampling: varied tokens, reproducible
    so.sampling.seed = 7;
    so.capture.mode = trace::CaptureMode::Full;
    so.trace_budget = kBudget;
    Session s(*backend, *tokenizer, so);
    // A long prompt (200 tokens): each prefill brings a large triangle of planes.
    std::string text;
    for (int i = 0; i < 30; ++i) text += "The quick brown fox jumps over the lazy dog. ";
    std::vector<int32_t> prompt = tokenizer->encode_ids(text, true, false);
    QVERIFY(prompt.size() > 200);
    prompt.resize(200);

    uint64_t produced = 0;   // plane bytes the steps came with
    uint64_t non_plane = 0;  // bytes of everything else the steps hold (never dropped)
    auto account = [&](const trace::StepTrace& st) {
        QVERIFY2(!st.attention.planes.empty(), "a new step holds its planes");
        produced += plane_bytes(st);
        non_plane += st.held_bytes() - uint64_t(st.attention.weights.capacity()) * sizeof(uint16_t) -
                     uint64_t(st.attention.planes.capacity()) * sizeof(trace::PlaneRef);
    };

    account(s.prefill(prompt));
    int prefills = 1;
    for (int i = 0; i < kDecodeSteps; ++i) {
        if (int32_t(s.tokens().size()) + 1 > s.n_ctx()) {
            s.reset();
            account(s.prefill(prompt));
            ++prefills;
        }
        const trace::StepTrace& d = s.decode();
        account(d);
        if (QTest::currentTestFailed()) return;
        const trace::SessionTrace& t = s.trace();
        QVERIFY2(t.held_bytes() <= t.budget(),
                 qPrintable(QStringLiteral("step %1: %2 bytes held over a budget of %3")
                                .arg(d.index).arg(t.held_bytes()).arg(t.budget())));
        if (i % 250 == 0 || i + 1 == kDecodeSteps) {  // the accounting is the sum over the steps
            uint64_t sum = 0;
            for (const trace::StepTrace& st : t.steps()) sum += st.held_bytes();
            QCOMPARE(t.held_bytes(), sum);
        }
    }

    const trace::SessionTrace& t = s.trace();
    QCOMPARE(t.size(), size_t(kDecodeSteps + prefills));
    QVERIFY(prefills > 3);  // the run went through several full contexts
    QVERIFY2(produced > 5 * kBudget, qPrintable(QStringLiteral("only %1 plane bytes produced").arg(produced)));
    QVERIFY(!t.over_budget());
    QVERIFY(t.held_bytes() > kBudget / 2);  // degradation drops what it must, not everything

    // Degradation keeps the recent steps: the steps holding planes are a suffix of the trace,
    // every earlier one is flagged, and the flags are counted.
    size_t first_kept = t.size();
    while (first_kept > 0 && !t.step(int32_t(first_kept - 1)).attention.planes.empty()) --first_kept;
    QVERIFY2(t.size() - first_kept >= 50, qPrintable(QStringLiteral("%1 recent steps kept").arg(t.size() - first_kept)));
    int32_t flagged = 0;
    for (size_t i = 0; i < t.size(); ++i) {
        const trace::StepTrace& st = t.step(int32_t(i));
        if (i < first_kept) {
            QVERIFY2(st.attention.planes_dropped && st.attention.planes.empty() && st.attention.weights.empty(),
                     qPrintable(QStringLiteral("step %1 before the kept ones still holds planes").arg(i)));
            QVERIFY(!st.attention.summaries.empty());  // summaries and logits stay
            QVERIFY(!st.logits.stages.empty());
        } else {
            QVERIFY(!st.attention.planes_dropped);
        }
        flagged += st.attention.planes_dropped ? 1 : 0;
    }
    QCOMPARE(t.dropped_steps(), flagged);
    // Peak resident set: everything the run may hold, bounded.
    if (testing::kAddressSanitizer) {
        qInfo("peak RSS not checked: AddressSanitizer's shadow memory and quarantine are resident too");
        return;
    }
    const std::optional<uint64_t> hwm = status_bytes("VmHWM");
    if (!rss0 || !hwm) QSKIP("/proc/self/status is not readable here");
    const uint64_t model_bytes = std::filesystem::file_size(path);
    const uint64_t kv_bytes = backend->kv_stats().bytes_per_token * uint64_t(kCtx);
    const uint64_t bound = *rss0 + model_bytes + kv_bytes + kBudget + non_plane + kSlack;
    qInfo("%d decode + %d prefill steps, planes produced %.1f MiB, held %.2f MiB of a %.1f MiB budget, "
          "%d steps dropped their planes, %zu recent steps kept them; summaries etc. %.2f MiB; "
          "peak RSS %.1f MiB (start %.1f MiB, bound %.1f MiB)",
          kDecodeSteps, prefills, double(produced) / 1048576.0, double(t.held_bytes()) / 1048576.0,
          double(kBudget) / 1048576.0, t.dropped_steps(), t.size() - first_kept, double(non_plane) / 1048576.0,
          double(*hwm) / 1048576.0, double(*rss0) / 1048576.0, double(bound) / 1048576.0);
    QVERIFY2(*hwm <= bound, qPrintable(QStringLiteral("peak RSS %1 bytes over the bound %2").arg(*hwm).arg(bound)));
}

QTEST_APPLESS_MAIN(TestLongRun)
#include "test_long_run.moc"
