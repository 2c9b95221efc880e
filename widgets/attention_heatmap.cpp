#include "widgets/attention_heatmap.h"

#include "widgets/attention_grid.h"
#include "widgets/format.h"
#include "widgets/plot_style.h"
#include "widgets/trace_colors.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace lmscope::widgets {
namespace {

constexpr qint32 kMaxLabels = 40;  // token labels per axis; longer spans label every k-th
constexpr qint32 kMaxCells = 512;  // map cells per axis; a longer span in view is pooled into blocks

QString token_label(const TokenView& t) {
    return elided(display_text(t.text), 12);
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
    connect(model_, &TraceModel::ablationChanged, this, &AttentionHeatmap::rebuild);
    connect(model_, &TraceModel::headChanged, this, [this] {
        syncControls();
        rebuild();
    });
    connect(model_, &TraceModel::queryChanged, this, [this] {
        if (zoom_button_->isChecked()) centreOnRow();
        updateRow();
    });
    plot_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(plot_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QMenu menu(this);
        fillHeadMenu(&menu);
        if (!menu.isEmpty()) menu.exec(plot_->mapToGlobal(pos));
    });
    retranslate();
}

void AttentionHeatmap::fillHeadMenu(QMenu* menu) {
    if (!switching_) return;
    AttentionGrid::fillHeadMenu(menu, model_, this, model_->selectedLayer(), model_->selectedHead(),
                                [this](qint32 step) { emit recomputeStep(step); });
}

void AttentionHeatmap::retranslate() {
    mean_box_->setText(tr("Mean over heads"));
    mean_box_->setToolTip(tr("Average the weights of every head of the layer"));
    log_box_->setText(tr("Log colours"));
    log_box_->setToolTip(tr("Colour weights on a logarithmic scale, so small weights show too"));
    zoom_button_->setText(tr("Zoom to row"));
    zoom_button_->setToolTip(tr("Show the %1 tokens around the selected query row, one cell each. "
                                "The mouse wheel zooms, dragging pans, a double-click shows every token.")
                                 .arg(kDetail));
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
    row->addStretch(1);
    static_cast<QVBoxLayout*>(layout())->addLayout(row);
    zoom_button_ = new QPushButton(this);
    zoom_button_->setObjectName(QStringLiteral("zoomButton"));
    zoom_button_->setCheckable(true);
    group_label_->setWordWrap(true);  // its own line, wrapped in a narrow dock: never cut
    auto* second = new QHBoxLayout;
    second->addWidget(group_label_, 1);
    second->addWidget(zoom_button_, 0, Qt::AlignTop);
    static_cast<QVBoxLayout*>(layout())->addLayout(second);
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
    connect(zoom_button_, &QPushButton::toggled, this, [this](bool on) {
        if (on) centreOnRow();
        else showPositions(0, matrix_.n - 1);
    });
}

void AttentionHeatmap::buildPlot() {
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("heatmapPlot"));
    plot_->setMinimumSize(360, 360);
    plot_->plotLayout()->clear();
    plot_->setNoAntialiasingOnDrag(true);
    connect(plot_, &QCustomPlot::beforeReplot, this, [this] { fit_titles(plot_); });  // a narrow dock: the title in lines

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
    set_color_ramp(map_, ColorRamp::Weight);  // masked cells show the hatched background
    scale_->setType(QCPAxis::atRight);

    row_marker_ = new QCPItemRect(plot_);
    row_marker_->setClipAxisRect(map_rect_);
    row_marker_->topLeft->setAxes(keys, queries);
    row_marker_->bottomRight->setAxes(keys, queries);
    row_marker_->setPen(QPen(colors::chosen(), 3));
    row_marker_->setBrush(Qt::NoBrush);

    QCPAxis* bar_keys = row_rect_->axis(QCPAxis::atBottom);
    QCPAxis* bar_values = row_rect_->axis(QCPAxis::atLeft);
    bar_values->ticker()->setTickCount(2);  // the bars are short: few ticks, never touching
    bar_values->ticker()->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
    bar_keys->setTickLabelRotation(-60);
    bar_keys->grid()->setVisible(false);
    bar_keys->setSubTicks(false);
    bars_ = new QCPBars(bar_keys, bar_values);
    bars_->setWidth(0.8);
    bars_->setPen(QPen(QColor(0x08, 0x30, 0x6b)));
    bars_->setBrush(QColor(0x31, 0x82, 0xbd));

    // The wheel zooms and dragging pans the map (both axes); the bars follow its keys.
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    map_rect_->setRangeDragAxes(keys, queries);
    map_rect_->setRangeZoomAxes(keys, queries);
    row_rect_->setRangeDrag(Qt::Orientations());
    row_rect_->setRangeZoom(Qt::Orientations());
    connect(keys, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &AttentionHeatmap::onRangeChanged);
    connect(queries, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &AttentionHeatmap::onRangeChanged);
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] { zoom_button_->setChecked(false), showPositions(0, matrix_.n - 1); });

    // Labels are spaced for the map's size in pixels: a new size (known once laid out) relabels.
    connect(plot_, &QCustomPlot::afterReplot, this, [this] {
        if (map_rect_->rect().size() != ticks_for_) {
            setTicks();
            plot_->replot(QCustomPlot::rpQueuedReplot);
        }
    });
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
        group_label_->setText(m.n_head_kv == 1
                                  ? tr("one KV head, shared by every query head: %1 (MQA)").arg(mates.join(QStringLiteral(", ")))
                                  : tr("KV head %1, shared by query heads %2 (GQA)").arg(g).arg(mates.join(QStringLiteral(", "))));
    } else {
        group_label_->setText(m.n_head > 0 ? tr("each head has its own keys and values (MHA)") : QString());
    }
    syncing_ = false;
}

