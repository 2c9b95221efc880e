#include "engine/session.h"

#include "engine/model.h"
#include "engine/prepared_model.h"
#include "gguf/gguf.h"
#include "model/interventions.h"
#include "model/summary.h"
#include "trace/sha256.h"
#include "util/error.h"

#include "util/clock.h"

#include <algorithm>
#include <cmath>
#include <chrono>
#include <filesystem>

namespace lmscope::engine {

namespace {


nlohmann::json sampling_json(const SamplerSettings& s) {
    return {{"temperature", s.temperature}, {"top_k", s.top_k},         {"top_p", s.top_p},
            {"min_p", s.min_p},             {"repeat_penalty", s.repeat_penalty},
            {"repeat_window", s.repeat_window}, {"seed", s.seed},       {"report_k", s.report_k}};
}

nlohmann::json capture_json(const trace::CapturePolicy& p) {
    nlohmann::json pairs = nlohmann::json::array();
    for (const LayerHead& lh : p.full_pairs) pairs.push_back({lh.layer, lh.head});
    return {{"mode", trace::capture_mode_name(p.mode)}, {"full_pairs", pairs}, {"logit_lens", p.logit_lens},
            {"lens_top_k", p.lens_top_k}};
}

trace::ModelIdentity model_identity(const Model& model) {
    const gguf::File& f = model.file();
    trace::ModelIdentity id;
    id.file = std::filesystem::path(f.path()).filename().string();
    id.header_sha256 = trace::sha256_hex(f.bytes(), size_t(f.data_offset()));
    id.spec = model::ModelSummary::of(f).to_json();
    id.spec.erase("tensors");  // hundreds of entries; the sha256 pins the file anyway
    return id;
}

nlohmann::json tokenizer_json(const tok::Tokenizer& t) {
    const tok::SpecialTokens& sp = t.special();
    return {{"describe", t.describe()}, {"n_vocab", t.vocab_size()}, {"model", t.vocab().model},
            {"pre", t.vocab().pre},     {"bos", sp.bos},             {"eos", sp.eos},
            {"eot", sp.eot},            {"add_bos", sp.add_bos}};
}

trace::LogitsTrace logits_trace(const SampleReport& r) {
    trace::LogitsTrace l;
    for (const StageReport& st : r.stages) {
        if (st.stage != Stage::Raw && !st.active) continue;
        trace::FilterStage fs;
        fs.stage = st.stage;
        fs.survivors = int64_t(st.n_kept);
        fs.top.reserve(st.top.size());
        for (const Candidate& c : st.top) fs.top.push_back({c.id, c.logit, c.prob});
        l.stages.push_back(std::move(fs));
    }
    l.entropy = float(r.entropy_raw());
    l.chosen = r.token;
    l.how = r.how;
    l.chosen_prob = r.raw_prob;
    l.chosen_prob_after = r.prob;
    return l;
}

}  // namespace

int32_t context_for_prompt(int64_t tokens, int32_t n_ctx_train) {
    if (tokens > n_ctx_train) return 0;
    const int64_t room = (tokens + kDecodeRoom + kDecodeRoom - 1) / kDecodeRoom * kDecodeRoom;
    return int32_t(std::min<int64_t>(room, n_ctx_train));
}

Session::Session(Backend& backend, const tok::Tokenizer& tokenizer, SessionOptions options)
    : backend_(backend), tokenizer_(tokenizer), options_(std::move(options)), sampler_(options_.sampling),
      trace_(options_.trace_budget) {
    check_vocabulary_matches(backend_.model(), tokenizer_);
    logits_.resize(size_t(backend_.model().spec().n_vocab()));
    noted_.resize(logits_.size());
    trace_.model = model_identity(backend_.model());
    trace_.tokenizer = tokenizer_json(tokenizer_);
    trace_.sampling = sampling_json(options_.sampling);
    trace_.capture = capture_json(options_.capture);
    template_ = model::ChatTemplate::detect(model::chat_template_text(backend_.model().file()));
    const tok::SpecialTokens& sp = tokenizer_.special();
    if (sp.bos >= 0) special_text_.bos = tokenizer_.piece(sp.bos);
    if (sp.eos >= 0) special_text_.eos = tokenizer_.piece(sp.eos);
    trace_.tokenizer["chat_template"] = model::chat_family_name(template_.family);
    backend_.kv_truncate(0);
}

bool Session::set_sampling(const SamplerSettings& settings) {
    const bool reseed = settings.seed != sampler_.settings().seed;
    sampler_.set_settings(settings);
    if (reseed) sampler_.reseed(settings.seed);
    options_.sampling = settings;
    trace_.sampling = sampling_json(settings);
    return repick();
}

bool Session::repick() {
    if (head_ < 0 || !pending_ || pending_how_ == Choice::Forced || trace_.has_children(head_)) return false;
    if (picked_with_.at(size_t(head_)) == sampler_.settings()) return false;
    if (logits_step_ != head_) {  // the head's last row again: one position, untraced
        restore_cache(tokens_, int32_t(tokens_.size()) - 1);
        const int32_t last = int32_t(tokens_.size()) - 1;
        backend_.forward({.tokens = std::span<const int32_t>(tokens_).subspan(size_t(last)), .pos0 = last, .logits = logits_});
        logits_step_ = head_;
    }
    const auto t0 = Clock::now();
    const SampleReport report = sampler_.sample(logits_, tokens_);
    trace::LogitsTrace picked = logits_trace(report);
    for (const trace::FilterStage& st : picked.stages)
        for (const trace::Candidate& c : st.top) note_piece(c.id);
    note_piece(report.token);
    const trace::StepTrace& s = trace_.repick(head_, std::move(picked), ms_since(t0));
    picked_with_[size_t(head_)] = sampler_.settings();
    pending_ = s.logits.chosen;
    pending_how_ = s.logits.how;
    return true;
}

void Session::set_ablation(std::vector<LayerHead> heads) {
    model::check_heads(backend_.model().spec(), heads, "switching off heads");
    ablation_ = std::move(heads);
}

void Session::set_skips(std::vector<LayerSkip> skips) {
    model::check_skips(backend_.model().spec(), skips, "skipping sub-layers");
    skips_ = std::move(skips);
}

void Session::restore_cache(std::span<const int32_t> seq, int32_t n) {
    backend_.kv_truncate(std::min(n, backend_.kv_tokens()));
    const int32_t held = backend_.kv_tokens();  // less than asked when a sliding window forgot
    if (held == n) return;
    logits_step_ = -1;
    backend_.forward({.tokens = seq.subspan(size_t(held), size_t(n - held)), .pos0 = held, .logits = logits_});
}

void Session::check_ids(std::span<const int32_t> ids) const {
    for (int32_t id : ids)
        if (id < 0 || id >= int32_t(logits_.size()))
            throw UsageError("token id " + std::to_string(id) + " is outside the vocabulary [0, " +
                             std::to_string(logits_.size()) + ")");
}

void Session::note_piece(int32_t id) {
    if (id < 0 || size_t(id) >= noted_.size() || noted_[size_t(id)]) return;
    noted_[size_t(id)] = true;
    trace_.pieces.emplace(id, tokenizer_.token_bytes(id, true));
}

void Session::check_logits_finite(int32_t pos) {
    for (size_t i = 0; i < logits_.size(); ++i) {
        if (std::isfinite(logits_[i])) continue;
        backend_.kv_truncate(int32_t(tokens_.size()));  // the step did not happen
        throw Error(backend_.model().file().path() + ": the model computed a " +
                    (std::isnan(logits_[i]) ? "NaN" : "infinite") + " logit (token " + std::to_string(i) +
                    ", position " + std::to_string(pos) +
                    "): its weights hold non-finite values (a damaged or badly converted file)");
    }
}

trace::CapturePolicy Session::step_policy(int32_t n, int32_t pos0) const {
    const model::ModelSpec& spec = backend_.model().spec();
    return trace::within_budget(options_.capture, n, pos0, spec.n_layer(), spec.n_head(), trace_.budget(),
                                focus_.value_or(LayerHead{0, 0}));
}

const trace::StepTrace& Session::step(std::span<const int32_t> ids, Phase phase, Choice fed_how,
                                      int32_t reused, int32_t turn, std::span<float> every_row) {
    const int32_t pos0 = int32_t(tokens_.size());
    if (int64_t(pos0) + int64_t(ids.size()) > int64_t(backend_.n_ctx())) {
        const int32_t trained = backend_.model().spec().n_ctx_train();
        throw ContextFullError("the context is full: " + std::to_string(pos0) + " + " + std::to_string(ids.size()) +
                               " tokens exceed the " + std::to_string(backend_.n_ctx()) + " positions of the cache (" +
                               (backend_.n_ctx() == trained ? std::string("the model's context_length")
                                                            : "the model's context_length is " + std::to_string(trained)) +
                               ")");
    }
    trace::StepCapture capture;
    logits_step_ = -1;  // until this step is added
    restore_cache(tokens_, pos0);  // the cache may hold more (a chat turn reusing a prefix)
    const uint64_t moved_before = backend_.kv_stats().moved_bytes;
    const auto t0 = Clock::now();
    backend_.forward({.tokens = ids,
                      .pos0 = pos0,
                      .policy = step_policy(int32_t(ids.size()), pos0),
                      .capture = &capture,
                      .logits = every_row.empty() ? std::span<float>(logits_) : every_row,
                      .all_logits = !every_row.empty(),
                      .cancel = cancel_,  // a cancelled step leaves the cache at pos0
                      .ablate = ablation_,
                      .skip = skips_,
                      .on_layer = progress_ ? [&](int32_t done) { progress_({done, backend_.model().spec().n_layer(), int32_t(ids.size())}); }
                                            : std::function<void(int32_t)>()});
    const double forward_ms = ms_since(t0);
    if (!every_row.empty()) std::copy(every_row.end() - std::ptrdiff_t(logits_.size()), every_row.end(), logits_.begin());
    check_logits_finite(pos0 + int32_t(ids.size()) - 1);
    tokens_.insert(tokens_.end(), ids.begin(), ids.end());

    const auto t1 = Clock::now();
    const SampleReport report = sampler_.sample(logits_, tokens_);
    const double sample_ms = ms_since(t1);

    trace::StepTrace s;
    s.parent = head_;
    s.turn = turn;
    s.phase = phase;
    s.first_pos = pos0;
    s.tokens.assign(ids.begin(), ids.end());
    s.fed_how = fed_how;
    s.reused_tokens = reused;
    s.ablated = ablation_;
    s.skipped = skips_;
    s.forward_ms = forward_ms;
    s.sample_ms = sample_ms;
    s.layer_ms = capture.layer_ms;
    s.attention = trace::attention_from_capture(capture);
    const KvStats kv = backend_.kv_stats();
    s.kv.tokens = kv.n_tokens;
    s.kv.type = kv.type;
    s.kv.bytes_per_layer.assign(kv.layer_bytes.begin(), kv.layer_bytes.end());
    s.kv.bytes_total = kv.total_bytes;
    s.kv.formula_bytes = kv.formula_bytes;
    s.kv.resident_bytes = kv.resident_bytes;
    s.kv.offloaded_bytes = kv.offloaded_bytes;
    s.kv.moved_bytes = kv.moved_bytes - moved_before;
    s.logits = logits_trace(report);
    s.lens_k = capture.lens.empty() ? 0 : options_.capture.lens_top_k;
    s.lens = capture.lens;

    for (int32_t id : ids) note_piece(id);
    note_piece(report.token);
    for (const trace::FilterStage& st : s.logits.stages)
        for (const trace::Candidate& c : st.top) note_piece(c.id);
    for (const trace::LensEntry& e : s.lens) note_piece(e.token);

    const trace::StepTrace& added = trace_.add(std::move(s));
    head_ = added.index;
    logits_step_ = added.index;
    picked_with_.push_back(sampler_.settings());
    pending_ = added.logits.chosen;
    pending_how_ = added.logits.how;
    return added;
}

const trace::StepTrace& Session::prefill(std::span<const int32_t> ids, std::span<float> every_row) {
    if (ids.empty()) throw UsageError("prefill needs at least one token");
    check_ids(ids);
    if (!every_row.empty() && every_row.size() != ids.size() * logits_.size())
        throw UsageError("prefill: the buffer for every row's logits holds " + std::to_string(every_row.size()) +
                         " floats, " + std::to_string(ids.size()) + " x " + std::to_string(logits_.size()) + " are needed");
    return step(ids, Phase::Prefill, Choice::Prompt, 0, current_turn(), every_row);
}

const trace::StepTrace& Session::decode() {
    if (!pending_) throw UsageError("nothing to decode: prefill a prompt first");
    const int32_t id = *pending_;
    return step(std::span<const int32_t>(&id, 1), Phase::Decode, pending_how_, 0, current_turn());
}

void Session::force(int32_t id) {
    if (!pending_) throw UsageError("nothing to force: prefill a prompt first");
    check_ids(std::span<const int32_t>(&id, 1));
    pending_ = id;
    pending_how_ = Choice::Forced;
    note_piece(id);
}

bool Session::rewind(int32_t step_index) {
    if (step_index < 0 || step_index >= int32_t(trace_.size()))
        throw UsageError("no step " + std::to_string(step_index) + " to rewind to");
    // The sequence the cache holds right after that step (each step on its path wrote its
    // tokens from its first position on), and the chat turns on that path.
    std::vector<int32_t> seq;
    std::vector<ChatEntry> chat;
    for (int32_t i : trace_.path_to(step_index)) {
        const trace::StepTrace& p = trace_.step(i);
        seq.resize(size_t(p.first_pos));
        seq.insert(seq.end(), p.tokens.begin(), p.tokens.end());
        const auto c = chat_steps_.find(i);
        if (c == chat_steps_.end()) continue;
        if (!chat.empty()) chat.back().reply = c->second.previous_reply;
        chat.push_back({c->second.user, {}, int32_t(seq.size())});
    }
    size_t keep = 0;
    while (keep < seq.size() && keep < tokens_.size() && seq[keep] == tokens_[keep]) ++keep;
    tokens_.resize(keep);
    restore_cache(tokens_, int32_t(keep));
    if (keep < seq.size()) {  // another branch: recompute the positions it does not share, untraced
        logits_step_ = -1;
        backend_.forward({.tokens = std::span<const int32_t>(seq).subspan(keep), .pos0 = int32_t(keep), .logits = logits_});
        tokens_ = std::move(seq);
        logits_step_ = step_index;
    }
    const trace::StepTrace& s = trace_.step(step_index);
    head_ = step_index;
    pending_ = s.logits.chosen;
    pending_how_ = s.logits.how;
    chat_ = std::move(chat);
    return repick();
}

void Session::reset() {
    backend_.kv_truncate(0);
    tokens_.clear();
    pending_.reset();
    head_ = -1;
    chat_.clear();
}

std::string Session::reply_in_progress() const {
    if (chat_.empty()) return {};
    std::vector<int32_t> ids(tokens_.begin() + chat_.back().reply_start, tokens_.end());
    if (pending_ && !ends_turn()) ids.push_back(*pending_);
    return tokenizer_.decode(ids);
}

const trace::StepTrace& Session::chat_turn(const std::string& user_text) {
    std::vector<model::ChatTurn> turns;
    for (size_t i = 0; i < chat_.size(); ++i) {
        turns.push_back({model::Role::User, chat_[i].user});
        turns.push_back({model::Role::Assistant, i + 1 < chat_.size() ? chat_[i].reply : reply_in_progress()});
    }
    turns.push_back({model::Role::User, user_text});
    const model::RenderedChat chat = model::render_chat(template_, turns, true, special_text_);
    const std::vector<int32_t> ids =
        tokenizer_.encode_ids(chat.text, !chat.starts_with_bos && tokenizer_.special().add_bos, true);
    if (ids.empty()) throw UsageError("the chat renders to no tokens");

    size_t reuse = 0;
    if (options_.prefix_reuse) {
        while (reuse < ids.size() && reuse < tokens_.size() && ids[reuse] == tokens_[reuse]) ++reuse;
        if (reuse == ids.size()) --reuse;  // at least one token is fed, for the next logits
    }
    const std::string reply = reply_in_progress();
    const std::vector<int32_t> dropped(tokens_.begin() + std::ptrdiff_t(reuse), tokens_.end());
    tokens_.resize(reuse);
    try {
        const int32_t turn = current_turn() + 1;
        const std::span<const int32_t> rest(ids.data() + reuse, ids.size() - reuse);
        const trace::StepTrace& s = step(rest, Phase::Prefill, Choice::Prompt, int32_t(reuse), turn);
        if (!chat_.empty()) chat_.back().reply = reply;
        chat_.push_back({user_text, {}, int32_t(tokens_.size())});
        chat_steps_[s.index] = {user_text, reply};
        return s;
    } catch (...) {
        // A cancelled forward cut the cache to the common prefix: put the dropped positions
        // back, untraced and uncancellable, so the session is exactly as before (they are few:
        // the tail where the re-tokenized history departs from the generated tokens).
        tokens_.insert(tokens_.end(), dropped.begin(), dropped.end());
        if (backend_.kv_tokens() != int32_t(tokens_.size())) restore_cache(tokens_, int32_t(tokens_.size()));
        throw;
    }
}

int32_t Session::current_turn() const { return head_ >= 0 ? trace_.step(head_).turn : 0; }

bool Session::ends_turn() const {
    if (!pending_) return false;
    const tok::SpecialTokens& sp = tokenizer_.special();
    return *pending_ == sp.eos || *pending_ == sp.eot;
}

}  // namespace lmscope::engine
