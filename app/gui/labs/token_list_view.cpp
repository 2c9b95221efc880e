#include "gui/labs/token_list_view.h"

#include <QFont>

namespace lmscope::gui::labs {

TokenListView::TokenListView(QWidget* parent) : QListWidget(parent) {
    setViewMode(QListView::ListMode);
    setFlow(QListView::LeftToRight);
    setWrapping(true);
    setResizeMode(QListView::Adjust);
    setSpacing(2);
    setUniformItemSizes(false);
    setSelectionMode(QAbstractItemView::NoSelection);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

void TokenListView::setTokens(const QVector<TokenItem>& tokens) {
    setUpdatesEnabled(false);
    clear();
    for (const TokenItem& t : tokens) {
        auto* item = new QListWidgetItem(t.label);
        item->setData(Qt::UserRole, t.id);
        item->setToolTip(t.tooltip);
        if (t.fill.isValid()) {
            item->setBackground(t.fill);
            item->setForeground(t.fill.lightnessF() > 0.5 ? QColor(Qt::black) : QColor(Qt::white));
        }
        if (t.special) {
            QFont f = font();
            f.setBold(true);
            item->setFont(f);
            item->setForeground(QColor(0x6a, 0x1b, 0x9a));
        }
        addItem(item);
    }
    setUpdatesEnabled(true);
}

QVector<qint32> TokenListView::ids() const {
    QVector<qint32> out;
    out.reserve(count());
    for (int i = 0; i < count(); ++i) out.append(item(i)->data(Qt::UserRole).toInt());
    return out;
}

QSize TokenListView::sizeHint() const {
    const QSize base = QListWidget::sizeHint();
    return {base.width(), fontMetrics().height() * 6};
}

QString visible_token_text(const std::string& bytes) {
    QString out;
    const QString text = QString::fromUtf8(bytes.data(), qsizetype(bytes.size()));
    for (const QChar c : text) {
        if (c == QLatin1Char(' ')) out += QChar(0x2423);
        else if (c == QLatin1Char('\n')) out += QChar(0x21B5);
        else if (c == QLatin1Char('\t')) out += QChar(0x2192);
        else if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            out += QStringLiteral("<0x%1>").arg(QString::number(c.unicode(), 16).toUpper().rightJustified(2, QLatin1Char('0')));
        else out += c;
    }
    return out;
}

}  // namespace lmscope::gui::labs
