// The logits view: bars equal the probabilities before and after the filters, the chosen
// token is highlighted, the heading gives the entropy, a click on a candidate asks to force it.
#include "sample_trace.h"
#include "widgets/logits_view.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>
#include <qcustomplot.h>

using namespace lmscope;
using namespace lmscope::widgets;
using namespace lmscope::test;

class TestLogitsView : public QObject {
    Q_OBJECT
private slots:
    // With and without: shown only while the step it belongs to is current and ran with heads
    // switched off; the rows and the KL are the figures handed in; a replay hides Recompute.
    void comparisonShowsOnlyForItsStep() {
        TraceModel m;
        QVector<StepView> steps = sample_steps();
        steps[1].ablated = {{0, 1}, {2, 0}};
        steps[2].ablated = {{1, 1}};
        QVERIFY(m.setSteps(steps));
        m.setCurrentStep(1);
        LogitsView view(&m);
        QVERIFY(!view.viewState().comparison_shown);
        AblationComparisonView c;
        c.state = AblationComparisonView::State::Computing;
        c.step = 1;
        c.heads = steps[1].ablated;
        view.setComparison(c);
        QVERIFY(view.viewState().comparison_shown);
        QVERIFY(std::isnan(view.viewState().kl));
        QVERIFY(view.viewState().comparison_heading.contains(QStringLiteral("Heads switched off: L0 H1, L2 H0")));
        c.state = AblationComparisonView::State::Ready;
        c.kl = 0.125;
        c.top = {{7, QStringLiteral(" was"), 0.5, 0.25}, {3, QStringLiteral(" is"), 0.2, 0.4}};
        view.setComparison(c);
        LogitsView::ViewState v = view.viewState();
        QVERIFY(v.comparison_shown);
        QCOMPARE(v.kl, 0.125);
        QCOMPARE(v.with, (QVector<double>{0.5, 0.2}));
        QCOMPARE(v.without, (QVector<double>{0.25, 0.4}));
        QCOMPARE(v.comparison_tokens, (QStringList{QStringLiteral(" was"), QStringLiteral(" is")}));
        QVERIFY(v.comparison_heading.contains(QStringLiteral("KL(with ‖ without) = 0.1250 nats")));

        m.setCurrentStep(2);  // also ran with a head off: step 1's figures never show for it
        QVERIFY(!view.viewState().comparison_shown);
        m.setCurrentStep(1);
        QVERIFY(view.viewState().comparison_shown);
        m.setCurrentStep(0);
        QVERIFY(!view.viewState().comparison_shown);
        c.step = 0;  // figures said to be step 0's, but step 0 ran with every head on
        view.setComparison(c);
        QVERIFY(!view.viewState().comparison_shown);

        QVERIFY(!view.viewState().recompute_enabled);  // step 0 ran with the heads off now (none)
        m.setAblation({{1, 0}});
        QVERIFY(view.viewState().recompute_enabled);
        QSignalSpy recompute(&view, &LogitsView::recomputeStep);
        view.recomputeButton()->click();
        QCOMPARE(recompute.size(), 1);
        QCOMPARE(recompute.front().front().toInt(), 0);
        view.setRecomputeEnabled(false);
        QVERIFY(!view.viewState().recompute_enabled);
    }

