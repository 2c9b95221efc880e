// Labelled bars: one bar per label (an attention row over its keys, or a next-token top-k), some
// of them highlighted in the accent colour, the value written at each bar while there are few.
#pragma once

#include "widgets/plot_style.h"

#include <QStringList>
#include <QVector>

class QCPBars;

namespace lmscope::widgets {

// What the chart shows: bar i is values[i] under labels[i], in the accent colour when
// highlight[i] (missing values are 0, missing highlights false).
struct LabelledBarsData {
    QString title;
    QStringList labels;        // [bar], in order (left to right, or top to bottom)
    QVector<double> values;    // [bar]
    QVector<bool> highlight;   // [bar]
    QString value_label;       // the value axis's label
    double min_top = 0.0;      // the value axis spans 0 .. max(values), at least this
};

class LabelledBars : public PlotPanel {
    Q_OBJECT
public:
    enum class Orientation {
        Columns,  // bars up from the labels (an attention row: keys left to right)
        Rows,     // bars to the right of the labels, the first on top (a top-k list)
    };
    // What the chart draws, read back from it.
    struct ViewState {
        QString title;
        QString title_shown;       // the title as drawn: its lines as the width breaks it
        QStringList labels;        // [bar]
        QVector<double> values;    // [bar], as drawn
        QVector<bool> highlighted; // [bar]
        QString value_label;
        double value_top = 0.0;    // the value axis's upper end
    };

    explicit LabelledBars(Orientation orientation, QWidget* parent = nullptr);

    void setData(const LabelledBarsData& data);
    ViewState viewState() const;

protected:
    void applyFonts() override;

private:
    void writeValues(const QVector<double>& values);

    Orientation orientation_;
    QCPTextElement* title_;
    QCPBars* plain_;
    QCPBars* accent_;
    QStringList labels_;
    QVector<bool> highlight_;
};

}  // namespace lmscope::widgets
