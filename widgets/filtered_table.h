// A table with a filter box above it and a "N of M" count: a view of any table model.
// Sorting goes through a QSortFilterProxyModel (click a header; the first click sorts
// ascending, the table starts in the model's own order); the filter matches any column,
// case-insensitively.
#pragma once

#include <QSortFilterProxyModel>
#include <QWidget>

class QLabel;
class QLineEdit;
class QTableView;

namespace lmscope::widgets {

// The proxy the table sorts and filters through. refreshHeaders() re-reads the source's
// header titles (after a language change).
class TableProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    void refreshHeaders();
};

class FilteredTable : public QWidget {
    Q_OBJECT
public:
    // `sort_role` is the role whose values are compared when sorting (raw numbers, not text).
    FilteredTable(QAbstractItemModel* source, int sort_role, QWidget* parent = nullptr);

    QLineEdit* filterEdit() const { return filter_; }
    QTableView* view() const { return view_; }
    TableProxy* proxy() const { return proxy_; }
    void setFilterText(const QString& text);
    // The column that takes the width left over (default: the last one).
    void setStretchColumn(int column);

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();
    void updateCount();

    QAbstractItemModel* source_;
    TableProxy* proxy_;
    QLineEdit* filter_;
    QLabel* count_;
    QTableView* view_;
};

}  // namespace lmscope::widgets
