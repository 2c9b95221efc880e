#include "widgets/attention_heatmap.h"

#include "widgets/plot_style.h"
#include "widgets/trace_colors.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace lmscope::widgets {
namespace {

constexpr qint32 kMaxLabels = 40;  // token labels per axis; longer sequences label every k-th

QString token_label(const TokenView& t) {
    QString s = display_text(t.text);
    if (s.size() > 12) s = s.left(11) + QStringLiteral("…");
    return s;
}

QCPColorGradient weight_gradient() {
    QCPColorGradient g;
    g.clearColorStops();
    for (const auto& [at, color] : colors::weight_ramp()) g.setColorStopAt(at, color);
    g.setNanHandling(QCPColorGradient::nhTransparent);  // masked cells show the hatched background
    return g;
}

}  // namespace

AttentionHeatmap::AttentionHeatmap(TraceModel* model, QWidget* parent) : QWidget(parent), model_(model) {
    setObjectName(QStringLiteral("attentionHeatmap"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    buildControls();
    buildPlot();
    connect(model_, &TraceModel::modelChanged, this, [this] {
        syncControls();
        rebuild();
    });
    connect(model_, &TraceModel::currentStepChanged, this, &AttentionHeatmap::rebuild);
    connect(model_, &TraceModel::headChanged, this, [this] {
        syncControls();
        rebuild();
    });
    connect(model_, &TraceModel::queryChanged, this, &AttentionHeatmap::updateRow);
    retranslate();
}

void AttentionHeatmap::retranslate() {
    mean_box_->setText(tr("Mean over heads"));
    mean_box_->setToolTip(tr("Average the weights of every head of the layer"));
    log_box_->setText(tr("Log colours"));
    log_box_->setToolTip(tr("Colour weights on a logarithmic scale, so small weights show too"));
    layer_label_->setText(tr("Layer"));
    head_label_->setText(tr("Head"));
    map_rect_->axis(QCPAxis::atBottom)->setLabel(tr("key (attended-to token)"));
    map_rect_->axis(QCPAxis::atLeft)->setLabel(tr("query (attending token)"));
    scale_->setLabel(tr("weight"));
    row_rect_->axis(QCPAxis::atLeft)->setLabel(tr("weight"));
    syncControls();  // the GQA line
    rebuild();       // the title and the row's axis
}

void AttentionHeatmap::buildControls() {
    auto* row = new QHBoxLayout;
    layer_box_ = new QSpinBox(this);
    layer_box_->setObjectName(QStringLiteral("layerBox"));
    head_box_ = new QSpinBox(this);
    head_box_->setObjectName(QStringLiteral("headBox"));
    mean_box_ = new QCheckBox(this);
    mean_box_->setObjectName(QStringLiteral("meanBox"));
    log_box_ = new QCheckBox(this);
    log_box_->setObjectName(QStringLiteral("logBox"));
    group_label_ = new QLabel(this);
    group_label_->setObjectName(QStringLiteral("groupLabel"));
    layer_label_ = new QLabel(this);
    head_label_ = new QLabel(this);
    layer_label_->setBuddy(layer_box_);
    head_label_->setBuddy(head_box_);
    row->addWidget(layer_label_);
    row->addWidget(layer_box_);
    row->addSpacing(12);
    row->addWidget(head_label_);
    row->addWidget(head_box_);
    row->addSpacing(12);
    row->addWidget(mean_box_);
    row->addSpacing(12);
    row->addWidget(log_box_);
    row->addSpacing(12);
    row->addWidget(group_label_, 1);
    static_cast<QVBoxLayout*>(layout())->addLayout(row);
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("heatmapNote"));
    note_->setWordWrap(true);
    note_->hide();
    static_cast<QVBoxLayout*>(layout())->addWidget(note_);

    auto pick = [this] {
        if (!syncing_) model_->setSelectedHead(layer_box_->value(), head_box_->value());
    };
    connect(layer_box_, &QSpinBox::valueChanged, this, pick);
    connect(head_box_, &QSpinBox::valueChanged, this, pick);
    connect(mean_box_, &QCheckBox::toggled, this, [this](bool on) {
        head_box_->setEnabled(!on);
        rebuild();
    });
    connect(log_box_, &QCheckBox::toggled, this, &AttentionHeatmap::rebuild);
}

void AttentionHeatmap::buildPlot() {
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("heatmapPlot"));
    plot_->setMinimumSize(360, 360);
    plot_->plotLayout()->clear();
    plot_->setNoAntialiasingOnDrag(true);

    auto* title = new QCPTextElement(plot_);
    title->setObjectName(QStringLiteral("title"));
    plot_->plotLayout()->addElement(0, 0, title);
    map_rect_ = new QCPAxisRect(plot_);
    scale_ = new QCPColorScale(plot_);
    row_rect_ = new QCPAxisRect(plot_);
    plot_->plotLayout()->addElement(1, 0, map_rect_);
    plot_->plotLayout()->addElement(1, 1, scale_);
    plot_->plotLayout()->addElement(2, 0, row_rect_);
    plot_->plotLayout()->setRowStretchFactor(0, 0.01);
    plot_->plotLayout()->setRowStretchFactor(1, 1.0);
    plot_->plotLayout()->setRowStretchFactor(2, 0.4);
    plot_->plotLayout()->setColumnStretchFactor(1, 0.01);
    auto* columns = new QCPMarginGroup(plot_);
    map_rect_->setMarginGroup(QCP::msLeft | QCP::msRight, columns);
    row_rect_->setMarginGroup(QCP::msLeft | QCP::msRight, columns);
    auto* rows = new QCPMarginGroup(plot_);
    map_rect_->setMarginGroup(QCP::msTop | QCP::msBottom, rows);
    scale_->setMarginGroup(QCP::msTop | QCP::msBottom, rows);

    // Masked (future) cells are NaN, drawn transparent over this hatching.
    map_rect_->setBackground(QBrush(colors::masked(), Qt::BDiagPattern));
    QCPAxis* keys = map_rect_->axis(QCPAxis::atBottom);
    QCPAxis* queries = map_rect_->axis(QCPAxis::atLeft);
    queries->setRangeReversed(true);  // position 0 at the top
    keys->setTickLabelRotation(-60);
    for (QCPAxis* a : {keys, queries}) {
        a->grid()->setVisible(false);
        a->setSubTicks(false);
    }
    map_ = new QCPColorMap(keys, queries);
    map_->setInterpolate(false);
    map_->setTightBoundary(false);
    map_->setColorScale(scale_);  // before the gradient: the scale hands its own to the map
    map_->setGradient(weight_gradient());
    scale_->setType(QCPAxis::atRight);

    row_marker_ = new QCPItemRect(plot_);
    row_marker_->setClipAxisRect(map_rect_);
    row_marker_->topLeft->setAxes(keys, queries);
    row_marker_->bottomRight->setAxes(keys, queries);
    row_marker_->setPen(QPen(colors::chosen(), 3));
    row_marker_->setBrush(Qt::NoBrush);

    QCPAxis* bar_keys = row_rect_->axis(QCPAxis::atBottom);
    QCPAxis* bar_values = row_rect_->axis(QCPAxis::atLeft);
    bar_keys->setTickLabelRotation(-60);
    bar_keys->grid()->setVisible(false);
    bar_keys->setSubTicks(false);
    bars_ = new QCPBars(bar_keys, bar_values);
    bars_->setWidth(0.8);
    bars_->setPen(QPen(QColor(0x08, 0x30, 0x6b)));
    bars_->setBrush(QColor(0x31, 0x82, 0xbd));

    connect(plot_, &QCustomPlot::mouseMove, this, &AttentionHeatmap::onMouseMove);
    connect(plot_, &QCustomPlot::mousePress, this, &AttentionHeatmap::onMousePress);
    static_cast<QVBoxLayout*>(layout())->addWidget(plot_, 1);
    apply_plot_fonts(plot_, font());
}

