// Nothing the window shows is cut off or drawn over something else, at 1280×720 and up, in
// English and Chinese: after a prefill and eight
// decode steps (on the fixture model, and on SmolLM2 for real words), each dock is raised in turn and every label, button, box, tab, the status bar
// message and every chart's titles, legends, axis and value labels are checked against the
// room they have (layout_check.h). Reset Layout brings back the arrangement for the window's
// size, and stage mode gives the docks back as they were. The fixture model, offscreen.
// (Stage mode's own screens: test_gui_stage.)
#include "common/testing.h"
#include "gui_testing.h"
#include "tools/layout_check.h"
#include "widgets/sample_trace.h"
#include "widgets/kv_chart.h"
#include "widgets/timeline.h"
#include "widgets/token_strip.h"
#include "widgets/trace_model.h"
#include "gui/dock_layout.h"
#include "gui/labs/context_compare_lab.h"
#include "gui/labs/lab_host.h"
#include "gui/labs/lab_window.h"
#include "gui/language.h"
#include "gui/main_window.h"
#include "gui/panel_guide.h"
#include "gui/panel_help.h"
#include "gui/session_controller.h"
#include "widgets/hint_bar.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QMap>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QFile>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolButton>
#include <QtTest>

#include <qcustomplot.h>

using namespace lmscope;
using lmscope::gui::DockLayout;
using lmscope::gui::MainWindow;
using lmscope::tools::clipped_texts;
using lmscope::testing::open_window;
using lmscope::testing::settle;
using lmscope::testing::step_and_wait;
using lmscope::testing::wait_for;