QString AttentionHeatmap::title() const {
    return fitted_title(static_cast<QCPTextElement*>(plot_->plotLayout()->element(0, 0)));
}

bool AttentionHeatmap::meanOverHeads() const { return mean_box_->isChecked(); }


void AttentionHeatmap::setTicks() {
    const QVector<TokenView>& seq = model_->sequence();
    const qint32 n = std::min(qint32(seq.size()), matrix_.n > 0 ? matrix_.n : qint32(seq.size()));
    ticks_for_ = map_rect_->rect().size();
    // Every k-th position in view, k the smallest stride that keeps to kMaxLabels labels and
    // leaves each label `need` pixels along an axis `pixels` long.
    auto ticker = [&](const QCPRange& range, bool with_position, double need, int pixels) {
        auto t = QSharedPointer<QCPAxisTickerText>::create();
        const qint32 lo = std::max<qint32>(0, qint32(std::ceil(range.lower))),
                     hi = std::min<qint32>(n - 1, qint32(std::floor(range.upper)));
        const double per_position = pixels > 0 ? pixels / std::max(range.size(), 1.0) : need;
        const qint32 stride = std::max({qint32(1), (hi - lo + kMaxLabels) / kMaxLabels, qint32(std::ceil(need / per_position))});
        for (qint32 i = (lo + stride - 1) / stride * stride; i <= hi; i += stride)
            t->addTick(i, with_position ? QStringLiteral("%1  %2").arg(token_label(seq[i])).arg(i) : token_label(seq[i]));
        return t;
    };
    QCPAxis* keys = map_rect_->axis(QCPAxis::atBottom);
    QCPAxis* queries = map_rect_->axis(QCPAxis::atLeft);
    const int line = QFontMetrics(keys->tickLabelFont()).height();
    // Key labels are rotated by 60°: a line needs 1 / sin 60° of its height along the axis.
    const auto key_ticker = ticker(keys->range(), false, line * 1.25, ticks_for_.width());
    keys->setTicker(key_ticker);
    row_rect_->axis(QCPAxis::atBottom)->setTicker(key_ticker);
    queries->setTicker(ticker(queries->range(), true, line * 1.15, ticks_for_.height()));
}

std::pair<qint32, qint32> AttentionHeatmap::shownPositions() const {
    const QCPRange r = map_rect_->axis(QCPAxis::atBottom)->range();
    return {std::max<qint32>(0, qint32(std::lround(r.lower + 0.5))),
            std::min<qint32>(matrix_.n - 1, qint32(std::lround(r.upper - 0.5)))};
}

void AttentionHeatmap::showPositions(qint32 first, qint32 last) {
    const qint32 n = std::max(matrix_.n, 1);
    if (first > last) first = 0, last = n - 1;
    first = std::clamp(first, 0, n - 1);
    last = std::clamp(last, first, n - 1);
    const QCPRange range(first - 0.5, last + 0.5);
    ranging_ = true;
    map_rect_->axis(QCPAxis::atBottom)->setRange(range);
    map_rect_->axis(QCPAxis::atLeft)->setRange(range);
    ranging_ = false;
    fitRange();
}

