#include "gui/labs/kv_lab_chart.h"

#include "util/error.h"
#include "widgets/plot_style.h"
#include "widgets/trace_model.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>

namespace lmscope::gui::labs {
namespace {

// "40 GB", "1.5 MB", "512 B": a tick label in decimal units, at most three significant digits.
QString tick_bytes(double bytes) {
    static const char* const units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    int unit = 0;
    while (bytes >= 1000.0 && unit < 5) bytes /= 1000.0, ++unit;
    return QStringLiteral("%1 %2").arg(QLocale().toString(bytes, 'g', 3), QLatin1String(units[unit]));
}

// Byte ticks labelled in decimal units ("40 GB"), on a linear axis.
class LinearBytesTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return tick < 0 ? QString() : tick_bytes(tick);
    }
};
// The same on a logarithmic axis (ticks at powers of ten).
class LogBytesTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return tick <= 0 ? QString() : tick_bytes(tick);
    }
};
// Token counts at powers of ten, "100,000".
class LogCountTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return tick < 1 ? QString() : QLocale().toString(qlonglong(std::llround(tick)));
    }
};

QColor kind_color(kv::AttentionKind kind) {
    switch (kind) {
        case kv::AttentionKind::MHA: return QColor(0xc0, 0x39, 0x2b);
        case kv::AttentionKind::GQA: return QColor(0x2f, 0x6d, 0xb5);
        case kv::AttentionKind::MQA: return QColor(0x2e, 0x8b, 0x45);
    }
    return Qt::black;
}

// A token count that fits, or "any number" when every layer is local and its windows fit.
QString tokens_text(uint64_t fit) {
    return fit == kv::kAnyLength ? KvCostChart::tr("any number") : QLocale().toString(qulonglong(fit));
}

Qt::PenStyle type_style(KvType type) {
    switch (type) {
        case KvType::F16: return Qt::SolidLine;
        case KvType::Q8_0: return Qt::DashLine;
        case KvType::Q4_0: return Qt::DotLine;
    }
    return Qt::SolidLine;
}

// About 64 context lengths from 1 to `max`, evenly spaced on a log scale, `max` included.
QVector<double> sample_tokens(uint64_t max) {
    QVector<double> xs;
    const double top = std::log(double(std::max<uint64_t>(max, 1)));
    constexpr int n = 64;
    for (int i = 0; i < n; ++i) {
        const double t = std::floor(std::exp(top * double(i) / double(n - 1)));
        if (xs.isEmpty() || t > xs.back()) xs.push_back(t);
    }
    if (xs.back() != double(max)) xs.push_back(double(max));
    return xs;
}

}  // namespace

