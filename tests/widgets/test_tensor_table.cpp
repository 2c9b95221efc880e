// The tensor and metadata tables: display formatting, numeric sorting through the proxy,
// filtering on any column, and the "N of M" count.
#include "widgets/filtered_table.h"
#include "widgets/format.h"
#include "widgets/metadata_model.h"
#include "widgets/tensor_table_model.h"

#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QTableView>
#include <QtTest>

using namespace lmscope::widgets;

namespace {

QList<TensorRow> sample_rows() {
    return {
        {QStringLiteral("token_embd.weight"), QStringLiteral("Q8_0"), {576, 49152}, 30081024},
        {QStringLiteral("blk.0.attn_norm.weight"), QStringLiteral("F32"), {576}, 2304},
        {QStringLiteral("blk.0.attn_q.weight"), QStringLiteral("Q4_1"), {576, 576}, 207360},
        {QStringLiteral("blk.0.ffn_up.weight"), QStringLiteral("Q4_1"), {576, 1536}, 552960},
        {QStringLiteral("blk.1.attn_k.weight"), QStringLiteral("Q4_1"), {576, 192}, 69120},
        {QStringLiteral("output_norm.weight"), QStringLiteral("F32"), {576}, 9216},
    };
}

QStringList column(const QAbstractItemModel& m, int col) {
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r) out << m.index(r, col).data().toString();
    return out;
}

}  // namespace

