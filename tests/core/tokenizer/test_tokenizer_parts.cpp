// The tokenizer's building blocks without any vocabulary file: the byte-level alphabet, UTF-8
// helpers, the pre-tokenizer expressions of each family, special-token splitting, the
// protobuf writer/reader and the peer-suite batch format.
#include "common/testing.h"

#include "tokenizer/batch.h"
#include "tokenizer/byte_level.h"
#include "tokenizer/pretokenizer.h"
#include "tokenizer/special_split.h"
#include "tokenizer/spm_proto.h"
#include "tokenizer/utf8.h"
#include "util/error.h"

#include <set>

using namespace lmscope;
using namespace lmscope::tok;

namespace {

std::vector<std::string> pieces_of(const PreTokenizer& p, const std::string& text) {
    std::vector<std::string> out;
    for (auto [b, e] : p.split(text)) out.push_back(text.substr(b, e - b));
    return out;
}

QString join(const std::vector<std::string>& v) {
    QStringList l;
    for (const auto& s : v) l << QString::fromStdString("[" + s + "]");
    return l.join(QString());
}

}  // namespace

Q_DECLARE_METATYPE(std::vector<std::string>)

class TestTokenizerParts : public QObject {
    Q_OBJECT
private slots:
    void byte_level_is_a_bijection() {
        const ByteLevel& bl = ByteLevel::instance();
        std::set<std::string> seen;
        for (int b = 0; b < 256; ++b) {
            const std::string& t = bl.encode(static_cast<uint8_t>(b));
            QVERIFY(is_valid_utf8(t));
            seen.insert(t);
            QCOMPARE(bl.decode_text(t), std::string(1, static_cast<char>(b)));
        }
        QCOMPARE(seen.size(), size_t(256));
        QCOMPARE(bl.encode(' '), std::string("\xC4\xA0"));    // U+0120 'Ġ'
        QCOMPARE(bl.encode('\n'), std::string("\xC4\x8A"));   // U+010A 'Ċ'
        QCOMPARE(bl.encode('A'), std::string("A"));
        QCOMPARE(bl.encode(0xE9), std::string("\xC3\xA9"));   // printable Latin-1 stands for itself
        QCOMPARE(bl.decode_text("\xC4\xA0world"), std::string(" world"));
    }

