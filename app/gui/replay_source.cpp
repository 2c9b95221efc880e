#include "gui/replay_source.h"

#include "widgets/trace_model.h"

#include <QFileInfo>

namespace lmscope::gui {

ReplaySource::ReplaySource(ReplayPtr replay, widgets::TraceModel* model, QObject* parent)
    : StepSource(parent), replay_(std::move(replay)), model_(model) {}

bool ReplaySource::step() {
    const qint32 current = model_->currentStep();
    const QVector<qint32> branch = model_->branchPath();
    const qsizetype at = branch.indexOf(current);
    if (at >= 0 && at + 1 < branch.size()) {
        model_->setCurrentStep(branch[at + 1]);  // walk forward along the shown branch
    } else if (next_ < replay_->steps.size()) {
        model_->appendStep(replay_->steps[next_++]);
    } else {
        emit stopPlay();
        emit message(tr("End of the trace"));
    }
    emit statusChanged();
    emit applied();
    emit stepped();
    return false;
}

bool ReplaySource::reset() {
    model_->clear();
    model_->setModel(replay_->model);
    next_ = 0;
    emit statusChanged();
    return false;
}

bool ReplaySource::rewindTo(qint32 step) {
    model_->setCurrentStep(step);
    emit statusChanged();
    return false;
}

SourceStatus ReplaySource::status() const {
    const widgets::StepView* s = model_->current();
    SourceStatus out;
    out.text[std::size_t(StatusField::Source)] = tr("Replay: %1").arg(QFileInfo(replay_->path).fileName());
    out.text[std::size_t(StatusField::Tokens)] = tr("Step %1 of %2").arg(model_->currentStep() + 1).arg(replay_->steps.size());
    out.text[std::size_t(StatusField::KvBytes)] = s ? kvText(s->kv.bytes_total) : QString();
    return out;
}

}  // namespace lmscope::gui
