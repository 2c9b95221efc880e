// The explanation of a panel, opened by its "?" button or F1: a frameless popup with a bold
// title and a few sentences of rich text, word-wrapped at a readable width (about 60
// characters of the present font) and as tall as that text needs, so nothing is cut off. It
// closes on Esc or a click outside. The caller gives the (translated) strings and sets them
// again when the language changes.
#pragma once

#include <QFrame>
#include <QString>

class QLabel;

namespace lmscope::widgets {

class HelpPopover : public QFrame {
    Q_OBJECT
public:
    explicit HelpPopover(QWidget* parent = nullptr);

    // Sets the texts (and the size they need); an open popover stays where it is.
    void setContent(const QString& title, const QString& text);
    QString title() const;
    QString text() const;  // as given (rich text)
    // Shows the popover below `anchor` (above it when there is no room below), inside the
    // anchor's screen, and gives it the keyboard focus so Esc closes it.
    void popup(const QWidget* anchor);

protected:
    void changeEvent(QEvent* event) override;

private:
    void fit();  // the text's width for the present font, the height it then needs

    QLabel* title_;
    QLabel* text_;
};

}  // namespace lmscope::widgets
