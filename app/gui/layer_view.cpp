#include "gui/layer_view.h"

#include "engine/layer_probe.h"
#include "engine/model.h"
#include "tokenizer/tokenizer.h"
#include "widgets/ffn_chart.h"
#include "widgets/labelled_bars.h"
#include "widgets/residual_stream_chart.h"
#include "widgets/rope_view.h"
#include "widgets/score_stages_chart.h"
#include "widgets/trace_model.h"
#include "widgets/vector_strips.h"

#include <QCheckBox>
#include <QEvent>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <mutex>

namespace lmscope::gui {

// The probe and its backend live as long as the last job that uses them; one job at a time
// holds the mutex (a cancelled job still running finishes its chunk first).
struct LayerView::ProbeState {
    std::mutex mutex;
    LabModelPtr model;
    std::unique_ptr<engine::Backend> backend;  // on the session's engine, its own KV cache
    std::unique_ptr<engine::LayerProbe> probe;
};

namespace {

constexpr int kCoalesceMs = 30;

// `w` in a frameless scroll area that resizes it to its width.
QScrollArea* scrolled(QWidget* w) {
    auto* s = new QScrollArea;
    s->setWidget(w);
    s->setWidgetResizable(true);
    s->setFrameShape(QFrame::NoFrame);
    return s;
}

}  // namespace

LayerView::LayerView(widgets::TraceModel* trace, QWidget* parent)
    : QWidget(parent), trace_(trace), runner_(nullptr, QStringLiteral("lmscope layer view")) {
    status_ = new QLabel;
    status_->setObjectName(QStringLiteral("layerStatus"));
    status_->setWordWrap(true);
    stack_ = new QStackedWidget;
    message_label_ = new QLabel;
    message_label_->setAlignment(Qt::AlignCenter);
    message_label_->setWordWrap(true);
    tabs_ = new QTabWidget;
    buildTabs();
    stack_->addWidget(message_label_);
    stack_->addWidget(tabs_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(status_);
    layout->addWidget(stack_, 1);

    pending_.setSingleShot(true);
    pending_.setInterval(kCoalesceMs);
    connect(&pending_, &QTimer::timeout, this, &LayerView::start);
    for (auto signal : {&widgets::TraceModel::stepsChanged, &widgets::TraceModel::stepsReset,
                        &widgets::TraceModel::modelChanged})
        connect(trace_, signal, this, &LayerView::schedule);
    connect(trace_, &widgets::TraceModel::currentStepChanged, this, &LayerView::schedule);
    connect(trace_, &widgets::TraceModel::queryChanged, this, &LayerView::schedule);
    connect(trace_, &widgets::TraceModel::headChanged, this, &LayerView::schedule);
    connect(trace_, &widgets::TraceModel::branchChanged, this, &LayerView::schedule);
    connect(&runner_, &JobRunner::failed, this, [this](const JobError& error) {
        const QString message = error.text();
        showMessage(tr("The layer could not be computed: %1").arg(message));
    });
    retranslate();  // schedules the first figures
}

LayerView::~LayerView() = default;

void LayerView::buildTabs() {
    vectors_ = new widgets::VectorStrips;
    vectors_->setObjectName(QStringLiteral("layerVectors"));
    keys_ = new widgets::VectorStrips;
    keys_->setObjectName(QStringLiteral("layerKeys"));
    keys_->setVisible(false);
    show_keys_ = new QCheckBox;
    connect(show_keys_, &QCheckBox::toggled, keys_, &QWidget::setVisible);
    auto* qkv = new QWidget;
    auto* ql = new QVBoxLayout(qkv);
    ql->addWidget(vectors_);
    ql->addWidget(show_keys_);
    ql->addWidget(keys_);
    ql->addStretch(1);
    tabs_->addTab(scrolled(qkv), QString());

    scores_ = new widgets::ScoreStagesChart;
    tabs_->addTab(scores_, QString());

    mix_ = new widgets::VectorStrips;
    mix_->setObjectName(QStringLiteral("layerMix"));
    shares_ = new widgets::LabelledBars(widgets::LabelledBars::Orientation::Columns);
    shares_->setMinimumHeight(220);
    auto* mix = new QWidget;
    auto* ml = new QVBoxLayout(mix);
    ml->addWidget(mix_);
    ml->addWidget(shares_, 1);
    tabs_->addTab(scrolled(mix), QString());

    rope_ = new widgets::RopeView;
    tabs_->addTab(rope_, QString());

    ffn_ = new widgets::FfnChart;
    ffn_strips_ = new widgets::VectorStrips;
    ffn_strips_->setObjectName(QStringLiteral("layerResidualAdd"));
    auto* ffn = new QWidget;
    auto* fl = new QVBoxLayout(ffn);
    fl->addWidget(ffn_, 1);
    fl->addWidget(ffn_strips_);
    tabs_->addTab(scrolled(ffn), QString());

    stream_ = new widgets::ResidualStreamChart;
    lens_ = new QPushButton;
    lens_->setObjectName(QStringLiteral("layerLogitLens"));
    connect(lens_, &QPushButton::clicked, this, [this] {
        if (!shown_ || !model_) return;
        const LayerRequest& r = shown_->request;
        const std::vector<int32_t> ids(r.tokens.begin(), r.tokens.begin() + r.query + 1);
        emit logitLensRequested(QString::fromStdString(model_->tokenizer->decode(ids)));
    });
    auto* stream = new QWidget;
    auto* sl = new QVBoxLayout(stream);
    sl->setContentsMargins(0, 0, 0, 0);
    sl->addWidget(stream_, 1);
    sl->addWidget(lens_, 0, Qt::AlignLeft);
    tabs_->addTab(stream, QString());
}

void LayerView::retranslate() {
    tabs_->setTabText(int(Tab::Vectors), tr("Q, K, V"));
    tabs_->setTabText(int(Tab::Scores), tr("Scores"));
    tabs_->setTabText(int(Tab::Mix), tr("Mix"));
    tabs_->setTabText(int(Tab::Rope), tr("RoPE"));
    tabs_->setTabText(int(Tab::Ffn), tr("FFN"));
    tabs_->setTabText(int(Tab::Stream), tr("Residual stream"));
    tabs_->setTabToolTip(int(Tab::Vectors), tr("The token's vector, and the query, key and value the layer makes of it"));
    tabs_->setTabToolTip(int(Tab::Scores), tr("From q · k to the attention weights, one stage at a time"));
    tabs_->setTabToolTip(int(Tab::Mix), tr("The head's output: the values mixed by the weights"));
    tabs_->setTabToolTip(int(Tab::Rope), tr("How rotary position embedding turns q and k by their positions"));
    tabs_->setTabToolTip(int(Tab::Ffn), tr("The feed-forward network working on the token alone"));
    tabs_->setTabToolTip(int(Tab::Stream), tr("How much each layer adds to the token's vector"));
    show_keys_->setText(tr("Show k and v of every token up to this one"));
    lens_->setText(tr("Read this stream with the logit lens…"));
    lens_->setToolTip(tr("Opens Labs > Logit lens on the text up to this token: what the model would predict "
                         "if it stopped after each layer"));
    // The figures' texts and the header are made in the language of their time: make them
    // again (the same selection would otherwise keep the figures on screen as they are).
    shown_.reset();
    schedule();
}

void LayerView::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(e);
}

void LayerView::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    schedule();  // hidden, it computed nothing
}

