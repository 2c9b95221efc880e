#include "gui/sample_model.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace lmscope::gui {

static const SampleModel kSampleModels[] = {
    {"SmolLM2-135M-Instruct.Q4_1.gguf", "LMSCOPE_SAMPLE_MODEL", "SmolLM2-135M Instruct (Q4_1)",
     QT_TRANSLATE_NOOP("lmscope::gui::SampleModel",
                       "30 layers, 9 query heads sharing 3 KV heads (GQA): the model the lesson starts with")},
    {"gemma-3-270m-q4_k_m.gguf", "LMSCOPE_GEMMA_MODEL", "Gemma 3 270M (Q4_K_M)",
     QT_TRANSLATE_NOOP("lmscope::gui::SampleModel",
                       "18 layers, 4 query heads sharing one KV head, five of every six layers with a 512-token "
                       "sliding window (Gemma Terms of Use)")},
};

std::span<const SampleModel> sample_models() { return kSampleModels; }

QString sample_model_about(const SampleModel& m) {
    return QCoreApplication::translate("lmscope::gui::SampleModel", m.about);
}

QStringList sample_model_candidates(const SampleModel& m) {
    QStringList out;
    const QString env = qEnvironmentVariable(m.env);
    if (!env.isEmpty()) out << env;
    const QString file = QLatin1String(m.file);
    const QDir exe(QCoreApplication::applicationDirPath());
    out << exe.filePath(file) << exe.filePath(QStringLiteral("sample_models/") + file);
    out << QDir(QStringLiteral(LMSCOPE_SOURCE_SAMPLE_MODELS)).filePath(file);
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

QString find_sample_model(const SampleModel& m) { return first_readable(sample_model_candidates(m)); }

QString find_sample_model() { return find_sample_model(sample_models().front()); }

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
