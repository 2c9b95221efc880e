#include "gui/labs/lab_model.h"

#include "engine/model.h"
#include "engine/prepared_model.h"

#include <QFileInfo>

namespace lmscope::gui::labs {

LabModelPtr load_lab_model(const QString& path) {
    auto lab = std::make_shared<LabModel>();
    lab->path = path;
    lab->name = QFileInfo(path).completeBaseName();
    engine::PreparedModel prepared = engine::prepare_model(path.toStdString());
    lab->model = std::move(prepared.model);
    lab->tokenizer = std::move(prepared.tokenizer);
    return lab;
}

}  // namespace lmscope::gui::labs
