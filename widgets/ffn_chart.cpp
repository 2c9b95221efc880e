#include "widgets/ffn_chart.h"

#include "widgets/format.h"

#include <QLabel>
#include <QLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace lmscope::widgets {
namespace {

// The colours of a vector strip's cells: blue below 0, red above.
const QColor kNegative(0x21, 0x66, 0xac);
const QColor kNegativeFill(0x92, 0xc5, 0xde);
const QColor kPositive(0xb2, 0x18, 0x2b);
const QColor kPositiveFill(0xf4, 0xa5, 0x82);
const QColor kHist(0x55, 0x55, 0x55);
constexpr QSize kMinData(160, 100);  // each data area at least: what a class can read

QString norm_text(double v) { return QString::number(v, 'g', 4); }

}  // namespace

FfnChart::FfnChart(QWidget* parent) : PlotPanel(parent, 2) {
    QCustomPlot* p = plot();
    bars_title_ = add_plot_title(p);  // row 0: the two titles, row 1: the two plots
    hist_title_ = new QCPTextElement(p);
    p->plotLayout()->addElement(0, 1, hist_title_);
    hist_rect_ = new QCPAxisRect(p);
    p->plotLayout()->addElement(1, 1, hist_rect_);

    // The top neurons: rows top to bottom, the activation across, 0 in the middle.
    QCPAxis* rows = p->yAxis;
    QCPAxis* acts = p->xAxis;
    rows->setRangeReversed(true);
    rows->grid()->setVisible(false);
    rows->setSubTicks(false);
    rows->setTickLength(0, 0);
    acts->grid()->setZeroLinePen(QPen(Qt::black, 1));
    positive_ = new QCPBars(rows, acts);
    positive_->setPen(QPen(kPositive));
    positive_->setBrush(kPositiveFill);
    negative_ = new QCPBars(rows, acts);
    negative_->setPen(QPen(kNegative));
    negative_->setBrush(kNegativeFill);
    for (QCPBars* b : {positive_, negative_}) b->setWidth(0.7);

    // The histogram: one step per bin, filled down to 0.
    hist_ = p->addGraph(hist_rect_->axis(QCPAxis::atBottom), hist_rect_->axis(QCPAxis::atLeft));
    hist_->setLineStyle(QCPGraph::lsStepLeft);
    hist_->setPen(QPen(kHist, 1.5));
    QColor fill = kHist;
    fill.setAlpha(70);
    hist_->setBrush(fill);
    hist_rect_->axis(QCPAxis::atBottom)->grid()->setZeroLinePen(QPen(Qt::black, 1));

    caption_ = new QLabel(this);
    caption_->setWordWrap(true);
    caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout()->addWidget(caption_);
    if (auto* box = qobject_cast<QBoxLayout*>(layout())) box->setStretchFactor(p, 1);  // the caption as tall as its lines
    setData({});
}

void FfnChart::setData(const FfnData& ffn) {
    data_ = ffn;
    QCustomPlot* p = plot();
    const qsizetype n = std::min(ffn.top_neurons.size(), ffn.top_values.size());
    neurons_ = ffn.top_neurons.mid(0, n);
    auto ticks = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> pk, pv, nk, nv;
    double reach = 0.0;
    for (qsizetype i = 0; i < n; ++i) {
        const double v = ffn.top_values[i];
        ticks->addTick(double(i), QStringLiteral("#%1").arg(neurons_[i]));
        (v < 0.0 ? nk : pk).push_back(double(i));
        (v < 0.0 ? nv : pv).push_back(v);
        if (std::isfinite(v)) reach = std::max(reach, std::abs(v));
    }
    positive_->setData(pk, pv, true);
    negative_->setData(nk, nv, true);
    p->yAxis->setTicker(ticks);
    p->yAxis->setRange(-0.6, double(std::max<qsizetype>(1, n)) - 0.4);
    reach = reach > 0.0 ? reach * 1.1 : 1.0;
    p->xAxis->setRange(-reach, reach);  // 0 in the middle: the signs compare at a glance

    // The histogram: a step from each bin's left edge, the last one closed at the right edge.
    const qsizetype bins = std::min(ffn.hist_counts.size(), std::max<qsizetype>(0, ffn.hist_edges.size() - 1));
    QVector<double> keys, counts;
    double most = 0.0;
    for (qsizetype b = 0; b < bins; ++b) {
        keys.push_back(ffn.hist_edges[b]);
        counts.push_back(ffn.hist_counts[b]);
        most = std::max(most, double(ffn.hist_counts[b]));
    }
    if (bins > 0) {
        keys.push_back(ffn.hist_edges[bins]);
        counts.push_back(ffn.hist_counts[bins - 1]);
    }
    hist_->setData(keys, counts, true);
    QCPAxis* hx = hist_rect_->axis(QCPAxis::atBottom);
    QCPAxis* hy = hist_rect_->axis(QCPAxis::atLeft);
    if (bins > 0 && keys.back() > keys.front()) {
        const double pad = (keys.back() - keys.front()) * 0.03;
        hx->setRange(keys.front() - pad, keys.back() + pad);
    } else {
        hx->setRange(-1.0, 1.0);
    }
    hy->setRange(0.0, most > 0.0 ? most * 1.1 : 1.0);
    writeTexts();
    applyFonts();
    p->replot(QCustomPlot::rpQueuedReplot);
}

