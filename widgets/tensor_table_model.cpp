#include "widgets/tensor_table_model.h"

#include "widgets/format.h"

#include <limits>

namespace lmscope::widgets {

TensorTableModel::TensorTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void TensorTableModel::setTensors(QList<TensorRow> rows) {
    beginResetModel();
    rows_ = std::move(rows);
    total_bytes_ = 0;
    for (const TensorRow& r : rows_) total_bytes_ += r.bytes;
    endResetModel();
}

int TensorTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int TensorTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

static qint64 element_count(const QList<qint64>& shape) {
    qint64 n = 1;
    for (qint64 d : shape) {
        if (d <= 0) return 0;
        if (n > std::numeric_limits<qint64>::max() / d) return std::numeric_limits<qint64>::max();
        n *= d;
    }
    return n;
}

QVariant TensorTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rows_.size()) return {};
    const TensorRow& r = rows_[index.row()];
    const int col = index.column();
    if (role == Qt::DisplayRole) {
        switch (col) {
            case Name: return r.name;
            case Type: return r.type;
            case Shape: return format_shape(r.shape);
            case Bytes: return format_bytes(r.bytes);
        }
    } else if (role == SortRole) {
        switch (col) {
            case Name: return r.name;
            case Type: return r.type;
            case Shape: return element_count(r.shape);
            case Bytes: return r.bytes;
        }
    } else if (role == Qt::ToolTipRole) {
        switch (col) {
            case Shape: return tr("%1 elements").arg(format_count(element_count(r.shape)));
            case Bytes: return tr("%1 bytes").arg(format_count(qint64(r.bytes)));
            default: return r.name;
        }
    } else if (role == Qt::TextAlignmentRole) {
        if (col == Bytes) return QVariant::fromValue<int>(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant::fromValue<int>(Qt::AlignLeft | Qt::AlignVCenter);
    }
    return {};
}

QVariant TensorTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Name: return tr("Name");
        case Type: return tr("Type");
        case Shape: return tr("Shape");
        case Bytes: return tr("Bytes");
    }
    return {};
}

}  // namespace lmscope::widgets
