#include "widgets/kv_chart.h"

#include "widgets/format.h"
#include "widgets/plot_style.h"
#include "widgets/trace_colors.h"

#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>

namespace lmscope::widgets {
namespace {

// Byte ticks at round binary multiples (256 KiB, 1 MiB, ...), labelled "1.5 MiB".
class ByteTicker : public QCPAxisTicker {
protected:
    double getTickStep(const QCPRange& range) override {
        const double target = range.size() / double(qMax(1, tickCount()));
        double unit = 1.0;
        while (unit * 1024.0 <= target) unit *= 1024.0;
        return std::max(1.0, unit * cleanMantissa(target / unit));  // whole bytes
    }
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        return tick < 0 ? QString() : format_bytes(quint64(std::llround(tick)));
    }
};

}  // namespace

KvChart::KvChart(TraceModel* model, QWidget* parent) : QWidget(parent), model_(model) {
    setObjectName(QStringLiteral("kvChart"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("kvPlot"));
    plot_->setMinimumSize(320, 240);
    layout->addWidget(plot_);

    title_ = add_plot_title(plot_);
    connect(plot_, &QCustomPlot::beforeReplot, this, [this] { fit_titles(plot_); });  // the width or the fonts changed
    plot_->yAxis->setTicker(QSharedPointer<ByteTicker>::create());

    formula_ = plot_->addGraph();
    formula_->setPen(QPen(QColor(0x60, 0x60, 0x60, 160), 7, Qt::DotLine));  // wide, under the measured line
    local_ = plot_->addGraph();
    local_->setPen(QPen(QColor(0x8e, 0x44, 0xad), 3, Qt::DashLine));
    window_mark_ = new QCPItemStraightLine(plot_);  // where the local layers' window fills
    window_mark_->setPen(QPen(QColor(0x8e, 0x44, 0xad, 200), 1.5, Qt::DashDotLine));
    window_mark_->setSelectable(false);
    measured_ = plot_->addGraph();
    measured_->setPen(QPen(colors::phase(Phase::Prefill), 3));
    layer_ = plot_->addGraph();
    layer_->setPen(QPen(colors::chosen(), 2));
    prefill_ = plot_->addGraph();
    prefill_->setLineStyle(QCPGraph::lsNone);
    prefill_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, colors::phase(Phase::Prefill),
                                              colors::fill(Choice::Prompt), 14));
    decode_ = plot_->addGraph();
    decode_->setLineStyle(QCPGraph::lsNone);
    decode_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colors::phase(Phase::Decode), 9));
    disagree_ = plot_->addGraph();
    disagree_->setLineStyle(QCPGraph::lsNone);
    disagree_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(QColor(0xc0, 0x39, 0x2b), 3), Qt::NoBrush, 16));

    // The legend below the axes, two entries a line where they fit: never over the data.
    put_legend_below(plot_, 2);
    plot_->legend->setMargins(QMargins(4, 2, 4, 2));

    apply_plot_fonts(plot_, font());
    connect(model_, &TraceModel::currentStepChanged, this, &KvChart::rebuild);
    connect(model_, &TraceModel::headChanged, this, &KvChart::rebuild);
    connect(model_, &TraceModel::modelChanged, this, &KvChart::rebuild);
    retranslate();
}

void KvChart::retranslate() {
    plot_->xAxis->setLabel(tr("tokens in the cache"));
    plot_->yAxis->setLabel(tr("bytes held"));
    formulaTip();
    formula_->setName(tr("formula"));
    measured_->setName(tr("measured, all layers"));
    prefill_->setName(tr("prefill step"));
    decode_->setName(tr("decode step"));
    disagree_->setName(tr("measured ≠ formula"));
    rebuild();  // the title and the layer's name
}

