// The KV cache lab: every number it shows against the core's own results — the formula
// (kv::cache_bytes) for presets and the loaded model, the chart's points and budget figures
// (kv::attention_variants, tokens_that_fit, weights_bytes), the offload figures (plan_offload),
// the live run's measured curve (a TraceModel fed from a real session), and the f16 / q8_0 /
// q4_0 experiment (kv_stats and KL of sessions run here).
#include "common/testing.h"
#include "engine/backend.h"
#include "engine/model.h"
#include "engine/session.h"
#include "gui/labs/kv_lab.h"
#include "gui/labs/kv_lab_chart.h"
#include "gui/labs/kv_lab_common.h"
#include "gui/labs/kv_lab_experiment_panel.h"
#include "gui/labs/kv_lab_formula.h"
#include "gui/labs/kv_lab_offload.h"
#include "gui/labs/lab_host.h"
#include "gui/engine_setup.h"
#include "kv/kv_math.h"
#include "kv/presets.h"
#include "tokenizer/tokenizer.h"
#include "trace_adapter/trace_adapter.h"
#include "widgets/cache_kl_chart.h"
#include "widgets/kv_growth_chart.h"
#include "widgets/trace_model.h"

#include <QComboBox>
#include <QLabel>
#include <QLocale>
#include <QRegularExpression>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace lmscope;
using namespace lmscope::gui;
using namespace lmscope::gui::labs;

namespace {

std::string model_path(const QString& name) {
    return name == QStringLiteral("SmolLM2") ? testing::sample_model()
                                             : testing::testdata_file("models/" + name.toStdString() + ".gguf");
}

KvType type_of(const QString& name) { return *parse_kv_type(name.toStdString()); }

const kv::Preset& preset(const QString& name) {
    const kv::Preset* p = kv::find_preset(name.toStdString());
    if (!p) qFatal("no preset %s", qPrintable(name));
    return *p;
}

kv::Shape shape_of(const engine::Model& m) {
    const model::ModelSpec& s = m.spec();
    kv::Shape k{uint64_t(s.n_layer()), uint64_t(s.n_head()), uint64_t(s.n_head_kv()), uint64_t(s.head_dim())};
    for (const model::LayerPlan& p : s.layers)  // local layers keep only their window
        if (p.window > 0) {
            ++k.n_local;
            k.window = uint64_t(p.window);
        }
    return k;
}

// The digits of a label ("42,949,672,960 bytes" -> 42949672960).
quint64 digits_of(const QString& text) {
    QString d;
    for (QChar c : text)
        if (c.isDigit()) d += c;
    return d.toULongLong();
}

// The first decimal number in a label ("42.95 GB" -> 42.95), in the test's locale.
double number_of(const QString& text) {
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("[0-9][0-9,]*(\\.[0-9]+)?")).match(text);
    return m.hasMatch() ? QString(m.captured(0)).remove(QLatin1Char(',')).toDouble() : qQNaN();
}

QLabel* label(const QWidget& w, const char* name) {
    auto* l = w.findChild<QLabel*>(QLatin1String(name));
    if (!l) qFatal("no label %s", name);
    return l;
}

// Every row's logits of one run, as the experiment defines it: the prompt in one step (every
// position), then one decode step per token of `feed` (or greedy picks, stored in `feed`).
std::vector<float> run_rows(const LabModelPtr& model, KvType type, const std::vector<int32_t>& prompt,
                            int steps, std::vector<int32_t>& feed, bool choose, uint64_t& measured, int32_t& held) {
    EngineOptions o;
    o.resources.kv_type = type;
    EngineSession lab = make_engine_session(model, o);
    const size_t V = size_t(model->model->spec().n_vocab());
    std::vector<float> rows((prompt.size() + size_t(steps)) * V);
    lab.backend->forward({.tokens = prompt, .logits = std::span<float>(rows.data(), prompt.size() * V), .all_logits = true});
    for (int s = 0; s < steps; ++s) {
        const size_t row = prompt.size() + size_t(s);
        const float* last = rows.data() + (row - 1) * V;
        if (choose) feed.push_back(int32_t(std::max_element(last, last + V) - last));
        const int32_t id = feed[size_t(s)];
        lab.backend->forward({.tokens = std::span<const int32_t>(&id, 1), .pos0 = int32_t(row), .logits = std::span<float>(rows.data() + row * V, V)});
    }
    measured = lab.backend->kv_stats().total_bytes;
    held = lab.backend->kv_stats().n_tokens;
    return rows;
}

