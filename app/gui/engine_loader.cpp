#include "gui/engine_loader.h"

#include "gui/engine_change.h"
#include "gui/sampling_panel.h"

#include <QLocale>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>

#include <utility>

namespace lmscope::gui {

EngineLoader::EngineLoader(EngineWorker* engine, SamplingPanel* sampling, QWidget* window, QObject* parent)
    : QObject(parent), engine_(engine), sampling_(sampling), window_(window) {
    connect(engine_, &EngineWorker::loaded, this, &EngineLoader::onLoaded);
    // the new engine did not load: the old one and its session stay
    connect(engine_, &EngineWorker::failed, this, [this] { rerun_.reset(); });
}

void EngineLoader::load(const LabModelPtr& opened) {
    opened_ = opened;
    if (opened) load(opened->path);
}

void EngineLoader::load(const QString& path) {
    emit stopRequested();
    options_ = sampling_->engineOptions();
    const engine::SamplerSettings sampling = sampling_->sampling();
    emit loading();
    // the model the window opened, when it is this file: the engine does not parse it again
    const LabModelPtr opened = opened_ && opened_->path == path ? opened_ : nullptr;
    engine_->setSampling(sampling);
    if (opened) engine_->run(opened, options_);
    else engine_->load(path, options_);
}

void EngineLoader::change(std::optional<RerunPlan> plan, qint32 tokens) {
    if (!hasEngine()) return;
    if (!plan) return load(info_.path);
    emit stopRequested();
    ask_engine_change(window_, tokens, [this, self = QPointer<EngineLoader>(this), plan = std::move(*plan)](EngineChange answer) {
        if (!self) return;  // the window closed with the question open
        if (answer == EngineChange::Keep) {
            sampling_->setEngineOptions(options_);  // the panel shows what runs
            return;
        }
        rerun_.reset();
        if (answer == EngineChange::Rerun) rerun_ = plan;
        load(info_.path);
    });
}

void EngineLoader::offerContext(const PromptTooLong& p) {
    auto* box = new QMessageBox(QMessageBox::Information, tr("Prompt too long"),
                                tr("The prompt is %Ln token(s) long, more than the context of %1 positions.", nullptr,
                                   int(p.ids.size()))
                                    .arg(QLocale().toString(p.n_ctx)),
                                QMessageBox::Cancel, window_);
    box->setObjectName(QStringLiteral("promptTooLongBox"));
    box->setProperty("tokens", int(p.ids.size()));
    box->setAttribute(Qt::WA_DeleteOnClose);
    if (p.raise_to > 0) {
        box->setInformativeText(tr("Raise the context to %1 positions (this model allows up to %2) and run the prompt? "
                                   "A larger context keeps more of the KV cache in memory.")
                                    .arg(QLocale().toString(p.raise_to), QLocale().toString(p.n_ctx_train)));
        QPushButton* raise = box->addButton(tr("Raise to %1 and Run").arg(QLocale().toString(p.raise_to)), QMessageBox::AcceptRole);
        raise->setObjectName(QStringLiteral("raiseContext"));
        box->setDefaultButton(raise);
        connect(raise, &QPushButton::clicked, this, [this, p] {
            EngineOptions raised = sampling_->engineOptions();
            raised.resources.n_ctx = p.raise_to;
            sampling_->setEngineOptions(raised);
            rerun_ = RerunPlan{p.prompt, p.ids, {}};  // the prompt, prefilled on the new engine
            load(info_.path);
        });
    } else {
        box->setInformativeText(tr("This model allows a context of at most %1 positions: shorten the prompt.")
                                    .arg(QLocale().toString(p.n_ctx_train)));
    }
    box->open();  // window-modal, non-blocking
}

void EngineLoader::onLoaded(const EngineInfo& info) {
    info_ = info;
    sampling_->setModelLimits(info.model.n_ctx_train, info.model.kv_bytes_per_token);
    emit loaded(info, std::exchange(rerun_, std::nullopt));
}

}  // namespace lmscope::gui
