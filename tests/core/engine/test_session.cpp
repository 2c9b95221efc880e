// The Session on the fixture models (and the sample model when fetched): prefill and decode
// traced, greedy equals the engine's argmax, seeded sampling repeats, force, rewind into a
// branch, cancel leaves a session that continues exactly, the trace budget, trace round trip.
#include "common/testing.h"
#include "engine/cpu_backend.h"
#include "engine/model.h"
#include "engine/session.h"
#include "tokenizer/tokenizer.h"
#include "trace/trace_file.h"
#include "util/error.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <thread>

using namespace lmscope;
using namespace lmscope::engine;

namespace {

struct Loaded {
    std::shared_ptr<const Model> model;
    std::unique_ptr<Backend> backend;
    std::unique_ptr<tok::Tokenizer> tokenizer;
};

Loaded load(const std::string& path, KvType kv = KvType::F16) {
    Loaded l;
    l.model = Model::load(path);
    BackendOptions o;
    o.n_threads = 2;
    o.kv_type = kv;
    o.n_ctx = 256;
    l.backend = make_cpu_backend(l.model, o);
    l.tokenizer = tok::load_tokenizer(path);
    return l;
}

SessionOptions greedy() {
    SessionOptions o;
    o.sampling.temperature = 0.0f;
    return o;
}

SessionOptions sampled(uint64_t seed) {
    SessionOptions o;
    o.sampling.temperature = 0.9f;
    o.sampling.top_k = 40;
    o.sampling.top_p = 0.95f;
    o.sampling.seed = seed;
    return o;
}

const std::vector<int32_t> kPrompt = {1, 450, 4996, 17354, 1701, 29916};  // BOS + a few ids

std::vector<int32_t> chosen_ids(const Session& s) {
    std::vector<int32_t> out;
    for (int32_t i : s.trace().path_to(s.head())) out.push_back(s.trace().step(i).logits.chosen);
    return out;
}

int32_t argmax(std::span<const float> row) {
    return int32_t(std::max_element(row.begin(), row.end()) - row.begin());
}

}  // namespace

class TestSession : public QObject {
    Q_OBJECT
private slots:
    void init();
    void prefill_then_decode_is_traced();
    void greedy_matches_engine_argmax();
    void prefill_returns_every_row();
    void ablation_is_applied_and_traced();
    void skips_are_applied_and_traced();
    void seeded_sampling_repeats();
    void force_feeds_the_forced_token();
    void rewind_and_force_give_a_branch();
    void rewind_past_the_sliding_window();
    void new_settings_pick_the_pending_token_again();
    void every_step_feeds_its_parents_recorded_pick();
    void context_for_prompt_data();
    void context_for_prompt();
    void long_prefill_captures_within_the_budget();
    void cancel_leaves_a_session_that_continues();
    void cancel_from_another_thread();
    void a_late_cancel_stops_only_its_own_job();
    void quantized_cache_recorded();
    void budget_applies();
    void trace_round_trips();
    void bad_requests_change_nothing();
    void chat_turn_reuses_the_common_prefix();
    void chat_cancel_and_rewind_keep_history();
    void sample_model_two_turn_chat();

private:
    std::string fx_;
    std::vector<int32_t> prompt_;
};

void TestSession::init() {
    fx_ = testing::testdata_file("models/fx-gqa.gguf");
    LMSCOPE_REQUIRE_FILE(fx_, "../shared/testdata/models/fx-gqa.gguf");
    prompt_ = kPrompt;
    for (int32_t& id : prompt_) id %= 1024;
}

