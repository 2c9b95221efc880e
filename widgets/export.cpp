#include "widgets/export.h"

#include "util/error.h"
#include "util/name_table.h"
#include "util/safe_writer.h"

#include <QBuffer>

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPageSize>
#include <QPdfWriter>
#include <QWidget>
#include <qcustomplot.h>

namespace lmscope::widgets {
namespace {

constexpr NameTable<ExportFormat, kExportFormats.size()> kExportSuffixes({"png", "pdf", "csv", "json"}, NameCase::Any);

bool fail(QString* error, const QString& message) {
    if (error) *error = message;
    return false;
}

// Renders with `write` into memory, then writes the file through lmscope's SafeWriter (atomic,
// never over a device, a folder or through a link's replacement); any failure names the path
// and the reason.
template <typename Write>
bool atomic_write(const QString& path, QString* error, Write write) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    if (!write(buffer)) return fail(error, QCoreApplication::translate("Export", "%1: could not render the image").arg(path));
    try {
        write_file_safely(path.toStdString(), buffer.data().constData(), size_t(buffer.data().size()));
    } catch (const Error& e) {
        return fail(error, QString::fromStdString(e.what()));
    }
    return true;
}

QString csv_field(const QVariant& v) {
    QString s = v.toString();
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n')) ||
        s.contains(QLatin1Char('\r'))) {
        s.replace(QLatin1String("\""), QLatin1String("\"\""));
        s = QLatin1Char('"') + s + QLatin1Char('"');
    }
    return s;
}

}  // namespace

QString export_suffix(ExportFormat format) {
    const std::string_view s = kExportSuffixes.name(format);
    return QString::fromLatin1(s.data(), qsizetype(s.size()));
}

std::optional<ExportFormat> export_format_of(const QString& path) {
    return kExportSuffixes.parse(QFileInfo(path).suffix().toStdString());
}

QString export_suffix_list() {
    QStringList suffixes;
    for (const ExportFormat f : kExportFormats) suffixes << QLatin1Char('.') + export_suffix(f);
    return suffixes.join(QStringLiteral(", "));
}

bool save_plot_png(QCustomPlot* plot, const QString& path, QString* error, double scale) {
    if (!plot) return fail(error, QCoreApplication::translate("Export", "%1: no chart to save").arg(path));
    const QPixmap pixmap = plot->toPixmap(plot->width(), plot->height(), scale);
    return atomic_write(path, error, [&](QBuffer& f) { return pixmap.save(&f, "PNG"); });
}

bool save_plot_pdf(QCustomPlot* plot, const QString& path, QString* error) {
    if (!plot) return fail(error, QCoreApplication::translate("Export", "%1: no chart to save").arg(path));
    return atomic_write(path, error, [&](QBuffer& f) {
        QPdfWriter writer(&f);
        writer.setResolution(72);  // one unit = one point = one widget pixel
        writer.setPageSize(QPageSize(QSizeF(plot->width(), plot->height()), QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setCreator(QStringLiteral("lmscope"));
        QCPPainter painter;
        if (!painter.begin(&writer)) return false;
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNoCaching);
        plot->toPainter(&painter, plot->width(), plot->height());
        return painter.end();
    });
}

bool save_widget_png(QWidget* widget, const QString& path, QString* error) {
    if (!widget) return fail(error, QCoreApplication::translate("Export", "%1: nothing to save").arg(path));
    const QPixmap pixmap = widget->grab();
    return atomic_write(path, error, [&](QBuffer& f) { return pixmap.save(&f, "PNG"); });
}

QString table_to_csv(const ChartTable& table) {
    QString out;
    QStringList header;
    for (const QString& c : table.columns) header << csv_field(c);
    out += header.join(QLatin1Char(',')) + QLatin1String("\r\n");
    for (const QVector<QVariant>& row : table.rows) {
        QStringList fields;
        for (const QVariant& v : row) fields << csv_field(v);
        out += fields.join(QLatin1Char(',')) + QLatin1String("\r\n");
    }
    return out;
}

QByteArray table_to_json(const ChartTable& table) {
    QJsonArray rows;
    for (const QVector<QVariant>& row : table.rows) {
        QJsonArray r;
        for (const QVariant& v : row) r.append(QJsonValue::fromVariant(v));
        rows.append(r);
    }
    QJsonObject o;
    o.insert(QStringLiteral("title"), table.title);
    o.insert(QStringLiteral("columns"), QJsonArray::fromStringList(table.columns));
    o.insert(QStringLiteral("rows"), rows);
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

bool save_table_csv(const ChartTable& table, const QString& path, QString* error) {
    const QByteArray bytes = table_to_csv(table).toUtf8();
    return atomic_write(path, error, [&](QBuffer& f) { return f.write(bytes) == bytes.size(); });
}

bool save_table_json(const ChartTable& table, const QString& path, QString* error) {
    const QByteArray bytes = table_to_json(table);
    return atomic_write(path, error, [&](QBuffer& f) { return f.write(bytes) == bytes.size(); });
}

}  // namespace lmscope::widgets
