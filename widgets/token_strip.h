// The token strip: one chip per token of the current sequence, wrapped into lines. A chip shows
// the piece's text with visible whitespace (␣ space, ↵ newline, → tab); prompt, generated and
// forced tokens have distinct colours, byte-fallback tokens a dashed outline; the tooltip gives
// id, piece, position and byte span. Clicking a chip selects that query position in the
// TraceModel (the attention views follow). Painted directly, so 512+ tokens stay cheap.
#pragma once

#include <QRect>
#include <QVector>
#include <QWidget>

namespace lmscope::widgets {

class TraceModel;

class TokenStrip : public QWidget {
    Q_OBJECT
public:
    explicit TokenStrip(TraceModel* model, QWidget* parent = nullptr);

    qint32 chipCount() const { return qint32(labels_.size()); }
    QRect chipRect(qint32 pos) const;  // empty when out of range
    qint32 chipAt(const QPoint& p) const;  // -1: none
    // The line above the chips: "Tokens: 45 of 2,048 (42 prompt, 3 generated)".
    QString legendText() const;
    // Where the count and the colour key (prompt, generated, forced, byte: a swatch and its
    // name each) are drawn for `width`: on one line, or the key on a line of its own under the
    // count when both do not fit; `height` is what they take above the chips.
    struct Header {
        QRect count;
        QVector<QRect> swatches, names;  // [key]
        int height = 0;
    };
    Header header(int width) const;
    // The tooltip of the chip at `pos` (rich text): the token, its id, piece, bytes and origin;
    // what ␣ stands for; for a byte piece, the character the bytes around it spell.
    QString tooltipFor(qint32 pos) const;

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void querySelected(qint32 pos);

protected:
    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    QFont chipFont() const;
    struct Key;
    QVector<Key> keys() const;
    // Lays the chips out for `width`; returns the height used (and the rects when `out`).
    int layoutChips(int width, QVector<QRect>* out) const;
    void relayout();
    const QVector<QRect>& chips() const;  // laid out for the current width

    TraceModel* model_;
    QVector<QString> labels_;  // [position] display text
    QVector<int> widths_;      // [position] chip width in pixels (kept while the id stays)
    QVector<qint32> ids_;      // [position] the token the label and width belong to
    mutable QVector<QRect> chips_;  // [position]
    mutable int chips_width_ = -1;   // the width chips_ were laid out for
};

}  // namespace lmscope::widgets
