// A language change (View > Language: English -> Chinese -> English) reaches at once the texts
// a panel makes from its state, not at the next step: the Layer view's header, the context
// compare lab's status line, the chat lab's status line, the tokenizer lab's sample tokenizer
// and its trainer's status, each after it has shown something (figures, a finished run, a
// finished turn, a trained tokenizer). On the fixture model, in the main window.
#include "common/testing.h"
#include "gui/labs/chat_lab.h"
#include "gui/labs/context_compare_lab.h"
#include "gui/labs/lab_window.h"
#include "gui/labs/tokenizer_compare_view.h"
#include "gui/labs/tokenizer_lab.h"
#include "gui/labs/tokenizer_set.h"
#include "gui/labs/tokenizer_trainer_panel.h"
#include "gui/language.h"
#include "gui/layer_view.h"
#include "gui/main_window.h"
#include "gui/session_controller.h"
#include "gui_testing.h"

#include <QDockWidget>
#include <QLabel>
#include <QSignalSpy>
#include <QtTest>

#include <algorithm>
#include <functional>

using namespace lmscope;
using lmscope::gui::MainWindow;

namespace {

bool has_chinese(const QString& text) {
    return std::any_of(text.begin(), text.end(), [](QChar c) { return c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF; });
}

// Brings the panel's text about: `text` reads it as shown now, `settled` says when it shows
// what the panel has (after a language change too).
struct Shown {
    std::function<QString()> text;
    std::function<bool()> settled;
};

QString text_of(const QLabel* label) { return label ? label->text() : QString(); }

Shown layer_header(MainWindow& w) {
    QDockWidget* dock = w.session()->dock(gui::Panel::Layer);
    dock->show();
    dock->raise();
    auto* view = dock->findChild<gui::LayerView*>();
    return {[view] { return text_of(view->findChild<QLabel*>(QStringLiteral("layerStatus"))); },
            [view] { return view->figures() != nullptr; }};
}

Shown context_compare_status(MainWindow& w) {
    auto* lab = w.labWindow()->lab<gui::labs::ContextCompareLab>(gui::labs::LabId::ContextCompare);
    QSignalSpy finished(lab, &gui::labs::ContextCompareLab::runFinished);
    lab->run();
    if (!testing::wait_for(finished)) return {};
    return {[lab] { return text_of(lab->statusLabel()); }, [] { return true; }};
}

Shown chat_status(MainWindow& w) {
    auto* lab = w.labWindow()->lab<gui::labs::ChatLab>(gui::labs::LabId::Chat);
    lab->setMaxReplyTokens(4);
    QSignalSpy finished(lab, &gui::labs::ChatLab::turnFinished);
    lab->sendMessage(QStringLiteral("Hello!"));
    if (!testing::wait_for(finished)) return {};
    return {[lab] { return text_of(lab->findChild<QLabel*>(QStringLiteral("chatStatus"))); }, [] { return true; }};
}

// The sample tokenizer's row in the tokenizer lab: its name is translated.
Shown tokenizer_sample_name(MainWindow& w) {
    auto* lab = w.labWindow()->lab<gui::labs::TokenizerLab>(gui::labs::LabId::Tokenizers);
    if (!QTest::qWaitFor([lab] { return lab->sampleReady(); }, 60000)) return {};
    const auto title = [lab]() -> QString {
        const gui::labs::TokenizerSet& set = *lab->tokenizers();
        for (qsizetype i = 0; i < set.size(); ++i)
            if (set.at(i).kind == gui::labs::TokenizerEntry::Kind::Sample)
                return text_of(lab->compareView()->findChild<QLabel*>(QStringLiteral("tokenizerTitle%1").arg(i)));
        return {};
    };
    return {title, [] { return true; }};
}

// The tokenizer trainer's status after a training: its method and corpus are named in words.
Shown trainer_status(MainWindow& w) {
    auto* trainer = w.labWindow()->lab<gui::labs::TokenizerLab>(gui::labs::LabId::Tokenizers)->trainer();
    QSignalSpy trained(trainer, &gui::labs::TokenizerTrainerPanel::trained);
    trainer->train();  // the sample corpus
    if (!testing::wait_for(trained)) return {};
    return {[trainer] { return text_of(trainer->findChild<QLabel*>(QStringLiteral("trainStatus"))); }, [] { return true; }};
}

using ShowFn = std::function<Shown(MainWindow&)>;

}  // namespace

Q_DECLARE_METATYPE(ShowFn)

class TestGuiLanguage : public QObject {
    Q_OBJECT
    gui::Language language_;

private slots:
    void initTestCase() { testing::use_test_settings("test_gui_language"); }
    void init() {
        const std::string model = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(model, "the fixture model");
        QVERIFY(language_.apply(QStringLiteral("en")));
    }

    void stateTextsFollowTheLanguage_data() {
        QTest::addColumn<ShowFn>("show");
        QTest::newRow("Layer view header") << ShowFn(layer_header);
        QTest::newRow("context compare status") << ShowFn(context_compare_status);
        QTest::newRow("chat status") << ShowFn(chat_status);
        QTest::newRow("tokenizer lab's sample name") << ShowFn(tokenizer_sample_name);
        QTest::newRow("tokenizer trainer's status") << ShowFn(trainer_status);
    }
    void stateTextsFollowTheLanguage() {
        QFETCH(ShowFn, show);
        auto w = testing::open_window(&language_, QStringLiteral("The capital of France is"));
        QVERIFY(w);
        QVERIFY(testing::step_and_wait(w->session()));
        const Shown shown = show(*w);
        QVERIFY(shown.text);
        QVERIFY(QTest::qWaitFor(shown.settled, 60000));
        const QString english = shown.text();
        QVERIFY2(!english.isEmpty() && !has_chinese(english), qPrintable(english));

        QVERIFY(language_.apply(QStringLiteral("zh_CN")));
        testing::settle();
        QVERIFY(QTest::qWaitFor(shown.settled, 60000));
        QVERIFY2(has_chinese(shown.text()), qPrintable(shown.text()));

        QVERIFY(language_.apply(QStringLiteral("en")));
        testing::settle();
        QVERIFY(QTest::qWaitFor(shown.settled, 60000));
        QCOMPARE(shown.text(), english);
    }
};

QTEST_MAIN(TestGuiLanguage)
#include "test_gui_language.moc"
