#include "gui/labs/lab_model.h"

#include "engine/model.h"
#include "engine/prepared_model.h"

#include <QFileInfo>

namespace lmscope::gui::labs {

LabModelPtr lab_model_of(const QString& path, engine::PreparedModel prepared) {
    auto lab = std::make_shared<LabModel>();
    lab->path = path;
    lab->name = QFileInfo(path).completeBaseName();
    lab->model = std::move(prepared.model);
    lab->tokenizer = std::move(prepared.tokenizer);
    return lab;
}

LabModelPtr load_lab_model(const QString& path) {
    return lab_model_of(path, engine::prepare_model(path.toStdString()));
}

}  // namespace lmscope::gui::labs