    void utf8_incomplete_tail_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("held");
        QTest::newRow("ascii") << QByteArray("abc") << 0;
        QTest::newRow("complete 2-byte") << QByteArray("a\xC3\xA9") << 0;
        QTest::newRow("lead of 2") << QByteArray("a\xC3") << 1;
        QTest::newRow("2 of 3") << QByteArray("a\xE6\x97") << 2;
        QTest::newRow("3 of 4") << QByteArray("\xF0\x9F\x98") << 3;
        QTest::newRow("complete 4") << QByteArray("\xF0\x9F\x98\x80") << 0;
        QTest::newRow("lone continuation") << QByteArray("a\x80") << 0;
        QTest::newRow("invalid lead") << QByteArray("a\xFF") << 0;
        QTest::newRow("empty") << QByteArray() << 0;
    }
    void utf8_incomplete_tail() {
        QFETCH(QByteArray, bytes);
        QFETCH(int, held);
        QCOMPARE(incomplete_utf8_tail(std::string_view(bytes.constData(), bytes.size())), size_t(held));
    }

    void utf8_validation() {
        QVERIFY(is_valid_utf8("h\xC3\xA9llo \xF0\x9F\xA6\x99"));
        QVERIFY(!is_valid_utf8("\xC0\xAF"));          // overlong '/'
        QVERIFY(!is_valid_utf8("\xED\xA0\x80"));      // surrogate U+D800
        QVERIFY(!is_valid_utf8("\xF4\x90\x80\x80"));  // > U+10FFFF
        QVERIFY(!is_valid_utf8("\xE6\x97"));          // truncated
        std::string s;
        append_utf8(s, 0x1F999);
        QCOMPARE(s, std::string("\xF0\x9F\xA6\x99"));
    }

    void pretokenizer_splits_data() {
        QTest::addColumn<QString>("family");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<std::vector<std::string>>("expected");
        using V = std::vector<std::string>;
        QTest::newRow("gpt2 words") << "gpt-2" << QByteArray("Hello world's  end")
                                    << V{"Hello", " world", "'s", " ", " end"};
        QTest::newRow("gpt2 digits kept together") << "gpt-2" << QByteArray("a 12345") << V{"a", " 12345"};
        QTest::newRow("starcoder digits one by one") << "starcoder" << QByteArray("x 123") << V{"x", " ", "1", "2", "3"};
        QTest::newRow("smollm like starcoder") << "smollm" << QByteArray("ab12") << V{"ab", "1", "2"};
        QTest::newRow("llama3 digit triples") << "llama-bpe" << QByteArray("1234567") << V{"123", "456", "7"};
        QTest::newRow("llama3 contractions any case") << "llama-bpe" << QByteArray("I'M ok") << V{"I", "'M", " ok"};
        QTest::newRow("qwen2 single digits") << "qwen2" << QByteArray("x42") << V{"x", "4", "2"};
        QTest::newRow("falcon punctuation first") << "falcon" << QByteArray("a+=b") << V{"a", "+=", "b"};
        QTest::newRow("deepseek-coder newline alone") << "deepseek-coder" << QByteArray("a\n\nb") << V{"a", "\n", "\n", "b"};
        QTest::newRow("deepseek-coder CJK run") << "deepseek-coder" << QByteArray("\xE4\xBD\xA0\xE5\xA5\xBD!")
                                                << V{"\xE4\xBD\xA0\xE5\xA5\xBD", "!"};
        QTest::newRow("deepseek-llm trailing spaces") << "deepseek-llm" << QByteArray("ab  ") << V{"ab", "  "};
        QTest::newRow("invalid utf-8 kept") << "gpt-2" << QByteArray("a\xFF" "b") << V{"a", "\xFF", "b"};
    }
    void pretokenizer_splits() {
        QFETCH(QString, family);
        QFETCH(QByteArray, text);
        QFETCH(std::vector<std::string>, expected);
        PreTokenizer p(family.toStdString());
        const auto got = pieces_of(p, text.toStdString());
        QVERIFY2(got == expected, qPrintable(join(got) + " != " + join(expected)));
    }

    void every_family_covers_odd_text() {
        const std::string odd = std::string("  x\t\n\r\n\xC3\xA9\xE4\xB8\xAD 12 ''' \xF0\x9F\x98\x80") +
                                std::string("\0\xFF\x80 end", 8) + "  ";
        const std::vector<std::string> required = {
            "default", "gpt2", "llama-bpe", "smollm", "qwen2", "deepseek-llm", "deepseek-coder",
            "falcon", "starcoder", "refact", "mpt", "gpt-neox", "command-r"};
        for (const std::string& f : required) {
            PreTokenizer p(f);
            size_t pos = 0;
            for (auto [b, e] : p.split(odd)) {
                QVERIFY2(b == pos && e > b, f.c_str());
                pos = e;
            }
            QVERIFY2(pos == odd.size(), f.c_str());
        }
    }

    void unknown_family_is_named() {
        try {
            PreTokenizer p("no-such-family");
            QFAIL("expected an error");
        } catch (const UnsupportedError& e) {
            QVERIFY(std::string(e.what()).find("no-such-family") != std::string::npos);
        }
    }

    void special_splitter() {
        Vocab v;
        v.pieces = {"a", "<s>", "<|im_start|>", "<|im", "<ud>"};
        v.types = {TokenType::Normal, TokenType::Control, TokenType::Control, TokenType::Control,
                   TokenType::UserDefined};
        v.scores.assign(5, 0.0f);
        v.build_index();
        SpecialSplitter sp(v, true);
        const std::string text = "x<|im_start|>y<ud><s>";
        auto f = sp.split(text, true);
        QCOMPARE(f.size(), size_t(5));
        QCOMPARE(f[1].token, 2);  // the longest match wins over "<|im"
        QCOMPARE(f[1].begin, size_t(1));
        QCOMPARE(f[1].end, size_t(13));
        QCOMPARE(f[3].token, 4);
        QCOMPARE(f[4].token, 1);
        auto g = sp.split(text, false);  // only the user-defined token
        QCOMPARE(g.size(), size_t(3));
        QCOMPARE(g[1].token, 4);
        QCOMPARE(g[0].end, size_t(14));
        QVERIFY(sp.split("", true).empty());
    }

    void proto_round_trip() {
        ProtoWriter w;
        w.varint(1, 300);
        w.int32(2, -1);
        w.fixed32_float(3, -2.5f);
        w.bytes(4, std::string_view("h\0i", 3));
        w.boolean(35, true);
        ProtoReader r(w.data(), "mem", "msg");
        QVERIFY(r.next());
        QCOMPARE(r.field(), 1u);
        QCOMPARE(r.as_varint(), uint64_t(300));
        QVERIFY(r.next());
        QCOMPARE(r.as_int32(), -1);
        QVERIFY(r.next());
        QCOMPARE(r.as_float(), -2.5f);
        QVERIFY(r.next());
        QCOMPARE(r.as_bytes(), std::string_view("h\0i", 3));
        QVERIFY(r.next());
        QCOMPARE(r.field(), 35u);
        QCOMPARE(r.as_varint(), uint64_t(1));
        QVERIFY(!r.next());
    }

    void proto_reader_rejects_truncation() {
        ProtoWriter w;
        w.bytes(1, "hello");
        const std::string cut = w.data().substr(0, w.data().size() - 2);
        ProtoReader r(cut, "cut.model", "ModelProto");
        QVERIFY_THROWS_EXCEPTION(FormatError, r.next());
    }

    void batch_format() {
        const std::string content = "a b\n__ggml_vocab_test__\n\n__ggml_vocab_test__\n\n\n__ggml_vocab_test__\n"
                                    "x\ny\n__ggml_vocab_test__\n";
        const auto s = parse_batch(content);
        QCOMPARE(s.size(), size_t(4));
        QCOMPARE(s[0], std::string("a b"));
        QCOMPARE(s[1], std::string(""));
        QCOMPARE(s[2], std::string("\n"));
        QCOMPARE(s[3], std::string("x\ny"));
        QCOMPARE(parse_batch("tail").size(), size_t(1));
    }
};

QTEST_APPLESS_MAIN(TestTokenizerParts)
#include "test_tokenizer_parts.moc"