KvCostChart::KvCostChart(QWidget* parent)
    : QWidget(parent),
      plot_(new QCustomPlot),
      budget_box_(new QDoubleSpinBox),
      weights_type_(new QComboBox),
      log_(new QCheckBox),
      summary_(new QLabel),
      budget_label_(new QLabel),
      weights_label_(new QLabel),
      fit_(new QTableWidget) {
    setObjectName(QStringLiteral("kvCostChart"));
    plot_->setObjectName(QStringLiteral("kvCostPlot"));
    budget_box_->setObjectName(QStringLiteral("kvBudget"));
    weights_type_->setObjectName(QStringLiteral("kvWeightsType"));
    log_->setObjectName(QStringLiteral("kvLogScale"));
    summary_->setObjectName(QStringLiteral("kvBudgetSummary"));
    fit_->setObjectName(QStringLiteral("kvFitTable"));

    budget_box_->setRange(0.001, 1e6);
    budget_box_->setDecimals(3);
    budget_box_->setValue(80.0);
    budget_box_->setSuffix(QStringLiteral(" GB"));
    budget_label_->setBuddy(budget_box_);
    weights_label_->setBuddy(weights_type_);
    for (KvType t : kKvTypes) weights_type_->addItem(QString(), cache_type_id(t));
    log_->setChecked(true);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    fit_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    fit_->setColumnCount(int(kKvTypes.size()));
    fit_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    fit_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    fit_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    fit_->setMaximumHeight(fit_->fontMetrics().height() * 8);
    plot_->setMinimumSize(320, 220);

    plot_->setAutoAddPlottableToLegend(false);  // relegend() lists the visible graphs in order
    for (kv::AttentionKind kind : {kv::AttentionKind::MHA, kv::AttentionKind::GQA, kv::AttentionKind::MQA}) {
        for (size_t t = 0; t < kKvTypes.size(); ++t) {
            QCPGraph* g = plot_->addGraph();
            g->setPen(QPen(kind_color(kind), kKvTypes[t] == KvType::F16 ? 3 : 2, type_style(kKvTypes[t])));
            curves_[size_t(kind)][t] = g;
        }
    }
    budget_ = plot_->addGraph();
    budget_->setPen(QPen(QColor(0x33, 0x33, 0x33), 2));
    kv_space_ = plot_->addGraph();
    kv_space_->setPen(QPen(QColor(0x88, 0x55, 0x00), 2, Qt::DashDotLine));
    measured_ = plot_->addGraph();
    measured_->setPen(QPen(QColor(0xd2, 0x6a, 0x00), 3));
    measured_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 7));
    plot_->legend->setVisible(true);
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot_->legend->setWrap(int(kKvTypes.size()));
    plot_->legend->setBrush(QColor(255, 255, 255, 220));
    // The legend goes below the axes, where it hides no curve.
    plot_->plotLayout()->addElement(1, 0, plot_->legend);
    plot_->plotLayout()->setRowStretchFactor(1, 0.001);

    auto* controls = new QHBoxLayout;
    controls->addWidget(budget_label_);
    controls->addWidget(budget_box_);
    controls->addSpacing(12);
    controls->addWidget(weights_label_);
    controls->addWidget(weights_type_);
    controls->addSpacing(12);
    controls->addWidget(log_);
    controls->addStretch(1);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(plot_, 1);
    layout->addWidget(summary_);
    layout->addWidget(fit_);

    retranslate();
    widgets::apply_plot_fonts(plot_, font());
    connect(budget_box_, &QDoubleSpinBox::valueChanged, this, [this] { rebuild(); });
    connect(weights_type_, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    connect(log_, &QCheckBox::toggled, this, [this] { rescale(); });
}

QCPGraph* KvCostChart::curve(kv::AttentionKind kind, KvType type) const {
    QCPGraph* g = curves_[size_t(kind)][size_t(type)];
    return g->visible() ? g : nullptr;
}

uint64_t KvCostChart::budgetBytes() const { return uint64_t(std::llround(budget_box_->value() * kGB)); }

void KvCostChart::setChoice(const KvChoice& choice) {
    choice_ = choice;
    rebuild();
}

void KvCostChart::setLiveTrace(widgets::TraceModel* trace) {
    if (trace_) disconnect(trace_, nullptr, this, nullptr);
    trace_ = trace;
    if (trace) {
        connect(trace, &widgets::TraceModel::stepsChanged, this, [this] { rebuildMeasured(); });
        connect(trace, &widgets::TraceModel::currentStepChanged, this, [this] { rebuildMeasured(); });
        connect(trace, &widgets::TraceModel::branchChanged, this, [this] { rebuildMeasured(); });
    }
    rebuildMeasured();
}

void KvCostChart::setBudgetGB(double gb) { budget_box_->setValue(gb); }
void KvCostChart::setLogScale(bool on) { log_->setChecked(on); }

bool KvCostChart::setWeightsType(const QString& name) {
    const int index = weights_type_->findData(name.toLower());
    if (index < 0) return false;
    weights_type_->setCurrentIndex(index);
    return true;
}

