// The stored record of one loop step: what was fed, how long it took, what the
// attention did, what the KV cache holds, and how the next token was chosen.
//
// Attention planes are stored as IEEE half floats, packed to the causal lower triangle (row r
// of a plane holds keys 0..first_row_pos+r only). Why half and not 8 bits: attention weights
// span many orders of magnitude and the views draw them on a log scale and compute entropies
// from them; a linear 8-bit code (step 1/255) would flatten every weight below 0.002 to zero,
// while half keeps about 3 significant digits down to 6e-8 with an absolute error <= 2.4e-4
// (below the 0.001 bound the engine is held to against reference attention). Half is also a
// dtype numpy reads directly from the trace file. The triangle packing halves prefill planes.
#pragma once

#include "trace/capture.h"
#include "util/page_allocator.h"

#include <cstdint>
#include <vector>

namespace lmscope::trace {

struct Candidate {
    int32_t id = 0;
    float logit = 0.0f;  // after the stage's transformation (temperature scales it)
    float prob = 0.0f;   // renormalised over the stage's survivors
    bool operator==(const Candidate&) const = default;
};

// The distribution after one sampling stage: its most probable survivors.
struct FilterStage {
    Stage stage = Stage::Raw;
    int64_t survivors = 0;       // tokens still possible after this stage
    std::vector<Candidate> top;  // highest first
    bool operator==(const FilterStage&) const = default;
};

struct LogitsTrace {
    std::vector<FilterStage> stages;  // [0] = raw logits (before filters), back() = after all
    float entropy = 0.0f;             // nats, of the raw softmax
    int32_t chosen = -1;              // the token this step picked (fed by the next step)
    Choice how = Choice::Greedy;      // Greedy, Sampled or Forced
    float chosen_prob = 0.0f;         // probability of `chosen` in the raw distribution
    float chosen_prob_after = 0.0f;   // ... and after the filters
    bool operator==(const LogitsTrace&) const = default;

    const std::vector<Candidate>& top_before() const;  // empty when no stages
};

struct KvTrace {
    int32_t tokens = 0;                    // positions held after this step
    KvType type = KvType::F16;             // how the cache stores its rows
    std::vector<uint64_t> bytes_per_layer; // [layer] bytes of K and V stored (measured from the cache)
    uint64_t bytes_total = 0;              // their sum
    uint64_t formula_bytes = 0;            // the KV formula's bytes at `tokens` (kv::cache_bytes)
    uint64_t resident_bytes = 0;           // the cache's storage in compute memory
    uint64_t offloaded_bytes = 0;          // stored in the offload tier (0 without offload)
    uint64_t moved_bytes = 0;              // moved between the tiers during this step
    bool operator==(const KvTrace&) const = default;
};

// Half floats of a step's attention planes; each large buffer is its own mapping (see
// util/page_allocator.h), so that the budget's dropping of planes returns their memory.
using HalfBuffer = std::vector<uint16_t, PageAllocator<uint16_t>>;

// One stored attention plane: `count()` half floats at `offset` in AttentionTrace::weights.
struct PlaneRef {
    LayerHead at;
    int32_t first_row_pos = 0;  // position of row 0
    int32_t n_rows = 0;
    uint64_t offset = 0;        // in elements
    int32_t n_keys() const { return first_row_pos + n_rows; }
    // Weights the plane holds (packed_plane_count, util/types.h); throws Error when the rows
    // start or count below 0.
    uint64_t count() const;
    bool operator==(const PlaneRef&) const = default;
};

struct AttentionTrace {
    int32_t n_layer = 0, n_head = 0, n_rows = 0;
    std::vector<PlaneRef> planes;
    HalfBuffer weights;                   // half floats, the planes' packed rows back to back
    std::vector<HeadSummary> summaries;   // [layer][head][row], empty when not captured
    bool planes_dropped = false;          // the budget removed this step's planes
    bool operator==(const AttentionTrace&) const = default;

    const PlaneRef* find(int32_t layer, int32_t head) const;
    // Plane i unpacked to [n_rows][n_keys] floats, zero above the causal diagonal.
    std::vector<float> matrix(size_t i) const;
    const HeadSummary& summary(int32_t layer, int32_t head, int32_t row) const;
};

// Packs the capture's planes and copies its summaries (validating their counts).
AttentionTrace attention_from_capture(const StepCapture& capture);

struct StepTrace {
    int32_t index = 0;           // position in SessionTrace::steps()
    int32_t parent = -1;         // the step this one continues (-1: none); rewinds branch here
    int32_t turn = 0;            // chat turn (0 for a plain prompt)
    Phase phase = Phase::Prefill;
    int32_t first_pos = 0;       // position of tokens[0]
    std::vector<int32_t> tokens; // ids fed this step
    Choice fed_how = Choice::Prompt;  // decode: how the fed token was chosen
    int32_t reused_tokens = 0;   // chat prefill: tokens kept in the cache from the previous sequence
    std::vector<LayerHead> ablated;  // heads switched off for this step (their z zeroed before Wo)
    std::vector<LayerSkip> skipped;  // sub-layers skipped in this step (their output not added)

    double forward_ms = 0.0;      // the forward pass (this phase's compute)
    double sample_ms = 0.0;       // logits to chosen token
    std::vector<double> layer_ms; // [layer]

    AttentionTrace attention;
    KvTrace kv;
    LogitsTrace logits;
    int32_t lens_k = 0;
    std::vector<LensEntry> lens;  // [layer][lens_k]: logit-lens tops for the last row

    bool operator==(const StepTrace&) const = default;
    // Bytes this record holds: the struct itself plus the capacity of every buffer it owns.
    uint64_t held_bytes() const;
    // Releases the attention planes (summaries stay) and marks the step.
    void drop_planes();
};

}  // namespace lmscope::trace
