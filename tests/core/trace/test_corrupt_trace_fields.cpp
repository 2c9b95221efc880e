// A real saved trace (fx-gqa-Q8_0: a prefill of the prompt, then decode steps, full capture)
// with each count, length, offset, dtype and shape corrupted (tests/common/hostile_files):
// loading gives a FormatError naming the file, the field and the reason, from memory and
// from disk. The unchanged trace loads, so each case fails for its corruption alone.
#include "common/hostile_files.h"
#include "common/testing.h"
#include "trace/trace_file.h"
#include "util/error.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace lmscope;
using namespace lmscope::testing::hostile;

class TestCorruptTraceFields : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        const std::string model = testing::testdata_file(kModelBase);
        if (!model.empty()) trace_ = real_trace(model);
    }

    void unchanged_trace_loads() {
        LMSCOPE_REQUIRE_FILE(std::string(trace_.empty() ? "" : "x"), "the shared test data");
        const trace::SessionTrace t = trace::parse_trace(trace_.data(), trace_.size(), "real.lmtrace");
        QCOMPARE(t.size(), size_t(4));
        QVERIFY(t.step(0).tokens.size() > 2);
        QVERIFY(!t.step(0).attention.planes.empty());
    }

    void corrupted_data() {
        QTest::addColumn<int>("index");
        for (size_t i = 0; i < trace_cases().size(); ++i) QTest::newRow(trace_cases()[i].name.c_str()) << int(i);
    }
    void corrupted() {
        QFETCH(int, index);
        LMSCOPE_REQUIRE_FILE(std::string(trace_.empty() ? "" : "x"), "the shared test data");
        const BytesCase& c = trace_cases()[size_t(index)];
        const Bytes bad = c.make(trace_);
        QVERIFY(bad != trace_);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("corrupt trace.lmtrace").toStdString();
        write_file(path, bad);
        for (const bool from_disk : {false, true}) {
            try {
                if (from_disk) trace::load_trace(path);
                else trace::parse_trace(bad.data(), bad.size(), path);
                QFAIL("the corrupted trace loaded");
            } catch (const FormatError& e) {
                const std::string what = e.what();
                QCOMPARE(e.file(), path);
                QVERIFY2(e.field().find(c.field) != std::string::npos, what.c_str());
                QVERIFY2(what.find(c.reason) != std::string::npos, what.c_str());
                QVERIFY2(what.find('\n') == std::string::npos, what.c_str());
            }
        }
    }

private:
    Bytes trace_;
};

QTEST_APPLESS_MAIN(TestCorruptTraceFields)
#include "test_corrupt_trace_fields.moc"
