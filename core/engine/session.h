// The Session: the predict-append loop, one step at a time, traced.
//
//   prefill(ids)  feed a prompt at once, sample the next token      -> a StepTrace
//                 (and, when asked, the next-token logits after every position of it)
//   decode()      feed the pending token, sample the next one       -> a StepTrace
//   force(id)     the next decode feeds `id` instead of the sampler's choice (fed_how = forced)
//   rewind(step)  back to the state right after `step`: the cache and the token list are
//                 truncated to it (a step on another branch: truncated to the shared prefix,
//                 the rest recomputed untraced), the step's choice is pending again (picked
//                 again when the sampler settings changed since it was made and no step has
//                 continued from it yet); later steps stay in the trace, so the next decode
//                 starts a branch (parent = step)
//   set_sampling  new settings; the pending choice is picked again under them (unless a step
//                 has already continued from it: a trace records the token each step continued)
//   chat_turn()   append a user turn, render the whole history with the chat template and
//                 prefill it, keeping the longest common token prefix already in the cache
//                 when prefix reuse is on (the prefill step records reused vs fed tokens)
//   cancel        while a CancelScope names a CancelToken, cancelling that token (from any
//                 thread) stops the running step between layers: it throws CancelledError and
//                 the session is exactly as before that step
//
// The Session refers to a Backend (which owns the KV cache and shares the Model) and a
// Tokenizer; both must outlive it. It owns the Sampler and the SessionTrace (with its budget).
// Not thread-safe (the token of a CancelScope is cancelled from any thread). The StepTrace
// references returned stay valid until the next step is added.
#pragma once

#include "engine/backend.h"
#include "engine/sampler.h"
#include "model/chat_template.h"
#include "tokenizer/tokenizer.h"
#include "trace/session_trace.h"
#include "util/cancel.h"

#include <functional>
#include <map>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace lmscope::engine {

// The context (positions) that holds a prompt of `tokens` with room to decode after it: the
// tokens plus kDecodeRoom, rounded up to a multiple of kDecodeRoom, at most `n_ctx_train` (the
// model's own); 0 when even that is shorter than the prompt.
inline constexpr int32_t kDecodeRoom = 256;
int32_t context_for_prompt(int64_t tokens, int32_t n_ctx_train);

struct SessionOptions {
    SamplerSettings sampling;
    trace::CapturePolicy capture;
    uint64_t trace_budget = trace::SessionTrace::kDefaultBudget;
    bool prefix_reuse = true;  // chat turns keep the common token prefix in the cache
};

// Where a traced step stands (Session::set_progress).
struct StepProgress {
    int32_t layers_done = 0, n_layer = 0;
    int32_t tokens = 0;  // fed this step
};

class Session {
public:
    // Throws UsageError on invalid sampler settings or a tokenizer whose vocabulary does not
    // match the model's.
    Session(Backend& backend, const tok::Tokenizer& tokenizer, SessionOptions options = {});

    // `every_row`, when not empty, receives [ids.size()][n_vocab] the next-token logits after
    // each position fed (the last row is the one sampled); UsageError when its size differs.
    const trace::StepTrace& prefill(std::span<const int32_t> ids, std::span<float> every_row = {});
    const trace::StepTrace& decode();
    void force(int32_t id);
    // True when the step's choice was picked again (the settings changed since it was made).
    bool rewind(int32_t step);
    // Empties the cache and the token list (the trace keeps every step; the next prefill
    // starts a new root).
    void reset();

    // Chat: `user_text` becomes a user turn after the history so far (the reply in progress,
    // i.e. the tokens generated since the previous turn's prefill plus the pending one unless it
    // ends the turn, becomes the assistant turn). The whole history is rendered with the model's
    // chat template and tokenized; with prefix reuse on, the longest common token prefix with
    // the sequence in the cache is kept and only the rest is prefilled (the step's
    // reused_tokens). The reply is then what decode() generates until ends_turn().
    const trace::StepTrace& chat_turn(const std::string& user_text);
    const model::ChatTemplate& chat_template() const { return template_; }
    bool prefix_reuse() const { return options_.prefix_reuse; }
    void set_prefix_reuse(bool on) { options_.prefix_reuse = on; }

    // Called after each layer of a traced step (CPU backend), on the stepping thread.
    void set_progress(std::function<void(const StepProgress&)> progress) { progress_ = std::move(progress); }

    // While a CancelScope lives, `token` stops the session's steps (each forward pass checks
    // it between layers); scopes nest, the inner token wins until it ends. Whoever starts a
    // job makes a fresh token for it, so a late Stop for earlier work stops nothing.
    class CancelScope {
    public:
        CancelScope(Session& session, const CancelToken* token)
            : session_(session), outer_(std::exchange(session.cancel_, token)) {}
        ~CancelScope() { session_.cancel_ = outer_; }
        CancelScope(const CancelScope&) = delete;
        CancelScope& operator=(const CancelScope&) = delete;

    private:
        Session& session_;
        const CancelToken* outer_;
    };

    // The pending token is end-of-sequence or end-of-turn.
    bool ends_turn() const;
    const std::vector<int32_t>& tokens() const { return tokens_; }  // held in the cache
    std::optional<int32_t> pending() const { return pending_; }
    Choice pending_how() const { return pending_how_; }
    int32_t head() const { return head_; }  // last step on the current branch, -1 for none
    int32_t n_ctx() const { return backend_.n_ctx(); }