class TestTensorTable : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void formatBytes_data() {
        QTest::addColumn<quint64>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("zero") << quint64(0) << QStringLiteral("0 bytes");
        QTest::newRow("small") << quint64(512) << QStringLiteral("512 bytes");
        QTest::newRow("kib") << quint64(1536) << QStringLiteral("1.5 KiB");
        QTest::newRow("mib") << quint64(96153216) << QStringLiteral("91.7 MiB");
        QTest::newRow("gib") << quint64(3) * 1024 * 1024 * 1024 << QStringLiteral("3.0 GiB");
        QTest::newRow("huge") << ~quint64(0) << QStringLiteral("8.0 EiB");
    }
    void formatBytes() {
        QFETCH(quint64, bytes);
        QFETCH(QString, expected);
        QCOMPARE(format_bytes(bytes), expected);
    }

    void formatShapeAndCount() {
        QCOMPARE(format_shape({576, 49152}), QStringLiteral("[576, 49152]"));
        QCOMPARE(format_shape({}), QStringLiteral("[]"));
        QCOMPARE(format_count(49152), QStringLiteral("49,152"));
    }

    void displayAndRoles() {
        TensorTableModel m;
        m.setTensors(sample_rows());
        QCOMPARE(m.rowCount(), 6);
        QCOMPARE(m.columnCount(), 4);
        QCOMPARE(m.totalBytes(), quint64(30081024 + 2304 + 207360 + 552960 + 69120 + 9216));
        QCOMPARE(m.index(0, TensorTableModel::Name).data().toString(), QStringLiteral("token_embd.weight"));
        QCOMPARE(m.index(0, TensorTableModel::Type).data().toString(), QStringLiteral("Q8_0"));
        QCOMPARE(m.index(0, TensorTableModel::Shape).data().toString(), QStringLiteral("[576, 49152]"));
        QCOMPARE(m.index(0, TensorTableModel::Bytes).data().toString(), QStringLiteral("28.7 MiB"));
        QCOMPARE(m.index(0, TensorTableModel::Bytes).data(TensorTableModel::SortRole).toULongLong(),
                 quint64(30081024));
        QCOMPARE(m.index(0, TensorTableModel::Shape).data(TensorTableModel::SortRole).toLongLong(),
                 qint64(576) * 49152);
        QCOMPARE(m.index(0, TensorTableModel::Bytes).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("30,081,024 bytes"));
        QCOMPARE(m.headerData(TensorTableModel::Bytes, Qt::Horizontal).toString(), QStringLiteral("Bytes"));
        QVERIFY(!m.index(6, 0).data().isValid());
    }

    // Sorting compares raw numbers: "9.0 KiB" < "69.1 KiB" < "202.5 KiB" although as text
    // "202.5 KiB" < "69.1 KiB" < "9.0 KiB".
    void sorting_data() {
        QTest::addColumn<int>("col");
        QTest::addColumn<int>("order");
        QTest::addColumn<QStringList>("names");
        const QString emb = QStringLiteral("token_embd.weight"), norm = QStringLiteral("blk.0.attn_norm.weight"),
                      q = QStringLiteral("blk.0.attn_q.weight"), up = QStringLiteral("blk.0.ffn_up.weight"),
                      k = QStringLiteral("blk.1.attn_k.weight"), onorm = QStringLiteral("output_norm.weight");
        QTest::newRow("bytes ascending") << int(TensorTableModel::Bytes) << int(Qt::AscendingOrder)
                                         << QStringList{norm, onorm, k, q, up, emb};
        QTest::newRow("bytes descending") << int(TensorTableModel::Bytes) << int(Qt::DescendingOrder)
                                          << QStringList{emb, up, q, k, onorm, norm};
        QTest::newRow("shape by elements") << int(TensorTableModel::Shape) << int(Qt::AscendingOrder)
                                           << QStringList{norm, onorm, k, q, up, emb};
        QTest::newRow("name") << int(TensorTableModel::Name) << int(Qt::AscendingOrder)
                              << QStringList{norm, q, up, k, onorm, emb};
        QTest::newRow("model order") << -1 << int(Qt::AscendingOrder)
                                     << QStringList{emb, norm, q, up, k, onorm};
    }
    void sorting() {
        QFETCH(int, col);
        QFETCH(int, order);
        QFETCH(QStringList, names);
        TensorTableModel m;
        m.setTensors(sample_rows());
        FilteredTable table(&m, TensorTableModel::SortRole);
        table.view()->sortByColumn(col, Qt::SortOrder(order));
        QCOMPARE(column(*table.proxy(), TensorTableModel::Name), names);
    }

    void filtering_data() {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<int>("shown");
        QTest::newRow("none") << QString() << 6;
        QTest::newRow("name part") << QStringLiteral("attn") << 3;
        QTest::newRow("case-insensitive") << QStringLiteral("ATTN_Q") << 1;
        QTest::newRow("type column") << QStringLiteral("q4_1") << 3;
        QTest::newRow("shape column") << QStringLiteral("49152") << 1;
        QTest::newRow("no match") << QStringLiteral("lm_head") << 0;
    }
    void filtering() {
        QFETCH(QString, filter);
        QFETCH(int, shown);
        TensorTableModel m;
        m.setTensors(sample_rows());
        FilteredTable table(&m, TensorTableModel::SortRole);
        table.setFilterText(filter);
        QCOMPARE(table.proxy()->rowCount(), shown);
        auto* count = table.findChild<QLabel*>(QStringLiteral("count"));
        QVERIFY(count);
        QCOMPARE(count->text(), QStringLiteral("%1 of 6").arg(shown));
    }

    void filterSurvivesNewModel() {
        TensorTableModel m;
        m.setTensors(sample_rows());
        FilteredTable table(&m, TensorTableModel::SortRole);
        table.setFilterText(QStringLiteral("norm"));
        QCOMPARE(table.proxy()->rowCount(), 2);
        QList<TensorRow> rows = sample_rows();
        rows.removeLast();  // a model with one norm tensor fewer
        m.setTensors(rows);
        QCOMPARE(table.proxy()->rowCount(), 1);
        QCOMPARE(table.findChild<QLabel*>(QStringLiteral("count"))->text(), QStringLiteral("1 of 5"));
    }

    void metadata() {
        MetadataModel m;
        m.setRows({{QStringLiteral("llama.block_count"), QStringLiteral("uint32"), QStringLiteral("30")},
                   {QStringLiteral("general.name"), QStringLiteral("string"), QStringLiteral("SmolLM2")},
                   {QStringLiteral("general.architecture"), QStringLiteral("string"), QStringLiteral("llama")}});
        QCOMPARE(m.columnCount(), 3);
        QCOMPARE(m.headerData(MetadataModel::Value, Qt::Horizontal).toString(), QStringLiteral("Value"));
        FilteredTable table(&m, MetadataModel::SortRole);
        table.view()->sortByColumn(MetadataModel::Key, Qt::AscendingOrder);
        QCOMPARE(column(*table.proxy(), MetadataModel::Key),
                 (QStringList{QStringLiteral("general.architecture"), QStringLiteral("general.name"),
                              QStringLiteral("llama.block_count")}));
        table.setFilterText(QStringLiteral("general."));
        QCOMPARE(table.proxy()->rowCount(), 2);
    }
};

QTEST_MAIN(TestTensorTable)
#include "test_tensor_table.moc"
