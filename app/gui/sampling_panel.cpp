#include "gui/sampling_panel.h"

#include "util/cpu_info.h"
#include "widgets/format.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QThread>

namespace lmscope::gui {

namespace {
QDoubleSpinBox* spin(double lo, double hi, double step, const char* name) {
    auto* s = new QDoubleSpinBox;
    s->setRange(lo, hi);
    s->setSingleStep(step);
    s->setDecimals(2);
    s->setObjectName(QLatin1String(name));
    return s;
}

QString kv_text(KvType type) {
    const std::string_view name = kv_type_name(type);
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}
}  // namespace

SamplingPanel::SamplingPanel(const QStringList& backends, QWidget* parent)
    : QWidget(parent), temperature_(spin(0.0, 5.0, 0.1, "temperature")), top_k_(new QSpinBox),
      top_p_(spin(0.01, 1.0, 0.05, "topP")), min_p_(spin(0.0, 1.0, 0.01, "minP")), seed_(new QSpinBox),
      kv_type_(new QComboBox), kv_offload_(spin(0.0, 1048576.0, 1.0, "kvOffload")), context_(new QSpinBox), threads_(new QSpinBox), backend_(new QComboBox), form_(new QFormLayout(this)) {
    setObjectName(QStringLiteral("samplingPanel"));
    top_k_->setObjectName(QStringLiteral("topK"));
    top_k_->setRange(0, 1000);
    seed_->setObjectName(QStringLiteral("seed"));
    seed_->setRange(0, 1 << 30);
    kv_type_->setObjectName(QStringLiteral("kvType"));
    for (const KvType t : kKvTypes) kv_type_->addItem(widgets::type_name_text(kv_type_name(t)), int(t));
    context_->setObjectName(QStringLiteral("context"));
    context_->setRange(16, 1 << 24);
    context_->setSingleStep(256);
    context_->setGroupSeparatorShown(true);
    threads_->setObjectName(QStringLiteral("threads"));
    threads_->setRange(0, hardware_threads());  // 0: every core; never more than the machine has
    backend_->setObjectName(QStringLiteral("backend"));
    backend_->addItems(backends);
    for (QWidget* w : {static_cast<QWidget*>(temperature_), static_cast<QWidget*>(top_k_),
                       static_cast<QWidget*>(top_p_), static_cast<QWidget*>(min_p_), static_cast<QWidget*>(seed_),
                       static_cast<QWidget*>(kv_type_), static_cast<QWidget*>(kv_offload_), static_cast<QWidget*>(context_),
                       static_cast<QWidget*>(threads_),
                       static_cast<QWidget*>(backend_)}) {
        w->setFocusPolicy(Qt::ClickFocus);
        form_->addRow(new QLabel, w);
    }
    setSampling(engine::lesson_sampling());
    setEngineOptions(EngineOptions{});

    const auto sampling = [this] { emit samplingChanged(this->sampling()); };
    connect(temperature_, &QDoubleSpinBox::valueChanged, this, sampling);
    connect(top_p_, &QDoubleSpinBox::valueChanged, this, sampling);
    connect(min_p_, &QDoubleSpinBox::valueChanged, this, sampling);
    connect(top_k_, &QSpinBox::valueChanged, this, sampling);
    connect(seed_, &QSpinBox::valueChanged, this, sampling);
    const auto engine = [this] { emit engineOptionsChanged(engineOptions()); };
    connect(kv_type_, &QComboBox::currentIndexChanged, this, engine);
    connect(kv_offload_, &QDoubleSpinBox::editingFinished, this, engine);
    connect(backend_, &QComboBox::currentIndexChanged, this, engine);
    connect(threads_, &QSpinBox::editingFinished, this, engine);
    connect(context_, &QSpinBox::editingFinished, this, engine);
    connect(context_, &QSpinBox::valueChanged, this, [this] { retranslate(); });  // the tooltip's KV cost
    retranslate();
}

engine::SamplerSettings SamplingPanel::sampling() const {
    engine::SamplerSettings s = engine::lesson_sampling();
    s.temperature = float(temperature_->value());
    s.top_k = top_k_->value();
    s.top_p = float(top_p_->value());
    s.min_p = float(min_p_->value());
    s.seed = uint64_t(seed_->value());
    return s;
}

EngineOptions SamplingPanel::engineOptions() const {
    EngineOptions e;
    e.backend = backend_->currentText().toStdString();
    e.resources.n_threads = threads_->value();
    e.resources.kv_type = KvType(kv_type_->currentData().toInt());
    e.resources.kv_offload_bytes = engine::kv_offload_budget(kv_offload_->value());
    e.resources.n_ctx = context_->value();
    return e;
}

void SamplingPanel::setSampling(const engine::SamplerSettings& s) {
    const QSignalBlocker b1(temperature_), b2(top_k_), b3(top_p_), b4(min_p_), b5(seed_);
    temperature_->setValue(s.temperature);
    top_k_->setValue(s.top_k);
    top_p_->setValue(s.top_p);
    min_p_->setValue(s.min_p);
    seed_->setValue(int(s.seed));
}

void SamplingPanel::setEngineOptions(const EngineOptions& e) {
    const QSignalBlocker b1(kv_type_), b2(threads_), b3(backend_), b4(context_), b5(kv_offload_);
    kv_offload_->setValue(double(e.resources.kv_offload_bytes) / double(1u << 20));
    if (const int i = backend_->findText(QString::fromStdString(e.backend)); i >= 0) backend_->setCurrentIndex(i);
    if (const int i = kv_type_->findData(int(e.resources.kv_type)); i >= 0) kv_type_->setCurrentIndex(i);
    threads_->setValue(e.resources.n_threads);
    context_->setValue(e.resources.n_ctx);
}

void SamplingPanel::setModelLimits(int n_ctx_train, quint64 kv_bytes_per_token) {
    const QSignalBlocker b(context_);
    context_->setMaximum(n_ctx_train > 0 ? std::max(n_ctx_train, context_->minimum()) : 1 << 24);
    kv_bytes_per_token_ = kv_bytes_per_token;
    retranslate();
}

void SamplingPanel::saveSettings() const {
    QSettings s;
    s.beginGroup(QStringLiteral("sampling"));
    const engine::SamplerSettings o = sampling();
    s.setValue(QStringLiteral("temperature"), o.temperature);
    s.setValue(QStringLiteral("topK"), o.top_k);
    s.setValue(QStringLiteral("topP"), o.top_p);
    s.setValue(QStringLiteral("minP"), o.min_p);
    s.setValue(QStringLiteral("seed"), quint64(o.seed));
    const EngineOptions e = engineOptions();
    s.setValue(QStringLiteral("backend"), QString::fromStdString(e.backend));
    s.setValue(QStringLiteral("threads"), e.resources.n_threads);
    s.setValue(QStringLiteral("kvType"), widgets::type_name_text(kv_type_name(e.resources.kv_type)));
    s.setValue(QStringLiteral("kvOffload"), double(e.resources.kv_offload_bytes) / double(1u << 20));
    s.setValue(QStringLiteral("context"), e.resources.n_ctx);
    s.endGroup();
}

QString SamplingPanel::restoreSettings() {
    QSettings s;
    s.beginGroup(QStringLiteral("sampling"));
    engine::SamplerSettings o = engine::lesson_sampling();
    o.temperature = s.value(QStringLiteral("temperature"), o.temperature).toFloat();
    o.top_k = s.value(QStringLiteral("topK"), o.top_k).toInt();
    o.top_p = s.value(QStringLiteral("topP"), o.top_p).toFloat();
    o.min_p = s.value(QStringLiteral("minP"), o.min_p).toFloat();
    o.seed = s.value(QStringLiteral("seed"), quint64(o.seed)).toULongLong();
    EngineOptions e;
    e.backend = s.value(QStringLiteral("backend"), QString::fromStdString(e.backend)).toString().toStdString();
    e.resources.n_threads = s.value(QStringLiteral("threads"), e.resources.n_threads).toInt();
    QString problem;
    const QString kv = s.value(QStringLiteral("kvType"), widgets::type_name_text(kv_type_name(e.resources.kv_type))).toString();
    if (const std::optional<KvType> t = parse_kv_type(kv.toStdString())) e.resources.kv_type = *t;
    else
        problem = tr("The saved KV cache type '%1' is not one of %2; the cache stores %3.")
                      .arg(kv, QString::fromStdString(kv_type_list()), widgets::type_name_text(kv_type_name(e.resources.kv_type)));
    e.resources.kv_offload_bytes = engine::kv_offload_budget(
        s.value(QStringLiteral("kvOffload"), double(e.resources.kv_offload_bytes) / double(1u << 20)).toDouble());
    e.resources.n_ctx = s.value(QStringLiteral("context"), e.resources.n_ctx).toInt();
    s.endGroup();
    setSampling(o);
    setEngineOptions(e);
    return problem;
}

void SamplingPanel::retranslate() {
    const QString labels[] = {tr("Temperature"), tr("Top-k"),   tr("Top-p"),   tr("Min-p"),
                              tr("Seed"),        tr("KV cache"), tr("KV offload"), tr("Context"), tr("Threads"),
                              tr("Backend")};
    for (int row = 0; row < form_->rowCount(); ++row)
        if (auto* l = qobject_cast<QLabel*>(form_->itemAt(row, QFormLayout::LabelRole)->widget()))
            l->setText(labels[row]);
    temperature_->setToolTip(tr("0 picks the most probable token (greedy)"));
    top_k_->setToolTip(tr("Keep the k most probable tokens (0 = off)"));
    top_p_->setToolTip(tr("Keep the smallest set whose probability reaches p (1 = off)"));
    min_p_->setToolTip(tr("Drop tokens below min-p times the best one (0 = off)"));
    kv_offload_->setSpecialValueText(tr("off"));
    kv_offload_->setSuffix(tr(" MiB"));
    kv_offload_->setToolTip(tr("Keep at most this much of the KV cache in memory: the older positions of the global "
                               "layers go to a temporary file and are read back every step, with the same results "
                               "(CPU backend; applied by reloading the model; off: all in memory)"));
    threads_->setSpecialValueText(tr("all cores"));
    threads_->setToolTip(tr("CPU threads (applied by reloading the model)"));
    context_->setSuffix(tr(" tokens"));
    QString context_tip = tr("Positions the KV cache may hold: a longer prompt or chat is refused (applied by "
                             "reloading the model; at most the model's own context of %1)")
                              .arg(QLocale().toString(context_->maximum()));
    if (kv_bytes_per_token_ > 0)
        context_tip += QLatin1Char('\n') + tr("A full cache of %1 positions holds %2")
                                               .arg(QLocale().toString(context_->value()))
                                               .arg(widgets::format_bytes(kv_bytes_per_token_ * quint64(context_->value())));
    context_->setToolTip(context_tip);
}

}  // namespace lmscope::gui
