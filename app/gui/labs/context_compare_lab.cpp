#include "gui/labs/context_compare_lab.h"

#include "engine/model.h"
#include "gui/labs/lab_host.h"
#include "tokenizer/tokenizer.h"
#include "trace/session_trace.h"
#include "trace_adapter/trace_adapter.h"
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
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lmscope::gui::labs {

using widgets::HeadGrid;
using widgets::LabelledBars;

ContextCompareLab::ContextCompareLab(LabHost* host, QWidget* parent)
    : Lab(host, parent), runner_(new LabRunner(this)) {
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

    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("contextCompareStatus"));
    status_->setWordWrap(true);
    layout->addWidget(status_);
    layout->addWidget(buildCharts(), 1);

    // Model input, not UI text (not translated): the English example whose shared word is "bank".
    sides_[0].prompt->setText(QStringLiteral("I sat on the river bank"));
    sides_[1].prompt->setText(QStringLiteral("I opened a bank account"));
    connect(run_, &QPushButton::clicked, this, &ContextCompareLab::run);
    connect(stop_, &QPushButton::clicked, this, &ContextCompareLab::stop);
    connect(runner_, &LabRunner::busyChanged, this, &ContextCompareLab::showRunning);
    connect(runner_, &LabRunner::failed, this, &ContextCompareLab::failed);
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
        showRows();
        showGrids();
        showNextTokens();
    });
    return box;
}

QWidget* ContextCompareLab::buildCharts() {
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("contextCompareSplitter"));

    // Left: the layer x head grids of the chosen measure.
    auto* grids = new QWidget(split);
    auto* gl = new QVBoxLayout(grids);
    gl->setContentsMargins(0, 0, 0, 0);
    auto* measure_line = new QHBoxLayout;
    measure_caption_ = new QLabel(grids);
    measure_ = new QComboBox(grids);
    measure_->setObjectName(QStringLiteral("contextCompareMeasure"));
    measure_line->addWidget(measure_caption_);
    measure_line->addWidget(measure_, 1);
    gl->addLayout(measure_line);
    auto* row = new QVBoxLayout;
    for (int s = 0; s < kSides; ++s) {
        sides_[size_t(s)].grid = new HeadGrid(grids);
        sides_[size_t(s)].grid->setObjectName(s == 0 ? QStringLiteral("contextCompareGridA") : QStringLiteral("contextCompareGridB"));
        row->addWidget(sides_[size_t(s)].grid);
    }
    diff_grid_ = new HeadGrid(grids);
    diff_grid_->setObjectName(QStringLiteral("contextCompareGridDiff"));
    row->addWidget(diff_grid_);
    gl->addLayout(row, 1);
    for (HeadGrid* g : {sides_[0].grid, sides_[1].grid, diff_grid_})
        connect(g, &HeadGrid::cellClicked, this, &ContextCompareLab::setLayerHead);

    // Right: the attention rows of the chosen head, then the next-token distributions.
    auto* right = new QSplitter(Qt::Vertical, split);
    auto* rows = new QWidget(right);
    auto* rl = new QVBoxLayout(rows);
    rl->setContentsMargins(0, 0, 0, 0);
    auto* pick = new QHBoxLayout;
    layer_caption_ = new QLabel(rows);
    layer_ = new QSpinBox(rows);
    layer_->setObjectName(QStringLiteral("contextCompareLayer"));
    head_caption_ = new QLabel(rows);
    head_ = new QSpinBox(rows);
    head_->setObjectName(QStringLiteral("contextCompareHead"));
    for (QWidget* w : std::initializer_list<QWidget*>{layer_caption_, layer_, head_caption_, head_}) pick->addWidget(w);
    pick->addStretch(1);
    rl->addLayout(pick);
    auto* bars = new QHBoxLayout;
    auto* next = new QHBoxLayout;
    for (int s = 0; s < kSides; ++s) {
        Side& side = sides_[size_t(s)];
        side.row = new LabelledBars(LabelledBars::Orientation::Columns, rows);
        side.row->setObjectName(s == 0 ? QStringLiteral("contextCompareRowA") : QStringLiteral("contextCompareRowB"));
        bars->addWidget(side.row);
    }
    rl->addLayout(bars, 1);
    auto* dist = new QWidget(right);
    auto* dl = new QVBoxLayout(dist);
    dl->setContentsMargins(0, 0, 0, 0);
    kl_ = new QLabel(dist);
    kl_->setObjectName(QStringLiteral("contextCompareKl"));
    kl_->setWordWrap(true);
    dl->addWidget(kl_);
    for (int s = 0; s < kSides; ++s) {
        Side& side = sides_[size_t(s)];
        side.next = new LabelledBars(LabelledBars::Orientation::Rows, dist);
        side.next->setObjectName(s == 0 ? QStringLiteral("contextCompareNextA") : QStringLiteral("contextCompareNextB"));
        next->addWidget(side.next);
    }
    dl->addLayout(next, 1);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);

    connect(layer_, &QSpinBox::valueChanged, this, [this] { showRows(); });
    connect(head_, &QSpinBox::valueChanged, this, [this] { showRows(); });
    connect(measure_, &QComboBox::currentIndexChanged, this, [this] { showGrids(); });
    return split;
}

QString ContextCompareLab::title() const { return tr("Context compare"); }

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
    stop_->setEnabled(runner_->busy());
}

void ContextCompareLab::run() {
    runner_->abandon();
    const LabModelPtr m = model();
    if (!m) {
        showRunning();
        status_->setText(tr("Open a model to compare the two contexts."));
        return;
    }
    const std::string a = prompt(0).toStdString(), b = prompt(1).toStdString();
    status_->setText(tr("Running both prompts through %1…").arg(m->name));
    runner_->start(
        [m, a, b](const CancelToken& token) {
            Runs runs;
            runs[0] = context_compare::run_side(m, a, token);
            runs[1] = context_compare::run_side(m, b, token);
            return runs;
        },
        [this](Runs runs) { finished(std::move(runs)); });
}

void ContextCompareLab::failed(const QString& message) {
    status_->setText(tr("The run failed: %1").arg(message));
    emit runFailed(message);
}

void ContextCompareLab::stop() {
    if (!runner_->busy()) return;
    runner_->abandon();
    status_->setText(tr("Stopped; the results of the last finished run stay."));
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
    status_->setText(tr("Picked '%1' in A and '%2' in B: click a token to pick another, a grid cell for a layer and head.")
                         .arg(widgets::display_text(pickedText(0)), widgets::display_text(pickedText(1))));
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
    else status_->setText(tr("Open a model to compare the two contexts."));
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
    const int index = std::max(0, measure_->currentIndex());
    const QSignalBlocker block(measure_);
    measure_->clear();
    measure_->addItems({tr("attention entropy (nats)"), tr("weight on the previous token"), tr("weight on the first token"),
                        tr("weight on the token itself"), tr("largest weight")});
    measure_->setCurrentIndex(index);
    showAll();
}

void ContextCompareLab::showAll() {
    showRows();
    showGrids();
    showNextTokens();
}

}  // namespace lmscope::gui::labs