void TestSession::prefill_then_decode_is_traced() {
    Loaded l = load(fx_);
    SessionOptions o = greedy();
    o.capture.mode = trace::CaptureMode::Full;
    o.capture.logit_lens = true;
    Session s(*l.backend, *l.tokenizer, o);
    const trace::StepTrace& p = s.prefill(prompt_);
    QCOMPARE(p.index, 0);
    QCOMPARE(p.parent, -1);
    QCOMPARE(p.phase, Phase::Prefill);
    QCOMPARE(p.tokens, prompt_);
    QCOMPARE(p.kv.tokens, int32_t(prompt_.size()));
    const model::ModelSpec& spec = l.model->spec();
    QCOMPARE(p.attention.n_layer, spec.n_layer());
    QCOMPARE(p.attention.planes.size(), size_t(spec.n_layer() * spec.n_head()));
    QCOMPARE(p.attention.summaries.size(), size_t(spec.n_layer() * spec.n_head()) * prompt_.size());
    QCOMPARE(p.layer_ms.size(), size_t(spec.n_layer()));
    QCOMPARE(p.lens.size(), size_t(spec.n_layer() * o.capture.lens_top_k));
    QVERIFY(!p.logits.stages.empty());
    QCOMPARE(p.logits.stages.front().stage, Stage::Raw);
    QCOMPARE(p.logits.how, Choice::Greedy);
    QCOMPARE(p.logits.chosen, p.logits.top_before().front().id);
    int32_t prev = p.logits.chosen;
    for (int i = 1; i <= 4; ++i) {
        const trace::StepTrace& d = s.decode();
        QCOMPARE(d.index, i);
        QCOMPARE(d.parent, i - 1);
        QCOMPARE(d.phase, Phase::Decode);
        QCOMPARE(d.tokens, std::vector<int32_t>{prev});
        QCOMPARE(d.fed_how, Choice::Greedy);
        QCOMPARE(d.first_pos, int32_t(prompt_.size()) + i - 1);
        QCOMPARE(d.attention.planes.front().n_rows, 1);
        QCOMPARE(d.kv.tokens, d.first_pos + 1);
        // f16 cache: 2 (K, V) x kv heads x head dim x tokens x 2 bytes per layer
        const uint64_t per_layer = 2ull * uint64_t(spec.n_head_kv()) * uint64_t(spec.head_dim()) * uint64_t(d.kv.tokens) * 2;
        QCOMPARE(d.kv.bytes_per_layer, std::vector<uint64_t>(size_t(spec.n_layer()), per_layer));
        QCOMPARE(d.kv.bytes_total, per_layer * uint64_t(spec.n_layer()));
        prev = d.logits.chosen;
    }
    QCOMPARE(s.tokens().size(), prompt_.size() + 4);
    QCOMPARE(*s.pending(), prev);
    QVERIFY(!s.trace().piece(prev).empty() || l.tokenizer->token_bytes(prev, true).empty());
    QCOMPARE(s.trace().model.file, std::string("fx-gqa.gguf"));
    QCOMPARE(s.trace().model.header_sha256.size(), size_t(64));
}

void TestSession::greedy_matches_engine_argmax() {
    Loaded l = load(fx_);
    Session s(*l.backend, *l.tokenizer, greedy());
    s.prefill(prompt_);
    for (int i = 0; i < 6; ++i) s.decode();
    const std::vector<int32_t> seq = s.tokens();  // prompt + 6 fed
    const std::vector<int32_t> chosen = chosen_ids(s);
    // Teacher-forced over the whole sequence in one forward on a fresh backend.
    Loaded ref = load(fx_);
    const size_t n_vocab = size_t(l.model->spec().n_vocab());
    std::vector<float> logits(seq.size() * n_vocab);
    ref.backend->forward({.tokens = seq, .logits = logits, .all_logits = true});
    for (size_t step = 0; step < chosen.size(); ++step) {
        const size_t row = prompt_.size() - 1 + step;
        QCOMPARE(chosen[step], argmax(std::span<const float>(logits).subspan(row * n_vocab, n_vocab)));
    }
}

// A prefill asked for every row's logits returns the backend's rows of the same pass: the
// last row is the one sampled, every row matches a teacher-forced forward, and the step is
// traced as any prefill. A buffer of the wrong size changes nothing.
void TestSession::prefill_returns_every_row() {
    Loaded l = load(fx_);
    SessionOptions o = greedy();
    o.capture.mode = trace::CaptureMode::Full;
    Session s(*l.backend, *l.tokenizer, o);
    const size_t n_vocab = size_t(l.model->spec().n_vocab());
    std::vector<float> wrong(prompt_.size() * n_vocab - 1);
    QVERIFY_THROWS_EXCEPTION(UsageError, s.prefill(prompt_, wrong));
    QCOMPARE(s.trace().size(), size_t(0));

    std::vector<float> rows(prompt_.size() * n_vocab, std::nanf(""));
    const trace::StepTrace& p = s.prefill(prompt_, rows);
    QCOMPARE(p.tokens, prompt_);
    QCOMPARE(p.attention.planes.front().n_rows, int32_t(prompt_.size()));
    QCOMPARE(p.logits.chosen, argmax(std::span<const float>(rows).last(n_vocab)));

    Loaded ref = load(fx_);
    std::vector<float> expect(rows.size());
    ref.backend->forward({.tokens = prompt_, .logits = expect, .all_logits = true});
    QCOMPARE(rows, expect);
    s.decode();  // the session goes on from the prompt
    QCOMPARE(s.tokens().size(), prompt_.size() + 1);
}

