// Stop at 100 random moments: a seeded script of prefills (after a reset) and decodes runs on
// a thread of its own, under a Session::CancelScope, while the test thread cancels the scope's
// token after a random delay within the step's expected duration. After each stop the session is checked:
//   - the step was cancelled: tokens, head, pending token, KV tokens and trace are exactly as
//     before it (the step is retried in the next round);
//   - the step completed first: it equals the same step of an uninterrupted run, and the
//     token, cancelled too late for it, stops the next step run under it before its first
//     layer (a token stays cancelled), again leaving the session unchanged.
// Every completed step, and the decodes after the last stop, must equal the uninterrupted
// run's: the same tokens and positions, the same choice (seeded sampling: a cancelled step
// spends no random draw), the raw logits (the top 1000 of 1024) and the attention summaries
// within float tolerance.
#include "common/testing.h"
#include "engine/cpu_backend.h"
#include "engine/model.h"
#include "engine/session.h"
#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <random>
#include <thread>

using namespace lmscope;
using namespace lmscope::engine;

namespace {

constexpr int kStops = 100;
constexpr int32_t kCtx = 384;
constexpr int32_t kVocab = 1024;  // the fixture vocabulary

struct Loaded {
    std::shared_ptr<const Model> model;
    std::unique_ptr<Backend> backend;
    std::unique_ptr<tok::Tokenizer> tokenizer;
    std::unique_ptr<Session> session;
};

Loaded load(const std::string& path) {
    Loaded l;
    l.model = Model::load(path);
    BackendOptions bo;
    bo.n_threads = 2;
    bo.n_ctx = kCtx;
    l.backend = make_cpu_backend(l.model, bo);
    l.tokenizer = tok::load_tokenizer(path);
    SessionOptions so;
    so.sampling.temperature = 0.9f;
    so.sampling.top_k = 40;
    so.sampling.seed = 2026;
    so.sampling.report_k = 1000;  // the raw stage carries (almost) the whole logit vector
    so.capture.mode = trace::CaptureMode::Full;
    l.session = std::make_unique<Session>(*l.backend, *l.tokenizer, so);
    return l;
}

// One scripted operation: a prefill of `prompt` after a reset, or a decode.
struct Op {
    std::vector<int32_t> prompt;  // empty: decode
};

// What must not change when a step is cancelled.
struct State {
    std::vector<int32_t> tokens;
    int32_t head = -1;
    std::optional<int32_t> pending;
    Choice pending_how = Choice::Greedy;
    int32_t kv_tokens = 0;
    size_t trace_steps = 0;
    uint64_t trace_bytes = 0;
    bool operator==(const State&) const = default;
};

State state_of(const Loaded& l) {
    const Session& s = *l.session;
    return {s.tokens(), s.head(), s.pending(), s.pending_how(), l.backend->kv_tokens(), s.trace().size(),
            s.trace().held_bytes()};
}

QString describe(const State& s) {
    return QStringLiteral("tokens %1, head %2, pending %3, kv %4, steps %5, bytes %6")
        .arg(s.tokens.size()).arg(s.head).arg(s.pending.value_or(-1)).arg(s.kv_tokens).arg(s.trace_steps)
        .arg(s.trace_bytes);
}

// The raw logits a step reported, dense over the vocabulary (ids outside the reported top
// take the lowest reported value, so only the order at the cut may differ).
std::vector<float> raw_logits(const trace::StepTrace& s) {
    const std::vector<trace::Candidate>& top = s.logits.top_before();
    const float floor = top.empty() ? 0.0f : top.back().logit;
    std::vector<float> dense(size_t(kVocab), floor);
    for (const trace::Candidate& c : top)
        if (c.id >= 0 && c.id < kVocab) dense[size_t(c.id)] = c.logit;
    return dense;
}

std::vector<float> summary_floats(const trace::StepTrace& s) {
    std::vector<float> out;
    for (const HeadSummary& h : s.attention.summaries) {
        out.push_back(h.entropy);
        out.push_back(h.max_weight);
    }
    return out;
}

}  // namespace

class TestCancelRandom : public QObject {
    Q_OBJECT
private slots:
    void init();
    void stop_at_random_moments();

private:
    void run_op(Loaded& l, const Op& op);
    void check_same_step(const trace::StepTrace& got, const trace::StepTrace& want);
    std::string fx_;
};

void TestCancelRandom::init() {
    fx_ = testing::testdata_file("models/fx-gqa.gguf");
    LMSCOPE_REQUIRE_FILE(fx_, "../shared/testdata/models/fx-gqa.gguf");
}

void TestCancelRandom::run_op(Loaded& l, const Op& op) {
    if (op.prompt.empty()) l.session->decode();
    else l.session->prefill(op.prompt);
}

