#include "widgets/format.h"

#include <QLocale>
#include <QStringList>

#include <limits>

namespace lmscope::widgets {

QString format_bytes(quint64 bytes) {
    // formattedDataSize takes a signed size; every real file fits, clamp the rest.
    const qint64 n = bytes > quint64(std::numeric_limits<qint64>::max())
                         ? std::numeric_limits<qint64>::max()
                         : qint64(bytes);
    return QLocale().formattedDataSize(n, 1, QLocale::DataSizeIecFormat);
}

QString format_count(qint64 n) { return QLocale().toString(n); }

QString type_name_text(std::string_view name) { return QString::fromLatin1(name.data(), qsizetype(name.size())); }

QString format_shape(const QList<qint64>& shape) {
    QStringList parts;
    parts.reserve(shape.size());
    for (qint64 d : shape) parts << QString::number(d);
    return QLatin1Char('[') + parts.join(QLatin1String(", ")) + QLatin1Char(']');
}

int count_for_tr(quint64 n) {
    return n > quint64(std::numeric_limits<int>::max()) ? std::numeric_limits<int>::max() : int(n);
}

}  // namespace lmscope::widgets
