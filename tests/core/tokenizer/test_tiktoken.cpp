// tiktoken encodings (GPT-4's cl100k_base, GPT-4o's o200k_base): every string of the suites
// made with tiktoken itself gives exactly its ids; special tokens, spans, decoding and the
// merge list; hostile rank files are refused with the file, the line (or field) and the reason.
#include "common/peer_suite.h"
#include "common/testing.h"

#include "tokenizer/lab.h"
#include "tokenizer/tiktoken_tokenizer.h"
#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <QDir>
#include <QTemporaryDir>

#include <zlib.h>

#include <fstream>

using namespace lmscope;
using namespace lmscope::tok;

namespace {

std::string rank_file(const QString& encoding) {
    return testing::sample_tokenizer(encoding.toStdString() + ".tiktoken.gz");
}

void write_file(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

void write_gzip(const std::string& path, const std::string& bytes) {
    gzFile f = gzopen(path.c_str(), "wb");
    QVERIFY(f);
    QCOMPARE(gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())), static_cast<int>(bytes.size()));
    QCOMPARE(gzclose(f), Z_OK);
}

// "BASE64 RANK" lines for the 256 single bytes (in byte order), then `extra`.
std::string all_bytes(const std::string& extra = "") {
    static const char* b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string s;
    for (int b = 0; b < 256; ++b)
        s += std::string{b64[b >> 2], b64[(b & 3) << 4], '=', '='} + " " + std::to_string(b) + "\n";
    return s + extra;
}

}  // namespace

class TestTiktoken : public QObject {
    Q_OBJECT
private slots:
    void suite_matches_exactly_data() {
        QTest::addColumn<QString>("encoding");
        QTest::newRow("cl100k_base") << QString("cl100k_base");
        QTest::newRow("o200k_base") << QString("o200k_base");
    }
    void suite_matches_exactly() {
        QFETCH(QString, encoding);
        const std::string ranks = rank_file(encoding);
        const std::string inp = testing::testdata_file("vocab/tiktoken-" + encoding.toStdString() + ".inp");
        LMSCOPE_REQUIRE_FILE(ranks, "the tiktoken rank files (sample_models/fetch.sh)");
        LMSCOPE_REQUIRE_FILE(inp, "the tiktoken suites");
        const std::string out = testing::testdata_file("vocab/tiktoken-" + encoding.toStdString() + ".out");
        const testing::PeerSuite suite = testing::read_peer_suite(inp, out);
        QCOMPARE(suite.strings.size(), suite.ids.size());
        const auto t = load_tokenizer(ranks);
        std::string first_mismatch;
        const size_t matched = testing::run_peer_suite(*t, suite, first_mismatch);
        for (const std::string& text : suite.strings) QCOMPARE(t->decode(t->encode_ids(text)), text);
        qInfo("%s: %zu/%zu strings", qPrintable(encoding), matched, suite.strings.size());
        QVERIFY2(matched == suite.strings.size(), first_mismatch.c_str());
    }