// The curve the chart draws for one attention variant at one cache type; none when not drawn.
std::optional<widgets::KvGrowthCurve> curve(const KvCostChart& chart, kv::AttentionKind kind, KvType type) {
    for (const widgets::KvGrowthCurve& c : chart.growthChart()->viewState().curves)
        if (c.family == qint32(kind) && c.type == type) return c;
    return std::nullopt;
}

// The live run's points the chart draws (none while it hides the curve).
widgets::KvGrowthCurve measured_curve(const KvLab& lab) {
    return lab.chart()->growthChart()->viewState().measured.value_or(widgets::KvGrowthCurve{});
}

}  // namespace

class TestKvLab : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void formulaMatchesCore_data();
    void formulaMatchesCore();
    void loadedModelIsDefault_data();
    void loadedModelIsDefault();
    void chartMatchesCore_data();
    void chartMatchesCore();
    void offloadMatchesPlan_data();
    void offloadMatchesPlan();
    void liveCurveFollowsTrace();
    void offloadMeasured_data();
    void offloadMeasured();
    void experimentMatchesCore_data();
    void experimentMatchesCore();
    void experimentStops();
};

void TestKvLab::initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

void TestKvLab::formulaMatchesCore_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("type");
    QTest::addColumn<int>("tokens");
    QTest::addColumn<int>("batch");
    QTest::addColumn<quint64>("expected");  // 0: kv::cache_bytes alone decides
    QTest::newRow("llama-3.1-70b 128K fp16") << "llama-3.1-70b" << "f16" << 131072 << 1 << quint64(42'949'672'960ull);
    QTest::newRow("llama-2-7b 4K fp16") << "llama-2-7b" << "f16" << 4096 << 1 << quint64(2'147'483'648ull);
    QTest::newRow("llama-3.1-405b 128K q4_0") << "llama-3.1-405b" << "q4_0" << 131072 << 1 << quint64(0);
    QTest::newRow("smollm2-135m 8K q8_0") << "smollm2-135m" << "q8_0" << 8192 << 1 << quint64(0);
    QTest::newRow("qwen2.5-0.5b 32K q4_0") << "qwen2.5-0.5b" << "q4_0" << 32768 << 1 << quint64(0);
    QTest::newRow("mistral-7b 32K fp16 x4") << "mistral-7b" << "f16" << 32768 << 4 << quint64(0);
    QTest::newRow("tinyllama 1 token q8_0") << "tinyllama-1.1b" << "q8_0" << 1 << 1 << quint64(0);
    // 3 global x 32768 + 15 local x 512 positions x 1 KiB (ARCHITECTURES.md's 103.5 MiB)
    QTest::newRow("gemma-3-270m 32K fp16") << "gemma-3-270m" << "f16" << 32768 << 1 << quint64(108'527'616ull);
    QTest::newRow("gemma-3-1b inside the window q8_0") << "gemma-3-1b" << "q8_0" << 300 << 2 << quint64(0);
}

void TestKvLab::formulaMatchesCore() {
    QFETCH(QString, preset);
    QFETCH(QString, type);
    QFETCH(int, tokens);
    QFETCH(int, batch);
    QFETCH(quint64, expected);
    LabHost host(nullptr);
    KvLab lab(&host);
    KvFormulaPanel& f = *lab.formula();
    QVERIFY(f.setPreset(preset));
    QVERIFY(f.setCacheType(type));
    f.setTokens(tokens);
    f.setBatch(batch);
    const uint64_t core = kv::cache_bytes(::preset(preset).shape, type_of(type), uint64_t(tokens), uint64_t(batch));
    if (expected) QCOMPARE(core, expected);
    QCOMPARE(f.findChild<QComboBox*>(QStringLiteral("kvPreset"))->currentData().toString(), preset);
    QCOMPARE(digits_of(label(f, "kvBytes")->text()), quint64(core));
    const double gb = number_of(label(f, "kvGB")->text());
    const double gib = number_of(label(f, "kvGiB")->text());
    const double tol = core >= 1'000'000'000ull ? 0.005 : 0.00005;  // two decimals from 1 GB on, four below
    QVERIFY2(std::abs(gb - double(core) / 1e9) <= tol, qPrintable(label(f, "kvGB")->text()));
    QVERIFY2(std::abs(gib - double(core) / double(1ull << 30)) <= tol, qPrintable(label(f, "kvGiB")->text()));
    QVERIFY(label(f, "kvGB")->text().endsWith(QStringLiteral(" GB")));
    QVERIFY(label(f, "kvGiB")->text().endsWith(QStringLiteral(" GiB")));
    QCOMPARE(f.bytes(), core);
    QCOMPARE(uint64_t(f.findChild<QSpinBox*>(QStringLiteral("kvLocalLayers"))->value()), ::preset(preset).shape.n_local);
    QCOMPARE(uint64_t(f.findChild<QSpinBox*>(QStringLiteral("kvWindow"))->value()), ::preset(preset).shape.window);
    if (::preset(preset).shape.n_local > 0)
        QVERIFY2(label(f, "kvFormula")->text().contains(QStringLiteral("%1 local layers").arg(::preset(preset).shape.n_local)),
                 qPrintable(label(f, "kvFormula")->text()));
    // Editing a field makes the shape custom and the result follows.
    f.setShape(int(::preset(preset).shape.n_layer) + 1, int(::preset(preset).shape.n_head),
               int(::preset(preset).shape.n_head_kv), int(::preset(preset).shape.head_dim));
    kv::Shape more = ::preset(preset).shape;
    ++more.n_layer;
    QCOMPARE(f.findChild<QComboBox*>(QStringLiteral("kvPreset"))->currentData().toString(), QStringLiteral("custom"));
    QCOMPARE(digits_of(label(f, "kvBytes")->text()), quint64(kv::cache_bytes(more, type_of(type), uint64_t(tokens), uint64_t(batch))));
}

void TestKvLab::loadedModelIsDefault_data() {
    QTest::addColumn<QString>("model");
    QTest::newRow("fx-gqa") << "fx-gqa";
    QTest::newRow("fx-mha-untied") << "fx-mha-untied";
    QTest::newRow("SmolLM2") << "SmolLM2";
    QTest::newRow("fx-gemma3 (3 local layers, window 16)") << "fx-gemma3";
}

void TestKvLab::loadedModelIsDefault() {
    QFETCH(QString, model);
    LMSCOPE_REQUIRE_FILE(model_path(model), "the model");
    LabHost host(nullptr);
    KvLab lab(&host);
    host.setModel(load_lab_model(QString::fromStdString(model_path(model))));
    const model::ModelSpec& spec = host.model()->model->spec();
    KvFormulaPanel& f = *lab.formula();
    auto* preset = f.findChild<QComboBox*>(QStringLiteral("kvPreset"));
    QCOMPARE(preset->currentData().toString(), QStringLiteral("model"));
    QVERIFY(preset->currentText().contains(host.model()->name));
    QCOMPARE(f.findChild<QSpinBox*>(QStringLiteral("kvLayers"))->value(), spec.n_layer());
    QCOMPARE(f.findChild<QSpinBox*>(QStringLiteral("kvHeads"))->value(), spec.n_head());
    QCOMPARE(f.findChild<QSpinBox*>(QStringLiteral("kvKvHeads"))->value(), spec.n_head_kv());
    QCOMPARE(f.findChild<QSpinBox*>(QStringLiteral("kvHeadDim"))->value(), spec.head_dim());
    QCOMPARE(f.findChild<QSpinBox*>(QStringLiteral("kvTokens"))->value(), spec.n_ctx_train());
    QCOMPARE(uint64_t(f.findChild<QSpinBox*>(QStringLiteral("kvLocalLayers"))->value()), shape_of(*host.model()->model).n_local);
    QCOMPARE(uint64_t(f.findChild<QSpinBox*>(QStringLiteral("kvWindow"))->value()), shape_of(*host.model()->model).window);
    const uint64_t core = kv::cache_bytes(shape_of(*host.model()->model), KvType::F16, uint64_t(spec.n_ctx_train()));
    QCOMPARE(digits_of(label(f, "kvBytes")->text()), quint64(core));
    // The experiment runs on it too: its Run button is enabled.
    QVERIFY(lab.findChild<QWidget*>(QStringLiteral("kvExperimentRun"))->isEnabled());
    // Another preset, then back to the model.
    QVERIFY(f.setPreset(QStringLiteral("llama-2-7b")));
    QCOMPARE(f.findChild<QSpinBox*>(QStringLiteral("kvLayers"))->value(), 32);
    QVERIFY(f.setPreset(QStringLiteral("model")));
    QCOMPARE(f.findChild<QSpinBox*>(QStringLiteral("kvLayers"))->value(), spec.n_layer());
}

void TestKvLab::chartMatchesCore_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<double>("budget_gb");
    QTest::addColumn<QString>("weights");
    QTest::newRow("llama-3.1-70b on 80 GB (weights do not fit)") << "llama-3.1-70b" << 80.0 << "f16";
    QTest::newRow("llama-3.1-70b on 80 GB, int4 weights") << "llama-3.1-70b" << 80.0 << "q4_0";
    QTest::newRow("llama-3.1-8b on 80 GB") << "llama-3.1-8b" << 80.0 << "f16";
    QTest::newRow("llama-2-7b (MHA) on 24 GB") << "llama-2-7b" << 24.0 << "q8_0";
    QTest::newRow("smollm2-135m on 1 GB") << "smollm2-135m" << 1.0 << "f16";
}

