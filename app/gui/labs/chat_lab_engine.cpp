#include "gui/labs/chat_lab_engine.h"

#include "engine/model.h"
#include "engine/session.h"
#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <algorithm>

namespace lmscope::gui::labs {

int32_t reusable_prefix(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
    size_t n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
    if (n == a.size() && n > 0) --n;
    return int32_t(n);
}

ChatEngine::ChatEngine(LabModelPtr model, EngineOptions chosen)
    : model_(std::move(model)), engine_(lab_engine(chosen)) {}

std::string ChatEngine::partial_reply() const {
    std::lock_guard lock(partial_mutex_);
    return partial_text_;
}

int32_t ChatEngine::partial_tokens() const {
    std::lock_guard lock(partial_mutex_);
    return partial_tokens_;
}

void ChatEngine::set_partial(std::string text, int32_t tokens) {
    std::lock_guard lock(partial_mutex_);
    partial_text_ = std::move(text);
    partial_tokens_ = tokens;
}

// How many leading tokens of `sequence` belong to the earlier turns: the common prefix with the
// history alone, rendered and tokenized the way the session renders a chat.
int32_t ChatEngine::history_prefix(const std::vector<int32_t>& sequence) const {
    if (history_.empty()) return 0;
    const tok::Tokenizer& tokenizer = *model_->tokenizer;
    model::SpecialText special;
    if (tokenizer.special().bos >= 0) special.bos = tokenizer.piece(tokenizer.special().bos);
    if (tokenizer.special().eos >= 0) special.eos = tokenizer.piece(tokenizer.special().eos);
    const model::RenderedChat chat =
        model::render_chat(lab_.session->chat_template(), history_, false, special);
    const std::vector<int32_t> ids =
        tokenizer.encode_ids(chat.text, !chat.starts_with_bos && tokenizer.special().add_bos, true);
    size_t n = 0;
    while (n < ids.size() && n < sequence.size() && ids[n] == sequence[n]) ++n;
    return int32_t(n);
}

ChatTurnRecord ChatEngine::run_turn(const std::string& user, int32_t max_reply, bool prefix_reuse,
                                    const CancelToken* token) {
    std::lock_guard run(run_mutex_);
    check_cancel(token);
    set_partial({}, 0);
    if (!lab_.session) lab_ = make_engine_session(model_, engine_);
    engine::Session& session = *lab_.session;
    const engine::Session::CancelScope scope(session, token);

    ChatTurnRecord r;
    r.user = user;
    r.reuse_on = prefix_reuse;
    session.set_prefix_reuse(prefix_reuse);
    const std::vector<int32_t> before = session.tokens();
    const trace::StepTrace& step = session.chat_turn(user);
    r.sequence = session.tokens();
    r.reused = step.reused_tokens;
    r.fed = int32_t(step.tokens.size());
    r.without_reuse = int32_t(r.sequence.size());
    r.with_reuse = prefix_reuse ? r.fed : int32_t(r.sequence.size()) - reusable_prefix(r.sequence, before);
    r.resent = history_prefix(r.sequence);

    // The reply: every token fed back, plus the pending one unless it ends the turn (as the
    // session re-sends a reply in progress).
    const tok::Tokenizer& tokenizer = *model_->tokenizer;
    std::vector<int32_t> fed_back;
    auto reply_ids = [&] {
        std::vector<int32_t> ids = fed_back;
        if (session.pending() && !session.ends_turn()) ids.push_back(*session.pending());
        return ids;
    };
    set_partial(tokenizer.decode(reply_ids()), 0);
    while (!session.ends_turn()) {
        if (r.generated >= max_reply || session.tokens().size() + 1 >= size_t(session.n_ctx())) {
            r.hit_limit = true;
            break;
        }
        try {
            check_cancel(token);
            const int32_t id = *session.pending();
            session.decode();
            fed_back.push_back(id);
        } catch (const CancelledError&) {
            r.stopped = true;
            break;
        }
        ++r.generated;
        set_partial(tokenizer.decode(reply_ids()), r.generated);
    }
    r.reply = tokenizer.decode(reply_ids());
    history_.push_back({model::Role::User, user});
    history_.push_back({model::Role::Assistant, r.reply});
    return r;
}

}  // namespace lmscope::gui::labs
