// The colours every loop panel shares, so a token, a step or a phase looks the same in the
// token strip, the timeline and the charts. Chosen for a projector: strong outlines, light
// fills, readable black text; orange and blue stay apart for colour-blind viewers.
#pragma once

#include "widgets/trace_view.h"

#include <QColor>
#include <QPair>
#include <QVector>

namespace lmscope::widgets::colors {

inline QColor fill(Choice o) {
    switch (o) {
    case Choice::Prompt: return QColor(0xdc, 0xe8, 0xf8);
    case Choice::Forced: return QColor(0xfd, 0xe3, 0xc4);
    default: return QColor(0xd9, 0xf0, 0xdc);
    }
}
inline QColor outline(Choice o) {
    switch (o) {
    case Choice::Prompt: return QColor(0x2f, 0x6d, 0xb5);
    case Choice::Forced: return QColor(0xd2, 0x6a, 0x00);
    default: return QColor(0x2e, 0x8b, 0x45);
    }
}
inline QColor phase(Phase p) {
    return p == Phase::Prefill ? QColor(0x2f, 0x6d, 0xb5) : QColor(0x2e, 0x8b, 0x45);
}
inline QColor selection() { return QColor(0x1a, 0x1a, 0x1a); }
inline QColor chosen() { return QColor(0xd2, 0x6a, 0x00); }
inline QColor masked() { return QColor(0xc8, 0xc8, 0xc8); }
inline QColor uncaptured() { return QColor(0x9a, 0x9a, 0x9a); }
inline QColor switched_off() { return QColor(0xd6, 0x27, 0x28); }  // an ablated head
// The attention weight ramp (white -> dark blue) as stops at 0..1, and a colour from it.
QVector<QPair<double, QColor>> weight_ramp();
QRgb weight_color(float t);  // t clamped to 0..1; 256 steps
// The diverging ramp (blue -> white -> red) for signed values, as stops at 0..1 (0.5: white),
// and a colour from it for t in -1..1 (clamped; NaN: white); 511 steps.
QVector<QPair<double, QColor>> diverging_ramp();
QRgb diverging_color(float t);
// The colour band of GQA group g (query heads sharing one KV head).
QColor group(qint32 g);

}  // namespace lmscope::widgets::colors
