// The sample models' tokenizers: SmolLM2's (byte-level BPE, pre-tokenizer "smollm") and Gemma 3
// 270M's (SentencePiece BPE, 262144 pieces, byte fallback): ids equal to an independent
// implementation's on a table of strings (Chinese and other scripts, misspellings, emoji, code,
// whitespace runs: data/smollm2_crosscheck.jsonl from the Hugging Face tokenizers package,
// data/gemma3_crosscheck.jsonl from Google's sentencepiece, written by the make_*.py beside
// them), special tokens from the metadata, and decode(encode(x)) == x for unusual text.
#include "common/testing.h"

#include "tokenizer/tokenizer.h"
#include "tokenizer/utf8.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace lmscope;
using namespace lmscope::tok;

// Skips a row whose sample model ("SmolLM2", "Gemma 3") has not been fetched.
#define REQUIRE_SAMPLE_MODEL(model)                                                         \
    do {                                                                                    \
        if ((model) == QLatin1String("Gemma 3"))                                            \
            LMSCOPE_REQUIRE_FILE(testing::gemma_model(), "the sample model Gemma 3 270M");  \
        else                                                                                \
            LMSCOPE_REQUIRE_FILE(testing::sample_model(), "the sample model");              \
    } while (0)

class TestSampleTokenizer : public QObject {
    Q_OBJECT
    std::unique_ptr<Tokenizer> tok_;    // SmolLM2's
    std::unique_ptr<Tokenizer> gemma_;  // Gemma 3's

    const Tokenizer& tokenizer(const QString& model) const {
        return model == QLatin1String("Gemma 3") ? *gemma_ : *tok_;
    }

private slots:
    void initTestCase() {
        const std::string model = testing::sample_model();
        if (!model.empty()) tok_ = load_tokenizer(model);
        const std::string gemma = testing::gemma_model();
        if (!gemma.empty()) gemma_ = load_tokenizer(gemma);
    }

