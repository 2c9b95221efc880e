// Play: a step at a time at the chosen speed, the next asked for only after the previous one is
// done; and whether the engine works on a request now (Step and the rest wait for it). The
// loop owns the Play/Pause action's look; what a step is, it does not know: it asks for one
// with stepDue() and hears back through stepped() or engineIdle().
#pragma once

#include <QObject>
#include <QTimer>

class QAction;

namespace lmscope::gui {

class StepControls;

class PlayLoop : public QObject {
    Q_OBJECT
public:
    // `play` is the checkable Play/Pause action; `controls` gives the speed.
    PlayLoop(QAction* play, const StepControls* controls, QObject* parent = nullptr);

    bool isPlaying() const { return playing_; }
    bool inFlight() const { return in_flight_; }
    // Play on (only when `usable`: there is something to step) or off; turned on while nothing
    // runs, it asks for a step at once.
    void setPlaying(bool on, bool usable);
    // Pauses; a request that runs is to be cancelled (cancelRequested).
    void stop();
    // A request went to the engine: Step and the rest wait for it.
    void waitForEngine();
    // The engine finished, stopped or failed the request.
    void engineIdle();
    // The step asked for is done: idle, and Play asks for the next after its interval.
    void stepped();
    // The window closes: no more steps.
    void shutdown();
    void retranslate();  // Play or Pause

signals:
    void stepDue();          // Play wants the next step
    void cancelRequested();  // Stop while the engine works on a request
    void changed();          // playing or in flight changed: the actions follow

private:
    QAction* play_;
    const StepControls* controls_;
    QTimer timer_;  // the interval between the steps of Play
    bool playing_ = false;
    bool in_flight_ = false;
};

}  // namespace lmscope::gui
