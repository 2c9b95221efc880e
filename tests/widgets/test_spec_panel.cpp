// The spec panel: figures become label/value rows that can be found by id, and a new spec
// replaces the old rows entirely.
#include "widgets/spec_panel.h"

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
};

QTEST_MAIN(TestSpecPanel)
#include "test_spec_panel.moc"
