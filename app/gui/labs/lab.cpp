#include "gui/labs/lab.h"

#include "gui/labs/lab_host.h"

#include <QEvent>
#include <QLabel>
#include <QTableWidget>
#include <QTimer>

namespace lmscope::gui::labs {

Lab::Lab(LabId id, LabHost* host, QWidget* parent) : QWidget(parent), id_(id), host_(host) {
    connect(host_, &LabHost::modelChanged, this, [this](const LabModelPtr& m) { modelChanged(m); });
    // The derived class is complete by the next event-loop turn.
    if (host_->model()) QTimer::singleShot(0, this, [this] { modelChanged(host_->model()); });
}

LabModelPtr Lab::model() const { return host_->model(); }
const EngineOptions& Lab::engine() const { return host_->engine(); }

void Lab::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        emit titleChanged();
    }
    QWidget::changeEvent(event);
}

void set_column_headers(QTableWidget* table, const QStringList& headers) {
    table->setHorizontalHeaderLabels(headers);
    for (int c = 0; c < table->columnCount() && c < headers.size(); ++c) table->horizontalHeaderItem(c)->setToolTip(headers[c]);
}

StateText::StateText() : label_(new QLabel) {}

void StateText::set(std::function<QString()> make) {
    make_ = std::move(make);
    refresh();
}

void StateText::refresh() const { label_->setText(make_ ? make_() : QString()); }

}  // namespace lmscope::gui::labs
