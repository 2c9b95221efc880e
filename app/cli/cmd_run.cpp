// lmscope-cli run MODEL.gguf (--prompt T | --chat) [-n N] [--temp T] [--top-k K] [--top-p P]
//             [--min-p P] [--seed S] [--kv-type f16|q8_0|q4_0] [--kv-offload MIB] [--capture none|summary|full]
//             [--trace-budget MIB] [--ignore-eos] [--trace OUT] [--jsonl] [--ablate L:H,...]
//             [--skip L:attn|L:ffn,...]
// Runs the loop one step at a time. Text mode streams the generated text (not the prompt) to
// stdout as it is decoded, one line per reply (control characters but newlines and tabs
// escaped: the pieces come from the file); --chat reads one user turn per line of stdin
// (until EOF), renders the whole history with the model's chat template, prefills it reusing
// the common token prefix (--no-prefix-reuse: re-prefill everything) and streams each reply; --jsonl prints one JSON object per step instead (the objects of
// trace/step_report.h, identical to `replay --json` of the saved trace). -n counts generated
// tokens (= steps: the prefill picks the first); generation stops early at end-of-sequence or
// end-of-turn unless --ignore-eos (long runs). --trace saves the session trace when the run
// ends (its path is checked before the run; the file goes through a SafeWriter, never over
// the model); --trace-budget caps the memory its attention planes may hold (the oldest
// steps' planes are released first, see trace/session_trace.h). When the context fills, the
// run ends there: the text so far, the trace saved, a notice (exit 0), or an error (exit 1)
// when -n asked for more. When stdout fails (a full disk, a closed pipe) the run stops, the
// trace is saved, and then the write error is reported (exit 1). --ablate switches heads off
// and --skip skips sub-layers (their output is not added) for every step (each step's trace
// records them). A run whose cache at --ctx and trace budget
// cannot fit this machine's memory is refused before it starts.
#include "cli/backend_option.h"
#include "cli/commands.h"
#include "cli/memory_estimate.h"
#include "cli/options.h"
#include "cli/output.h"

#include "engine/backend_factory.h"
#include "engine/model.h"
#include "engine/prepared_model.h"
#include "engine/session.h"
#include "model/interventions.h"
#include "tokenizer/tokenizer.h"
#include "trace/step_report.h"
#include "trace/trace_file.h"
#include "util/error.h"
#include "util/json_io.h"
#include "util/message.h"
#include "util/resource_errors.h"
#include "util/safe_writer.h"

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>

namespace lmscope::cli {

namespace {

struct RunOptions {
    std::string model;
    std::string prompt;
    bool chat = false;
    bool no_prefix_reuse = false;
    int n_predict = 32;
    bool n_predict_given = false;  // -n on the command line: running out of context is an error
    engine::SamplerSettings sampling = engine::interactive_sampling();
    KvType kv_type = KvType::F16;
    double kv_offload_mib = 0;  // --kv-offload; 0: off
    trace::CaptureMode capture = trace::CaptureMode::Summary;
    uint64_t trace_budget_mib = trace::SessionTrace::kDefaultBudget >> 20;
    bool ignore_eos = false;
    std::string trace_path;
    bool jsonl = false;
    int threads = 0;
    int ctx = engine::kDefaultContext;
    std::string backend = "cpu";
    std::string ablate;  // heads switched off, L:H,...
    std::string skip;    // sub-layers skipped, L:attn,L:ffn,...
};

// Prints each step as it completes: JSON lines, or the chosen token's text (streamed).
class Printer {
public:
    Printer(const engine::Session& session, bool jsonl, bool ignore_eos)
        : session_(session), jsonl_(jsonl), ignore_eos_(ignore_eos), text_(session.tokenizer()) {}