void LayerView::setModel(const LabModelPtr& model, const EngineOptions& engine) {
    runner_.abandon();
    model_ = model;
    engine_ = engine;
    state_ = std::make_shared<ProbeState>();  // a new model: a new probe (the old one ends with its job)
    state_->model = model;
    shown_.reset();
    schedule();
}

void LayerView::setEngineBusy(bool busy) {
    if (busy == engine_busy_) return;
    engine_busy_ = busy;
    if (!busy) schedule();
}

const LayerFigures* LayerView::figures() const {
    if (!shown_ || computing()) return nullptr;
    const std::optional<LayerRequest> now = request();
    return now && *now == shown_->request ? &*shown_ : nullptr;
}

QString LayerView::statusText() const { return status_->text(); }

void LayerView::setTab(Tab tab) { tabs_->setCurrentIndex(int(tab)); }
LayerView::Tab LayerView::tab() const { return Tab(tabs_->currentIndex()); }

std::optional<LayerRequest> LayerView::request() const {
    const qint32 n = trace_->sequenceLength();
    if (n == 0 || !trace_->current()) return std::nullopt;
    LayerRequest r;
    bool any_off = false;
    r.ablate.resize(size_t(n));
    for (qint32 p = 0; p < n; ++p) {
        const widgets::TokenView& t = trace_->sequence()[p];
        r.tokens << t.id;
        r.labels << widgets::display_text(t.text);
        if (const widgets::StepView* s = trace_->step(trace_->stepOfPosition(p))) {
            r.ablate[size_t(p)].assign(s->ablated.begin(), s->ablated.end());
            any_off = any_off || !s->ablated.isEmpty();
        }
    }
    if (!any_off) r.ablate.clear();
    r.layer = trace_->selectedLayer();
    r.head = trace_->selectedHead();
    r.query = std::clamp(trace_->selectedQuery(), 0, n - 1);
    r.step = trace_->currentStep();
    return r;
}

