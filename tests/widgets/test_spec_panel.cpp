// The spec panel: figures become label/value rows that can be found by id, and a new spec
// replaces the old rows entirely.
#include "widgets/spec_panel.h"

#include "widgets/format.h"

#include <QLabel>
#include <QtTest>

using namespace lmscope::widgets;

class TestSpecPanel : public QObject {
    Q_OBJECT
private slots:
    void rowsByIdAndReplacement() {
        SpecPanel panel;
        panel.setSpec(QStringLiteral("SmolLM2"), QStringLiteral("llama"),
                      {{QStringLiteral("layers"), QStringLiteral("Layers"), QStringLiteral("30"), {}},
                       {QStringLiteral("heads"), QStringLiteral("Heads"), QStringLiteral("9"), QStringLiteral("query heads")}});
        QCOMPARE(panel.title(), QStringLiteral("SmolLM2"));
        QVERIFY(panel.valueLabel(QStringLiteral("layers")));
        QCOMPARE(panel.valueLabel(QStringLiteral("layers"))->text(), QStringLiteral("30"));
        QCOMPARE(panel.valueLabel(QStringLiteral("heads"))->toolTip(), QStringLiteral("query heads"));
        // Values are drawn larger than the labels (readable on a projector).
        auto* label = panel.findChild<QLabel*>(QStringLiteral("label_heads"));
        QVERIFY(label);
        QVERIFY(panel.valueLabel(QStringLiteral("heads"))->font().pointSizeF() > label->font().pointSizeF());

        panel.setSpec(QStringLiteral("fx"), QString(), {{QStringLiteral("tensors"), QStringLiteral("Tensors"), QStringLiteral("12"), {}}});
        QCOMPARE(panel.figures().size(), 1);
        QVERIFY(!panel.valueLabel(QStringLiteral("layers")));
        QCOMPARE(panel.valueLabel(QStringLiteral("tensors"))->text(), QStringLiteral("12"));
        QCOMPARE(panel.findChildren<QLabel*>(QRegularExpression(QStringLiteral("^value_"))).size(), 1);
    }

    // In a shown panel (new labels are shown late by their layout) the minimum width still
    // covers the widest label and value, so a dock never cuts a value off.
    void minimumWidthCoversValues() {
        SpecPanel panel;
        panel.resize(100, 400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setSpec(QStringLiteral("m"), QString(),
                      {{QStringLiteral("tokenizer"), QStringLiteral("Tokenizer"), QStringLiteral("gpt2 / smollm / long"), {}}});
        auto* label = panel.findChild<QLabel*>(QStringLiteral("label_tokenizer"));
        QLabel* value = panel.valueLabel(QStringLiteral("tokenizer"));
        QVERIFY(panel.minimumWidth() >= label->sizeHint().width() + value->sizeHint().width());
    }

    // Text from a hostile file (a 1 MiB general.name, a long tokenizer name, markup): every line
    // shows at most kMaxLineChars characters as plain text, the panel stays narrower than a
    // screen, and the cut text is in the label's tooltip (itself bounded).
    void longTextsBounded_data() {
        QTest::addColumn<QString>("title");
        QTest::addColumn<QString>("subtitle");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("label");  // the label that shows the long text
        QTest::addColumn<QString>("tip");    // what its tooltip must hold
        const QString mib(1 << 20, QLatin1Char('A'));
        QTest::newRow("1 MiB name in the subtitle")
            << QStringLiteral("m") << QStringLiteral("llama\nm.gguf\nname in the file: ") + mib << QStringLiteral("30")
            << QStringLiteral("subtitle") << QStringLiteral("name in the file: AAAA");
        QTest::newRow("long title") << QString(300, QLatin1Char('T')) << QString() << QStringLiteral("30")
                                    << QStringLiteral("title") << QString(100, QLatin1Char('T'));
        QTest::newRow("1 MiB value") << QStringLiteral("m") << QString() << mib << QStringLiteral("value_tokenizer")
                                     << QStringLiteral("what it is\nAAAA");
        QTest::newRow("markup") << QStringLiteral("m") << QStringLiteral("<h1>big</h1>") + QString(200, QLatin1Char('x'))
                                << QStringLiteral("30") << QStringLiteral("subtitle") << QStringLiteral("&lt;h1&gt;big");
    }
    void longTextsBounded() {
        QFETCH(QString, title);
        QFETCH(QString, subtitle);
        QFETCH(QString, value);
        QFETCH(QString, label);
        QFETCH(QString, tip);
        SpecPanel panel;
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setSpec(title, subtitle, {{QStringLiteral("tokenizer"), QStringLiteral("Tokenizer"), value, QStringLiteral("what it is")}});
        auto* shown = panel.findChild<QLabel*>(label);
        QVERIFY(shown);
        QCOMPARE(shown->textFormat(), Qt::PlainText);
        for (const QString& line : shown->text().split(QLatin1Char('\n'))) QVERIFY(line.size() <= SpecPanel::kMaxLineChars);
        QVERIFY(shown->text().endsWith(QChar(0x2026)));
        QVERIFY2(panel.minimumWidth() < 2000, qPrintable(QString::number(panel.minimumWidth())));
        QVERIFY2(shown->toolTip().contains(tip), qPrintable(shown->toolTip().left(300)));
        QVERIFY(shown->toolTip().size() < 2 * kTipChars);
    }
};

QTEST_MAIN(TestSpecPanel)
#include "test_spec_panel.moc"
