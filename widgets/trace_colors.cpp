#include "widgets/trace_colors.h"

#include <algorithm>
#include <cmath>
#include <array>

namespace lmscope::widgets::colors {

QVector<QPair<double, QColor>> weight_ramp() {
    return {{0.0, QColor(0xff, 0xff, 0xff)},
            {0.15, QColor(0xde, 0xeb, 0xf7)},
            {0.4, QColor(0x9e, 0xca, 0xe1)},
            {0.7, QColor(0x31, 0x82, 0xbd)},
            {1.0, QColor(0x08, 0x30, 0x6b)}};
}

namespace {

// N colours evenly over 0..1 of a ramp's stops, linearly interpolated.
template <size_t N>
std::array<QRgb, N> ramp_table(const QVector<QPair<double, QColor>>& stops) {
    std::array<QRgb, N> out{};
    for (size_t i = 0; i < out.size(); ++i) {
        const double x = double(i) / double(out.size() - 1);
        qsizetype s = 1;
        while (s + 1 < stops.size() && stops[s].first < x) ++s;
        const double f = (x - stops[s - 1].first) / (stops[s].first - stops[s - 1].first);
        const QColor& a = stops[s - 1].second;
        const QColor& b = stops[s].second;
        out[i] = qRgb(int(a.red() + f * (b.red() - a.red()) + 0.5), int(a.green() + f * (b.green() - a.green()) + 0.5),
                      int(a.blue() + f * (b.blue() - a.blue()) + 0.5));
    }
    return out;
}

}  // namespace

QRgb weight_color(float t) {
    static const std::array<QRgb, 256> lut = ramp_table<256>(weight_ramp());
    const float c = std::isnan(t) ? 0.0f : std::clamp(t, 0.0f, 1.0f);
    return lut[size_t(c * 255.0f + 0.5f)];
}

QVector<QPair<double, QColor>> diverging_ramp() {
    return {{0.0, QColor(0x21, 0x66, 0xac)}, {0.5, QColor(0xff, 0xff, 0xff)}, {1.0, QColor(0xb2, 0x18, 0x2b)}};
}

QRgb diverging_color(float t) {
    static const std::array<QRgb, 511> lut = ramp_table<511>(diverging_ramp());  // lut[255]: white
    const float c = std::isnan(t) ? 0.0f : std::clamp(t, -1.0f, 1.0f);
    return lut[size_t(std::lround((c + 1.0f) * 255.0f))];
}

QColor group(qint32 g) {
    // Eight well-separated hues (Okabe-Ito order, black left out), repeated for more groups.
    static const std::array<QRgb, 8> kHues = {0xe69f00, 0x56b4e9, 0x009e73, 0xcc79a7,
                                              0x0072b2, 0xd55e00, 0xf0e442, 0x7f7f7f};
    return QColor::fromRgb(kHues[size_t(g < 0 ? 0 : g) % kHues.size()]);
}

}  // namespace lmscope::widgets::colors
