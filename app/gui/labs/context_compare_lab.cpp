#include "gui/labs/context_compare_lab.h"

#include "engine/model.h"
#include "gui/labs/lab_host.h"
#include "model/interventions.h"
#include "tokenizer/tokenizer.h"
#include "trace/session_trace.h"
#include "trace_adapter/trace_adapter.h"
#include "util/error.h"
#include "widgets/head_grid.h"
#include "widgets/labelled_bars.h"
#include "widgets/token_strip.h"
#include "widgets/trace_model.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <optional>

namespace lmscope::gui::labs {

using widgets::HeadGrid;
using widgets::LabelledBars;

ContextCompareLab::ContextCompareLab(LabHost* host, QWidget* parent)
    : Lab(LabId::ContextCompare, host, parent), runner_(new JobRunner(this, QStringLiteral("lmscope context compare"))),
      sweep_runner_(new JobRunner(this, QStringLiteral("lmscope context sweep"))) {
    setObjectName(QStringLiteral("contextCompareLab"));
    auto* layout = new QVBoxLayout(this);
    explain_ = new QLabel(this);
    explain_->setObjectName(QStringLiteral("contextCompareExplain"));
    explain_->setWordWrap(true);
    layout->addWidget(explain_);

    auto* prompts = new QHBoxLayout;
    for (int s = 0; s < kSides; ++s) prompts->addWidget(buildPromptRow(s), 1);
    auto* buttons = new QVBoxLayout;
    run_ = new QPushButton(this);
    run_->setObjectName(QStringLiteral("contextCompareRun"));
    stop_ = new QPushButton(this);
    stop_->setObjectName(QStringLiteral("contextCompareStop"));
    buttons->addWidget(run_);
    buttons->addWidget(stop_);
    buttons->addStretch(1);
    prompts->addLayout(buttons);
    layout->addLayout(prompts);

    auto* off_line = new QHBoxLayout;
    off_caption_ = new QLabel(this);
    off_ = new QLineEdit(this);
    off_->setObjectName(QStringLiteral("contextCompareOff"));
    off_caption_->setBuddy(off_);
    sweep_button_ = new QPushButton(this);
    sweep_button_->setObjectName(QStringLiteral("contextCompareSweep"));
    off_line->addWidget(off_caption_);
    off_line->addWidget(off_, 1);
    off_line->addWidget(sweep_button_);
    layout->addLayout(off_line);
    connect(off_, &QLineEdit::returnPressed, this, &ContextCompareLab::run);
    connect(sweep_button_, &QPushButton::clicked, this, &ContextCompareLab::sweepLayer);
    connect(sweep_runner_, &JobRunner::busyChanged, this, &ContextCompareLab::showRunning);
    connect(sweep_runner_, &JobRunner::failed, this, [this](const JobError& error) { failed(error.text()); });

    status_.label()->setObjectName(QStringLiteral("contextCompareStatus"));
    status_.label()->setWordWrap(true);
    layout->addWidget(status_.label());
    layout->addWidget(buildCharts(), 1);

    // Model input, not UI text (not translated): the English example whose shared word is "bank".
    sides_[0].prompt->setText(QStringLiteral("I sat on the river bank"));
    sides_[1].prompt->setText(QStringLiteral("I opened a bank account"));
    connect(run_, &QPushButton::clicked, this, &ContextCompareLab::run);
    connect(stop_, &QPushButton::clicked, this, &ContextCompareLab::stop);
    connect(runner_, &JobRunner::busyChanged, this, &ContextCompareLab::showRunning);
    connect(runner_, &JobRunner::failed, this, [this](const JobError& error) { failed(error.text()); });
    showRunning();
    retranslate();
}

QWidget* ContextCompareLab::buildPromptRow(int side) {
    Side& s = sides_[size_t(side)];
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* line = new QHBoxLayout;
    s.caption = new QLabel(box);
    s.prompt = new QLineEdit(box);
    s.prompt->setObjectName(side == 0 ? QStringLiteral("contextComparePromptA") : QStringLiteral("contextComparePromptB"));
    line->addWidget(s.caption);
    line->addWidget(s.prompt, 1);
    layout->addLayout(line);
    s.tokens = new widgets::TraceModel(this);
    s.strip = new widgets::TokenStrip(s.tokens, box);
    s.strip->setObjectName(side == 0 ? QStringLiteral("contextCompareTokensA") : QStringLiteral("contextCompareTokensB"));
    layout->addWidget(s.strip);
    connect(s.prompt, &QLineEdit::returnPressed, this, &ContextCompareLab::run);
    connect(s.tokens, &widgets::TraceModel::queryChanged, this, [this] {
        if (loading_) return;
        clearSweep();  // it was for the tokens picked before
        status_.refresh();  // it names the picks
        showRows();
        showGrids();
        showNextTokens();
    });
    return box;
}

QWidget* ContextCompareLab::buildCharts() {
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    // The measure, layer and head the views show, above them all.
    auto* pick = new QHBoxLayout;
    measure_caption_ = new QLabel(box);
    measure_ = new QComboBox(box);
    measure_->setObjectName(QStringLiteral("contextCompareMeasure"));
    measure_->setSizeAdjustPolicy(QComboBox::AdjustToContents);  // its names' width in the language shown
    layer_caption_ = new QLabel(box);
    layer_ = new QSpinBox(box);
    layer_->setObjectName(QStringLiteral("contextCompareLayer"));
    head_caption_ = new QLabel(box);
    head_ = new QSpinBox(box);
    head_->setObjectName(QStringLiteral("contextCompareHead"));
    for (QWidget* w : std::initializer_list<QWidget*>{measure_caption_, measure_, layer_caption_, layer_, head_caption_, head_})
        pick->addWidget(w);
    pick->addStretch(1);
    layout->addLayout(pick);

    // One view at a time, each with the whole width and height (at 1280x720 the four stacked
    // were squashed to a few pixels each): the grids, the rows, the next tokens, the sweep.
    views_ = new QTabWidget(box);
    views_->setObjectName(QStringLiteral("contextCompareViews"));
    layout->addWidget(views_, 1);
    auto side_by_side = [](QWidget* a, QWidget* b, QWidget* c = nullptr) {
        auto* row = new QHBoxLayout;
        for (QWidget* w : {a, b, c})
            if (w) row->addWidget(w, 1);
        return row;
    };

    auto* grids = new QWidget(views_);
    for (int s = 0; s < kSides; ++s) {
        sides_[size_t(s)].grid = new HeadGrid(grids);
        sides_[size_t(s)].grid->setObjectName(s == 0 ? QStringLiteral("contextCompareGridA") : QStringLiteral("contextCompareGridB"));
    }
    diff_grid_ = new HeadGrid(grids);
    diff_grid_->setObjectName(QStringLiteral("contextCompareGridDiff"));
    auto* gl = new QVBoxLayout(grids);
    gl->addLayout(side_by_side(sides_[0].grid, sides_[1].grid, diff_grid_), 1);
    for (HeadGrid* g : {sides_[0].grid, sides_[1].grid, diff_grid_})
        connect(g, &HeadGrid::cellClicked, this, &ContextCompareLab::setLayerHead);
    views_->addTab(grids, QString());

    auto* rows = new QWidget(views_);
    for (int s = 0; s < kSides; ++s) {
        Side& side = sides_[size_t(s)];
        side.row = new LabelledBars(LabelledBars::Orientation::Columns, rows);
        side.row->setObjectName(s == 0 ? QStringLiteral("contextCompareRowA") : QStringLiteral("contextCompareRowB"));
    }
    auto* rl = new QVBoxLayout(rows);
    rl->addLayout(side_by_side(sides_[0].row, sides_[1].row), 1);
    views_->addTab(rows, QString());

    auto* dist = new QWidget(views_);
    auto* dl = new QVBoxLayout(dist);
    kl_ = new QLabel(dist);
    kl_->setObjectName(QStringLiteral("contextCompareKl"));
    kl_->setWordWrap(true);
    dl->addWidget(kl_);
    for (int s = 0; s < kSides; ++s) {
        Side& side = sides_[size_t(s)];
        side.next = new LabelledBars(LabelledBars::Orientation::Rows, dist);
        side.next->setObjectName(s == 0 ? QStringLiteral("contextCompareNextA") : QStringLiteral("contextCompareNextB"));
    }
    dl->addLayout(side_by_side(sides_[0].next, sides_[1].next), 1);
    views_->addTab(dist, QString());

    auto* sweep = new QWidget(views_);
    auto* sl = new QVBoxLayout(sweep);
    sweep_label_ = new QLabel(sweep);
    sweep_label_->setObjectName(QStringLiteral("contextCompareSweepLabel"));
    sweep_label_->setWordWrap(true);
    sl->addWidget(sweep_label_);
    sweep_bars_ = new LabelledBars(LabelledBars::Orientation::Rows, sweep);
    sweep_bars_->setObjectName(QStringLiteral("contextCompareSweepBars"));
    sl->addWidget(sweep_bars_, 1);
    views_->addTab(sweep, QString());

    connect(layer_, &QSpinBox::valueChanged, this, [this] { showRows(); });
    connect(head_, &QSpinBox::valueChanged, this, [this] { showRows(); });
    connect(measure_, &QComboBox::currentIndexChanged, this, [this] { showGrids(); });
    return box;
}

QString ContextCompareLab::sideName(int side) const { return side == 0 ? tr("A") : tr("B"); }

QString ContextCompareLab::prompt(int side) const { return sides_.at(size_t(side)).prompt->text(); }

std::shared_ptr<const context_compare::SideRun> ContextCompareLab::result(int side) const {
    return sides_.at(size_t(side)).result;
}

qint32 ContextCompareLab::pickedPosition(int side) const {
    const Side& s = sides_.at(size_t(side));
    return s.result ? s.tokens->selectedQuery() : -1;
}

QString ContextCompareLab::pickedText(int side) const {
    const Side& s = sides_.at(size_t(side));
    const qint32 pos = pickedPosition(side);
    return pos >= 0 && pos < s.tokens->sequenceLength() ? s.tokens->sequence()[pos].text : QString();
}

qint32 ContextCompareLab::layer() const { return layer_->value(); }
qint32 ContextCompareLab::head() const { return head_->value(); }
context_compare::HeadMeasure ContextCompareLab::measure() const {
    return context_compare::HeadMeasure(std::max(0, measure_->currentIndex()));
}

widgets::TraceModel* ContextCompareLab::tokens(int side) const { return sides_.at(size_t(side)).tokens; }
widgets::TokenStrip* ContextCompareLab::strip(int side) const { return sides_.at(size_t(side)).strip; }
LabelledBars* ContextCompareLab::attentionBars(int side) const { return sides_.at(size_t(side)).row; }
LabelledBars* ContextCompareLab::nextTokenBars(int side) const { return sides_.at(size_t(side)).next; }
QVector<qint32> ContextCompareLab::nextTokenIds(int side) const { return sides_.at(size_t(side)).next_ids; }
HeadGrid* ContextCompareLab::grid(int side) const { return sides_.at(size_t(side)).grid; }
double ContextCompareLab::klShown(int from_side) const { return kl_shown_.at(size_t(from_side)); }

void ContextCompareLab::setPrompt(int side, const QString& text) {
    if (side >= 0 && side < kSides) sides_[size_t(side)].prompt->setText(text);
}

void ContextCompareLab::setPrompts(const QString& a, const QString& b) {
    setPrompt(0, a);
    setPrompt(1, b);
}

void ContextCompareLab::pickToken(int side, qint32 pos) {
    if (side >= 0 && side < kSides) sides_[size_t(side)].tokens->setSelectedQuery(pos);
}

void ContextCompareLab::setLayerHead(qint32 layer, qint32 head) {
    const QSignalBlocker block_layer(layer_), block_head(head_);  // one redraw for both
    layer_->setValue(layer);
    head_->setValue(head);
    showRows();
}

void ContextCompareLab::setMeasure(int measure) {
    if (measure >= 0 && measure < context_compare::kHeadMeasureCount) measure_->setCurrentIndex(measure);
}

void ContextCompareLab::showRunning() {
    run_->setEnabled(!runner_->busy() && model());
    stop_->setEnabled(runner_->busy() || sweep_runner_->busy());
    sweep_button_->setEnabled(!runner_->busy() && !sweep_runner_->busy() && sides_[0].result && sides_[1].result);
}

void ContextCompareLab::setSwitchedOff(const QString& heads) { off_->setText(heads); }

std::vector<LayerHead> ContextCompareLab::switchedOff() const {
    return sides_[0].result ? sides_[0].result->ablated : std::vector<LayerHead>{};
}

namespace {
QString head_names(const std::vector<LayerHead>& heads) {
    QStringList names;
    for (const LayerHead& h : heads) names << ContextCompareLab::tr("L%1 H%2").arg(h.layer).arg(h.head);
    return names.join(QStringLiteral(", "));
}
}  // namespace

void ContextCompareLab::clearSweep() {
    sweep_runner_->abandon();
    sweep_.reset();
    showSweep();
}

void ContextCompareLab::sweepLayer() {
    const LabModelPtr m = model();
    const auto& a = sides_[0].result;
    const auto& b = sides_[1].result;
    if (!m || !a || !b || runner_->busy()) return;
    const std::vector<int32_t> ids_a = a->ids, ids_b = b->ids;
    const int32_t pos_a = pickedPosition(0), pos_b = pickedPosition(1), layer = layer_->value();
    const std::vector<LayerHead> off = a->ablated;
    sweep_.reset();
    views_->setCurrentIndex(SweepView);  // where its answer appears
    sweep_label_->setText(tr("Switching off each head of layer %1 in turn (%n run(s) of each prompt)…", nullptr,
                             m->model->spec().n_head() + 2)
                              .arg(layer));
    sweep_runner_->start(
        [m, ids_a, ids_b, pos_a, pos_b, off, layer, engine = engine()](const JobContext& job) {
            return context_compare::sweep_layer(m, ids_a, pos_a, ids_b, pos_b, off, layer, job.token(), engine);
        },
        [this, a, b, pos_a, pos_b](context_compare::HeadSweep r) {
            // Results for other runs or other picked tokens are dropped (the runner also drops older sweeps).
            if (a != sides_[0].result || b != sides_[1].result || pos_a != pickedPosition(0) || pos_b != pickedPosition(1)) return;
            sweep_ = std::move(r);
            showSweep();
            emit sweepFinished();
        });
}

void ContextCompareLab::showSweep() {
    widgets::LabelledBarsData d;
    if (!sweep_) {
        if (!sweep_runner_->busy())
            sweep_label_->setText(tr("Which head makes the two picked tokens differ? Choose a layer and press \"%1\": each "
                                     "of its heads is switched off in turn and both prompts run again.")
                                      .arg(sweep_button_->text()));
        sweep_bars_->setData(d);
        return;
    }
    const context_compare::HeadSweep& r = *sweep_;
    QString text = tr("KL(A ‖ B) between the next-token distributions after the picked tokens: %1 nats with every head on")
                       .arg(r.kl_on, 0, 'f', 4);
    if (!r.off.empty())
        text += QStringLiteral("; ") + tr("%1 nats with %2 switched off").arg(r.kl_off, 0, 'f', 4).arg(head_names(r.off));
    text += QStringLiteral(". ") + tr("Each bar: the KL with head H of layer %1 switched off too; the shortest bar is the "
                                      "head whose absence makes the two contexts agree most.")
                                       .arg(r.layer);
    sweep_label_->setText(text);
    d.title = tr("Layer %1: KL(A ‖ B) with each head switched off").arg(r.layer);
    d.value_label = tr("KL (nats)");
    const auto least = std::min_element(r.kl_head.begin(), r.kl_head.end());
    for (size_t h = 0; h < r.kl_head.size(); ++h) {
        const double change = r.kl_head[h] - r.kl_off;
        d.labels << tr("H%1 (%2%3)").arg(h).arg(change >= 0 ? QStringLiteral("+") : QString()).arg(change, 0, 'f', 3);
        d.values << r.kl_head[h];
        d.highlight << (least != r.kl_head.end() && size_t(least - r.kl_head.begin()) == h);
    }
    sweep_bars_->setData(d);
}

void ContextCompareLab::run() {
    runner_->abandon();
    clearSweep();
    const LabModelPtr m = model();
    if (!m) {
        showRunning();
        status_.set([] { return tr("Open a model to compare the two contexts."); });
        return;
    }
    // The CLI's --ablate syntax (model::parse_head_list), in layer order; empty: every head on.
    std::optional<std::vector<LayerHead>> off = std::vector<LayerHead>{};
    try {
        if (const QString text = off_->text().trimmed(); !text.isEmpty())
            off = model::parse_head_list(text.toStdString(), m->model->spec(), "switch off heads");
    } catch (const UsageError& e) {
        showRunning();
        status_.set([message = QString::fromStdString(e.message())] { return tr("Not run: %1").arg(message); });
        return;
    }
    std::sort(off->begin(), off->end(), [](const LayerHead& a, const LayerHead& b) {
        return a.layer != b.layer ? a.layer < b.layer : a.head < b.head;
    });
    const std::string a = prompt(0).toStdString(), b = prompt(1).toStdString();
    status_.set([name = m->name, off = *off] {
        return off.empty() ? tr("Running both prompts through %1…").arg(name)
                           : tr("Running both prompts through %1 with %2 switched off…").arg(name, head_names(off));
    });
    runner_->start(
        [m, a, b, off = *off, engine = engine()](const JobContext& job) {
            Runs runs;
            runs[0] = context_compare::run_side(m, a, job.token(), off, engine);
            runs[1] = context_compare::run_side(m, b, job.token(), off, engine);
            return runs;
        },
        [this](Runs runs) { finished(std::move(runs)); });
}

void ContextCompareLab::failed(const QString& message) {
    status_.set([message] { return tr("The run failed: %1").arg(message); });
    emit runFailed(message);
}

void ContextCompareLab::stop() {
    if (!runner_->busy() && !sweep_runner_->busy()) return;
    sweep_runner_->abandon();
    showSweep();
    runner_->abandon();
    status_.set([] { return tr("Stopped; the results of the last finished run stay."); });
}

void ContextCompareLab::finished(Runs runs) {
    const auto [pick_a, pick_b] = context_compare::default_picks(runs[0].texts, runs[1].texts);
    const std::array<int32_t, kSides> picks{pick_a, pick_b};
    loading_ = true;
    for (int s = 0; s < kSides; ++s) {
        Side& side = sides_[size_t(s)];
        side.result = std::make_shared<const context_compare::SideRun>(std::move(runs[size_t(s)]));
        app::TokenPieces pieces;
        if (const LabModelPtr m = model())
            for (const int32_t id : side.result->ids) pieces.emplace(id, m->tokenizer->piece(id));
        app::load_trace(*side.tokens, *side.result->trace, pieces);
        side.tokens->setSelectedQuery(picks[size_t(s)]);
    }
    loading_ = false;
    chooseStrongestHead();
    showAll();
    status_.set([this] {  // the picks and heads the results show now
        QString status = tr("Picked '%1' in A and '%2' in B: click a token to pick another, a grid cell for a layer and head.")
                             .arg(widgets::display_text(pickedText(0)), widgets::display_text(pickedText(1)));
        if (!switchedOff().empty()) status += QStringLiteral(" ") + tr("Heads switched off in both runs: %1.").arg(head_names(switchedOff()));
        return status;
    });
    showRunning();
    showSweep();
    emit runFinished();
}

// The (layer, head) where the two picked tokens differ most in the chosen measure.
void ContextCompareLab::chooseStrongestHead() {
    const auto& a = sides_[0].result;
    const auto& b = sides_[1].result;
    if (!a || !b || a->n_layer != b->n_layer || a->n_head != b->n_head) return;
    const std::vector<float> ga = context_compare::measure_grid(*a, pickedPosition(0), measure());
    const std::vector<float> gb = context_compare::measure_grid(*b, pickedPosition(1), measure());
    size_t best = 0;
    float most = -1.0f;
    for (size_t i = 0; i < ga.size() && i < gb.size(); ++i) {
        const float d = std::fabs(ga[i] - gb[i]);
        if (std::isfinite(d) && d > most) most = d, best = i;
    }
    if (a->n_head > 0) setLayerHead(qint32(best / size_t(a->n_head)), qint32(best % size_t(a->n_head)));
}

void ContextCompareLab::modelChanged(const LabModelPtr& m) {
    runner_->abandon();
    sweep_runner_->abandon();
    sweep_.reset();
    showRunning();
    for (Side& s : sides_) {
        s.result.reset();
        s.next_ids.clear();
        s.tokens->clear();
    }
    const int layers = m ? m->model->spec().n_layer() : 1;
    const int heads = m ? m->model->spec().n_head() : 1;
    layer_->setRange(0, std::max(0, layers - 1));
    head_->setRange(0, std::max(0, heads - 1));
    showAll();
    if (m) run();
    else status_.set([] { return tr("Open a model to compare the two contexts."); });
}

void ContextCompareLab::retranslate() {
    explain_->setText(tr("The same word in two contexts. Pick a token in each prompt: its attention row shows which "
                         "earlier tokens it reads in a layer and head, the grids compare one measure of that row over "
                         "every layer and head, and the bars below show what the model expects next."));
    for (int s = 0; s < kSides; ++s) sides_[size_t(s)].caption->setText(tr("Prompt %1:").arg(sideName(s)));
    run_->setText(tr("Run"));
    stop_->setText(tr("Stop"));
    layer_caption_->setText(tr("Layer"));
    head_caption_->setText(tr("Head"));
    measure_caption_->setText(tr("Grid:"));
    views_->setTabText(GridsView, tr("Every layer and head"));
    views_->setTabText(RowsView, tr("Attention rows"));
    views_->setTabText(NextView, tr("Next token"));
    views_->setTabText(SweepView, tr("Which head?"));
    off_caption_->setText(tr("Switch off heads:"));
    off_->setPlaceholderText(tr("layer:head, e.g. 3:5, 7:0 (both prompts run without them; empty: every head on)"));
    off_->setToolTip(tr("Heads switched off (their output zeroed before the output projection) when both prompts run"));
    sweep_button_->setText(tr("Which head of this layer?"));
    sweep_button_->setToolTip(tr("Switch off each head of the chosen layer in turn and run both picked tokens again: "
                                 "how much does the difference between them change?"));
    const int index = std::max(0, measure_->currentIndex());
    const QSignalBlocker block(measure_);
    measure_->clear();
    measure_->addItems({tr("attention entropy (nats)"), tr("weight on the previous token"), tr("weight on the first token"),
                        tr("weight on the token itself"), tr("largest weight")});
    measure_->setCurrentIndex(index);
    status_.refresh();
    showAll();
    showSweep();
}

void ContextCompareLab::showAll() {
    showRows();
    showGrids();
    showNextTokens();
}

}  // namespace lmscope::gui::labs
