// The step-through session's part of the status bar: its figures (the backend or the trace
// replayed, the tokens, the KV cache's bytes, the speed: StatusField, from the StepSource) and,
// while a prefill runs, its progress bar (layers done, tokens, time, speed).
#pragma once

#include "gui/job_runner.h"
#include "gui/step_source.h"

#include <QObject>
#include <QString>

#include <array>

class QLabel;
class QProgressBar;
class QStatusBar;

namespace lmscope::gui {

class SessionStatus : public QObject {
    Q_OBJECT
public:
    // Adds the progress bar and the figures (permanent, at the right) to `bar`.
    explicit SessionStatus(QStatusBar* bar);

    void show(const SourceStatus& status);
    QString text(StatusField field) const;

    // Layers done of the running prefill, with its tokens, time and speed.
    void showPrefill(const JobProgress& progress);
    void hidePrefill();  // the prefill is over
    const QProgressBar* prefillBar() const { return prefill_bar_; }

private:
    QLabel* field(StatusField f) const { return fields_[std::size_t(f)]; }

    std::array<QLabel*, kStatusFields> fields_{};  // by StatusField
    QProgressBar* prefill_bar_;                     // hidden while no prefill runs
};

}  // namespace lmscope::gui
