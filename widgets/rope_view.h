// The RoPE view of one layer: what rotary position embeddings do to q and k.
//   pairs: a few dimension pairs of q and k (fastest first), each in its own square plot with
//     the same scale on both axes and the origin in the middle: the pair before rotation (dashed
//     arrow) and after it (solid), q in blue and k in orange, the title with θ and the angle;
//     four in a row on a wide view, fewer on a narrow one; the figures one under another,
//     scrolling in a panel lower than they need;
//   spectrum: θ of every pair on a log axis (radians per position), the wavelength 2π/θ on the
//     right axis, the pairs of the first plot marked, the frequency base in the title;
//   relative position: the score of the same q and k placed at positions m and n, against the
//     offset m − n: the lowest and the highest score over the positions tried, and their middle;
//     a caption says whether the score depends only on the offset (flat within 1e-4).
// A NoPE layer (no rotation) shows a message instead of the first two, and the offset plot.
#pragma once

#include "widgets/layer_view_data.h"

#include <QPointF>
#include <QString>
#include <QVector>
#include <QWidget>

class QCPAxisRect;
class QCPGraph;
class QCPItemLine;
class QCPTextElement;
class QCustomPlot;
class QLabel;

namespace lmscope::widgets {

class RopeView : public QWidget {
    Q_OBJECT
public:
    // What the view draws, read back from it.
    struct PairState {
        QString title;
        QPointF q_before, q_after, k_before, k_after;  // the arrows' tips, as drawn
        double angle = 0.0;                            // radians, as the data gives it
        double x_lower = 0.0, x_upper = 0.0;           // the axes' ranges (centred on 0)
        double y_lower = 0.0, y_upper = 0.0;
    };
    struct ViewState {
        bool rope = true;
        QString message;             // the NoPE message; empty on a RoPE layer
        bool pairs_shown = true;     // the pairs and the spectrum plots are shown
        QVector<PairState> pairs;
        QString spectrum_title;      // "RoPE frequencies, base 10000"
        QVector<double> spectrum_x;  // [point] the pair index
        QVector<double> spectrum;    // [point] θ, radians per position
        QVector<double> marked;      // the pairs of the pairs plot, marked on the spectrum
        bool spectrum_log = false;
        QVector<double> offsets;     // [point] m - n
        QVector<double> min, max, middle;  // [point] the scores drawn
        QString caption;
        QString offset_label, score_label;
    };

    explicit RopeView(QWidget* parent = nullptr);

    void setData(const RopeData& data);
    // The layer the data is of, for the NoPE message; -1: not said.
    void setLayer(qint32 layer);
    ViewState viewState() const;

    // The charts themselves (the app exports them).
    QCustomPlot* pairsPlot() const { return pairs_plot_; }
    QCustomPlot* spectrumPlot() const { return spectrum_plot_; }
    QCustomPlot* offsetPlot() const { return offset_plot_; }
    QLabel* caption() const { return caption_; }
    QLabel* message() const { return message_; }

protected:
    void changeEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    struct PairItems {
        QCPTextElement* title = nullptr;
        QCPAxisRect* rect = nullptr;
        QCPItemLine* q_before = nullptr;
        QCPItemLine* q_after = nullptr;
        QCPItemLine* k_before = nullptr;
        QCPItemLine* k_after = nullptr;
        double extent = 1.0;  // the half-range of the shorter side
    };
    void rebuild();
    void buildPairs();
    void buildSpectrum();
    void buildOffsets();
    void squarePairs();  // the same scale on both axes of every pair plot
    void applyFonts();

    RopeData data_;
    qint32 layer_ = -1;
    int pair_columns_ = 4;   // pair plots per row, as the width allows (resizeEvent)
    int square_passes_ = 0;  // replots in a row that changed the pair plots' ranges
    QLabel* message_;
    QLabel* key_;  // what the arrows are
    QCustomPlot* pairs_plot_;
    QCustomPlot* spectrum_plot_;
    QCustomPlot* offset_plot_;
    QLabel* caption_;
    QVector<PairItems> pair_items_;
    QCPTextElement* spectrum_title_;
    QCPGraph* spectrum_;
    QCPGraph* marked_;
    QCPTextElement* offset_title_;
    QCPGraph* min_;
    QCPGraph* max_;
    QCPGraph* middle_;
};

}  // namespace lmscope::widgets