// Heads switched off in the session: every step records them, and the greedy choices are the
// engine's own argmax with those heads off (and differ from the run with them on).
void TestSession::ablation_is_applied_and_traced() {
    Loaded l = load(fx_);
    Session s(*l.backend, *l.tokenizer, greedy());
    const std::vector<LayerHead> off = {{1, 2}, {2, 5}, {0, 0}};
    QVERIFY_THROWS_EXCEPTION(UsageError, s.set_ablation({{3, 0}}));
    QVERIFY_THROWS_EXCEPTION(UsageError, s.set_ablation({{0, 8}}));
    QVERIFY(s.ablation().empty());
    s.set_ablation(off);
    s.prefill(prompt_);
    for (int i = 0; i < 5; ++i) s.decode();
    for (int32_t i : s.trace().path_to(s.head())) QCOMPARE(s.trace().step(i).ablated, off);
    const std::vector<int32_t> seq = s.tokens();
    const std::vector<int32_t> chosen = chosen_ids(s);
    Loaded ref = load(fx_);
    const size_t n_vocab = size_t(l.model->spec().n_vocab());
    std::vector<float> logits(seq.size() * n_vocab), plain(logits.size());
    ref.backend->forward({.tokens = seq, .logits = logits, .all_logits = true, .ablate = off});
    ref.backend->forward({.tokens = seq, .logits = plain, .all_logits = true});
    QVERIFY(logits != plain);
    for (size_t step = 0; step < chosen.size(); ++step) {
        const size_t row = prompt_.size() - 1 + step;
        QCOMPARE(chosen[step], argmax(std::span<const float>(logits).subspan(row * n_vocab, n_vocab)));
    }
    s.set_ablation({});
    QVERIFY(s.decode().ablated.empty());
}

// Sub-layers skipped in the session: every step records them, and the greedy choices are the
// engine's own argmax with them skipped (and differ from the full model's).
void TestSession::skips_are_applied_and_traced() {
    Loaded l = load(fx_);
    Session s(*l.backend, *l.tokenizer, greedy());
    const std::vector<LayerSkip> skips = {{1, Sublayer::Attn}, {0, Sublayer::Ffn}};
    QVERIFY_THROWS_EXCEPTION(UsageError, s.set_skips({{3, Sublayer::Attn}}));
    QVERIFY(s.skips().empty());
    s.set_skips(skips);
    s.prefill(prompt_);
    for (int i = 0; i < 5; ++i) s.decode();
    for (int32_t i : s.trace().path_to(s.head())) QCOMPARE(s.trace().step(i).skipped, skips);
    const std::vector<int32_t> seq = s.tokens();
    const std::vector<int32_t> chosen = chosen_ids(s);
    Loaded ref = load(fx_);
    const size_t n_vocab = size_t(l.model->spec().n_vocab());
    std::vector<float> logits(seq.size() * n_vocab), plain(logits.size());
    ref.backend->forward({.tokens = seq, .logits = logits, .all_logits = true, .skip = skips});
    ref.backend->forward({.tokens = seq, .logits = plain, .all_logits = true});
    QVERIFY(logits != plain);
    for (size_t step = 0; step < chosen.size(); ++step) {
        const size_t row = prompt_.size() - 1 + step;
        QCOMPARE(chosen[step], argmax(std::span<const float>(logits).subspan(row * n_vocab, n_vocab)));
    }
    s.set_skips({});
    QVERIFY(s.decode().skipped.empty());
}

void TestSession::seeded_sampling_repeats() {
    std::vector<std::vector<int32_t>> runs;
    for (uint64_t seed : {7u, 7u, 8u}) {
        Loaded l = load(fx_);
        Session s(*l.backend, *l.tokenizer, sampled(seed));
        s.prefill(prompt_);
        for (int i = 0; i < 12; ++i) QCOMPARE(s.decode().logits.how, Choice::Sampled);
        runs.push_back(chosen_ids(s));
    }
    QCOMPARE(runs[0], runs[1]);
    QVERIFY(runs[0] != runs[2]);  // 13 draws from near-flat random-weight distributions
    // Switching to greedy mid-run takes effect at the next step and is recorded.
    Loaded l = load(fx_);
    Session s(*l.backend, *l.tokenizer, sampled(7));
    s.prefill(prompt_);
    SamplerSettings g = s.sampler().settings();
    g.temperature = 0.0f;
    s.set_sampling(g);
    QCOMPARE(s.decode().logits.how, Choice::Greedy);
    QCOMPARE(s.trace().sampling["temperature"].get<double>(), 0.0);
    g.top_p = 2.0f;
    QVERIFY_THROWS_EXCEPTION(UsageError, s.set_sampling(g));
}

void TestSession::force_feeds_the_forced_token() {
    Loaded l = load(fx_);
    Session s(*l.backend, *l.tokenizer, greedy());
    const int32_t greedy_choice = s.prefill(prompt_).logits.chosen;
    const int32_t forced = (greedy_choice + 1) % 1024;
    s.force(forced);
    QCOMPARE(*s.pending(), forced);
    QCOMPARE(s.pending_how(), Choice::Forced);
    const trace::StepTrace& d = s.decode();
    QCOMPARE(d.tokens, std::vector<int32_t>{forced});
    QCOMPARE(d.fed_how, Choice::Forced);
    QCOMPARE(s.tokens().back(), forced);
    QCOMPARE(s.trace().step(0).logits.chosen, greedy_choice);  // the sampler's pick stays recorded
}