void TestKvLab::chartMatchesCore() {
    QFETCH(QString, preset);
    QFETCH(double, budget_gb);
    QFETCH(QString, weights);
    LabHost host(nullptr);
    KvLab lab(&host);
    QVERIFY(lab.formula()->setPreset(preset));
    KvCostChart& chart = *lab.chart();
    chart.setBudgetGB(budget_gb);
    QVERIFY(chart.setWeightsType(weights));
    const kv::Preset& p = ::preset(preset);
    const uint64_t budget = uint64_t(std::llround(budget_gb * 1e9));
    const uint64_t weights_bytes = kv::weights_bytes(p.n_params, type_of(weights));
    QCOMPARE(chart.budgetBytes(), budget);
    QCOMPARE(chart.weightsBytes(), weights_bytes);

    const std::vector<kv::Variant> variants = kv::attention_variants(p.shape);
    auto* fit = chart.fitTable();
    QCOMPARE(fit->rowCount(), int(variants.size()));
    for (size_t v = 0; v < variants.size(); ++v) {
        for (size_t t = 0; t < kKvTypes.size(); ++t) {
            const KvType type = kKvTypes[t];
            const std::optional<widgets::KvGrowthCurve> g = curve(chart, variants[v].kind, type);
            QVERIFY2(g, qPrintable(attention_kind_label(variants[v].kind)));
            QVERIFY(g->tokens.size() > 20);
            QCOMPARE(g->bytes.size(), g->tokens.size());
            QCOMPARE(uint64_t(g->tokens.back()), p.max_context);
            for (qsizetype i = 0; i < g->tokens.size(); ++i)
                QCOMPARE(g->bytes[i], double(kv::cache_bytes(variants[v].shape, type, uint64_t(g->tokens[i]))));
            const uint64_t core_fit = kv::tokens_that_fit(variants[v].shape, type, 1, budget, weights_bytes);
            QCOMPARE(fit->item(int(v), int(t))->data(Qt::UserRole).toULongLong(), qulonglong(core_fit));
            QCOMPARE(digits_of(fit->item(int(v), int(t))->text()), quint64(core_fit));
        }
    }
    // The kinds the core does not list have no curve.
    for (kv::AttentionKind kind : {kv::AttentionKind::MHA, kv::AttentionKind::GQA, kv::AttentionKind::MQA}) {
        const bool listed = std::any_of(variants.begin(), variants.end(), [&](const kv::Variant& v) { return v.kind == kind; });
        QCOMPARE(curve(chart, kind, KvType::F16).has_value(), listed);
    }
    const widgets::KvGrowthChart::ViewState shown = chart.growthChart()->viewState();
    QVERIFY(shown.budget);
    QCOMPARE(shown.budget->bytes, double(budget));
    const bool space = weights_bytes < budget;
    QCOMPARE(shown.kv_space.has_value(), space);
    if (space) QCOMPARE(shown.kv_space->bytes, double(budget - weights_bytes));
    const QString summary = label(chart, "kvBudgetSummary")->text();
    if (space) {
        const uint64_t core_fit = kv::tokens_that_fit(p.shape, KvType::F16, 1, budget, weights_bytes);
        QVERIFY2(summary.contains(QLocale().toString(qulonglong(core_fit))), qPrintable(summary));
    } else {
        QVERIFY2(summary.contains(QStringLiteral("do not fit")), qPrintable(summary));
    }
    // The log / linear switch keeps the data.
    chart.setLogScale(false);
    QVERIFY(!chart.growthChart()->viewState().log_scale);
    QCOMPARE(chart.growthChart()->viewState().curves.size(), shown.curves.size());
    chart.setLogScale(true);
    QVERIFY(chart.growthChart()->viewState().log_scale);
}

