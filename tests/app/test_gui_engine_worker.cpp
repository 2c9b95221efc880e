// The engine worker on its own thread with the fixture model: load, prefill, decode steps
// with a growing KV cache, a forced token fed by the next step, rewind truncating the cache,
// cancel from the UI thread leaving a session that continues, and errors arriving as signals.
#include "common/testing.h"
#include "gui/engine_worker.h"

#include <QSignalSpy>
#include <QtTest>

using namespace lmscope;
using lmscope::testing::wait_for;
using lmscope::gui::EngineWorker;
using lmscope::gui::SnapshotPtr;

namespace {

QString fixture(const char* name) {
    return QString::fromStdString(testing::testdata_file(std::string("models/") + name));
}

SnapshotPtr last_snapshot(const QSignalSpy& spy) { return spy.last().at(0).value<SnapshotPtr>(); }

}  // namespace

// The worker's signals, re-emitted on the test's thread. A QSignalSpy records on the thread
// that emits, so spying the worker directly would append on the engine thread while the test
// reads the spy (ThreadSanitizer reports it); the spies watch this relay instead.
class WorkerSignals : public QObject {
    Q_OBJECT
public:
    explicit WorkerSignals(EngineWorker* w) {
        connect(w, &EngineWorker::loaded, this, &WorkerSignals::loaded, Qt::QueuedConnection);
        connect(w, &EngineWorker::stepDone, this, &WorkerSignals::stepDone, Qt::QueuedConnection);
        connect(w, &EngineWorker::stopped, this, &WorkerSignals::cancelled, Qt::QueuedConnection);
        connect(w, &EngineWorker::failed, this, [this](const gui::JobError& e) { emit error(e.text()); }, Qt::QueuedConnection);
    }
signals:
    void loaded(const lmscope::gui::EngineInfo& info);
    void stepDone(const lmscope::gui::SnapshotPtr& snapshot);
    void cancelled();
    void error(const QString& message);
};

class TestGuiEngineWorker : public QObject {
    Q_OBJECT

    std::unique_ptr<EngineWorker> engine_;
    std::unique_ptr<WorkerSignals> signals_;
    EngineWorker* worker() { return engine_.get(); }
    WorkerSignals* sig() { return signals_.get(); }

    // Loads the fixture model and prefills `prompt`; returns the prefill snapshot.
    SnapshotPtr loadAndPrefill(const QString& prompt, const gui::EngineOptions& options = {}) {
        QSignalSpy loaded(sig(), &WorkerSignals::loaded);
        QSignalSpy done(sig(), &WorkerSignals::stepDone);
        const QString path = fixture("fx-gqa.gguf");
        engine_->load(path, options);
        if (!wait_for(loaded)) return nullptr;
        engine_->prefill(prompt);
        if (!wait_for(done)) return nullptr;
        return last_snapshot(done);
    }

    SnapshotPtr stepOnce() {
        QSignalSpy done(sig(), &WorkerSignals::stepDone);
        engine_->step();
        if (!wait_for(done)) return nullptr;
        return last_snapshot(done);
    }

private slots:
    void init() {
        const std::string model = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(model, "the fixture model");
        engine_ = std::make_unique<EngineWorker>();
        signals_ = std::make_unique<WorkerSignals>(worker());
    }
    void cleanup() {
        engine_.reset();
        signals_.reset();
    }

    void prefillThenSteps() {
        QSignalSpy errors(sig(), &WorkerSignals::error);
        const SnapshotPtr first = loadAndPrefill(QStringLiteral("Hello world, the"));
        QVERIFY(first);
        QCOMPARE(first->new_steps.size(), 1);
        const widgets::StepView& prefill = first->new_steps.front();
        QCOMPARE(prefill.phase, Phase::Prefill);
        QVERIFY(prefill.tokens.size() > 1);
        QCOMPARE(first->kv_tokens, qint32(prefill.tokens.size()));
        QVERIFY(first->kv_bytes > 0);
        QCOMPARE(first->head, 0);

        qint32 tokens = first->kv_tokens;
        quint64 bytes = first->kv_bytes;
        qint32 chosen = prefill.logits.chosen;
        for (int i = 1; i <= 3; ++i) {
            const SnapshotPtr s = stepOnce();
            QVERIFY(s);
            QCOMPARE(s->new_steps.size(), 1);
            QCOMPARE(s->new_steps.front().index, i);
            QCOMPARE(s->new_steps.front().phase, Phase::Decode);
            QCOMPARE(s->new_steps.front().parent, i - 1);
            QCOMPARE(s->kv_tokens, tokens + 1);
            QVERIFY(s->kv_bytes > bytes);
            // The token fed is the one the step before chose.
            QCOMPARE(s->new_steps.front().tokens.front().id, chosen);
            chosen = s->new_steps.front().logits.chosen;
            tokens = s->kv_tokens;
            bytes = s->kv_bytes;
        }
        QCOMPARE(errors.count(), 0);
    }

