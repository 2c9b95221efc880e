#include "gui/labs/lab_host.h"

namespace lmscope::gui::labs {

LabHost::LabHost(widgets::TraceModel* live, QObject* parent) : QObject(parent), live_(live) {
    qRegisterMetaType<LabModelPtr>();
}

void LabHost::setModel(const LabModelPtr& model) {
    model_ = model;
    emit modelChanged(model_);
}

}  // namespace lmscope::gui::labs
