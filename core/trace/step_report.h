// One step as lmscope-cli prints it: the JSON object of `run --jsonl` and `replay --json`
// (the same object for both, so a live run and its replay compare line by line), and the
// readable line of `replay`.
#pragma once

#include "trace/session_trace.h"

#include <nlohmann/json.hpp>

#include <string>

namespace lmscope::trace {

// {"step", "parent", "turn", "phase", "pos", "fed", "fed_how", "reused", "token", "piece",
//  "prob", "how", "top": [{"id", "piece", "logit", "prob"}...], "kv_tokens", "kv_bytes",
//  "kv_dtype", "ms", "forward_ms", "sample_ms"}: `top` is the raw distribution's top_n.
nlohmann::json step_report_json(const SessionTrace& trace, const StepTrace& step, size_t top_n = 5);
std::string step_report_text(const SessionTrace& trace, const StepTrace& step, size_t top_n = 5);
// Quoted, with control characters escaped, for one-line displays.
std::string quote_piece(const std::string& piece);

}  // namespace lmscope::trace
