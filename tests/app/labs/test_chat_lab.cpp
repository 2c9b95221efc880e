// The chat lab against the core: two turns show, per turn, the sequence the core's own chat
// session renders and tokenizes, the prefill counts its trace records (reused vs fed) and, for
// "without reuse", the whole history; Stop mid-reply leaves a conversation the core continues
// the same way. Fixture model and SmolLM2 (skipped when absent).
#include "common/testing.h"
#include "engine/session.h"
#include "gui/labs/chat_lab.h"
#include "gui/labs/lab_host.h"
#include "gui/engine_setup.h"
#include "gui/labs/token_list_view.h"
#include "model/chat_template.h"
#include "tokenizer/tokenizer.h"
#include "widgets/prefill_chart.h"

#include <QTest>

using namespace lmscope;
using namespace lmscope::gui;
using namespace lmscope::gui::labs;

namespace {

constexpr int kMaxReply = 12;
const char* const kTurns[] = {"Hello! What is a cat?", "And a dog?"};

std::string model_path(const QString& which) {
    return which == QStringLiteral("smollm2") ? testing::sample_model() : testing::testdata_file("models/fx-gqa.gguf");
}

// What the core does for one turn with the lab's settings.
struct CoreTurn {
    std::vector<int32_t> sequence;
    int32_t reused = 0, fed = 0, generated = 0;
};

CoreTurn core_turn(engine::Session& s, const std::string& user, int max_reply) {
    CoreTurn t;
    const trace::StepTrace& step = s.chat_turn(user);
    t.reused = step.reused_tokens;
    t.fed = int32_t(step.tokens.size());
    t.sequence = s.tokens();
    while (!s.ends_turn() && t.generated < max_reply && s.tokens().size() + 1 < size_t(s.n_ctx())) {
        s.decode();
        ++t.generated;
    }
    return t;
}

std::vector<int32_t> ids_of(const QVector<qint32>& v) { return {v.begin(), v.end()}; }

}  // namespace

class TestChatLab : public QObject {
    Q_OBJECT
private slots:
    void twoTurnsMatchCore_data();
    void twoTurnsMatchCore();
    void stopMidReplyKeepsLabUsable_data();
    void stopMidReplyKeepsLabUsable();
};

void TestChatLab::twoTurnsMatchCore_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("reuse");
    QTest::newRow("fixture, reuse") << QStringLiteral("fixture") << true;
    QTest::newRow("fixture, no reuse") << QStringLiteral("fixture") << false;
    QTest::newRow("smollm2, reuse") << QStringLiteral("smollm2") << true;
    QTest::newRow("smollm2, no reuse") << QStringLiteral("smollm2") << false;
}