void TestKvLab::offloadMatchesPlan_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("type");
    QTest::addColumn<int>("context");
    QTest::addColumn<double>("budget_gb");
    QTest::newRow("llama-3.1-70b 128K fp16 in 10 GB") << "llama-3.1-70b" << "f16" << 131072 << 10.0;
    QTest::newRow("llama-3.1-8b 100K q8_0 in 4 GB") << "llama-3.1-8b" << "q8_0" << 100000 << 4.0;
    QTest::newRow("smollm2-135m 8K q4_0 in 0.01 GB") << "smollm2-135m" << "q4_0" << 8192 << 0.01;
    QTest::newRow("everything fits") << "llama-3.2-1b" << "f16" << 2048 << 1.0;
}

void TestKvLab::offloadMatchesPlan() {
    QFETCH(QString, preset);
    QFETCH(QString, type);
    QFETCH(int, context);
    QFETCH(double, budget_gb);
    LabHost host(nullptr);
    KvLab lab(&host);
    QVERIFY(lab.formula()->setPreset(preset));
    QVERIFY(lab.formula()->setCacheType(type));
    KvOffloadPanel& o = *lab.offload();
    o.setContext(context);
    o.setDeviceBudgetGB(budget_gb);
    const kv::Shape shape = ::preset(preset).shape;
    const uint64_t budget = uint64_t(std::llround(budget_gb * 1e9));
    const uint64_t window = budget / kv::bytes_per_token(shape, type_of(type));
    const kv::OffloadPlan plan = kv::plan_offload(shape, type_of(type), 1, uint64_t(context), window);
    QVERIFY(o.valid());
    QCOMPARE(o.windowTokens(), window);
    const std::pair<const char*, uint64_t> figures[] = {
        {"offloadWindow", plan.device_tokens},           {"offloadDeviceBytes", plan.device_bytes},
        {"offloadHostTokens", plan.host_tokens},         {"offloadHostBytes", plan.host_bytes},
        {"offloadEvicted", plan.evicted_bytes_per_step}, {"offloadStreamed", plan.streamed_bytes_per_step},
        {"offloadMoved", plan.moved_bytes_per_step()}};
    for (const auto& [name, value] : figures) {
        QLabel* l = label(o, name);
        QCOMPARE(l->property("value").toULongLong(), qulonglong(value));
        QVERIFY2(l->text().contains(QLocale().toString(qulonglong(value))), qPrintable(QLatin1String(name) + l->text()));
    }
    auto* strip = o.findChild<KvOffloadStrip*>(QStringLiteral("offloadStrip"));
    QCOMPARE(strip->plan().host_tokens, plan.host_tokens);
    QCOMPARE(strip->plan().device_tokens, plan.device_tokens);
    if (plan.host_tokens > 0) QVERIFY(plan.streamed_bytes_per_step > 0);
}

