// lmscope-cli tokenize MODEL.gguf|TOKENIZER.model|NAME.tiktoken[.gz]|vocab.txt (--text T | --file F | --batch F.inp)
//                      [--add-special] [--parse-special] [--json]
// Default output: one line of token ids separated by single spaces. --batch: one line per
// string of a peer-suite file, in the suites' .out format (each id preceded by a space, so an
// empty string gives an empty line). --json: the tokens with their pieces and byte spans (one JSON
// object per line with --batch).
#include "cli/commands.h"

#include "tokenizer/batch.h"
#include "tokenizer/tokenizer.h"
#include "util/bounded_file.h"
#include "util/error.h"
#include "util/json_io.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <iostream>
#include <memory>
#include <string>

namespace lmscope::cli {

namespace {

constexpr size_t kMaxTextFile = size_t(64) << 20;  // the tokens take ~10x the text

// batch_format: every id is preceded by a space, exactly as the peer suites' .out lines are.
void print_tokens(const tok::Tokenizer& t, const std::string& text, bool add_special,
                  bool parse_special, bool json, bool batch_format) {
    const std::vector<tok::Token> tokens = t.encode(text, add_special, parse_special);
    if (!json) {
        std::string line;
        for (size_t i = 0; i < tokens.size(); ++i) {
            if (i || batch_format) line += ' ';
            line += std::to_string(tokens[i].id);
        }
        std::cout << line << "\n";
        return;
    }
    // Streamed token by token (the same bytes as one document, whose tree would take ~1 KB a
    // token): {"count":N,"tokens":[{...},...]}.
    std::cout << "{\"count\":" << tokens.size() << ",\"tokens\":[";
    for (size_t i = 0; i < tokens.size(); ++i) {
        const tok::Token& k = tokens[i];
        const nlohmann::json o = {{"id", k.id},
                                  {"piece", std::string(k.piece)},
                                  {"type", std::string(tok::token_type_name(t.type(k.id)))},
                                  {"begin", k.begin},
                                  {"end", k.end},
                                  {"text", text.substr(k.begin, k.end - k.begin)}};
        std::cout << (i ? "," : "") << dump_json(o);
    }
    std::cout << "]}\n";
}

}  // namespace

void add_tokenize_command(CLI::App& app) {
    struct Options {
        std::string model, text, file, batch;
        bool add_special = false, parse_special = false, json = false;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("tokenize", "Tokenize text with a model's tokenizer");
    cmd->add_option("MODEL", opt->model, "GGUF model or vocabulary, SentencePiece .model, tiktoken rank file (cl100k_base.tiktoken.gz, "
                    "o200k_base.tiktoken.gz) or WordPiece vocab.txt")->required();
    auto* o_text = cmd->add_option("--text", opt->text, "The text to tokenize");
    auto* o_file = cmd->add_option("--file", opt->file, "Tokenize the whole content of a file");
    auto* o_batch = cmd->add_option("--batch", opt->batch,
                                    "Strings separated by the line __ggml_vocab_test__; one output line each");
    cmd->add_flag("--add-special", opt->add_special, "Add BOS/EOS as the vocabulary asks");
    cmd->add_flag("--parse-special", opt->parse_special, "Turn special-token text into special tokens");
    cmd->add_flag("--json", opt->json, "Print tokens with pieces and byte spans as JSON");
    cmd->callback([opt, o_text, o_file, o_batch] {
        const int given = static_cast<int>(o_text->count() > 0) + static_cast<int>(o_file->count() > 0) +
                          static_cast<int>(o_batch->count() > 0);
        if (given != 1) throw UsageError("tokenize: give exactly one of --text, --file, --batch");
        const std::unique_ptr<tok::Tokenizer> t = tok::load_tokenizer(opt->model);
        if (o_batch->count() > 0) {
            for (const std::string& s : tok::parse_batch(read_bounded(opt->batch, kMaxTextFile)))
                print_tokens(*t, s, opt->add_special, opt->parse_special, opt->json, true);
            return;
        }
        const std::string text = o_text->count() > 0 ? opt->text : read_bounded(opt->file, kMaxTextFile);
        print_tokens(*t, text, opt->add_special, opt->parse_special, opt->json, false);
    });
}

}  // namespace lmscope::cli