void KvCostChart::rebuild() {
    const QLocale loc;
    const uint64_t budget = budgetBytes();
    const KvType weights_type = kKvTypes[size_t(std::max(0, weights_type_->currentIndex()))];
    weights_bytes_ = 0;
    std::vector<kv::Variant> variants;
    if (choice_.valid) {
        try {
            weights_bytes_ = kv::weights_bytes(choice_.n_params, weights_type);
            variants = kv::attention_variants(choice_.shape);
        } catch (const Error&) {
            weights_bytes_ = 0;  // an absurd parameter count: no weights line
        }
    }
    const QVector<double> xs = sample_tokens(choice_.tokens);
    for (auto& row : curves_)
        for (QCPGraph* g : row) g->setVisible(false), g->data()->clear();
    fit_->setRowCount(int(variants.size()));
    QStringList row_names;
    for (size_t v = 0; v < variants.size(); ++v) {
        const kv::Variant& var = variants[v];
        row_names << tr("%1 (%2 KV heads)").arg(attention_kind_label(var.kind)).arg(var.shape.n_head_kv);
        for (size_t t = 0; t < kKvTypes.size(); ++t) {
            QCPGraph* g = curves_[size_t(var.kind)][t];
            auto* cell = new QTableWidgetItem(QStringLiteral("—"));
            cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            try {
                kv::validate(var.shape, kKvTypes[t]);
                QVector<double> ys;
                ys.reserve(xs.size());
                for (double x : xs) ys.push_back(double(kv::cache_bytes(var.shape, kKvTypes[t], uint64_t(x), choice_.batch)));
                g->setData(xs, ys, true);
                g->setName(tr("%1 %2").arg(attention_kind_label(var.kind), cache_type_label(kKvTypes[t])));
                g->setVisible(true);
                const uint64_t fit = kv::tokens_that_fit(var.shape, kKvTypes[t], choice_.batch, budget, weights_bytes_);
                cell->setData(Qt::UserRole, QVariant::fromValue<qulonglong>(fit));
                cell->setText(tokens_text(fit));
            } catch (const Error& e) {
                cell->setToolTip(QString::fromUtf8(e.what()));  // e.g. q4_0 needs head_dim % 32 == 0
            }
            fit_->setItem(int(v), int(t), cell);
        }
    }
    fit_->setVerticalHeaderLabels(row_names);

    const double x0 = xs.front(), x1 = xs.back();
    budget_->setData({x0, x1}, {double(budget), double(budget)}, true);
    budget_->setName(tr("device budget %1").arg(format_si_bytes(budget)));
    const bool space = choice_.valid && weights_bytes_ > 0 && weights_bytes_ < budget;
    kv_space_->setVisible(space);
    kv_space_->data()->clear();
    if (space) {
        const double left = double(budget - weights_bytes_);
        kv_space_->setData({x0, x1}, {left, left}, true);
        kv_space_->setName(tr("left after the weights (%1)").arg(format_si_bytes(budget - weights_bytes_)));
    }

    // The chosen shape and type, in words.
    QString text;
    if (!choice_.valid) {
        text = tr("The fields do not describe a valid KV cache (see the formula panel).");
    } else {
        const QString weights = tr("weights %1 (%2 parameters at %3)")
                                    .arg(format_si_bytes(weights_bytes_), loc.toString(qulonglong(choice_.n_params)),
                                         cache_type_label(weights_type));
        if (weights_bytes_ >= budget) {
            text = tr("Device budget %1 − %2: the weights alone do not fit, nothing is left for the cache.")
                       .arg(format_si_bytes(budget), weights);
        } else {
            uint64_t fit = 0;
            QString need;
            try {
                fit = kv::tokens_that_fit(choice_.shape, choice_.type, choice_.batch, budget, weights_bytes_);
                need = format_si_bytes(kv::cache_bytes(choice_.shape, choice_.type, choice_.tokens, choice_.batch));
            } catch (const Error& e) {
                need = QString::fromUtf8(e.what());
            }
            text = tr("Device budget %1 − %2 leaves %3 for the cache: %4 tokens of %5's %6 cache fit; "
                      "%7 tokens need %8.")
                       .arg(format_si_bytes(budget), weights, format_si_bytes(budget - weights_bytes_),
                            tokens_text(fit), choice_.label, cache_type_label(choice_.type),
                            loc.toString(qulonglong(choice_.tokens)), need);
            if (choice_.batch > 1)
                text += QLatin1Char(' ') + tr("(Tokens per sequence, %1 sequences.)").arg(loc.toString(qulonglong(choice_.batch)));
        }
    }
    summary_->setText(text);
    rebuildMeasured();
}

