// The trace adapter: a core SessionTrace built here (2 layers, 4 query heads on 2 KV heads,
// a 3-token prefill and a forced decode) converts into view-model fields that match it: tokens
// and their text, byte tokens, planes (half floats bit for bit), summaries, KV bytes with the
// formula, logits stages; then a TraceModel loads it and a bad plane range is left out.
#include "trace_adapter/trace_adapter.h"

#include "trace/half.h"

#include <QtTest>

using namespace lmscope;

namespace {

constexpr int32_t kLayers = 2, kHeads = 4, kKvHeads = 2, kHeadDim = 32;

float weight(int32_t l, int32_t h, int32_t q, int32_t k) {  // rows sum to 1
    return k > q ? 0.0f : float(k + 1 + l + h) / float((q + 1) * (q + 2) / 2 + (q + 1) * (l + h));
}

trace::StepTrace make_step(int32_t parent, Phase phase, int32_t first, std::vector<int32_t> tokens,
                           Choice how) {
    trace::StepCapture cap;
    cap.n_layer = kLayers;
    cap.n_head = kHeads;
    cap.n_rows = int32_t(tokens.size());
    const int32_t n_keys = first + cap.n_rows;
    for (int32_t l = 0; l < kLayers; ++l)
        for (int32_t h = 0; h < kHeads; ++h) {
            trace::AttentionPlane p{{l, h}, first, cap.n_rows, n_keys, {}};
            for (int32_t r = 0; r < cap.n_rows; ++r)
                for (int32_t k = 0; k < n_keys; ++k) p.weights.push_back(weight(l, h, first + r, k));
            cap.planes.push_back(std::move(p));
            for (int32_t r = 0; r < cap.n_rows; ++r) cap.summaries.push_back({0.5f + float(r), 0.25f, first + r});
        }
    // summaries are [layer][head][row]: the loop above appends them in that order
    trace::StepTrace s;
    s.parent = parent;
    s.phase = phase;
    s.first_pos = first;
    s.tokens = std::move(tokens);
    s.fed_how = how;
    s.forward_ms = phase == Phase::Prefill ? 20.0 : 4.0;
    s.sample_ms = 0.5;
    s.layer_ms = {1.5, 2.5};
    s.attention = trace::attention_from_capture(cap);
    s.kv.tokens = n_keys;
    s.kv.type = KvType::F16;
    s.kv.bytes_per_layer = {uint64_t(n_keys) * 2 * kKvHeads * kHeadDim * 2, uint64_t(n_keys) * 2 * kKvHeads * kHeadDim * 2};
    s.kv.bytes_total = s.kv.bytes_per_layer[0] * 2;
    s.logits.stages = {{Stage::Raw, 49152, {{10, 9.5f, 0.5f}, {11, 8.0f, 0.25f}, {0xE6, 7.0f, 0.125f}}},
                       {Stage::TopK, 2, {{10, 9.5f, 0.6875f}, {11, 8.0f, 0.3125f}}}};
    s.logits.entropy = 1.5f;
    s.logits.chosen = 10;
    s.logits.how = Choice::Greedy;
    s.logits.chosen_prob = 0.5f;
    s.logits.chosen_prob_after = 0.6875f;
    return s;
}

trace::SessionTrace make_trace() {
    trace::SessionTrace t;
    t.model.file = "fixture.gguf";
    t.model.spec = {{"name", "fixture-gqa"}, {"n_layer", kLayers}, {"n_head", kHeads}, {"n_head_kv", kKvHeads},
                    {"head_dim", kHeadDim}};
    t.pieces = {{1, "The"}, {2, " river"}, {3, "\n"}, {10, " bank"}, {11, " side"}, {0xE6, std::string("\xE6", 1)}};
    t.add(make_step(-1, Phase::Prefill, 0, {1, 2, 3}, Choice::Prompt));
    t.add(make_step(0, Phase::Decode, 3, {0xE6}, Choice::Forced));
    return t;
}

}  // namespace