    // SmolLM2's vocabulary has no token for the bytes 0xF5..0xFF (never in UTF-8): such a byte
    // becomes U+FFFD's tokens, not token 0 (<|endoftext|>, its unknown token).
    void invalid_bytes_become_the_replacement_character_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("0xFF") << QByteArray("a\xff" "b");
        QTest::newRow("0xF8 0xF9") << QByteArray("\xf8\xf9");
        QTest::newRow("in a word") << QByteArray("hello\xfeworld");
    }
    void invalid_bytes_become_the_replacement_character() {
        LMSCOPE_REQUIRE_FILE(testing::sample_model(), "the sample model");
        QFETCH(QByteArray, text);
        const std::string s = text.toStdString();
        const std::vector<int32_t> fffd = tok_->encode_ids("\xEF\xBF\xBD");
        std::string decoded;
        for (const Token& k : tok_->encode(s)) {
            QVERIFY2(tok_->type(k.id) != TokenType::Control, qPrintable(QString::number(k.id)));
            decoded += tok_->token_bytes(k.id);
        }
        std::string expected;
        for (const char c : s) expected += static_cast<uint8_t>(c) >= 0xF5 ? std::string("\xEF\xBF\xBD") : std::string(1, c);
        QCOMPARE(decoded, expected);
        QVERIFY(!fffd.empty());
    }

    void matches_independent_implementation_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("table");
        QTest::newRow("SmolLM2") << "SmolLM2" << "smollm2_crosscheck.jsonl";
        QTest::newRow("Gemma 3") << "Gemma 3" << "gemma3_crosscheck.jsonl";
    }
    void matches_independent_implementation() {
        QFETCH(QString, model);
        QFETCH(QString, table);
        REQUIRE_SAMPLE_MODEL(model);
        const Tokenizer& tok = tokenizer(model);
        QFile f(QStringLiteral(LMSCOPE_TOKENIZER_TEST_DATA "/") + table);
        QVERIFY(f.open(QIODevice::ReadOnly));
        size_t n = 0, matched = 0;
        QString first;
        while (!f.atEnd()) {
            const QByteArray line = f.readLine().trimmed();
            if (line.isEmpty()) continue;
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            const std::string text = o["text"].toString().toStdString();
            std::vector<int32_t> expected;
            for (const auto& v : o["ids"].toArray()) expected.push_back(v.toInt());
            const auto got = tok.encode_ids(text);
            ++n;
            if (got == expected) {
                ++matched;
            } else if (first.isEmpty()) {
                QStringList e, g;
                for (int32_t id : expected) e << QString::number(id);
                for (int32_t id : got) g << QString::number(id);
                first = QString("'%1': expected [%2], got [%3]").arg(o["text"].toString(), e.join(' '), g.join(' '));
            }
        }
        qInfo("%s cross-check: %zu/%zu strings", qPrintable(model), matched, n);
        QVERIFY(n >= 100);
        QVERIFY2(matched == n, qPrintable(first));
    }

    void special_tokens() {
        LMSCOPE_REQUIRE_FILE(testing::sample_model(), "the sample model");
        QCOMPARE(tok_->family(), Family::ByteLevelBpe);
        QCOMPARE(tok_->vocab_size(), 49152);
        QCOMPARE(tok_->special().bos, 1);
        QCOMPARE(tok_->special().eos, 2);
        QCOMPARE(tok_->special().eot, 2);  // <|im_end|>
        QCOMPARE(tok_->piece(1), std::string("<|im_start|>"));
        QCOMPARE(tok_->type(1), TokenType::Control);
        QCOMPARE(tok_->encode_ids("<|im_start|>user\nHi<|im_end|>", false, true),
                 (std::vector<int32_t>{1, 4093, 198, 26843, 2}));
        QVERIFY(tok_->encode_ids("<|im_start|>", false, false).size() > 1);
        QCOMPARE(tok_->encode_ids("Hello world"), (std::vector<int32_t>{19556, 905}));
    }

    void gemma_special_tokens() {
        REQUIRE_SAMPLE_MODEL(QStringLiteral("Gemma 3"));
        const Tokenizer& g = *gemma_;
        QCOMPARE(g.family(), Family::SentencePiece);
        QCOMPARE(g.vocab_size(), 262144);
        QCOMPARE(g.special().bos, 2);
        QCOMPARE(g.special().eos, 1);
        QVERIFY(g.special().add_bos);
        QCOMPARE(g.piece(105), std::string("<start_of_turn>"));
        QCOMPARE(g.type(105), TokenType::Control);
        QCOMPARE(g.encode_ids("<start_of_turn>user\nHi<end_of_turn>", true, true),
                 (std::vector<int32_t>{2, 105, 2364, 107, 10979, 106}));
        QVERIFY(g.encode_ids("<start_of_turn>", false, false).size() > 1);
        // user-defined pieces (newline runs) are whole tokens even without parse_special
        QCOMPARE(g.encode_ids("\n\n"), (std::vector<int32_t>{108}));
        // no space is put in front of the text (add_space_prefix is false)
        QCOMPARE(g.encode_ids("Hello world"), (std::vector<int32_t>{9259, 1902}));
        QCOMPARE(g.encode_ids(" Hello world"), (std::vector<int32_t>{26352, 1902}));
    }

    void decode_round_trips_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QByteArray>("text");
        const std::pair<const char*, QByteArray> texts[] = {
            {"emoji zwj", QByteArray("\xF0\x9F\x98\xB6\xE2\x80\x8D\xF0\x9F\x8C\xAB\xEF\xB8\x8F and \xF0\x9F\xA6\x99")},
            {"cjk", QByteArray("\xE4\xBD\xA0\xE5\xA5\xBD\xEF\xBC\x8C\xE4\xB8\x96\xE7\x95\x8C")},
            {"combining", QByteArray("e\xCC\x81\xCC\x82 a\xCC\x80")},
            {"odd whitespace", QByteArray("\xC2\xA0\xE2\x80\x83\xE3\x80\x80\x0B\x0C\r\n")},
            {"space run", QByteArray(500, ' ')},
            {"newline run", QByteArray(300, '\n')},
            {"mixed runs", QByteArray(" \t \n\n\t\t   x   \n")},
            {"nul", QByteArray("a\0b", 3)},
            {"rtl", QByteArray("\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D abc")},
        };
        for (const QString model : {"SmolLM2", "Gemma 3"})
            for (const auto& [name, text] : texts) QTest::newRow(qPrintable(model + ": " + name)) << model << text;
    }
    void decode_round_trips() {
        QFETCH(QString, model);
        QFETCH(QByteArray, text);
        REQUIRE_SAMPLE_MODEL(model);
        const Tokenizer& tok = tokenizer(model);
        const std::string s(text.constData(), static_cast<size_t>(text.size()));
        const auto toks = tok.encode(s);
        std::vector<int32_t> ids;
        for (const Token& k : toks) ids.push_back(k.id);
        QCOMPARE(tok.decode(ids), s);
        // The spans tile the text.
        size_t pos = 0;
        for (const Token& k : toks) {
            QCOMPARE(k.begin, pos);
            pos = k.end;
        }
        QCOMPARE(pos, s.size());
        // Streaming gives valid UTF-8 at every step and the same text in the end.
        StreamDecoder dec(tok);
        std::string streamed;
        for (int32_t id : ids) {
            const std::string part = dec.push(id);
            if (is_valid_utf8(s)) QVERIFY(is_valid_utf8(part));
            streamed += part;
        }
        streamed += dec.flush();
        QCOMPARE(streamed, s);
    }
};

QTEST_APPLESS_MAIN(TestSampleTokenizer)
#include "test_sample_tokenizer.moc"