void TestKvLab::offloadMeasured_data() {
    QTest::addColumn<QString>("model");
    QTest::newRow("fx-gqa") << "fx-gqa";
    QTest::newRow("fx-gemma3 (sliding windows)") << "fx-gemma3";
}
// The offload page's measurement on the loaded model: the whole cache moves nothing; within a
// half, a quarter and an eighth of it the file holds bytes and every decode step moves some
// (more as the budget shrinks), the bytes stored stay the formula's; the model's prediction
// is plan_offload's for the same window; the table shows the rows.
void TestKvLab::offloadMeasured() {
    QFETCH(QString, model);
    LMSCOPE_REQUIRE_FILE(model_path(model), "the model");
    const LabModelPtr m = load_lab_model(QString::fromStdString(model_path(model)));
    LabHost host(nullptr);
    KvLab lab(&host);
    host.setModel(m);
    KvOffloadPanel& o = *lab.offload();
    o.setContext(300);
    QSignalSpy measured(&o, &KvOffloadPanel::measured);
    o.findChild<QPushButton*>(QStringLiteral("offloadMeasure"))->click();
    QVERIFY(o.isMeasuring());
    QVERIFY(testing::wait_for(measured, 1, 300000));
    const std::vector<OffloadRunRow>& rows = o.measuredRows();
    QCOMPARE(rows.size(), size_t(4));
    QCOMPARE(o.measuredTable()->rowCount(), 4);
    const kv::Shape shape = m->model->spec().kv_shape();
    for (size_t i = 0; i < rows.size(); ++i) {
        const OffloadRunRow& r = rows[i];
        QCOMPARE(r.stored_bytes, r.formula_bytes);
        QCOMPARE(r.formula_bytes, kv::cache_bytes(shape, KvType::F16, 300 + 16));
        QCOMPARE(o.measuredTable()->item(int(i), KvOffloadPanel::MovedMeasured)->data(Qt::UserRole).toDouble(), r.moved_per_token);
        const uint64_t window = r.budget_bytes ? r.budget_bytes / kv::bytes_per_token(shape, KvType::F16) : 316;
        QCOMPARE(r.predicted.moved_bytes_per_step(), kv::plan_offload(shape, KvType::F16, 1, 308, window).moved_bytes_per_step());
        QVERIFY(r.decode_tok_s > 0);
        if (i == 0) {
            QCOMPARE(r.budget_bytes, uint64_t(0));
            QCOMPARE(r.moved_per_token, 0.0);
            QCOMPARE(r.offloaded_bytes, uint64_t(0));
            continue;
        }
        QCOMPARE(r.budget_bytes, kv::cache_bytes(shape, KvType::F16, 300) >> i);
        QVERIFY(r.offloaded_bytes > 0);
        QVERIFY(r.moved_per_token > 0);
        QVERIFY(r.moved_per_token >= rows[i - 1].moved_per_token);
        QVERIFY(r.resident_bytes < rows[0].resident_bytes);
    }
}