    // Reports the step; false when its choice ends the generation (that token is not printed).
    // Also false once stdout fails (a full disk, a closed pipe): nobody reads what follows.
    bool step(const trace::StepTrace& s) {
        if (jsonl_) {
            std::cout << dump_json(trace::step_report_json(session_.trace(), s)) << std::endl;
            return stdout_ok() && (ignore_eos_ || !session_.ends_turn());
        }
        if (session_.ends_turn() && !ignore_eos_) return false;
        std::cout << sanitize_text(text_.push(s.logits.chosen)) << std::flush;  // pieces come from the file
        return stdout_ok();
    }
    void end_of_reply() {
        if (jsonl_) return;
        std::cout << sanitize_text(text_.flush()) << std::endl;
    }

private:
    const engine::Session& session_;
    bool jsonl_;
    bool ignore_eos_;
    tok::StreamDecoder text_;
};

// Before the prefill: a prompt longer than the context, said with both numbers and the --ctx
// that holds it (or the model's own limit when none does).
void check_prompt_fits(int64_t tokens, engine::Session& session) {
    if (tokens <= session.n_ctx()) return;
    const int32_t trained = session.backend().model().spec().n_ctx_train();
    const int32_t raise_to = engine::context_for_prompt(tokens, trained);
    throw ContextFullError("--prompt: the prompt is " + std::to_string(tokens) + " tokens, more than the context of " +
                           std::to_string(session.n_ctx()) + " positions; " +
                           (raise_to > 0 ? "--ctx " + std::to_string(raise_to) + " holds it"
                                         : "the model's context_length is " + std::to_string(trained) +
                                               ", so shorten the prompt"));
}

// Prints the reply to `first`, up to n_predict steps. False when the context filled first.
bool generate(engine::Session& session, Printer& out, const trace::StepTrace& first, int n_predict) {
    bool more = out.step(first);
    bool fits = true;
    for (int i = 1; more && i < n_predict; ++i) {
        fits = session.tokens().size() < size_t(session.n_ctx());
        more = fits && out.step(session.decode());
    }
    out.end_of_reply();
    return fits;
}

// Runs the prompt or the chat; false when the context filled before the reply was done.
bool converse(const RunOptions& o, engine::Session& session, const tok::Tokenizer& tokenizer, Printer& out) {
    if (!o.chat) {
        const std::vector<int32_t> ids = tokenizer.encode_ids(o.prompt, true, false);
        if (ids.empty()) throw UsageError("--prompt: the prompt encodes to no tokens");
        check_prompt_fits(int64_t(ids.size()), session);
        return generate(session, out, session.prefill(ids), o.n_predict);
    }
    if (!session.chat_template().notice.empty())
        std::cerr << "lmscope-cli: notice: " << sanitize_message(session.chat_template().notice) << "\n";
    std::string line;
    while (stdout_ok() && std::getline(std::cin, line)) {
        const trace::StepTrace* first = nullptr;
        try {
            first = &session.chat_turn(line);
        } catch (const ContextFullError&) {
            if (session.trace().size() == 0) throw;  // the first turn alone does not fit
            return false;
        }
        if (!generate(session, out, *first, o.n_predict)) return false;
    }
    return true;
}

// After a run the context cut short: a notice, or (when -n asked for more) an error; the
// trace is saved either way.
void report_full_context(const RunOptions& o, const engine::Session& session) {
    const std::string what = "the context of " + std::to_string(session.n_ctx()) + " positions is full after " +
                             std::to_string(session.trace().size()) + " steps" +
                             (o.trace_path.empty() ? "" : "; the trace is saved to " + o.trace_path);
    if (o.n_predict_given) throw Error("-n " + std::to_string(o.n_predict) + ": " + what);
    std::cerr << "lmscope-cli: notice: " << sanitize_message(what) << " (--ctx sets the context)\n";
}

void run(const RunOptions& o) {
    engine::validate(o.sampling);
    // Each phase names the model file when memory or threads run out (with_context).
    if (!o.trace_path.empty()) check_output_path(o.trace_path, {o.model});  // before the run, not after it
    const auto [model, tokenizer] = engine::prepare_model(o.model);
    engine::BackendOptions bo;
    bo.n_threads = o.threads;
    bo.kv_type = o.kv_type;
    bo.kv_offload_bytes = engine::kv_offload_budget(o.kv_offload_mib);
    bo.n_ctx = std::min(o.ctx, model->spec().n_ctx_train());
    // a run may fill its context: the cache at --ctx, and the trace's planes up to their budget
    check_memory("run: --ctx " + std::to_string(bo.n_ctx),
                 {weights_part(*model), kv_part(model->spec(), bo.kv_type, bo.n_ctx),
                  {"the trace's attention planes (--trace-budget)", o.trace_budget_mib << 20}});
    const std::unique_ptr<engine::Backend> backend =
        with_context(o.model + ": starting the " + o.backend + " backend (context " + std::to_string(bo.n_ctx) + ")",
                     [&] { return start_backend(o.backend, model, bo); });

    engine::SessionOptions so;
    so.sampling = o.sampling;
    so.capture.mode = o.capture;
    so.trace_budget = o.trace_budget_mib << 20;
    so.prefix_reuse = !o.no_prefix_reuse;
    engine::Session session = with_context(o.model + ": starting the session",
                                           [&] { return engine::Session(*backend, *tokenizer, so); });
    if (!o.ablate.empty()) session.set_ablation(model::parse_head_list(o.ablate, model->spec(), "--ablate"));
    if (!o.skip.empty()) session.set_skips(model::parse_skip_list(o.skip, model->spec(), "--skip"));
    Printer out(session, o.jsonl, o.ignore_eos);

    const bool fitted = with_context(o.model + ": generating", [&] { return converse(o, session, *tokenizer, out); });
    if (!o.trace_path.empty())
        with_context(o.trace_path + ": saving the trace", [&] { trace::save_trace(session.trace(), o.trace_path, {o.model}); });
    if (!fitted) report_full_context(o, session);
}

}  // namespace

void add_run_command(CLI::App& app) {
    auto o = std::make_shared<RunOptions>();
    CLI::App* cmd = app.add_subcommand("run", "Generate text one traced step at a time");
    cmd->add_option("MODEL", o->model, "GGUF model file")->required();
    auto* prompt = cmd->add_option("--prompt", o->prompt, "Prompt text");
    auto* chat = cmd->add_flag("--chat", o->chat, "Chat: one user turn per line of stdin, until EOF");
    prompt->excludes(chat);
    cmd->add_flag("--no-prefix-reuse", o->no_prefix_reuse, "Chat: prefill the whole history every turn");
    auto* n = add_number(cmd, "-n,--n-predict", o->n_predict, "Tokens to generate")
                  ->capture_default_str()->check(CLI::Range(1, 1 << 20));
    add_number(cmd, "--temp", o->sampling.temperature, "Temperature (0 = greedy)")->capture_default_str();
    add_number(cmd, "--top-k", o->sampling.top_k, "Keep the k most probable tokens (0 = off)")->capture_default_str();
    add_number(cmd, "--top-p", o->sampling.top_p, "Nucleus mass (1 = off)")->capture_default_str();
    add_number(cmd, "--min-p", o->sampling.min_p, "Drop tokens below min_p x the best (0 = off)")->capture_default_str();
    add_number(cmd, "--repeat-penalty", o->sampling.repeat_penalty, "Repetition penalty (1 = off)")->capture_default_str();
    add_number(cmd, "--seed", o->sampling.seed, "Sampler seed")->capture_default_str();
    add_kv_type_option(cmd, o->kv_type, "KV cache storage");
    add_kv_offload_option(cmd, o->kv_offload_mib);
    add_capture_option(cmd, o->capture, "What the trace keeps");
    add_number(cmd, "--trace-budget", o->trace_budget_mib, "MiB the trace's attention planes may hold")
        ->capture_default_str()->check(CLI::Range(uint64_t(1), uint64_t(1) << 30));
    cmd->add_flag("--ignore-eos", o->ignore_eos, "Keep generating past end-of-sequence and end-of-turn");
    cmd->add_option("--trace", o->trace_path, "Save the session trace to this file")->check(non_empty_path());
    cmd->add_flag("--jsonl", o->jsonl, "One JSON object per step instead of the text");
    add_number(cmd, "--threads", o->threads, "CPU threads (0 = all cores)")->capture_default_str()->check(CLI::Range(0, 1024));
    add_number(cmd, "--ctx", o->ctx, "Context positions the KV cache may hold")->capture_default_str()->check(CLI::Range(1, 1 << 24));
    cmd->add_option("--backend", o->backend, "cpu or cuda")->capture_default_str();
    cmd->add_option("--ablate", o->ablate, "Heads to switch off (their z is zero), as LAYER:HEAD,...")
        ->check(non_empty_list());
    cmd->add_option("--skip", o->skip, "Sub-layers to skip (their output is not added), as LAYER:attn or LAYER:ffn,...")
        ->check(non_empty_list());
    cmd->callback([o, n] {
        if (!o->chat && o->prompt.empty()) throw UsageError("run: give --prompt TEXT or --chat");
        o->n_predict_given = n->count() > 0;
        run(*o);
    });
}

}  // namespace lmscope::cli