void LayerView::schedule() {
    tabs_->setEnabled(false);  // greyed until the figures of the new selection arrive
    pending_.start();
}

void LayerView::showMessage(const QString& text) {
    message_ = text;
    shown_.reset();
    message_label_->setText(text);
    stack_->setCurrentWidget(message_label_);
    status_->clear();
}

void LayerView::start() {
    if (!isVisible()) return;  // shown again: showEvent schedules
    if (!model_) {
        runner_.abandon();
        return showMessage(tr("The Layer view computes from the model: a replay has none. Open the model "
                              "(Back to Live Model) to look inside a layer."));
    }
    const std::optional<LayerRequest> req = request();
    if (!req) {
        runner_.abandon();
        return showMessage(tr("Press Step: the view then shows the inside of the selected layer for the "
                              "selected token and head."));
    }
    if (shown_ && shown_->request == *req && !runner_.busy()) {
        tabs_->setEnabled(true);
        return;
    }
    if (engine_busy_) {
        status_->setText(tr("The model is stepping: this view follows when the step is done (while playing, when Play "
                            "stops)."));
        return;  // setEngineBusy(false) schedules again
    }
    message_.clear();
    status_->setText(tr("Computing layer %1 for “%2” (position %3)…")
                         .arg(req->layer)
                         .arg(req->labels.value(req->query))
                         .arg(req->query));
    EngineOptions options = engine_;  // the session's backend, threads and KV storage
    options.resources.n_ctx = std::max(options.resources.n_ctx, int32_t(req->tokens.size()));
    runner_.start(
        [state = state_, req = *req, options](const JobContext& job) {
            std::lock_guard lock(state->mutex);
            if (!state->probe) {
                state->backend = make_engine_backend(*state->model, options);
                state->probe = std::make_unique<engine::LayerProbe>(*state->backend);
            }
            const std::vector<int32_t> ids(req.tokens.begin(), req.tokens.end());
            const engine::LayerRows& rows = state->probe->run(ids, req.ablate, req.layer, job.token());
            return layer_figures(*state->model->model, rows, req);
        },
        [this](LayerFigures figures) { present(std::move(figures)); });
}

void LayerView::present(LayerFigures f) {
    const std::optional<LayerRequest> now = request();
    if (!now || !(*now == f.request)) return schedule();  // the selection moved meanwhile
    vectors_->setData(f.vectors);
    keys_->setData(f.keys);
    scores_->setData(f.scores);
    mix_->setData(f.mix);
    shares_->setData(f.head_shares);
    rope_->setLayer(f.request.layer);
    rope_->setData(f.rope);
    ffn_->setData(f.ffn);
    ffn_strips_->setData(f.ffn_strips);
    stream_->setData(f.stream);
    const LayerRequest& r = f.request;
    status_->setText(tr("Layer %1, head %2 (reads KV head %3 of %4) · token “%5” at position %6 · step %7")
                         .arg(r.layer)
                         .arg(r.head)
                         .arg(f.kv_head)
                         .arg(f.n_kv)
                         .arg(r.labels.value(r.query))
                         .arg(r.query)
                         .arg(r.step));
    shown_ = std::move(f);
    message_.clear();
    stack_->setCurrentWidget(tabs_);
    tabs_->setEnabled(true);
}

}  // namespace lmscope::gui
