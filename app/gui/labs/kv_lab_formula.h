// The KV cache lab's formula panel: 2 x layers x KV heads x head dim x tokens x bytes, every
// factor an editable field, filled from a preset (core/kv/presets.h) or the loaded model's
// shape (selected when a model loads), with the result in bytes, GB and GiB, updated live.
#pragma once

#include "gui/labs/kv_lab_common.h"
#include "gui/engine_setup.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QSpinBox;

namespace lmscope::gui::labs {

class KvFormulaPanel : public QWidget {
    Q_OBJECT
public:
    explicit KvFormulaPanel(QWidget* parent = nullptr);

    KvChoice choice() const { return choice_; }
    uint64_t bytes() const { return bytes_; }  // the result shown; 0 when the fields are invalid
    // Adds (or removes, when null) the loaded model's entry and selects it.
    void setLoadedModel(const LabModelPtr& model);
    void retranslate();

public slots:
    // A preset name ("llama-3.1-70b"), "model" for the loaded model or "custom". False when
    // there is no such entry.
    bool setPreset(const QString& name);
    // A KV type's name (kv_type_name); false for anything else.
    bool setCacheType(const QString& name);
    void setShape(int layers, int heads, int kv_heads, int head_dim);
    void setTokens(int tokens);
    void setBatch(int batch);

signals:
    void changed();  // the choice or its validity changed

private:
    void fillPresets();
    void applyEntry();   // copies the selected entry's shape into the fields
    void fieldsEdited(); // a field changed: maybe "custom", then recompute
    void recompute();

    QComboBox* preset_;
    QComboBox* type_;
    QSpinBox* layers_;
    QSpinBox* heads_;
    QSpinBox* kv_heads_;
    QSpinBox* head_dim_;
    QSpinBox* local_;    // sliding-window layers (0: none)
    QSpinBox* window_;   // their window in tokens (0: none)
    QSpinBox* tokens_;
    QSpinBox* batch_;
    QDoubleSpinBox* params_;
    QLabel* formula_;
    QLabel* bytes_label_;
    QLabel* gb_label_;
    QLabel* gib_label_;
    QLabel* per_token_;
    QLabel* kind_;
    QLabel* error_;
    QLabel* explain_;
    QGroupBox* result_box_;
    QList<QLabel*> field_labels_;

    LabModelPtr model_;
    kv::Shape model_shape_;
    uint64_t model_context_ = 0;
    uint64_t model_params_ = 0;
    KvChoice choice_;
    uint64_t bytes_ = 0;
    bool applying_ = false;  // fields are being set from an entry
};

}  // namespace lmscope::gui::labs