void AttentionHeatmap::centreOnRow() {
    const qint32 q = model_->selectedQuery();
    if (q < 0 || q >= matrix_.n) return showPositions(0, matrix_.n - 1);
    // The row three quarters down: most of what it can attend to is above and left of it.
    const qint32 first = std::clamp(q - kDetail * 3 / 4, 0, std::max(0, matrix_.n - kDetail));
    showPositions(first, first + kDetail - 1);
}

void AttentionHeatmap::onRangeChanged() {
    if (ranging_) return;
    if (zoom_button_->isChecked()) {  // the user zoomed or panned: no longer following the row
        const QSignalBlocker quiet(zoom_button_);
        zoom_button_->setChecked(false);
    }
    fitRange();
}

void AttentionHeatmap::fitRange() {
    QCPAxis* keys = map_rect_->axis(QCPAxis::atBottom);
    QCPAxis* queries = map_rect_->axis(QCPAxis::atLeft);
    // Never past the sequence: a span larger than it shows all of it.
    const double lo = -0.5, hi = std::max(matrix_.n, 1) - 0.5;
    ranging_ = true;
    for (QCPAxis* a : {keys, queries}) {
        QCPRange r = a->range();
        if (r.size() >= hi - lo) r = QCPRange(lo, hi);
        else if (r.lower < lo) r = QCPRange(lo, lo + r.size());
        else if (r.upper > hi) r = QCPRange(hi - r.size(), hi);
        a->setRange(r);
    }
    row_rect_->axis(QCPAxis::atBottom)->setRange(keys->range());
    ranging_ = false;
    const qint32 span = qint32(std::ceil(std::max(keys->range().size(), queries->range().size())));
    // The smallest block that keeps to kMaxCells, in whole cells of the matrix.
    const qint32 mb = std::max(matrix_.block, 1);
    const qint32 block = ((span + kMaxCells - 1) / kMaxCells + mb - 1) / mb * mb;
    if (block != block_) {
        block_ = block;
        fillCells();
        setTitle();
    }
    setTicks();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void AttentionHeatmap::setTitle() {
    const qint32 layer = model_->selectedLayer();
    QString text = meanOverHeads() ? tr("Layer %1 · mean over heads").arg(layer)
                                   : tr("Layer %1 · head %2").arg(layer).arg(model_->selectedHead());
    if (block_ > matrix_.block) text += QStringLiteral(" · ") + tr("%1 × %1 tokens a cell (zoom for each)").arg(block_);
    else if (block_ > 1)
        text += QStringLiteral(" · ") + tr("%1 × %1 tokens a cell (the finest the memory budget allows at this length)").arg(block_);
    set_fitted_title(static_cast<QCPTextElement*>(plot_->plotLayout()->element(0, 0)), text);
}

void AttentionHeatmap::fillCells() {
    // block_ is a whole number f of the matrix's cells: cell i covers positions [i·b, i·b + b − 1].
    const qint32 b = block_, f = b / std::max(matrix_.block, 1), m = std::max<qint32>(1, (matrix_.n + b - 1) / b);
    QCPColorMapData* cells = map_->data();
    cells->setSize(m, m);
    // A cell's centre is the range's coordinate.
    const double centre = (b - 1) / 2.0;
    cells->setRange(QCPRange(centre, (m - 1) * double(b) + centre), QCPRange(centre, (m - 1) * double(b) + centre));
    // [query block][key block]: the largest weight shown (the matrix holds NaN where masked).
    std::vector<float> pooled(size_t(m) * m, std::numeric_limits<float>::quiet_NaN());
    for (qint32 r = 0; r < matrix_.side; ++r)
        pool_largest(matrix_.weights.constData() + qint64(r) * matrix_.side, matrix_.side, f, pooled.data() + size_t(r / f) * m);
    // Log colours: weights at or below 1e-4 x the largest share the lightest colour (and a zero
    // weight, which has no logarithm, is stored at that floor).
    const double floor = log_box_->isChecked() ? max_w_ * 1e-4 : 0.0;
    for (qint32 qb = 0; qb < m; ++qb)
        for (qint32 kb = 0; kb < m; ++kb) {
            const float w = pooled[size_t(qb) * m + kb];
            cells->setCell(kb, qb, std::isnan(w) ? double(w) : std::max(double(w), floor));
        }
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

QString AttentionHeatmap::switchedOffNote() const {
    if (meanOverHeads()) return {};
    const LayerHead shown{model_->selectedLayer(), model_->selectedHead()};
    const StepView* s = model_->current();
    if (s && s->ablated.contains(shown))
        return tr("Head %1 of layer %2 was switched off in this step: these are the weights it computed, but "
                  "its output was zeroed before Wo, so what it read did not reach the residual stream.")
            .arg(shown.head)
            .arg(shown.layer);
    if (model_->isAblated(shown.layer, shown.head))
        return tr("Head %1 of layer %2 is switched off from the next step on; this step ran with it on.")
            .arg(shown.head)
            .arg(shown.layer);
    return {};
}

void AttentionHeatmap::rebuild() {
    const qint32 layer = model_->selectedLayer();
    matrix_ = meanOverHeads() ? model_->meanOverHeads(layer) : model_->attentionMatrix(layer, model_->selectedHead());
    const qint32 n = matrix_.n;

    QStringList notes{switchedOffNote(), missingRowsNote()};
    notes.removeAll(QString());
    const QString note = notes.join(QLatin1Char('\n'));
    note_->setText(note);
    note_->setVisible(!note.isEmpty());

    double max_w = 0.0;
    for (float w : matrix_.weights)
        if (!std::isnan(w)) max_w = std::max(max_w, double(w));
    max_w_ = max_w > 0.0 ? max_w : 1.0;
    const bool log = log_box_->isChecked();
    const double floor = log ? max_w_ * 1e-4 : 0.0;
    map_->setDataScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    scale_->axis()->setTicker(log ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog) : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    map_->setDataRange(QCPRange(log ? floor : 0.0, max_w_));

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

    block_ = 0;  // the cells are filled anew for the span shown
    if (zoom_button_->isChecked()) centreOnRow();
    else showPositions(0, n - 1);
    updateRow();
}

void AttentionHeatmap::updateRow() {
    const qint32 q = model_->selectedQuery();
    const qint32 n = matrix_.n;
    QVector<double> keys, values;
    double top = 0.0;
    const QVector<float> row = rowWeights(q);  // each key's own weight, whatever the map's block
    for (qint32 k = 0; k < row.size(); ++k) {
        keys.push_back(k);
        values.push_back(row[k]);
        top = std::max(top, values.back());
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

AttentionHeatmap::ViewState AttentionHeatmap::viewState() const {
    ViewState s;
    QCPColorMapData* cells = map_->data();  // cell() is not const in QCustomPlot
    s.side = cells->keySize();
    for (qint32 q = 0; q < cells->valueSize(); ++q)
        for (qint32 k = 0; k < s.side; ++k) s.cells.push_back(cells->cell(k, q));
    for (qint32 i = 0; i < s.side; ++i) {
        double key = 0, value = 0;
        cells->cellToCoord(i, i, &key, &value);
        s.centres.push_back(key);
    }
    s.color_low = map_->dataRange().lower;
    s.color_high = map_->dataRange().upper;
    s.log_colors = map_->dataScaleType() == QCPAxis::stLogarithmic;
    s.interpolated = map_->interpolate();
    s.masked_hatched = map_->gradient().nanHandling() == QCPColorGradient::nhTransparent &&
                       map_rect_->backgroundBrush().style() == Qt::BDiagPattern;
    for (auto it = bars_->data()->constBegin(); it != bars_->data()->constEnd(); ++it) s.row.push_back(it->value);
    s.key_label = map_rect_->axis(QCPAxis::atBottom)->label();
    s.query_label = map_rect_->axis(QCPAxis::atLeft)->label();
    s.scale_label = scale_->label();
    s.row_label = row_rect_->axis(QCPAxis::atBottom)->label();
    return s;
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
    const QVector<float> row = rowWeights(query);
    if (row.isEmpty()) return head + QStringLiteral(": ") + tr("not recorded");
    return head + QStringLiteral(": ") + QString::number(row[key], 'g', 4);
}

QVector<float> AttentionHeatmap::rowWeights(qint32 query) const {
    const qint32 layer = model_->selectedLayer();
    return meanOverHeads() ? model_->meanRow(layer, query) : model_->attentionRow(layer, model_->selectedHead(), query);
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
    // One row per cell of the matrix (a block's first positions when it pools blocks).
    const QVector<TokenView>& seq = model_->sequence();
    const qint32 b = matrix_.block;
    if (b > 1) t.title += QStringLiteral(" · ") + tr("the largest weight of each %1 × %1 block of tokens").arg(b);
    for (qint32 qc = 0; qc < matrix_.side && qc * b < seq.size(); ++qc)
        for (qint32 kc = 0; kc <= qc; ++kc) {
            const float w = matrix_.weights[qint64(qc) * matrix_.side + kc];
            if (!std::isnan(w)) t.rows.push_back({qc * b, seq[qc * b].text, kc * b, seq[kc * b].text, double(w)});
        }
    return t;
}

}  // namespace lmscope::widgets
