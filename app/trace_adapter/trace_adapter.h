// From the engine's record to the panels' view model: converts a core trace::SessionTrace
// (live or loaded from a trace file) into widgets::ModelView and widgets::StepView, one step at
// a time, so the app can feed the TraceModel as the engine steps.
//
// Token text comes from the trace itself (SessionTrace::pieces holds the bytes each token
// stands for, so a trace reads without its model). When the app has the tokenizer it also
// passes the vocabulary entries ("▁Hello", "<0xE6>"): they show in tooltips and mark
// byte-fallback tokens. Bytes that are not valid UTF-8 (a character split across tokens) are
// shown as hex ("<0xE6>") and marked as byte tokens too.
#pragma once

#include "trace/session_trace.h"
#include "widgets/trace_model.h"
#include "widgets/trace_view.h"

#include <cstdint>
#include <map>
#include <string>

namespace lmscope::app {

// Vocabulary entries by token id (Tokenizer::piece), when a tokenizer is at hand.
using TokenPieces = std::map<int32_t, std::string>;

struct TokenText {
    QString text;       // as shown: the token's characters, or hex bytes
    QString piece;      // the vocabulary entry (empty when unknown)
    bool byte_fallback = false;
    int32_t n_bytes = 0;
};
TokenText token_text(const trace::SessionTrace& trace, int32_t id, const TokenPieces& pieces = {});

// The model's shape from the trace's model summary (n_layer, n_head, n_head_kv, head_dim),
// falling back to the attention shape the steps recorded; the KV formula's line up to the
// longest step's tokens in its cache type (a live session's owner extends it to n_ctx).
widgets::ModelView model_view(const trace::SessionTrace& trace);
// A step's record of its pick: the filter stages, the chosen token and how.
widgets::LogitsData logits_view(const trace::SessionTrace& trace, const trace::LogitsTrace& lg,
                                const TokenPieces& pieces = {});
// Step `index` (throws std::out_of_range when there is none). Planes whose stored range does not
// fit the weights are left out (the view shows those rows as not recorded).
widgets::StepView step_view(const trace::SessionTrace& trace, int32_t index, const TokenPieces& pieces = {});
// The KV bytes the formula gives for `tokens` positions of the trace's model and cache type
// (2 x layers x kv_heads x head_dim x tokens x bytes per value); 0 when the shape is unknown.
uint64_t formula_kv_bytes(const trace::SessionTrace& trace, KvType type, int32_t tokens);
// The formula's line from 0 to `context` tokens in `type` (widgets::KvFormulaView): its corners
// at 0, the local layers' window (when inside the context) and `context`; empty when the shape
// is unknown or `context` < 1.
widgets::KvFormulaView kv_formula_view(const trace::SessionTrace& trace, KvType type, int32_t context);

// Throws FormatError(name, field, reason) when the trace's sizes disagree in a way the panels
// could only hide: a step's attention rows not its tokens, a plane's rows outside the step's
// positions, a step's attention shape not the model's. A trace file passes it before the
// window shows it.
void check_sizes(const trace::SessionTrace& trace, const std::string& name);

// Replaces the model's contents with the whole trace (the last step becomes current).
bool load_trace(widgets::TraceModel& model, const trace::SessionTrace& trace, const TokenPieces& pieces = {});
// The steps whose planes the trace's memory budget has dropped, in order: the view model
// releases theirs too (TraceModel::dropPlanes), so it does not keep what the trace let go.
QVector<qint32> steps_without_planes(const trace::SessionTrace& trace);

}  // namespace lmscope::app
