// One query row's scores over its keys at one stage of attention: q · k, times the scale, the
// mask (-inf where a key is hidden), the softmax (the attention weights). A row of four exclusive
// buttons above the plot picks the stage. One bar per key (keys left to right, labelled with their
// tokens while few enough to read, else with positions); at the mask stage a hidden key is a
// marker at the bottom ("−∞" written at it while the keys are few), coloured by why it is hidden
// (the future, outside a local layer's window; the legend below names the bars and the reasons); the softmax's
// weights on [0, 1]; a dashed line at the query's position.
#pragma once

#include "widgets/layer_view_data.h"
#include "widgets/plot_style.h"

#include <QVector>

class QAbstractButton;
class QButtonGroup;
class QCPBars;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;

namespace lmscope::widgets {

class ScoreStagesChart : public PlotPanel {
    Q_OBJECT
public:
    // What the chart draws, read back from it.
    struct ViewState {
        ScoreStage stage = ScoreStage::Dot;
        QVector<double> values;    // [key] the bar's value; -inf: drawn as hidden; NaN: not drawn
        QVector<KeyMask> hidden;   // [key] why the key is drawn as hidden (Visible: it is a bar)
        QStringList key_ticks;     // the key axis's tick labels, left to right
        QString value_label;       // the value axis's label
        QString key_label;         // the key axis's label
        double value_low = 0.0, value_high = 0.0;  // the value axis's range
        bool query_marked = false;  // the query's line is shown...
        double query_x = 0.0;       // ...at this key position
        QStringList legend;         // the legend's entries: the bars, then the reasons keys are hidden
        QStringList infinity_texts; // the texts written at the hidden keys' markers
    };

    explicit ScoreStagesChart(QWidget* parent = nullptr);

    void setData(const ScoreStagesData& scores);
    void setStage(ScoreStage stage);
    ScoreStage stage() const { return stage_; }
    ViewState viewState() const;
    // The button that shows a stage ("q·k", "× scale", "mask", "softmax").
    QAbstractButton* stageButton(ScoreStage stage) const;

    // Keys drawn with their tokens up to this many; more: their positions.
    static constexpr qint32 kMaxKeyLabels = 32;

signals:
    void stageChanged(ScoreStage stage);

protected:
    void retranslate() override;

private:
    void rebuild();  // the plot for data_ at stage_

    ScoreStagesData data_;
    ScoreStage stage_ = ScoreStage::Softmax;
    QButtonGroup* buttons_;
    QCPBars* bars_;
    QCPGraph* hidden_[2];                // the future, outside the window
    QCPItemStraightLine* query_line_;
    QCPItemText* query_text_;
    QVector<QCPItemText*> infinities_;   // "−∞" at the hidden keys' markers
};

}  // namespace lmscope::widgets
