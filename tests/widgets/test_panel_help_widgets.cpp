// The widgets of "What am I looking at?": the "?" button, the explanation popover (sized to
// its text at any font, closed by Esc), the dismissible hint bar and the dock title bar with a
// "?" that follows its dock.
#include "widgets/help_button.h"
#include "widgets/help_popover.h"
#include "widgets/hint_bar.h"
#include "widgets/panel_title_bar.h"

#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QSignalSpy>
#include <QToolButton>
#include <QtTest>

using namespace lmscope::widgets;

namespace {

// Every label under `root` that shows less than its text needs.
QStringList cut_off_labels(const QWidget* root) {
    QStringList out;
    for (const QLabel* l : root->findChildren<QLabel*>()) {
        if (!l->isVisible() || l->text().isEmpty()) continue;
        const int need = l->wordWrap() ? l->heightForWidth(l->width()) : l->sizeHint().height();
        if (need > l->height() || (!l->wordWrap() && l->sizeHint().width() > l->width()))
            out << QStringLiteral("%1 (%2x%3, needs height %4)").arg(l->text().left(30)).arg(l->width()).arg(l->height()).arg(need);
    }
    return out;
}

const QString kLong = QStringLiteral(
    "Attention is how a token gathers information from the tokens before it. Each token asks a question "
    "(its <b>query</b>), every earlier token offers a label (its <b>key</b>) and content (its <b>value</b>): the "
    "query is compared with every key, <b>softmax</b> turns the scores into weights that add up to 1, and the "
    "token takes that mix of values.");
const QString kChinese = QStringLiteral(
    "注意力是一个词元从它前面的词元收集信息的方式。每个词元提出一个问题（它的<b>查询</b>），前面的每个词元给出一个标签（它的<b>键</b>）"
    "和内容（它的<b>值</b>）：查询与每个键比较，<b>softmax</b> 把分数变成加起来等于 1 的权重，词元取这些值的加权混合。");

}  // namespace

