#include "widgets/score_stages_chart.h"

#include <QButtonGroup>
#include <QHBoxLayout>
#include <QToolButton>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace lmscope::widgets {
namespace {

constexpr qint32 kMaxPositionTicks = 16;  // positions written on the key axis, at most about
const QColor kHiddenColors[2] = {QColor(0x55, 0x55, 0x55), QColor(0xcc, 0x79, 0xa7)};  // future, window

// 1, 2, 5, 10, 20, 50, ...: the smallest such step that writes at most `max_ticks` of n positions.
qint32 position_step(qint32 n, qint32 max_ticks) {
    for (qint32 scale = 1;; scale *= 10)
        for (qint32 m : {1, 2, 5})
            if (qint64(n) <= qint64(m) * scale * max_ticks) return m * scale;
}

}  // namespace

ScoreStagesChart::ScoreStagesChart(QWidget* parent) : PlotPanel(parent, 2) {
    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    buttons_ = new QButtonGroup(this);
    buttons_->setExclusive(true);
    for (int s = 0; s < kScoreStageCount; ++s) {
        auto* b = new QToolButton(this);
        b->setCheckable(true);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        buttons_->addButton(b, s);
        row->addWidget(b);
    }
    row->addStretch(1);
    static_cast<QVBoxLayout*>(layout())->insertLayout(0, row);
    buttons_->button(int(stage_))->setChecked(true);
    connect(buttons_, &QButtonGroup::idClicked, this, [this](int id) { setStage(ScoreStage(id)); });

    QCustomPlot* p = plot();
    p->setMinimumSize(240, 180);
    p->xAxis->grid()->setVisible(false);
    p->xAxis->setSubTicks(false);
    p->xAxis->setTickLength(0, 0);
    bars_ = new QCPBars(p->xAxis, p->yAxis);
    bars_->setPen(QPen(QColor(0x2f, 0x6d, 0xb5)));
    bars_->setBrush(QColor(0x9e, 0xc0, 0xe6));
    bars_->setWidth(0.7);
    for (int r = 0; r < 2; ++r) {
        hidden_[r] = p->addGraph();
        hidden_[r]->setLineStyle(QCPGraph::lsNone);
        hidden_[r]->setScatterStyle(QCPScatterStyle(r == 0 ? QCPScatterStyle::ssTriangleInverted : QCPScatterStyle::ssDiamond,
                                                    QPen(kHiddenColors[r], 1.5), kHiddenColors[r], 9));
    }
    query_line_ = new QCPItemStraightLine(p);
    query_line_->setPen(QPen(QColor(0xd2, 0x6a, 0x00), 1.5, Qt::DashLine));
    query_text_ = new QCPItemText(p);
    query_text_->position->setTypeX(QCPItemPosition::ptPlotCoords);
    query_text_->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    query_text_->setColor(QColor(0xd2, 0x6a, 0x00));
    put_legend_below(p, 1);
    retranslate();
    applyFonts();
}

QAbstractButton* ScoreStagesChart::stageButton(ScoreStage stage) const { return buttons_->button(int(stage)); }

void ScoreStagesChart::setData(const ScoreStagesData& scores) {
    data_ = scores;
    rebuild();
}

void ScoreStagesChart::setStage(ScoreStage stage) {
    if (QAbstractButton* b = buttons_->button(int(stage))) b->setChecked(true);
    if (stage == stage_) return;
    stage_ = stage;
    rebuild();
    emit stageChanged(stage);
}

void ScoreStagesChart::retranslate() {
    const QString texts[kScoreStageCount] = {tr("q·k"), tr("× scale"), tr("mask"), tr("softmax")};
    const QString tips[kScoreStageCount] = {
        tr("The dot product of the rotated query with each rotated key: how well each key matches what the query looks for."),
        tr("The dot products times the attention scale (1/√head_dim unless the model sets its own), which keeps the softmax "
           "from saturating."),
        tr("The keys this query may not see (the future, or keys outside a local layer's window) set to −∞, so they get no "
           "weight."),
        tr("The softmax over the row: the attention weights, each between 0 and 1, summing to 1.")};
    for (int s = 0; s < kScoreStageCount; ++s) {
        buttons_->button(s)->setText(texts[s]);
        buttons_->button(s)->setToolTip(tips[s]);
    }
    hidden_[0]->setName(tr("hidden (−∞): in the future, after the query"));
    hidden_[1]->setName(tr("hidden (−∞): outside the local window"));
    query_text_->setText(tr("query"));
    rebuild();  // the axis labels
}