void AttentionHeatmap::syncControls() {
    syncing_ = true;
    const ModelView& m = model_->model();
    layer_box_->setRange(0, std::max(0, m.n_layer - 1));
    head_box_->setRange(0, std::max(0, m.n_head - 1));
    layer_box_->setValue(model_->selectedLayer());
    head_box_->setValue(model_->selectedHead());
    if (m.group_size() > 1) {
        const qint32 g = m.kv_group(model_->selectedHead());
        QStringList mates;
        for (qint32 h = g * m.group_size(); h < (g + 1) * m.group_size(); ++h) mates << QString::number(h);
        group_label_->setText(tr("KV head %1, shared by query heads %2 (GQA)").arg(g).arg(mates.join(QStringLiteral(", "))));
    } else {
        group_label_->setText(m.n_head > 0 ? tr("each head has its own keys and values (MHA)") : QString());
    }
    syncing_ = false;
}

QString AttentionHeatmap::title() const {
    return static_cast<QCPTextElement*>(plot_->plotLayout()->element(0, 0))->text();
}

bool AttentionHeatmap::meanOverHeads() const { return mean_box_->isChecked(); }

void AttentionHeatmap::setMeanOverHeads(bool on) { mean_box_->setChecked(on); }

void AttentionHeatmap::setTicks() {
    const QVector<TokenView>& seq = model_->sequence();
    const qint32 n = qint32(seq.size());
    const qint32 stride = std::max<qint32>(1, (n + kMaxLabels - 1) / kMaxLabels);
    auto key_ticks = QSharedPointer<QCPAxisTickerText>::create();
    auto query_ticks = QSharedPointer<QCPAxisTickerText>::create();
    for (qint32 i = 0; i < n; i += stride) {
        const QString label = token_label(seq[i]);
        key_ticks->addTick(i, label);
        query_ticks->addTick(i, QStringLiteral("%1  %2").arg(label).arg(i));
    }
    map_rect_->axis(QCPAxis::atBottom)->setTicker(key_ticks);
    map_rect_->axis(QCPAxis::atLeft)->setTicker(query_ticks);
    row_rect_->axis(QCPAxis::atBottom)->setTicker(key_ticks);
}