    const trace::SessionTrace& trace() const { return trace_; }
    // The cache now: bytes stored (measured), allocated, the formula's, the offload tier's.
    KvStats kv_stats() const { return backend_.kv_stats(); }
    const Sampler& sampler() const { return sampler_; }
    // New sampler settings (validated: UsageError); the RNG keeps its state unless the seed
    // changes. The trace records the settings in force last. The pending token is picked
    // again under them (unless it was forced, or a step has already continued from the head
    // step: its record is the token that step fed), from the head step's logits, and the head
    // step's record becomes that pick: the next step feeds what the settings now say. True
    // when it was picked again.
    bool set_sampling(const SamplerSettings& settings);
    // Heads switched off (their z zeroed before Wo) from the next step on, recorded in every
    // step's trace. Positions already in the cache keep what they were computed with (rewind or
    // reset to recompute them). Throws UsageError for a head the model does not have.
    void set_ablation(std::vector<LayerHead> heads);
    const std::vector<LayerHead>& ablation() const { return ablation_; }
    // Sub-layers skipped (their output not added to the residual stream) from the next step on,
    // recorded like the heads above. Throws UsageError for a layer the model does not have.
    void set_skips(std::vector<LayerSkip> skips);
    const std::vector<LayerSkip>& skips() const { return skips_; }
    const trace::CapturePolicy& capture_policy() const { return options_.capture; }
    // The head whose attention rows a step keeps first when full capture of every head would
    // take more than the trace's budget (a long prefill): then the step captures the planes
    // that fit, this head first, then the rest of its layer, then the other layers in order,
    // and summaries of every head.
    void set_attention_focus(LayerHead head) { focus_ = head; }
    const tok::Tokenizer& tokenizer() const { return tokenizer_; }
    Backend& backend() { return backend_; }

private:
    // One forward step feeding `ids` after the held tokens, then the sampler; traced. Every
    // row's logits go to `every_row` when it is not empty ([ids.size()][n_vocab]).
    const trace::StepTrace& step(std::span<const int32_t> ids, Phase phase, Choice fed_how,
                                 int32_t reused, int32_t turn, std::span<float> every_row = {});
    // Throws Error naming the model file when a logit of the last forward is NaN or infinite
    // (weights that are not finite), after dropping the step's positions from the KV cache.
    void check_logits_finite(int32_t pos);
    int32_t current_turn() const;
    std::string reply_in_progress() const;

    struct ChatStep {                // what a chat turn's prefill step rendered
        std::string user;
        std::string previous_reply;  // the reply of the turn before, as re-fed
    };
    struct ChatEntry {
        std::string user;
        std::string reply;        // set when the next turn starts
        int32_t reply_start = 0;  // position of the reply's first token
    };
    void note_piece(int32_t id);
    // Picks the pending token again when it was not forced, nothing continued from the head
    // step yet and the head step's pick was made under other settings: recomputes the head's last position first when logits_ hold
    // another step's row, then replaces the head step's record. True when it picked.
    bool repick();
    void check_ids(std::span<const int32_t> ids) const;
    // Makes the cache hold exactly seq[0, n): truncates it to n and feeds, untraced and not
    // cancellable, what it does not hold (positions a sliding-window layer forgot on a rewind,
    // or dropped ones put back); the logits are then those of seq[n - 1] when it fed any.
    void restore_cache(std::span<const int32_t> seq, int32_t n);

    Backend& backend_;
    const tok::Tokenizer& tokenizer_;
    SessionOptions options_;
    Sampler sampler_;
    trace::SessionTrace trace_;
    std::vector<bool> noted_;  // [token id] its piece is in trace_.pieces (a whole-vocabulary lens notes every id per layer)
    model::ChatTemplate template_;
    model::SpecialText special_text_;  // BOS / EOS text the templates write out
    const CancelToken* cancel_ = nullptr;  // the innermost CancelScope's token; null: not cancellable
    std::function<void(const StepProgress&)> progress_;

    // The policy of a step of n rows after pos0: the session's, or within the budget (above).
    trace::CapturePolicy step_policy(int32_t n, int32_t pos0) const;

    std::optional<LayerHead> focus_;
    std::vector<LayerHead> ablation_;  // heads switched off for every step
    std::vector<LayerSkip> skips_;     // sub-layers skipped in every step
    std::vector<int32_t> tokens_;  // the sequence in the cache, [kv_tokens]
    std::vector<float> logits_;    // [n_vocab] the last row of the latest forward
    int32_t logits_step_ = -1;     // the step whose last row logits_ holds (-1: none, or untraced)
    std::vector<SamplerSettings> picked_with_;  // [step] the settings its pick was made with
    std::optional<int32_t> pending_;
    Choice pending_how_ = Choice::Greedy;
    int32_t head_ = -1;
    std::vector<ChatEntry> chat_;  // chat turns on the current branch; the last reply is in progress
    std::map<int32_t, ChatStep> chat_steps_;  // by prefill step index, to rebuild chat_ on rewind
};

}  // namespace lmscope::engine
