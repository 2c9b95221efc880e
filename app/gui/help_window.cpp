#include "gui/help_window.h"

#include <QEvent>
#include <QFile>
#include <QLocale>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

// The pages live in help.qrc, compiled into the static gui library: naming its initializer here
// makes the linker keep it in every program that shows help.
static void init_help_resources() { Q_INIT_RESOURCE(help); }

namespace lmscope::gui {

namespace {

// The page of a topic in the language of the default locale (set by Language::apply): the
// glossary has an English and a Chinese page; the lesson exists in English.
QString page(HelpWindow::Topic topic) {
    if (topic == HelpWindow::Topic::Lesson) return QStringLiteral("qrc:/help/lesson.md");
    const QString localized = QStringLiteral(":/help/glossary_%1.md").arg(QLocale().name());
    return QFile::exists(localized) ? QStringLiteral("qrc") + localized : QStringLiteral("qrc:/help/glossary_en.md");
}

}  // namespace

HelpWindow::HelpWindow(QWidget* parent) : QWidget(parent, Qt::Window), browser_(new QTextBrowser) {
    init_help_resources();
    setObjectName(QStringLiteral("helpWindow"));
    browser_->setObjectName(QStringLiteral("helpBrowser"));
    browser_->setOpenExternalLinks(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(browser_);
    resize(900, 700);
}

void HelpWindow::showTopic(Topic topic) {
    topic_ = topic;
    load();
    show();
    raise();
    activateWindow();
}

void HelpWindow::load() {
    // Markdown from the resource; relative pictures ("screenshots/x.png") resolve beside it
    browser_->setSource(QUrl(page(topic_)), QTextDocument::MarkdownResource);
    setWindowTitle(topic_ == Topic::Lesson ? tr("Lesson") : tr("Glossary"));
}

void HelpWindow::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) load();
}

}  // namespace lmscope::gui