    void barsAreProbabilities_data() {
        QTest::addColumn<int>("step");
        QTest::addColumn<int>("chosen_row");
        QTest::newRow("prefill, greedy") << 0 << 0;
        QTest::newRow("decode, forced outside the survivors") << 1 << 2;
        QTest::newRow("decode, sampled") << 2 << 0;
    }
    void barsAreProbabilities() {
        QFETCH(int, step);
        QFETCH(int, chosen_row);
        TraceModel m;
        const QVector<StepView> steps = sample_steps();
        QVERIFY(m.setSteps(steps));
        m.setCurrentStep(step);
        LogitsView view(&m);
        const LogitsData& lg = steps[step].logits;
        const LogitsView::ViewState shown = view.viewState();
        QCOMPARE(view.rows().size(), lg.before().size());
        QCOMPARE(shown.before.size(), lg.before().size());
        QCOMPARE(shown.after.size(), lg.before().size());
        QCOMPARE(shown.labels.size(), lg.before().size());
        for (int i = 0; i < lg.before().size(); ++i) {
            QCOMPARE(view.rows()[i].id, lg.before()[i].id);
            QCOMPARE(shown.before[i], double(lg.before()[i].prob));
            double after = 0.0;
            for (const CandidateView& a : lg.after())
                if (a.id == lg.before()[i].id) after = a.prob;
            QCOMPARE(shown.after[i], after);
            QCOMPARE(shown.labels[i].startsWith(QStringLiteral("▶ ")), i == chosen_row);
        }
        QCOMPARE(view.chosenRow(), chosen_row);
        QCOMPARE(shown.marked_row, chosen_row);
        QVERIFY(shown.heading.contains(QStringLiteral("1.25")));
        QCOMPARE(shown.probability_label, QStringLiteral("probability"));
        QCOMPARE(shown.before_name, QStringLiteral("before the filters"));
        QCOMPARE(view.table().rows.size(), view.rows().size());
    }

    // Each filtered candidate names the filter that removed it: the first stage that keeps
    // fewer tokens than its rank in the stage before (top-k, top-p and min-p keep a prefix).
    void removedByNamesTheFilter_data() {
        QTest::addColumn<qint32>("id");
        QTest::addColumn<qsizetype>("stage");  // -1: kept, or not listed where it would tell
        QTest::newRow("kept by every filter") << 10 << qsizetype(-1);
        QTest::newRow("second, cut by min-p") << 11 << qsizetype(3);
        QTest::newRow("fourth, cut by top-p") << 13 << qsizetype(2);
        QTest::newRow("fifth, cut by top-p") << 14 << qsizetype(2);
        QTest::newRow("not among the listed") << 99 << qsizetype(-1);
        QTest::newRow("listed raw, pushed out of the list by the penalty") << 15 << qsizetype(-1);
    }
    void removedByNamesTheFilter() {
        QFETCH(qint32, id);
        QFETCH(qsizetype, stage);
        const auto list = [](std::initializer_list<qint32> ids) {
            QVector<CandidateView> v;
            for (qint32 i : ids) v.push_back(candidate(i, QString::number(i), 0.0f, 0.1f));
            return v;
        };
        LogitsData lg;
        lg.stages = {FilterStageView{Stage::Raw, 1024, list({10, 11, 12, 13, 14, 15})},
                     FilterStageView{Stage::Penalty, 1024, list({10, 11, 12, 13, 14})},
                     FilterStageView{Stage::TopP, 3, list({10, 11, 12})},
                     FilterStageView{Stage::MinP, 1, list({10})}};
        QCOMPARE(lg.removedBy(id), stage);
    }

    void tableSaysWhichFilter() {
        TraceModel m;
        QVERIFY(m.setSteps(sample_steps()));
        m.setCurrentStep(0);
        LogitsView view(&m);
        const ChartTable t = view.table();
        QCOMPARE(t.columns.last(), QStringLiteral("removed_by"));
        QCOMPARE(t.rows.size(), qsizetype(4));
        const QVariantList expected = {QVariant(), QVariant(), QStringLiteral("top_k"), QStringLiteral("top_k")};
        for (qsizetype r = 0; r < t.rows.size(); ++r) QCOMPARE(t.rows[r].last(), expected[r]);
    }