void FfnChart::writeTexts() {
    const qsizetype n = neurons_.size();
    set_fitted_title(bars_title_, tr("Top %1 neurons by |activation|").arg(n));
    set_fitted_title(hist_title_, data_.n_ff > 0 ? tr("Activation of all %1 neurons").arg(format_count(data_.n_ff))
                                        : tr("Activation of every neuron"));
    plot()->xAxis->setLabel(tr("activation (mlp_act)"));
    hist_rect_->axis(QCPAxis::atBottom)->setLabel(tr("activation"));
    hist_rect_->axis(QCPAxis::atLeft)->setLabel(tr("neurons"));
    const bool empty = data_.n_ff == 0 && n == 0 && hist_->data()->isEmpty();
    if (empty) {
        caption_->clear();
    } else {
        caption_->setText(tr("|resid_mid| = %1 → FFN writes |mlp_out| = %2 → |resid_post| = %3")
                              .arg(norm_text(data_.in_norm), norm_text(data_.out_norm), norm_text(data_.post_norm)) +
                          QLatin1Char('\n') +
                          tr("%1 neurons, |act| = %2").arg(format_count(data_.n_ff), norm_text(data_.act_norm)));
    }
}

void FfnChart::retranslate() {
    writeTexts();
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void FfnChart::applyFonts() {
    PlotPanel::applyFonts();
    // Each data area at least kMinData, the bars' a line for each label: the plot's least size is
    // its layout's (QCustomPlot::minimumSizeHint), with the room the ticks, axis labels and titles
    // take now.
    QCustomPlot* p = plot();
    const QFontMetrics rows(p->yAxis->tickLabelFont());
    p->axisRect()->setMinimumSize(kMinData.width(), std::max(kMinData.height(), int(neurons_.size() * rows.height() * 1.2)));
    hist_rect_->setMinimumSize(kMinData);
    QCPLayoutGrid* grid = p->plotLayout();
    grid->update(QCPLayoutElement::upPreparation);  // the ticks
    grid->update(QCPLayoutElement::upMargins);      // the room beside each data area
    p->updateGeometry();
}

FfnChart::ViewState FfnChart::viewState() const {
    ViewState s;
    s.bars_title = fitted_title(bars_title_);
    s.hist_title = fitted_title(hist_title_);
    s.neurons = neurons_;
    s.values = QVector<double>(neurons_.size(), 0.0);
    s.negative = QVector<bool>(neurons_.size(), false);
    for (const QCPBars* b : {positive_, negative_})
        for (auto it = b->data()->constBegin(); it != b->data()->constEnd(); ++it) {
            const qint32 i = qint32(std::lround(it->key));
            if (i < 0 || i >= s.values.size()) continue;
            s.values[i] = it->value;
            s.negative[i] = b == negative_;
        }
    if (auto ticks = plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>()) s.labels = ticks->ticks().values();
    s.value_lower = plot()->xAxis->range().lower;
    s.value_upper = plot()->xAxis->range().upper;
    for (auto it = hist_->data()->constBegin(); it != hist_->data()->constEnd(); ++it) {
        s.edges.append(it->key);
        s.counts.append(it->value);
    }
    if (!s.counts.isEmpty()) s.counts.removeLast();  // the closing step repeats the last bin
    s.caption = caption_->text();
    s.value_label = plot()->xAxis->label();
    s.hist_label = hist_rect_->axis(QCPAxis::atBottom)->label();
    s.count_label = hist_rect_->axis(QCPAxis::atLeft)->label();
    return s;
}

}  // namespace lmscope::widgets