    // The KV offload setting reaches the backend: a long prompt's older positions go to the
    // file (the steps record it), and the steps choose what they choose without it.
    void kvOffloadSetting() {
        QString prompt;
        for (int i = 0; i < 20; ++i) prompt += QStringLiteral("red green blue yellow ");
        std::vector<qint32> chosen[2];
        QSignalSpy errors(sig(), &WorkerSignals::error);
        for (const bool offload : {false, true}) {
            gui::EngineOptions options;
            options.resources.kv_offload_bytes = engine::kv_offload_budget(offload ? 0.0001 : 0.0);
            const SnapshotPtr first = loadAndPrefill(prompt, options);
            QVERIFY2(first, errors.isEmpty() ? "" : qPrintable(errors.last().at(0).toString()));
            QVERIFY(first->kv_tokens > 2 * 64);
            QCOMPARE(first->new_steps.front().kv.offloaded_bytes > 0, offload);
            QCOMPARE(first->new_steps.front().kv.bytes_total, first->new_steps.front().kv.formula_bytes);
            chosen[offload].push_back(first->new_steps.front().logits.chosen);
            for (int i = 0; i < 3; ++i) {
                const SnapshotPtr s = stepOnce();
                QVERIFY(s);
                QCOMPARE(s->new_steps.front().kv.moved_bytes > 0, offload);
                chosen[offload].push_back(s->new_steps.front().logits.chosen);
            }
        }
        QCOMPARE(chosen[1], chosen[0]);
    }

    void forcedTokenIsFed() {
        const SnapshotPtr first = loadAndPrefill(QStringLiteral("Once upon a time"));
        QVERIFY(first);
        const auto& before = first->new_steps.front().logits.before();
        QVERIFY(before.size() >= 2);
        const qint32 other = before[1].id;  // the runner-up, not the greedy choice
        QVERIFY(other != first->new_steps.front().logits.chosen);
        engine_->force(other);
        const SnapshotPtr s = stepOnce();
        QVERIFY(s);
        QCOMPARE(s->new_steps.front().tokens.front().id, other);
        QCOMPARE(s->new_steps.front().tokens.front().origin, Choice::Forced);
    }

    void rewindTruncates() {
        const SnapshotPtr first = loadAndPrefill(QStringLiteral("One two three"));
        QVERIFY(first);
        for (int i = 0; i < 3; ++i) QVERIFY(stepOnce());
        QSignalSpy done(sig(), &WorkerSignals::stepDone);
        engine_->rewind(1);
        QVERIFY(wait_for(done));
        const SnapshotPtr r = last_snapshot(done);
        QCOMPARE(r->kind, gui::EngineSnapshot::Kind::Rewind);
        QCOMPARE(r->head, 1);
        QCOMPARE(r->kv_tokens, first->kv_tokens + 1);
        QVERIFY(r->new_steps.isEmpty());
        // The next step branches from step 1.
        const SnapshotPtr b = stepOnce();
        QVERIFY(b);
        QCOMPARE(b->new_steps.front().index, 4);
        QCOMPARE(b->new_steps.front().parent, 1);
        QCOMPARE(b->kv_tokens, first->kv_tokens + 2);
    }

    // Cancel requests from the UI thread while steps are queued: every step either completes
    // or is cancelled, and the cache holds exactly the prompt plus the completed steps.
    void cancelLeavesAUsableSession() {
        const SnapshotPtr first = loadAndPrefill(QStringLiteral("Counting: one, two"));
        QVERIFY(first);
        QSignalSpy done(sig(), &WorkerSignals::stepDone);
        QSignalSpy cancelled(sig(), &WorkerSignals::cancelled);
        QSignalSpy errors(sig(), &WorkerSignals::error);
        constexpr int kQueued = 12;
        for (int i = 0; i < kQueued; ++i) engine_->step();
        for (int i = 0; i < 2000 && done.count() + cancelled.count() < kQueued; ++i) {
            worker()->cancel();
            QTest::qWait(1);
        }
        QTRY_COMPARE_WITH_TIMEOUT(done.count() + cancelled.count(), kQueued, 60000);
        QCOMPARE(errors.count(), 0);
        const qint32 completed = qint32(done.count());
        if (completed > 0) QCOMPARE(last_snapshot(done)->kv_tokens, first->kv_tokens + completed);
        const SnapshotPtr after = stepOnce();  // the session continues
        QVERIFY(after);
        QCOMPARE(after->kv_tokens, first->kv_tokens + completed + 1);
        qInfo("%d of %d queued steps completed, %d cancelled", completed, kQueued, int(cancelled.count()));
    }

    void errorsBecomeSignals() {
        QSignalSpy errors(sig(), &WorkerSignals::error);
        engine_->step();  // no model yet
        QVERIFY(wait_for(errors, 1));
        const QString missing = QStringLiteral("/nonexistent/model.gguf");
        engine_->load(missing, gui::EngineOptions{});
        QVERIFY(wait_for(errors, 2));
        QVERIFY2(errors.last().at(0).toString().contains(missing), qPrintable(errors.last().at(0).toString()));
        gui::EngineOptions bad;
        bad.backend = "gpu7";
        const QString path = fixture("fx-gqa.gguf");
        engine_->load(path, bad);
        QVERIFY(wait_for(errors, 3));
        QVERIFY(errors.last().at(0).toString().contains(QStringLiteral("gpu7")));
        // Still alive: a good load and prefill work.
        QVERIFY(loadAndPrefill(QStringLiteral("Still here")));
    }
};

QTEST_MAIN(TestGuiEngineWorker)
#include "test_gui_engine_worker.moc"
