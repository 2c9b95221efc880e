// WordPiece (BERT): the bert-bge peer suite id-exact (GGUF, and the same pieces as an HF
// vocab.txt), byte spans, decoding, [CLS]/[SEP], special-token text, odd input; hostile
// vocab.txt files and GGUF vocabularies refused with file, line (or key) and reason; and
// WordPiece training (size, round trip, determinism, cancel, speed).
#include "common/peer_suite.h"
#include "common/testing.h"

#include "gguf/gguf.h"
#include "tokenizer/batch.h"
#include "tokenizer/lab.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/trainer.h"
#include "tokenizer/utf8.h"
#include "tokenizer/wordpiece_tokenizer.h"
#include "tokenizer/wordpiece_trainer.h"
#include "util/error.h"

#include <QTemporaryDir>

#include <chrono>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

using namespace lmscope;
using namespace lmscope::tok;

namespace {

const char* const kBge = "vocab/ggml-vocab-bert-bge.gguf";

using testing::PeerSuite;

PeerSuite read_suite(const std::string& gguf) { return testing::read_peer_suite(gguf + ".inp", gguf + ".out"); }

// Spans inside the text, begins and ends non-decreasing, pieces those of the ids.
bool spans_ok(const Tokenizer& t, const std::vector<Token>& toks, size_t size) {
    size_t last_begin = 0, last_end = 0;
    for (const Token& k : toks) {
        if (k.id < 0 || k.id >= t.vocab_size() || k.begin > k.end || k.end > size) return false;
        if (k.begin < last_begin || k.end < last_end || k.piece != t.piece(k.id)) return false;
        last_begin = k.begin;
        last_end = k.end;
    }
    return true;
}

std::string write_file(const QTemporaryDir& dir, const std::string& name, const std::string& content) {
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream out(path, std::ios::binary);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    return path;
}

const std::string kSmallVocab = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\n##s\nworld\n,\n";

// About `bytes` of English-like text: words of 1-4 syllables, Zipf-like, in sentences.
std::string corpus(size_t bytes) {
    static const char* syl[] = {"ta", "ke", "ni", "zer", "mo", "del", "re", "ad", "wor", "ds", "pie", "ce",
                                "mer", "ge", "by", "te", "lo", "wer", "la", "ngu", "at", "ten", "tion", "he"};
    std::mt19937 rng(11);
    std::vector<std::string> words;
    for (int i = 0; i < 3000; ++i) {
        std::string w;
        for (int k = 0, n = 1 + static_cast<int>(rng() % 4); k < n; ++k) w += syl[rng() % 24];
        words.push_back(w);
    }
    std::string s;
    while (s.size() < bytes) {
        const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
        s += words[static_cast<size_t>(std::pow(3000.0, u)) - 1];  // log-uniform rank: Zipf-like
        s += rng() % 12 == 0 ? ".\n" : rng() % 9 == 0 ? ", " : " ";
    }
    return s;
}

// What decoding a WordPiece encoding of `text` gives when every word is covered: the BERT
// words joined by spaces.
std::string bert_words(const std::string& text) {
    std::vector<BertChar> chars;
    std::vector<std::pair<size_t, size_t>> words;
    BertPreTokenizer(true).split(text, chars, words);
    std::string out;
    for (auto [a, b] : words) {
        if (!out.empty()) out += ' ';
        for (size_t i = a; i < b; ++i) append_utf8(out, chars[i].cp);
    }
    return out;
}

}  // namespace

