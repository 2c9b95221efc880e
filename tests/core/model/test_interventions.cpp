// Heads switched off and sub-layers skipped, read and checked against a model of 3 layers of 8
// heads: the lists the CLI's --ablate/--skip and the labs' head fields take, and the one range
// check the backends and the Session use.
#include "model/interventions.h"
#include "util/error.h"
#include "util/parse_list.h"

#include <QtTest>

#include <string>

using namespace lmscope;

namespace {

model::ModelSpec three_by_eight() {
    model::ModelSpec s;
    s.hp.n_layer = 3;
    s.hp.n_head = 8;
    return s;
}

QString heads_text(const std::vector<LayerHead>& heads) {
    QStringList parts;
    for (const LayerHead& h : heads) parts << QStringLiteral("%1:%2").arg(h.layer).arg(h.head);
    return parts.join(QLatin1Char(','));
}

QString skips_text(const std::vector<LayerSkip>& skips) {
    QStringList parts;
    for (const LayerSkip& k : skips) parts << QStringLiteral("%1:%2").arg(k.layer).arg(QString::fromLatin1(sublayer_name(k.part)));
    return parts.join(QLatin1Char(','));
}

}  // namespace

class TestInterventions : public QObject {
    Q_OBJECT
private slots:
    // What an --ablate (heads) or --skip (skips) list reads as, or the error it gives ("": none).
    void lists_data() {
        QTest::addColumn<bool>("heads");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("read");
        QTest::addColumn<QString>("error");
        QTest::newRow("two") << true << "1:0,2:3" << "1:0,2:3" << "";
        QTest::newRow("order kept, repeat dropped") << true << "2:3,0:1,2:3" << "2:3,0:1" << "";
        QTest::newRow("spaces around items") << true << " 1:0, 2:7 " << "1:0,2:7" << "";
        QTest::newRow("no colon") << true << "1-2" << "" << "--ablate: '1-2' is not LAYER:HEAD (expected a list like 1:0,2:3)";
        QTest::newRow("empty") << true << "" << "" << "--ablate: '' is not LAYER:HEAD";
        QTest::newRow("empty item") << true << "1:0,,2:3" << "" << "--ablate: '' is not LAYER:HEAD";
        QTest::newRow("plus sign") << true << "+1:0" << "" << "--ablate: '+1:0' is not LAYER:HEAD";
        QTest::newRow("space inside") << true << "1: 0" << "" << "--ablate: '1: 0' is not LAYER:HEAD";
        QTest::newRow("head past") << true << "0:8" << "" << "--ablate: head 0:8 does not exist (layers 0 .. 2, heads 0 .. 7)";
        QTest::newRow("layer past") << true << "1:0,3:0" << "" << "--ablate: head 3:0 does not exist (layers 0 .. 2, heads 0 .. 7)";
        QTest::newRow("negative") << true << "-1:0" << "" << "--ablate: head -1:0 does not exist";
        QTest::newRow("both parts") << false << "1:attn,2:ffn,1:attn" << "1:attn,2:ffn" << "";
        QTest::newRow("not a part") << false << "0:mlp" << "" << "--skip: '0:mlp' is not LAYER:attn or LAYER:ffn";
        QTest::newRow("skip past") << false << "3:ffn" << "" << "--skip: layer 3 does not exist (layers 0 .. 2)";
    }
    void lists() {
        QFETCH(bool, heads);
        QFETCH(QString, text);
        QFETCH(QString, read);
        QFETCH(QString, error);
        try {
            const std::string t = text.toStdString();
            const QString got = heads ? heads_text(model::parse_head_list(t, three_by_eight(), "--ablate"))
                                      : skips_text(model::parse_skip_list(t, three_by_eight(), "--skip"));
            QVERIFY2(error.isEmpty(), "a bad list was accepted");
            QCOMPARE(got, read);
        } catch (const UsageError& e) {
            QVERIFY2(!error.isEmpty() && QString::fromStdString(e.message()).startsWith(error), e.what());
        }
    }

    void check_heads_names_the_caller() {
        const model::ModelSpec s = three_by_eight();
        QVERIFY(model::has_head(s, {2, 7}));
        QVERIFY(!model::has_head(s, {2, 8}));
        QVERIFY(!model::has_head(s, {0, -1}));
        const std::vector<LayerHead> ok{{0, 0}, {2, 7}}, bad{{0, 0}, {1, 9}};
        model::check_heads(s, ok, "forward");
        QVERIFY_THROWS_EXCEPTION(UsageError, model::check_heads(s, bad, "forward"));
        try {
            model::check_heads(s, bad, "forward");
        } catch (const UsageError& e) {
            QCOMPARE(e.message(), std::string("forward: head 1:9 does not exist (layers 0 .. 2, heads 0 .. 7)"));
        }
    }

    // The splitter every list uses: ids keep their repeats and order.
    void ids_keep_repeats() {
        const auto ids = parse_list<int32_t>("5,1,5", [](std::string_view t) { return parse_integer<int32_t>(t).value_or(-1); },
                                             Repeats::Keep);
        QCOMPARE(ids, (std::vector<int32_t>{5, 1, 5}));
        QCOMPARE(parse_integer<int32_t>("12"), std::optional<int32_t>(12));
        for (const char* bad : {"", " 1", "1 ", "+1", "0x10", "1a", "99999999999"})
            QVERIFY2(!parse_integer<int32_t>(bad).has_value(), bad);
    }
};

QTEST_APPLESS_MAIN(TestInterventions)
#include "test_interventions.moc"