class TestPanelHelpWidgets : public QObject {
    Q_OBJECT
private slots:
    // The popover is as large as its texts need, at the normal and at stage mode's font,
    // short or long, English or Chinese, and grows when the text changes while it is open.
    void popoverFitsItsText_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("scale");
        for (double scale : {1.0, 1.5}) {
            const QByteArray s = QByteArray::number(scale);
            QTest::newRow("short " + s) << QStringLiteral("One line.") << scale;
            QTest::newRow("long " + s) << kLong << scale;
            QTest::newRow("chinese " + s) << kChinese << scale;
            QTest::newRow("one long word " + s) << QStringLiteral("Supercalifragilisticexpialidocious ") .repeated(3) << scale;
        }
    }
    void popoverFitsItsText() {
        QFETCH(QString, text);
        QFETCH(double, scale);
        QWidget anchor;
        anchor.resize(300, 200);
        anchor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&anchor));
        HelpPopover popover;
        QFont f = popover.font();
        f.setPointSizeF(f.pointSizeF() * scale);
        popover.setFont(f);
        popover.setContent(QStringLiteral("Attention"), text);
        popover.popup(&anchor);
        QTRY_VERIFY(popover.isVisible());
        QCOMPARE(popover.title(), QStringLiteral("Attention"));
        QCOMPARE(popover.text(), text);
        QVERIFY2(cut_off_labels(&popover).isEmpty(), qPrintable(cut_off_labels(&popover).join(QStringLiteral("; "))));
        // A readable width: wider than it is tall for a few sentences, at most 90% of the screen.
        QVERIFY(popover.width() <= popover.screen()->availableGeometry().width());
        // Longer text while open: it grows to fit.
        const int height = popover.height();
        popover.setContent(QStringLiteral("Attention"), text + QStringLiteral(" ") + kLong);
        QVERIFY(popover.height() > height);
        QVERIFY2(cut_off_labels(&popover).isEmpty(), qPrintable(cut_off_labels(&popover).join(QStringLiteral("; "))));
        // Inside the screen.
        QVERIFY(popover.screen()->availableGeometry().contains(popover.geometry()));
    }

    void popoverClosesOnEscape() {
        QWidget anchor;
        anchor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&anchor));
        HelpPopover popover;
        popover.setContent(QStringLiteral("T"), QStringLiteral("Text."));
        popover.popup(&anchor);
        QTRY_VERIFY(popover.isVisible());
        QTest::keyClick(&popover, Qt::Key_Escape);
        QTRY_VERIFY(!popover.isVisible());
    }

    void hintBarDismissesAndAsksForHelp() {
        HintBar bar;
        bar.setText(QStringLiteral("Each chip is one token."));
        bar.resize(200, bar.heightForWidth(200) > 0 ? bar.heightForWidth(200) : bar.sizeHint().height());
        bar.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        QCOMPARE(bar.text(), QStringLiteral("Each chip is one token."));
        QVERIFY(!bar.closeButton()->toolTip().isEmpty());
        QSignalSpy help(&bar, &HintBar::helpRequested);
        QSignalSpy dismissed(&bar, &HintBar::dismissed);
        QTest::mouseClick(bar.helpButton(), Qt::LeftButton);
        QCOMPARE(help.count(), 1);
        QVERIFY(bar.isVisible());
        QTest::mouseClick(bar.closeButton(), Qt::LeftButton);
        QCOMPARE(dismissed.count(), 1);
        QVERIFY(!bar.isVisible());
    }

    // A narrow hint wraps instead of being cut off.
    void hintBarWrapsWhenNarrow() {
        QWidget host;
        auto* bar = new HintBar(&host);
        bar->setText(QStringLiteral("Row: the token asking; column: the token it looks at; darker: more attention."));
        host.resize(180, 400);
        bar->setGeometry(0, 0, 180, bar->heightForWidth(180));
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        QVERIFY(bar->hasHeightForWidth());
        QVERIFY2(cut_off_labels(bar).isEmpty(), qPrintable(cut_off_labels(bar).join(QStringLiteral("; "))));
    }

    void titleBarFollowsItsDock() {
        QMainWindow window;
        auto* dock = new QDockWidget(QStringLiteral("Tokens"), &window);
        dock->setWidget(new QLabel(QStringLiteral("content")));
        window.addDockWidget(Qt::TopDockWidgetArea, dock);
        auto* bar = new PanelTitleBar(dock);
        QCOMPARE(dock->titleBarWidget(), bar);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(bar->title(), QStringLiteral("Tokens"));
        dock->setWindowTitle(QStringLiteral("词元"));
        QCOMPARE(bar->title(), QStringLiteral("词元"));
        QVERIFY(bar->helpButton()->isVisible());
        QSignalSpy clicked(bar->helpButton(), &QAbstractButton::clicked);
        QTest::mouseClick(bar->helpButton(), Qt::LeftButton);
        QCOMPARE(clicked.count(), 1);
        auto* close = bar->findChild<QToolButton*>(QStringLiteral("panelClose"));
        QVERIFY(close && close->isVisible());
        dock->setFeatures(QDockWidget::DockWidgetMovable);
        QVERIFY(!close->isVisible());
        dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable);
        QTest::mouseClick(close, Qt::LeftButton);
        QVERIFY(!dock->isVisible());
    }

    // The title bar takes no more height than the dock's own (the docks are sized to the room
    // their panels need, title included), at the normal and at stage mode's font.
    void titleBarIsNoTallerThanTheNativeOne_data() {
        QTest::addColumn<double>("scale");
        QTest::newRow("normal") << 1.0;
        QTest::newRow("stage") << 1.5;
    }
    void titleBarIsNoTallerThanTheNativeOne() {
        QFETCH(double, scale);
        QMainWindow window;
        QFont f = window.font();
        f.setPointSizeF(f.pointSizeF() * scale);
        window.setFont(f);
        auto* native = new QDockWidget(QStringLiteral("Logits"), &window);
        auto* custom = new QDockWidget(QStringLiteral("Logits"), &window);
        for (QDockWidget* d : {native, custom}) {
            d->setWidget(new QLabel(QStringLiteral("content")));
            window.addDockWidget(Qt::LeftDockWidgetArea, d);
        }
        new PanelTitleBar(custom);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const int mine = custom->widget()->geometry().top(), theirs = native->widget()->geometry().top();
        QVERIFY2(mine <= theirs, qPrintable(QStringLiteral("%1 > %2").arg(mine).arg(theirs)));
    }

    // The "?" grows with the font (stage mode) and its sizeHint holds its "?".
    void helpButtonFollowsTheFont() {
        HelpButton button;
        const QSize normal = button.sizeHint();
        QVERIFY(normal.height() >= button.fontMetrics().height());
        QFont f = button.font();
        f.setPointSizeF(f.pointSizeF() * 1.5);
        button.setFont(f);
        QVERIFY(button.sizeHint().height() > normal.height());
        QCOMPARE(button.text(), QStringLiteral("?"));
        QVERIFY(!button.toolTip().isEmpty());
    }
};

QTEST_MAIN(TestPanelHelpWidgets)
#include "test_panel_help_widgets.moc"
