// The peer tokenizer suites (../shared/testdata/vocab): every string of every suite must give
// exactly the ids of its .out line. Plus the behaviours around them: the fixture models'
// vocabulary against the reference prompt, .model normalization versus GGUF's none, special
// tokens, byte spans, decoding, the stream decoder and odd input.
#include "common/peer_suite.h"
#include "common/testing.h"

#include "tokenizer/batch.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/utf8.h"
#include "util/error.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <random>

using namespace lmscope;
using namespace lmscope::tok;

namespace {

const char* const kSuites[] = {"llama-spm", "phi-3", "gpt-2", "deepseek-coder", "falcon", "starcoder"};

// Odd inputs every tokenizer must survive (and give byte spans inside the text).
std::vector<std::string> odd_inputs() {
    std::vector<std::string> v = {
        "", std::string("\0", 1), std::string("a\0b", 3), "\x80\x80", "\xC0\xAF", "\xED\xA0\x80",
        "\xF4\x90\x80\x80", "\xE6\x97", "abc\xF0\x9F", "\xFF\xFE", "      ", "\n\n\n\t\t",
        "<s></s><unk><|endoftext|>", "\xE2\x80\x8B\xE2\x80\x8D\xCC\x81", std::string(3000, 'x')};
    return v;
}

}  // namespace

class TestVocabSuites : public QObject {
    Q_OBJECT
private slots:
    void suite_matches_exactly_data() {
        QTest::addColumn<QString>("name");
        for (const char* n : kSuites) QTest::newRow(n) << QString(n);
    }
    void suite_matches_exactly() {
        QFETCH(QString, name);
        const std::string base = "vocab/ggml-vocab-" + name.toStdString() + ".gguf";
        const std::string gguf = testing::testdata_file(base);
        LMSCOPE_REQUIRE_FILE(gguf, "the peer tokenizer suites");
        const testing::PeerSuite suite =
            testing::read_peer_suite(testing::testdata_file(base + ".inp"), testing::testdata_file(base + ".out"));
        QCOMPARE(suite.strings.size(), suite.ids.size());
        const auto t = load_tokenizer(gguf);
        std::string first_mismatch;
        const size_t matched = testing::run_peer_suite(*t, suite, first_mismatch);
        qInfo("%s: %zu/%zu strings", qPrintable(name), matched, suite.strings.size());
        QVERIFY2(matched == suite.strings.size(), first_mismatch.c_str());
    }

    void spans_cover_and_decode_round_trips_data() { suite_matches_exactly_data(); }
    void spans_cover_and_decode_round_trips() {
        QFETCH(QString, name);
        const std::string gguf = testing::testdata_file("vocab/ggml-vocab-" + name.toStdString() + ".gguf");
        LMSCOPE_REQUIRE_FILE(gguf, "the peer tokenizer suites");
        const auto t = load_tokenizer(gguf);
        const auto strings = parse_batch(testing::read_text(gguf + ".inp"));
        for (const std::string& s : strings) {
            const auto toks = t->encode(s);
            std::vector<int32_t> ids;
            size_t last_end = 0;
            for (const Token& k : toks) {
                QVERIFY(k.begin <= k.end && k.end <= s.size());
                QVERIFY2(k.begin >= last_end || k.begin == k.end, testing::escaped(s).c_str());
                last_end = std::max(last_end, k.end);
                QCOMPARE(std::string(k.piece), t->piece(k.id));
                ids.push_back(k.id);
            }
            QVERIFY2(t->decode(ids) == s, testing::escaped(s).c_str());
        }
    }

