// Chat templates: which prompt format a model expects, recognised from the Jinja text of its
// tokenizer.chat_template by distinctive markers, and the prompt text a list of turns renders
// to, exactly as that family's template produces it (whitespace, newlines, BOS/EOS text).
//
//   ChatML  "<|im_start|>"        SmolLM2, Qwen2.5 (a default system turn, when the template
//                                 has one, is taken from the template text itself)
//   Llama2  "[INST]" + "<<SYS>>"  Llama 2 chat
//   Llama3  "<|start_header_id|>" Llama 3; Llama 3.1/3.2 add the "Cutting Knowledge Date"
//                                 system header (its date taken from the template's default)
//   Zephyr  "<|user|>"            Zephyr, TinyLlama chat
//   Gemma   "<start_of_turn>"     Gemma (Gemma 3's template folds a system turn into the
//                                 first user turn; older ones reject it)
// Anything else, or no template, renders as plain "User: ...\nAssistant: ..." text and
// carries a notice the app shows.
//
// The rendered text contains special tokens as text ("<|im_start|>", BOS "<s>"): tokenize it
// with special-token parsing on, and add no BOS of your own when starts_with_bos is set.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace lmscope::gguf {
class File;
}

namespace lmscope::model {

enum class ChatFamily : uint8_t { Plain, ChatML, Llama2, Llama3, Zephyr, Gemma };
std::string_view chat_family_name(ChatFamily family);  // "plain", "chatml", "llama2", ...

enum class Role : uint8_t { System, User, Assistant };
std::string_view role_name(Role role);  // "system", "user", "assistant"

struct ChatTurn {
    Role role = Role::User;
    std::string content;
};

struct ChatTemplate {
    ChatFamily family = ChatFamily::Plain;
    // ChatML: the system turn the template inserts when the conversation has none ("" = none).
    std::string default_system;
    // Llama 3.1+: the lines every system header starts with ("Cutting Knowledge Date: ...\n
    // Today Date: ...\n\n"); "" for Llama 3.0, which has no forced system header.
    std::string llama3_system_preamble;
    // Gemma 3: a system turn becomes a prefix of the first user turn (else it is rejected).
    bool gemma_system_in_first_user = false;
    // Plain only: why (no template, or one lmscope does not recognise), for the app to show.
    std::string notice;

    // Recognises the family from the Jinja text (empty: the model has none). Never throws.
    static ChatTemplate detect(std::string_view jinja);
    // The template of a family with its defaults (no default system turn, Llama 3.0 headers).
    static ChatTemplate of(ChatFamily family);
};

// The Jinja text of a model's own template (tokenizer.chat_template; empty when it has none).
// Throws FormatError naming the key when it holds anything but a string: the spec, the
// summary and the session all read it through here, so info and run refuse the same files.
std::string chat_template_text(const gguf::File& file);

// The tokenizer's BOS and EOS token text, which the templates write out.
struct SpecialText {
    std::string bos = "<s>";
    std::string eos = "</s>";
};

struct RenderedChat {
    std::string text;
    bool starts_with_bos = false;  // text begins with special.bos
};

// Renders the turns; with add_generation_prompt the text ends where the assistant's reply
// begins (Llama 2's template has no such prompt: its text ends with " [/INST]" anyway).
// Throws UsageError for a conversation the family's template rejects (Llama 2 and Gemma:
// roles must alternate user/assistant starting with the user, and a system turn only first;
// older Gemma templates take no system turn at all).
RenderedChat render_chat(const ChatTemplate& tmpl, std::span<const ChatTurn> turns,
                         bool add_generation_prompt, const SpecialText& special = {});

}  // namespace lmscope::model
