// Saving what a panel shows: a chart as a PNG (raster, scaled for print) or a PDF (vector; this
// build has no Qt SVG module), any widget as a PNG, and the chart's numbers as CSV or JSON.
// Every write goes through lmscope's SafeWriter (util/safe_writer.h: a temporary file in the
// same folder, renamed when complete, never over a device or a folder), so a failed export
// never leaves half a file behind.
#pragma once

#include <QString>
#include <QStringList>
#include <QVariant>
#include <QVector>

#include <array>
#include <optional>

class QCustomPlot;
class QWidget;

namespace lmscope::widgets {

// The numbers behind a chart: named columns, one row per data point.
struct ChartTable {
    QString title;
    QStringList columns;
    QVector<QVector<QVariant>> rows;  // [row][column]
};

// What a chart is exported as: the plot as a PNG or PDF, its numbers as CSV or JSON.
enum class ExportFormat { Png, Pdf, Csv, Json };
inline constexpr std::array<ExportFormat, 4> kExportFormats{ExportFormat::Png, ExportFormat::Pdf, ExportFormat::Csv,
                                                           ExportFormat::Json};
// "png", "pdf", "csv", "json": the file suffix (the table in export.cpp).
QString export_suffix(ExportFormat format);
// The format a path's suffix names (any case); nullopt for any other.
std::optional<ExportFormat> export_format_of(const QString& path);
// ".png, .pdf, .csv, .json": every suffix, for a message.
QString export_suffix_list();

// Each returns false and sets *error (when given) to a message naming the file and the reason.
bool save_plot_png(QCustomPlot* plot, const QString& path, QString* error = nullptr, double scale = 2.0);
bool save_plot_pdf(QCustomPlot* plot, const QString& path, QString* error = nullptr);
bool save_widget_png(QWidget* widget, const QString& path, QString* error = nullptr);
bool save_table_csv(const ChartTable& table, const QString& path, QString* error = nullptr);
bool save_table_json(const ChartTable& table, const QString& path, QString* error = nullptr);

// RFC 4180 text: fields with a comma, quote or line break are quoted, quotes doubled.
QString table_to_csv(const ChartTable& table);
// {"title": ..., "columns": [...], "rows": [[...], ...]} (numbers stay numbers).
QByteArray table_to_json(const ChartTable& table);

}  // namespace lmscope::widgets
