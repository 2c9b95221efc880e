#include "model/chat_template.h"

#include "gguf/gguf.h"
#include "util/error.h"

#include <vector>

namespace lmscope::model {

namespace {

constexpr std::string_view kPlainNotice =
    "using plain \"User: ... / Assistant: ...\" turns, which the model was not trained on";

bool contains(std::string_view text, std::string_view what) {
    return text.find(what) != std::string_view::npos;
}

// Jinja's trim and Python's str.strip() on ASCII whitespace.
std::string_view trim(std::string_view s) {
    constexpr std::string_view ws = " \t\n\r\f\v";
    const size_t first = s.find_first_not_of(ws);
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(ws) - first + 1);
}

// A Jinja string literal's escapes (\n, \t, \', \", \\) turned into the characters they mean.
std::string unescape(std::string_view s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 1 < s.size()) {
            const char c = s[++i];
            out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
        } else {
            out += s[i];
        }
    }
    return out;
}

// Skips a newline written either as the character or as the escape "\n".
size_t skip_newline(std::string_view s, size_t pos) {
    if (pos < s.size() && s[pos] == '\n') return pos + 1;
    if (s.substr(pos, 2) == "\\n") return pos + 2;
    return std::string_view::npos;
}

// ChatML templates that insert a default system turn (SmolLM2, Qwen2.5) write it as one string
// literal '<|im_start|>system\n...<|im_end|>'; a span with Jinja syntax in it is an expression
// (the conversation's own system turn), not the default.
std::string chatml_default_system(std::string_view jinja) {
    constexpr std::string_view open = "<|im_start|>system";
    constexpr std::string_view close = "<|im_end|>";
    for (size_t at = jinja.find(open); at != std::string_view::npos; at = jinja.find(open, at + 1)) {
        const size_t body = skip_newline(jinja, at + open.size());
        if (body == std::string_view::npos) continue;
        const size_t end = jinja.find(close, body);
        if (end == std::string_view::npos) break;
        const std::string_view text = jinja.substr(body, end - body);
        bool literal = !text.empty();
        for (std::string_view syntax : {"'", "\"", "{", "}", "+", "message"})
            literal = literal && !contains(text, syntax);
        if (literal) return unescape(text);
    }
    return {};
}

// Llama 3.1 / 3.2: "Cutting Knowledge Date: December 2023\n" and "Today Date: " + date_string,
// where date_string defaults to a literal set in the template.
std::string llama3_preamble(std::string_view jinja) {
    constexpr std::string_view knowledge = "Cutting Knowledge Date:";
    const size_t at = jinja.find(knowledge);
    if (at == std::string_view::npos) return {};
    size_t end = at;
    while (end < jinja.size() && jinja[end] != '\n' && jinja.substr(end, 2) != "\\n" && jinja[end] != '"' &&
           jinja[end] != '\'')
        ++end;
    std::string date = "26 Jul 2024";  // the Llama 3.1 template's own default
    constexpr std::string_view set_date = "set date_string = ";
    const size_t d = jinja.find(set_date);
    if (d != std::string_view::npos && d + set_date.size() < jinja.size()) {
        const char quote = jinja[d + set_date.size()];
        const size_t start = d + set_date.size() + 1;
        const size_t stop = jinja.find(quote, start);
        if ((quote == '"' || quote == '\'') && stop != std::string_view::npos)
            date = std::string(jinja.substr(start, stop - start));
    }
    return std::string(jinja.substr(at, end - at)) + "\nToday Date: " + date + "\n\n";
}

void require_alternation(std::span<const ChatTurn> turns, std::string_view family) {
    for (size_t i = 0; i < turns.size(); ++i) {
        const Role expected = i % 2 == 0 ? Role::User : Role::Assistant;
        if (turns[i].role != expected)
            throw UsageError(std::string(family) + " chat template: turn " + std::to_string(i + 1) + " is " +
                             std::string(role_name(turns[i].role)) +
                             "; roles must alternate user/assistant, starting with the user" +
                             (turns[i].role == Role::System ? ", with a system turn only first" : ""));
    }
}

// Splits a leading system turn off (Llama 2, Gemma).
std::span<const ChatTurn> split_system(std::span<const ChatTurn> turns, const ChatTurn** system) {
    *system = nullptr;
    if (!turns.empty() && turns.front().role == Role::System) {
        *system = &turns.front();
        return turns.subspan(1);
    }
    return turns;
}

void render_chatml(const ChatTemplate& t, std::span<const ChatTurn> turns, bool gen, std::string& out) {
    if (!t.default_system.empty() && (turns.empty() || turns.front().role != Role::System))
        out += "<|im_start|>system\n" + t.default_system + "<|im_end|>\n";
    for (const ChatTurn& turn : turns)
        out += "<|im_start|>" + std::string(role_name(turn.role)) + "\n" + turn.content + "<|im_end|>\n";
    if (gen) out += "<|im_start|>assistant\n";
}

void render_llama2(std::span<const ChatTurn> all, const SpecialText& sp, std::string& out) {
    const ChatTurn* system = nullptr;
    const auto turns = split_system(all, &system);
    require_alternation(turns, "Llama 2");
    for (size_t i = 0; i < turns.size(); ++i) {
        std::string content;
        if (i == 0 && system) {
            content.append("<<SYS>>\n").append(system->content).append("\n<</SYS>>\n\n");
        }
        content += turns[i].content;
        if (turns[i].role == Role::User)
            out.append(sp.bos).append("[INST] ").append(trim(content)).append(" [/INST]");
        else
            out.append(" ").append(trim(content)).append(" ").append(sp.eos);
    }
}

