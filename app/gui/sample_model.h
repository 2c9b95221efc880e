// The sample models sample_models/fetch.sh gets (SmolLM2-135M-Instruct, the default, and Gemma 3
// 270M), where each is found (File > Open Sample Model; the first when lmscope starts without a
// file), and the tokenizers the tokenizer lab compares (fetched beside them into
// sample_models/tokenizers/).
#pragma once

#include <QString>
#include <QStringList>

#include <span>

namespace lmscope::gui {

struct SampleModel {
    const char* file;   // "SmolLM2-135M-Instruct.Q4_1.gguf"
    const char* env;    // the environment variable that may name another copy of it
    const char* title;  // the menu entry (a model name: not translated)
    const char* about;  // what it shows, for the status tip: QT_TRANSLATE_NOOP("lmscope::gui::SampleModel", ...)
};

// Every sample model, the default (SmolLM2) first.
std::span<const SampleModel> sample_models();
// The sample model's `about`, in the current language.
QString sample_model_about(const SampleModel& m);

// The places looked at for `m`, in order: $ENV; beside the executable (and its sample_models/
// folder); the source tree's sample_models/ that this build was made from.
QStringList sample_model_candidates(const SampleModel& m);
// The first candidate that is a readable file, or an empty string.
QString find_sample_model(const SampleModel& m);
// The default sample model (the first), or an empty string.
QString find_sample_model();

// A fetched tokenizer file ("cl100k_base.tiktoken.gz"): $LMSCOPE_SAMPLE_TOKENIZERS/NAME; beside
// the executable (tokenizers/, sample_models/tokenizers/); the source tree's
// sample_models/tokenizers/. The first readable file, or an empty string.
QStringList sample_tokenizer_candidates(const QString& name);
QString find_sample_tokenizer(const QString& name);

}  // namespace lmscope::gui
