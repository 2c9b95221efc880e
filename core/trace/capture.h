// What the engine records while it computes one step (the capture policy), and the raw
// capture it hands back. The trace part turns a StepCapture into a stored StepTrace.
//
// The policy exists so that a backend copies out only what the user is looking at: full
// attention matrices for chosen (layer, head) pairs, cheap per-row summaries for the rest,
// and the named hook points (hooks.h) asked for.
#pragma once

#include "trace/hooks.h"
#include "util/types.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lmscope::trace {

enum class CaptureMode : uint8_t {
    None,     // nothing but logits and timings
    Summary,  // per (layer, head, row) summaries; full matrices only for `full_pairs`
    Full,     // full matrices for every (layer, head)
};

// "none", "summary", "full" (the table in capture.cpp); "?" for a value outside the enum.
std::string_view capture_mode_name(CaptureMode mode);
// The mode `name` names (exactly); UsageError "FIELD: 'NAME' is not one of none, summary, full"
// otherwise.
CaptureMode parse_capture_mode(std::string_view name, std::string_view field);
// "none, summary, full": the modes' names in order, for help texts.
std::string capture_mode_list();

struct CapturePolicy {
    CaptureMode mode = CaptureMode::Summary;
    std::vector<LayerHead> full_pairs;  // extra full matrices in Summary mode
    bool logit_lens = false;            // top tokens per layer for the last row
    int32_t lens_top_k = 5;
    std::vector<HookPoint> hooks;       // hook points to copy out (every row, every head)

    bool wants_summary() const { return mode != CaptureMode::None; }
    bool wants_full(int32_t layer, int32_t head) const {
        if (mode == CaptureMode::Full) return true;
        if (mode == CaptureMode::None) return false;
        for (const LayerHead& p : full_pairs)
            if (p.layer == layer && p.head == head) return true;
        return false;
    }
};

// The policy of a step of n rows after pos0 within `budget` bytes of attention planes (each
// captured as n x (pos0 + n) floats, then kept packed in f16: the float copy is the larger, so
// the budget bounds both the capture and what a trace keeps). `asked` when it is not Full or
// every plane fits; else Summary of every head plus the full planes that fit: `focus` first,
// then the rest of its layer, then the other layers in order. Shared by the Session and bench.
CapturePolicy within_budget(const CapturePolicy& asked, int32_t n, int32_t pos0, int32_t n_layer, int32_t n_head,
                            uint64_t budget, LayerHead focus);

// Softmax weights of one (layer, head) for the rows this step computed.
struct AttentionPlane {
    LayerHead at;
    int32_t first_row_pos = 0;   // position of row 0 (prefill: the first prompt position)
    int32_t n_rows = 0;          // query rows computed this step (prefill n, decode 1)
    int32_t n_keys = 0;          // keys visible to the last row (= first_row_pos + n_rows)
    std::vector<float> weights;  // [n_rows][n_keys], zero where key > query position (masked)
};

struct LensEntry {
    int32_t token = 0;
    float prob = 0.0f;  // softmax of (final norm + output head) of the layer's residual
    bool operator==(const LensEntry&) const = default;
};

// What the backend captured during one forward step.
struct StepCapture {
    int32_t n_layer = 0, n_head = 0, n_rows = 0;
    std::vector<AttentionPlane> planes;  // the pairs the policy asked for in full
    std::vector<HeadSummary> summaries;  // [layer][head][row] when wants_summary()
    std::vector<LensEntry> lens;         // [layer][lens_top_k] when logit_lens
    std::vector<double> layer_ms;        // [layer] wall time of each layer
    double total_ms = 0.0;               // whole forward step
    std::vector<HookTensor> hooks;       // in the order of CapturePolicy::hooks

    const HookTensor* hook(const HookPoint& p) const {
        for (const HookTensor& t : hooks)
            if (t.at == p) return &t;
        return nullptr;
    }

    const HeadSummary& summary(int32_t layer, int32_t head, int32_t row) const {
        return summaries[(size_t(layer) * size_t(n_head) + size_t(head)) * size_t(n_rows) + size_t(row)];
    }
};

// The hook tensors of one step: laid out from the policy (shapes, zeroed) by prepare, then
// found by (hook, layer) while the backend fills them. Both backends use it.
class HookSlots {
public:
    // Lays out c.hooks for policy.hooks: n rows with n_keys keys, n_out rows for final_norm and
    // logits. A policy without hooks leaves every find() null.
    void prepare(const CapturePolicy& policy, StepCapture& c, const HookDims& d, int32_t n_layer, int64_t n,
                 int64_t n_keys, int64_t n_out);
    void clear() { c_ = nullptr; }
    // The data of hook (h, layer) (layer -1: final_norm, logits), or null when not asked for.
    float* find(Hook h, int32_t layer) const;
    bool any() const { return c_ != nullptr; }

private:
    StepCapture* c_ = nullptr;
    int32_t n_layer_ = 0;
    std::vector<int32_t> index_;  // [layer + 1][hook] -> index in c_->hooks or -1 (slot n_layer: final hooks)
};

}  // namespace lmscope::trace