    void vocabulary_and_special_tokens_data() {
        QTest::addColumn<QString>("encoding");
        QTest::addColumn<int>("n_vocab");
        QTest::addColumn<int>("endoftext");
        QTest::addColumn<int>("unassigned");  // an id between the ranks and the specials
        QTest::addColumn<QString>("hello");   // ids of "Hello world"
        QTest::newRow("cl100k_base") << QString("cl100k_base") << 100277 << 100257 << 100256 << QString("9906 1917");
        QTest::newRow("o200k_base") << QString("o200k_base") << 200019 << 199999 << 199998 << QString("13225 2375");
    }
    void vocabulary_and_special_tokens() {
        QFETCH(QString, encoding);
        QFETCH(int, n_vocab);
        QFETCH(int, endoftext);
        QFETCH(int, unassigned);
        QFETCH(QString, hello);
        const std::string ranks = rank_file(encoding);
        LMSCOPE_REQUIRE_FILE(ranks, "the tiktoken rank files (sample_models/fetch.sh)");
        const auto t = load_tokenizer(ranks);
        QCOMPARE(t->vocab_size(), n_vocab);
        QCOMPARE(t->family(), Family::ByteLevelBpe);
        QVERIFY(QString::fromStdString(t->describe()).contains(encoding));
        QCOMPARE(t->piece(endoftext), std::string("<|endoftext|>"));
        QCOMPARE(t->type(endoftext), TokenType::Control);
        QCOMPARE(t->type(unassigned), TokenType::Unused);
        QCOMPARE(t->token_bytes(unassigned), std::string());
        QCOMPARE(QString::fromStdString(testing::ids_text(t->encode_ids("Hello world"))), hello);
        QCOMPARE(t->piece(t->encode_ids(" world").at(0)), std::string("\xC4\xA0world"));  // byte-level alphabet
        // Special tokens are text unless asked for; tiktoken adds no BOS/EOS.
        const std::string text = "a<|endoftext|>b";
        const auto plain = t->encode_ids(text, true, false);
        QVERIFY(std::find(plain.begin(), plain.end(), endoftext) == plain.end());
        const auto parsed = t->encode(text, true, true);
        QCOMPARE(parsed.size(), size_t(3));
        QCOMPARE(parsed[1].id, endoftext);
        QCOMPARE(parsed[1].begin, size_t(1));
        QCOMPARE(parsed[1].end, size_t(14));
        QCOMPARE(t->decode(t->encode_ids(text, false, true), true), text);
        // Odd input: byte spans inside the text, invalid UTF-8 as byte tokens, round trips.
        for (const std::string& s : {std::string("\xFF\xFE x \xE6\x97"), std::string("a\0b", 3), std::string(5000, 'x'),
                                    std::string("   \n\n\t "), std::string()}) {
            std::vector<int32_t> ids;
            size_t end = 0;
            for (const Token& k : t->encode(s)) {
                QVERIFY(k.begin == end && k.end > k.begin && k.end <= s.size());
                QVERIFY(t->type(k.id) == TokenType::Normal);
                end = k.end;
                ids.push_back(k.id);
            }
            QCOMPARE(end, s.size());
            QCOMPARE(t->decode(ids), s);
        }
    }

    void merge_list_rebuilds_tokens() {
        const std::string ranks = rank_file("cl100k_base");
        LMSCOPE_REQUIRE_FILE(ranks, "the tiktoken rank files (sample_models/fetch.sh)");
        const auto t = load_tokenizer(ranks);
        const std::vector<Merge> merges = list_merges(*t);
        QVERIFY(merges.size() > 90000);
        for (size_t i = 0; i < 2000; ++i) {
            QVERIFY(merges[i].result >= 0);
            QCOMPARE(merges[i].left + merges[i].right, t->piece(merges[i].result));
        }
        QCOMPARE(merges[0].left + merges[0].right, std::string("\xC4\xA0\xC4\xA0"));  // rank 256: two spaces
    }

    void hostile_rank_files_data() {
        QTest::addColumn<QString>("file");     // the file's name (it names the encoding)
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("gzip");
        QTest::addColumn<QString>("message");  // what the error says after the path
        const std::string bytes = all_bytes();
        auto row = [](const char* name, const QString& file, const std::string& b, bool gz, const QString& msg) {
            QTest::newRow(name) << file << QByteArray::fromStdString(b) << gz << msg;
        };
        row("bad base64", "cl100k_base.tiktoken", "IQ== 0\nIg== 1\n!!!! 2\n", false,
            "line 3: the token is not valid base64");
        row("base64 bits past the end", "cl100k_base.tiktoken", "IR== 0\n", false, "line 1: the token is not valid base64");
        row("a 1 MB line", "cl100k_base.tiktoken", std::string(1 << 20, 'A') + " 0\n", false,
            "line 1: is 1048578 bytes long, more than 1024");
        row("two spaces", "cl100k_base.tiktoken", "IQ==  0\n", false, "line 1: expected 'BASE64 RANK' (one space)");
        row("no rank", "cl100k_base.tiktoken", "IQ==\n", false, "line 1: expected 'BASE64 RANK' (one space)");
        row("rank with a sign", "cl100k_base.tiktoken", "IQ== +0\n", false, "line 1: the rank is not a number");
        row("rank past the lines", "cl100k_base.tiktoken", "IQ== 7\n", false, "line 1: the rank is not a number from 0 to 1");
        row("rank with junk", "cl100k_base.tiktoken", "IQ== 0x\n", false, "line 1: the rank is not a number");
        row("duplicate rank", "cl100k_base.tiktoken", "IQ== 0\nIg== 0\n", false, "line 2: rank 0 is also on line 1");
        row("missing rank", "cl100k_base.tiktoken", "IQ== 0\nIg== 2\nIw== 3\n", false,
            "ranks: rank 1 is missing (ranks run 0..3)");
        row("duplicate bytes", "cl100k_base.tiktoken", "IQ== 0\nIQ== 1\n", false,
            "line 2: rank 1 has the same bytes as rank 0 (line 1)");
        row("a byte without a rank", "cl100k_base.tiktoken", "IQ== 0\n", false,
            "ranks: byte 0 has no rank (every byte needs one)");
        row("empty", "cl100k_base.tiktoken", "", false, "ranks: the file has no ranks");
        row("too few ranks for the encoding", "cl100k_base.tiktoken", bytes, false,
            "ranks: has 256 ranks; cl100k_base has 100256");
        row("too few ranks, gzip", "o200k_base.tiktoken.gz", bytes, true, "ranks: has 256 ranks; o200k_base has 199998");
        row("gzip bomb", "cl100k_base.tiktoken.gz", std::string(65u << 20, '\n'), true,
            "gzip: decompresses to more than 67108864 bytes");
        row("gzip with trailing data", "cl100k_base.tiktoken.gz", bytes, true, "bytes follow the end of the compressed stream");
    }
    void hostile_rank_files() {
        QFETCH(QString, file);
        QFETCH(QByteArray, bytes);
        QFETCH(bool, gzip);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const std::string path = dir.filePath(file).toStdString();
        if (gzip) write_gzip(path, bytes.toStdString());
        else write_file(path, bytes.toStdString());
        if (QTest::currentDataTag() == QByteArray("gzip with trailing data"))
            std::ofstream(path, std::ios::binary | std::ios::app) << "junk";
        try {
            load_tokenizer(path);
            QFAIL("the rank file was accepted");
        } catch (const FormatError& e) {
            QCOMPARE(QString::fromStdString(e.file()), QString::fromStdString(path));
            QVERIFY2(QString::fromStdString(e.what()).startsWith(QString::fromStdString(path) + ": "), e.what());
            QVERIFY2(QString::fromStdString(e.what()).contains(message), e.what());
        }
    }

