// The timeline: a bar per step of the shown branch on a time axis, each as long as its forward
// time on the axis's printed scale, decode neighbours apart, prefill taller than decode; a click
// asks to rewind to that step, and every branch is listed and selectable.
#include "sample_trace.h"
#include "widgets/timeline.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QtTest>

using namespace lmscope;
using namespace lmscope::widgets;
using namespace lmscope::test;

namespace {

// A prefill of `prompt` tokens taking `prefill_ms`, then `decodes` steps of `decode_ms` each.
QVector<StepView> timed_run(qint32 prompt, double prefill_ms, qint32 decodes, double decode_ms) {
    QVector<TokenView> tokens;
    for (qint32 i = 0; i < prompt; ++i) tokens.push_back(token(100 + i, QStringLiteral(" p"), Choice::Prompt));
    QVector<StepView> steps = {make_step(0, -1, Phase::Prefill, 0, tokens, prefill_ms, [](qint32, qint32, qint32, qint32) { return 0.0; })};
    for (qint32 i = 1; i <= decodes; ++i)
        steps.push_back(make_step(i, i - 1, Phase::Decode, prompt + i - 1, {token(9, QStringLiteral(" x"), Choice::Sampled)},
                                  decode_ms, [](qint32, qint32, qint32, qint32) { return 0.0; }));
    return steps;
}

}  // namespace

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

    // Bars in proportion on the axis's own scale at a projector's 1280 pixels: each bar runs
    // from its start to its end time as the ticks place them (less a gap of 2 px and rounding), the
    // ticks are labelled in ms or s and do not overlap, and neighbouring decodes differ in colour.
    void barsOnTheTimeAxis_data() {
        QTest::addColumn<qint32>("prompt");
        QTest::addColumn<double>("prefill_ms");
        QTest::addColumn<qint32>("decodes");
        QTest::addColumn<double>("decode_ms");
        QTest::addColumn<QString>("unit");  // of the tick labels
        QTest::newRow("short prompt, a few decodes") << 4 << 12.5 << 3 << 3.0 << " ms";
        QTest::newRow("2,000-token prompt, 82 decodes") << 2000 << 8700.0 << 82 << 126.0 << " s";
        QTest::newRow("very long prefill, 5 decodes") << 2000 << 60000.0 << 5 << 200.0 << " s";
        QTest::newRow("150 fast decodes") << 12 << 50.0 << 150 << 30.0 << " s";
    }
    void barsOnTheTimeAxis() {
        QFETCH(qint32, prompt);
        QFETCH(double, prefill_ms);
        QFETCH(qint32, decodes);
        QFETCH(double, decode_ms);
        QFETCH(QString, unit);
        TraceModel m;
        QVERIFY(m.setSteps(timed_run(prompt, prefill_ms, decodes, decode_ms)));
        Timeline view(&m);
        view.resize(1280, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QVector<Timeline::Tick> ticks = view.ticks();
        QVERIFY2(ticks.size() >= 3, qPrintable(QString::number(ticks.size())));
        for (qsizetype i = 0; i < ticks.size(); ++i) {
            QVERIFY2(ticks[i].label.endsWith(unit), qPrintable(ticks[i].label));
            if (i > 0) QVERIFY2(ticks[i - 1].label_rect.right() < ticks[i].label_rect.left(), qPrintable(ticks[i].label));
        }
        const double px_per_ms = double(ticks.back().x - ticks[0].x) / (ticks.back().ms - ticks[0].ms);
        const auto x = [&](double ms) { return ticks[0].x + ms * px_per_ms; };
        double start = 0;
        for (qint32 s = 0; s <= decodes; ++s) {
            const double ms = s == 0 ? prefill_ms : decode_ms;
            const QRect r = view.stepRect(s);
            QVERIFY2(std::abs(r.left() - x(start)) <= 1.0, qPrintable(QStringLiteral("step %1 starts at %2, not %3").arg(s).arg(r.left()).arg(x(start))));
            const double end = r.right() + 1;
            QVERIFY2(end <= x(start + ms) + 1.0 && end >= x(start + ms) - 4.0,
                     qPrintable(QStringLiteral("step %1 ends at %2, not %3").arg(s).arg(end).arg(x(start + ms))));
            start += ms;
        }
        const QImage image = view.canvas()->grab().toImage();
        for (qint32 s = 1; s < decodes; ++s)
            QVERIFY2(image.pixel(view.stepRect(s).center()) != image.pixel(view.stepRect(s + 1).center()),
                     qPrintable(QStringLiteral("decodes %1 and %2 look alike").arg(s).arg(s + 1)));
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
        // The runs the walk found unreadable, at a projector's width.
        const struct { const char* name; qint32 prompt; double prefill; qint32 decodes; double decode; } runs[] = {
            {"timeline_long_prompt", 2000, 8700.0, 82, 126.0}, {"timeline_very_long_prefill", 2000, 60000.0, 5, 200.0},
            {"timeline_150_decodes", 12, 50.0, 150, 30.0}};
        for (const auto& run : runs) {
            TraceModel long_run;
            QVERIFY(long_run.setSteps(timed_run(run.prompt, run.prefill, run.decodes, run.decode)));
            Timeline wide(&long_run);
            wide.resize(1260, 170);
            QVERIFY(wide.grab().toImage().save(snapshot_path(QString::fromLatin1(run.name))));
        }
    }
};

QTEST_MAIN(TestTimeline)
#include "test_timeline.moc"
