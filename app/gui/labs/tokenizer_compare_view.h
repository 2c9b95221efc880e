// Tokenizer lab, side by side: one text, and for every tokenizer of the set a row with its
// name, its counts (tokens, characters per token, byte pieces) and its chips.
#pragma once

#include <QString>
#include <QVector>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QVBoxLayout;

namespace lmscope::widgets {
class ChipsRow;
}

namespace lmscope::gui::labs {

class TokenizerSet;

class TokenizerCompareView : public QWidget {
    Q_OBJECT
public:
    explicit TokenizerCompareView(TokenizerSet* set, QWidget* parent = nullptr);

    QString text() const;
    qsizetype rowCount() const { return rows_.size(); }
    // Row i shows set entry i: its chips and its stats label (property "tokens": the count shown).
    const widgets::ChipsRow* chipsRow(qsizetype i) const { return rows_.at(i).chips; }
    const QLabel* statsLabel(qsizetype i) const { return rows_.at(i).stats; }
    void retranslate();

public slots:
    void setText(const QString& text);

signals:
    void removeRequested(qsizetype index);

private:
    struct Row {
        QWidget* frame = nullptr;
        QLabel* title = nullptr;
        QLabel* stats = nullptr;
        widgets::ChipsRow* chips = nullptr;
    };
    void rebuild();   // one row per set entry
    void refresh();   // chips and stats for the current text

    TokenizerSet* set_;
    QLabel* text_label_;
    QPlainTextEdit* text_;
    QWidget* rows_box_;
    QVBoxLayout* rows_layout_;
    QVector<Row> rows_;
};

}  // namespace lmscope::gui::labs
