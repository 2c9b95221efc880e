// The tensors of a model as a table: name, type, shape, bytes. Display values are formatted;
// SortRole gives the raw value of each cell (shape sorts by element count, bytes by size), so
// a QSortFilterProxyModel with setSortRole(SortRole) sorts numerically.
#pragma once

#include <QAbstractTableModel>
#include <QList>
#include <QString>

namespace lmscope::widgets {

struct TensorRow {
    QString name;
    QString type;          // "Q4_1", "F32", ...
    QList<qint64> shape;   // GGUF order: shape[0] is the row length (fastest dimension)
    quint64 bytes = 0;     // bytes of the tensor's data in the file
};

class TensorTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Type, Shape, Bytes, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit TensorTableModel(QObject* parent = nullptr);

    void setTensors(QList<TensorRow> rows);
    const QList<TensorRow>& tensors() const { return rows_; }
    quint64 totalBytes() const { return total_bytes_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<TensorRow> rows_;
    quint64 total_bytes_ = 0;
};

}  // namespace lmscope::widgets
