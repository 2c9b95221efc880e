// Help > Lesson and Help > Glossary: the lesson (docs/lesson.md, with its pictures) and the
// glossary of the terms the panels use (token, BPE, head, GQA, RoPE, prefill, decode, KV cache,
// logit, temperature, top-k/top-p/min-p), rendered from Markdown compiled into the app
// (help.qrc). The glossary follows the language chosen now; the lesson is written in English.
#pragma once

#include <QWidget>

class QTextBrowser;

namespace lmscope::gui {

class HelpWindow : public QWidget {
    Q_OBJECT
public:
    enum class Topic { Lesson, Glossary };

    explicit HelpWindow(QWidget* parent = nullptr);

    // Shows the topic in the language installed now and raises the window.
    void showTopic(Topic topic);
    Topic topic() const { return topic_; }
    QTextBrowser* browser() const { return browser_; }

protected:
    void changeEvent(QEvent* e) override;

private:
    void load();  // the current topic, in the current language

    QTextBrowser* browser_;
    Topic topic_ = Topic::Lesson;
};

}  // namespace lmscope::gui
