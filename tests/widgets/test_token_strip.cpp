// The token strip: a chip per token of the current path with visible whitespace, and a click
// on a chip selects that query position.
#include "sample_trace.h"
#include "widgets/token_strip.h"
#include "widgets/trace_model.h"

#include <QSignalSpy>
#include <QtTest>

using namespace lmscope;
using namespace lmscope::widgets;
using namespace lmscope::test;

class TestTokenStrip : public QObject {
    Q_OBJECT
private slots:
    void displayText_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("shown");
        QTest::newRow("space") << QStringLiteral(" bank") << QStringLiteral("␣bank");
        QTest::newRow("newline") << QStringLiteral("\n") << QStringLiteral("↵");
        QTest::newRow("tab") << QStringLiteral("\tx") << QStringLiteral("→x");
        QTest::newRow("control") << QStringLiteral("\x01") << QStringLiteral("<0x01>");
        QTest::newRow("empty") << QString() << QStringLiteral("∅");
        QTest::newRow("plain") << QStringLiteral("河") << QStringLiteral("河");
    }
    void displayText() {
        QFETCH(QString, text);
        QFETCH(QString, shown);
        QCOMPARE(display_text(text), shown);
    }

    // A chip's tooltip explains ␣ and groups the byte pieces of one character: 数 (E6 95 B0)
    // and 🙂 (F0 9F 99 82) as byte tokens, next to whole-character tokens.
    void tooltipsExplainMarksAndByteGroups_data() {
        QTest::addColumn<int>("pos");
        QTest::addColumn<QString>("expected");  // "" : none of the notes
        QTest::newRow("space mark") << 0 << QStringLiteral("␣ marks the space this token starts with; the vocabulary writes it “▁”");
        QTest::newRow("lead byte") << 1 << QStringLiteral("byte 1 of 3 of the character “数”: positions 1–3 spell it together");
        QTest::newRow("middle byte") << 2 << QStringLiteral("byte 2 of 3 of the character “数”");
        QTest::newRow("last byte") << 3 << QStringLiteral("byte 3 of 3 of the character “数”");
        QTest::newRow("two bytes in one token") << 4 << QStringLiteral("byte 1 of 4 of the character “🙂”: positions 4–5 spell it together");
        QTest::newRow("the rest of it") << 5 << QStringLiteral("byte 3 of 4 of the character “🙂”");
        QTest::newRow("a stray continuation byte") << 7 << QString();
        QTest::newRow("a whole character") << 6 << QString();
    }
    void tooltipsExplainMarksAndByteGroups() {
        QFETCH(int, pos);
        QFETCH(QString, expected);
        TraceModel m;
        QVector<StepView> steps = {make_step(0, -1, Phase::Prefill, 0,
                                             {token(1, QStringLiteral(" x"), Choice::Prompt),
                                              token(2, QStringLiteral("<0xE6>"), Choice::Prompt, true),
                                              token(3, QStringLiteral("<0x95>"), Choice::Prompt, true),
                                              token(4, QStringLiteral("<0xB0>"), Choice::Prompt, true),
                                              token(5, QStringLiteral("<0xF0><0x9F>"), Choice::Prompt, true),
                                              token(6, QStringLiteral("<0x99><0x82>"), Choice::Prompt, true),
                                              token(7, QStringLiteral("河"), Choice::Prompt),
                                              token(8, QStringLiteral("<0x82>"), Choice::Prompt, true)},
                                             1.0)};
        QVERIFY(m.setSteps(steps));
        TokenStrip strip(&m);
        const QString tip = strip.tooltipFor(pos);
        if (expected.isEmpty()) {
            QVERIFY2(!tip.contains(QStringLiteral("of the character")) && !tip.contains(QStringLiteral("marks the space")),
                     qPrintable(tip));
        } else {
            QVERIFY2(tip.contains(expected), qPrintable(tip));
        }
    }

    void chipsFollowThePath() {
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(sample_steps(true)));
        TokenStrip strip(&m);
        strip.resize(500, 200);
        QCOMPARE(strip.chipCount(), 6);  // branch 0-1-3
        m.setCurrentStep(1);
        QCOMPARE(strip.chipCount(), 5);
        m.setCurrentStep(0);
        QCOMPARE(strip.chipCount(), 4);
    }

    void clickSelectsQuery_data() {
        QTest::addColumn<int>("pos");
        for (int i = 0; i < kTokens; ++i) QTest::newRow(qPrintable(QString::number(i))) << i;
    }
    void clickSelectsQuery() {
        QFETCH(int, pos);
        TraceModel m;
        QVERIFY(m.setSteps(sample_steps()));
        TokenStrip strip(&m);
        strip.resize(500, 200);
        QSignalSpy spy(&strip, &TokenStrip::querySelected);
        QTest::mouseClick(&strip, Qt::LeftButton, {}, strip.chipRect(pos).center());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toInt(), pos);
        QCOMPARE(m.selectedQuery(), pos);
        QCOMPARE(strip.chipAt(strip.chipRect(pos).center()), pos);
    }

    void remeasuresOnFontAndBranchChange() {
        TraceModel m;
        QVERIFY(m.setSteps(sample_steps(true)));  // shows branch 0-1-3: " wide" at position 5
        TokenStrip strip(&m);
        strip.resize(800, 200);
        const int wide = strip.chipRect(5).width();
        m.selectBranch(2);  // "<0xE6>" at position 5
        QVERIFY(strip.chipRect(5).width() != wide);
        const int small = strip.chipRect(0).width();
        QFont f = strip.font();
        f.setPointSizeF(f.pointSizeF() * 2);
        strip.setFont(f);
        QVERIFY(strip.chipRect(0).width() > small);
    }

    // The count and the colour key never overlap: side by side where the width holds both, the
    // key under the count where it does not (a narrow Tokens dock, a long count in Chinese),
    // and the chips start below both.
    void countAndKeyApart_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("one_line");
        QTest::newRow("wide") << 900 << true;
        QTest::newRow("a narrow dock") << 520 << false;
        QTest::newRow("narrowest") << 160 << false;
    }
    void countAndKeyApart() {
        QFETCH(int, width);
        QFETCH(bool, one_line);
        TraceModel m;
        QVERIFY(m.setSteps(sample_steps()));
        TokenStrip strip(&m);
        strip.resize(width, strip.heightForWidth(width));
        const TokenStrip::Header h = strip.header(width);
        const int count_w = strip.fontMetrics().horizontalAdvance(strip.legendText());
        QCOMPARE(h.swatches.front().top() < h.count.bottom(), one_line);
        if (width >= 2 * 10 + count_w) QVERIFY2(h.count.width() >= count_w, qPrintable(QString::number(h.count.width())));
        for (qsizetype i = 0; i < h.names.size(); ++i) {
            const QRect text(h.count.topLeft(), QSize(std::min(count_w, h.count.width()), h.count.height()));
            QVERIFY2(!text.intersects(h.names[i]) && !text.intersects(h.swatches[i]), qPrintable(QString::number(i)));
        }
        for (qint32 i = 0; i < strip.chipCount(); ++i) QVERIFY(strip.chipRect(i).top() > h.names.back().bottom());
    }

    void wrapsAndPaints() {
        TraceModel m;
        QVector<StepView> steps = sample_steps();
        // A long prompt: 200 tokens must wrap onto many lines within the width.
        QVector<TokenView> many;
        for (int i = 0; i < 200; ++i) many.push_back(token(1000 + i, QStringLiteral(" word%1").arg(i), Choice::Prompt));
        StepView s = make_step(0, -1, Phase::Prefill, 0, many, 40.0);
        QVERIFY(m.setSteps({s}));
        TokenStrip strip(&m);
        strip.resize(600, strip.heightForWidth(600));
        QCOMPARE(strip.chipCount(), 200);
        for (int i = 0; i < 200; ++i) {
            QVERIFY(strip.chipRect(i).right() < 600);
            QVERIFY(strip.chipRect(i).bottom() < strip.height());
        }
        QVERIFY(strip.chipRect(199).top() > strip.chipRect(0).top());

        QVERIFY(m.setSteps(sample_steps()));
        strip.resize(720, strip.heightForWidth(720));
        const QImage img = strip.grab().toImage();
        QVERIFY(!img.isNull());
        QVERIFY(img.save(snapshot_path(QStringLiteral("token_strip"))));
    }
};

QTEST_MAIN(TestTokenStrip)
#include "test_token_strip.moc"
