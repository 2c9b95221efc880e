// The trace model: steps form branches through their parents, the current path gives the
// sequence (with byte spans), attention rows are assembled across steps, and bad steps are
// refused.
#include "sample_trace.h"
#include "widgets/trace_model.h"

#include <QSignalSpy>
#include <QtTest>

using namespace lmscope::widgets;
using namespace lmscope::test;
using lmscope::Choice;
using lmscope::LayerHead;
using lmscope::Phase;

class TestTraceModel : public QObject {
    Q_OBJECT
private slots:
    void sequenceAndByteSpans() {
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(sample_steps()));
        QCOMPARE(m.currentStep(), 2);
        QCOMPARE(m.sequenceLength(), kTokens);
        const QVector<qint32> ids = {504, 7539, 6356, 198, 436, 14};
        const QVector<qint64> ends = {3, 9, 14, 15, 19, 20};
        for (qint32 i = 0; i < kTokens; ++i) {
            QCOMPARE(m.sequence()[i].id, ids[i]);
            QCOMPARE(m.sequence()[i].byte_end, ends[i]);
            QCOMPARE(m.sequence()[i].byte_begin, i == 0 ? 0 : ends[i - 1]);
        }
        QCOMPARE(m.stepOfPosition(0), 0);
        QCOMPARE(m.stepOfPosition(3), 0);
        QCOMPARE(m.stepOfPosition(5), 2);
        QCOMPARE(m.stepOfPosition(6), -1);
        QCOMPARE(m.selectedQuery(), 5);  // follows the last token
    }

    void branchesAndRewind() {
        TraceModel m;
        QVERIFY(m.setSteps(sample_steps(true)));
        QCOMPARE(m.leaves(), (QVector<qint32>{2, 3}));
        QCOMPARE(m.branchLeaf(), 3);
        QCOMPARE(m.path(), (QVector<qint32>{0, 1, 3}));
        QCOMPARE(m.sequence()[4].id, 436);
        QCOMPARE(m.sequence().back().id, 2148);

        QSignalSpy branch(&m, &TraceModel::branchChanged);
        m.selectBranch(2);
        QCOMPARE(branch.count(), 1);
        QCOMPARE(m.currentStep(), 2);
        QCOMPARE(m.sequence().back().id, 14);

        // Rewinding along the shown branch keeps it; the steps beyond stay on the branch path.
        m.setCurrentStep(0);
        QCOMPARE(branch.count(), 1);
        QCOMPARE(m.branchPath(), (QVector<qint32>{0, 1, 2}));
        QCOMPARE(m.sequenceLength(), 4);
    }

    void selection() {
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(sample_steps()));
        QSignalSpy query(&m, &TraceModel::queryChanged);
        m.setSelectedQuery(2);
        QCOMPARE(m.selectedQuery(), 2);
        QCOMPARE(query.count(), 1);
        m.setSelectedQuery(99);  // out of range: ignored
        QCOMPARE(m.selectedQuery(), 2);
        m.setCurrentStep(0);  // position 2 still exists
        QCOMPARE(m.selectedQuery(), 2);

        QSignalSpy head(&m, &TraceModel::headChanged);
        m.setSelectedHead(2, 3);
        QCOMPARE(head.count(), 1);
        QCOMPARE(head.at(0).at(0).toInt(), 2);
        QCOMPARE(head.at(0).at(1).toInt(), 3);
        m.setSelectedHead(3, 0);  // no layer 3
        QCOMPARE(m.selectedLayer(), 2);
    }

    void attentionAssembledAcrossSteps() {
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(sample_steps()));
        const AttentionMatrix a = m.attentionMatrix(1, 2);
        QCOMPARE(a.n, kTokens);
        QCOMPARE(a.block, 1);
        for (qint32 q = 0; q < kTokens; ++q) {
            QVERIFY(a.captured[q]);
            for (qint32 k = 0; k < kTokens; ++k) {
                if (k > q) QVERIFY(std::isnan(a.at(q, k)));  // masked
                else QCOMPARE(a.at(q, k), stored_weight(1, 2, q, k));
            }
            const QVector<float> row = m.attentionRow(1, 2, q);  // the same, one query
            QCOMPARE(row.size(), q + 1);
            for (qint32 k = 0; k <= q; ++k) QCOMPARE(row[k], stored_weight(1, 2, q, k));
        }
        const AttentionMatrix mean = m.meanOverHeads(0);
        for (qint32 q = 0; q < kTokens; ++q)
            for (qint32 k = 0; k <= q; ++k) {
                double sum = 0;
                for (qint32 h = 0; h < kHeads; ++h) sum += stored_weight(0, h, q, k);
                QVERIFY(std::abs(mean.at(q, k) - sum / kHeads) < 1e-6);
            }
    }

    // A sequence whose matrix would take more than the trace's budget (a 45,000-token trace asked
    // 8.1 GB) is pooled into blocks, each its largest weight, within the budget; the rows themselves
    // stay exact. The last query captured two heads: head 0 on the previous token, head 1 on the first.
    void longSequenceWithinTheBudget_data() {
        QTest::addColumn<qint32>("n");
        QTest::addColumn<qint32>("block");
        QTest::newRow("11,585 tokens: one cell each") << 11585 << 1;
        QTest::newRow("11,586 tokens: 2 x 2 blocks") << 11586 << 2;
        QTest::newRow("45,000 tokens: 4 x 4 blocks") << 45000 << 4;
    }
    void longSequenceWithinTheBudget() {
        QFETCH(qint32, n);
        QFETCH(qint32, block);
        StepView prefill;  // no rows captured
        prefill.tokens = QVector<TokenView>(n - 1, token(1000, QStringLiteral(" w"), Choice::Prompt));
        const auto none = [](qint32, qint32, qint32, qint32) { return 0.0; };
        StepView last = make_step(1, 0, Phase::Decode, n - 1, {token(1001, QStringLiteral(" x"), Choice::Greedy)}, 1.0, none);
        last.planes.clear();
        for (qint32 h : {0, 1}) {
            QVector<float> row(n, 0.0f);  // [key]
            row[h == 0 ? n - 2 : 0] = 1.0f;
            last.planes.push_back(AttentionPlaneView::from_matrix(0, h, n - 1, 1, row));
        }
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps({prefill, last}));
        QCOMPARE(TraceModel::matrixBlock(n), block);
        for (const bool mean : {false, true}) {
            const AttentionMatrix a = mean ? m.meanOverHeads(0) : m.attentionMatrix(0, 0);
            QCOMPARE(a.n, n);
            QCOMPARE(a.block, block);
            QCOMPARE(a.side, (n + block - 1) / block);
            QCOMPARE(a.weights.size(), qsizetype(a.side) * a.side);
            QVERIFY(quint64(a.weights.size()) * sizeof(float) <= TraceModel::kMatrixBytes);
            QVERIFY(a.captured[n - 1] && !a.captured[0] && !a.captured[n - 2]);
            QVERIFY(std::isnan(a.at(0, 0)));  // not captured
            // The block holding key n - 2 keeps the weight on it: 1, or the mean's 1/2.
            QCOMPARE(a.at(n - 1, n - 2), mean ? 0.5f : 1.0f);
            QCOMPARE(a.at(n - 1, 0), mean ? 0.5f : 0.0f);
        }
        const QVector<float> row = m.attentionRow(0, 0, n - 1);
        QCOMPARE(row.size(), n);
        QCOMPARE(row[n - 2], 1.0f);
        QCOMPARE(row[n - 3], 0.0f);
        QCOMPARE(m.meanRow(0, n - 1)[0], 0.5f);
        QVERIFY(m.attentionRow(0, 0, 0).isEmpty());  // not captured
    }

    void uncapturedRowsAreNaN() {
        QVector<StepView> steps = sample_steps();
        steps[1].planes.clear();
        steps[1].planes_dropped = true;
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(steps));
        const AttentionMatrix a = m.attentionMatrix(0, 0);
        QVERIFY(!a.captured[4]);
        QVERIFY(std::isnan(a.at(4, 0)));
        QVERIFY(a.captured[5]);
    }

    void droppedPlanes() {
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(sample_steps()));
        QSignalSpy reset(&m, &TraceModel::stepsReset);
        QSignalSpy current(&m, &TraceModel::currentStepChanged);
        QVERIFY(m.dropPlanes(0));
        QCOMPARE(reset.count(), 1);
        QCOMPARE(current.count(), 1);
        QVERIFY(m.step(0)->planes.isEmpty());
        QVERIFY(m.step(0)->planes_dropped);
        QVERIFY(!m.step(0)->summaries.isEmpty());
        const AttentionMatrix a = m.attentionMatrix(0, 0);
        QVERIFY(!a.captured[0] && !a.captured[3]);
        QVERIFY(a.captured[4]);
        QVERIFY(!m.dropPlanes(9));
    }

    void badStepsRefused_data() {
        QTest::addColumn<int>("which");
        QTest::newRow("index out of order") << 0;
        QTest::newRow("parent not earlier") << 1;
        QTest::newRow("plane size wrong") << 2;
    }
    // The heads switched off for the next steps: kept sorted and unique, heads outside the model
    // dropped, one signal per change.
    void ablationSet_data() {
        QTest::addColumn<QVector<LayerHead>>("given");
        QTest::addColumn<QVector<LayerHead>>("kept");
        QTest::newRow("sorted") << QVector<LayerHead>{{1, 0}, {0, 1}} << QVector<LayerHead>{{0, 1}, {1, 0}};
        QTest::newRow("duplicates") << QVector<LayerHead>{{0, 1}, {0, 1}} << QVector<LayerHead>{{0, 1}};
        QTest::newRow("outside the model") << QVector<LayerHead>{{0, 0}, {99, 0}, {0, 99}, {-1, 0}}
                                           << QVector<LayerHead>{{0, 0}};
        QTest::newRow("none") << QVector<LayerHead>{} << QVector<LayerHead>{};
    }
    void ablationSet() {
        QFETCH(QVector<LayerHead>, given);
        QFETCH(QVector<LayerHead>, kept);
        TraceModel m;
        m.setModel(sample_model_view());
        QSignalSpy changed(&m, &TraceModel::ablationChanged);
        m.setAblation(given);
        QCOMPARE(m.ablation(), kept);
        QCOMPARE(changed.size(), kept.isEmpty() ? 0 : 1);
        m.setAblation(given);  // the same set again: no signal
        QCOMPARE(changed.size(), kept.isEmpty() ? 0 : 1);
        for (const LayerHead& h : kept) QVERIFY(m.isAblated(h.layer, h.head));
    }

    void badStepsRefused() {
        QFETCH(int, which);
        QVector<StepView> steps = sample_steps();
        if (which == 0) steps[1].index = 5;
        if (which == 1) steps[1].parent = 2;
        if (which == 2) steps[2].planes[0].weights.removeLast();
        TraceModel m;
        QVERIFY(!m.setSteps(steps));
        QCOMPARE(m.stepCount(), 0);
        QVERIFY(m.setSteps(sample_steps()));
        StepView extra = sample_steps(true)[3];
        extra.index = 7;
        QVERIFY(!m.appendStep(extra));
        QCOMPARE(m.stepCount(), 3);
    }
};

QTEST_MAIN(TestTraceModel)
#include "test_trace_model.moc"