void TestSession::rewind_and_force_give_a_branch() {
    Loaded l = load(fx_);
    Session s(*l.backend, *l.tokenizer, greedy());
    s.prefill(prompt_);
    for (int i = 0; i < 3; ++i) s.decode();
    const std::vector<int32_t> original = chosen_ids(s);  // steps 0..3
    s.rewind(1);
    QCOMPARE(s.head(), 1);
    QCOMPARE(s.tokens().size(), prompt_.size() + 1);
    QCOMPARE(l.backend->kv_tokens(), int32_t(prompt_.size() + 1));
    QCOMPARE(*s.pending(), original[1]);
    // Continuing without a force recomputes step 2 on the truncated cache: same choice.
    const trace::StepTrace& again = s.decode();
    QCOMPARE(again.parent, 1);
    QCOMPARE(again.logits.chosen, original[2]);
    QCOMPARE(again.logits.top_before(), s.trace().step(2).logits.top_before());
    // Back to 1 again, force something else: a third child of step 1.
    s.rewind(1);
    const int32_t forced = (original[1] + 3) % 1024;
    s.force(forced);
    const trace::StepTrace& branch = s.decode();
    QCOMPARE(branch.parent, 1);
    QCOMPARE(branch.tokens, std::vector<int32_t>{forced});
    QCOMPARE(branch.fed_how, Choice::Forced);
    QCOMPARE(s.trace().path_to(branch.index), (std::vector<int32_t>{0, 1, branch.index}));
    QCOMPARE(s.trace().size(), size_t(6));
    // A step of another branch: the shared prefix stays, the rest is recomputed.
    s.rewind(3);
    QCOMPARE(s.tokens().size(), prompt_.size() + 3);
    QCOMPARE(std::vector<int32_t>(s.tokens().end() - 3, s.tokens().end()),
             (std::vector<int32_t>{original[0], original[1], original[2]}));
    QCOMPARE(l.backend->kv_tokens(), int32_t(prompt_.size() + 3));
    QCOMPARE(*s.pending(), original[3]);
    Loaded ref = load(fx_);
    Session plain(*ref.backend, *ref.tokenizer, greedy());
    plain.prefill(prompt_);
    for (int i = 0; i < 4; ++i) plain.decode();
    const trace::StepTrace& next = s.decode();
    QCOMPARE(next.parent, 3);
    QCOMPARE(next.logits.chosen, plain.trace().step(4).logits.chosen);
    QVERIFY(std::abs(next.logits.chosen_prob - plain.trace().step(4).logits.chosen_prob) < 1e-3f);
}

// The pending token follows the sampler settings in force: set_sampling picks it again from
// the head step's logits (and rewinding to a step picked under other settings does too,
// recomputing the head's last row when the one held is of a later step); a forced token stays.
// fx-gemma3's local layers keep 16 positions (and 64 of slack): rewinding 100 steps makes the
// session feed the path again, and continuing gives the same choices as the first time.
void TestSession::rewind_past_the_sliding_window() {
    const std::string path = testing::testdata_file("models/fx-gemma3.gguf");
    LMSCOPE_REQUIRE_FILE(path, "../shared/testdata/models/fx-gemma3.gguf");
    Loaded l = load(path);
    Session s(*l.backend, *l.tokenizer, greedy());
    std::vector<int32_t> prompt;
    for (int32_t i = 0; i < 20; ++i) prompt.push_back((i * 37 + 5) % l.model->spec().n_vocab());
    s.prefill(prompt);
    for (int i = 0; i < 110; ++i) s.decode();
    const std::vector<int32_t> original = chosen_ids(s);
    QCOMPARE(l.backend->kv_tokens(), int32_t(prompt.size() + 110));
    s.rewind(5);  // 105 positions back: past every ring
    QCOMPARE(s.head(), 5);
    QCOMPARE(l.backend->kv_tokens(), int32_t(prompt.size() + 5));
    for (int i = 6; i < 12; ++i) {
        const trace::StepTrace& again = s.decode();
        QCOMPARE(again.logits.chosen, original[size_t(i)]);
        QVERIFY(std::fabs(again.logits.top_before().front().prob - s.trace().step(i).logits.top_before().front().prob) < 1e-4);
    }
    s.rewind(100);  // back on the first path: the common prefix kept, the rest fed again
    QCOMPARE(l.backend->kv_tokens(), int32_t(prompt.size() + 100));
    QCOMPARE(s.decode().logits.chosen, original[101]);
}