class TestWordPiece : public QObject {
    Q_OBJECT
private slots:
    void suite_matches_exactly() {
        const std::string gguf = testing::testdata_file(kBge);
        LMSCOPE_REQUIRE_FILE(gguf, "the bert-bge peer tokenizer suite");
        const PeerSuite s = read_suite(gguf);
        QCOMPARE(s.strings.size(), s.ids.size());
        const auto t = load_tokenizer(gguf);
        QCOMPARE(t->family(), Family::WordPiece);
        QCOMPARE(t->describe(), std::string("WordPiece (BERT, uncased), 30522 tokens"));
        std::string first;
        const size_t matched = testing::run_peer_suite(*t, s, first);
        qInfo("bert-bge: %zu/%zu strings", matched, s.strings.size());
        QVERIFY2(matched == s.strings.size(), first.c_str());
        for (const std::string& str : s.strings) QVERIFY2(spans_ok(*t, t->encode(str), str.size()), str.c_str());
    }

    // The same pieces as an HF vocab.txt (one per line) give the same ids.
    void vocab_txt_matches_gguf() {
        const std::string gguf = testing::testdata_file(kBge);
        LMSCOPE_REQUIRE_FILE(gguf, "the bert-bge peer tokenizer suite");
        const auto g = load_tokenizer(gguf);
        std::string txt;
        for (int32_t id = 0; id < g->vocab_size(); ++id) txt += g->piece(id) + "\n";
        QCOMPARE(g->piece(7592), std::string("hello"));
        QCOMPARE(g->piece(2361), std::string("##p"));
        QTemporaryDir dir;
        const auto t = load_tokenizer(write_file(dir, "vocab.txt", txt));
        QCOMPARE(t->describe(), g->describe());
        QCOMPARE(t->special().bos, 101);
        QCOMPARE(t->special().eos, 102);
        QCOMPARE(t->special().unk, 100);
        std::string first;
        const PeerSuite s = read_suite(gguf);
        QVERIFY2(testing::run_peer_suite(*t, s, first) == s.strings.size(), first.c_str());
    }

