// Flow layout of token chips, shared by the token strip and the labs' chip rows: chips of
// their natural widths left to right, wrapped onto a new line when the next one does not fit,
// a chip wider than the row shrunk to it (never below `min_width`).
#pragma once

#include <QRect>
#include <QVector>

namespace lmscope::widgets {

struct ChipFlow {
    int margin = 4;      // around the chips, left, right and bottom
    int gap = 4;         // between chips and between lines
    int min_width = 30;  // the narrowest a shrunk chip gets
};

// Places chips of `natural` widths and `chip_height` from y = `top` in a row `width` wide;
// appends their rectangles to *out when given. Returns the height used (top to last line's
// bottom plus the margin).
int flow_chips(const QVector<int>& natural, int width, int chip_height, int top, const ChipFlow& flow,
               QVector<QRect>* out);

}  // namespace lmscope::widgets
