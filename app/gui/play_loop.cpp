#include "gui/play_loop.h"

#include "gui/step_controls.h"

#include <QAction>
#include <QApplication>
#include <QStyle>

#include <algorithm>

namespace lmscope::gui {

PlayLoop::PlayLoop(QAction* play, const StepControls* controls, QObject* parent)
    : QObject(parent), play_(play), controls_(controls) {
    timer_.setSingleShot(true);
    connect(&timer_, &QTimer::timeout, this, [this] {
        if (playing_) emit stepDue();
    });
}

void PlayLoop::setPlaying(bool on, bool usable) {
    playing_ = on && usable;
    play_->setChecked(playing_);
    retranslate();
    emit changed();
    if (!playing_) {
        timer_.stop();
        return;
    }
    if (!in_flight_) emit stepDue();
}

void PlayLoop::stop() {
    setPlaying(false, false);
    if (in_flight_) emit cancelRequested();
}

void PlayLoop::waitForEngine() {
    in_flight_ = true;
    emit changed();
}

void PlayLoop::engineIdle() {
    in_flight_ = false;
    emit changed();
    if (!playing_) timer_.stop();
}

void PlayLoop::stepped() {
    engineIdle();
    if (playing_) timer_.start(1000 / std::max(1, controls_->speed()));
}

void PlayLoop::shutdown() {
    playing_ = false;
    timer_.stop();
}

void PlayLoop::retranslate() {
    play_->setText(playing_ ? tr("Pause") : tr("Play"));
    play_->setIcon(QApplication::style()->standardIcon(playing_ ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    play_->setToolTip(playing_ ? tr("Pause after the running step (P)") : tr("Step repeatedly at the chosen speed (P)"));
}

}  // namespace lmscope::gui
