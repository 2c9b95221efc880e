#include "widgets/trace_colors.h"

#include <array>

namespace lmscope::widgets::colors {

QColor group(qint32 g) {
    // Eight well-separated hues (Okabe-Ito order, black left out), repeated for more groups.
    static const std::array<QRgb, 8> kHues = {0xe69f00, 0x56b4e9, 0x009e73, 0xcc79a7,
                                              0x0072b2, 0xd55e00, 0xf0e442, 0x7f7f7f};
    return QColor::fromRgb(kHues[size_t(g < 0 ? 0 : g) % kHues.size()]);
}

}  // namespace lmscope::widgets::colors
