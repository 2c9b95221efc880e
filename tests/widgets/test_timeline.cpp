// The timeline: a block per step of the shown branch, prefill taller than decode, a click asks
// to rewind to that step, and every branch is listed and selectable.
#include "sample_trace.h"
#include "widgets/timeline.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QtTest>

using namespace lmscope;
using namespace lmscope::widgets;
using namespace lmscope::test;

class TestTimeline : public QObject {
    Q_OBJECT
private slots:
    void clickRewinds_data() {
        QTest::addColumn<int>("step");
        QTest::newRow("prefill") << 0;
        QTest::newRow("decode 1") << 1;
        QTest::newRow("decode 2") << 2;
    }
    void clickRewinds() {
        QFETCH(int, step);
        TraceModel m;
        QVERIFY(m.setSteps(sample_steps()));
        Timeline view(&m);
        view.resize(640, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy spy(&view, &Timeline::rewindTo);
        QTest::mouseClick(view.canvas(), Qt::LeftButton, {}, view.stepRect(step).center());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), step);
        QCOMPARE(m.currentStep(), 2);  // rewinding is the app's to do (engine first)
    }

    void prefillTallerThanDecode() {
        TraceModel m;
        QVERIFY(m.setSteps(sample_steps()));
        Timeline view(&m);
        view.resize(640, 200);
        QVERIFY(view.stepRect(0).height() > view.stepRect(1).height());
        QCOMPARE(view.stepRect(1).height(), view.stepRect(2).height());
        QVERIFY(view.stepRect(0).right() < view.stepRect(1).left());
        QVERIFY(view.summary()->text().contains(QStringLiteral("12.5")));
    }

    void branchesListedAndSelectable() {
        TraceModel m;
        QVERIFY(m.setSteps(sample_steps(true)));
        Timeline view(&m);
        view.resize(640, 200);
        QCOMPARE(view.branchBox()->count(), 2);
        QCOMPARE(view.branchBox()->itemData(0).toInt(), 2);
        QCOMPARE(view.branchBox()->itemData(1).toInt(), 3);
        QCOMPARE(view.branchBox()->currentIndex(), 1);  // the newest branch is shown
        QVERIFY(view.stepRect(2).isEmpty());
        QVERIFY(!view.stepRect(3).isEmpty());

        QSignalSpy spy(&view, &Timeline::branchSelected);
        view.branchBox()->activated(0);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), 2);
        QCOMPARE(m.branchLeaf(), 2);
        QCOMPARE(m.currentStep(), 2);
        QVERIFY(!view.stepRect(2).isEmpty());
        QVERIFY(view.stepRect(3).isEmpty());
    }

    void snapshot() {
        TraceModel m;
        QVector<StepView> steps = sample_steps(true);
        for (int i = 4; i < 14; ++i)
            steps.push_back(make_step(i, i - 1, Phase::Decode, i + 2, {token(9, QStringLiteral(" x%1").arg(i), Choice::Sampled)}, 3.0 + 0.1 * i));
        QVERIFY(m.setSteps(steps));
        m.setCurrentStep(9);
        Timeline view(&m);
        view.resize(900, 170);
        QVERIFY(view.grab().toImage().save(snapshot_path(QStringLiteral("timeline"))));
    }
};

QTEST_MAIN(TestTimeline)
#include "test_timeline.moc"
