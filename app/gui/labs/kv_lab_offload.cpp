#include "gui/labs/kv_lab_offload.h"

#include "util/error.h"
#include "widgets/format.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QSpinBox>
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
      error_(new QLabel) {
    setObjectName(QStringLiteral("kvOffloadPanel"));
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
    layout->addStretch(1);

    retranslate();
    connect(context_, &QSpinBox::valueChanged, this, [this] { recompute(); });
    connect(budget_, &QDoubleSpinBox::valueChanged, this, [this] { recompute(); });
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
    recompute();
}

}  // namespace lmscope::gui::labs
