// Tokenizer lab core: SentencePiece training in its own process (lmscope-spm-train) (BPE and unigram, cancellable),
// merges of BPE models in order, comparing tokenizers, and the misspelling generator.
#include "common/testing.h"

#include "tokenizer/lab.h"
#include "tokenizer/trainer.h"
#include "util/error.h"

#include <atomic>
#include <chrono>
#include <set>
#include <thread>

using namespace lmscope;
using namespace lmscope::tok;

namespace {

// A small deterministic corpus with repeated words (so merges have something to learn).
std::string corpus(size_t lines) {
    static const char* words[] = {"the", "token", "tokens", "tokenizer", "model", "models", "reads",
                                  "words", "pieces", "merge", "merges", "byte", "bytes", "lower",
                                  "newest", "widest", "language", "attention", "head", "heads"};
    std::string s;
    uint32_t x = 12345;
    for (size_t l = 0; l < lines; ++l) {
        for (int w = 0; w < 9; ++w) {
            x = x * 1103515245u + 12345u;
            s += words[(x >> 16) % 20];
            s += w == 8 ? ".\n" : " ";
        }
    }
    return s;
}

}  // namespace

class TestTokenizerLab : public QObject {
    Q_OBJECT
private slots:
    void train_bpe_and_unigram_data() {
        QTest::addColumn<bool>("bpe");
        QTest::newRow("bpe") << true;
        QTest::newRow("unigram") << false;
    }
    void train_bpe_and_unigram() {
        QFETCH(bool, bpe);
        TrainOptions o;
        o.corpus_text = corpus(2000);
        o.model = bpe ? TrainOptions::Model::Bpe : TrainOptions::Model::Unigram;
        o.vocab_size = 300;
        o.byte_fallback = true;
        const TrainResult r = train_sentencepiece(o);
        QVERIFY(!r.serialized_model.empty());
        const auto t = load_sentencepiece_model(r.serialized_model, "trained.model");
        QCOMPARE(t->vocab_size(), 300);
        QVERIFY(QString::fromStdString(t->describe()).contains(bpe ? "BPE" : "unigram"));
        const std::string text = "the tokenizer merges bytes";
        QCOMPARE(t->decode(t->encode_ids(text)), text);
        QVERIFY(t->encode_ids(text).size() < text.size());  // it learned multi-character pieces
        // Byte fallback: a character the corpus never had becomes its UTF-8 bytes.
        const auto toks = t->encode("\xE4\xB8\xAD");
        QCOMPARE(toks.size(), size_t(4));  // "▁" and three byte pieces
        QCOMPARE(t->type(toks[1].id), TokenType::Byte);
        if (bpe) {
            QVERIFY(!list_merges(*t).empty());
        } else {
            QVERIFY_THROWS_EXCEPTION(UnsupportedError, list_merges(*t));
        }
    }

    void train_from_file_and_bad_options() {
        TrainOptions o;
        o.corpus_file = "/nonexistent/corpus.txt";
        QVERIFY_THROWS_EXCEPTION(IoError, train_sentencepiece(o));
        TrainOptions small;
        small.corpus_text = corpus(10);
        small.vocab_size = 2;
        QVERIFY_THROWS_EXCEPTION(UsageError, train_sentencepiece(small));
        TrainOptions empty;
        QVERIFY_THROWS_EXCEPTION(UsageError, train_sentencepiece(empty));
        TrainOptions too_big;  // more pieces than the corpus can give: the trainer refuses
        too_big.corpus_text = "ab ab ab\n";
        too_big.vocab_size = 5000;
        too_big.byte_fallback = false;
        QVERIFY_THROWS_EXCEPTION(Error, train_sentencepiece(too_big));
    }