void ScoreStagesChart::rebuild() {
    QCustomPlot* p = plot();
    const qint32 n = qint32(std::max({data_.key_labels.size(), data_.dot.size(), data_.mask.size()}));
    QVector<double> values;
    QString value_label, bars_name;
    switch (stage_) {
    case ScoreStage::Dot:
        values = data_.dot;
        value_label = tr("q · k");
        bars_name = tr("q · k of each key");
        break;
    case ScoreStage::Scaled:
        values = data_.scaled;
        value_label = tr("q · k × scale (%1)").arg(data_.scale, 0, 'g', 4);
        bars_name = tr("scaled score of each key");
        break;
    case ScoreStage::Masked:
        values = data_.masked;
        value_label = tr("score after the mask (−∞: hidden)");
        bars_name = tr("score of each key the query sees");
        break;
    case ScoreStage::Softmax:
        values = data_.weights;
        value_label = tr("attention weight");
        bars_name = tr("attention weight of each key");
        break;
    }
    bars_->setName(bars_name);
    values.resize(n, std::numeric_limits<double>::quiet_NaN());  // missing: not drawn
    QVector<KeyMask> mask = data_.mask;
    mask.resize(n, KeyMask::Visible);
    const bool masking = stage_ == ScoreStage::Masked;

    // The bars: every key with a finite value, except those the mask stage draws as hidden.
    QVector<double> bk, bv, hk[2];
    double lo = 0.0, hi = 0.0;
    for (qint32 j = 0; j < n; ++j) {
        if (masking && mask[j] != KeyMask::Visible) {
            hk[mask[j] == KeyMask::Future ? 0 : 1].push_back(j);
        } else if (std::isfinite(values[j])) {
            bk.push_back(j);
            bv.push_back(values[j]);
            lo = std::min(lo, values[j]);
            hi = std::max(hi, values[j]);
        }
    }
    bars_->setData(bk, bv, true);
    // The value axis: the softmax on [0, 1]; else around the bars and 0, room below for markers.
    const bool any_hidden = !hk[0].isEmpty() || !hk[1].isEmpty();
    double span = hi - lo;
    if (span <= 0) span = 1.0;
    double low = lo < 0 ? lo - 0.1 * span : 0.0, high = hi > 0 || lo == 0 ? hi + 0.1 * span : 0.0;
    if (stage_ == ScoreStage::Softmax) low = 0.0, high = 1.0;
    if (any_hidden) low -= 0.2 * span;
    p->yAxis->setRange(low, high);
    p->yAxis->setLabel(value_label);
    const double marker_y = low + 0.06 * span;

    for (QCPItemText* t : infinities_) p->removeItem(t);
    infinities_.clear();
    for (int r = 0; r < 2; ++r) {
        hidden_[r]->setData(hk[r], QVector<double>(hk[r].size(), marker_y), true);
        if (hk[r].isEmpty()) hidden_[r]->removeFromLegend();
        else hidden_[r]->addToLegend();
        if (n > kMaxKeyLabels) continue;  // more keys: the markers alone (the legend says −∞)
        for (double x : hk[r]) {
            auto* t = new QCPItemText(p);
            t->position->setCoords(x, marker_y);
            t->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            t->setPadding(QMargins(0, 0, 0, 8));
            t->setColor(kHiddenColors[r]);
            t->setText(QStringLiteral("−∞"));
            infinities_.push_back(t);
        }
    }

    // The key axis: the tokens while few, else every step-th position.
    auto ticks = QSharedPointer<QCPAxisTickerText>::create();
    const bool tokens = n <= kMaxKeyLabels;
    if (tokens) {
        for (qint32 j = 0; j < n; ++j) {
            const QString label = j < data_.key_labels.size() ? data_.key_labels[j] : QString();
            ticks->addTick(j, label.isEmpty() ? QString::number(j) : label);
        }
    } else {
        const qint32 step = position_step(n, kMaxPositionTicks);
        for (qint32 j = 0; j < n; j += step) ticks->addTick(j, QString::number(j));
    }
    p->xAxis->setTicker(ticks);
    p->xAxis->setTickLabelRotation(tokens ? -50 : 0);
    p->xAxis->setLabel(tokens ? tr("key") : tr("key position"));
    p->xAxis->setRange(-0.6, std::max<qint32>(1, n) - 0.4);

    // The query's position.
    const bool marked = n > 0 && data_.query >= 0 && data_.query < n;
    query_line_->setVisible(marked);
    query_text_->setVisible(marked);
    query_line_->point1->setCoords(data_.query, 0);
    query_line_->point2->setCoords(data_.query, 1);
    query_text_->position->setCoords(data_.query, 0);
    // Beside the line on the side with room: left of it for a query in the right half (the
    // last position, most often), where the text would run out of the chart.
    const bool right_half = data_.query > (n - 1) / 2.0;
    query_text_->setPositionAlignment((right_half ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    query_text_->setPadding(right_half ? QMargins(0, 2, 4, 0) : QMargins(4, 2, 0, 0));
    applyFonts();  // the new texts
    p->replot(QCustomPlot::rpQueuedReplot);
}

ScoreStagesChart::ViewState ScoreStagesChart::viewState() const {
    ViewState s;
    s.stage = stage_;
    const QCustomPlot* p = plot();
    const qint32 n = qint32(std::max({data_.key_labels.size(), data_.dot.size(), data_.mask.size()}));
    s.values = QVector<double>(n, std::numeric_limits<double>::quiet_NaN());
    s.hidden = QVector<KeyMask>(n, KeyMask::Visible);
    for (auto it = bars_->data()->constBegin(); it != bars_->data()->constEnd(); ++it) {
        const qint32 j = qint32(std::lround(it->key));
        if (j >= 0 && j < n) s.values[j] = it->value;
    }
    for (int r = 0; r < 2; ++r)
        for (auto it = hidden_[r]->data()->constBegin(); it != hidden_[r]->data()->constEnd(); ++it) {
            const qint32 j = qint32(std::lround(it->key));
            if (j < 0 || j >= n) continue;
            s.values[j] = -std::numeric_limits<double>::infinity();
            s.hidden[j] = r == 0 ? KeyMask::Future : KeyMask::OutsideWindow;
        }
    if (auto text = p->xAxis->ticker().dynamicCast<QCPAxisTickerText>())
        for (auto it = text->ticks().constBegin(); it != text->ticks().constEnd(); ++it) s.key_ticks << it.value();
    s.value_label = p->yAxis->label();
    s.key_label = p->xAxis->label();
    s.value_low = p->yAxis->range().lower;
    s.value_high = p->yAxis->range().upper;
    s.query_marked = query_line_->visible();
    s.query_x = query_line_->point1->coords().x();
    for (int i = 0; i < p->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(p->legend->item(i))) s.legend << item->plottable()->name();
    for (const QCPItemText* t : infinities_) s.infinity_texts << t->text();
    return s;
}

}  // namespace lmscope::widgets
