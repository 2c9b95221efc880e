// Tokenizer lab: trains a SentencePiece model with the library's own trainer, in a temporary
// folder, cancellable from another thread.
//
// Why a child process: SentencePieceTrainer::Train() cannot be interrupted (no callback, no
// cancel flag), and abandoning it on a thread would leave it burning CPU and memory until it
// finishes. So train_sentencepiece() starts the program lmscope-spm-train (posix_spawn: a
// fork() without exec in a threaded program may deadlock the child on a lock another thread
// held); it trains and writes the model into the temporary folder, the caller polls waitpid()
// and the CancelToken, and once it is cancelled kills it (SIGKILL), reaps it and removes the folder.
#pragma once

#include "util/cancel.h"

#include <memory>
#include <string>

namespace lmscope::tok {

class Tokenizer;

struct TrainOptions {
    std::string corpus_file;  // a text file, one sentence per line ...
    std::string corpus_text;  // ... or the text itself (used when corpus_file is empty)
    // WordPiece is trained in this process (wordpiece_trainer.h) and reads only the corpus and
    // vocab_size; train_tokenizer() runs any of the three.
    enum class Model { Bpe, Unigram, WordPiece } model = Model::Bpe;
    int vocab_size = 1000;
    bool byte_fallback = true;
    bool split_digits = false;
    double character_coverage = 1.0;  // 1.0 keeps every character of a small corpus
    int num_threads = 1;
};

struct TrainResult {
    std::string serialized_model;  // a .model file's content (load_sentencepiece_model reads it)
    std::string log;               // what the trainer printed
};

// Throws UsageError for bad options (WordPiece among them: it is no SentencePiece model),
// Error when training fails (with the trainer's message),
// CancelledError once *cancel is cancelled, IoError when the temporary folder fails or the
// trainer program cannot be found or started.
TrainResult train_sentencepiece(const TrainOptions& options, const CancelToken* cancel = nullptr);

// Trains options.model (SentencePiece BPE or unigram with train_sentencepiece, or WordPiece)
// and returns the tokenizer; throws as the trainer does.
std::unique_ptr<Tokenizer> train_tokenizer(const TrainOptions& options, const CancelToken* cancel = nullptr);

// Where lmscope-spm-train is: $LMSCOPE_SPM_TRAIN when set, else beside the running program,
// else where this build made it. Throws IoError naming where it looked.
std::string trainer_program();
}  // namespace lmscope::tok
