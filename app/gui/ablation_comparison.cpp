#include "gui/ablation_comparison.h"

#include "gui/ablation_compare.h"
#include "tokenizer/tokenizer.h"
#include "widgets/logits_view.h"
#include "widgets/trace_model.h"

namespace lmscope::gui {

namespace {
constexpr int32_t kTop = 5;  // the tokens the panel lists
}

AblationComparison::AblationComparison(widgets::TraceModel* trace, widgets::LogitsView* view, QObject* parent)
    : QObject(parent), trace_(trace), view_(view), runner_(new JobRunner(this, QStringLiteral("lmscope with and without"))) {
    connect(runner_, &JobRunner::failed, this, [this](const JobError& error) {
        if (!key_) return;
        widgets::AblationComparisonView v;
        v.state = widgets::AblationComparisonView::State::Failed;
        v.step = key_->step;
        v.heads = key_->heads;
        v.error = error.text();
        view_->setComparison(v);
    });
    connect(trace_, &widgets::TraceModel::currentStepChanged, this, &AblationComparison::update);
    connect(trace_, &widgets::TraceModel::stepsReset, this, &AblationComparison::update);
}

void AblationComparison::setSession(const LabModelPtr& model, const EngineOptions& engine) {
    model_ = model;
    engine_ = engine;
    ++generation_;
    update();
}

void AblationComparison::update() {
    const widgets::StepView* s = trace_->current();
    const LabModelPtr runnable = model_;
    if (!s || s->ablated.isEmpty() || !runnable) {
        runner_->abandon();
        key_.reset();
        view_->setComparison({});
        return;
    }
    Key key{generation_, s->index, {}, s->ablated};
    std::vector<AblationPathStep> path;
    for (const qint32 i : trace_->path()) {
        const widgets::StepView* v = trace_->step(i);
        AblationPathStep p;
        p.first_pos = v->first_pos;
        key.ids.push_back(-1 - v->first_pos);  // where the step's tokens go is part of the sequence
        for (const widgets::TokenView& t : v->tokens) {
            p.tokens.push_back(t.id);
            key.ids.push_back(t.id);
        }
        p.ablated.assign(v->ablated.begin(), v->ablated.end());
        path.push_back(std::move(p));
    }
    if (key_ == key) return;  // shown, or being computed
    key_ = key;
    widgets::AblationComparisonView computing;
    computing.state = widgets::AblationComparisonView::State::Computing;
    computing.step = key.step;
    computing.heads = key.heads;
    view_->setComparison(computing);
    runner_->start(
        [runnable, path = std::move(path), engine = engine_](const JobContext& job) {
            return compare_ablation(runnable, path, kTop, job.token(), engine);
        },
        [this, key, runnable](const AblationCompareResult& r) {
            if (key_ != key) return;  // an older step or sequence: never shown
            widgets::AblationComparisonView v;
            v.state = widgets::AblationComparisonView::State::Ready;
            v.step = key.step;
            v.heads = key.heads;
            v.kl = r.compared.kl_ab;
            for (const analysis::TokenProbs& e : r.compared.top_a)
                v.top.push_back({e.id, QString::fromStdString(runnable->tokenizer->token_bytes(e.id, true)), e.p_a, e.p_b});
            view_->setComparison(v);
        });
}

}  // namespace lmscope::gui
