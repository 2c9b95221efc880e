#include "gui/loaded_model.h"

#include "engine/prepared_model.h"
#include "gguf/gguf.h"
#include "widgets/format.h"

#include <QElapsedTimer>
#include <QFile>

namespace lmscope::gui {

namespace {

constexpr size_t kMaxArrayItems = 8;  // array values show their first items only
constexpr qsizetype kMaxKeyChars = 120;  // longer keys are elided (the whole key is the tooltip)

widgets::MetadataRow metadata_row(const std::string& key, const gguf::Value& v) {
    widgets::MetadataRow row;
    const QString whole = QString::fromStdString(key);  // a key may be a megabyte long
    row.key = widgets::elided(whole, kMaxKeyChars);
    if (row.key.size() != whole.size()) row.key_tip = widgets::tooltip_text(whole);
    if (!v.is_array()) {
        row.type = QString::fromLatin1(gguf::value_type_name(v.type()));
        row.value = QString::fromStdString(v.to_display());
        return row;
    }
    const gguf::Value::Array& a = v.as_array();
    // "string[49152]": element type and count; the value lists the first items.
    row.type = QStringLiteral("%1[%2]")
                   .arg(QString::fromLatin1(gguf::value_type_name(a.elem_type)))
                   .arg(a.items.size());
    if (a.items.size() <= kMaxArrayItems) {
        row.value = QString::fromStdString(v.to_display(kMaxArrayItems));
    } else {
        const gguf::Value head = gguf::Value::array(
            a.elem_type, {a.items.begin(), a.items.begin() + kMaxArrayItems});
        row.value = QString::fromStdString(head.to_display(kMaxArrayItems));
        row.value.insert(row.value.size() - 1, QStringLiteral(", …"));
    }
    return row;
}

}  // namespace

LoadedModel load_model(const QString& path) {
    QElapsedTimer timer;
    timer.start();
    gguf::File file = gguf::File::open(QFile::encodeName(path).toStdString());
    LoadedModel m;
    m.path = path;
    m.summary = model::ModelSummary::of(file);
    m.tensors.reserve(qsizetype(m.summary.tensors.size()));
    for (const model::TensorSummary& t : m.summary.tensors) {
        widgets::TensorRow row;
        row.name = QString::fromStdString(t.name);
        row.type = QString::fromStdString(t.type);
        row.shape = QList<qint64>(t.dims.begin(), t.dims.end());
        row.bytes = t.bytes;
        m.tensors.push_back(std::move(row));
    }
    m.metadata.reserve(qsizetype(file.metadata().size()));
    for (const auto& [key, value] : file.metadata()) m.metadata.push_back(metadata_row(key, value));
    // The window shows models the engine can run: a file it would refuse (another
    // architecture, inconsistent metadata, a tensor missing or misshapen, a broken vocabulary)
    // fails to open with that error, and the previous model stays.
    m.runnable = lab_model_of(path, engine::prepare_model(std::move(file)));
    m.load_ms = timer.elapsed();
    return m;
}

}  // namespace lmscope::gui
