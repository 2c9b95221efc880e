#include "gui/sample_model.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace lmscope::gui {

static const char* const kSampleFile = "SmolLM2-135M-Instruct.Q4_1.gguf";

QStringList sample_model_candidates() {
    QStringList out;
    const QString env = qEnvironmentVariable("LMSCOPE_SAMPLE_MODEL");
    if (!env.isEmpty()) out << env;
    const QDir exe(QCoreApplication::applicationDirPath());
    out << exe.filePath(QLatin1String(kSampleFile))
        << exe.filePath(QStringLiteral("sample_models/") + QLatin1String(kSampleFile));
    out << QStringLiteral(LMSCOPE_SOURCE_SAMPLE_MODEL);
    return out;
}

QString find_sample_model() {
    for (const QString& p : sample_model_candidates()) {
        const QFileInfo fi(p);
        if (fi.isFile() && fi.isReadable()) return fi.absoluteFilePath();
    }
    return {};
}

}  // namespace lmscope::gui
