// The checks of a shown window, shared by the GUI tests and the walk (lmscope-walk):
// - clipped_texts: every text the window cuts off or draws over another: labels, buttons, check
//   boxes, combo and spin boxes, tab titles, table headers and cells elided without a tooltip,
//   the status bar message; panels whose dock is smaller than they need (the dock's scroll area
//   would have to scroll); and in every chart, titles, legends, axis labels, tick labels and
//   value labels that do not fit their element, lie over the data, run out of the plot or
//   overlap each other, and data areas smaller than a class can read (160x100 px; a strip
//   beside the main one, 160x40).
// - hidden_newest_token: a token strip whose newest chip is scrolled out of view.
// - stale_steps: a panel that shows another step than the session's current one.
// - stale_language: interface text left in the other language after a language change.
// Each returns one line per problem, naming the widget by its object names; empty when fine.
// Hidden widgets and a dock behind another's tab are skipped: raise it first to check it.
#pragma once

#include <QRegularExpression>
#include <QSet>
#include <QStringList>
#include <QVector>

class QWidget;

namespace lmscope::widgets {
class TraceModel;
}

namespace lmscope::tools {

QStringList clipped_texts(QWidget* root);

QStringList hidden_newest_token(QWidget* root);

// The token strips, the KV chart and the timeline under `root` against `session`'s current step.
QStringList stale_steps(QWidget* root, const widgets::TraceModel& session);

// The English interface texts that have a translation, from a .ts file (lmscope_zh_CN.ts):
// exact texts, and texts with arguments (%1) as patterns.
class TranslationCatalogue {
public:
    // Throws IoError / FormatError naming the file.
    static TranslationCatalogue read(const QString& ts_path);
    bool isSource(const QString& text) const;  // an English interface text (arguments filled)

private:
    QSet<QString> exact_;
    QVector<QRegularExpression> patterns_;
};

// `chinese`: the interface is in Chinese, so an English text of `english` is stale; else any
// Chinese character in an interface text (labels, buttons, tabs, dock titles, headers, chart
// titles, axis labels and legends; table cells are model data) is.
QStringList stale_language(QWidget* root, const TranslationCatalogue& english, bool chinese);

}  // namespace lmscope::tools
