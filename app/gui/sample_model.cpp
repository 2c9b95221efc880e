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

namespace {
QString first_readable(const QStringList& candidates) {
    for (const QString& p : candidates) {
        const QFileInfo fi(p);
        if (fi.isFile() && fi.isReadable()) return fi.absoluteFilePath();
    }
    return {};
}
}  // namespace

QString find_sample_model() { return first_readable(sample_model_candidates()); }

QStringList sample_tokenizer_candidates(const QString& name) {
    QStringList out;
    const QString env = qEnvironmentVariable("LMSCOPE_SAMPLE_TOKENIZERS");
    if (!env.isEmpty()) out << QDir(env).filePath(name);
    const QDir exe(QCoreApplication::applicationDirPath());
    out << exe.filePath(QStringLiteral("tokenizers/") + name)
        << exe.filePath(QStringLiteral("sample_models/tokenizers/") + name);
    out << QDir(QStringLiteral(LMSCOPE_SOURCE_SAMPLE_TOKENIZERS)).filePath(name);
    return out;
}

QString find_sample_tokenizer(const QString& name) { return first_readable(sample_tokenizer_candidates(name)); }

}  // namespace lmscope::gui