void TestCancelRandom::check_same_step(const trace::StepTrace& got, const trace::StepTrace& want) {
    QCOMPARE(got.index, want.index);
    QCOMPARE(got.parent, want.parent);
    QCOMPARE(got.phase, want.phase);
    QCOMPARE(got.first_pos, want.first_pos);
    QCOMPARE(got.tokens, want.tokens);
    QCOMPARE(got.kv.tokens, want.kv.tokens);
    QCOMPARE(got.logits.chosen, want.logits.chosen);
    QCOMPARE(got.logits.how, want.logits.how);
    const std::vector<float> a = raw_logits(got), e = raw_logits(want);
    const testing::CompareResult logits = testing::compare(a, e, 1e-4, 1e-4);
    QVERIFY2(logits.ok, qPrintable(QStringLiteral("step %1 logits: %2").arg(got.index).arg(logits.message.c_str())));
    const std::vector<float> sa = summary_floats(got), se = summary_floats(want);
    const testing::CompareResult att = testing::compare(sa, se, 1e-4, 1e-4);
    QVERIFY2(att.ok, qPrintable(QStringLiteral("step %1 attention: %2").arg(got.index).arg(att.message.c_str())));
    QCOMPARE(got.attention.planes, want.attention.planes);
}

void TestCancelRandom::stop_at_random_moments() {
    Loaded ref = load(fx_);   // the uninterrupted run
    Loaded run = load(fx_);   // the one stopped at random moments
    std::mt19937_64 rng(0x5709);

    // The next scripted operation, from the reference session's state.
    auto next_op = [&]() {
        Op op;
        const bool full = int32_t(ref.session->tokens().size()) + 1 > kCtx;
        if (!ref.session->pending() || full || rng() % 4 == 0) {  // a quarter prefills: long steps
            const size_t n = 16 + size_t(rng() % 200);
            for (size_t i = 0; i < n; ++i) op.prompt.push_back(int32_t(3 + rng() % (kVocab - 3)));
        }
        return op;
    };
    // Runs `op` on the reference session; returns its step and how long it took.
    auto reference = [&](const Op& op) {
        if (!op.prompt.empty()) ref.session->reset();
        run_op(ref, op);
        return ref.session->trace().step(ref.session->head());
    };

    int cancelled_mid_step = 0, completed_first = 0, stale_stops = 0, completed_ops = 0;
    Op op = next_op();
    trace::StepTrace want = reference(op);
    for (int stop = 0; stop < kStops; ++stop) {
        if (!op.prompt.empty()) run.session->reset();  // a prefill starts a new sequence
        const State before = state_of(run);
        bool cancelled = false;
        std::atomic<bool> started{false};
        CancelToken token;
        std::thread worker([&] {
            started.store(true);
            try {
                const Session::CancelScope scope(*run.session, &token);
                run_op(run, op);
            } catch (const CancelledError&) {
                cancelled = true;
            }
        });
        // A random moment within the step's duration as the reference measured it (plus a
        // little beyond, so some requests arrive after the step), from the moment it starts.
        while (!started.load()) std::this_thread::yield();
        const double span_us = std::max(50.0, 1300.0 * want.forward_ms);
        const auto delay = std::chrono::microseconds(int64_t(double(rng() % 1000) / 1000.0 * span_us));
        std::this_thread::sleep_for(delay);
        token.cancel();
        worker.join();

        if (cancelled) {
            ++cancelled_mid_step;
            const State after = state_of(run);
            QVERIFY2(after == before, qPrintable(QStringLiteral("stop %1: before %2, after %3")
                                                     .arg(stop).arg(describe(before), describe(after))));
            continue;  // the same operation again in the next round
        }
        ++completed_first;
        ++completed_ops;
        check_same_step(run.session->trace().step(run.session->head()), want);
        if (QTest::currentTestFailed()) return;

        // The token cancelled late stays cancelled: it stops the next step before its first layer.
        op = next_op();
        want = reference(op);
        if (!op.prompt.empty()) run.session->reset();
        const State idle = state_of(run);
        {
            const Session::CancelScope scope(*run.session, &token);
            QVERIFY_THROWS_EXCEPTION(CancelledError, run_op(run, op));
        }
        QVERIFY2(state_of(run) == idle, qPrintable(QStringLiteral("stale stop after %1: before %2, after %3")
                                                       .arg(stop).arg(describe(idle), describe(state_of(run)))));
        ++stale_stops;
    }

    // The session continues exactly as the uninterrupted one: finish the pending operation
    // and a few more decodes.
    if (!op.prompt.empty()) run.session->reset();
    run_op(run, op);
    ++completed_ops;
    check_same_step(run.session->trace().step(run.session->head()), want);
    for (int i = 0; i < 5; ++i) {
        if (int32_t(ref.session->tokens().size()) + 1 > kCtx) break;
        const Op decode;
        want = reference(decode);
        run_op(run, decode);
        ++completed_ops;
        check_same_step(run.session->trace().step(run.session->head()), want);
    }
    QCOMPARE(run.session->trace().size(), ref.session->trace().size());
    QCOMPARE(run.session->tokens(), ref.session->tokens());
    QCOMPARE(run.backend->kv_tokens(), ref.backend->kv_tokens());
    QVERIFY2(cancelled_mid_step > 0, "no stop landed inside a step");
    qInfo("%d stops: %d cancelled a running step, %d came after the step completed (each then stopped the "
          "next step before its first layer: %d); %d operations completed, all equal to the uninterrupted run",
          kStops, cancelled_mid_step, completed_first, stale_stops, completed_ops);
}

QTEST_APPLESS_MAIN(TestCancelRandom)
#include "test_cancel_random.moc"