    void spans_and_decode_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("decoded");
        QTest::addColumn<QString>("spans");  // "begin-end" per token
        QTest::newRow("punctuation") << "Hello, World!" << "hello , world !" << "0-5 5-6 7-12 12-13";
        QTest::newRow("accent") << "F\u00fchrer" << "fuhrer" << "0-3 3-7";
        QTest::newRow("accents") << "C\u1eeda Vi\u1ec7t" << "cua viet" << "0-4 4-5 6-12";
        QTest::newRow("whitespace") << "    Hello\n    Hello" << "hello hello" << "4-9 14-19";
        QTest::newRow("continuations") << " this is.cpp" << "this is . cpp" << "1-5 6-8 8-9 9-11 11-12";
        QTest::newRow("cjk") << "\u6211apple" << "\u6211 apple" << "0-3 3-8";
        QTest::newRow("control dropped") << "a\u200db\x01" "c" << "abc" << "0-7";
        QTest::newRow("empty") << "" << "" << "";
    }
    void spans_and_decode() {
        QFETCH(QString, text);
        QFETCH(QString, decoded);
        QFETCH(QString, spans);
        const std::string gguf = testing::testdata_file(kBge);
        LMSCOPE_REQUIRE_FILE(gguf, "the bert-bge peer tokenizer suite");
        const auto t = load_tokenizer(gguf);
        const std::string s = text.toStdString();
        const auto toks = t->encode(s);
        std::string got;
        std::vector<int32_t> ids;
        for (const Token& k : toks) {
            if (!got.empty()) got += ' ';
            got += std::to_string(k.begin) + "-" + std::to_string(k.end);
            ids.push_back(k.id);
        }
        QVERIFY(spans_ok(*t, toks, s.size()));
        QCOMPARE(QString::fromStdString(got), spans);
        QCOMPARE(QString::fromStdString(t->decode(ids)), decoded);
    }

    void special_tokens() {
        const std::string gguf = testing::testdata_file(kBge);
        LMSCOPE_REQUIRE_FILE(gguf, "the bert-bge peer tokenizer suite");
        const auto t = load_tokenizer(gguf);
        const auto toks = t->encode("Hello world", true);
        QCOMPARE(toks.size(), size_t(4));
        QCOMPARE(toks.front().id, 101);  // [CLS] first, over nothing
        QCOMPARE(toks.front().end, size_t(0));
        QCOMPARE(toks.back().id, 102);   // [SEP] last, at the end
        QCOMPARE(toks.back().begin, size_t(11));
        const std::vector<int32_t> ids = t->encode_ids("Hello world", true);
        QCOMPARE(t->decode(ids), std::string("hello world"));
        QCOMPARE(t->decode(ids, true), std::string("[CLS] hello world [SEP]"));
        QCOMPARE(t->encode_ids("[CLS] a [MASK] b [SEP][PAD][UNK]", false, true),
                 (std::vector<int32_t>{101, 1037, 103, 1038, 102, 0, 100}));
        const auto plain = t->encode_ids("[MASK]");  // not parsed: brackets and a word
        QCOMPARE(plain.size(), size_t(3));
        QCOMPARE(plain[0], 1031);
        QCOMPARE(t->encode_ids("", true), (std::vector<int32_t>{101, 102}));
        QVERIFY_THROWS_EXCEPTION(UnsupportedError, list_merges(*t));
        StreamDecoder sd(*t);
        std::string streamed;
        for (int32_t id : t->encode_ids("Hello, world")) streamed += sd.push(id);
        QCOMPARE(streamed, std::string(" hello , world"));  // every word starts with its space
    }

    void odd_input_stays_in_range() {
        const std::string gguf = testing::testdata_file(kBge);
        LMSCOPE_REQUIRE_FILE(gguf, "the bert-bge peer tokenizer suite");
        const auto t = load_tokenizer(gguf);
        const std::vector<std::string> odd = {
            std::string("\0", 1), std::string("a\0b", 3), "\x80\x80", "\xC0\xAF", "\xED\xA0\x80",
            "\xF4\x90\x80\x80", "\xE6\x97", "abc\xF0\x9F", "\xFF\xFE", "\n\n\t", "\xEF\xBF\xBD",
            "\xE2\x80\x8B\xCC\x81", "\xEA\xB0\x80\xED\x9E\xA3", std::string(3000, 'x')};
        for (const std::string& s : odd)
            for (bool parse : {false, true}) QVERIFY(spans_ok(*t, t->encode(s, true, parse), s.size()));
        const auto long_word = t->encode(std::string(3000, 'x'));  // over 100 characters
        QCOMPARE(long_word.size(), size_t(1));
        QCOMPARE(long_word[0].id, 100);
        QCOMPARE(long_word[0].end, size_t(3000));
        QCOMPARE(t->encode_ids(std::string(100, 'a')).size() > 1, true);  // 100 is still taken
        QCOMPARE(t->encode_ids("a\xFF" "b"), t->encode_ids("ab"));  // invalid bytes are dropped
        std::mt19937 rng(3);
        const char alphabet[] = {'a', ' ', '\n', '[', ']', '#', '\x80', '\xBF', '\xC3', '\xE4', '\xF0', '\xFF', '\0', ','};
        for (int i = 0; i < 300; ++i) {
            std::string s(rng() % 48, '\0');
            for (char& c : s) c = rng() % 3 == 0 ? static_cast<char>(rng()) : alphabet[rng() % sizeof alphabet];
            QVERIFY(spans_ok(*t, t->encode(s, true, true), s.size()));
            (void)t->decode(t->encode_ids(s));
        }
    }

    void cased_vocabulary_keeps_case() {
        QTemporaryDir dir;
        const auto cased = load_tokenizer(write_file(dir, "cased-vocab.txt", kSmallVocab + "Hello\n"));
        QCOMPARE(cased->describe(), std::string("WordPiece (BERT, cased), 10 tokens"));
        QCOMPARE(cased->encode_ids("Hello hellos H\u00e9llo"), (std::vector<int32_t>{9, 5, 6, 1}));
        const auto uncased = load_tokenizer(write_file(dir, "vocab.txt", kSmallVocab));
        QCOMPARE(uncased->encode_ids("Hellos, WORLD"), (std::vector<int32_t>{5, 6, 8, 7}));
        QCOMPARE(uncased->decode(uncased->encode_ids("Hellos, WORLD")), std::string("hellos , world"));
    }

    void hostile_vocab_txt_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        QTest::newRow("empty") << QByteArray() << "line 1" << "the file is empty";
        QTest::newRow("2 MiB line") << (QByteArray("[UNK]\n") + QByteArray(2 << 20, 'a') + "\n") << "line 2"
                                    << "is 2097152 bytes long, more than 1024";
        QTest::newRow("duplicate") << QByteArray("[UNK]\n[CLS]\n[SEP]\nhello\n##s\nhello\n") << "line 6"
                                   << "'hello' repeats line 4";
        QTest::newRow("no [UNK]") << QByteArray("[CLS]\n[SEP]\nhello\n") << "lines 1-3"
                                  << "missing, and no piece reads [UNK]";
        QTest::newRow("no [SEP]") << QByteArray("[UNK]\n[CLS]\nhello\n") << "lines 1-3"
                                  << "missing, and no piece reads [SEP]";
        QTest::newRow("invalid UTF-8") << QByteArray("[UNK]\n\xC3(\n") << "line 2" << "is not valid UTF-8";
        QTest::newRow("NUL") << QByteArray("[UNK]\na\0b\n", 10) << "line 2" << "contains a NUL byte";
        QTest::newRow("empty line") << QByteArray("[UNK]\n\n[CLS]\n") << "line 2" << "is empty";
    }
    void hostile_vocab_txt() {
        QFETCH(QByteArray, content);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const std::string path = write_file(dir, "bad-vocab.txt", content.toStdString());
        try {
            load_tokenizer(path);
            QFAIL("the vocabulary was accepted");
        } catch (const FormatError& e) {
            QCOMPARE(e.file(), path);
            QCOMPARE(QString::fromStdString(e.field()), field);
            QVERIFY2(QString::fromStdString(e.reason()).contains(reason), e.what());
            QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
        }
    }

    void hostile_gguf_vocab_data() {
        QTest::addColumn<QStringList>("tokens");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("reason");
        const QString w = QString::fromUtf8("\u2581");
        QTest::newRow("no [UNK]") << QStringList{"[PAD]", "[CLS]", "[SEP]", w + "a"} << "tokenizer.ggml.unknown_token_id"
                                  << "missing, and no piece reads [UNK]";
        QTest::newRow("no [CLS]") << QStringList{"[UNK]", "[SEP]", w + "a"} << "tokenizer.ggml.cls_token_id"
                                  << "missing, and no piece reads [CLS]";
        QTest::newRow("same piece twice") << QStringList{"[UNK]", "[CLS]", "[SEP]", w + "##a", "a"}
                                          << "tokenizer.ggml.tokens" << "is a duplicate of token 3";
    }
    void hostile_gguf_vocab() {
        QFETCH(QStringList, tokens);
        QFETCH(QString, field);
        QFETCH(QString, reason);
        std::vector<gguf::Value::Scalar> items;
        for (const QString& s : tokens) items.emplace_back(s.toStdString());
        gguf::Writer wr;
        wr.set("tokenizer.ggml.model", gguf::Value::string("bert"));
        wr.set("tokenizer.ggml.tokens", gguf::Value::array(gguf::ValueType::STRING, std::move(items)));
        const auto bytes = wr.to_bytes();
        try {
            load_tokenizer(gguf::File::from_memory(bytes.data(), bytes.size(), "bad-bert.gguf"));
            QFAIL("the vocabulary was accepted");
        } catch (const FormatError& e) {
            QCOMPARE(e.file(), std::string("bad-bert.gguf"));
            QCOMPARE(QString::fromStdString(e.field()), field);
            QVERIFY2(QString::fromStdString(e.reason()).contains(reason), e.what());
        }
    }

    void trainer_reaches_size_and_round_trips() {
        TrainOptions o;
        o.model = TrainOptions::Model::WordPiece;
        o.corpus_text = corpus(20'000);
        o.vocab_size = 400;
        const auto t = train_tokenizer(o);
        QCOMPARE(t->family(), Family::WordPiece);
        QCOMPARE(t->vocab_size(), 400);
        QCOMPARE(t->describe(), std::string("WordPiece (BERT, uncased), 400 tokens"));
        for (int32_t id = 0; id < 5; ++id) QCOMPARE(t->type(id), TokenType::Control);
        QCOMPARE(t->piece(1), std::string("[UNK]"));
        QCOMPARE(t->encode_ids("x", true).front(), 2);  // [CLS]
        std::istringstream lines(o.corpus_text);
        size_t n = 0, merged = 0;
        for (std::string line; std::getline(lines, line) && n < 200; ++n) {
            const auto toks = t->encode(line);
            QVERIFY(spans_ok(*t, toks, line.size()));
            std::vector<int32_t> ids;
            for (const Token& k : toks) {
                QVERIFY(k.id != 1);  // every word of the corpus is covered
                merged += t->piece(k.id).size() > 3;
                ids.push_back(k.id);
            }
            QCOMPARE(t->decode(ids), bert_words(line));
        }
        QVERIFY(merged > 0);
        QCOMPARE(t->decode(t->encode_ids("Ta, KE ni")), std::string("ta , ke ni"));
        const auto again = train_wordpiece(o);  // deterministic
        QCOMPARE(again->vocab().pieces, t->vocab().pieces);
    }

    void trainer_refuses_and_cancels() {
        TrainOptions o;
        o.model = TrainOptions::Model::WordPiece;
        o.corpus_text = corpus(5'000);
        o.vocab_size = 7;
        QVERIFY_THROWS_EXCEPTION(UsageError, train_wordpiece(o));
        o.vocab_size = 12;  // room for 7 of the corpus's characters: the most frequent
        const auto tiny = train_wordpiece(o);
        QCOMPARE(tiny->vocab_size(), 12);
        QCOMPARE(tiny->encode_ids("中"), std::vector<int32_t>{1});  // a character left out
        o.vocab_size = 300;
        QVERIFY_THROWS_EXCEPTION(UsageError, train_sentencepiece(o));  // not a SentencePiece model
        TrainOptions empty = o;
        empty.corpus_text = " \n\t ";
        QVERIFY_THROWS_EXCEPTION(UsageError, train_wordpiece(empty));
        TrainOptions missing = o;
        missing.corpus_file = "/nonexistent/corpus.txt";
        QVERIFY_THROWS_EXCEPTION(IoError, train_wordpiece(missing));
        o.vocab_size = 100'000;  // more than the corpus gives: as many as it has
        const auto all = train_wordpiece(o);
        QVERIFY(all->vocab_size() < 100'000);
        CancelToken cancelled;
        cancelled.cancel();
        QVERIFY_THROWS_EXCEPTION(CancelledError, train_wordpiece(o, &cancelled));
    }

    // The lab trains on a few hundred KB: it must take well under a couple of seconds.
    void trainer_speed() {
        TrainOptions o;
        o.model = TrainOptions::Model::WordPiece;
        o.corpus_text = corpus(300'000);
        for (int size : {1000, 4000}) {
            o.vocab_size = size;
            const auto start = std::chrono::steady_clock::now();
            const auto t = train_wordpiece(o);
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            qInfo("WordPiece training on %zu bytes to %d pieces: %.3f s", o.corpus_text.size(), t->vocab_size(), s);
            QCOMPARE(t->vocab_size(), size);
            QVERIFY2(s < testing::sanitizer_timeout_ms(2000) / 1000.0, "training took too long");
        }
    }
};

QTEST_GUILESS_MAIN(TestWordPiece)
#include "test_wordpiece.moc"
