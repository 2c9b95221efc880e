#include "trace_fixture.h"

#include <cmath>
#include <random>

namespace lmscope::testing {

using namespace lmscope::trace;

StepCapture make_capture(int32_t n_layer, int32_t n_head, int32_t first_pos, int32_t n_rows,
                         const CapturePolicy& policy, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> score(0.0f, 2.0f);
    StepCapture c;
    c.n_layer = n_layer;
    c.n_head = n_head;
    c.n_rows = n_rows;
    const int32_t n_keys = first_pos + n_rows;
    for (int32_t l = 0; l < n_layer; ++l) {
        c.layer_ms.push_back(0.25 * (l + 1));
        for (int32_t h = 0; h < n_head; ++h) {
            AttentionPlane plane{{l, h}, first_pos, n_rows, n_keys, {}};
            plane.weights.assign(size_t(n_rows) * size_t(n_keys), 0.0f);  // [n_rows][n_keys]
            for (int32_t r = 0; r < n_rows; ++r) {
                const int32_t visible = first_pos + r + 1;
                float* row = plane.weights.data() + size_t(r) * size_t(n_keys);
                float sum = 0.0f;
                for (int32_t k = 0; k < visible; ++k) sum += row[k] = std::exp(score(rng));
                HeadSummary s;
                for (int32_t k = 0; k < visible; ++k) {
                    row[k] /= sum;
                    s.entropy -= row[k] * std::log(row[k]);
                    if (row[k] > s.max_weight) s.max_weight = row[k], s.argmax_key = k;
                }
                if (policy.wants_summary()) c.summaries.push_back(s);
            }
            if (policy.wants_full(l, h)) c.planes.push_back(std::move(plane));
        }
    }
    if (policy.logit_lens)
        for (int32_t l = 0; l < n_layer; ++l)
            for (int32_t k = 0; k < policy.lens_top_k; ++k)
                c.lens.push_back({int32_t(rng() % 1024), 0.5f / float(k + 1)});
    c.total_ms = 0.125 * n_layer;
    return c;
}

StepTrace make_step(int32_t n_layer, int32_t n_head, int32_t first_pos, int32_t n_rows,
                    const CapturePolicy& policy, uint32_t seed) {
    const StepCapture c = make_capture(n_layer, n_head, first_pos, n_rows, policy, seed);
    StepTrace s;
    s.phase = first_pos == 0 ? Phase::Prefill : Phase::Decode;
    s.first_pos = first_pos;
    for (int32_t i = 0; i < n_rows; ++i) s.tokens.push_back(int32_t((seed * 31 + uint32_t(i) * 7) % 1024));
    s.fed_how = first_pos == 0 ? Choice::Prompt : Choice::Sampled;
    s.forward_ms = c.total_ms;
    s.sample_ms = 0.0625;
    s.layer_ms = c.layer_ms;
    s.attention = attention_from_capture(c);
    s.kv.tokens = first_pos + n_rows;
    s.kv.type = KvType::Q8_0;
    for (int32_t l = 0; l < n_layer; ++l) s.kv.bytes_per_layer.push_back(uint64_t(s.kv.tokens) * 68 * 2);
    for (uint64_t b : s.kv.bytes_per_layer) s.kv.bytes_total += b;
    s.kv.formula_bytes = s.kv.bytes_total;
    s.kv.resident_bytes = s.kv.bytes_total / 4;
    s.kv.offloaded_bytes = s.kv.bytes_total - s.kv.resident_bytes;
    s.kv.moved_bytes = s.kv.offloaded_bytes + 4096;
    s.logits.entropy = 3.5f;
    s.logits.stages = {{Stage::Raw, 1024, {{5, 9.5f, 0.4f}, {17, 8.25f, 0.2f}, {3, -1.5f, 0.01f}}},
                       {Stage::TopK, 2, {{5, 9.5f, 0.66f}, {17, 8.25f, 0.34f}}}};
    s.logits.chosen = 17;
    s.logits.how = Choice::Sampled;
    s.logits.chosen_prob = 0.2f;
    s.logits.chosen_prob_after = 0.34f;
    if (policy.logit_lens) {
        s.lens_k = policy.lens_top_k;
        s.lens = c.lens;
    }
    return s;
}

SessionTrace make_session(int32_t n_layer, int32_t n_head, int32_t prompt, int32_t decodes,
                          const CapturePolicy& policy) {
    SessionTrace t;
    t.model = {"fx.gguf", std::string(64, 'a'), {{"arch", "llama"}, {"n_layer", n_layer}}};
    t.tokenizer = {{"kind", "spm"}, {"n_vocab", 1024}};
    t.sampling = {{"temperature", 0.8}, {"top_k", 40}, {"seed", 7}};
    t.capture = {{"mode", "summary"}};
    t.pieces = {{5, " the"}, {17, " cat"}, {3, "\n"}, {200, "\xe6"}};  // 200: one byte of a character
    int32_t parent = t.add(make_step(n_layer, n_head, 0, prompt, policy, 1)).index;
    for (int32_t d = 0; d < decodes; ++d) {
        StepTrace s = make_step(n_layer, n_head, prompt + d, 1, policy, uint32_t(100 + d));
        s.parent = parent;
        parent = t.add(std::move(s)).index;
    }
    if (decodes >= 2) {  // a branch: another continuation of step 1, forced
        StepTrace s = make_step(n_layer, n_head, prompt + 1, 1, policy, 999);
        s.parent = 1;
        s.fed_how = Choice::Forced;
        s.ablated = {{0, 1}, {n_layer - 1, n_head - 1}};  // heads switched off on this branch
        s.skipped = {{n_layer - 1, Sublayer::Ffn}, {0, Sublayer::Attn}};  // and sub-layers skipped
        t.add(std::move(s));
    }
    return t;
}

}  // namespace lmscope::testing