QString AttentionHeatmap::missingRowsNote() const {
    if (std::all_of(matrix_.captured.begin(), matrix_.captured.end(), [](bool c) { return c; })) return {};
    const StepView* s = model_->current();
    const ModelView& m = model_->model();
    const qint64 heads = qint64(m.n_layer) * m.n_head;
    if (s && !s->planes_dropped && !meanOverHeads() && s->planes.size() < heads &&
        !s->plane(model_->selectedLayer(), model_->selectedHead()))
        return tr("At %Ln token(s) the trace's memory budget keeps this step's rows for %1 of %2 heads, and "
                  "not for this one: the grid shows its summary. Choose the head before the step to keep its rows.",
                  nullptr, s->first_pos + qint32(s->tokens.size()))
            .arg(s->planes.size())
            .arg(heads);
    return tr("Rows in grey were not recorded: the trace's memory budget released them (the oldest steps go "
              "first); the grid still shows each head's summary.");
}

void AttentionHeatmap::rebuild() {
    const qint32 layer = model_->selectedLayer();
    matrix_ = meanOverHeads() ? model_->meanOverHeads(layer) : model_->attentionMatrix(layer, model_->selectedHead());
    const qint32 n = matrix_.n;

    const QString note = missingRowsNote();
    note_->setText(note);
    note_->setVisible(!note.isEmpty());

    auto* title = static_cast<QCPTextElement*>(plot_->plotLayout()->element(0, 0));
    title->setText(meanOverHeads() ? tr("Layer %1 · mean over heads").arg(layer)
                                   : tr("Layer %1 · head %2").arg(layer).arg(model_->selectedHead()));

    QCPColorMapData* cells = map_->data();
    cells->setSize(std::max(n, 1), std::max(n, 1));
    cells->setRange(QCPRange(0, std::max(n - 1, 0)), QCPRange(0, std::max(n - 1, 0)));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    double max_w = 0.0;
    for (qint32 q = 0; q < n; ++q)
        if (matrix_.captured[q])
            for (qint32 k = 0; k <= q; ++k) max_w = std::max(max_w, double(matrix_.at(q, k)));
    if (max_w <= 0.0) max_w = 1.0;
    // Log colours: weights at or below 1e-4 x the largest share the lightest colour (and a zero
    // weight, which has no logarithm, is stored at that floor).
    const bool log = log_box_->isChecked();
    const double floor = log ? max_w * 1e-4 : 0.0;
    if (n == 0) cells->fill(nan);
    for (qint32 q = 0; q < n; ++q)
        for (qint32 k = 0; k < n; ++k) {
            const bool show = matrix_.captured[q] && k <= q && !model_->model().outside_window(layer, q, k);
            cells->setCell(k, q, show ? std::max(double(matrix_.at(q, k)), floor) : nan);
        }
    map_->setDataScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    scale_->axis()->setTicker(log ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog) : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    map_->setDataRange(QCPRange(log ? floor : 0.0, max_w));

    for (QCPItemRect* r : uncaptured_) plot_->removeItem(r);
    uncaptured_.clear();
    QCPAxis* keys = map_rect_->axis(QCPAxis::atBottom);
    QCPAxis* queries = map_rect_->axis(QCPAxis::atLeft);
    for (qint32 q = 0; q < n;) {
        if (matrix_.captured[q]) {
            ++q;
            continue;
        }
        qint32 end = q;
        while (end < n && !matrix_.captured[end]) ++end;
        auto* band = new QCPItemRect(plot_);
        band->setClipAxisRect(map_rect_);
        band->topLeft->setAxes(keys, queries);
        band->bottomRight->setAxes(keys, queries);
        band->topLeft->setCoords(-0.5, q - 0.5);
        band->bottomRight->setCoords(n - 0.5, end - 0.5);
        band->setPen(Qt::NoPen);
        band->setBrush(colors::uncaptured());
        uncaptured_.push_back(band);
        q = end;
    }

    const QCPRange range(-0.5, std::max(n, 1) - 0.5);
    keys->setRange(range);
    queries->setRange(range);
    row_rect_->axis(QCPAxis::atBottom)->setRange(range);
    setTicks();
    updateRow();
}

