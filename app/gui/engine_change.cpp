#include "gui/engine_change.h"

#include <QCoreApplication>
#include <QMessageBox>
#include <QPushButton>

#include <memory>

namespace lmscope::gui {

void ask_engine_change(QWidget* parent, qint32 tokens, std::function<void(EngineChange)> answer) {
    auto* box = new QMessageBox(QMessageBox::Question, QCoreApplication::translate("EngineChange", "Restart the engine?"),
                                QCoreApplication::translate("EngineChange", "This setting restarts the engine with a new KV cache. The session "
                                                "holds %n token(s): run them again on the new engine (the same "
                                                "tokens, recomputed), or start empty?",
                                                nullptr, int(tokens)),
                                QMessageBox::NoButton, parent);
    box->setObjectName(QStringLiteral("engineChangeBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton* rerun = box->addButton(QCoreApplication::translate("EngineChange", "Re-run the session"), QMessageBox::AcceptRole);
    rerun->setObjectName(QStringLiteral("rerun"));
    QPushButton* empty = box->addButton(QCoreApplication::translate("EngineChange", "Start empty"), QMessageBox::DestructiveRole);
    empty->setObjectName(QStringLiteral("startEmpty"));
    QPushButton* keep = box->addButton(QCoreApplication::translate("EngineChange", "Keep the old setting"), QMessageBox::RejectRole);
    keep->setObjectName(QStringLiteral("keep"));
    box->setDefaultButton(rerun);
    box->setEscapeButton(keep);
    QObject::connect(box, &QMessageBox::finished, box, [box, rerun, empty, answer = std::move(answer)] {
        const QAbstractButton* clicked = box->clickedButton();
        answer(clicked == rerun ? EngineChange::Rerun : clicked == empty ? EngineChange::StartEmpty : EngineChange::Keep);
    });
    box->open();
}

}  // namespace lmscope::gui