namespace {


// Every problem in the window with each dock raised in turn (a tabbed dock is checked when it
// is the one shown: the others keep a stale rectangle off the window), the tabs then put back.
QStringList problems_with_each_dock_raised(MainWindow& w) {
    QStringList all = clipped_texts(&w);
    const QList<QDockWidget*> docks = w.findChildren<QDockWidget*>();
    QList<QDockWidget*> front;
    for (QDockWidget* d : docks)
        if (!d->visibleRegion().isEmpty()) front << d;
    for (QDockWidget* d : docks) {
        if (w.tabifiedDockWidgets(d).isEmpty() || front.contains(d)) continue;
        d->raise();
        settle();
        all << clipped_texts(d);
    }
    for (QDockWidget* d : front) d->raise();
    settle();
    all.removeDuplicates();
    return all;
}

// Where each dock of the window is (its object name: the rectangle in the window; a dock
// floating, hidden or behind another's tab, whose rectangle is stale, with an empty one).
QMap<QString, QRect> dock_geometries(MainWindow& w) {
    QMap<QString, QRect> out;
    for (QDockWidget* d : w.findChildren<QDockWidget*>())
        out.insert(d->objectName(), d->isVisible() && !d->isFloating() && !d->visibleRegion().isEmpty() ? QRect(d->mapTo(&w, QPoint(0, 0)), d->size()) : QRect());
    return out;
}

QString rect_text(const QRect& r) { return QStringLiteral("%1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height()); }

}  // namespace

class TestGuiLayout : public QObject {
    Q_OBJECT
    gui::Language language_;

private slots:
    void initTestCase() { testing::use_test_settings("test_gui_layout"); }
    void init() {
        const std::string model = testing::testdata_file("models/fx-gqa.gguf");
        LMSCOPE_REQUIRE_FILE(model, "the fixture model");
    }

    // The model a row runs: the fixture, SmolLM2 or Gemma 3 270M (skipped when not fetched).
    static QString model_for(const QString& name) {
        if (name == QLatin1String("gemma")) return QString::fromStdString(testing::gemma_model());
        return name == QLatin1String("smollm2") ? QString::fromStdString(testing::sample_model()) : testing::fixture_model();
    }
    void cleanup() { QSettings().clear(); }

    void nothingIsCutOff_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("language");
        QTest::addColumn<int>("arrangement");
        QTest::addColumn<QString>("model");
        const int compact = int(DockLayout::Arrangement::Compact), wide = int(DockLayout::Arrangement::Wide);
        for (const char* model : {"fixture", "smollm2"}) {
            const QString m = QLatin1String(model);
            QTest::addRow("%s 1280x720", model) << QSize(1280, 720) << "en" << compact << m;
            QTest::addRow("%s 1600x1000", model) << QSize(1600, 1000) << "en" << wide << m;
            QTest::addRow("%s 1920x1080", model) << QSize(1920, 1080) << "en" << wide << m;
            QTest::addRow("%s zh_CN 1280x720", model) << QSize(1280, 720) << "zh_CN" << compact << m;
            QTest::addRow("%s zh_CN 1600x1000", model) << QSize(1600, 1000) << "zh_CN" << wide << m;
        }
        // Gemma's spec lists its recipe (sliding window, QK-norm, norms after attention and FFN):
        // the walk found the Model dock widening the left column until the heatmap scrolled.
        QTest::addRow("gemma 1280x720") << QSize(1280, 720) << "en" << compact << QStringLiteral("gemma");
        QTest::addRow("gemma zh_CN 1280x720") << QSize(1280, 720) << "zh_CN" << compact << QStringLiteral("gemma");
    }
    void nothingIsCutOff() {
        QFETCH(QSize, size);
        QFETCH(QString, language);
        QFETCH(int, arrangement);
        QFETCH(QString, model);
        const QString path = model_for(model);
        LMSCOPE_REQUIRE_FILE(path.toStdString(), "the sample model");
        QVERIFY(language_.apply(language));
        auto w = open_window(&language_, QStringLiteral("The capital of France is a city on the river, and"), path);
        QVERIFY(w);
        // The panels as they are once the first run's hints are dismissed (the hints themselves
        // are checked in test_gui_panel_guide: at these sizes they take room some panels need).
        for (gui::Panel p : gui::all_panels())
            if (!gui::is_lab(p)) w->panelGuide()->hintBar(p)->closeButton()->click();
        w->resize(size);
        settle();
        QCOMPARE(w->size(), size);
        QCOMPARE(int(DockLayout::arrangementFor(w->size(), 1.0)), arrangement);
        w->resetLayoutAction()->trigger();
        settle();
        // The compact arrangement gives the tensor tables' room to the panels.
        const bool wide = arrangement == int(DockLayout::Arrangement::Wide);
        QCOMPARE(w->centralWidget()->height() > 0, wide);
        QCOMPARE(w->dockLayout()->workspaceAction()->isChecked(), wide);
        for (int i = 0; i < 9; ++i) QVERIFY(step_and_wait(w->session()));  // the prefill, eight decode steps
        settle();

        const QStringList problems = problems_with_each_dock_raised(*w);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY(language_.apply(QStringLiteral("en")));
    }

    // The first run lays the docks out with their hints; dismissing the hints (without Reset
    // Layout) fits the rows again, so no panel keeps scrolling for the room a hint took.
    void dismissingHintsFitsThePanels() {
        const QString path = QString::fromStdString(testing::sample_model());
        LMSCOPE_REQUIRE_FILE(path.toStdString(), "SmolLM2 (the sample model)");
        QVERIFY(language_.apply(QStringLiteral("en")));
        auto w = open_window(&language_, QStringLiteral("The capital of France is a city on the river, and"), path);
        QVERIFY(w);
        w->resize(1600, 1000);
        settle();
        w->resetLayoutAction()->trigger();  // the default arrangement, hints shown
        settle();
        for (int i = 0; i < 9; ++i) QVERIFY(step_and_wait(w->session()));
        for (gui::Panel p : gui::all_panels())
            if (!gui::is_lab(p)) w->panelGuide()->hintBar(p)->closeButton()->click();
        settle();
        const QStringList problems = problems_with_each_dock_raised(*w);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // The Context compare lab after a run and a head sweep ("river bank" / "bank account"), each
    // of its views in turn: the Labs window keeps the size asked for and nothing in it is cut off
    // or overlaps (issue 35: at every size its charts were squashed to a few pixels, axis
    // numbers stacked, the labels of the next tokens and of the head sweep overlapping).
    void contextCompareFits_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("model");
        QTest::newRow("fixture 1280x720") << QSize(1280, 720) << QStringLiteral("fixture");
        QTest::newRow("smollm2 1280x720") << QSize(1280, 720) << QStringLiteral("smollm2");
        QTest::newRow("smollm2 1920x1080") << QSize(1920, 1080) << QStringLiteral("smollm2");
    }
    void contextCompareFits() {
        QFETCH(QSize, size);
        QFETCH(QString, model);
        const QString path = model_for(model);
        LMSCOPE_REQUIRE_FILE(path.toStdString(), "the model");
        QVERIFY(language_.apply(QStringLiteral("en")));
        auto w = open_window(&language_, QStringLiteral("A B C"), path);
        QVERIFY(w);
        gui::labs::LabWindow* labs = w->labWindow();
        QTRY_VERIFY_WITH_TIMEOUT(w->labHost()->model() != nullptr, 60000);
        auto* lab = labs->findChild<gui::labs::ContextCompareLab*>();
        QVERIFY(lab);
        labs->showLab(int(labs->labs().indexOf(lab)));
        labs->resize(size);
        QSignalSpy ran(lab, &gui::labs::ContextCompareLab::runFinished);
        lab->run();
        QVERIFY(wait_for(ran));
        QSignalSpy swept(lab, &gui::labs::ContextCompareLab::sweepFinished);
        lab->sweepLayer();
        QVERIFY(wait_for(swept));
        settle();
        QCOMPARE(labs->size(), size);
        for (int view = 0; view < gui::labs::ContextCompareLab::ViewCount; ++view) {
            lab->views()->setCurrentIndex(view);
            settle();
            const QStringList problems = clipped_texts(labs);
            QVERIFY2(problems.isEmpty(), qPrintable(lab->views()->tabText(view) + QStringLiteral(":\n") + problems.join(QLatin1Char('\n'))));
        }
        labs->hide();
    }

    // The column left of the attention docks keeps its width step after step (issue 35: it
    // drifted narrower at each step), at both arrangements.
    void leftColumnStableAcrossSteps_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("model");
        QTest::newRow("fixture 1280x720") << QSize(1280, 720) << QStringLiteral("fixture");
        QTest::newRow("fixture 1920x1080") << QSize(1920, 1080) << QStringLiteral("fixture");
        QTest::newRow("smollm2 1280x720") << QSize(1280, 720) << QStringLiteral("smollm2");
        QTest::newRow("smollm2 1920x1080") << QSize(1920, 1080) << QStringLiteral("smollm2");
    }
    void leftColumnStableAcrossSteps() {
        QFETCH(QSize, size);
        QFETCH(QString, model);
        const QString path = model_for(model);
        LMSCOPE_REQUIRE_FILE(path.toStdString(), "the model");
        QVERIFY(language_.apply(QStringLiteral("en")));
        auto w = open_window(&language_, QStringLiteral("The capital of France is a city on the river, and"), path);
        QVERIFY(w);
        w->resize(size);
        settle();
        w->resetLayoutAction()->trigger();
        settle();
        QDockWidget* heat = w->dock(gui::Panel::Attention);
        QDockWidget* tokens = w->dock(gui::Panel::Tokens);
        QVERIFY(step_and_wait(w->session()));  // the prefill
        settle();
        const int left = tokens->width(), right = heat->width();
        for (int i = 0; i < 8; ++i) {
            QVERIFY(step_and_wait(w->session()));
            settle();
        }
        QCOMPARE(tokens->width(), left);
        QCOMPARE(heat->width(), right);
    }

