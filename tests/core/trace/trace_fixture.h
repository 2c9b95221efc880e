// Synthetic but well-formed trace data for the trace tests: causal softmax planes from a
// seeded generator, their true summaries, and whole steps and sessions around them.
#pragma once

#include "trace/session_trace.h"

#include <cstdint>

namespace lmscope::testing {

// A capture of `n_rows` rows starting at `first_pos`, full planes for the pairs `policy` wants.
trace::StepCapture make_capture(int32_t n_layer, int32_t n_head, int32_t first_pos, int32_t n_rows,
                                const trace::CapturePolicy& policy, uint32_t seed);
// A complete step built from such a capture (tokens, KV figures, logits stages, lens).
trace::StepTrace make_step(int32_t n_layer, int32_t n_head, int32_t first_pos, int32_t n_rows,
                           const trace::CapturePolicy& policy, uint32_t seed);
// A session: a prefill of `prompt` tokens then `decodes` decode steps, a branch at step 1.
trace::SessionTrace make_session(int32_t n_layer, int32_t n_head, int32_t prompt, int32_t decodes,
                                 const trace::CapturePolicy& policy);

}  // namespace lmscope::testing
