// "What am I looking at?" in the main window and the lab window: every panel and lab has a
// title, an explanation and a hint in English and in Chinese; each "?" opens its panel's
// explanation, uncut; F1 explains the panel or lab holding the focus; a dismissed hint stays
// dismissed in a new window until Help > Show Panel Hints Again; switching the language
// retranslates an open explanation and the hints; F1 outside every panel opens the lesson. No
// model is needed: the panels exist empty.
#include "gui_testing.h"
#include "tools/layout_check.h"
#include "gui/dock_layout.h"
#include "gui/help_window.h"
#include "gui/labs/lab.h"
#include "gui/labs/lab_window.h"
#include "gui/language.h"
#include "gui/main_window.h"
#include "gui/panel_guide.h"
#include "gui/panel_help.h"
#include "widgets/help_button.h"
#include "widgets/help_popover.h"
#include "widgets/hint_bar.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QSettings>
#include <QTabWidget>
#include <QToolButton>
#include <QtTest>

using namespace lmscope;
using gui::Panel;
using gui::PanelGuide;
using lmscope::testing::settle;

Q_DECLARE_METATYPE(lmscope::gui::Panel)

namespace {

bool has_chinese(const QString& s) {
    for (const QChar c : s)
        if (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF) return true;
    return false;
}

void add_panel_rows() {
    QTest::addColumn<Panel>("panel");
    for (Panel p : gui::all_panels()) QTest::newRow(qPrintable(gui::panel_object_name(p))) << p;
}

// Brings `panel` on screen: its dock raised, the central tables shown, or its lab's tab in the
// shown lab window; returns the widget the panel is.
QWidget* bring_up(gui::MainWindow& w, Panel panel) {
    const QString name = gui::panel_object_name(panel);
    if (gui::is_lab(panel)) {
        auto* lab = w.labWindow()->findChild<gui::labs::Lab*>(name);
        w.labWindow()->showLab(w.labWindow()->tabs()->indexOf(lab));
        return lab;
    }
    if (panel == Panel::Tables) {
        w.dockLayout()->workspaceAction()->setChecked(true);
        return w.findChild<QWidget*>(name);
    }
    QDockWidget* dock = w.dock(panel);
    dock->show();
    dock->raise();
    return dock;
}


}  // namespace

class TestGuiPanelGuide : public QObject {
    Q_OBJECT
    gui::Language language_;

private slots:
    void initTestCase() { testing::use_test_settings("test_gui_panel_guide"); }
    void init() { QVERIFY(language_.apply(QStringLiteral("en"))); }
    void cleanup() { QSettings().clear(); }

    // Every panel and lab explains itself in English and in Chinese (a translation, not the
    // English left in place).
    void textsInBothLanguages_data() { add_panel_rows(); }
    void textsInBothLanguages() {
        QFETCH(Panel, panel);
        QCOMPARE(gui::panel_named(gui::panel_object_name(panel)), std::optional<Panel>(panel));
        const gui::PanelHelp en = gui::panel_help(panel);
        QVERIFY(!en.title.isEmpty());
        QVERIFY(!en.hint.isEmpty());
        // two or three sentences
        const qsizetype sentences = en.explanation.count(QStringLiteral(". ")) + 1;
        QVERIFY2(sentences >= 2 && sentences <= 4, qPrintable(en.explanation));
        QVERIFY(!en.hint.contains(QLatin1Char('\n')));
        QVERIFY(language_.apply(QStringLiteral("zh_CN")));
        const gui::PanelHelp zh = gui::panel_help(panel);
        for (const auto& [e, z] : {std::pair{en.title, zh.title}, {en.explanation, zh.explanation}, {en.hint, zh.hint}}) {
            QVERIFY2(z != e, qPrintable(e));
            QVERIFY2(has_chinese(z), qPrintable(z));
        }
        // The rich text keeps its markup in Chinese.
        QCOMPARE(zh.explanation.count(QStringLiteral("<b>")), en.explanation.count(QStringLiteral("<b>")));
    }

