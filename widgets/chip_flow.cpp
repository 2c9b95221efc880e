#include "widgets/chip_flow.h"

#include <algorithm>

namespace lmscope::widgets {

int flow_chips(const QVector<int>& natural, int width, int chip_height, int top, const ChipFlow& flow,
               QVector<QRect>* out) {
    int x = flow.margin, y = top;
    for (const int n : natural) {
        const int w = std::min(n, std::max(flow.min_width, width - 2 * flow.margin));
        if (x > flow.margin && x + w > width - flow.margin) {
            x = flow.margin;
            y += chip_height + flow.gap;
        }
        if (out) out->push_back(QRect(x, y, w, chip_height));
        x += w + flow.gap;
    }
    return y + chip_height + flow.margin;
}

}  // namespace lmscope::widgets
