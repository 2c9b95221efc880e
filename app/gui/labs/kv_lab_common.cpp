#include "gui/labs/kv_lab_common.h"

#include <QCoreApplication>
#include <QLocale>

namespace lmscope::gui::labs {
namespace {
QString fixed(double v) { return QLocale().toString(v, 'f', v >= 1.0 ? 2 : 4); }
}  // namespace

QString cache_type_label(KvType type) {
    switch (type) {
        case KvType::F16: return QCoreApplication::translate("KvLab", "fp16");
        case KvType::Q8_0: return QCoreApplication::translate("KvLab", "int8 (q8_0)");
        case KvType::Q4_0: return QCoreApplication::translate("KvLab", "int4 (q4_0)");
    }
    return {};
}

QString attention_kind_label(kv::AttentionKind kind) {
    const std::string_view name = kv::attention_kind_name(kind);
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}

QString format_gb(uint64_t bytes) {
    return QCoreApplication::translate("KvLab", "%1 GB").arg(fixed(double(bytes) / kGB));
}

QString format_gib(uint64_t bytes) {
    return QCoreApplication::translate("KvLab", "%1 GiB").arg(fixed(double(bytes) / double(1ull << 30)));
}

QString format_byte_count(uint64_t bytes) { return QLocale().toString(qulonglong(bytes)); }

QString format_si_bytes(uint64_t bytes) {
    static const char* const units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    double v = double(bytes);
    int unit = 0;
    while (v >= 1000.0 && unit < 5) v /= 1000.0, ++unit;
    if (unit == 0) return QStringLiteral("%1 B").arg(bytes);
    return QStringLiteral("%1 %2").arg(QLocale().toString(v, 'f', v >= 100 ? 1 : 2), QLatin1String(units[unit]));
}

}  // namespace lmscope::gui::labs
