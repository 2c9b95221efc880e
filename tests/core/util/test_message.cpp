// sanitize_message, error_message and exception_message: control characters (C0, DEL, C1), invalid UTF-8 and
// NUL escaped, valid UTF-8 kept, long text cut at a character boundary with a count; what a
// boundary reports for each kind of exception.
#include "util/error.h"
#include "util/message.h"

#include <QtTest>

#include <exception>
#include <new>
#include <stdexcept>
#include <string>

using namespace lmscope;

class TestMessage : public QObject {
    Q_OBJECT
private slots:
    void sanitized_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("shown");
        QTest::newRow("plain") << QByteArray("model.gguf: missing") << QByteArray("model.gguf: missing");
        QTest::newRow("newline and tab") << QByteArray("a\nb\tc\r") << QByteArray("a\\nb\\tc\\r");
        QTest::newRow("terminal escape") << QByteArray("\x1b[31mred") << QByteArray("\\x1b[31mred");
        QTest::newRow("DEL") << QByteArray("a\x7f") << QByteArray("a\\x7f");
        QTest::newRow("C1 CSI") << QByteArray("a\xc2\x9b" "2J") << QByteArray("a\\xc2\\x9b2J");
        QTest::newRow("invalid UTF-8") << QByteArray("a\xff\xc3") << QByteArray("a\\xff\\xc3");
        QTest::newRow("overlong") << QByteArray("\xc0\xaf") << QByteArray("\\xc0\\xaf");
        QTest::newRow("valid UTF-8") << QByteArray("caf\xc3\xa9 \xe4\xb8\xad") << QByteArray("caf\xc3\xa9 \xe4\xb8\xad");
        QTest::newRow("NUL") << QByteArray("a\0b", 3) << QByteArray("a\\x00b");
        QTest::newRow("long") << QByteArray(600, 'x') << QByteArray(512, 'x') + " [... 88 more bytes]";
        QTest::newRow("long, cut before a character") << QByteArray(511, 'x') + "\xc3\xa9" << QByteArray(511, 'x') + " [... 2 more bytes]";
    }
    void sanitized() {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, shown);
        QCOMPARE(QByteArray::fromStdString(sanitize_message(text.toStdString())), shown);
    }

    // Generated text (run's reply): lines and tabs kept, other controls escaped, no bound.
    void sanitized_text_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("shown");
        QTest::newRow("lines and tabs") << QByteArray("a\nb\tc") << QByteArray("a\nb\tc");
        QTest::newRow("terminal escapes") << QByteArray("\x1b]0;t\x07\r\x1b[2J") << QByteArray("\\x1b]0;t\\x07\\r\\x1b[2J");
        QTest::newRow("C1 CSI") << QByteArray("a\xc2\x9b" "2J") << QByteArray("a\\xc2\\x9b2J");
        QTest::newRow("valid UTF-8") << QByteArray("caf\xc3\xa9") << QByteArray("caf\xc3\xa9");
        QTest::newRow("long") << QByteArray(600, 'x') << QByteArray(600, 'x');
    }
    void sanitized_text() {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, shown);
        QCOMPARE(QByteArray::fromStdString(sanitize_text(text.toStdString())), shown);
    }

    // what() stops at a NUL a file put in a name; error_message shows the whole message.
    void error_message_keeps_what_follows_a_nul() {
        const FormatError e(std::string("a\0b.gguf", 8), "general.name", "is not a string");
        QCOMPARE(QByteArray::fromStdString(error_message(e)), QByteArray("a\\x00b.gguf: general.name: is not a string"));
    }

    void exception_message_by_kind_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QByteArray>("shown");
        QTest::newRow("lmscope error") << 0 << QByteArray("m.gguf: tokenizer.ggml.tokens: is empty");
        QTest::newRow("bad_alloc") << 1 << QByteArray("out of memory");
        QTest::newRow("standard, escaped") << 2 << QByteArray("bad\\nline");
        QTest::newRow("not an exception") << 3 << QByteArray("unknown error");
    }
    void exception_message_by_kind() {
        QFETCH(int, kind);
        QFETCH(QByteArray, shown);
        std::exception_ptr error;
        try {
            switch (kind) {
            case 0: throw FormatError("m.gguf", "tokenizer.ggml.tokens", "is empty");
            case 1: throw std::bad_alloc();
            case 2: throw std::runtime_error("bad\nline");
            default: throw 42;
            }
        } catch (...) {
            error = std::current_exception();
        }
        QCOMPARE(QByteArray::fromStdString(exception_message(error)), shown);
    }
};

QTEST_APPLESS_MAIN(TestMessage)
#include "test_message.moc"