void TestKvLab::liveCurveFollowsTrace() {
    LMSCOPE_REQUIRE_FILE(testing::testdata_file("models/fx-gqa.gguf"), "the fixture fx-gqa.gguf");
    const LabModelPtr model = load_lab_model(QString::fromStdString(testing::testdata_file("models/fx-gqa.gguf")));
    widgets::TraceModel trace;
    LabHost host(&trace);
    KvLab lab(&host);
    host.setModel(model);  // the formula shows the loaded model: the live run belongs on its chart
    const auto measured = [&lab] { return measured_curve(lab); };
    QCOMPARE(measured().tokens.size(), 0);

    EngineOptions so;
    so.resources.kv_type = KvType::Q8_0;
    EngineSession run = make_engine_session(model, so);
    engine::Session& session = *run.session;
    std::vector<std::pair<double, double>> expected;  // (tokens, bytes) after each step
    const auto step_done = [&] {
        QVERIFY(trace.appendStep(app::step_view(session.trace(), int32_t(session.trace().size()) - 1)));
        const engine::KvStats stats = run.backend->kv_stats();
        expected.emplace_back(double(stats.n_tokens), double(stats.total_bytes));
        const widgets::KvGrowthCurve shown = measured();
        QCOMPARE(shown.tokens.size(), int(expected.size()));
        QCOMPARE(shown.bytes.size(), int(expected.size()));
        for (int i = 0; i < int(expected.size()); ++i) {
            QCOMPARE(shown.tokens[i], expected[size_t(i)].first);
            QCOMPARE(shown.bytes[i], expected[size_t(i)].second);
        }
    };
    session.prefill(model->tokenizer->encode_ids("Hello world", true, false));
    step_done();
    for (int i = 0; i < 3; ++i) {
        session.decode();
        step_done();
    }
    // the loaded model's run, in its cache type (the summary under the chart names the model)
    QCOMPARE(measured().name, QStringLiteral("measured: the live run (q8_0)"));
    // Another shape's chart does not show this model's run; the loaded model's shows it again.
    QVERIFY(lab.formula()->setPreset(QStringLiteral("llama-3.1-70b")));
    QVERIFY(!lab.chart()->growthChart()->viewState().measured);
    QVERIFY(lab.formula()->setPreset(QStringLiteral("model")));
    QCOMPARE(measured().tokens.size(), int(expected.size()));
    // Back to the prefill step: the curve shows the path to it.
    trace.setCurrentStep(0);
    QCOMPARE(measured().tokens.size(), 1);
    trace.clear();
    QCOMPARE(measured().tokens.size(), 0);
}

