// The user-interface language: the system's, or one chosen in View > Language (kept in
// QSettings "language"). Installs lmscope's translation (compiled from
// resources/translations/*.ts into the :/i18n resource) and Qt's own, and sets the default
// locale for number formatting. Installing translators sends QEvent::LanguageChange to every
// widget, which re-reads its texts.
#pragma once

#include <QList>
#include <QObject>
#include <QString>

class QTranslator;

namespace lmscope::gui {

class Language : public QObject {
    Q_OBJECT
public:
    struct Choice {
        QString code;  // "" = the system's language, "en", "zh_CN"
        QString name;  // in that language itself ("English", "简体中文"); empty for the system
    };

    explicit Language(QObject* parent = nullptr);

    static QList<Choice> choices();
    static QString saved();        // the code in QSettings ("" when unset)
    QString current() const { return current_; }
    // Installs the translations for `code` and remembers it. Returns false (and falls back
    // to English) when lmscope has no translation for it.
    bool apply(const QString& code);

signals:
    void changed(const QString& code);

private:
    void removeTranslators();

    QString current_;
    QTranslator* app_ = nullptr;  // lmscope's strings
    QTranslator* qt_ = nullptr;   // Qt's own (standard buttons, dialogs)
};

}  // namespace lmscope::gui
