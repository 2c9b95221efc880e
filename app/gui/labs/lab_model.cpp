#include "gui/labs/lab_model.h"

#include "engine/model.h"
#include "tokenizer/tokenizer.h"

#include <QFileInfo>

namespace lmscope::gui::labs {

LabModelPtr load_lab_model(const QString& path) {
    auto lab = std::make_shared<LabModel>();
    lab->path = path;
    lab->name = QFileInfo(path).completeBaseName();
    lab->model = engine::Model::load(path.toStdString());
    lab->tokenizer = tok::load_tokenizer(lab->model->file());
    return lab;
}

}  // namespace lmscope::gui::labs
