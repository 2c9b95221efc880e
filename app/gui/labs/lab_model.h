// The loaded model as the labs use it: the engine's Model (immutable, shared with every backend
// a lab makes) and its Tokenizer. The labs run their own short sessions beside the main one, so
// they never wait for, or disturb, the step-through session on the engine thread.
#pragma once

#include <QMetaType>
#include <QString>

#include <memory>

namespace lmscope::engine {
class Model;
struct PreparedModel;
}
namespace lmscope::tok {
class Tokenizer;
}

namespace lmscope::gui::labs {

struct LabModel {
    QString path;
    QString name;                                     // file name without the extension
    std::shared_ptr<const engine::Model> model;
    std::shared_ptr<const tok::Tokenizer> tokenizer;  // encode/decode are const and thread-safe
};
using LabModelPtr = std::shared_ptr<const LabModel>;

// Opens and validates the GGUF file and builds its tokenizer. Slow for large files: call it off
// the UI thread. Throws lmscope::Error (FormatError names the file, the field and the reason).
LabModelPtr load_lab_model(const QString& path);
// The same from a model already prepared (the window's open: the file is parsed once).
LabModelPtr lab_model_of(const QString& path, engine::PreparedModel prepared);

}  // namespace lmscope::gui::labs

Q_DECLARE_METATYPE(lmscope::gui::labs::LabModelPtr)
