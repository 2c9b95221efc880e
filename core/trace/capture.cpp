#include "trace/capture.h"

#include <algorithm>

namespace lmscope::trace {

CapturePolicy within_budget(const CapturePolicy& asked, int32_t n, int32_t pos0, int32_t n_layer, int32_t n_head,
                            uint64_t budget, LayerHead focus) {
    if (asked.mode != CaptureMode::Full) return asked;
    const uint64_t plane_bytes = uint64_t(n) * uint64_t(pos0 + n) * sizeof(float);
    const uint64_t planes = uint64_t(n_layer) * uint64_t(n_head);
    if (plane_bytes * planes <= budget) return asked;
    const uint64_t fit = budget / std::max<uint64_t>(plane_bytes, 1);
    CapturePolicy p = asked;
    p.mode = CaptureMode::Summary;
    p.full_pairs.clear();
    const auto add = [&](int32_t layer, int32_t head) {
        if (p.full_pairs.size() >= fit || layer < 0 || layer >= n_layer || head < 0 || head >= n_head) return;
        if (std::find(p.full_pairs.begin(), p.full_pairs.end(), LayerHead{layer, head}) != p.full_pairs.end()) return;
        p.full_pairs.push_back({layer, head});
    };
    add(focus.layer, focus.head);
    for (int32_t h = 0; h < n_head; ++h) add(focus.layer, h);
    for (int32_t l = 0; l < n_layer; ++l)
        for (int32_t h = 0; h < n_head; ++h) add(l, h);
    return p;
}

}  // namespace lmscope::trace