    // The panel's "✗ …" and the export's removed_by name the same sampler step, from one
    // function: temperature 0 (the only temperature that removes tokens) is "greedy" in both.
    void removalNamedAlikeInPanelAndExport_data() {
        QTest::addColumn<Stage>("stage");
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("title");
        QTest::newRow("temperature 0") << Stage::Temperature << "greedy" << "greedy";
        QTest::newRow("top-k") << Stage::TopK << "top_k" << "top-k";
        QTest::newRow("top-p") << Stage::TopP << "top_p" << "top-p";
        QTest::newRow("min-p") << Stage::MinP << "min_p" << "min-p";
        QTest::newRow("penalty") << Stage::Penalty << "penalty" << "repetition penalty";
    }
    void removalNamedAlikeInPanelAndExport() {
        QFETCH(Stage, stage);
        QFETCH(QString, id);
        QFETCH(QString, title);
        QCOMPARE(removal_name(stage).id, id);
        QCOMPARE(removal_name(stage).title, title);
        QVector<StepView> steps = sample_steps();
        StepView& s = steps[0];
        s.logits.stages[1].stage = stage;  // the stage that keeps the top two of four
        TraceModel m;
        QVERIFY(m.setSteps(steps));
        m.setCurrentStep(0);
        LogitsView view(&m);
        QCOMPARE(view.viewState().numbers.value(2), QStringLiteral("0.125 ✗ %1").arg(title));
        QCOMPARE(view.table().rows.value(2).last(), QVariant(id));
    }

    // Each row's numbers: kept rows both probabilities, removed rows ✗ and the filter; the
    // hover text adds the logit.
    void rowsSayTheirNumbers_data() {
        QTest::addColumn<int>("row");
        QTest::addColumn<QString>("numbers");
        QTest::addColumn<QString>("tip");
        QTest::newRow("kept") << 0 << "0.500 → 0.688" << "'␣was': probability 0.5000 before the filters, 0.6875 after them; logit 14.000";
        QTest::newRow("kept too") << 1 << "0.250 → 0.313" << "logit 13.300";
        QTest::newRow("removed by top-k") << 2 << "0.125 ✗ top-k" << "removed by top-k; logit 12.600";
    }
    void rowsSayTheirNumbers() {
        QFETCH(int, row);
        QFETCH(QString, numbers);
        QFETCH(QString, tip);
        TraceModel m;
        QVERIFY(m.setSteps(sample_steps()));
        m.setCurrentStep(0);
        LogitsView view(&m);
        const LogitsView::ViewState shown = view.viewState();
        QCOMPARE(shown.numbers.value(row), numbers);
        QVERIFY2(shown.tips.value(row).contains(tip), qPrintable(shown.tips.value(row)));
    }

    void clickForcesToken_data() {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("id");
        QTest::newRow("top") << 0 << 436;
        QTest::newRow("second") << 1 << 314;
        QTest::newRow("fourth") << 3 << 30;
    }
    void clickForcesToken() {
        QFETCH(int, row);
        QFETCH(int, id);
        TraceModel m;
        QVERIFY(m.setSteps(sample_steps()));
        m.setCurrentStep(0);
        LogitsView view(&m);
        view.resize(640, 420);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.plot()->replot();
        QSignalSpy spy(&view, &LogitsView::forceToken);
        QTest::mouseClick(view.plot(), Qt::LeftButton, {}, view.rowCenter(row).toPoint());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), id);
    }

    void followsFontChanges() {
        TraceModel m;
        QVERIFY(m.setSteps(sample_steps()));
        LogitsView view(&m);
        const double heading = view.heading()->font().pointSizeF();
        const double ticks = view.plot()->yAxis->tickLabelFont().pointSizeF();
        QFont f = view.font();
        f.setPointSizeF(f.pointSizeF() * 2);
        view.setFont(f);
        QVERIFY(view.heading()->font().pointSizeF() > 1.9 * heading);
        QVERIFY(view.plot()->yAxis->tickLabelFont().pointSizeF() > 1.9 * ticks);
    }

    void emptyAndSnapshot() {
        TraceModel m;
        LogitsView view(&m);
        QCOMPARE(view.rows().size(), 0);
        QCOMPARE(view.viewState().marked_row, -1);
        QVERIFY(view.viewState().before.isEmpty());
        QVERIFY(m.setSteps(sample_steps()));
        m.setCurrentStep(0);
        view.resize(720, 420);
        view.plot()->replot();
        QVERIFY(view.grab().toImage().save(snapshot_path(QStringLiteral("logits_view"))));
    }
};

QTEST_MAIN(TestLogitsView)
#include "test_logits_view.moc"
