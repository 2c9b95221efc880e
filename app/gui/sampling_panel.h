// The "Sampling" dock: temperature, top-k, top-p, min-p and seed (applied to the running
// session at once), and the engine's backend, thread count and KV cache type (applied by
// reloading the model). Remembered in QSettings.
#pragma once

#include "gui/engine_worker.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QSpinBox;

namespace lmscope::gui {

class SamplingPanel : public QWidget {
    Q_OBJECT
public:
    // `backends`: the names the engine knows ("cpu" first).
    explicit SamplingPanel(const QStringList& backends, QWidget* parent = nullptr);

    // The shown settings over engine::lesson_sampling() (the fields the panel does not show
    // keep its values).
    engine::SamplerSettings sampling() const;
    EngineOptions engineOptions() const;
    void setSampling(const engine::SamplerSettings& s);
    void setEngineOptions(const EngineOptions& e);
    // The loaded model's own context length (the most the context may be set to) and the KV
    // bytes of one position, for the context's tooltip ("2,048 positions: 90 MiB of KV cache").
    void setModelLimits(int n_ctx_train, quint64 kv_bytes_per_token);
    void saveSettings() const;
    // What could not be restored ("" when all was): a saved value the panel does not know.
    QString restoreSettings();
    void retranslate();

signals:
    void samplingChanged(const lmscope::engine::SamplerSettings& s);
    void engineOptionsChanged(const lmscope::gui::EngineOptions& e);

private:
    QDoubleSpinBox* temperature_;
    QSpinBox* top_k_;
    QDoubleSpinBox* top_p_;
    QDoubleSpinBox* min_p_;
    QSpinBox* seed_;
    QComboBox* kv_type_;
    QDoubleSpinBox* kv_offload_;  // MiB of KV kept in memory; 0: off
    QSpinBox* context_;
    quint64 kv_bytes_per_token_ = 0;
    QSpinBox* threads_;
    QComboBox* backend_;
    QFormLayout* form_;
};

}  // namespace lmscope::gui