    void odd_input_is_defined_data() { suite_matches_exactly_data(); }
    void odd_input_is_defined() {
        QFETCH(QString, name);
        const std::string gguf = testing::testdata_file("vocab/ggml-vocab-" + name.toStdString() + ".gguf");
        LMSCOPE_REQUIRE_FILE(gguf, "the peer tokenizer suites");
        const auto t = load_tokenizer(gguf);
        for (const std::string& s : odd_inputs()) {
            for (bool parse : {false, true}) {
                const auto toks = t->encode(s, true, parse);
                for (const Token& k : toks) {
                    QVERIFY(k.id >= 0 && k.id < t->vocab_size());
                    QVERIFY(k.end <= s.size());
                    // Bad bytes never inject a control token (only BOS/EOS and parsed specials are).
                    if (!parse && k.end > k.begin) QVERIFY2(t->type(k.id) != TokenType::Control, testing::escaped(s).c_str());
                }
                if (s.empty()) QVERIFY(toks.size() <= 2);  // BOS/EOS at most
            }
            // Valid UTF-8 without special-token text decodes back to itself.
            if (is_valid_utf8(s) && s.find('<') == std::string::npos)
                QVERIFY2(t->decode(t->encode_ids(s)) == s, testing::escaped(s).c_str());
        }
        // Random bytes (biased towards UTF-8 lead/continuation bytes and '<', ' ', '\n').
        std::mt19937 rng(7);
        const char alphabet[] = {'a', ' ', '\n', '<', '|', '>', 's', '\x80', '\xBF', '\xC3', '\xE4', '\xF0', '\xFF', '\0'};
        for (int i = 0; i < 300; ++i) {
            std::string s(rng() % 48, '\0');
            for (char& c : s) c = (rng() % 3 == 0) ? static_cast<char>(rng()) : alphabet[rng() % sizeof alphabet];
            const auto toks = t->encode(s, true, (i & 1) != 0);
            std::vector<int32_t> ids;
            for (const Token& k : toks) {
                QVERIFY(k.id >= 0 && k.id < t->vocab_size() && k.begin <= k.end && k.end <= s.size());
                ids.push_back(k.id);
            }
            (void)t->decode(ids, true);
            StreamDecoder dec(*t);
            for (int32_t id : ids) (void)dec.push(id);
            (void)dec.flush();
        }
        QVERIFY_THROWS_EXCEPTION(UsageError, t->decode(std::vector<int32_t>{t->vocab_size()}));
        QVERIFY_THROWS_EXCEPTION(UsageError, t->decode(std::vector<int32_t>{-1}));
    }

    void long_text_without_spaces() {
        const std::string gguf = testing::testdata_file("vocab/ggml-vocab-gpt-2.gguf");
        LMSCOPE_REQUIRE_FILE(gguf, "the peer tokenizer suites");
        const auto t = load_tokenizer(gguf);
        std::string text;
        while (text.size() < (1u << 20)) text += "abcdefghijklmnopqrstuvwxyz";
        const auto ids = t->encode_ids(text);
        QVERIFY(!ids.empty());
        QCOMPARE(t->decode(ids), text);
    }

    void special_tokens_parsed_only_when_asked() {
        const std::string gguf = testing::testdata_file("vocab/ggml-vocab-gpt-2.gguf");
        LMSCOPE_REQUIRE_FILE(gguf, "the peer tokenizer suites");
        const auto t = load_tokenizer(gguf);
        const std::string text = "a<|endoftext|>b";
        const auto on = t->encode(text, false, true);
        QCOMPARE(on.size(), size_t(3));
        QCOMPARE(on[1].id, 50256);
        QCOMPARE(on[1].begin, size_t(1));
        QCOMPARE(on[1].end, size_t(14));
        const auto off = t->encode_ids(text, false, false);
        QVERIFY(off.size() > 3);
        QVERIFY(std::find(off.begin(), off.end(), 50256) == off.end());
        QCOMPARE(t->decode(t->encode_ids(text, false, true), true), text);
        QCOMPARE(t->decode(t->encode_ids(text, false, true), false), std::string("ab"));
    }

    void special_ids_from_metadata() {
        const std::string gguf = testing::testdata_file("vocab/ggml-vocab-llama-spm.gguf");
        LMSCOPE_REQUIRE_FILE(gguf, "the peer tokenizer suites");
        const auto t = load_tokenizer(gguf);
        QCOMPARE(t->special().bos, 1);
        QCOMPARE(t->special().eos, 2);
        QCOMPARE(t->special().unk, 0);
        QVERIFY(t->special().add_bos);
        QVERIFY(!t->special().add_eos);
        QCOMPARE(t->type(1), TokenType::Control);
        QCOMPARE(t->type(3), TokenType::Byte);
        const auto ids = t->encode_ids("Hello", true, false);
        QCOMPARE(ids.front(), 1);
        QCOMPARE(t->family(), Family::SentencePiece);
    }