void TestSession::new_settings_pick_the_pending_token_again() {
    Loaded l = load(fx_);
    Session s(*l.backend, *l.tokenizer, greedy());
    s.prefill(prompt_);
    s.decode();  // steps 0 and 1
    const trace::LogitsTrace step0 = s.trace().step(0).logits;
    const trace::LogitsTrace step1 = s.trace().step(1).logits;
    QVERIFY(!s.set_sampling(greedy().sampling));  // the same settings: nothing to pick again

    SamplerSettings top2 = sampled(7).sampling;
    top2.top_k = 2;
    top2.top_p = 1.0f;
    QVERIFY(s.set_sampling(top2));
    const trace::LogitsTrace& now = s.trace().step(1).logits;
    QCOMPARE(now.top_before(), step1.top_before());  // the same logits, ...
    QCOMPARE(now.stages.size(), size_t(3));          // ... filtered as the settings say now
    QCOMPARE(now.stages[2].stage, Stage::TopK);
    QCOMPARE(now.stages[2].survivors, int64_t(2));
    QCOMPARE(now.how, Choice::Sampled);
    QVERIFY(now.chosen == step1.top_before()[0].id || now.chosen == step1.top_before()[1].id);
    QCOMPARE(*s.pending(), now.chosen);
    QCOMPARE(l.backend->kv_tokens(), int32_t(prompt_.size() + 1));
    const int32_t picked = now.chosen;
    QCOMPARE(s.decode().tokens, std::vector<int32_t>{picked});  // the next step feeds the new pick

    // Step 0 was picked greedily, and step 1 continued from that pick: rewinding to it under
    // top-2 keeps the pick the trace says step 1 fed.
    QVERIFY(!s.rewind(0));
    QCOMPARE(s.trace().step(0).logits, step0);
    QCOMPARE(*s.pending(), step0.chosen);
    QCOMPARE(s.pending_how(), Choice::Greedy);
    QCOMPARE(l.backend->kv_tokens(), int32_t(prompt_.size()));

    // A forced token is the user's choice: new settings leave it.
    s.force(5);
    QVERIFY(!s.set_sampling(greedy().sampling));
    QCOMPARE(*s.pending(), 5);
    QCOMPARE(s.pending_how(), Choice::Forced);
}

// The trace records the token each step continued: every decode step was fed its parent's
// recorded pick the way the record says, or says it was forced. New settings (set_sampling, or
// a rewind under other settings) pick again only for a step nothing has continued from yet;
// a step already continued keeps its pick (Force branches there).
void TestSession::every_step_feeds_its_parents_recorded_pick() {
    const auto problem = [](const trace::SessionTrace& t) -> std::string {
        for (const trace::StepTrace& st : t.steps()) {
            if (st.phase != Phase::Decode || st.fed_how == Choice::Forced) continue;
            const trace::LogitsTrace& p = t.step(st.parent).logits;
            if (st.tokens != std::vector<int32_t>{p.chosen} || st.fed_how != p.how)
                return "step " + std::to_string(st.index) + " fed " + std::to_string(st.tokens.front()) +
                       " but step " + std::to_string(st.parent) + " records " + std::to_string(p.chosen);
        }
        return {};
    };
    Loaded l = load(fx_);
    Session s(*l.backend, *l.tokenizer, greedy());
    s.prefill(prompt_);
    for (int i = 0; i < 3; ++i) s.decode();  // steps 0..3
    for (uint64_t seed = 1; seed <= 12; ++seed) {
        SamplerSettings hot = sampled(seed).sampling;  // most picks differ from the greedy ones
        hot.temperature = 3.0f;
        hot.top_k = 0;
        hot.top_p = 1.0f;
        s.rewind(1);  // continued by step 2
        s.set_sampling(hot);
        QVERIFY2(problem(s.trace()).empty(), problem(s.trace()).c_str());
        s.decode();  // a new branch of step 1, fed what its record says
        s.set_sampling(greedy().sampling);  // a leaf: its pick is made again
        s.rewind(2);  // continued by step 3, picked greedily: kept under greedy
        s.set_sampling(hot);
        QVERIFY2(problem(s.trace()).empty(), problem(s.trace()).c_str());
        s.force((*s.pending() + 1) % 1024);
        s.decode();
        s.set_sampling(greedy().sampling);
        QVERIFY2(problem(s.trace()).empty(), problem(s.trace()).c_str());
    }
}

// The context offered for a prompt too long for the one in force: the prompt and room to
// decode, in steps of kDecodeRoom, never past the model's own; none when that is too short.
void TestSession::context_for_prompt_data() {
    QTest::addColumn<qint64>("tokens");
    QTest::addColumn<int>("trained");
    QTest::addColumn<int>("context");
    QTest::newRow("room to decode") << qint64(140) << 8192 << 512;
    QTest::newRow("a multiple of the room") << qint64(256) << 8192 << 512;
    QTest::newRow("long prompt") << qint64(2100) << 8192 << 2560;
    QTest::newRow("capped at the model's") << qint64(500) << 512 << 512;
    QTest::newRow("exactly the model's") << qint64(512) << 512 << 512;
    QTest::newRow("past the model's") << qint64(513) << 512 << 0;
}

void TestSession::context_for_prompt() {
    QFETCH(qint64, tokens);
    QFETCH(int, trained);
    QFETCH(int, context);
    QCOMPARE(engine::context_for_prompt(tokens, trained), context);
}