    void truncated_gzip_of_the_real_file() {
        const std::string ranks = rank_file("cl100k_base");
        LMSCOPE_REQUIRE_FILE(ranks, "the tiktoken rank files (sample_models/fetch.sh)");
        const std::string real = testing::read_text(ranks);
        QTemporaryDir dir;
        const std::string path = dir.filePath("cl100k_base.tiktoken.gz").toStdString();
        write_file(path, real.substr(0, real.size() / 2));
        QVERIFY_THROWS_EXCEPTION(FormatError, load_tokenizer(path));
        try {
            load_tokenizer(path);
        } catch (const FormatError& e) {
            QCOMPARE(QString::fromStdString(e.what()), QString::fromStdString(path + ": gzip: the compressed stream is truncated"));
        }
        std::string corrupt = real;
        for (size_t i = 1000; i < 1100; ++i) corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5A);
        write_file(path, corrupt);
        QVERIFY_THROWS_EXCEPTION(FormatError, load_tokenizer(path));
    }

    void file_names_and_kinds() {
        QTemporaryDir dir;
        const std::string unknown = dir.filePath("p50k_base.tiktoken").toStdString();
        write_file(unknown, all_bytes());
        try {
            load_tokenizer(unknown);
            QFAIL("an unknown encoding was accepted");
        } catch (const UnsupportedError& e) {
            QCOMPARE(QString::fromStdString(e.what()),
                     QString::fromStdString(unknown + ": the file name names no known tiktoken encoding "
                                                      "('p50k_base'; known: cl100k_base, o200k_base)"));
        }
        const std::string folder = dir.filePath("cl100k_base.tiktoken").toStdString();
        QVERIFY(QDir().mkdir(QString::fromStdString(folder)));
        try {
            load_tokenizer(folder);
            QFAIL("a directory was accepted");
        } catch (const IoError& e) {
            QCOMPARE(QString::fromStdString(e.what()), QString::fromStdString(folder + ": is a directory"));
        }
        QVERIFY_THROWS_EXCEPTION(IoError, load_tokenizer(dir.filePath("o200k_base.tiktoken.gz").toStdString()));
        QVERIFY(is_tiktoken_path("a/b/cl100k_base.tiktoken.gz"));
        QVERIFY(!is_tiktoken_path("a/b.tiktoken/model.gguf"));
        QCOMPARE(tiktoken_encoding_of("x/o200k_base.tiktoken")->n_ranks, 199998);
    }
};

QTEST_APPLESS_MAIN(TestTiktoken)
#include "test_tiktoken.moc"