void AttentionHeatmap::updateRow() {
    const qint32 q = model_->selectedQuery();
    const qint32 n = matrix_.n;
    QVector<double> keys, values;
    double top = 0.0;
    if (q >= 0 && q < n && matrix_.captured[q]) {
        for (qint32 k = 0; k <= q; ++k) {
            keys.push_back(k);
            values.push_back(matrix_.at(q, k));
            top = std::max(top, values.back());
        }
    }
    bars_->setData(keys, values, true);
    row_rect_->axis(QCPAxis::atLeft)->setRange(0.0, top > 0 ? top * 1.1 : 1.0);
    const QVector<TokenView>& seq = model_->sequence();
    row_rect_->axis(QCPAxis::atBottom)->setLabel(
        q >= 0 && q < seq.size() ? tr("what '%1' (position %2) attends to").arg(display_text(seq[q].text)).arg(q)
                                 : QString());
    row_marker_->setVisible(q >= 0 && q < n);
    row_marker_->topLeft->setCoords(-0.5, q - 0.5);
    row_marker_->bottomRight->setCoords(n - 0.5, q + 0.5);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString AttentionHeatmap::cellDescription(qint32 query, qint32 key) const {
    const QVector<TokenView>& seq = model_->sequence();
    if (query < 0 || key < 0 || query >= matrix_.n || key >= matrix_.n || query >= seq.size()) return {};
    const QString head = tr("query '%1' (%2) → key '%3' (%4)")
                             .arg(display_text(seq[query].text))
                             .arg(query)
                             .arg(display_text(seq[key].text))
                             .arg(key);
    if (key > query) return head + QStringLiteral(": ") + tr("masked (the future is hidden)");
    const qint32 layer = model_->selectedLayer();
    if (model_->model().outside_window(layer, query, key))
        return head + QStringLiteral(": ") +
               tr("masked (outside this local layer's window of %1 tokens)").arg(model_->model().window(layer));
    if (!matrix_.captured[query]) return head + QStringLiteral(": ") + tr("not recorded");
    return head + QStringLiteral(": ") + QString::number(matrix_.at(query, key), 'g', 4);
}

QPointF AttentionHeatmap::cellCenter(qint32 query, qint32 key) const {
    return {map_rect_->axis(QCPAxis::atBottom)->coordToPixel(key), map_rect_->axis(QCPAxis::atLeft)->coordToPixel(query)};
}

bool AttentionHeatmap::cellAt(const QPointF& pixel, qint32* query, qint32* key) const {
    if (!map_rect_->rect().contains(pixel.toPoint()) || matrix_.n == 0) return false;
    const double k = map_rect_->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x());
    const double q = map_rect_->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y());
    *key = qint32(std::lround(k));
    *query = qint32(std::lround(q));
    return *key >= 0 && *query >= 0 && *key < matrix_.n && *query < matrix_.n;
}

void AttentionHeatmap::onMouseMove(QMouseEvent* e) {
    qint32 q = 0, k = 0;
    if (cellAt(e->position(), &q, &k)) QToolTip::showText(e->globalPosition().toPoint(), cellDescription(q, k), plot_);
    else QToolTip::hideText();
}

void AttentionHeatmap::onMousePress(QMouseEvent* e) {
    qint32 q = 0, k = 0;
    if (e->button() != Qt::LeftButton || !cellAt(e->position(), &q, &k)) return;
    model_->setSelectedQuery(q);
    emit cellClicked(q, k);
}

void AttentionHeatmap::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange) {
        apply_plot_fonts(plot_, font());
        plot_->replot(QCustomPlot::rpQueuedReplot);
    } else if (e->type() == QEvent::LanguageChange) {
        retranslate();
    }
}

ChartTable AttentionHeatmap::table() const {
    ChartTable t;
    t.title = meanOverHeads() ? tr("Attention, layer %1, mean over heads").arg(model_->selectedLayer())
                              : tr("Attention, layer %1, head %2").arg(model_->selectedLayer()).arg(model_->selectedHead());
    t.columns = {QStringLiteral("query_pos"), QStringLiteral("query_token"), QStringLiteral("key_pos"),
                 QStringLiteral("key_token"), QStringLiteral("weight")};
    const QVector<TokenView>& seq = model_->sequence();
    for (qint32 q = 0; q < matrix_.n && q < seq.size(); ++q) {
        if (!matrix_.captured[q]) continue;
        for (qint32 k = 0; k <= q; ++k)
            t.rows.push_back({q, seq[q].text, k, seq[k].text, double(matrix_.at(q, k))});
    }
    return t;
}

}  // namespace lmscope::widgets
