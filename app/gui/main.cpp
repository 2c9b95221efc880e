// lmscope [FILE]: the GUI. Opens FILE, or the sample model when no file is given and it has
// been fetched (sample_models/fetch.sh).
#include "backend_factory.h"
#include "gui/language.h"
#include "gui/main_window.h"
#include "gui/sample_model.h"
#include "lmscope_version.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("lmscope"));
    QApplication::setApplicationName(QStringLiteral("lmscope"));
    QApplication::setApplicationVersion(QStringLiteral(LMSCOPE_VERSION));

    lmscope::app::register_compiled_backends();
    lmscope::gui::Language language;
    language.apply(lmscope::gui::Language::saved());

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate(
        "main", "Runs a language model one step at a time and shows what happens inside."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("file"),
        QApplication::translate("main", "A GGUF model to open (default: the sample model)."),
        QStringLiteral("[FILE]"));
    parser.process(app);

    lmscope::gui::MainWindow window(&language);
    window.show();
    const QStringList args = parser.positionalArguments();
    const QString file = args.isEmpty() ? lmscope::gui::find_sample_model() : args.front();
    if (!file.isEmpty()) window.openFile(file);
    return QApplication::exec();
}
