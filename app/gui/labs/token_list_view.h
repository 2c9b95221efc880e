// A wrapping list of token chips for the chat and logit-lens labs: one item per token with its
// text (whitespace made visible), a fill colour chosen by the lab (what the token is: re-sent
// history, new text, a template's special token), and a tooltip. Each item keeps its token id
// (Qt::UserRole), so tests and tools read back exactly what is shown.
#pragma once

#include <QColor>
#include <QListWidget>
#include <QString>
#include <QVector>

#include <string>

namespace lmscope::gui::labs {

struct TokenItem {
    qint32 id = 0;
    QString label;       // what the chip shows
    QString tooltip;
    QColor fill;         // invalid: the list's base colour
    bool special = false;  // a control token: bold, outlined in the text colour
};

class TokenListView : public QListWidget {
    Q_OBJECT
public:
    explicit TokenListView(QWidget* parent = nullptr);

    void setTokens(const QVector<TokenItem>& tokens);
    QVector<qint32> ids() const;  // the shown ids, in order
    QSize sizeHint() const override;
};

// The token's bytes as a chip label: space as "␣", newline as "↵", tab as "→", other control
// bytes as <0xHH>; invalid UTF-8 bytes appear as U+FFFD.
QString visible_token_text(const std::string& bytes);

}  // namespace lmscope::gui::labs
