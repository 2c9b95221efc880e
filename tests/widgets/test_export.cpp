// Export helpers: a chart saved as PNG and PDF, a widget as PNG, data as CSV (RFC 4180
// quoting) and JSON (numbers stay numbers); a write that cannot happen fails with the path named
// and leaves no file.
#include "sample_trace.h"
#include "widgets/export.h"
#include "widgets/kv_chart.h"
#include "widgets/token_strip.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace lmscope::widgets;
using namespace lmscope::test;

class TestExport : public QObject {
    Q_OBJECT
private slots:
    // The format is the path's suffix in any case, read through the one table of formats.
    void formatOfPath_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("format");  // -1: none
        QTest::newRow("png") << "/tmp/chart.png" << int(ExportFormat::Png);
        QTest::newRow("PDF") << "chart.PDF" << int(ExportFormat::Pdf);
        QTest::newRow("csv") << "a.b/kv.csv" << int(ExportFormat::Csv);
        QTest::newRow("json") << "kv.Json" << int(ExportFormat::Json);
        QTest::newRow("bmp") << "kv.bmp" << -1;
        QTest::newRow("no suffix") << "kv" << -1;
        QTest::newRow("suffix of a folder") << "png.d/kv" << -1;
    }
    void formatOfPath() {
        QFETCH(QString, path);
        QFETCH(int, format);
        const std::optional<ExportFormat> f = export_format_of(path);
        QCOMPARE(f ? int(*f) : -1, format);
        if (f) QCOMPARE(export_suffix(*f), QFileInfo(path).suffix().toLower());
        QCOMPARE(export_suffix_list(), QStringLiteral(".png, .pdf, .csv, .json"));
    }

    void csvQuoting_data() {
        QTest::addColumn<QVariant>("value");
        QTest::addColumn<QString>("field");
        QTest::newRow("number") << QVariant(0.25) << QStringLiteral("0.25");
        QTest::newRow("plain") << QVariant(QStringLiteral("bank")) << QStringLiteral("bank");
        QTest::newRow("comma") << QVariant(QStringLiteral(",")) << QStringLiteral("\",\"");
        QTest::newRow("quote") << QVariant(QStringLiteral("say \"hi\"")) << QStringLiteral("\"say \"\"hi\"\"\"");
        QTest::newRow("newline") << QVariant(QStringLiteral("\n")) << QStringLiteral("\"\n\"");
    }
    void csvQuoting() {
        QFETCH(QVariant, value);
        QFETCH(QString, field);
        ChartTable t{QStringLiteral("t"), {QStringLiteral("id"), QStringLiteral("v")}, {{7, value}}};
        QCOMPARE(table_to_csv(t), QStringLiteral("id,v\r\n7,%1\r\n").arg(field));
    }

    void jsonKeepsNumbers() {
        ChartTable t{QStringLiteral("KV"), {QStringLiteral("tokens"), QStringLiteral("bytes"), QStringLiteral("token")},
                     {{6, quint64(1152), QStringLiteral(" bank")}, {7, quint64(1344), QVariant()}}};
        const QJsonObject o = QJsonDocument::fromJson(table_to_json(t)).object();
        QCOMPARE(o.value(QStringLiteral("title")).toString(), QStringLiteral("KV"));
        QCOMPARE(o.value(QStringLiteral("columns")).toArray().size(), 3);
        const QJsonArray rows = o.value(QStringLiteral("rows")).toArray();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].toArray()[1].toDouble(), 1152.0);
        QCOMPARE(rows[0].toArray()[2].toString(), QStringLiteral(" bank"));
        QVERIFY(rows[1].toArray()[2].isNull());
    }

    void filesWritten() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        TraceModel m;
        m.setModel(sample_model_view());
        QVERIFY(m.setSteps(sample_steps()));
        KvChart chart(&m);
        chart.resize(600, 400);
        QString error;
        const QString png = dir.filePath(QStringLiteral("kv.png"));
        const QString pdf = dir.filePath(QStringLiteral("kv.pdf"));
        const QString csv = dir.filePath(QStringLiteral("kv.csv"));
        const QString json = dir.filePath(QStringLiteral("kv.json"));
        const QString strip_png = dir.filePath(QStringLiteral("strip.png"));
        QVERIFY2(save_plot_png(chart.plot(), png, &error), qPrintable(error));
        QVERIFY2(save_plot_pdf(chart.plot(), pdf, &error), qPrintable(error));
        QVERIFY2(save_table_csv(chart.table(), csv, &error), qPrintable(error));
        QVERIFY2(save_table_json(chart.table(), json, &error), qPrintable(error));
        TokenStrip strip(&m);
        strip.resize(500, 120);
        QVERIFY2(save_widget_png(&strip, strip_png, &error), qPrintable(error));

        QImage img(png);
        QCOMPARE(img.size(), chart.plot()->size() * 2);  // drawn at twice the screen size
        QVERIFY(!QImage(strip_png).isNull());
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5) == "%PDF-");
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(c.readAll()).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + 3);  // header + one row per step
        QVERIFY(lines[1].startsWith(QStringLiteral("0,prefill,4,f16,%1").arg(kv_layer_bytes(4) * kLayers)));
        // No temporary files left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 5);
    }

    void failureNamesThePath() {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("missing/folder/out.csv"));
        QString error;
        QVERIFY(!save_table_csv(ChartTable{}, bad, &error));
        QVERIFY(error.contains(bad));
        QVERIFY(!QFile::exists(bad));
        QVERIFY(!save_plot_png(nullptr, dir.filePath(QStringLiteral("x.png")), &error));
        QVERIFY(error.contains(QStringLiteral("x.png")));
    }
};

QTEST_MAIN(TestExport)
#include "test_export.moc"
