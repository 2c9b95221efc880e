#include "widgets/filtered_table.h"

#include "widgets/format.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

namespace lmscope::widgets {

void TableProxy::refreshHeaders() {
    const int n = columnCount();
    if (n > 0) emit headerDataChanged(Qt::Horizontal, 0, n - 1);
}

FilteredTable::FilteredTable(QAbstractItemModel* source, int sort_role, QWidget* parent)
    : QWidget(parent),
      source_(source),
      proxy_(new TableProxy(this)),
      filter_(new QLineEdit(this)),
      count_(new QLabel(this)),
      view_(new QTableView(this)) {
    proxy_->setSourceModel(source_);
    proxy_->setSortRole(sort_role);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setFilterKeyColumn(-1);  // any column

    filter_->setClearButtonEnabled(true);
    filter_->setObjectName(QStringLiteral("filter"));
    count_->setObjectName(QStringLiteral("count"));

    view_->setModel(proxy_);
    view_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);  // model order first
    view_->setSortingEnabled(true);
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->horizontalHeader()->setHighlightSections(false);
    view_->verticalHeader()->hide();
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setAlternatingRowColors(true);
    view_->setWordWrap(false);
    view_->setTextElideMode(Qt::ElideMiddle);

    auto* top = new QHBoxLayout;
    top->addWidget(filter_, 1);
    top->addWidget(count_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->addLayout(top);
    layout->addWidget(view_, 1);

    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    connect(proxy_, &QAbstractItemModel::modelReset, this, &FilteredTable::updateCount);
    connect(proxy_, &QAbstractItemModel::rowsInserted, this, &FilteredTable::updateCount);
    connect(proxy_, &QAbstractItemModel::rowsRemoved, this, &FilteredTable::updateCount);
    connect(proxy_, &QAbstractItemModel::layoutChanged, this, &FilteredTable::updateCount);
    connect(source_, &QAbstractItemModel::modelReset, view_, &QTableView::resizeColumnsToContents);
    retranslate();
}

void FilteredTable::setFilterText(const QString& text) { filter_->setText(text); }

void FilteredTable::setStretchColumn(int column) {
    QHeaderView* h = view_->horizontalHeader();
    h->setStretchLastSection(column == proxy_->columnCount() - 1);
    if (column >= 0 && column < proxy_->columnCount()) h->setSectionResizeMode(column, QHeaderView::Stretch);
}

void FilteredTable::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    QWidget::changeEvent(e);
}

void FilteredTable::retranslate() {
    filter_->setPlaceholderText(tr("Filter (any column)"));
    proxy_->refreshHeaders();
    updateCount();
}

void FilteredTable::updateCount() {
    count_->setText(tr("%1 of %2").arg(format_count(proxy_->rowCount()),
                                      format_count(source_->rowCount())));
}

}  // namespace lmscope::widgets
