// A one-line hint strip for a panel the user has not met yet: a short sentence, a "?" that asks
// for the whole explanation, and a "×" that dismisses it. The text wraps when the panel is
// narrow, so it is never cut off. Remembering the dismissal is the owner's business.
#pragma once

#include <QFrame>
#include <QString>

class QLabel;
class QToolButton;

namespace lmscope::widgets {

class HelpButton;

class HintBar : public QFrame {
    Q_OBJECT
public:
    explicit HintBar(QWidget* parent = nullptr);

    void setText(const QString& hint);
    QString text() const;
    HelpButton* helpButton() const { return help_; }
    QToolButton* closeButton() const { return close_; }

protected:
    void changeEvent(QEvent* event) override;
    // Keeps the minimum height at what the wrapped text needs at the present width, so a layout
    // that does not ask heights for widths (a main window's central area) cannot squeeze it.
    void resizeEvent(QResizeEvent* event) override;

signals:
    void dismissed();      // the "×" was clicked (the bar has hidden itself)
    void helpRequested();  // the "?" was clicked

private:
    void retranslate();

    QLabel* text_;
    HelpButton* help_;
    QToolButton* close_;
};

}  // namespace lmscope::widgets
