// The chat lab's engine side: one lab session that lives across the turns of a conversation.
// A turn renders the whole history with the model's chat template, prefills it (keeping the
// common prefix in the cache when prefix reuse is on) and decodes the reply until the model ends
// its turn or the reply reaches its maximum length. What the turn cost is recorded for the lab
// to show: the whole sequence the model received, how much of it re-sends earlier turns, and the
// tokens prefilled with and without prefix reuse.
//
// Jobs run turns on Qt's thread pool; the lab's UI thread reads the reply in progress with
// partial_reply() while a turn runs. One turn runs at a time (a later job waits for the earlier).
#pragma once

#include "util/cancel.h"
#include "gui/engine_setup.h"
#include "model/chat_template.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace lmscope::gui::labs {

struct ChatTurnRecord {
    std::string user;
    std::string reply;               // as the next turn re-sends it
    std::vector<int32_t> sequence;   // [reused + fed] the rendered, tokenized history this turn
    int32_t resent = 0;              // leading tokens of `sequence` that re-send earlier turns
    int32_t reused = 0;              // tokens the cache kept (the prefill step's reused_tokens)
    int32_t fed = 0;                 // tokens the prefill step computed
    int32_t with_reuse = 0;          // prefill cost with prefix reuse (= fed when it was on)
    int32_t without_reuse = 0;       // prefill cost without it: the whole sequence
    bool reuse_on = true;
    int32_t generated = 0;           // reply tokens decoded (fed back one at a time)
    bool stopped = false;            // Stop ended the reply early
    bool hit_limit = false;          // the maximum reply length ended it
};

class ChatEngine {
public:
    // Greedy decoding (lab_session_options: the same reply every time, for a class to follow)
    // on the chosen engine.
    ChatEngine(LabModelPtr model, EngineOptions chosen);

    // One turn (blocking; call it on a pool thread). A cancel during the prefill throws
    // CancelledError and leaves the conversation as it was; a cancel during the reply ends the
    // reply there (stopped). Throws lmscope::Error when the context is full.
    ChatTurnRecord run_turn(const std::string& user, int32_t max_reply, bool prefix_reuse, const CancelToken* token);

    // The reply of the running turn so far (any thread).
    std::string partial_reply() const;
    int32_t partial_tokens() const;

private:
    void set_partial(std::string text, int32_t tokens);
    int32_t history_prefix(const std::vector<int32_t>& sequence) const;

    std::mutex run_mutex_;          // one turn at a time
    LabModelPtr model_;
    EngineOptions engine_;
    EngineSession lab_;                // made by the first turn (off the UI thread)
    std::vector<model::ChatTurn> history_;  // the completed turns, user and assistant

    mutable std::mutex partial_mutex_;  // guards partial_*
    std::string partial_text_;
    int32_t partial_tokens_ = 0;
};

// The longest common prefix of `a` and `b`, as the session's prefix reuse keeps it: at least
// one token of `a` is always fed (for the next logits).
int32_t reusable_prefix(const std::vector<int32_t>& a, const std::vector<int32_t>& b);

}  // namespace lmscope::gui::labs
