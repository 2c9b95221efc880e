#include "widgets/labelled_bars.h"

#include "widgets/trace_colors.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace lmscope::widgets {
namespace {

constexpr qint32 kMaxValueTexts = 16;  // more bars than this: no number written at each

}  // namespace

LabelledBars::LabelledBars(Orientation orientation, QWidget* parent) : PlotPanel(parent, 2), orientation_(orientation) {
    plot()->setMinimumSize(200, 160);
    title_ = add_plot_title(plot());
    const bool rows = orientation_ == Orientation::Rows;
    QCPAxis* keys = rows ? plot()->yAxis : plot()->xAxis;
    QCPAxis* vals = rows ? plot()->xAxis : plot()->yAxis;
    keys->grid()->setVisible(false);
    keys->setSubTicks(false);
    keys->setTickLength(0, 0);
    if (rows) keys->setRangeReversed(true);
    else keys->setTickLabelRotation(-50);
    plain_ = new QCPBars(keys, vals);
    plain_->setPen(QPen(QColor(0x2f, 0x6d, 0xb5)));
    plain_->setBrush(QColor(0x9e, 0xc0, 0xe6));
    accent_ = new QCPBars(keys, vals);
    accent_->setPen(QPen(colors::chosen()));
    accent_->setBrush(QColor(0xf6, 0xb2, 0x6b));
    for (QCPBars* b : {plain_, accent_}) b->setWidth(0.7);
    applyFonts();
}

void LabelledBars::setData(const LabelledBarsData& bars) {
    labels_ = bars.labels;
    highlight_ = bars.highlight;
    highlight_.resize(labels_.size());
    QVector<double> values = bars.values;
    values.resize(labels_.size());  // missing values are 0
    set_fitted_title(title_, bars.title);
    const bool rows = orientation_ == Orientation::Rows;
    QCPAxis* keys = rows ? plot()->yAxis : plot()->xAxis;
    QCPAxis* vals = rows ? plot()->xAxis : plot()->yAxis;
    auto ticks = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> pk, pv, ak, av;
    double top = bars.min_top;
    for (qint32 i = 0; i < labels_.size(); ++i) {
        ticks->addTick(i, labels_[i]);
        (highlight_[i] ? ak : pk).push_back(i);
        (highlight_[i] ? av : pv).push_back(values[i]);
        top = std::max(top, values[i]);
    }
    writeValues(values);
    plain_->setData(pk, pv, true);
    accent_->setData(ak, av, true);
    keys->setTicker(ticks);
    keys->setRange(-0.6, std::max<qsizetype>(1, labels_.size()) - 0.4);
    const bool written = labels_.size() <= kMaxValueTexts;
    vals->setRange(0.0, top > 0.0 ? top * (written ? 1.3 : 1.05) : 1.0);
    vals->setLabel(bars.value_label);
    applyFonts();
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

// The number at each bar's end, while there are few enough bars to read them.
void LabelledBars::writeValues(const QVector<double>& values) {
    plot()->clearItems();
    if (values.size() > kMaxValueTexts) return;
    const bool rows = orientation_ == Orientation::Rows;
    for (qint32 i = 0; i < values.size(); ++i) {
        const double v = values[i];
        auto* text = new QCPItemText(plot());
        text->position->setType(QCPItemPosition::ptPlotCoords);  // on xAxis, yAxis
        text->position->setCoords(rows ? v : i, rows ? i : v);
        text->setPositionAlignment(rows ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignHCenter | Qt::AlignBottom);
        text->setPadding(QMargins(4, 0, 0, 2));
        text->setText(QString::number(v, 'f', v < 0.01 ? 4 : 3));
    }
}

LabelledBars::ViewState LabelledBars::viewState() const {
    ViewState s;
    s.title = fitted_title(title_);
    s.title_shown = title_->text();
    s.labels = labels_;
    s.highlighted = highlight_;
    s.values = QVector<double>(labels_.size(), 0.0);
    for (const QCPBars* b : {plain_, accent_})
        for (auto it = b->data()->constBegin(); it != b->data()->constEnd(); ++it) {
            const qint32 i = qint32(std::lround(it->key));
            if (i >= 0 && i < s.values.size()) s.values[i] = it->value;
        }
    const QCPAxis* vals = orientation_ == Orientation::Rows ? plot()->xAxis : plot()->yAxis;
    s.value_label = vals->label();
    s.value_top = vals->range().upper;
    return s;
}

void LabelledBars::applyFonts() {
    PlotPanel::applyFonts();
    QFont tokens = font();
    tokens.setPointSizeF(font().pointSizeF() * 1.2);
    (orientation_ == Orientation::Rows ? plot()->yAxis : plot()->xAxis)->setTickLabelFont(tokens);
}

}  // namespace lmscope::widgets
