// The attention grid: one thumbnail per (layer, head) computed from the planes (masked cells
// masked, each row's strongest key darkest), GQA groups drawn as shared colour bands, a click
// selecting (layer, head); and a 30 x 9 grid at 512 tokens renders (max-pooled thumbnails).
#include "sample_trace.h"
#include "widgets/attention_grid.h"
#include "widgets/trace_colors.h"

#include <QSignalSpy>
#include <QtTest>

using namespace lmscope;
using namespace lmscope::widgets;
using namespace lmscope::test;

class TestAttentionGrid : public QObject {
    Q_OBJECT
private slots:
    void thumbnailsFromPlanes() {
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(sample_steps()));
        AttentionGrid grid(&m);
        for (int l = 0; l < kLayers; ++l)
            for (int h = 0; h < kHeads; ++h) {
                const QImage img = grid.thumbnail(l, h);
                QCOMPARE(img.size(), QSize(kTokens, kTokens));  // 6 tokens: one pixel per cell
                for (int q = 0; q < kTokens; ++q) {
                    // The weights grow with the key, so the diagonal is each row's maximum.
                    QCOMPARE(img.pixel(q, q), AttentionGrid::rampColor(1.0f));
                    const float rel = stored_weight(l, h, q, 0) / stored_weight(l, h, q, q);
                    QCOMPARE(img.pixel(0, q), AttentionGrid::rampColor(std::sqrt(rel)));
                    for (int k = q + 1; k < kTokens; ++k) QCOMPARE(img.pixel(k, q), AttentionGrid::maskedColor());
                }
            }
        QVERIFY(grid.thumbnail(kLayers, 0).isNull());
    }

    void extendsAlongThePathAndRebuildsOnRewind() {
        // Thumbnails extended step by step equal those built at once, also across a rewind.
        TraceModel m;
        m.setModel(sample_model_view());
        AttentionGrid grid(&m);
        const QVector<StepView> steps = sample_steps();
        for (const StepView& s : steps) {
            QVERIFY(m.appendStep(s));
            QVERIFY(!grid.thumbnail(2, 3).isNull());
        }
        TraceModel whole;
        whole.setModel(sample_model_view());
        QVERIFY(whole.setSteps(steps));
        AttentionGrid reference(&whole);
        QCOMPARE(grid.thumbnail(2, 3), reference.thumbnail(2, 3));
        m.setCurrentStep(0);
        QCOMPARE(grid.thumbnail(2, 3).size(), QSize(4, 4));
        QCOMPARE(grid.thumbnail(2, 3), reference.thumbnail(2, 3).copy(0, 0, 4, 4));
        // A new branch from step 0: position 4 again, another token (same closed-form weights).
        QVERIFY(m.appendStep(make_step(3, 0, Phase::Decode, 4, {token(2148, QStringLiteral(" wide"), Choice::Sampled)}, 2.0)));
        QCOMPARE(grid.thumbnail(2, 3).size(), QSize(5, 5));
        QCOMPARE(grid.thumbnail(2, 3), reference.thumbnail(2, 3).copy(0, 0, 5, 5));
    }

    void summariesAndUnrecordedRows() {
        QVector<StepView> steps = sample_steps();
        steps[1].planes.clear();     // row 4: summary only (strongest key = 4)
        steps[2].planes.clear();
        steps[2].summaries.clear();  // row 5: nothing
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(steps));
        AttentionGrid grid(&m);
        const QImage img = grid.thumbnail(1, 1);
        QCOMPARE(img.pixel(4, 4), AttentionGrid::rampColor(1.0f));
        QCOMPARE(img.pixel(0, 4), AttentionGrid::rampColor(0.0f));
        QCOMPARE(img.pixel(0, 5), AttentionGrid::unrecordedColor());
    }

    void gqaGroups_data() {
        QTest::addColumn<int>("n_head");
        QTest::addColumn<int>("n_head_kv");
        QTest::newRow("GQA 4/2") << 4 << 2;
        QTest::newRow("MQA 4/1") << 4 << 1;
        QTest::newRow("MHA 4/4") << 4 << 4;
        QTest::newRow("SmolLM2 9/3") << 9 << 3;
    }
    void gqaGroups() {
        QFETCH(int, n_head);
        QFETCH(int, n_head_kv);
        ModelView mv = sample_model_view();
        mv.n_head = n_head;
        mv.n_head_kv = n_head_kv;
        TraceModel m;
        m.setModel(mv);
        QVERIFY(m.setSteps(sample_steps()));
        AttentionGrid grid(&m);
        grid.resize(600, 400);
        const QImage img = grid.grab().toImage();
        const int size = n_head / n_head_kv;
        for (int g = 0; g < n_head_kv; ++g) {
            const QRect band = grid.groupBandRect(g);
            QVERIFY(!band.isEmpty());
            // The band spans exactly its query heads.
            for (int h = 0; h < n_head; ++h) {
                const bool inside = band.contains(QPoint(grid.cellRect(0, h).center().x(), band.center().y()));
                QCOMPARE(inside, h / size == g);
            }
            // Painted in the group's colour (a corner, away from the label).
            QCOMPARE(QColor(img.pixel(band.topLeft() + QPoint(2, 2))), colors::group(g));
        }
        QVERIFY(grid.groupBandRect(n_head_kv).isEmpty());
        if (n_head_kv > 1) QVERIFY(colors::group(0) != colors::group(1));
    }

    void clickSelectsHead_data() {
        QTest::addColumn<int>("layer");
        QTest::addColumn<int>("head");
        QTest::newRow("0,0") << 0 << 0;
        QTest::newRow("1,3") << 1 << 3;
        QTest::newRow("2,2") << 2 << 2;
    }
    void clickSelectsHead() {
        QFETCH(int, layer);
        QFETCH(int, head);
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(sample_steps()));
        AttentionGrid grid(&m);
        grid.resize(500, 400);
        QSignalSpy spy(&grid, &AttentionGrid::headActivated);
        QTest::mouseClick(&grid, Qt::LeftButton, {}, grid.cellRect(layer, head).center());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), layer);
        QCOMPARE(spy.at(0).at(1).toInt(), head);
        QCOMPARE(m.selectedLayer(), layer);
        QCOMPARE(m.selectedHead(), head);
    }

    void smolLM2ShapeAt512Tokens() {
        // 30 layers x 9 heads (3 KV heads), a 512-token prefill with every plane captured.
        constexpr int n = 512, layers = 30, heads = 9;
        ModelView mv;
        mv.n_layer = layers;
        mv.n_head = heads;
        mv.n_head_kv = 3;
        StepView s;
        s.n_layer = layers;
        s.n_head = heads;
        for (int i = 0; i < n; ++i) s.tokens.push_back(token(i, QStringLiteral(" t%1").arg(i), Choice::Prompt));
        for (int l = 0; l < layers; ++l)
            for (int h = 0; h < heads; ++h) {
                AttentionPlaneView p;
                p.layer = l;
                p.head = h;
                p.n_rows = n;
                p.weights.resize(qsizetype(packed_plane_count(0, n)));
                for (int q = 0; q < n; ++q) {
                    qfloat16* row = p.weights.data() + packed_row_offset(0, q);
                    for (int k = 0; k <= q; ++k) row[k] = qfloat16(k == (q * (h + 1)) % (q + 1) ? 0.5f : 0.5f / float(q + 1));
                }
                s.planes.push_back(std::move(p));
            }
        TraceModel m;
        m.setModel(mv);
        QVERIFY(m.setSteps({s}));
        AttentionGrid grid(&m);
        grid.resize(760, 1400);
        const QImage img = grid.grab().toImage();
        QVERIFY(!img.isNull());
        const QImage t = grid.thumbnail(29, 8);
        QCOMPARE(t.size(), QSize(AttentionGrid::kThumbResolution, AttentionGrid::kThumbResolution));
        // Max pooling keeps the 0.5 peaks: every pooled row holds one full-strength pixel.
        for (int y = 0; y < t.height(); ++y) {
            bool peak = false;
            for (int x = 0; x <= y; ++x) peak = peak || t.pixel(x, y) == AttentionGrid::rampColor(1.0f);
            QVERIFY(peak);
        }
        QVERIFY(img.save(snapshot_path(QStringLiteral("attention_grid_512"))));
    }

    void snapshot() {
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(sample_steps()));
        m.setSelectedHead(1, 2);
        AttentionGrid grid(&m);
        grid.resize(grid.sizeHint());
        QVERIFY(grid.grab().toImage().save(snapshot_path(QStringLiteral("attention_grid"))));
    }
};

QTEST_MAIN(TestAttentionGrid)
#include "test_attention_grid.moc"