void TestKvLab::experimentMatchesCore_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("prompt");
    QTest::addColumn<int>("steps");
    QTest::newRow("fx-gqa") << "fx-gqa" << "Hello world, the cache keeps every key" << 4;
    QTest::newRow("fx-mha-untied") << "fx-mha-untied" << "Hello world" << 2;
    QTest::newRow("SmolLM2") << "SmolLM2"
                             << "The keys and values of every token stay in the cache, so each new token only "
                                "computes its own and attends to all of them."
                             << 8;
    // the local layers' rings wrap: the measured bytes are the per-layer formula's
    QTest::newRow("fx-gemma3") << "fx-gemma3"
                               << "A local layer keeps only the keys and values of its last sixteen tokens, so its "
                                  "cache stops growing while the global layer keeps them all."
                               << 6;
}

void TestKvLab::experimentMatchesCore() {
    QFETCH(QString, model);
    QFETCH(QString, prompt);
    QFETCH(int, steps);
    LMSCOPE_REQUIRE_FILE(model_path(model), "the model");
    const LabModelPtr m = load_lab_model(QString::fromStdString(model_path(model)));
    LabHost host(nullptr);
    KvLab lab(&host);
    host.setModel(m);
    KvExperimentPanel& e = *lab.experiment();
    e.setPrompt(prompt);
    e.setDecodeSteps(steps);
    lab.runExperiment();
    QVERIFY(e.isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!e.isRunning(), 300000);
    QTableWidget* table = e.table();
    const QString status = lab.findChild<QLabel*>(QStringLiteral("kvExperimentStatus"))->text();
    QVERIFY2(table->rowCount() == 3, qPrintable(status));
    QVERIFY2(status.startsWith(m->name + QLatin1Char(':')), qPrintable(status));  // says which model ran

    // The same runs here, straight on the backends.
    const std::vector<int32_t> ids = m->tokenizer->encode_ids(prompt.toStdString(), true, false);
    const size_t V = size_t(m->model->spec().n_vocab());
    std::vector<int32_t> feed;
    std::vector<float> reference;
    double previous_kl = 0.0;
    for (int r = 0; r < 3; ++r) {
        const KvType type = kKvTypes[size_t(r)];
        uint64_t measured = 0;
        int32_t held = 0;
        std::vector<float> rows = run_rows(m, type, ids, steps, feed, r == 0, measured, held);
        if (r == 0) reference = rows;
        QCOMPARE(held, int32_t(ids.size()) + steps);
        QCOMPARE(table->item(r, KvExperimentPanel::Type)->data(Qt::UserRole).toString(), widgets::type_name_text(kv_type_name(type)));
        QCOMPARE(table->item(r, KvExperimentPanel::Measured)->data(Qt::UserRole).toULongLong(), qulonglong(measured));
        QCOMPARE(digits_of(table->item(r, KvExperimentPanel::Measured)->text()), quint64(measured));
        QCOMPARE(table->item(r, KvExperimentPanel::Formula)->data(Qt::UserRole).toULongLong(),
                 qulonglong(kv::cache_bytes(shape_of(*m->model), type, uint64_t(held))));
        QCOMPARE(measured, kv::cache_bytes(shape_of(*m->model), type, uint64_t(held)));

        const double kl = testing::mean_kl_rows(rows, reference, V);
        const double shown = table->item(r, KvExperimentPanel::MeanKl)->data(Qt::UserRole).toDouble();
        QVERIFY2(std::abs(shown - kl) <= 1e-9 + 1e-6 * kl, qPrintable(QStringLiteral("shown %1, test %2").arg(shown).arg(kl)));
        const double last = testing::mean_kl_rows(std::span<const float>(rows).subspan((ids.size() - 1) * V, V),
                                                  std::span<const float>(reference).subspan((ids.size() - 1) * V, V), V);
        const double shown_last = table->item(r, KvExperimentPanel::KlAfterPrompt)->data(Qt::UserRole).toDouble();
        QVERIFY2(std::abs(shown_last - last) <= 1e-9 + 1e-6 * last, qPrintable(QString::number(shown_last)));
        QCOMPARE(table->item(r, KvExperimentPanel::MeanKl)->text(), QLocale().toString(shown, 'g', 3));
        if (r == 0) {
            QCOMPARE(shown, 0.0);
        } else {
            // The per-row chart: one point per row, each the KL of that row.
            const widgets::CacheKlChart::ViewState chart = e.klChart()->viewState();
            const QVector<double>& points = chart.kl[type == KvType::Q8_0 ? 0 : 1];  // q8_0, then q4_0
            QCOMPARE(size_t(points.size()), rows.size() / V);
            for (size_t i = 0; i < rows.size() / V; ++i) {
                const double row_kl = testing::mean_kl_rows(std::span<const float>(rows).subspan(i * V, V),
                                                            std::span<const float>(reference).subspan(i * V, V), V);
                const double point = points[qsizetype(i)];
                QVERIFY2(std::abs(point - row_kl) <= 1e-9 + 1e-6 * row_kl, qPrintable(QString::number(i)));
            }
            QVERIFY(kl > 0.0);
            QVERIFY2(kl > previous_kl, "q8_0 changes the distributions more than f16 and q4_0 more than q8_0");
            qInfo("%s: %s cache, mean KL vs f16 %.3g nats (after the prompt %.3g) over %zu rows",
                  qPrintable(model), qPrintable(widgets::type_name_text(kv_type_name(type))), kl, last, rows.size() / V);
        }
        previous_kl = kl;
    }
    QCOMPARE(int(e.result()->generated.size()), steps);
    QCOMPARE(e.result()->generated, feed);
}

void TestKvLab::experimentStops() {
    LMSCOPE_REQUIRE_FILE(testing::testdata_file("models/fx-gqa.gguf"), "the fixture fx-gqa.gguf");
    LabHost host(nullptr);
    KvLab lab(&host);
    KvExperimentPanel& e = *lab.experiment();
    e.runExperiment();  // no model: says so, runs nothing
    QVERIFY(!e.isRunning());
    host.setModel(load_lab_model(QString::fromStdString(testing::testdata_file("models/fx-gqa.gguf"))));
    e.setDecodeSteps(64);
    e.runExperiment();
    QVERIFY(e.isRunning());
    e.stopExperiment();
    QVERIFY(!e.isRunning());
    QTest::qWait(200);
    QCOMPARE(e.table()->rowCount(), 0);
    // An empty prompt is refused with a message, before any engine work.
    e.setPrompt(QString());
    QSignalSpy failed(&e, &KvExperimentPanel::failed);
    e.runExperiment();
    QVERIFY(failed.count() == 1 || failed.wait(20000));
    QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("empty")));
}

QTEST_MAIN(TestKvLab)
#include "test_kv_lab.moc"
