#include "gui/session_status.h"

#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>

namespace lmscope::gui {

SessionStatus::SessionStatus(QStatusBar* bar) : QObject(bar), prefill_bar_(new QProgressBar) {
    prefill_bar_->setObjectName(QStringLiteral("prefillProgress"));
    prefill_bar_->setTextVisible(true);
    prefill_bar_->setMinimumWidth(320);
    prefill_bar_->hide();
    bar->addWidget(prefill_bar_, 1);
    const char* const names[] = {"statusBackend", "statusTokens", "statusKv", "statusSpeed"};  // by StatusField
    for (std::size_t i = 0; i < fields_.size(); ++i) {
        fields_[i] = new QLabel;
        fields_[i]->setObjectName(QLatin1String(names[i]));
        fields_[i]->setContentsMargins(6, 0, 6, 0);
        bar->addPermanentWidget(fields_[i]);
    }
}

void SessionStatus::show(const SourceStatus& status) {
    for (std::size_t i = 0; i < fields_.size(); ++i) fields_[i]->setText(status.text[i]);
    field(StatusField::Tokens)->setToolTip(status.tokens_tip);
}

QString SessionStatus::text(StatusField f) const { return field(f)->text(); }

void SessionStatus::showPrefill(const JobProgress& p) {
    const qint64 layers_done = p.done, n_layer = p.total, elapsed_ms = p.elapsed_ms;
    const int tokens = int(p.items);
    prefill_bar_->setRange(0, int(n_layer));
    prefill_bar_->setValue(int(layers_done));
    const double seconds = double(elapsed_ms) / 1000.0;
    const double per_s = elapsed_ms > 0 ? double(tokens) * double(layers_done) / double(n_layer) / seconds : 0.0;
    prefill_bar_->setFormat(tr("Prefill: layer %1 of %2 · %Ln token(s) · %3 s · %4 tokens/s · Stop (Esc) ends it", nullptr, tokens)
                                .arg(layers_done)
                                .arg(n_layer)
                                .arg(seconds, 0, 'f', 1)
                                .arg(per_s, 0, 'f', 0));
    prefill_bar_->show();
}

void SessionStatus::hidePrefill() { prefill_bar_->hide(); }

}  // namespace lmscope::gui
