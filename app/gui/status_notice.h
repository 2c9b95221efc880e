// The status bar's passing notices ("Ready: …", "Stopped", "Saved the trace to …"): each shown
// for its time, elided in the middle to the room the permanent fields leave (the whole text as
// the bar's tooltip then), and elided again whenever that room changes while it shows (the
// window resized, stage mode), so a notice is never cut at the edge.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>

class QStatusBar;

namespace lmscope::gui {

class StatusNotice : public QObject {
    Q_OBJECT
public:
    explicit StatusNotice(QStatusBar* bar);

    // Shows `text` for `timeout_ms` (0: until the next notice).
    void show(const QString& text, int timeout_ms = 0);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fit();  // shows the notice elided to the room there is now, for the time it has left

    QStatusBar* bar_;
    QString text_;
    int timeout_ms_ = 0;
    QElapsedTimer shown_;  // since show()
};

}  // namespace lmscope::gui