    // Each "?" opens its own panel's explanation, nothing of it cut off.
    void questionMarkExplainsItsPanel_data() { add_panel_rows(); }
    void questionMarkExplainsItsPanel() {
        QFETCH(Panel, panel);
        gui::MainWindow w(&language_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        settle();
        bring_up(w, panel);
        settle();
        PanelGuide* guide = w.panelGuide();
        widgets::HelpButton* button = guide->helpButton(panel);
        QVERIFY(button);
        QTRY_VERIFY(button->isVisible());
        QTest::mouseClick(button, Qt::LeftButton);
        widgets::HelpPopover* popover = guide->popover();
        QTRY_VERIFY(popover->isVisible());
        QCOMPARE(guide->shownPanel(), std::optional<Panel>(panel));
        const gui::PanelHelp help = gui::panel_help(panel);
        QCOMPARE(popover->title(), help.title);
        QCOMPARE(popover->text(), help.explanation);
        const QStringList cut = tools::clipped_texts(popover);
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));
        QTest::keyClick(popover, Qt::Key_Escape);
        QTRY_VERIFY(!popover->isVisible());
        QCOMPARE(guide->shownPanel(), std::nullopt);
    }

    // F1 explains the panel or lab holding the keyboard focus: a click into a dock's panel gives
    // it the focus; in a lab, a control of the lab has it.
    void f1ExplainsTheFocusedPanel_data() { add_panel_rows(); }
    void f1ExplainsTheFocusedPanel() {
        QFETCH(Panel, panel);
        gui::MainWindow w(&language_);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        settle();
        QWidget* shown = bring_up(w, panel);
        settle();
        PanelGuide* guide = w.panelGuide();
        QWidget* target = nullptr;
        if (gui::is_lab(panel)) {
            QVERIFY(QTest::qWaitForWindowActive(w.labWindow()));
            for (QWidget* c : shown->findChildren<QWidget*>())
                if (c->isVisible() && c->focusPolicy() == Qt::StrongFocus) {
                    target = c;
                    break;
                }
            QVERIFY(target);
            target->setFocus(Qt::OtherFocusReason);
            QTRY_VERIFY(QApplication::focusWidget() && shown->isAncestorOf(QApplication::focusWidget()));
            target = QApplication::focusWidget();  // the control's focus proxy, if it has one
        } else {
            // A click on the panel's hint (text that takes no focus itself) focuses the panel.
            auto* text = guide->hintBar(panel)->findChild<QLabel*>();
            QTRY_VERIFY(text->isVisible());
            QTest::mouseClick(text, Qt::LeftButton);
            target = QApplication::focusWidget();
        }
        QTRY_VERIFY(target && QApplication::focusWidget() == target);
        QCOMPARE(guide->focusedPanel(), std::optional<Panel>(panel));
        QTest::keyClick(target, Qt::Key_F1);
        QTRY_VERIFY(guide->popover()->isVisible());
        QCOMPARE(guide->popover()->title(), gui::panel_help(panel).title);
        QCOMPARE(guide->popover()->text(), gui::panel_help(panel).explanation);
        guide->popover()->hide();
    }

    // On the first run every hint is whole, wrapped where its panel is narrow: at the smallest
    // window and the wide arrangement, in English and Chinese.
    void hintsAreNeverCutOff_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("language");
        QTest::newRow("1280x720") << QSize(1280, 720) << "en";
        QTest::newRow("1600x1000") << QSize(1600, 1000) << "en";
        QTest::newRow("zh_CN 1600x1000") << QSize(1600, 1000) << "zh_CN";
        QTest::newRow("1920x1080") << QSize(1920, 1080) << "en";
    }
    void hintsAreNeverCutOff() {
        QFETCH(QSize, size);
        QFETCH(QString, language);
        QVERIFY(language_.apply(language));
        gui::MainWindow w(&language_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.resize(size);
        settle();
        w.resetLayoutAction()->trigger();
        settle();
        for (Panel p : gui::all_panels()) {
            // The tables are hidden in the compact arrangement (and their hint with them).
            if (gui::is_lab(p) || (p == Panel::Tables && w.centralWidget()->height() == 0)) continue;
            bring_up(w, p);
            settle();
            widgets::HintBar* hint = w.panelGuide()->hintBar(p);
            QVERIFY2(hint->isVisible(), qPrintable(gui::panel_object_name(p)));
            const QStringList cut = tools::clipped_texts(hint);
            QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));
        }
    }

    // F1 with the focus in no panel opens the lesson instead.
    void f1WithoutAPanelOpensTheLesson() {
        gui::MainWindow w(&language_);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        if (QWidget* f = QApplication::focusWidget()) f->clearFocus();
        QCOMPARE(w.panelGuide()->focusedPanel(), std::nullopt);
        QCOMPARE(w.panelGuide()->explainAction()->shortcut(), QKeySequence(QKeySequence::HelpContents));
        w.panelGuide()->explainAction()->trigger();
        QTRY_VERIFY(w.helpWindow()->isVisible());
        QCOMPARE(w.helpWindow()->topic(), gui::HelpWindow::Topic::Lesson);
        QVERIFY(!w.panelGuide()->popover()->isVisible());
    }

    // A dismissed hint stays dismissed in the next window (the same settings) while the others
    // show; a lab's hint goes with its lab; Show Panel Hints Again brings them all back.
    void dismissedHintsStayDismissed() {
        {
            gui::MainWindow w(&language_);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            for (Panel p : gui::all_panels()) QVERIFY(!w.panelGuide()->isDismissed(p));
            w.dock(gui::Panel::Logits)->raise();
            widgets::HintBar* hint = w.panelGuide()->hintBar(Panel::Logits);
            QTRY_VERIFY(hint->isVisible());
            QCOMPARE(hint->text(), gui::panel_help(Panel::Logits).hint);
            QTest::mouseClick(hint->closeButton(), Qt::LeftButton);
            QVERIFY(!hint->isVisible());
            QVERIFY(w.panelGuide()->isDismissed(Panel::Logits));
            w.labWindow()->showLab(2);  // the chat lab
            QVERIFY(QTest::qWaitForWindowExposed(w.labWindow()));
            widgets::HintBar* lab_hint = w.panelGuide()->hintBar(Panel::ChatLab);
            QTRY_VERIFY(lab_hint->isVisible());
            QCOMPARE(lab_hint->text(), gui::panel_help(Panel::ChatLab).hint);
            QTest::mouseClick(lab_hint->closeButton(), Qt::LeftButton);
            QVERIFY(!lab_hint->isVisible());
            w.labWindow()->showLab(1);  // the KV lab still has its hint
            QTRY_VERIFY(lab_hint->isVisible());
            QCOMPARE(lab_hint->text(), gui::panel_help(Panel::KvLab).hint);
        }
        gui::MainWindow w(&language_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        PanelGuide* guide = w.panelGuide();
        QVERIFY(guide->isDismissed(Panel::Logits));
        QVERIFY(guide->isDismissed(Panel::ChatLab));
        QVERIFY(guide->hintBar(Panel::Logits)->isHidden());
        QVERIFY(!guide->hintBar(Panel::Tokens)->isHidden());
        w.labWindow()->showLab(2);
        QVERIFY(guide->hintBar(Panel::ChatLab)->isHidden());
        w.labWindow()->showLab(0);
        QVERIFY(!guide->hintBar(Panel::TokenizerLab)->isHidden());
        w.labWindow()->showLab(2);
        // Help > Show Panel Hints Again
        QVERIFY(w.findChildren<QAction*>().contains(guide->showHintsAction()));
        guide->showHintsAction()->trigger();
        for (Panel p : gui::all_panels()) {
            QVERIFY(!guide->isDismissed(p));
            QVERIFY(!guide->hintBar(p)->isHidden());
        }
    }

    // Switching the language rewrites an open explanation, every hint and the Help actions.
    void languageSwitchRetranslates() {
        gui::MainWindow w(&language_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        PanelGuide* guide = w.panelGuide();
        guide->explain(Panel::Attention);
        QTRY_VERIFY(guide->popover()->isVisible());
        const QString english = guide->popover()->text();
        const QString action = guide->explainAction()->text();
        QVERIFY(language_.apply(QStringLiteral("zh_CN")));
        const gui::PanelHelp zh = gui::panel_help(Panel::Attention);
        QVERIFY(zh.explanation != english);
        QTRY_COMPARE(guide->popover()->text(), zh.explanation);
        QCOMPARE(guide->popover()->title(), zh.title);
        QVERIFY(guide->popover()->isVisible());
        for (Panel p : gui::all_panels())
            if (!gui::is_lab(p) || p == Panel::TokenizerLab)  // the lab window's bar shows the current lab
                QCOMPARE(guide->hintBar(p)->text(), gui::panel_help(p).hint);
        QVERIFY(guide->explainAction()->text() != action);
        QVERIFY(has_chinese(guide->explainAction()->text()));
        QVERIFY(has_chinese(guide->helpButton(Panel::Tokens)->toolTip()));
        QVERIFY(has_chinese(guide->hintBar(Panel::Tokens)->closeButton()->toolTip()));
        guide->popover()->hide();
        QVERIFY(language_.apply(QStringLiteral("en")));
        QTRY_COMPARE(guide->hintBar(Panel::Tokens)->text(), gui::panel_help(Panel::Tokens).hint);
    }
};

QTEST_MAIN(TestGuiPanelGuide)
#include "test_gui_panel_guide.moc"
