// Vectors as heat strips, one under another: each strip a row of cells, one per component,
// blue below 0, white at 0, red above (colors::diverging_color), its label at the left and its
// norm at the right ("|x| = 12.3"). Strips of one group share one symmetric colour scale, the
// largest |value| of the group, shown in a legend row above the group's first strip, so their
// cells compare. Hovering a cell names the strip, the component and its value.
// Painted directly (many strips: k of every earlier token), only the rows in the paint rect; the
// size hint grows with the strips, so the widget sits in a QScrollArea.
#pragma once

#include "widgets/layer_view_data.h"

#include <QImage>
#include <QWidget>

#include <utility>

namespace lmscope::widgets {

class VectorStrips : public QWidget {
    Q_OBJECT
public:
    // What the widget draws, read back from it.
    struct ViewState {
        QString title;
        QStringList labels;              // [strip]
        QVector<QVector<float>> values;  // [strip][component], the cells' values
        QVector<QVector<QRgb>> colors;   // [strip][component], the cells' colours
        QVector<double> norms;           // [strip]
        QStringList norm_texts;          // [strip] "|x| = 12.3"
        QVector<qint32> groups;          // [strip] its scale group
        QVector<double> scales;          // [strip] its group's scale: the cells span -scale .. +scale
        QVector<double> legend_scales;   // [legend row] the scale each legend row shows, top to bottom
    };

    explicit VectorStrips(QWidget* parent = nullptr);

    void setData(const VectorStripsData& strips);
    ViewState viewState() const;

    // The cell under a point: (strip, component), or (-1, -1).
    std::pair<qint32, qint32> cellAt(const QPoint& p) const;
    QRect cellRect(qint32 strip, qint32 component) const;  // empty when out of range
    // "k of “bank” (7) · component 12: -0.345", the hover text of a cell.
    QString cellDescription(qint32 strip, qint32 component) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent* e) override;
    void changeEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    struct Legend {
        int top = 0;         // its row's top, in pixels
        double scale = 0.0;  // the group's scale
    };
    QFont titleFont() const;
    QString normText(qint32 strip) const;
    QString legendText(double scale) const;
    void relayout();  // rows and columns from the font, the texts and the width
    int cellsLeft() const;
    int cellsRight() const;

    VectorStripsData data_;
    QVector<qint32> groups_;   // [strip]
    QVector<double> scales_;   // [strip]
    QImage cells_;             // [strip][component]: one pixel per cell, max dim wide
    // The layout, from relayout():
    int row_h_ = 0;            // a strip's height
    int legend_h_ = 0;         // a legend row's height
    int title_h_ = 0;          // 0: no title
    int label_w_ = 0, norm_w_ = 0;
    int total_h_ = 0;
    QVector<int> strip_top_;   // [strip] pixels
    QVector<Legend> legends_;  // [legend row]
    QStringList norm_texts_;   // [strip]
};

}  // namespace lmscope::widgets
