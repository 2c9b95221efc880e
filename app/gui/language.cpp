#include "gui/language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

namespace lmscope::gui {

static const char* const kKey = "language";

Language::Language(QObject* parent) : QObject(parent) {}

QList<Language::Choice> Language::choices() {
    return {{QString(), QString()},
            {QStringLiteral("en"), QStringLiteral("English")},
            {QStringLiteral("zh_CN"), QStringLiteral("简体中文")}};
}

QString Language::saved() { return QSettings().value(QLatin1String(kKey)).toString(); }

void Language::removeTranslators() {
    for (QTranslator** t : {&app_, &qt_}) {
        if (*t) {
            QCoreApplication::removeTranslator(*t);
            delete *t;
            *t = nullptr;
        }
    }
}

bool Language::apply(const QString& code) {
    removeTranslators();
    const QLocale locale = code.isEmpty() ? QLocale::system() : QLocale(code);
    bool ok = true;
    if (locale.language() == QLocale::English || locale.language() == QLocale::C) {
        // English is the source language: its file holds only the plural forms ("1 token").
        auto* app = new QTranslator(this);
        if (app->load(QStringLiteral(":/i18n/lmscope_en.qm"))) {
            QCoreApplication::installTranslator(app);
            app_ = app;
        } else {
            delete app;
        }
    } else {
        auto* app = new QTranslator(this);
        if (app->load(locale, QStringLiteral("lmscope"), QStringLiteral("_"), QStringLiteral(":/i18n"))) {
            QCoreApplication::installTranslator(app);
            app_ = app;
            auto* qt = new QTranslator(this);
            if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                         QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
                QCoreApplication::installTranslator(qt);
                qt_ = qt;
            } else {
                delete qt;
            }
        } else {
            delete app;
            ok = code.isEmpty();  // a system language without a translation is not an error
        }
    }
    QLocale::setDefault(app_ || code == QLatin1String("en") ? locale : QLocale::system());
    current_ = ok ? code : QString();
    QSettings().setValue(QLatin1String(kKey), current_);
    emit changed(current_);
    return ok;
}

}  // namespace lmscope::gui