// Full capture of a prefill whose planes would take more than the trace's budget keeps the
// planes that fit (the focus head first, then its layer, then the others) and every head's
// summary; a decode step, small again, captures every plane.
void TestSession::long_prefill_captures_within_the_budget() {
    Loaded l = load(fx_);
    SessionOptions o = greedy();
    o.capture.mode = trace::CaptureMode::Full;
    constexpr int32_t n = 200;
    const uint64_t plane = uint64_t(n) * n * sizeof(float);  // a plane as captured
    o.trace_budget = 5 * plane + plane / 2;                   // room for five
    Session s(*l.backend, *l.tokenizer, o);
    s.set_attention_focus({2, 3});
    std::vector<int32_t> ids(n);
    for (int32_t i = 0; i < n; ++i) ids[size_t(i)] = 3 + (i * 37) % 1000;
    const trace::StepTrace& p = s.prefill(ids);
    std::vector<LayerHead> kept;
    for (const trace::PlaneRef& r : p.attention.planes) kept.push_back(r.at);
    std::sort(kept.begin(), kept.end(), [](const LayerHead& a, const LayerHead& b) {
        return std::pair(a.layer, a.head) < std::pair(b.layer, b.head);
    });
    // the focus (2, 3) and four more of its layer, in head order
    QCOMPARE(kept, (std::vector<LayerHead>{{2, 0}, {2, 1}, {2, 2}, {2, 3}, {2, 4}}));
    QCOMPARE(p.attention.summaries.size(), size_t(3 * 8 * n));  // every head, every row
    QVERIFY(!p.attention.planes_dropped);
    QVERIFY(s.trace().held_bytes() <= o.trace_budget);
    const trace::StepTrace& d = s.decode();
    QCOMPARE(d.attention.planes.size(), size_t(3 * 8));
}

void TestSession::cancel_leaves_a_session_that_continues() {
    Loaded a = load(fx_);
    Session plain(*a.backend, *a.tokenizer, sampled(3));
    plain.prefill(prompt_);
    for (int i = 0; i < 4; ++i) plain.decode();

    Loaded b = load(fx_);
    Session s(*b.backend, *b.tokenizer, sampled(3));
    CancelToken stop;
    stop.cancel();
    {
        const Session::CancelScope scope(s, &stop);
        QVERIFY_THROWS_EXCEPTION(CancelledError, s.prefill(prompt_));
    }
    QCOMPARE(s.trace().size(), size_t(0));
    QCOMPARE(b.backend->kv_tokens(), 0);
    s.prefill(prompt_);
    s.decode();
    const std::vector<int32_t> before = s.tokens();
    {
        const Session::CancelScope scope(s, &stop);
        QVERIFY_THROWS_EXCEPTION(CancelledError, s.decode());
    }
    QCOMPARE(s.tokens(), before);
    QCOMPARE(b.backend->kv_tokens(), int32_t(before.size()));
    QCOMPARE(s.trace().size(), size_t(2));
    for (int i = 0; i < 3; ++i) s.decode();
    QCOMPARE(chosen_ids(s), chosen_ids(plain));  // no random draw was spent on the cancelled step
    for (size_t i = 0; i < s.trace().size(); ++i)
        QCOMPARE(s.trace().step(int32_t(i)).logits, plain.trace().step(int32_t(i)).logits);
}

void TestSession::a_late_cancel_stops_only_its_own_job() {
    // A Stop that arrives after the job it meant has finished cancels that job's token, which
    // no later step runs under: the next step runs as if it never came. Scopes nest; the
    // innermost token decides.
    Loaded a = load(fx_);
    Session plain(*a.backend, *a.tokenizer, greedy());
    plain.prefill(prompt_);
    const trace::StepTrace& want = plain.decode();

    Loaded b = load(fx_);
    Session s(*b.backend, *b.tokenizer, greedy());
    CancelToken finished_job;
    {
        const Session::CancelScope scope(s, &finished_job);
        s.prefill(prompt_);
    }
    finished_job.cancel();
    CancelToken next_job;
    {
        const Session::CancelScope outer(s, &finished_job);
        const Session::CancelScope inner(s, &next_job);
        const trace::StepTrace& got = s.decode();
        QCOMPARE(got.logits, want.logits);
    }
    const Session::CancelScope again(s, &finished_job);  // the inner scope ended: this token decides
    QVERIFY_THROWS_EXCEPTION(CancelledError, s.decode());
}

