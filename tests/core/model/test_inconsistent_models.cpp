// GGUF models whose metadata, tensor shapes or vocabulary disagree (tests/common/hostile_files):
// through the core API each one gives an error naming the file, the field and the reason, the
// tolerant summary (info, the GUI's spec panel) lists the problem instead of throwing, and the
// parts of the file a case does not break still load.
#include "common/hostile_files.h"
#include "common/testing.h"
#include "engine/model.h"
#include "model/summary.h"
#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace lmscope;
using namespace lmscope::testing::hostile;

namespace {

// The error `f` throws; empty when it does not throw.
template <class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& x : v) s += x + "\n";
    return s;
}

}  // namespace

class TestInconsistentModels : public QObject {
    Q_OBJECT
private slots:
    void model_case_data() {
        QTest::addColumn<int>("index");
        for (size_t i = 0; i < model_cases().size(); ++i)
            QTest::newRow(model_cases()[i].name.c_str()) << int(i);
    }
    void model_case() {
        QFETCH(int, index);
        const GgufCase& c = model_cases()[size_t(index)];
        const std::string base_path = testing::testdata_file(kModelBase);
        LMSCOPE_REQUIRE_FILE(base_path, "the shared test data");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("inconsistent model.gguf").toStdString();
        {
            GgufEdit edit(gguf::File::open(base_path));
            c.edit(edit);
            write_file(path, edit.bytes());
        }
        const gguf::File file = gguf::File::open(path);  // the container itself stays valid

        const std::string model_error = error_of([&] { engine::Model::load(path); });
        const std::string vocab_error = error_of([&] { tok::load_tokenizer(path); });
        const std::string& error = c.part == Part::Vocab ? vocab_error : model_error;
        QVERIFY2(!error.empty(), "the loader accepted the file");
        QVERIFY2(error.find(path) == 0, error.c_str());
        QVERIFY2(error.find(c.field) != std::string::npos, error.c_str());
        QVERIFY2(error.find(c.reason) != std::string::npos, error.c_str());
        QVERIFY2(error.find('\n') == std::string::npos, error.c_str());

        // The part a case leaves alone still loads: the vocabulary of a model with bad weights
        // tokenizes, the weights of a model with a bad vocabulary bind.
        if (c.part == Part::Vocab) QVERIFY2(model_error.empty(), model_error.c_str());
        else QVERIFY2(vocab_error.empty(), vocab_error.c_str());

        // The tolerant summary (info, the GUI's spec panel) never throws on a valid container;
        // a metadata problem makes the model unsupported and, unless it is the architecture
        // itself, is listed.
        const model::ModelSummary s = model::ModelSummary::of(file);
        if (c.part == Part::Metadata) {
            QVERIFY(!s.supported);
            const std::string problems = joined(s.problems);
            if (c.field != "general.architecture")
                QVERIFY2(problems.find(c.field) != std::string::npos, problems.c_str());
        }
    }

    void bpe_case_data() {
        QTest::addColumn<int>("index");
        for (size_t i = 0; i < bpe_vocab_cases().size(); ++i)
            QTest::newRow(bpe_vocab_cases()[i].name.c_str()) << int(i);
    }
    void bpe_case() {
        QFETCH(int, index);
        const GgufCase& c = bpe_vocab_cases()[size_t(index)];
        const std::string base_path = testing::testdata_file(kBpeBase);
        LMSCOPE_REQUIRE_FILE(base_path, "the shared test data");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("inconsistent vocab.gguf").toStdString();
        {
            GgufEdit edit(gguf::File::open(base_path));
            c.edit(edit);
            write_file(path, edit.bytes());
        }
        const std::string error = error_of([&] { tok::load_tokenizer(path)->encode("hello world"); });
        QVERIFY2(!error.empty(), "the tokenizer accepted the vocabulary");
        QVERIFY2(error.find(path) == 0, error.c_str());
        QVERIFY2(error.find(c.field) != std::string::npos, error.c_str());
        QVERIFY2(error.find(c.reason) != std::string::npos, error.c_str());
    }

    void bases_are_valid() {
        for (const char* base : {kModelBase, kBpeBase}) {
            const std::string path = testing::testdata_file(base);
            LMSCOPE_REQUIRE_FILE(path, "the base files");
            // Re-written unchanged, a base loads: the cases fail for their edit only.
            QTemporaryDir dir;
            const std::string copy = dir.filePath("copy.gguf").toStdString();
            write_file(copy, GgufEdit(gguf::File::open(path)).bytes());
            QVERIFY(tok::load_tokenizer(copy)->vocab_size() > 0);
            if (base == kModelBase) QCOMPARE(engine::Model::load(copy)->spec().n_layer(), 3);
        }
    }
};

QTEST_APPLESS_MAIN(TestInconsistentModels)
#include "test_inconsistent_models.moc"
