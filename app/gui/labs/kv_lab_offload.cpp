#include "gui/labs/kv_lab_offload.h"

#include "gui/labs/lab.h"  // set_column_headers
#include "engine/model.h"
#include "util/error.h"
#include "widgets/format.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QHeaderView>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace lmscope::gui::labs {
namespace {
enum Figure { Window, DeviceBytes, HostTokens, HostBytes, Evicted, Streamed, Moved, FigureCount };
const char* const kFigureNames[FigureCount] = {"offloadWindow",   "offloadDeviceBytes", "offloadHostTokens",
                                               "offloadHostBytes", "offloadEvicted",     "offloadStreamed",
                                               "offloadMoved"};
const QColor kHostColor(0xf3, 0xb6, 0x5b);
constexpr int kMaxMeasuredContext = 2048;  // the measurement's prefill, four times: a minute at most on a small model
const QColor kDeviceColor(0x5b, 0x9b, 0xd5);
}  // namespace

KvOffloadStrip::KvOffloadStrip(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("offloadStrip"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void KvOffloadStrip::setPlan(const kv::OffloadPlan& plan) {
    plan_ = plan;
    update();
}

QSize KvOffloadStrip::sizeHint() const { return {480, fontMetrics().height() * 4}; }
QSize KvOffloadStrip::minimumSizeHint() const { return {120, fontMetrics().height() * 4}; }

void KvOffloadStrip::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF bar = QRectF(rect()).adjusted(1, fontMetrics().height() * 1.5, -1, -1);
    const double context = double(std::max<uint64_t>(plan_.context, 1));
    const double host_w = bar.width() * double(plan_.host_tokens) / context;
    const QRectF host(bar.left(), bar.top(), host_w, bar.height());
    const QRectF device(bar.left() + host_w, bar.top(), bar.width() - host_w, bar.height());
    p.setPen(Qt::NoPen);
    p.fillRect(host, kHostColor);
    p.fillRect(device, kDeviceColor);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawRect(bar);
    const QLocale loc;
    const auto caption = [&](const QRectF& part, const QString& text, Qt::Alignment align) {
        if (part.width() <= 0) return;
        const QRectF above(part.left(), 0, std::max(part.width(), bar.width() / 3), bar.top());
        p.drawText(align == Qt::AlignRight ? above.translated(part.width() - above.width(), 0) : above,
                   int(align | Qt::AlignVCenter), text);
    };
    caption(host, tr("host: tokens 0–%1").arg(loc.toString(qulonglong(plan_.host_tokens ? plan_.host_tokens - 1 : 0))),
            Qt::AlignLeft);
    caption(device, tr("device window: last %Ln token(s)", nullptr, widgets::count_for_tr(plan_.device_tokens)),
            Qt::AlignRight);
}

KvOffloadPanel::KvOffloadPanel(QWidget* parent)
    : QWidget(parent),
      context_(new QSpinBox),
      budget_(new QDoubleSpinBox),
      context_label_(new QLabel),
      budget_label_(new QLabel),
      intro_(new QLabel),
      strip_(new KvOffloadStrip),
      error_(new QLabel),
      measure_(new QPushButton),
      measure_status_(new QLabel),
      measured_(new QTableWidget(0, ColumnCount)),
      runner_(new JobRunner(this)) {
    setObjectName(QStringLiteral("kvOffloadPanel"));
    measure_->setObjectName(QStringLiteral("offloadMeasure"));
    measured_->setObjectName(QStringLiteral("offloadMeasured"));
    measured_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    measured_->verticalHeader()->hide();
    measured_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    measure_status_->setWordWrap(true);
    measure_->setEnabled(false);
    context_->setObjectName(QStringLiteral("offloadContext"));
    budget_->setObjectName(QStringLiteral("offloadBudget"));
    error_->setObjectName(QStringLiteral("offloadError"));
    context_->setRange(1, std::numeric_limits<int>::max());
    context_->setGroupSeparatorShown(true);
    budget_->setRange(0, 1e6);
    budget_->setDecimals(4);
    budget_->setSuffix(QStringLiteral(" GB"));
    context_label_->setBuddy(context_);
    budget_label_->setBuddy(budget_);
    intro_->setWordWrap(true);
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: #c0392b;"));

    auto* form = new QFormLayout;
    form->addRow(context_label_, context_);
    form->addRow(budget_label_, budget_);
    auto* figures = new QGridLayout;
    for (int i = 0; i < FigureCount; ++i) {
        names_[i] = new QLabel;
        values_[i] = new QLabel;
        values_[i]->setObjectName(QLatin1String(kFigureNames[i]));
        values_[i]->setTextInteractionFlags(Qt::TextSelectableByMouse);
        figures->addWidget(names_[i], i, 0);
        figures->addWidget(values_[i], i, 1);
    }
    QFont bold = values_[Moved]->font();
    bold.setBold(true);
    values_[Moved]->setFont(bold);
    figures->setColumnStretch(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro_);
    layout->addLayout(form);
    layout->addWidget(strip_);
    layout->addLayout(figures);
    layout->addWidget(error_);
    layout->addWidget(measure_);
    layout->addWidget(measure_status_);
    layout->addWidget(measured_, 1);

    retranslate();
    connect(context_, &QSpinBox::valueChanged, this, [this] { recompute(); });
    connect(budget_, &QDoubleSpinBox::valueChanged, this, [this] { recompute(); });
    connect(measure_, &QPushButton::clicked, this, &KvOffloadPanel::measure);
    connect(runner_, &JobRunner::busyChanged, this, [this](bool busy) { measure_->setEnabled(!busy && model_); });
    connect(runner_, &JobRunner::failed, this, [this](const JobError& error) {
        const QString message = error.text();
        measure_status_->setText(message);
        emit failed(message);
    });
}

uint64_t KvOffloadPanel::deviceBudgetBytes() const { return uint64_t(std::llround(budget_->value() * kGB)); }

void KvOffloadPanel::setChoice(const KvChoice& choice) {
    const bool same = choice.valid == choice_.valid && choice.shape.n_layer == choice_.shape.n_layer &&
                      choice.shape.n_head_kv == choice_.shape.n_head_kv &&
                      choice.shape.head_dim == choice_.shape.head_dim && choice.type == choice_.type &&
                      choice.batch == choice_.batch && choice.tokens == choice_.tokens;
    choice_ = choice;
    if (same) {
        recompute();
        return;
    }
    QSignalBlocker block_context(context_), block_budget(budget_);
    context_->setValue(int(std::min<uint64_t>(choice.tokens, uint64_t(context_->maximum()))));
    uint64_t quarter = 0;
    if (choice.valid) {
        try {
            quarter = kv::cache_bytes(choice.shape, choice.type, choice.tokens, choice.batch) / 4;
        } catch (const Error&) {
            quarter = 0;
        }
    }
    budget_->setValue(double(quarter) / kGB);
    recompute();
}

void KvOffloadPanel::setContext(int tokens) { context_->setValue(tokens); }
void KvOffloadPanel::setDeviceBudgetGB(double gb) { budget_->setValue(gb); }

void KvOffloadPanel::recompute() {
    valid_ = false;
    plan_ = {};
    window_ = 0;
    QString error;
    if (choice_.valid) {
        try {
            // Whole tokens (of every sequence) that fit the device budget.
            const uint64_t per_token = kv::cache_bytes(choice_.shape, choice_.type, 1, choice_.batch);
            window_ = deviceBudgetBytes() / per_token;
            plan_ = kv::plan_offload(choice_.shape, choice_.type, choice_.batch, uint64_t(context_->value()), window_);
            valid_ = true;
        } catch (const Error& e) {
            error = QString::fromUtf8(e.what());
        }
    } else {
        error = tr("The fields do not describe a valid KV cache (see the formula panel).");
    }
    const auto tokens = [&](uint64_t n) { return tr("%Ln token(s)", nullptr, widgets::count_for_tr(n)); };
    const auto bytes = [&](uint64_t n) { return tr("%1 (%2 bytes)").arg(format_si_bytes(n), format_byte_count(n)); };
    const uint64_t figures[FigureCount] = {plan_.device_tokens,          plan_.device_bytes, plan_.host_tokens,
                                           plan_.host_bytes,             plan_.evicted_bytes_per_step,
                                           plan_.streamed_bytes_per_step, plan_.moved_bytes_per_step()};
    for (int i = 0; i < FigureCount; ++i) {
        values_[i]->setProperty("value", QVariant::fromValue<qulonglong>(figures[i]));
        values_[i]->setText(!valid_ ? QStringLiteral("—")
                                    : (i == Window || i == HostTokens) ? tokens(figures[i]) : bytes(figures[i]));
    }
    error_->setText(error);
    error_->setVisible(!error.isEmpty());
    strip_->setPlan(plan_);
}

void KvOffloadPanel::setModel(const LabModelPtr& model) {
    runner_->abandon();
    model_ = model;
    rows_.clear();
    measure_->setEnabled(model_ != nullptr);
    showMeasured();
}

void KvOffloadPanel::measure() {
    if (!model_ || !model_->model) return;
    const model::ModelSpec& spec = model_->model->spec();
    OffloadRunOptions options;
    options.context = std::clamp(context_->value(), 1, std::min(kMaxMeasuredContext, spec.n_ctx_train() - options.decode_steps));
    options.budgets = offload_run_budgets(spec.kv_shape(), KvType::F16, options.context);
    measure_status_->setText(tr("Decoding %1 tokens after %2 on %3, with the whole cache in memory and within three "
                                "budgets…")
                                 .arg(options.decode_steps)
                                 .arg(options.context)
                                 .arg(model_->name));
    const LabModelPtr model = model_;
    runner_->start([model, options](const JobContext& job) {
                       const int steps = offload_run_steps(options);
                       int done = 0;
                       return run_offload_experiment(model, options, job.token(), [&] { job.progress(++done, steps); });
                   },
                   [this](std::vector<OffloadRunRow> rows) {
                       rows_ = std::move(rows);
                       showMeasured();
                       emit measured();
                   });
}

void KvOffloadPanel::showMeasured() {
    measured_->setRowCount(int(rows_.size()));
    const auto bytes = [](double n) { return format_si_bytes(uint64_t(std::llround(n))); };
    for (int r = 0; r < int(rows_.size()); ++r) {
        const OffloadRunRow& row = rows_[size_t(r)];
        const QString cells[ColumnCount] = {
            row.budget_bytes == 0 ? tr("whole cache") : bytes(double(row.budget_bytes)),
            tr("%1 tok/s").arg(row.decode_tok_s, 0, 'f', 1),
            bytes(row.moved_per_token),
            bytes(double(row.predicted.moved_bytes_per_step())),
            bytes(double(row.resident_bytes)),
            bytes(double(row.offloaded_bytes))};
        const double values[ColumnCount] = {double(row.budget_bytes), row.decode_tok_s, row.moved_per_token,
                                            double(row.predicted.moved_bytes_per_step()), double(row.resident_bytes),
                                            double(row.offloaded_bytes)};
        for (int c = 0; c < ColumnCount; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setData(Qt::UserRole, values[c]);
            measured_->setItem(r, c, item);
        }
    }
    if (!rows_.empty())
        measure_status_->setText(tr("Measured on %1: the bytes moved and the speed of each decode step, beside the "
                                    "bandwidth model's bytes for a device window of the same size (above).")
                                     .arg(model_ ? model_->name : QString()));
}

void KvOffloadPanel::retranslate() {
    context_label_->setText(tr("Context (tokens)"));
    budget_label_->setText(tr("Device memory for the cache"));
    intro_->setText(tr("When the cache does not fit on the device, keep only the most recent tokens' keys and values "
                       "there (a window) and the older ones in host memory. Every decode step then moves one token's "
                       "KV out of the window and streams the host part back to attend over the whole context."));
    const QStringList names{tr("Device window"),          tr("Device bytes"),
                            tr("In host memory"),         tr("Host bytes"),
                            tr("Evicted per decode step"), tr("Streamed from host per decode step"),
                            tr("Moved per decode step")};
    for (int i = 0; i < FigureCount; ++i) names_[i]->setText(names[i]);
    measure_->setText(tr("Measure on the loaded model"));
    measure_->setToolTip(tr("Decode on the loaded model with its KV cache whole in memory, then within a half, a "
                            "quarter and an eighth of it (the rest in a temporary file, read back every step): "
                            "measured speed and bytes moved, beside the model's prediction"));
    const QStringList headers{tr("Resident budget"),         tr("Decode speed"),         tr("Moved per token (measured)"),
                              tr("Moved per token (model)"), tr("In memory (measured)"), tr("In the file (measured)")};
    set_column_headers(measured_, headers);
    showMeasured();
    recompute();
}

}  // namespace lmscope::gui::labs
