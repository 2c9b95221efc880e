// SentencePiece .model files that are random bytes, truncated, empty, or whose pieces are
// duplicated, without an unknown piece, with a NUL inside, ... (tests/common/hostile_files):
// loading gives an error naming the file and the field, from a path and from the bytes.
#include "common/hostile_files.h"
#include "common/testing.h"
#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace lmscope;
using namespace lmscope::testing::hostile;

class TestHostileSpmModel : public QObject {
    Q_OBJECT
private slots:
    void base_loads() {
        const std::string path = testing::testdata_file(kSpmBase);
        LMSCOPE_REQUIRE_FILE(path, "the shared test data");
        QCOMPARE(tok::load_tokenizer(path)->vocab_size(), 1024);
    }

    void model_file_data() {
        QTest::addColumn<int>("index");
        for (size_t i = 0; i < spm_model_cases().size(); ++i)
            QTest::newRow(spm_model_cases()[i].name.c_str()) << int(i);
    }
    void model_file() {
        QFETCH(int, index);
        const std::string base_path = testing::testdata_file(kSpmBase);
        LMSCOPE_REQUIRE_FILE(base_path, "the shared test data");
        const BytesCase& c = spm_model_cases()[size_t(index)];
        const Bytes bad = c.make(testing::read_bytes(base_path));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("hostile tokenizer.model").toStdString();
        write_file(path, bad);
        for (const bool from_path : {true, false}) {
            try {
                if (from_path) tok::load_tokenizer(path)->encode("hello world");
                else tok::load_sentencepiece_model(std::string(bad.begin(), bad.end()), path)->encode("hello");
                QFAIL("the .model file loaded");
            } catch (const Error& e) {
                const std::string what = e.what();
                QVERIFY2(what.find(path) == 0, what.c_str());
                QVERIFY2(what.find(c.field) != std::string::npos, what.c_str());
                QVERIFY2(what.find(c.reason) != std::string::npos, what.c_str());
                QVERIFY2(what.find('\n') == std::string::npos, what.c_str());
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestHostileSpmModel)
#include "test_hostile_spm_model.moc"
