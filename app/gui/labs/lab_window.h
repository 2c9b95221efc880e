// The labs' own window: one tab per lab of lab_registry(), so a lab gets the whole screen of a
// projector while the step-through window stays as it was. The main window's Labs menu opens
// it at a lab.
#pragma once

#include "gui/labs/lab_registry.h"

#include <QList>
#include <QWidget>

class QTabWidget;

namespace lmscope::gui::labs {

class Lab;
class LabHost;

class LabWindow : public QWidget {
    Q_OBJECT
public:
    // `parent` (the main window) owns it; it is still a window of its own.
    LabWindow(LabHost* host, QWidget* parent);
    const QList<Lab*>& labs() const { return labs_; }  // in the registry's order
    Lab* lab(LabId id) const;
    // The lab of `id` as its class L (the registry makes it one).
    template <class L> L* lab(LabId id) const { return static_cast<L*>(lab(id)); }
    QTabWidget* tabs() const { return tabs_; }
    // Puts `banner` (a strip such as the lab's first-run hint) above the tabs.
    void addBanner(QWidget* banner);

public slots:
    // Shows the window (raised) at lab `index`.
    void showLab(int index);
    void showLab(LabId id);

signals:
    void labTitlesChanged();  // the language changed: menu texts follow

protected:
    void changeEvent(QEvent* event) override;

private:
    void add(Lab* lab);
    void addShortcuts();  // Ctrl+Alt+1 … 5 (a lab), Ctrl+W (close)
    void retranslate();

    QTabWidget* tabs_;
    QList<Lab*> labs_;
};

}  // namespace lmscope::gui::labs