void KvCostChart::rebuildMeasured() {
    QVector<double> xs, ys;
    measured_dtype_.clear();
    if (trace_ && choice_.loaded_model) {  // the live run is the loaded model's: not another shape's chart
        for (qint32 i : trace_->path()) {
            const widgets::StepView& s = *trace_->step(i);
            xs.push_back(double(s.kv.tokens));
            ys.push_back(double(s.kv.bytes_total));
            measured_dtype_ = cache_type_id(s.kv.type);
        }
    }
    measured_->setData(xs, ys, true);
    measured_->setVisible(!xs.isEmpty());
    measured_->setName(tr("measured: %1's live run (%2)").arg(choice_.label, measured_dtype_));
    relegend();
    rescale();
}

void KvCostChart::relegend() {
    plot_->legend->clearItems();
    for (auto& row : curves_)
        for (QCPGraph* g : row)
            if (g->visible()) g->addToLegend();
    for (QCPGraph* g : {budget_, kv_space_, measured_})
        if (g->visible()) g->addToLegend();
}

void KvCostChart::rescale() {
    const bool log = log_->isChecked();
    double x_max = 1, y_min = 0, y_max = 0;
    for (int i = 0; i < plot_->graphCount(); ++i) {
        QCPGraph* g = plot_->graph(i);
        if (!g->visible() || g->data()->isEmpty()) continue;
        bool found = false;
        const QCPRange keys = g->data()->keyRange(found);
        if (found) x_max = std::max(x_max, keys.upper);
        if (g == budget_ || g == kv_space_) continue;  // the lines join the range below
        const QCPRange values = g->data()->valueRange(found, QCP::sdPositive);
        if (!found) continue;
        y_min = y_min > 0 ? std::min(y_min, values.lower) : values.lower;
        y_max = std::max(y_max, values.upper);
    }
    // A budget far above the curves would flatten them on a linear axis: it joins the range
    // when the scale is logarithmic or when it is within twice the largest curve.
    for (QCPGraph* line : {budget_, kv_space_}) {
        if (!line->visible() || line->data()->isEmpty()) continue;
        const double y = line->data()->begin()->value;
        if (log || y_max <= 0 || y <= 2 * y_max) y_max = std::max(y_max, y), y_min = y_min > 0 ? std::min(y_min, y) : y;
    }
    if (y_max <= 0) y_max = 1;
    if (y_min <= 0) y_min = y_max / 1e6;
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis})
        axis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log) {
        plot_->xAxis->setTicker(QSharedPointer<LogCountTicker>::create());
        plot_->yAxis->setTicker(QSharedPointer<LogBytesTicker>::create());
        plot_->xAxis->setRange(1, x_max * 1.5);
        plot_->yAxis->setRange(y_min / 2, y_max * 3);
    } else {
        plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        plot_->yAxis->setTicker(QSharedPointer<LinearBytesTicker>::create());
        plot_->xAxis->setRange(0, x_max * 1.02);
        plot_->yAxis->setRange(0, y_max * 1.1);
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void KvCostChart::retranslate() {
    budget_label_->setText(tr("Device memory"));
    weights_label_->setText(tr("Weights stored as"));
    log_->setText(tr("Logarithmic axes"));
    for (int i = 0; i < weights_type_->count(); ++i) weights_type_->setItemText(i, cache_type_label(kKvTypes[size_t(i)]));
    fit_->setHorizontalHeaderLabels({tr("tokens that fit, %1").arg(cache_type_label(kKvTypes[0])),
                                     cache_type_label(kKvTypes[1]), cache_type_label(kKvTypes[2])});
    plot_->xAxis->setLabel(tr("context length (tokens)"));
    plot_->yAxis->setLabel(tr("KV cache bytes"));
    budget_box_->setToolTip(tr("GPU memory, e.g. 80 GB; the weights take their share first"));
    rebuild();
}

void KvCostChart::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange) {
        widgets::apply_plot_fonts(plot_, font());
        plot_->replot(QCustomPlot::rpQueuedReplot);
    }
}

}  // namespace lmscope::gui::labs