class TestTraceAdapter : public QObject {
    Q_OBJECT
private slots:
    void modelShape() {
        const trace::SessionTrace t = make_trace();
        const widgets::ModelView m = app::model_view(t);
        QCOMPARE(m.name, QStringLiteral("fixture-gqa"));
        QCOMPARE(m.n_layer, kLayers);
        QCOMPARE(m.n_head, kHeads);
        QCOMPARE(m.n_head_kv, kKvHeads);
        QCOMPARE(m.head_dim, kHeadDim);
        QCOMPARE(m.kv_group(3), 1);
        QVERIFY(m.layer_window.isEmpty());  // a spec without a layer plan: every layer global
        QCOMPARE(m.window(0), 0);
    }

    // The spec's layer plan gives each layer's window; a plan of the wrong length or hostile
    // values are ignored (every layer global).
    void layerWindows() {
        trace::SessionTrace t = make_trace();
        nlohmann::json plan = nlohmann::json::array();
        for (int l = 0; l < kLayers; ++l) plan.push_back({{"rope", true}, {"window", l == kLayers - 1 ? 0 : 16}});
        t.model.spec["layer_plan"] = plan;
        widgets::ModelView m = app::model_view(t);
        QCOMPARE(m.window(0), 16);
        QCOMPARE(m.window(kLayers - 1), 0);
        QVERIFY(m.outside_window(0, 20, 4));
        QVERIFY(!m.outside_window(0, 20, 5));
        QVERIFY(!m.outside_window(kLayers - 1, 20, 4));
        // the KV formula line counts the local layers at their window: with 4 tokens held
        // (all inside the window of 16) every layer holds them; at 100 tokens the local ones 16
        const uint64_t per_layer_token = 2 * kKvHeads * kHeadDim * 2;
        QCOMPARE(app::formula_kv_bytes(t, KvType::F16, 4), per_layer_token * kLayers * 4);
        QCOMPARE(app::formula_kv_bytes(t, KvType::F16, 100), per_layer_token * (100 + (kLayers - 1) * 16));
        t.model.spec["layer_plan"][0]["window"] = -3;
        QCOMPARE(app::model_view(t).window(0), 0);
        t.model.spec["layer_plan"].erase(0);
        QVERIFY(app::model_view(t).layer_window.isEmpty());
    }

    // The formula's line for the KV chart: corners at 0, the window (when inside the context)
    // and the context's end, each the formula's bytes; the local layers' part flat past the
    // window; a model view carries it up to the trace's longest step.
    void kvFormulaLine_data() {
        QTest::addColumn<int>("window");   // layer 0's window; 0: every layer global
        QTest::addColumn<int>("context");
        QTest::addColumn<QVector<double>>("corners");
        QTest::newRow("every layer global") << 0 << 100 << QVector<double>{0, 100};
        QTest::newRow("window inside the context") << 16 << 100 << QVector<double>{0, 16, 100};
        QTest::newRow("window beyond the context") << 512 << 100 << QVector<double>{0, 100};
    }
    void kvFormulaLine() {
        QFETCH(int, window);
        QFETCH(int, context);
        QFETCH(QVector<double>, corners);
        trace::SessionTrace t = make_trace();
        nlohmann::json plan = nlohmann::json::array();
        for (int l = 0; l < kLayers; ++l) plan.push_back({{"rope", true}, {"window", l == 0 ? window : 0}});
        t.model.spec["layer_plan"] = plan;
        const widgets::KvFormulaView line = app::kv_formula_view(t, KvType::F16, context);
        QCOMPARE(line.tokens, corners);
        QCOMPARE(line.window, window);
        QCOMPARE(line.local_layers, window > 0 ? 1 : 0);
        const double per_layer_token = 2 * kKvHeads * kHeadDim * 2;
        for (qsizetype i = 0; i < corners.size(); ++i) {
            QCOMPARE(line.bytes[i], double(app::formula_kv_bytes(t, KvType::F16, int32_t(corners[i]))));
            if (window > 0) QCOMPARE(line.local_bytes[i], per_layer_token * std::min(corners[i], double(window)));
        }
        QCOMPARE(line.local_bytes.isEmpty(), window == 0);
        QVERIFY(app::kv_formula_view(t, KvType::F16, 0).empty());
        QCOMPARE(app::model_view(t).kv_formula.tokens.back(), 4.0);  // the longest step holds 4
    }

