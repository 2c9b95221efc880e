#include "widgets/metadata_model.h"

namespace lmscope::widgets {

MetadataModel::MetadataModel(QObject* parent) : QAbstractTableModel(parent) {}

void MetadataModel::setRows(QList<MetadataRow> rows) {
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
}

int MetadataModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int MetadataModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MetadataModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rows_.size()) return {};
    const MetadataRow& r = rows_[index.row()];
    if (role == Qt::ToolTipRole && index.column() == Key && !r.key_tip.isEmpty()) return r.key_tip;
    if (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
            case Key: return r.key;
            case Type: return r.type;
            case Value: return r.value;
        }
    }
    return {};
}

QVariant MetadataModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Key: return tr("Key");
        case Type: return tr("Type");
        case Value: return tr("Value");
    }
    return {};
}

}  // namespace lmscope::widgets
