#include "gui/live_source.h"

#include "gui/step_controls.h"
#include "widgets/trace_model.h"

#include <QLocale>

namespace lmscope::gui {

namespace {
constexpr int kRefreshMs = 30;  // snapshots arriving within this window share one redraw
}

LiveSource::LiveSource(EngineWorker* engine, widgets::TraceModel* model, const StepControls* controls, EngineInfo info,
                       QObject* parent)
    : StepSource(parent), engine_(engine), model_(model), controls_(controls), info_(std::move(info)) {
    refresh_.setSingleShot(true);
    refresh_.setInterval(kRefreshMs);
    connect(&refresh_, &QTimer::timeout, this, &LiveSource::applyPending);
    connect(engine_, &EngineWorker::stepDone, this, &LiveSource::onStepDone);
}

bool LiveSource::step() {
    if (!usable()) {
        emit message(tr("Open a model (Ctrl+O) or a trace (Ctrl+Shift+O) first."));
        return false;
    }
    flushPending();  // the pick to feed is the latest one (new sampler settings pick again)
    const QString prompt = controls_->prompt();
    if (engine_head_ < 0 || prompt != run_prompt_) return startRun(prompt);
    if (ends_turn_) {
        emit stopPlay();
        emit message(tr("The reply has ended; Reset to start again."));
        return false;
    }
    decodeNext(model_->current() ? model_->current()->logits.chosen : -1);
    return true;
}

bool LiveSource::startRun(const QString& prompt) {
    if (prompt.isEmpty()) {
        emit stopPlay();
        emit message(tr("Type a prompt first: Step reads it, splits it into tokens and runs the model on them."));
        return false;
    }
    if (engine_head_ >= 0) emit message(tr("The prompt has changed: this Step starts a new run from it."));
    // The engine empties its cache before it prefills (and stays empty when the prefill is
    // stopped): every panel shows that at once.
    flushPending();
    engine_head_ = -1;
    ends_turn_ = false;
    last_.reset();
    model_->clearCurrentStep();
    emit statusChanged();
    run_prompt_ = prompt;
    engine_->prefill(prompt);
    return true;
}

void LiveSource::decodeNext(qint32 token) {
    // The step after the current one already fed this token (a rewind came back here): walk
    // on to it instead of computing a duplicate branch.
    flushPending();
    for (const widgets::StepView& v : model_->steps()) {
        if (v.parent != engine_head_ || v.phase != Phase::Decode || v.tokens.isEmpty() || v.tokens.front().id != token)
            continue;
        const qint32 child = v.index;
        engine_->rewind(child);
        return;
    }
    engine_->step();
}

bool LiveSource::reset() {
    if (!usable() || (engine_head_ < 0 && model_->stepCount() == 0)) return false;
    engine_->reset();
    return true;
}

bool LiveSource::forceToken(qint32 id) {
    if (engine_head_ < 0) return false;
    engine_->force(id);
    ends_turn_ = false;
    decodeNext(id);
    return true;
}

bool LiveSource::recompute(qint32 step) {
    flushPending();
    const widgets::StepView* v = model_->step(step);
    if (!usable() || !v || v->tokens.isEmpty()) return false;
    emit stopPlay();
    ends_turn_ = false;
    const widgets::StepView* parent = model_->step(v->parent);
    if (v->phase == Phase::Prefill || !parent) {  // the run's prompt, prefilled again
        if (run_prompt_.isEmpty()) return false;
        engine_head_ = -1;
        last_.reset();
        model_->clearCurrentStep();
        emit statusChanged();
        engine_->prefill(run_prompt_);
        return true;
    }
    // Back to the parent, then the same token decoded again (a new branch beside the old step).
    const qint32 p = parent->index, token = v->tokens.front().id;
    const bool forced = parent->logits.chosen != token;
    engine_->rewind(p);
    if (forced) engine_->force(token);
    engine_->step();
    return true;
}

bool LiveSource::rewindTo(qint32 step) {
    if (!usable()) return false;
    emit stopPlay();
    engine_->rewind(step);
    return true;
}

void LiveSource::rerun(const RerunPlan& plan) {
    run_prompt_ = plan.prompt_text;
    engine_->rerun(plan.prompt, plan.generated);
}

std::optional<RerunPlan> LiveSource::rerunPlan() const {
    const QVector<qint32> path = model_->path();
    if (path.isEmpty()) return std::nullopt;
    RerunPlan plan{run_prompt_, {}, {}};
    for (const widgets::TokenView& t : model_->step(path.front())->tokens) plan.prompt.push_back(t.id);
    for (qsizetype i = 1; i < path.size(); ++i) plan.generated.push_back(model_->step(path[i])->tokens.front().id);
    return plan;
}

void LiveSource::onStepDone(const SnapshotPtr& snapshot) {
    pending_ << snapshot;
    ends_turn_ = snapshot->ends_turn;
    if (!refresh_.isActive()) refresh_.start();
    if (snapshot->kind == EngineSnapshot::Kind::Repick) return;  // not a step: nothing ran that the view waits for
    last_ = snapshot;
    engine_head_ = snapshot->head;
    if (ends_turn_) emit stopPlay();
    emit stepped();
}

void LiveSource::flushPending() {
    if (pending_.isEmpty()) return;
    refresh_.stop();
    applyPending();
}

void LiveSource::applyPending() {
    for (const SnapshotPtr& s : std::as_const(pending_)) {
        for (qint32 i : s->dropped) model_->dropPlanes(i);
        for (const widgets::StepView& v : s->new_steps) model_->appendStep(v);
        if (s->kind == EngineSnapshot::Kind::Rewind && s->head >= 0) model_->setCurrentStep(s->head);
        if (s->kind == EngineSnapshot::Kind::Reset) model_->clear();  // a new session: no branches
        if (s->repicked) model_->setStepLogits(s->head, *s->repicked);
    }
    pending_.clear();
    emit statusChanged();
    emit applied();
}

SourceStatus LiveSource::status() const {
    SourceStatus out;
    out.text[std::size_t(StatusField::Source)] = info_.backend;
    const qint32 tokens = last_ ? last_->kv_tokens : 0;
    out.text[std::size_t(StatusField::Tokens)] = info_.n_ctx > 0 ? tr("%1 / %Ln token(s)", nullptr, info_.n_ctx).arg(tokens)
                                                                 : tr("%n token(s)", nullptr, tokens);
    if (info_.n_ctx > 0)
        out.tokens_tip = tr("Tokens in the KV cache / the context limit in force (the model's own: %1)")
                             .arg(QLocale().toString(info_.model.n_ctx_train));
    out.text[std::size_t(StatusField::KvBytes)] = kvText(last_ ? last_->kv_bytes : 0);
    if (last_ && last_->tokens_per_s > 0)
        out.text[std::size_t(StatusField::Speed)] = tr("%1 tokens/s").arg(last_->tokens_per_s, 0, 'f', 1);
    return out;
}

}  // namespace lmscope::gui
