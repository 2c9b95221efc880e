// The Context compare lab's two charts: labelled bars (an attention row over its keys, or the
// next-token top-k), some of them highlighted, and a layer x head grid of one number per head
// (layers left to right, heads top to bottom; clicking a cell picks that layer and head). Both
// read back what they draw, for the tests.
#pragma once

#include <QStringList>
#include <QVector>
#include <QWidget>

class QCPBars;
class QCPColorMap;
class QCPColorScale;
class QCPItemRect;
class QCPRange;
class QCPTextElement;
class QCustomPlot;
class QMouseEvent;

namespace lmscope::gui::labs::context_compare {

class LabelledBars : public QWidget {
    Q_OBJECT
public:
    enum class Orientation {
        Columns,  // bars up from the labels (an attention row: keys left to right)
        Rows,     // bars to the right of the labels, the first on top (a top-k list)
    };
    LabelledBars(Orientation orientation, QWidget* parent = nullptr);

    // values[i] under labels[i]; highlighted bars take the accent colour. The value axis spans
    // 0 .. max(values) (at least `min_top`).
    void setBars(const QString& title, const QStringList& labels, const QVector<double>& values,
                 const QVector<bool>& highlight, const QString& value_label, double min_top = 0.0);
    void clearBars(const QString& title);

    // What the chart draws: [bar] values and labels, in order.
    QVector<double> values() const;
    QStringList labels() const { return labels_; }
    QVector<bool> highlighted() const { return highlight_; }
    QCustomPlot* plot() const { return plot_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyFonts();

    Orientation orientation_;
    QCustomPlot* plot_;
    QCPTextElement* title_;
    QCPBars* plain_;
    QCPBars* accent_;
    QStringList labels_;
    QVector<bool> highlight_;
};

class HeadGrid : public QWidget {
    Q_OBJECT
public:
    explicit HeadGrid(QWidget* parent = nullptr);

    // values [layer][head]; NaN cells are drawn blank. `diverging`: a blue-white-red scale for
    // signed differences; otherwise white to dark blue. `range` is the colour scale's span.
    void setGrid(const QString& title, qint32 n_layer, qint32 n_head, const QVector<double>& values,
                 double low, double high, bool diverging, const QString& scale_label);
    void setSelected(qint32 layer, qint32 head);
    double value(qint32 layer, qint32 head) const;  // as drawn (the colour map's cell)
    qint32 layers() const { return n_layer_; }
    qint32 heads() const { return n_head_; }
    QCustomPlot* plot() const { return plot_; }
    QPoint cellCenter(qint32 layer, qint32 head) const;  // in plot() pixels

signals:
    void cellClicked(qint32 layer, qint32 head);

protected:
    void changeEvent(QEvent* event) override;

private:
    void onMousePress(QMouseEvent* event);

    QCustomPlot* plot_;
    QCPTextElement* title_;
    QCPColorMap* map_;
    QCPColorScale* scale_;
    QCPItemRect* marker_;
    qint32 n_layer_ = 0, n_head_ = 0;
};

}  // namespace lmscope::gui::labs::context_compare