    void tokenText_data() {
        QTest::addColumn<int>("id");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("byte");
        QTest::addColumn<int>("n_bytes");
        QTest::newRow("word") << 2 << QStringLiteral(" river") << false << 6;
        QTest::newRow("newline") << 3 << QStringLiteral("\n") << false << 1;
        QTest::newRow("half a character") << 0xE6 << QStringLiteral("<0xE6>") << true << 1;
        QTest::newRow("unknown id") << 99 << QStringLiteral("#99") << false << 0;
    }
    void tokenText() {
        QFETCH(int, id);
        QFETCH(QString, text);
        QFETCH(bool, byte);
        QFETCH(int, n_bytes);
        const trace::SessionTrace t = make_trace();
        const app::TokenText tt = app::token_text(t, id);
        QCOMPARE(tt.text, text);
        QCOMPARE(tt.byte_fallback, byte);
        QCOMPARE(tt.n_bytes, n_bytes);
    }

    void byteFallbackFromPiece() {
        const trace::SessionTrace t = make_trace();
        const app::TokenText tt = app::token_text(t, 3, {{3, "<0x0A>"}});
        QCOMPARE(tt.text, QStringLiteral("\n"));
        QCOMPARE(tt.piece, QStringLiteral("<0x0A>"));
        QVERIFY(tt.byte_fallback);
        QVERIFY(!app::token_text(t, 2, {{2, "▁river"}}).byte_fallback);
    }