void TestSession::cancel_from_another_thread() {
    // Whether the cancel lands inside the prefill or after it, the session must stay consistent.
    Loaded l = load(fx_);
    Session s(*l.backend, *l.tokenizer, greedy());
    std::vector<int32_t> long_prompt;
    for (int i = 0; i < 200; ++i) long_prompt.push_back((i * 37 + 1) % 1024);
    CancelToken stop;
    const Session::CancelScope scope(s, &stop);
    std::thread canceller([&stop] { stop.cancel(); });
    bool cancelled = false;
    try {
        s.prefill(long_prompt);
    } catch (const CancelledError&) {
        cancelled = true;
    }
    canceller.join();
    if (cancelled) {
        QCOMPARE(s.trace().size(), size_t(0));
        QCOMPARE(l.backend->kv_tokens(), 0);
    } else {
        QCOMPARE(s.trace().size(), size_t(1));
        QCOMPARE(l.backend->kv_tokens(), 200);
        s.reset();
        try {
            s.prefill(long_prompt);  // the token is still cancelled
            QFAIL("a token cancelled between steps must stop the next step run under it");
        } catch (const CancelledError&) {
        }
    }
    CancelToken fresh;
    const Session::CancelScope next(s, &fresh);
    const trace::StepTrace& p = s.prefill(long_prompt);
    QCOMPARE(p.kv.tokens, 200);
    Loaded ref = load(fx_);
    Session clean(*ref.backend, *ref.tokenizer, greedy());
    QCOMPARE(p.logits, clean.prefill(long_prompt).logits);
}

void TestSession::quantized_cache_recorded() {
    Loaded l = load(fx_, KvType::Q8_0);
    Session s(*l.backend, *l.tokenizer, greedy());
    const trace::StepTrace& p = s.prefill(prompt_);
    QCOMPARE(kv_type_name(p.kv.type), std::string_view("q8_0"));
    const model::ModelSpec& spec = l.model->spec();
    // q8_0: 34 bytes per 32 values
    const uint64_t per_layer = 2ull * uint64_t(spec.n_head_kv()) * uint64_t(spec.head_dim() / 32) * 34 * prompt_.size();
    QCOMPARE(p.kv.bytes_total, per_layer * uint64_t(spec.n_layer()));
}

void TestSession::budget_applies() {
    Loaded l = load(fx_);
    SessionOptions o = greedy();
    o.capture.mode = trace::CaptureMode::Full;
    o.trace_budget = 64 * 1024;
    Session s(*l.backend, *l.tokenizer, o);
    s.prefill(prompt_);
    for (int i = 0; i < 30; ++i) s.decode();
    const trace::SessionTrace& t = s.trace();
    QVERIFY(t.dropped_steps() > 0);
    QVERIFY(t.held_bytes() <= t.budget());
    QVERIFY(t.step(0).attention.planes_dropped);
    QVERIFY(!t.step(0).attention.summaries.empty());
    QVERIFY(!t.steps().back().attention.planes_dropped);
}

void TestSession::trace_round_trips() {
    Loaded l = load(fx_);
    SessionOptions o = sampled(11);
    o.capture.full_pairs = {{0, 1}, {2, 7}};
    o.capture.logit_lens = true;
    Session s(*l.backend, *l.tokenizer, o);
    s.prefill(prompt_);
    for (int i = 0; i < 3; ++i) s.decode();
    s.rewind(1);
    s.force(5);
    s.decode();
    QTemporaryDir dir;
    const std::string path = dir.filePath("s.trace").toStdString();
    trace::save_trace(s.trace(), path);
    QVERIFY(trace::load_trace(path) == s.trace());
}

void TestSession::bad_requests_change_nothing() {
    Loaded l = load(fx_);
    Session s(*l.backend, *l.tokenizer, greedy());
    QVERIFY_THROWS_EXCEPTION(UsageError, s.decode());
    QVERIFY_THROWS_EXCEPTION(UsageError, s.force(3));
    QVERIFY_THROWS_EXCEPTION(UsageError, s.rewind(0));  // no steps yet
    QVERIFY_THROWS_EXCEPTION(UsageError, s.prefill(std::vector<int32_t>{}));
    QVERIFY_THROWS_EXCEPTION(UsageError, s.prefill(std::vector<int32_t>{1, 1024}));
    QCOMPARE(s.trace().size(), size_t(0));
    s.prefill(prompt_);
    QVERIFY_THROWS_EXCEPTION(UsageError, s.force(-1));
    QVERIFY_THROWS_EXCEPTION(UsageError, s.rewind(4));
    std::vector<int32_t> too_long(300, 5);
    QVERIFY_THROWS_EXCEPTION(UsageError, s.prefill(too_long));  // n_ctx is 256
    QCOMPARE(s.tokens(), prompt_);
    QCOMPARE(s.trace().size(), size_t(1));
}

namespace {

// Two chat turns with a short greedy reply; returns the turn-2 prefill step.
trace::StepTrace two_turns(Session& s, int reply_tokens) {
    s.chat_turn("Hello there, how is the weather?");
    for (int i = 0; i < reply_tokens && !s.ends_turn(); ++i) s.decode();
    return s.chat_turn("And tomorrow?");
}

}  // namespace

