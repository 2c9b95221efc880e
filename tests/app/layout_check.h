// A walk over a shown window that finds every text the window cuts off or draws over another:
// labels, buttons, check boxes, combo and spin boxes, tab bars and the status bar message;
// panels whose dock is smaller than they need (the dock's scroll area would have to scroll);
// and in every chart, titles, legends, axis labels, tick labels and value labels that do not
// fit their element, lie over the data, run out of the plot or overlap each other.
#pragma once

#include <QStringList>

class QWidget;

namespace lmscope::testing {

// One line per problem found under `root` (itself included), each naming the widget by its
// object names and saying what does not fit; empty when everything fits. Hidden widgets and
// a dock behind another's tab are skipped: raise it first to check it.
QStringList clipped_texts(QWidget* root);

}  // namespace lmscope::testing