    void trainer_program_problems_are_named() {
        // The trainer runs as its own program; a missing one or one that fails is reported.
        TrainOptions o;
        o.corpus_text = corpus(2000);
        o.vocab_size = 300;
        const QByteArray saved = qgetenv("LMSCOPE_SPM_TRAIN");
        qputenv("LMSCOPE_SPM_TRAIN", "/nonexistent/lmscope-spm-train");
        try {
            train_sentencepiece(o);
            QFAIL("a missing trainer program was not reported");
        } catch (const IoError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("/nonexistent/lmscope-spm-train") != std::string::npos, e.what());
            QVERIFY2(what.find("LMSCOPE_SPM_TRAIN") != std::string::npos, e.what());
        }
        qputenv("LMSCOPE_SPM_TRAIN", "/bin/false");  // exits 1 and says nothing
        try {
            train_sentencepiece(o);
            QFAIL("a failing trainer program was not reported");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("training failed") != std::string::npos, e.what());
        }
        if (saved.isNull()) qunsetenv("LMSCOPE_SPM_TRAIN");
        else qputenv("LMSCOPE_SPM_TRAIN", saved);
        QVERIFY(!train_sentencepiece(o).serialized_model.empty());  // found again
    }

    void cancel_from_another_thread() {
        TrainOptions o;
        o.corpus_text = corpus(200000);  // large enough to train for a long while
        o.model = TrainOptions::Model::Unigram;
        o.vocab_size = 8000;
        CancelToken cancel;
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            cancel.cancel();
        });
        bool cancelled = false;
        try {
            train_sentencepiece(o, &cancel);
        } catch (const CancelledError&) {
            cancelled = true;
        }
        canceller.join();
        QVERIFY(cancelled);
        // Cancelled before it starts: stops at the first poll.
        CancelToken already;
        already.cancel();
        QVERIFY_THROWS_EXCEPTION(CancelledError, train_sentencepiece(o, &already));
    }

    void merges_of_byte_level_bpe() {
        const std::string gguf = testing::testdata_file("vocab/ggml-vocab-gpt-2.gguf");
        LMSCOPE_REQUIRE_FILE(gguf, "the peer tokenizer suites");
        const auto t = load_tokenizer(gguf);
        const auto m = list_merges(*t);
        QCOMPARE(m.size(), size_t(50000));
        QCOMPARE(m[0].left, std::string("\xC4\xA0"));
        QCOMPARE(m[0].right, std::string("t"));
        QCOMPARE(t->piece(m[0].result), std::string("\xC4\xA0t"));
    }

    void merges_of_sentencepiece_bpe() {
        const std::string spm = testing::testdata_file("tokenizer/fx-spm-1024.model");
        LMSCOPE_REQUIRE_FILE(spm, "the fixture tokenizer");
        const auto t = load_tokenizer(spm);
        const auto m = list_merges(*t);
        QVERIFY(m.size() > 500);
        float last = 1e30f;
        for (const Merge& g : m) {
            QVERIFY(g.result >= 0);
            QCOMPARE(g.left + g.right, t->piece(g.result));
            const float s = t->vocab().scores[g.result];
            QVERIFY(s <= last);  // in the order the model learned them
            last = s;
        }
        // Every merged piece, encoded alone, is that one piece (the merge order rebuilds it).
        size_t whole = 0;
        for (const Merge& g : m) {
            const std::string text = t->token_bytes(g.result);  // "▁the" -> " the"
            if (text.size() < 2 || text[0] != ' ') continue;     // only word-initial pieces
            const auto ids = t->encode_ids(std::string_view(text).substr(1));  // the prefix adds the space
            if (ids.size() == 1 && ids[0] == g.result) ++whole;
        }
        QVERIFY(whole > 100);
    }

    void compare_tokenizers_counts() {
        const std::string gpt2 = testing::testdata_file("vocab/ggml-vocab-gpt-2.gguf");
        const std::string spm = testing::testdata_file("tokenizer/fx-spm-1024.model");
        LMSCOPE_REQUIRE_FILE(gpt2, "the peer tokenizer suites");
        LMSCOPE_REQUIRE_FILE(spm, "the fixture tokenizer");
        const auto a = load_tokenizer(gpt2);
        const auto b = load_tokenizer(spm);
        const std::vector<const Tokenizer*> ts = {a.get(), b.get()};
        const std::vector<std::string> texts = {"hello world", "\xF0\x9F\xA6\x99", "tokenization"};
        const Comparison c = compare_tokenizers(ts, texts);
        QCOMPARE(c.cells.size(), size_t(3));
        for (size_t i = 0; i < texts.size(); ++i)
            for (size_t k = 0; k < ts.size(); ++k) {
                QCOMPARE(c.cells[i][k].ids, ts[k]->encode_ids(texts[i]));
                QCOMPARE(c.cells[i][k].pieces.size(), c.cells[i][k].ids.size());
            }
        QCOMPARE(c.cells[0][0].byte_pieces, size_t(0));
        QVERIFY(c.cells[1][0].byte_pieces >= 2);  // the emoji is split inside its bytes
        QCOMPARE(c.cells[1][1].byte_pieces, size_t(4));  // four byte-fallback pieces
        QCOMPARE(c.total_tokens(0), c.cells[0][0].ids.size() + c.cells[1][0].ids.size() + c.cells[2][0].ids.size());
        QCOMPARE(c.total_byte_pieces(1), size_t(4));
    }

    void misspelling_generator() {
        const auto m = misspellings("receive");
        auto has = [&](const char* s) { return std::find(m.begin(), m.end(), s) != m.end(); };
        QVERIFY(has("recieve"));   // ie/ei and a swap
        QVERIFY(has("recive"));    // a dropped letter
        QVERIFY(has("receivve"));  // a doubled letter
        QVERIFY(has("raceive"));   // a vowel confusion
        QVERIFY(has("erceive"));   // adjacent letters swapped
        QVERIFY(!has("receive"));
        QCOMPARE(std::set<std::string>(m.begin(), m.end()).size(), m.size());
        QCOMPARE(misspellings("receive"), m);  // deterministic
        const auto upper = misspellings("Apple");
        QVERIFY(std::find(upper.begin(), upper.end(), "Epple") != upper.end());
        const auto cafe = misspellings("caf\xC3\xA9");
        QVERIFY(std::find(cafe.begin(), cafe.end(), "ca\xC3\xA9" "f") != cafe.end());
        for (const std::string& s : cafe) QVERIFY(!s.empty());
        QVERIFY(misspellings("").empty());
        const auto a = misspellings("a");
        QVERIFY(std::find(a.begin(), a.end(), "") == a.end());
        QVERIFY(std::find(a.begin(), a.end(), "aa") != a.end());
    }
};

QTEST_APPLESS_MAIN(TestTokenizerLab)
#include "test_tokenizer_lab.moc"
