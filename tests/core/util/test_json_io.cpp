// parse_untrusted_json on nesting at and past the cap (lists, objects, mixed, 100000 deep),
// on invalid JSON (a FormatError naming the file and the field, without the library's tag),
// and dump_json on invalid UTF-8 (replaced, not thrown).
#include "util/error.h"
#include "util/json_io.h"

#include <QtTest>

#include <string>

using namespace lmscope;

namespace {

std::string nested(int depth, bool objects) {
    std::string s;
    for (int i = 0; i < depth; ++i) s += objects ? "{\"k\":" : "[";
    s += "1";
    for (int i = 0; i < depth; ++i) s += objects ? "}" : "]";
    return s;
}

}  // namespace

class TestJsonIo : public QObject {
    Q_OBJECT
private slots:
    void documents_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");  // "" when it parses
        QTest::newRow("lists 64 deep") << QString::fromStdString(nested(64, false)) << "";
        QTest::newRow("objects 64 deep") << QString::fromStdString(nested(64, true)) << "";
        QTest::newRow("lists 65 deep") << QString::fromStdString(nested(65, false)) << "f: x: nests deeper than 64 levels";
        QTest::newRow("objects 65 deep") << QString::fromStdString(nested(65, true)) << "f: x: nests deeper than 64 levels";
        QTest::newRow("lists 100000 deep") << QString::fromStdString(nested(100000, false)) << "nests deeper than 64 levels";
        QTest::newRow("unclosed 100000 deep") << QString(100000, '[') << "nests deeper than 64 levels";
        QTest::newRow("cut") << "{\"a\": [1, 2" << "f: x: is not valid JSON: parse error";
        QTest::newRow("empty") << "" << "f: x: is not valid JSON";
        QTest::newRow("trailing text") << "{} x" << "f: x: is not valid JSON";
        QTest::newRow("number overflow") << "[1e999]" << "f: x: is not valid JSON";
        QTest::newRow("key repeated") << "{\"a\": 1, \"b\": {\"c\": 2, \"c\": 3}}" << "f: x: has the key 'c' twice in one object";
        QTest::newRow("keys alike in two objects") << "{\"a\": {\"c\": 1}, \"b\": {\"c\": 2}}" << "";
    }
    void documents() {
        QFETCH(QString, text);
        QFETCH(QString, error);
        const std::string bytes = text.toStdString();
        QString message;
        try {
            const JsonDocument doc(parse_untrusted_json(bytes, "f", "x"));
            QCOMPARE(doc->dump(), nlohmann::json::parse(bytes).dump());  // the same value as the library's parser
        } catch (const FormatError& e) {
            message = QString::fromStdString(e.what());
        }
        QVERIFY2(error.isEmpty() ? message.isEmpty() : message.startsWith("f: x: ") && message.contains(error),
                 qPrintable(message));
        QVERIFY2(!message.contains("[json.exception"), qPrintable(message));
    }

    void dump_replaces_invalid_utf8() {
        const nlohmann::json j = {{"file", std::string("a\xff\xfe" "b")}};
        QCOMPARE(QString::fromStdString(dump_json(j)), QString::fromUtf8("{\"file\":\"a\xEF\xBF\xBD\xEF\xBF\xBD" "b\"}"));
    }

    void values_are_counted_up_to_the_limit() {
        const nlohmann::json j = nlohmann::json::parse("{\"a\": [1, 2, 3], \"b\": {\"c\": null}}");
        QCOMPARE(json_values(j, 100), size_t(7));
        QVERIFY(json_values(j, 3) <= 4);
    }
};

QTEST_APPLESS_MAIN(TestJsonIo)
#include "test_json_io.moc"
