// A layer x head grid of one number per head: layers left to right, heads top to bottom, a colour
// scale beside it; the selected head outlined. Clicking a cell picks that layer and head.
#pragma once

#include "widgets/plot_style.h"

#include <QVector>

class QCPColorMap;
class QCPColorScale;
class QCPItemRect;
class QMouseEvent;

namespace lmscope::widgets {

// What the grid shows: values[layer * n_head + head] (NaN, or missing: a blank cell), coloured
// from `low` to `high`.
struct HeadGridData {
    QString title;
    qint32 n_layer = 0;
    qint32 n_head = 0;
    QVector<double> values;   // [layer][head], row-major
    double low = 0.0;         // the colour scale's span
    double high = 1.0;
    bool diverging = false;   // blue-white-red for signed differences; else white to dark blue
    QString scale_label;      // the colour scale's label (the unit)
};

class HeadGrid : public PlotPanel {
    Q_OBJECT
public:
    // What the grid draws, read back from it.
    struct ViewState {
        QString title;
        qint32 layers = 0;
        qint32 heads = 0;
        QVector<double> cells;    // [layer][head], row-major, as drawn (NaN: blank)
        double low = 0.0;         // the colour range
        double high = 0.0;
        bool diverging = false;
        QString layer_label, head_label, scale_label;
        qint32 selected_layer = -1, selected_head = -1;  // the outlined cell; -1: none
    };

    explicit HeadGrid(QWidget* parent = nullptr);

    void setData(const HeadGridData& data);
    void setSelected(qint32 layer, qint32 head);
    ViewState viewState() const;
    QPoint cellCenter(qint32 layer, qint32 head) const;  // in plot() pixels

signals:
    void cellClicked(qint32 layer, qint32 head);

protected:
    void retranslate() override;

private:
    void onMousePress(QMouseEvent* event);

    QCPTextElement* title_;
    QCPColorMap* map_;
    QCPColorScale* scale_;
    QCPItemRect* marker_;
    qint32 n_layer_ = 0, n_head_ = 0;
    qint32 selected_layer_ = -1, selected_head_ = -1;
    bool diverging_ = false;
};

}  // namespace lmscope::widgets