void KvChart::rebuild() {
    const qint32 layer = model_->selectedLayer();
    QVector<double> x, total, formula, per_layer, px, py, dx, dy, bx, by;
    bool have_formula = false;
    KvType type = KvType::F16;
    for (qint32 i : model_->path()) {
        const StepView& s = *model_->step(i);
        const double t = s.kv.tokens;
        x.push_back(t);
        total.push_back(double(s.kv.bytes_total));
        formula.push_back(double(s.kv.formula_bytes));
        have_formula = have_formula || s.kv.formula_bytes > 0;
        per_layer.push_back(layer < s.kv.bytes_per_layer.size() ? double(s.kv.bytes_per_layer[layer]) : qQNaN());
        (s.phase == Phase::Prefill ? px : dx).push_back(t);
        (s.phase == Phase::Prefill ? py : dy).push_back(double(s.kv.bytes_total));
        if (s.kv.formula_bytes > 0 && s.kv.bytes_total != s.kv.formula_bytes) {
            bx.push_back(t);
            by.push_back(double(s.kv.bytes_total));
        }
        type = s.kv.type;
    }
    measured_->setData(x, total, true);
    // The model's line across the whole context; else the formula at the steps' own points.
    const KvFormulaView& line = model_->model().kv_formula;
    const bool whole_line = !line.empty() && (x.isEmpty() || line.type == type);
    if (whole_line) formula_->setData(line.tokens, line.bytes, true);
    else formula_->setData(have_formula ? x : QVector<double>(), have_formula ? formula : QVector<double>(), true);
    have_formula = have_formula || whole_line;
    formula_->setVisible(have_formula);
    formula_->removeFromLegend();
    if (have_formula) formula_->addToLegend();
    const bool local = whole_line && !line.local_bytes.isEmpty();
    local_->setData(local ? line.tokens : QVector<double>(), local ? line.local_bytes : QVector<double>(), true);
    local_->setVisible(local);
    local_->removeFromLegend();
    if (local) {
        local_->setName(tr("formula, the %n local layer(s) (window %1)", nullptr, line.local_layers).arg(line.window));
        local_->addToLegend();
    }
    const bool mark = local && line.window < line.tokens.back();
    window_mark_->setVisible(mark);
    window_mark_->point1->setCoords(line.window, 0);
    window_mark_->point2->setCoords(line.window, 1);
    layer_->setData(x, per_layer, true);
    const qint32 window = model_->model().window(layer);
    layer_->setName(window > 0 ? tr("measured, layer %1 (keeps its last %2)").arg(layer).arg(window)
                               : tr("measured, layer %1").arg(layer));
    formulaTip();
    prefill_->setData(px, py, true);
    decode_->setData(dx, dy, true);
    disagree_->setData(bx, by, true);
    disagree_->removeFromLegend();
    if (!bx.isEmpty()) disagree_->addToLegend();

    QString title = x.isEmpty() ? tr("KV cache")
                                : tr("KV cache: %1 holding %n token(s) (%2)", nullptr, int(x.back()))
                                      .arg(format_bytes(quint64(total.back())))
                                      .arg(type_name_text(kv_type_name(type)));
    if (!x.isEmpty())
        if (const KvData& kv = model_->step(model_->path().back())->kv; kv.offloaded_bytes > 0)
            title += tr(", %1 of it in the offload file (%2 moved by the step)")
                         .arg(format_bytes(kv.offloaded_bytes), format_bytes(kv.moved_bytes));
    set_fitted_title(title_, title);
    fit_legend_columns(plot_, 2);
    double max_x = x.isEmpty() ? 1.0 : x.back();
    double max_y = 1024.0 / 1.1;  // an empty chart reads 0 bytes to 1 KiB
    for (qsizetype i = 0; i < x.size(); ++i) max_y = std::max({max_y, total[i], formula[i]});
    if (whole_line) {
        max_x = std::max(max_x, line.tokens.back());
        max_y = std::max(max_y, line.bytes.back());
    }
    plot_->xAxis->setRange(0, max_x * 1.05 + 1);
    plot_->yAxis->setRange(0, max_y * 1.1);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void KvChart::formulaTip() {
    const ModelView& m = model_->model();
    qint32 local = 0, window = 0;
    for (qint32 w : m.layer_window)
        if (w > 0) {
            ++local;
            window = std::max(window, w);
        }
    if (local == 0) {
        plot_->setToolTip(tr("formula: 2 (K and V) × layers × KV heads × head dim × tokens × bytes per value"));
        return;
    }
    plot_->setToolTip(tr("formula: 2 (K and V) × KV heads × head dim × bytes per value × (global layers (%1) × tokens + "
                         "local layers (%2) × min(tokens, %3)): a local layer attends to its last %3 tokens only, so "
                         "its cache keeps just those")
                          .arg(m.n_layer - local)
                          .arg(local)
                          .arg(window));
}

void KvChart::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    fit_legend_columns(plot_, 2);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void KvChart::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange) {
        apply_plot_fonts(plot_, font());
        fit_legend_columns(plot_, 2);
        plot_->replot(QCustomPlot::rpQueuedReplot);
    } else if (e->type() == QEvent::LanguageChange) {
        retranslate();
    }
}

QString KvChart::title() const { return fitted_title(title_); }

KvChart::ViewState KvChart::viewState() const {
    const auto keys = [](const QCPGraph* g) {
        QVector<double> out;
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) out.append(it->key);
        return out;
    };
    const auto values = [](const QCPGraph* g) {
        QVector<double> out;
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) out.append(it->value);
        return out;
    };
    ViewState s;
    s.tokens = keys(measured_);
    s.measured = values(measured_);
    if (formula_->visible()) {
        s.formula_tokens = keys(formula_);
        s.formula = values(formula_);
    }
    if (local_->visible()) {
        s.local_tokens = keys(local_);
        s.local_bytes = values(local_);
    }
    if (window_mark_->visible()) s.window_tokens = window_mark_->point1->key();
    s.tokens_end = plot_->xAxis->range().upper;
    s.layer = values(layer_);
    s.layer_name = layer_->name();
    s.prefill_tokens = keys(prefill_);
    s.decode_tokens = keys(decode_);
    s.disagree_tokens = keys(disagree_);
    s.prefill_shape = int(prefill_->scatterStyle().shape());
    s.decode_shape = int(decode_->scatterStyle().shape());
    s.title = fitted_title(title_);
    s.tokens_label = plot_->xAxis->label();
    s.bytes_label = plot_->yAxis->label();
    s.tooltip = plot_->toolTip();
    return s;
}

ChartTable KvChart::table() const {
    ChartTable t;
    t.title = tr("KV cache bytes per step");
    t.columns = {QStringLiteral("step"), QStringLiteral("phase"), QStringLiteral("tokens"), QStringLiteral("dtype"),
                 QStringLiteral("bytes_total"), QStringLiteral("formula_bytes")};
    qint32 layers = 0;
    for (qint32 i : model_->path()) layers = std::max(layers, qint32(model_->step(i)->kv.bytes_per_layer.size()));
    for (qint32 l = 0; l < layers; ++l) t.columns << QStringLiteral("layer_%1_bytes").arg(l);
    for (qint32 i : model_->path()) {
        const StepView& s = *model_->step(i);
        QVector<QVariant> row = {i, type_name_text(phase_name(s.phase)),
                                 s.kv.tokens, type_name_text(kv_type_name(s.kv.type)), s.kv.bytes_total, s.kv.formula_bytes};
        for (qint32 l = 0; l < layers; ++l) row.push_back(l < s.kv.bytes_per_layer.size() ? QVariant(s.kv.bytes_per_layer[l]) : QVariant());
        t.rows.push_back(row);
    }
    return t;
}

}  // namespace lmscope::widgets
