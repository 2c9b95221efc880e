#include "widgets/format.h"

#include <QLocale>
#include <QStringList>
#include <QTextDocument>

#include <algorithm>
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

QString elided(const QString& text, qsizetype max_chars) {
    if (text.size() <= max_chars) return text;
    qsizetype keep = std::max<qsizetype>(0, max_chars - 1);
    if (keep > 0 && text[keep - 1].isHighSurrogate()) --keep;  // never half a character
    return text.left(keep) + QChar(0x2026);
}

QString tooltip_text(const QString& text) {
    const QString shown = elided(text, kTipChars);
    QString out;
    qsizetype line = 0;  // characters since the last line break
    for (const QChar c : shown) {
        if (c == QLatin1Char('\n')) line = -1;
        else if (line == kTipLineChars && !c.isLowSurrogate()) {
            out += QLatin1Char('\n');
            line = 0;
        }
        out += c;
        ++line;
    }
    // Text that looks like markup is shown as the characters it is.
    return Qt::mightBeRichText(out) ? Qt::convertFromPlainText(out, Qt::WhiteSpaceNormal) : out;
}

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
