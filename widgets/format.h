// Number formatting shared by the widgets: byte sizes and counts, in the user's locale; the
// names of the shared types (util/types.h) as text; long texts bounded for labels and tooltips.
#pragma once

#include <QList>
#include <QString>
#include <QtGlobal>

#include <string_view>

namespace lmscope::widgets {

// "0 B", "512 B", "1.5 KiB", "91.7 MiB" (IEC units, one decimal), in QLocale().
QString format_bytes(quint64 bytes);
// "49,152" (the default locale's digit grouping).
QString format_count(qint64 n);
// A count as tr()'s plural argument (%n, %Ln): an int, saturated at INT_MAX (a KV plan can
// count more tokens than an int holds; the plural form is the same beyond it).
int count_for_tr(quint64 n);
// "[576, 49152]": a tensor shape, fastest dimension first (GGUF order).
QString format_shape(const QList<qint64>& shape);
// At most max_chars characters (max_chars >= 1): a longer text keeps its start and ends in
// "…". Every text from a file that a label shows goes through it, so no length widens a window.
QString elided(const QString& text, qsizetype max_chars);
// A text for a tooltip, as much as a tooltip can show: lines broken every kTipLineChars
// characters and the whole cut (elided) at kTipChars, markup escaped. The full name behind an
// elided label.
inline constexpr qsizetype kTipLineChars = 100, kTipChars = 2000;
QString tooltip_text(const QString& text);
// A shared type's name (kv_type_name, stage_name, ...): "q8_0", "top_k"; not translated.
QString type_name_text(std::string_view name);

}  // namespace lmscope::widgets
