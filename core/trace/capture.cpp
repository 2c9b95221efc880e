#include "trace/capture.h"

#include "util/name_table.h"

#include <algorithm>

namespace lmscope::trace {

namespace {
constexpr NameTable<CaptureMode, 3> kCaptureModeNames({"none", "summary", "full"}, NameCase::Exact);
}  // namespace

std::string_view capture_mode_name(CaptureMode mode) { return kCaptureModeNames.name(mode); }
CaptureMode parse_capture_mode(std::string_view name, std::string_view field) {
    return kCaptureModeNames.parse_or_throw(name, field);
}
std::string capture_mode_list() { return kCaptureModeNames.list(); }

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

void HookSlots::prepare(const CapturePolicy& policy, StepCapture& c, const HookDims& d, int32_t n_layer, int64_t n,
                        int64_t n_keys, int64_t n_out) {
    n_layer_ = n_layer;
    index_.assign(size_t(n_layer + 1) * size_t(kHookCount), -1);
    c.hooks.resize(policy.hooks.size());
    for (size_t i = 0; i < policy.hooks.size(); ++i) {
        const HookPoint& at = policy.hooks[i];
        HookTensor& t = c.hooks[i];
        t.at = at;
        t.shape = hook_shape(at.hook, d, n, n_keys, n_out);
        size_t count = 1;
        for (int64_t x : t.shape) count *= size_t(x);
        t.data.assign(count, 0.0f);
        const int32_t slot = at.layer < 0 ? n_layer : at.layer;
        index_[size_t(slot) * size_t(kHookCount) + size_t(at.hook)] = int32_t(i);
    }
    c_ = policy.hooks.empty() ? nullptr : &c;
}

float* HookSlots::find(Hook h, int32_t layer) const {
    if (!c_) return nullptr;
    const int32_t slot = layer < 0 ? n_layer_ : layer;
    const int32_t i = index_[size_t(slot) * size_t(kHookCount) + size_t(h)];
    return i < 0 ? nullptr : c_->hooks[size_t(i)].data.data();
}

}  // namespace lmscope::trace
