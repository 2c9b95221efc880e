// The base of every lab tab: it knows the LabHost (the model, the live trace), follows the
// model as it changes and retranslates itself when the language changes. A lab's engine work
// runs as a JobRunner job (gui/job_runner.h), which a new run, a new model and the lab's
// destruction cancel.
#pragma once

#include "gui/engine_setup.h"
#include "gui/labs/lab_registry.h"

#include <QString>
#include <QWidget>

#include <functional>

class QLabel;
class QTableWidget;

namespace lmscope::gui::labs {

class LabHost;

class Lab : public QWidget {
    Q_OBJECT
public:
    Lab(LabId id, LabHost* host, QWidget* parent = nullptr);

    LabId id() const { return id_; }
    // The tab's text, in the current language (its row of lab_registry()).
    QString title() const { return lab_title(id_); }
    LabHost* host() const { return host_; }
    LabModelPtr model() const;  // the host's model; null when none is loaded
    const EngineOptions& engine() const;  // the host's engine: where the lab's runs go

signals:
    void titleChanged();

protected:
    // Called when the host's model changes (also once from the constructor's first event-loop
    // turn when a model is already loaded). `model` may be null.
    virtual void modelChanged(const LabModelPtr& model) = 0;
    // Sets every user-visible string again (called on QEvent::LanguageChange).
    virtual void retranslate() = 0;
    void changeEvent(QEvent* event) override;

private:
    LabId id_;
    LabHost* host_;
};

// Sets the table's column headers, each with its text as a tooltip too: a column narrowed below
// its header's text (a narrow lab) still says it in full.
void set_column_headers(QTableWidget* table, const QStringList& headers);

// A label whose text is made from the lab's state, in the language installed when it is made:
// set() shows it and keeps how it is made; refresh() makes it again (the lab's retranslate()
// calls it, so a language change never leaves the words tr() gave before it).
class StateText {
public:
    StateText();  // a new label, for the lab's layout (which owns it then)
    QLabel* label() const { return label_; }
    void set(std::function<QString()> make);
    void refresh() const;

private:
    QLabel* label_;
    std::function<QString()> make_;
};

}  // namespace lmscope::gui::labs