    void stepFields() {
        const trace::SessionTrace t = make_trace();
        for (int32_t i = 0; i < 2; ++i) {
            const trace::StepTrace& s = t.step(i);
            const widgets::StepView v = app::step_view(t, i);
            QCOMPARE(v.index, i);
            QCOMPARE(v.parent, s.parent);
            QCOMPARE(v.phase, i == 0 ? Phase::Prefill : Phase::Decode);
            QCOMPARE(v.first_pos, s.first_pos);
            QCOMPARE(v.tokens.size(), qsizetype(s.tokens.size()));
            for (qsizetype k = 0; k < v.tokens.size(); ++k) QCOMPARE(v.tokens[k].id, s.tokens[size_t(k)]);
            QCOMPARE(v.tokens[0].origin, i == 0 ? Choice::Prompt : Choice::Forced);
            QCOMPARE(v.forward_ms, s.forward_ms);
            QCOMPARE(v.layer_ms, (QVector<double>{1.5, 2.5}));

            QCOMPARE(v.planes.size(), qsizetype(kLayers * kHeads));
            for (qsizetype p = 0; p < v.planes.size(); ++p) {
                const widgets::AttentionPlaneView& pv = v.planes[p];
                QVERIFY(pv.valid());
                const std::vector<float> m = s.attention.matrix(size_t(p));  // [n_rows][n_keys]
                for (int32_t r = 0; r < pv.n_rows; ++r)
                    for (int32_t k = 0; k < pv.n_keys(); ++k) QCOMPARE(pv.weight(r, k), m[size_t(r * pv.n_keys() + k)]);
                QVERIFY(std::abs(pv.weight(pv.n_rows - 1, 0) - weight(pv.layer, pv.head, pv.first_row_pos + pv.n_rows - 1, 0)) < 1e-3);
            }
            QCOMPARE(v.summaries.size(), qsizetype(s.attention.summaries.size()));
            QCOMPARE(v.summary(1, 3, 0)->argmax_key, s.attention.summary(1, 3, 0).argmax_key);
            QCOMPARE(v.summary(1, 3, 0)->entropy, s.attention.summary(1, 3, 0).entropy);

            QCOMPARE(v.kv.tokens, s.kv.tokens);
            QCOMPARE(v.kv.type, KvType::F16);
            QCOMPARE(v.kv.bytes_total, s.kv.bytes_total);
            QCOMPARE(v.kv.bytes_per_layer[1], s.kv.bytes_per_layer[1]);
            // 2 x 2 layers x 2 KV heads x 32 dims x tokens x 2 bytes = 512 bytes per token.
            QCOMPARE(v.kv.formula_bytes, quint64(512) * quint64(s.kv.tokens));
            QCOMPARE(v.kv.formula_bytes, s.kv.bytes_total);

            QCOMPARE(v.logits.stages.size(), 2);
            QCOMPARE(v.logits.stages[1].stage, Stage::TopK);
            QCOMPARE(v.logits.stages[1].survivors, 2);
            QCOMPARE(v.logits.before()[2].text, QStringLiteral("<0xE6>"));
            QCOMPARE(v.logits.after()[1].prob, 0.3125f);
            QCOMPARE(v.logits.chosen, 10);
            QCOMPARE(v.logits.chosen_text, QStringLiteral(" bank"));
            QCOMPARE(v.logits.how, Choice::Greedy);
            QCOMPARE(v.logits.entropy, 1.5f);
        }
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, app::step_view(t, 2));
    }

    void loadsIntoTraceModel() {
        trace::SessionTrace t = make_trace();
        widgets::TraceModel model;
        QVERIFY(app::load_trace(model, t));
        QCOMPARE(model.stepCount(), 2);
        QCOMPARE(model.sequenceLength(), 4);
        QCOMPARE(model.sequence()[3].byte_begin, 10);  // "The" " river" "\n" = 10 bytes
        QCOMPARE(model.attentionMatrix(1, 2).at(3, 1), float(qfloat16(weight(1, 2, 3, 1))));

        t.add(make_step(1, Phase::Decode, 4, {10}, Choice::Greedy));
        QVERIFY(model.appendStep(app::step_view(t, 2)));
        QCOMPARE(model.currentStep(), 2);
        QCOMPARE(model.sequence().back().text, QStringLiteral(" bank"));
    }

    void budgetDropsFollowed() {
        trace::SessionTrace t = make_trace();
        widgets::TraceModel model;
        QVERIFY(app::load_trace(model, t));
        QCOMPARE(app::steps_without_planes(t), QVector<qint32>{});
        // A budget that holds only the newest step's planes drops the prefill's.
        t.set_budget(t.held_bytes() - t.step(0).attention.weights.capacity() * 2 + 1);
        QVERIFY(t.step(0).attention.planes_dropped);
        QVERIFY(!t.step(1).attention.planes_dropped);
        QCOMPARE(app::steps_without_planes(t), QVector<qint32>{0});
        for (const qint32 i : app::steps_without_planes(t)) QVERIFY(model.dropPlanes(i));  // as LiveSource applies them
        QVERIFY(model.step(0)->planes.isEmpty());
        QVERIFY(!model.step(1)->planes.isEmpty());
    }

    void badInputsTolerated() {
        trace::SessionTrace t = make_trace();
        trace::StepTrace bad = make_step(1, Phase::Decode, 4, {10}, Choice::Greedy);
        bad.attention.planes[0].offset = bad.attention.weights.size();  // runs past the weights
        t.add(bad);
        const widgets::StepView v = app::step_view(t, 2);
        QCOMPARE(v.planes.size(), qsizetype(kLayers * kHeads - 1));

        trace::SessionTrace no_spec = make_trace();
        no_spec.model.spec = nlohmann::json::object();
        const widgets::ModelView m = app::model_view(no_spec);
        QCOMPARE(m.n_layer, kLayers);  // from the recorded attention shape
        QCOMPARE(m.n_head, kHeads);
        QCOMPARE(app::step_view(no_spec, 0).kv.formula_bytes, quint64(0));
    }
};

QTEST_APPLESS_MAIN(TestTraceAdapter)
#include "test_trace_adapter.moc"
