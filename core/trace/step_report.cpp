#include "trace/step_report.h"

#include "trace/trace_json.h"

#include <algorithm>
#include <cstdio>

namespace lmscope::trace {

using nlohmann::json;

std::string quote_piece(const std::string& piece) {
    std::string out = "\"";
    for (unsigned char c : piece) {
        if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else if (c == '\r') out += "\\r";
        else if (c == '"' || c == '\\') out += '\\', out += char(c);
        else if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else {
            out += char(c);
        }
    }
    return out + "\"";
}

namespace {

// JSON needs UTF-8: a piece that is not (a lone byte of a character) reads as <0xHH>.
std::string json_piece(const std::string& piece) {
    if (detail::valid_utf8(piece)) return piece;
    std::string out;
    char buf[8];
    for (unsigned char c : piece) {
        std::snprintf(buf, sizeof buf, "<0x%02X>", c);
        out += buf;
    }
    return out;
}

json ablated_json(const StepTrace& s) {
    json off = json::array();
    for (const LayerHead& a : s.ablated) off.push_back({a.layer, a.head});
    return off;
}

json skipped_json(const StepTrace& s) {
    json out = json::array();
    for (const LayerSkip& k : s.skipped) out.push_back({k.layer, sublayer_name(k.part)});
    return out;
}

}  // namespace

json step_report_json(const SessionTrace& trace, const StepTrace& s, size_t top_n) {
    json top = json::array();
    const std::vector<Candidate>& before = s.logits.top_before();
    for (size_t i = 0; i < std::min(top_n, before.size()); ++i)
        top.push_back({{"id", before[i].id}, {"piece", json_piece(trace.piece(before[i].id))},
                       {"logit", before[i].logit}, {"prob", before[i].prob}});
    return {{"step", s.index},
            {"parent", s.parent},
            {"turn", s.turn},
            {"phase", phase_name(s.phase)},
            {"pos", s.first_pos},
            {"fed", s.tokens},
            {"fed_how", choice_name(s.fed_how)},
            {"reused", s.reused_tokens},
            {"ablated", ablated_json(s)},
            {"skipped", skipped_json(s)},
            {"token", s.logits.chosen},
            {"piece", json_piece(trace.piece(s.logits.chosen))},
            {"prob", s.logits.chosen_prob},
            {"how", choice_name(s.logits.how)},
            {"top", top},
            {"kv_tokens", s.kv.tokens},
            {"kv_bytes", s.kv.bytes_total},
            {"kv_bytes_formula", s.kv.formula_bytes},
            {"kv_resident_bytes", s.kv.resident_bytes},
            {"kv_offloaded_bytes", s.kv.offloaded_bytes},
            {"kv_bytes_moved", s.kv.moved_bytes},
            {"kv_dtype", kv_type_name(s.kv.type)},
            {"ms", s.forward_ms + s.sample_ms},
            {"forward_ms", s.forward_ms},
            {"sample_ms", s.sample_ms}};
}

std::string step_report_text(const SessionTrace& trace, const StepTrace& s, size_t top_n) {
    char buf[160];
    std::string line;
    std::snprintf(buf, sizeof buf, "#%-3d %-7s pos %-4d ", s.index, std::string(phase_name(s.phase)).c_str(),
                  s.first_pos);
    line += buf;
    if (s.tokens.size() == 1) {
        line += "fed " + quote_piece(trace.piece(s.tokens[0])) + " (" + std::to_string(s.tokens[0]) + ", " +
                std::string(choice_name(s.fed_how)) + ")";
    } else {
        line += "fed " + std::to_string(s.tokens.size()) + " tokens";
        if (s.reused_tokens > 0) line += " (" + std::to_string(s.reused_tokens) + " reused)";
    }
    if (!s.ablated.empty()) {
        line += " [heads off:";
        for (const LayerHead& a : s.ablated) {
            line += ' ';
            line += std::to_string(a.layer);
            line += ':';
            line += std::to_string(a.head);
        }
        line += "]";
    }
    if (!s.skipped.empty()) {
        line += " [skipped:";
        for (const LayerSkip& k : s.skipped) {
            line += ' ';
            line += std::to_string(k.layer);
            line += ':';
            line += sublayer_name(k.part);
        }
        line += "]";
    }
    std::snprintf(buf, sizeof buf, " -> %d ", s.logits.chosen);
    line += buf + quote_piece(trace.piece(s.logits.chosen));
    std::snprintf(buf, sizeof buf, " p=%.4f %s", double(s.logits.chosen_prob),
                  std::string(choice_name(s.logits.how)).c_str());
    line += buf;
    const std::vector<Candidate>& before = s.logits.top_before();
    if (!before.empty()) {
        line += " | top:";
        for (size_t i = 0; i < std::min(top_n, before.size()); ++i) {
            std::snprintf(buf, sizeof buf, " %.3f", double(before[i].prob));
            line += ' ';
            line += quote_piece(trace.piece(before[i].id));
            line += buf;
        }
    }
    std::snprintf(buf, sizeof buf, " | kv %d tok %.1f KiB %s | %.2f ms", s.kv.tokens,
                  double(s.kv.bytes_total) / 1024.0, std::string(kv_type_name(s.kv.type)).c_str(),
                  s.forward_ms + s.sample_ms);
    line += buf;
    if (s.attention.planes_dropped) line += " | planes dropped";
    return line;
}

}  // namespace lmscope::trace
