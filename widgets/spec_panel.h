// The key figures of a model, large enough to read from the back of a classroom: a title
// (the model's name), a subtitle, and label/value rows. The caller supplies the (translated)
// text; each value label is named "value_<id>" so tests and style sheets can find it. Every
// line is shown as plain text of at most kMaxLineChars characters (a name from a hostile file
// never widens the window); a cut line's whole text is in the label's tooltip.
#pragma once

#include <QList>
#include <QScrollArea>
#include <QString>

class QGridLayout;
class QLabel;

namespace lmscope::widgets {

struct SpecFigure {
    QString id;       // stable identifier: "layers", "heads", "tensors", ...
    QString label;    // "Layers"
    QString value;    // "30"
    QString tooltip;  // what the figure means; may be empty
};

class SpecPanel : public QScrollArea {
    Q_OBJECT
public:
    explicit SpecPanel(QWidget* parent = nullptr);
    static constexpr qsizetype kMaxLineChars = 96;

    void setSpec(const QString& title, const QString& subtitle, const QList<SpecFigure>& figures);
    const QList<SpecFigure>& figures() const { return figures_; }
    QString title() const;
    QString subtitle() const;
    // The value label of a figure, or nullptr.
    QLabel* valueLabel(const QString& id) const;

    // Wide enough for every label and value without a horizontal scroll bar.
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

private:
    void clearRows();

    QLabel* title_;
    QLabel* subtitle_;
    QGridLayout* grid_;
    QList<QLabel*> row_labels_;  // [figure][label, value], flattened
    QList<SpecFigure> figures_;
};

}  // namespace lmscope::widgets
