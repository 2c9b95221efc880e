#include "gui/labs/kv_lab_chart.h"

#include "util/error.h"
#include "widgets/kv_growth_chart.h"
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

#include <cmath>

namespace lmscope::gui::labs {
namespace {

// A token count that fits, or "any number" when every layer is local and its windows fit.
QString tokens_text(uint64_t fit) {
    return fit == kv::kAnyLength ? KvCostChart::tr("any number") : QLocale().toString(qulonglong(fit));
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
      chart_(new widgets::KvGrowthChart),
      budget_box_(new QDoubleSpinBox),
      weights_type_(new QComboBox),
      log_(new QCheckBox),
      summary_(new QLabel),
      budget_label_(new QLabel),
      weights_label_(new QLabel),
      fit_(new QTableWidget) {
    setObjectName(QStringLiteral("kvCostChart"));
    chart_->setObjectName(QStringLiteral("kvGrowthChart"));
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
    for (KvType t : kKvTypes) weights_type_->addItem(QString(), widgets::type_name_text(kv_type_name(t)));
    log_->setChecked(true);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    fit_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    fit_->setColumnCount(int(kKvTypes.size()));
    fit_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    fit_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    fit_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    fit_->setMaximumHeight(fit_->fontMetrics().height() * 8);

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
    layout->addWidget(chart_, 1);
    layout->addWidget(summary_);
    layout->addWidget(fit_);

    retranslate();
    connect(budget_box_, &QDoubleSpinBox::valueChanged, this, [this] { rebuild(); });
    connect(weights_type_, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    connect(log_, &QCheckBox::toggled, this, [this] { showChart(); });
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
    rebuildCurves(variants, xs, budget);
    view_.first_tokens = xs.front();
    view_.last_tokens = xs.back();
    view_.budget = {tr("device budget %1").arg(format_si_bytes(budget)), double(budget)};
    view_.kv_space.reset();
    if (choice_.valid && weights_bytes_ > 0 && weights_bytes_ < budget)
        view_.kv_space = widgets::KvGrowthLine{tr("left after the weights (%1)").arg(format_si_bytes(budget - weights_bytes_)),
                                               double(budget - weights_bytes_)};
    summary_->setText(summaryText(budget, weights_type));
    rebuildMeasured();
}

void KvCostChart::rebuildCurves(const std::vector<kv::Variant>& variants, const QVector<double>& xs, uint64_t budget) {
    view_.curves.clear();
    fit_->setRowCount(int(variants.size()));
    QStringList row_names;
    for (size_t v = 0; v < variants.size(); ++v) {
        const kv::Variant& var = variants[v];
        row_names << tr("%1 (%2 KV heads)").arg(attention_kind_label(var.kind)).arg(var.shape.n_head_kv);
        for (size_t t = 0; t < kKvTypes.size(); ++t) {
            auto* cell = new QTableWidgetItem(QStringLiteral("—"));
            cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            try {
                kv::validate(var.shape, kKvTypes[t]);
                widgets::KvGrowthCurve curve{.family = qint32(var.kind), .type = kKvTypes[t],
                                             .name = tr("%1 %2").arg(attention_kind_label(var.kind), cache_type_label(kKvTypes[t])),
                                             .tokens = xs};
                for (double x : xs) curve.bytes.push_back(double(kv::cache_bytes(var.shape, kKvTypes[t], uint64_t(x), choice_.batch)));
                view_.curves.append(curve);
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
}

// The chosen shape and type against the budget, in words.
QString KvCostChart::summaryText(uint64_t budget, KvType weights_type) const {
    const QLocale loc;
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
    return text;
}

void KvCostChart::rebuildMeasured() {
    widgets::KvGrowthCurve& measured = view_.measured;
    measured.tokens.clear();
    measured.bytes.clear();
    QString dtype;
    if (trace_ && choice_.loaded_model) {  // the live run is the loaded model's: not another shape's chart
        for (qint32 i : trace_->path()) {
            const widgets::StepView& s = *trace_->step(i);
            measured.tokens.push_back(double(s.kv.tokens));
            measured.bytes.push_back(double(s.kv.bytes_total));
            dtype = widgets::type_name_text(kv_type_name(s.kv.type));
        }
    }
    measured.name = tr("measured: the live run (%1)").arg(dtype);  // the loaded model's: the summary names it
    showChart();
}

void KvCostChart::showChart() {
    view_.log_scale = log_->isChecked();
    chart_->setData(view_);
}

void KvCostChart::retranslate() {
    budget_label_->setText(tr("Device memory"));
    weights_label_->setText(tr("Weights stored as"));
    log_->setText(tr("Logarithmic axes"));
    for (int i = 0; i < weights_type_->count(); ++i) weights_type_->setItemText(i, cache_type_label(kKvTypes[size_t(i)]));
    fit_->setHorizontalHeaderLabels({tr("tokens that fit, %1").arg(cache_type_label(kKvTypes[0])),
                                     cache_type_label(kKvTypes[1]), cache_type_label(kKvTypes[2])});
    budget_box_->setToolTip(tr("GPU memory, e.g. 80 GB; the weights take their share first"));
    rebuild();
}

}  // namespace lmscope::gui::labs
