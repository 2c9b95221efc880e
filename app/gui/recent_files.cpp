#include "gui/recent_files.h"

#include <QFileInfo>
#include <QSettings>

namespace lmscope::gui {

static const char* const kKey = "recentFiles";

RecentFiles::RecentFiles(QObject* parent) : QObject(parent) {}

QStringList RecentFiles::files() const {
    QStringList list = QSettings().value(QLatin1String(kKey)).toStringList();
    list.removeAll(QString());
    while (list.size() > kMax) list.removeLast();
    return list;
}

void RecentFiles::add(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList list = files();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > kMax) list.removeLast();
    store(list);
}

void RecentFiles::remove(const QString& path) {
    QStringList list = files();
    if (list.removeAll(QFileInfo(path).absoluteFilePath()) > 0) store(list);
}

void RecentFiles::clear() { store({}); }

void RecentFiles::store(const QStringList& files) {
    QSettings().setValue(QLatin1String(kKey), files);
    emit changed();
}

}  // namespace lmscope::gui
