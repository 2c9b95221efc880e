// A row of token chips that wraps into lines: one chip per token with its text (whitespace made
// visible by the caller), alternating light fills so neighbouring tokens stay apart, byte pieces
// (byte fallback, or a byte-level token holding part of a character) with a dashed orange
// outline, and a tooltip per chip (id, piece, bytes). Painted directly; it only shows the chips
// it is handed (no engine code).
#pragma once

#include <QRect>
#include <QString>
#include <QVector>
#include <QWidget>

namespace lmscope::widgets {

struct Chip {
    qint32 id = 0;       // token id
    QString label;       // what the chip shows (visible whitespace, <0xHH> for bytes)
    QString tooltip;     // shown on hover
    bool byte = false;   // stands for part of a character
    bool operator==(const Chip&) const = default;
};

class ChipsRow : public QWidget {
    Q_OBJECT
public:
    explicit ChipsRow(QWidget* parent = nullptr);

    void setChips(const QVector<Chip>& chips);
    const QVector<Chip>& chips() const { return chips_; }
    QRect chipRect(qint32 index) const;       // empty when out of range
    qint32 chipAt(const QPoint& p) const;     // -1: none

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* e) override;
    void paintEvent(QPaintEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    QFont chipFont() const;
    int layoutChips(int width, QVector<QRect>* out) const;  // returns the height used
    const QVector<QRect>& rects() const;
    void relayout();

    QVector<Chip> chips_;
    QVector<int> widths_;              // [chip] natural width in pixels
    mutable QVector<QRect> rects_;     // [chip] laid out for rects_width_
    mutable int rects_width_ = -1;
};

}  // namespace lmscope::widgets
