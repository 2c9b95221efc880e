// A model's metadata as a table: key, value type, value (long arrays abbreviated by whoever
// fills the rows). SortRole is the display text, so the keys sort alphabetically.
#pragma once

#include <QAbstractTableModel>
#include <QList>
#include <QString>

namespace lmscope::widgets {

struct MetadataRow {
    QString key;    // "llama.block_count"
    QString type;   // "uint32", "array[string] (49152)"
    QString value;  // "30", "[\"<unk>\", \"<s>\", ...]"
    QString key_tip;  // the whole key when `key` is elided (tooltip_text), else empty
};

class MetadataModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Key, Type, Value, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit MetadataModel(QObject* parent = nullptr);

    void setRows(QList<MetadataRow> rows);
    const QList<MetadataRow>& rows() const { return rows_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<MetadataRow> rows_;
};

}  // namespace lmscope::widgets
