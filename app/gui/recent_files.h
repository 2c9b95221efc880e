// The recently opened models, newest first, kept in QSettings ("recentFiles").
#pragma once

#include <QObject>
#include <QStringList>

namespace lmscope::gui {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    static constexpr int kMax = 10;

    explicit RecentFiles(QObject* parent = nullptr);

    QStringList files() const;  // newest first, at most kMax
    void add(const QString& path);
    void remove(const QString& path);
    void clear();

signals:
    void changed();

private:
    void store(const QStringList& files);
};

}  // namespace lmscope::gui