void TestChatLab::twoTurnsMatchCore() {
    QFETCH(QString, model);
    QFETCH(bool, reuse);
    const std::string path = model_path(model);
    LMSCOPE_REQUIRE_FILE(path, "the chat lab's model");
    const LabModelPtr m = load_lab_model(QString::fromStdString(path));
    LabHost host(nullptr);
    host.setModel(m);
    ChatLab lab(&host);
    lab.setPrefixReuse(reuse);
    lab.setMaxReplyTokens(kMaxReply);
    for (int i = 0; i < 2; ++i) {
        lab.sendMessage(QString::fromUtf8(kTurns[i]));
        QVERIFY(lab.isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(!lab.isBusy(), 120000);
        QCOMPARE(int(lab.turns().size()), i + 1);
    }

    engine::SessionOptions options = lab_session_options();  // the lab decodes greedily
    options.prefix_reuse = reuse;
    EngineSession core = make_engine_session(m, {}, options);
    std::vector<model::ChatTurn> history;
    model::SpecialText special;
    const tok::Tokenizer& tokenizer = *m->tokenizer;
    if (tokenizer.special().bos >= 0) special.bos = tokenizer.piece(tokenizer.special().bos);
    if (tokenizer.special().eos >= 0) special.eos = tokenizer.piece(tokenizer.special().eos);

    auto* tokens = lab.findChild<TokenListView*>(QStringLiteral("fedTokens"));
    auto* chart = lab.findChild<widgets::PrefillChart*>(QStringLiteral("prefillChart"));
    QVERIFY(tokens && chart);
    const widgets::PrefillChart::ViewState bars = chart->viewState();
    QCOMPARE(bars.with_reuse.size(), 2);
    QCOMPARE(bars.without_reuse.size(), 2);

    double cum_with = 0, cum_without = 0;
    std::vector<int32_t> previous;
    for (int i = 0; i < 2; ++i) {
        const CoreTurn t = core_turn(*core.session, kTurns[i], kMaxReply);
        const ChatTurnRecord& shown = lab.turns()[size_t(i)];

        // The sequence shown is the core's: the whole history rendered with the template and tokenized.
        history.push_back({model::Role::User, kTurns[i]});
        const model::RenderedChat chat =
            model::render_chat(core.session->chat_template(), history, true, special);
        const std::vector<int32_t> rendered =
            tokenizer.encode_ids(chat.text, !chat.starts_with_bos && tokenizer.special().add_bos, true);
        QCOMPARE(t.sequence, rendered);
        lab.showTurn(i);
        QCOMPARE(ids_of(tokens->ids()), t.sequence);
        QCOMPARE(shown.generated, t.generated);

        // Prefill counts: the trace's fed tokens; without reuse the whole history.
        QCOMPARE(shown.reused, t.reused);
        QCOMPARE(shown.fed, t.fed);
        QCOMPARE(bars.without_reuse[i], double(t.sequence.size()));
        if (reuse) {
            QCOMPARE(bars.with_reuse[i], double(t.fed));
            QCOMPARE(t.reused + t.fed, int32_t(t.sequence.size()));
            if (i > 0) QVERIFY2(t.reused > 0, "the second turn keeps the first in the cache");
        } else {
            QCOMPARE(t.reused, 0);
            QCOMPARE(t.fed, int32_t(t.sequence.size()));
            QCOMPARE(bars.with_reuse[i], double(int32_t(t.sequence.size()) - reusable_prefix(t.sequence, previous)));
        }
        // Earlier turns are re-sent: the second sequence starts with the whole first exchange.
        if (i > 0) QVERIFY(shown.resent > int32_t(lab.turns()[0].sequence.size()) / 2);
        else QCOMPARE(shown.resent, 0);

        cum_with += bars.with_reuse[i] + t.generated;
        cum_without += bars.without_reuse[i] + t.generated;
        QCOMPARE(bars.with_total[i], cum_with);
        QCOMPARE(bars.without_total[i], cum_without);

        previous = core.session->tokens();
        history.push_back({model::Role::Assistant, shown.reply});
    }
    QVERIFY(bars.without_reuse[1] > bars.without_reuse[0]);  // every turn re-sends more
}

void TestChatLab::stopMidReplyKeepsLabUsable_data() {
    QTest::addColumn<QString>("model");
    QTest::newRow("fixture") << QStringLiteral("fixture");
    QTest::newRow("smollm2") << QStringLiteral("smollm2");
}

void TestChatLab::stopMidReplyKeepsLabUsable() {
    QFETCH(QString, model);
    const std::string path = model_path(model);
    LMSCOPE_REQUIRE_FILE(path, "the chat lab's model");
    const LabModelPtr m = load_lab_model(QString::fromStdString(path));
    LabHost host(nullptr);
    host.setModel(m);
    ChatLab lab(&host);
    lab.setMaxReplyTokens(1024);
    lab.sendMessage(QStringLiteral("Tell me a long story about a cat."));
    QTRY_VERIFY_WITH_TIMEOUT(lab.partialReplyTokens() > 0 || !lab.isBusy(), 120000);
    lab.stop();
    QTRY_VERIFY_WITH_TIMEOUT(!lab.isBusy(), 120000);
    QCOMPARE(int(lab.turns().size()), 1);
    const ChatTurnRecord first = lab.turns()[0];
    if (model == QStringLiteral("smollm2")) QVERIFY2(first.stopped, "a 1024-token reply is stopped mid-way");

    // Usable: the next turn runs, and it is what the core gives after the same shortened reply.
    lab.setMaxReplyTokens(4);
    lab.sendMessage(QStringLiteral("Shorter, please."));
    QTRY_VERIFY_WITH_TIMEOUT(!lab.isBusy(), 120000);
    QCOMPARE(int(lab.turns().size()), 2);

    EngineSession core = make_engine_session(m);
    const CoreTurn a = core_turn(*core.session, "Tell me a long story about a cat.", first.generated);
    QCOMPARE(a.sequence, first.sequence);
    const CoreTurn b = core_turn(*core.session, "Shorter, please.", 4);
    const ChatTurnRecord& second = lab.turns()[1];
    QCOMPARE(second.sequence, b.sequence);
    QCOMPARE(second.reused, b.reused);
    QCOMPARE(second.fed, b.fed);
    QCOMPARE(second.generated, b.generated);
}

QTEST_MAIN(TestChatLab)
#include "test_chat_lab.moc"
