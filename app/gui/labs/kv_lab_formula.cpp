#include "gui/labs/kv_lab_formula.h"

#include "engine/model.h"
#include "kv/presets.h"
#include "util/error.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QVBoxLayout>

#include <limits>

namespace lmscope::gui::labs {
namespace {

const QString kModelEntry = QStringLiteral("model");
const QString kCustomEntry = QStringLiteral("custom");

QSpinBox* count_box(const char* name, int max, int min = 1) {
    auto* box = new QSpinBox;
    box->setObjectName(QLatin1String(name));
    box->setRange(min, max);
    box->setGroupSeparatorShown(true);
    box->setAccelerated(true);
    return box;
}

QString qstr(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

uint64_t parameter_count(const engine::Model& model) {
    uint64_t n = 0;
    for (const gguf::TensorInfo& t : model.file().tensors()) n += uint64_t(t.n_elements());
    return n;
}

}  // namespace

KvFormulaPanel::KvFormulaPanel(QWidget* parent)
    : QWidget(parent),
      preset_(new QComboBox),
      type_(new QComboBox),
      layers_(count_box("kvLayers", 4096)),
      heads_(count_box("kvHeads", 4096)),
      kv_heads_(count_box("kvKvHeads", 4096)),
      head_dim_(count_box("kvHeadDim", 16384)),
      local_(count_box("kvLocalLayers", 4096, 0)),
      window_(count_box("kvWindow", std::numeric_limits<int>::max(), 0)),
      tokens_(count_box("kvTokens", std::numeric_limits<int>::max())),
      batch_(count_box("kvBatch", 4096)),
      params_(new QDoubleSpinBox),
      formula_(new QLabel),
      bytes_label_(new QLabel),
      gb_label_(new QLabel),
      gib_label_(new QLabel),
      per_token_(new QLabel),
      kind_(new QLabel),
      error_(new QLabel),
      explain_(new QLabel),
      result_box_(new QGroupBox) {
    setObjectName(QStringLiteral("kvFormulaPanel"));
    preset_->setObjectName(QStringLiteral("kvPreset"));
    type_->setObjectName(QStringLiteral("kvCacheType"));
    params_->setObjectName(QStringLiteral("kvParams"));
    formula_->setObjectName(QStringLiteral("kvFormula"));
    bytes_label_->setObjectName(QStringLiteral("kvBytes"));
    gb_label_->setObjectName(QStringLiteral("kvGB"));
    gib_label_->setObjectName(QStringLiteral("kvGiB"));
    per_token_->setObjectName(QStringLiteral("kvPerToken"));
    kind_->setObjectName(QStringLiteral("kvKind"));
    error_->setObjectName(QStringLiteral("kvFormulaError"));

    preset_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    preset_->setMinimumContentsLength(16);  // long model names are elided, not widening the column
    params_->setDecimals(0);
    params_->setRange(0, 1e15);
    params_->setGroupSeparatorShown(true);
    for (KvType t : kKvTypes) type_->addItem(QString(), widgets::type_name_text(kv_type_name(t)));
    formula_->setWordWrap(true);
    formula_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_->setWordWrap(true);
    per_token_->setWordWrap(true);  // a sliding-window shape says two numbers
    kind_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #c0392b;"));
    explain_->setWordWrap(true);
    QFont big = gb_label_->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    gb_label_->setFont(big);
    for (QLabel* l : {bytes_label_, gb_label_, gib_label_, per_token_})
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* form = new QFormLayout;
    const auto row = [&](QWidget* field) {
        auto* label = new QLabel;
        label->setBuddy(field);
        field_labels_ << label;
        form->addRow(label, field);
    };
    // The model's name across the column, under its label: a narrow column (Stage mode) shows
    // it whole, not elided.
    auto* model_label = new QLabel;
    model_label->setBuddy(preset_);
    field_labels_ << model_label;
    form->addRow(model_label);
    form->addRow(preset_);
    row(layers_);
    row(heads_);
    row(kv_heads_);
    row(head_dim_);
    row(local_);
    row(window_);
    row(tokens_);
    row(batch_);
    row(type_);
    row(params_);

    auto* result = new QVBoxLayout(result_box_);
    result->addWidget(formula_);
    result->addWidget(gb_label_);
    result->addWidget(gib_label_);
    result->addWidget(bytes_label_);
    result->addWidget(per_token_);
    result->addWidget(kind_);
    result->addWidget(error_);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(result_box_);
    layout->addWidget(explain_);
    layout->addStretch(1);

    fillPresets();
    retranslate();
    connect(preset_, &QComboBox::currentIndexChanged, this, [this] { applyEntry(); });
    connect(type_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    for (QSpinBox* box : {layers_, heads_, kv_heads_, head_dim_, local_, window_, tokens_, batch_})
        connect(box, &QSpinBox::valueChanged, this, [this] { fieldsEdited(); });
    connect(params_, &QDoubleSpinBox::valueChanged, this, [this] { fieldsEdited(); });
    setPreset(QStringLiteral("llama-3.1-70b"));
}

void KvFormulaPanel::fillPresets() {
    const QString current = preset_->currentData().toString();
    QSignalBlocker block(preset_);
    preset_->clear();
    if (model_) preset_->addItem(tr("Loaded model: %1").arg(model_->name), kModelEntry);
    for (const kv::Preset& p : kv::presets()) preset_->addItem(qstr(p.label), qstr(p.name));
    preset_->addItem(tr("Custom"), kCustomEntry);
    const int index = preset_->findData(current);
    preset_->setCurrentIndex(index >= 0 ? index : 0);
}

void KvFormulaPanel::setLoadedModel(const LabModelPtr& model) {
    model_ = model;
    if (model) {
        const model::ModelSpec& spec = model->model->spec();
        model_shape_ = spec.kv_shape();
        model_context_ = uint64_t(std::max(1, spec.n_ctx_train()));
        model_params_ = parameter_count(*model->model);
    }
    fillPresets();
    if (!setPreset(model ? kModelEntry : QStringLiteral("llama-3.1-70b"))) applyEntry();
}

bool KvFormulaPanel::setPreset(const QString& name) {
    const int index = preset_->findData(name.toLower());
    if (index < 0) return false;
    if (index == preset_->currentIndex()) applyEntry();
    else preset_->setCurrentIndex(index);  // applyEntry() through the signal
    return true;
}

bool KvFormulaPanel::setCacheType(const QString& name) {
    const int index = type_->findData(name.toLower());
    if (index < 0) return false;
    type_->setCurrentIndex(index);
    return true;
}

void KvFormulaPanel::setShape(int layers, int heads, int kv_heads, int head_dim) {
    applying_ = true;
    layers_->setValue(layers);
    heads_->setValue(heads);
    kv_heads_->setValue(kv_heads);
    head_dim_->setValue(head_dim);
    applying_ = false;
    fieldsEdited();
}

void KvFormulaPanel::setTokens(int tokens) { tokens_->setValue(tokens); }
void KvFormulaPanel::setBatch(int batch) { batch_->setValue(batch); }

void KvFormulaPanel::applyEntry() {
    const QString entry = preset_->currentData().toString();
    kv::Shape shape;
    uint64_t context = 0, params = 0;
    if (entry == kModelEntry && model_) {
        shape = model_shape_, context = model_context_, params = model_params_;
    } else if (const kv::Preset* p = kv::find_preset(entry.toStdString())) {
        shape = p->shape, context = p->max_context, params = p->n_params;
    } else {
        recompute();  // "custom" keeps the fields as they are
        return;
    }
    const auto clamp = [](uint64_t v, const QSpinBox* box) {
        return int(std::min<uint64_t>(v, uint64_t(box->maximum())));
    };
    applying_ = true;
    layers_->setValue(clamp(shape.n_layer, layers_));
    heads_->setValue(clamp(shape.n_head, heads_));
    kv_heads_->setValue(clamp(shape.n_head_kv, kv_heads_));
    head_dim_->setValue(clamp(shape.head_dim, head_dim_));
    local_->setValue(clamp(shape.n_local, local_));
    window_->setValue(clamp(shape.window, window_));
    tokens_->setValue(clamp(context, tokens_));
    batch_->setValue(1);
    params_->setValue(double(params));
    applying_ = false;
    recompute();
}

void KvFormulaPanel::fieldsEdited() {
    if (applying_) return;
    // The fields no longer show the selected entry: it becomes "custom".
    const QString entry = preset_->currentData().toString();
    kv::Shape shape;
    bool known = true;
    if (entry == kModelEntry && model_) shape = model_shape_;
    else if (const kv::Preset* p = kv::find_preset(entry.toStdString())) shape = p->shape;
    else known = false;
    const bool same = known && uint64_t(layers_->value()) == shape.n_layer && uint64_t(heads_->value()) == shape.n_head &&
                      uint64_t(kv_heads_->value()) == shape.n_head_kv && uint64_t(head_dim_->value()) == shape.head_dim &&
                      uint64_t(local_->value()) == shape.n_local && uint64_t(window_->value()) == shape.window;
    if (known && !same) {
        QSignalBlocker block(preset_);
        preset_->setCurrentIndex(preset_->findData(kCustomEntry));
    }
    recompute();
}

void KvFormulaPanel::recompute() {
    KvChoice c;
    c.shape = {uint64_t(layers_->value()), uint64_t(heads_->value()), uint64_t(kv_heads_->value()),
               uint64_t(head_dim_->value()), uint64_t(local_->value()), uint64_t(window_->value())};
    c.type = kKvTypes[size_t(std::max(0, type_->currentIndex()))];
    c.tokens = uint64_t(tokens_->value());
    c.batch = uint64_t(batch_->value());
    c.n_params = uint64_t(params_->value());
    const QString entry = preset_->currentData().toString();
    c.label = entry == kCustomEntry                  ? tr("the custom shape")
              : (entry == kModelEntry && model_) ? model_->name
                                                 : preset_->currentText();
    c.loaded_model = entry == kModelEntry && model_;
    QString error;
    bytes_ = 0;
    try {
        kv::validate(c.shape, c.type);
        bytes_ = kv::cache_bytes(c.shape, c.type, c.tokens, c.batch);
        c.valid = true;
    } catch (const Error& e) {
        error = QString::fromUtf8(e.what());
    }
    choice_ = c;

    const QLocale loc;
    const double per_value = kv::bytes_per_element(c.type);
    QString formula =
        c.shape.n_local == 0
            ? tr("2 × %1 layers × %2 KV heads × %3 head dim × %4 tokens")
                  .arg(loc.toString(qulonglong(c.shape.n_layer)), loc.toString(qulonglong(c.shape.n_head_kv)),
                       loc.toString(qulonglong(c.shape.head_dim)), loc.toString(qulonglong(c.tokens)))
            : tr("2 × %1 KV heads × %2 head dim × (%3 global layers × %4 tokens + %5 local layers × %6 window tokens)")
                  .arg(loc.toString(qulonglong(c.shape.n_head_kv)), loc.toString(qulonglong(c.shape.head_dim)),
                       loc.toString(qulonglong(c.shape.n_layer - std::min(c.shape.n_local, c.shape.n_layer))),
                       loc.toString(qulonglong(c.tokens)), loc.toString(qulonglong(c.shape.n_local)),
                       loc.toString(qulonglong(std::min(c.tokens, c.shape.window))));
    if (c.batch > 1) formula += tr(" × %1 sequences").arg(loc.toString(qulonglong(c.batch)));
    formula += tr(" × %1 B").arg(loc.toString(per_value, 'g', 6));
    formula_->setText(formula);
    if (c.valid) {
        gb_label_->setText(format_gb(bytes_));
        gib_label_->setText(format_gib(bytes_));
        bytes_label_->setText(tr("%1 bytes").arg(format_byte_count(bytes_)));
        const uint64_t per_token = kv::bytes_per_token(c.shape, c.type);
        per_token_->setText(
            c.shape.n_local == 0
                ? tr("%1 bytes per token (all layers, K and V)").arg(format_byte_count(per_token))
                : tr("%1 bytes per token inside the window, %2 past it (the global layers only)")
                      .arg(format_byte_count(per_token),
                           format_byte_count(kv::layer_bytes_per_token(c.shape, c.type) * c.shape.n_global())));
        kind_->setText(tr("%1: %2 query heads share %3 KV heads")
                           .arg(attention_kind_label(kv::attention_kind(c.shape)),
                                loc.toString(qulonglong(c.shape.n_head)), loc.toString(qulonglong(c.shape.n_head_kv))));
    } else {
        for (QLabel* l : {gb_label_, gib_label_, bytes_label_, per_token_, kind_}) l->setText(QStringLiteral("—"));
    }
    error_->setText(error);
    error_->setVisible(!error.isEmpty());
    emit changed();
}

void KvFormulaPanel::retranslate() {
    const QStringList names{tr("Model"),     tr("Layers"),         tr("Query heads"),
                            tr("KV heads"),  tr("Head dimension"), tr("Sliding-window layers"),
                            tr("Window (tokens)"), tr("Tokens (context)"),
                            tr("Sequences"), tr("Cache type"),     tr("Parameters (weights)")};
    for (qsizetype i = 0; i < field_labels_.size() && i < names.size(); ++i) field_labels_[i]->setText(names[i]);
    for (int i = 0; i < type_->count(); ++i) type_->setItemText(i, cache_type_label(kKvTypes[size_t(i)]));
    if (model_) preset_->setItemText(0, tr("Loaded model: %1").arg(model_->name));
    const int custom = preset_->findData(kCustomEntry);
    if (custom >= 0) preset_->setItemText(custom, tr("Custom"));
    result_box_->setTitle(tr("KV cache size"));
    explain_->setText(tr("Every layer keeps a key and a value vector (the 2) for every KV head and every token "
                         "seen, so the cache grows linearly with the context. Grouped-query attention shares "
                         "one KV head among several query heads; a quantized cache stores fewer bytes per value. "
                         "A sliding-window layer (Gemma 3 has five in six) attends only to its last W tokens, so "
                         "it keeps just those: past the window only the global layers grow."));
    if (isVisible() || !formula_->text().isEmpty()) recompute();
}

}  // namespace lmscope::gui::labs