    // A window made larger and then smaller again keeps its panels fitted (the walk found the
    // Tokens dock grown empty at 1280x720 after 1920x1080, the Logits and Sampling panels below
    // it scrolling).
    void resizingKeepsThePanelsFitted_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("fixture") << QStringLiteral("fixture");
        QTest::newRow("smollm2") << QStringLiteral("smollm2");
    }
    void resizingKeepsThePanelsFitted() {
        QFETCH(QString, model);
        const QString path = model_for(model);
        LMSCOPE_REQUIRE_FILE(path.toStdString(), "the model");
        QVERIFY(language_.apply(QStringLiteral("en")));
        auto w = open_window(&language_, QStringLiteral("The capital of France is"), path);
        QVERIFY(w);
        for (gui::Panel p : gui::all_panels())
            if (!gui::is_lab(p)) w->panelGuide()->hintBar(p)->closeButton()->click();
        w->resize(1280, 720);
        settle();
        w->resetLayoutAction()->trigger();
        settle();
        QVERIFY(step_and_wait(w->session()));
        for (const QSize size : {QSize(1920, 1080), QSize(1280, 720)}) {
            w->resize(size);
            settle();
        }
        const QStringList problems = problems_with_each_dock_raised(*w);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // View > Reset Layout after the docks were moved, floated, closed and resized puts every
    // dock back where the default arrangement puts it, at the size it gives it (issue 35: Reset
    // Layout did nothing).
    void resetLayoutRestoresTheDefault_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("compact 1280x720") << QSize(1280, 720);
        QTest::newRow("wide 1920x1080") << QSize(1920, 1080);
    }
    void resetLayoutRestoresTheDefault() {
        QFETCH(QSize, size);
        QVERIFY(language_.apply(QStringLiteral("en")));
        auto w = open_window(&language_, QStringLiteral("A B C"));
        QVERIFY(w);
        w->resize(size);
        settle();
        w->resetLayoutAction()->trigger();
        settle();
        QVERIFY(step_and_wait(w->session()));
        settle();
        const QMap<QString, QRect> before = dock_geometries(*w);
        QDockWidget* heat = w->dock(gui::Panel::Attention);
        QDockWidget* tokens = w->dock(gui::Panel::Tokens);
        w->resizeDocks({heat}, {heat->width() / 2}, Qt::Horizontal);
        w->resizeDocks({tokens}, {tokens->height() * 2}, Qt::Vertical);
        w->addDockWidget(Qt::LeftDockWidgetArea, w->dock(gui::Panel::Sampling));
        w->dock(gui::Panel::KvCache)->setFloating(true);
        w->dock(gui::Panel::Timeline)->close();
        w->dockLayout()->workspaceAction()->toggle();
        settle();
        QVERIFY(dock_geometries(*w) != before);
        w->resetLayoutAction()->trigger();
        settle();
        const QMap<QString, QRect> after = dock_geometries(*w);
        for (auto it = before.begin(); it != before.end(); ++it)
            QVERIFY2(after.value(it.key()) == it.value(),
                     qPrintable(QStringLiteral("%1: %2 after Reset Layout, %3 by default").arg(it.key(), rect_text(after.value(it.key())), rect_text(it.value()))));
        QCOMPARE(w->dockLayout()->workspaceAction()->isChecked(), DockLayout::arrangementFor(size, 1.0) == DockLayout::Arrangement::Wide);
    }

    // A walk that cannot fail proves nothing: a label squeezed below its text is found.
    void theWalkFindsACutLabel() {
        QWidget host;
        auto* label = new QLabel(QStringLiteral("a label far too long for its forty pixels"), &host);
        label->setGeometry(0, 0, 40, 20);
        host.resize(200, 50);
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        const QStringList problems = clipped_texts(&host);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.front().contains(QStringLiteral("needs")), qPrintable(problems.front()));
    }

    // Each of the walk's newer checks finds what it looks for, on a widget broken on purpose.
    void eachCheckCanFail_data() {
        QTest::addColumn<int>("broken");
        QTest::addColumn<QString>("found");  // a word of the problem reported
        QTest::newRow("a table cell elided, no tooltip") << 0 << QStringLiteral("elided");
        QTest::newRow("a table header cut, no tooltip") << 1 << QStringLiteral("header");
        QTest::newRow("a chart's texts overlapping") << 2 << QStringLiteral("overlap");
        QTest::newRow("a chart's data area too small") << 3 << QStringLiteral("data area");
        QTest::newRow("English left in the Chinese interface") << 4 << QStringLiteral("still in English");
        QTest::newRow("Chinese left in the English interface") << 5 << QStringLiteral("still in Chinese");
    }
    void eachCheckCanFail() {
        QFETCH(int, broken);
        QFETCH(QString, found);
        QWidget host;
        host.resize(400, 300);
        QTemporaryDir dir;
        const QString ts = dir.filePath(QStringLiteral("t.ts"));
        {
            QFile f(ts);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("<?xml version=\"1.0\" encoding=\"utf-8\"?><TS version=\"2.1\" language=\"zh_CN\"><context><name>X</name>"
                    "<message><source>Attention rows</source><translation>\xe6\xb3\xa8\xe6\x84\x8f\xe5\x8a\x9b\xe8\xa1\x8c</translation></message>"
                    "</context></TS>");
        }
        const tools::TranslationCatalogue english = tools::TranslationCatalogue::read(ts);
        QStringList problems;
        auto shown = [&] { host.show(); QVERIFY(QTest::qWaitForWindowExposed(&host)); settle(); };
        if (broken <= 1) {
            auto* table = new QTableWidget(1, 1, &host);
            table->setGeometry(0, 0, 400, 300);
            table->setHorizontalHeaderLabels({broken == 1 ? QStringLiteral("a title far wider than its column") : QStringLiteral("t")});
            table->setItem(0, 0, new QTableWidgetItem(broken == 0 ? QStringLiteral("a cell far wider than its column") : QStringLiteral("c")));
            table->setColumnWidth(0, 40);
            shown();
            problems = clipped_texts(&host);
        } else if (broken <= 3) {
            auto* plot = new QCustomPlot(&host);
            plot->setGeometry(0, 0, broken == 3 ? 150 : 400, broken == 3 ? 110 : 300);
            plot->xAxis->setLabel(QStringLiteral("x"));
            if (broken == 2) {  // a value label over the tick labels of the bottom axis
                auto* text = new QCPItemText(plot);
                text->setClipToAxisRect(false);
                text->position->setType(QCPItemPosition::ptAbsolute);
                text->setText(QStringLiteral("0.5 over the ticks"));
                shown();
                plot->replot(QCustomPlot::rpImmediateRefresh);
                text->position->setCoords(plot->axisRect()->rect().center().x(), plot->axisRect()->rect().bottom() + 12);
            }
            shown();
            problems = clipped_texts(&host);
        } else {
            auto* label = new QLabel(broken == 4 ? QStringLiteral("Attention rows") : QString::fromUtf8("\xe6\xb3\xa8\xe6\x84\x8f\xe5\x8a\x9b\xe8\xa1\x8c"), &host);
            label->setGeometry(0, 0, 300, 30);
            shown();
            problems = tools::stale_language(&host, english, broken == 4);
        }
        QVERIFY2(!problems.isEmpty() && problems.join(QLatin1Char('\n')).contains(found), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // The walk's step checks find what they look for: the newest token's chip scrolled out of
    // view, and a token strip, KV chart or timeline showing another step than the session's
    // (each bound to a trace one step behind the session's; issue 35's "what each panel shows is
    // the session's current step"). The same panels on the session's own trace, the newest chip
    // in view, pass.
    void theStepChecksCanFail_data() {
        QTest::addColumn<QString>("panel");  // "chips", "tokens", "kv", "timeline"
        QTest::addColumn<bool>("broken");
        QTest::addColumn<QString>("found");  // a word of the problem reported
        QTest::newRow("the newest chip out of view") << "chips" << true << QStringLiteral("out of view");
        QTest::newRow("the newest chip in view") << "chips" << false << QString();
        QTest::newRow("tokens of the step before") << "tokens" << true << QStringLiteral("shows 5 tokens, the session has 6");
        QTest::newRow("tokens of the session's step") << "tokens" << false << QString();
        QTest::newRow("the KV chart of the step before") << "kv" << true << QStringLiteral("draws 2 steps");
        QTest::newRow("the KV chart of the session's step") << "kv" << false << QString();
        QTest::newRow("a timeline without the current step") << "timeline" << true << QStringLiteral("does not show the current step 2");
        QTest::newRow("a timeline with the current step") << "timeline" << false << QString();
    }
    void theStepChecksCanFail() {
        QFETCH(QString, panel);
        QFETCH(bool, broken);
        QFETCH(QString, found);
        widgets::TraceModel session, behind;  // `behind`: the session's trace without its last step
        session.setModel(test::sample_model_view());
        behind.setModel(test::sample_model_view());
        const QVector<widgets::StepView> steps = test::sample_steps();
        QVERIFY(session.setSteps(steps));
        QVERIFY(behind.setSteps(steps.mid(0, 2)));
        QCOMPARE(session.currentStep(), 2);
        widgets::TraceModel* shown = broken && panel != QLatin1String("chips") ? &behind : &session;
        QWidget host;
        host.resize(600, 400);
        QWidget* widget = nullptr;
        QScrollArea* scroll = nullptr;
        if (panel == QLatin1String("chips") || panel == QLatin1String("tokens")) {
            auto* strip = new widgets::TokenStrip(shown);
            scroll = new QScrollArea(&host);  // as the Tokens dock holds them, a line high
            scroll->setWidget(strip);
            scroll->setWidgetResizable(true);
            scroll->setGeometry(0, 0, 120, strip->minimumSizeHint().height());
            widget = strip;
        } else if (panel == QLatin1String("kv")) {
            widget = new widgets::KvChart(shown, &host);
        } else {
            widget = new widgets::Timeline(shown, &host);
        }
        if (!scroll) widget->setGeometry(0, 0, 600, 400);
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        settle();
        QStringList problems;
        if (panel == QLatin1String("chips")) {
            auto* strip = static_cast<widgets::TokenStrip*>(widget);
            QVERIFY(strip->height() > scroll->viewport()->height());  // the chips wrap past the line shown
            const QRect last = strip->chipRect(strip->chipCount() - 1);
            if (broken) scroll->verticalScrollBar()->setValue(0);
            else scroll->ensureVisible(last.center().x(), last.center().y(), 0, last.height() / 2 + 1);
            settle();
            problems = tools::hidden_newest_token(&host);
        } else {
            problems = tools::stale_steps(&host, session);
        }
        const QString all = problems.join(QLatin1Char('\n'));
        if (found.isEmpty()) QVERIFY2(problems.isEmpty(), qPrintable(all));
        else QVERIFY2(all.contains(found), qPrintable(all));
    }

    // Reset Layout puts a closed dock back; stage mode hides the docks and gives them back as
    // they were.
    void resetAndStageModeLayouts() {
        QVERIFY(language_.apply(QStringLiteral("en")));
        auto w = open_window(&language_, QStringLiteral("A B C"));
        QVERIFY(w);
        w->resize(1600, 1000);
        settle();
        w->resetLayoutAction()->trigger();
        settle();
        auto* kv = w->dock(gui::Panel::KvCache);
        auto* logits = w->dock(gui::Panel::Logits);
        QVERIFY(kv && logits);
        QVERIFY(kv->isVisible() && logits->isVisible());  // side by side in the wide arrangement
        QVERIFY(w->tabifiedDockWidgets(kv).isEmpty());
        kv->close();
        settle();
        QVERIFY(!kv->isVisible());
        w->setStageMode(true);  // the stage in place of the docks
        settle();
        QVERIFY(!logits->isVisible());
        w->setStageMode(false);  // the docks as they were: KV closed
        settle();
        QVERIFY(logits->isVisible());
        QVERIFY(!kv->isVisible());
        w->resetLayoutAction()->trigger();
        settle();
        QVERIFY(kv->isVisible());
        QVERIFY(w->tabifiedDockWidgets(kv).isEmpty());
        const QString key = w->dockLayout()->currentKey();
        QVERIFY2(key.contains(QLatin1Char('x')), qPrintable(key));
    }
};

QTEST_MAIN(TestGuiLayout)
#include "test_gui_layout.moc"
