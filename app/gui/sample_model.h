// Where the sample model (SmolLM2-135M-Instruct, fetched by sample_models/fetch.sh) is found
// when lmscope starts without a file, and the tokenizers the tokenizer lab compares (fetched
// beside it into sample_models/tokenizers/).
#pragma once

#include <QString>
#include <QStringList>

namespace lmscope::gui {

// The places looked at, in order: $LMSCOPE_SAMPLE_MODEL; beside the executable (and its
// sample_models/ folder); the source tree's sample_models/ that this build was made from.
QStringList sample_model_candidates();
// The first candidate that is a readable file, or an empty string.
QString find_sample_model();

// A fetched tokenizer file ("cl100k_base.tiktoken.gz"): $LMSCOPE_SAMPLE_TOKENIZERS/NAME; beside
// the executable (tokenizers/, sample_models/tokenizers/); the source tree's
// sample_models/tokenizers/. The first readable file, or an empty string.
QStringList sample_tokenizer_candidates(const QString& name);
QString find_sample_tokenizer(const QString& name);

}  // namespace lmscope::gui