    void byte_fallback_spans_and_stream_decoder() {
        const std::string gguf = testing::testdata_file("vocab/ggml-vocab-llama-spm.gguf");
        LMSCOPE_REQUIRE_FILE(gguf, "the peer tokenizer suites");
        const auto t = load_tokenizer(gguf);
        const std::string text = "a \xF0\x9F\xA6\x99 b";  // the llama emoji has no piece: 4 byte tokens
        const auto toks = t->encode(text);
        size_t n_bytes = 0;
        for (const Token& k : toks)
            if (t->type(k.id) == TokenType::Byte) {
                QCOMPARE(k.end - k.begin, size_t(1));
                QCOMPARE(static_cast<uint8_t>(t->token_bytes(k.id)[0]), static_cast<uint8_t>(text[k.begin]));
                ++n_bytes;
            }
        QCOMPARE(n_bytes, size_t(4));
        StreamDecoder dec(*t);
        std::string streamed;
        std::vector<size_t> emitted;
        for (const Token& k : toks) {
            std::string part = dec.push(k.id);
            QVERIFY(is_valid_utf8(part));
            emitted.push_back(part.size());
            streamed += part;
        }
        streamed += dec.flush();
        QCOMPARE(dec.pending_bytes(), size_t(0));
        QCOMPARE(streamed, " " + text);  // the stream keeps the space prefix of the first piece
        // A truncated character stays held until flush.
        StreamDecoder cut(*t);
        const auto first = t->encode_ids("\xF0\x9F\xA6\x99");
        std::string out;
        for (size_t i = 0; i + 1 < first.size(); ++i) out += cut.push(first[i]);
        QVERIFY(cut.pending_bytes() > 0);
        QVERIFY(out.find('\xF0') == std::string::npos);
    }

    void fixture_vocab_gives_reference_prompt() {
        const std::string model = testing::testdata_file("models/fx-gqa.gguf");
        const std::string ref = testing::testdata_file("reference/fx-gqa.s1.json");
        LMSCOPE_REQUIRE_FILE(model, "the fixture models");
        LMSCOPE_REQUIRE_FILE(ref, "the fixture references");
        QFile f(QString::fromStdString(ref));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray prompt = QJsonDocument::fromJson(f.readAll()).object()["prompt_tokens"].toArray();
        const auto ids = load_tokenizer(model)->encode_ids("The quick brown fox jumps over the lazy dog.", true, false);
        QVERIFY(static_cast<size_t>(prompt.size()) >= ids.size());
        for (size_t i = 0; i < ids.size(); ++i) QCOMPARE(ids[i], prompt[static_cast<int>(i)].toInt());
        QCOMPARE(ids.front(), 1);
    }

    void model_file_normalizes_gguf_does_not() {
        const std::string model = testing::testdata_file("models/fx-gqa.gguf");
        const std::string spm = testing::testdata_file("tokenizer/fx-spm-1024.model");
        LMSCOPE_REQUIRE_FILE(model, "the fixture models");
        LMSCOPE_REQUIRE_FILE(spm, "the fixture tokenizer");
        const auto g = load_tokenizer(model);
        const auto m = load_tokenizer(spm);
        QCOMPARE(m->vocab_size(), 1024);
        QCOMPARE(m->family(), Family::SentencePiece);
        QVERIFY(QString::fromStdString(m->describe()).contains("BPE"));
        const std::string plain = "The quick brown fox jumps over the lazy dog.";
        QCOMPARE(m->encode_ids(plain, true), g->encode_ids(plain, true));
        // NFKC (full-width letters) and whitespace collapsing happen only in the .model.
        const std::string odd = "\xEF\xBD\x86ox   jumps  ";
        QCOMPARE(m->decode(m->encode_ids(odd)), std::string("fox jumps"));
        QCOMPARE(g->decode(g->encode_ids(odd)), odd);
        QVERIFY(m->encode_ids(odd) != g->encode_ids(odd));
        // Spans of the .model point into the original (un-normalized) text.
        for (const Token& k : m->encode(odd)) QVERIFY(k.end <= odd.size());
    }
};

QTEST_APPLESS_MAIN(TestVocabSuites)
#include "test_vocab_suites.moc"
