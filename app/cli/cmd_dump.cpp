// lmscope-cli dump MODEL.gguf --ids 1,2,3 --logits OUT.f32 [--attention OUT.f32]
//                  [--backend cpu|cuda] [--threads N]
// A teacher-forced run over the given ids (one prefill step). Writes little-endian float32
// logits [n][n_vocab] and attention [n_layer][n_head][n][n] (zeros above the diagonal): the
// layouts of ../shared/testdata/reference/. Files are written atomically (temp + rename).
#include "cli/commands.h"

#include "engine/backend_factory.h"
#include "engine/model.h"
#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace lmscope::cli {

namespace {

std::vector<int32_t> parse_ids(const std::string& text) {
    std::vector<int32_t> ids;
    size_t i = 0;
    while (i <= text.size()) {
        const size_t comma = std::min(text.find(',', i), text.size());
        const std::string item = text.substr(i, comma - i);
        size_t used = 0;
        long long v = -1;
        try {
            v = std::stoll(item, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (item.empty() || used != item.size() || v < 0 || v > INT32_MAX)
            throw UsageError("--ids: '" + item + "' is not a token id (expected comma-separated ids like 1,2,3)");
        ids.push_back(int32_t(v));
        i = comma + 1;
    }
    return ids;
}

void write_f32(const std::string& path, const std::vector<float>& data) {
    const std::string tmp = path + ".tmp-dump";
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw IoError(path + ": cannot write: " + std::strerror(errno));
    const size_t n = std::fwrite(data.data(), sizeof(float), data.size(), f);
    const bool ok = n == data.size() && std::fflush(f) == 0;
    std::fclose(f);
    std::error_code ec;
    if (!ok) {
        std::filesystem::remove(tmp, ec);
        throw IoError(path + ": write failed: " + std::strerror(errno));
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        throw IoError(path + ": cannot rename the temporary file into place: " + ec.message());
    }
}

}  // namespace

void add_dump_command(CLI::App& app) {
    struct Options {
        std::string model, ids, logits, attention, backend = "cpu";
        int threads = 0;
    };
    auto opt = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("dump", "Teacher-forced run over token ids; write logits (and attention) as float32");
    cmd->add_option("MODEL", opt->model, "GGUF model file")->required();
    cmd->add_option("--ids", opt->ids, "Token ids, comma-separated (1,2,3)")->required();
    cmd->add_option("--logits", opt->logits, "Output file: float32 logits [n][n_vocab]")->required();
    cmd->add_option("--attention", opt->attention, "Output file: float32 attention [n_layer][n_head][n][n]");
    cmd->add_option("--backend", opt->backend, "cpu or cuda")->check(CLI::IsMember({"cpu", "cuda"}));
    cmd->add_option("--threads", opt->threads, "CPU threads (default: all cores)")->check(CLI::Range(1, 1024));
    cmd->callback([opt] {
        const std::vector<int32_t> ids = parse_ids(opt->ids);
        auto model = engine::Model::load(opt->model);
        tok::load_tokenizer(model->file());  // the ids are its tokens: a broken vocabulary is a broken model file
        engine::BackendOptions bo;
        bo.n_threads = opt->threads;
        bo.n_ctx = std::max<int32_t>(int32_t(ids.size()), 1);
        auto backend = engine::make_backend(opt->backend, model, bo);

        const model::ModelSpec& s = model->spec();
        const size_t n = ids.size(), V = size_t(s.n_vocab());
        std::vector<float> logits(n * V);  // [n][n_vocab]
        trace::CapturePolicy policy;
        policy.mode = opt->attention.empty() ? trace::CaptureMode::None : trace::CaptureMode::Full;
        trace::StepCapture capture;
        backend->forward(ids, 0, policy, &capture, logits, true, nullptr);
        write_f32(opt->logits, logits);

        if (!opt->attention.empty()) {
            // [n_layer][n_head][n][n]; a prefill at position 0 gives planes of n x n
            std::vector<float> attn(size_t(s.n_layer()) * size_t(s.n_head()) * n * n, 0.0f);
            for (const trace::AttentionPlane& p : capture.planes) {
                const size_t base = (size_t(p.at.layer) * size_t(s.n_head()) + size_t(p.at.head)) * n * n;
                std::copy(p.weights.begin(), p.weights.end(), attn.begin() + std::ptrdiff_t(base));
            }
            write_f32(opt->attention, attn);
        }
    });
}

}  // namespace lmscope::cli
