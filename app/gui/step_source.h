// Where the step-through window's steps come from. SessionController drives one StepSource and does
// not ask which: LiveSource (live_source.h) computes each step on the engine, ReplaySource
// (replay_source.h) walks through the steps of a trace file opened without a model. Both put
// their steps into the window's one TraceModel, so the panels cannot tell them apart.
//
// A request either finishes at once or asks the engine: then it returns true and the view
// waits (Step and the rest disabled) until the source emits stepped(), or the engine reports
// cancelled() or error().
#pragma once

#include <QObject>
#include <QString>
#include <QVector>

#include <array>
#include <cstddef>
#include <optional>

namespace lmscope::gui {

// The session's figures in the status bar, left to right: the backend (or the trace replayed),
// the tokens, the KV cache's bytes, the speed.
enum class StatusField { Source, Tokens, KvBytes, Speed };
constexpr std::size_t kStatusFields = 4;

struct SourceStatus {
    std::array<QString, kStatusFields> text;  // by StatusField
    QString tokens_tip;                       // the Tokens field's tooltip
};

// A live session's path, to run again on a new engine: the prompt's text and tokens and the
// tokens generated after it.
struct RerunPlan {
    QString prompt_text;
    QVector<qint32> prompt, generated;
};

class StepSource : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    // Step, Play and Reset have something to act on (a model loaded, a trace).
    virtual bool usable() const = 0;
    virtual bool isReplay() const = 0;
    // The next step: computed, or the trace's next.
    virtual bool step() = 0;
    // Back to before the first step.
    virtual bool reset() = 0;
    // `step` becomes the current step.
    virtual bool rewindTo(qint32 step) = 0;
    // The next step feeds `id` instead of the sampler's pick (a replay cannot).
    // Runs step `step` again with the heads switched off now: rewinds to its parent and feeds
    // the same token (a prefill: the same prompt). False when the source cannot (a replay).
    virtual bool recompute(qint32 step) {
        Q_UNUSED(step);
        return false;
    }
    virtual bool forceToken(qint32 id) = 0;
    // The path to run again when the engine changes; none without steps or in a replay.
    virtual std::optional<RerunPlan> rerunPlan() const = 0;
    // The status bar's figures in the language installed now.
    virtual SourceStatus status() const = 0;

signals:
    void message(const QString& text);  // for the status bar
    void stopPlay();                    // Play stops (the reply or the trace has ended, ...)
    void stepped();                     // the step asked for is done: Play may go on
    void statusChanged();
    void applied();  // the TraceModel shows the source's latest steps

protected:
    static QString kvText(quint64 bytes);  // "KV 1.2 MiB"
};

}  // namespace lmscope::gui