void render_llama3(const ChatTemplate& t, std::span<const ChatTurn> turns, bool gen, const SpecialText& sp,
                   std::string& out) {
    auto header = [&](std::string_view role) {
        return "<|start_header_id|>" + std::string(role) + "<|end_header_id|>\n\n";
    };
    // 3.0 prefixes BOS to the first turn; 3.1+ writes it first thing.
    if (!turns.empty() || !t.llama3_system_preamble.empty()) out += sp.bos;
    if (!t.llama3_system_preamble.empty()) {
        // 3.1+: the system header always comes first, holding the conversation's system turn.
        std::string system;
        if (!turns.empty() && turns.front().role == Role::System) {
            system = std::string(trim(turns.front().content));
            turns = turns.subspan(1);
        }
        out += header("system") + t.llama3_system_preamble + system + "<|eot_id|>";
    }
    for (const ChatTurn& turn : turns)
        out += header(role_name(turn.role)) + std::string(trim(turn.content)) + "<|eot_id|>";
    if (gen) out += header("assistant");
}

void render_zephyr(std::span<const ChatTurn> turns, bool gen, const SpecialText& sp, std::string& out) {
    for (const ChatTurn& turn : turns)
        out += "<|" + std::string(role_name(turn.role)) + "|>\n" + turn.content + sp.eos + "\n";
    // The template writes the prompt inside its loop, after the last turn only.
    if (gen && !turns.empty()) out += "<|assistant|>\n";
}

void render_gemma(const ChatTemplate& t, std::span<const ChatTurn> all, bool gen, const SpecialText& sp,
                  std::string& out) {
    const ChatTurn* system = nullptr;
    const auto turns = split_system(all, &system);
    if (system && !t.gemma_system_in_first_user)
        throw UsageError("Gemma chat template: the system role is not supported");
    require_alternation(turns, "Gemma");
    out += sp.bos;
    for (size_t i = 0; i < turns.size(); ++i) {
        const bool user = turns[i].role == Role::User;
        out += std::string("<start_of_turn>") + (user ? "user" : "model") + "\n";
        if (i == 0 && system) out += system->content + "\n\n";
        out += std::string(trim(turns[i].content)) + "<end_of_turn>\n";
    }
    if (gen) out += "<start_of_turn>model\n";
}

void render_plain(std::span<const ChatTurn> turns, bool gen, std::string& out) {
    for (const ChatTurn& turn : turns) {
        const std::string_view name = turn.role == Role::System ? "System"
                                      : turn.role == Role::User ? "User"
                                                                : "Assistant";
        out += std::string(name) + ": " + turn.content + "\n";
    }
    if (gen) out += "Assistant:";
}

}  // namespace

std::string_view chat_family_name(ChatFamily family) {
    switch (family) {
        case ChatFamily::Plain: return "plain";
        case ChatFamily::ChatML: return "chatml";
        case ChatFamily::Llama2: return "llama2";
        case ChatFamily::Llama3: return "llama3";
        case ChatFamily::Zephyr: return "zephyr";
        case ChatFamily::Gemma: return "gemma";
    }
    return "?";
}

std::string_view role_name(Role role) {
    switch (role) {
        case Role::System: return "system";
        case Role::User: return "user";
        case Role::Assistant: return "assistant";
    }
    return "?";
}

ChatTemplate ChatTemplate::of(ChatFamily family) {
    ChatTemplate t;
    t.family = family;
    if (family == ChatFamily::Plain) t.notice = "plain text chat: " + std::string(kPlainNotice);
    return t;
}

std::string chat_template_text(const gguf::File& file) {
    return file.opt_string("tokenizer.chat_template").value_or("");
}

ChatTemplate ChatTemplate::detect(std::string_view jinja) {
    ChatTemplate t;
    if (trim(jinja).empty()) {
        t.notice = "the model has no chat template; " + std::string(kPlainNotice);
        return t;
    }
    if (contains(jinja, "<|im_start|>")) {
        t.family = ChatFamily::ChatML;
        t.default_system = chatml_default_system(jinja);
    } else if (contains(jinja, "<|start_header_id|>")) {
        t.family = ChatFamily::Llama3;
        t.llama3_system_preamble = llama3_preamble(jinja);
    } else if (contains(jinja, "<start_of_turn>")) {
        t.family = ChatFamily::Gemma;
        t.gemma_system_in_first_user = contains(jinja, "first_user_prefix");
    } else if (contains(jinja, "[INST]") && contains(jinja, "<<SYS>>")) {
        t.family = ChatFamily::Llama2;
    } else if (contains(jinja, "<|user|>") && contains(jinja, "<|assistant|>") && !contains(jinja, "<|end|>")) {
        t.family = ChatFamily::Zephyr;
    } else {
        t.notice = "the model's chat template is not one lmscope recognises (ChatML, Llama 2, Llama 3, "
                   "Zephyr, Gemma); " + std::string(kPlainNotice);
    }
    return t;
}

RenderedChat render_chat(const ChatTemplate& tmpl, std::span<const ChatTurn> turns,
                         bool add_generation_prompt, const SpecialText& special) {
    RenderedChat r;
    switch (tmpl.family) {
        case ChatFamily::ChatML: render_chatml(tmpl, turns, add_generation_prompt, r.text); break;
        case ChatFamily::Llama2: render_llama2(turns, special, r.text); break;
        case ChatFamily::Llama3: render_llama3(tmpl, turns, add_generation_prompt, special, r.text); break;
        case ChatFamily::Zephyr: render_zephyr(turns, add_generation_prompt, special, r.text); break;
        case ChatFamily::Gemma: render_gemma(tmpl, turns, add_generation_prompt, special, r.text); break;
        case ChatFamily::Plain: render_plain(turns, add_generation_prompt, r.text); break;
    }
    r.starts_with_bos = !special.bos.empty() && r.text.starts_with(special.bos);
    return r;
}

}  // namespace lmscope::model