void TestSession::chat_turn_reuses_the_common_prefix() {
    Loaded a = load(fx_);
    Session reuse(*a.backend, *a.tokenizer, greedy());
    const trace::StepTrace t1 = reuse.chat_turn("Hello there, how is the weather?");
    QCOMPARE(t1.turn, 1);
    QCOMPARE(t1.reused_tokens, 0);
    const size_t after_t1 = reuse.tokens().size();
    for (int i = 0; i < 5 && !reuse.ends_turn(); ++i) reuse.decode();
    const size_t before_t2 = reuse.tokens().size();
    const trace::StepTrace& t2 = reuse.chat_turn("And tomorrow?");
    QCOMPARE(t2.turn, 2);
    QCOMPARE(t2.phase, Phase::Prefill);
    QVERIFY2(size_t(t2.reused_tokens) >= after_t1, "the first turn's prompt must stay in the cache");
    QVERIFY(size_t(t2.reused_tokens) <= before_t2);
    QCOMPARE(t2.first_pos, t2.reused_tokens);
    QCOMPARE(int32_t(reuse.tokens().size()), t2.reused_tokens + int32_t(t2.tokens.size()));

    Loaded b = load(fx_);
    Session full(*b.backend, *b.tokenizer, greedy());
    full.set_prefix_reuse(false);
    const trace::StepTrace f2 = two_turns(full, 5);
    QCOMPARE(f2.reused_tokens, 0);
    QCOMPARE(f2.first_pos, 0);
    QCOMPARE(full.tokens(), reuse.tokens());  // the same history, re-fed whole
    QVERIFY(t2.tokens.size() < f2.tokens.size());
    // Same next-token distribution either way (prefill vs cached rows: float rounding only).
    QCOMPARE(t2.logits.chosen, f2.logits.chosen);
    const auto& x = t2.logits.top_before();
    const auto& y = f2.logits.top_before();
    QCOMPARE(x.size(), y.size());
    for (size_t i = 0; i < x.size(); ++i) QVERIFY(std::abs(x[i].prob - y[i].prob) < 1e-3f);
}

void TestSession::chat_cancel_and_rewind_keep_history() {
    Loaded a = load(fx_);
    Session plain(*a.backend, *a.tokenizer, greedy());
    const trace::StepTrace want = two_turns(plain, 4);

    Loaded b = load(fx_);
    Session s(*b.backend, *b.tokenizer, greedy());
    s.chat_turn("Hello there, how is the weather?");
    for (int i = 0; i < 4 && !s.ends_turn(); ++i) s.decode();
    const std::vector<int32_t> before = s.tokens();
    const size_t steps = s.trace().size();
    CancelToken stop;
    stop.cancel();
    {
        const Session::CancelScope scope(s, &stop);
        QVERIFY_THROWS_EXCEPTION(CancelledError, s.chat_turn("And tomorrow?"));
    }
    QCOMPARE(s.tokens(), before);
    QCOMPARE(b.backend->kv_tokens(), int32_t(before.size()));
    QCOMPARE(s.trace().size(), steps);
    const trace::StepTrace got = s.chat_turn("And tomorrow?");
    QCOMPARE(got.tokens, want.tokens);
    QCOMPARE(got.reused_tokens, want.reused_tokens);
    QCOMPARE(got.logits.chosen, want.logits.chosen);

    // Rewind into turn 1 (turn 2's prefill rewrote the tail of the reply with its re-tokenized
    // form, so this recomputes it): turn 2 is forgotten, and asking again renders the same.
    s.rewind(int32_t(steps) - 1);
    const trace::StepTrace again = s.chat_turn("And tomorrow?");
    QCOMPARE(again.turn, 2);
    QCOMPARE(again.parent, int32_t(steps) - 1);
    QCOMPARE(again.reused_tokens, got.reused_tokens);
    QCOMPARE(again.tokens, got.tokens);
    QCOMPARE(again.logits.chosen, got.logits.chosen);
    // Back to the turn-2 branch: its reply continues where it was.
    s.rewind(got.index);
    QCOMPARE(s.tokens().size(), size_t(got.first_pos) + got.tokens.size());
    QCOMPARE(*s.pending(), got.logits.chosen);
}

void TestSession::sample_model_two_turn_chat() {
    const std::string path = testing::sample_model();
    LMSCOPE_REQUIRE_FILE(path, "the sample model");
    Loaded l = load(path);
    Session s(*l.backend, *l.tokenizer, greedy());
    QCOMPARE(s.chat_template().family, model::ChatFamily::ChatML);
    const trace::StepTrace t1 = s.chat_turn("What is the capital of France?");
    int n = 0;
    while (!s.ends_turn() && n++ < 30) s.decode();
    const trace::StepTrace& t2 = s.chat_turn("And of Italy?");
    QVERIFY(t2.reused_tokens > int32_t(t1.tokens.size()));
    QVERIFY(t2.tokens.size() < 20);  // only the new turn's tokens (and the end of the reply)
}

QTEST_APPLESS_MAIN(TestSession)
#include "test_session.moc"
