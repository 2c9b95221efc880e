// The labs' part of the picture tour: opens the Labs window, drives each lab through the public
// slots its buttons call, waits for the engine work to finish, and saves each lab's picture.
#pragma once

#include <QString>

namespace lmscope::gui {
class MainWindow;
}

namespace lmscope::tools {

// Saves OUT/lab-*.png. Throws lmscope::Error when a lab fails or does not finish in time.
void lab_tour(gui::MainWindow& window, const QString& out);

}  // namespace lmscope::tools
