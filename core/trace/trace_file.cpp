#include "trace/trace_file.h"

#include "trace/trace_json.h"
#include "util/error.h"
#include "util/file_kind.h"
#include "util/json_io.h"
#include "util/mapped_file.h"
#include "util/safe_writer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <new>
#include <string_view>

namespace lmscope::trace {

using nlohmann::json;

namespace {

struct DtypeInfo {
    const char* name;
    size_t size;
};
constexpr DtypeInfo kF16{"F16", 2}, kF32{"F32", 4}, kI32{"I32", 4};

// One array to write: its header entry and where its bytes come from.
struct OutTensor {
    std::string name;
    DtypeInfo dtype;
    std::vector<uint64_t> shape;
    const void* data;
    size_t bytes;
};

std::string tensor_name(size_t step, const char* field) {
    return "step." + std::to_string(step) + "." + field;
}

// `scratch` holds the arrays that need repacking (a deque: references stay valid as it grows).
std::vector<OutTensor> collect_tensors(const SessionTrace& trace, std::deque<std::vector<uint8_t>>& scratch) {
    std::vector<OutTensor> out;
    for (const StepTrace& s : trace.steps()) {
        const AttentionTrace& a = s.attention;
        const size_t i = size_t(s.index);
        if (!a.planes.empty()) {
            std::vector<uint8_t>& buf = scratch.emplace_back(a.planes.size() * 4 * sizeof(int32_t));
            for (size_t p = 0; p < a.planes.size(); ++p) {
                const int32_t row[4] = {a.planes[p].at.layer, a.planes[p].at.head, a.planes[p].first_row_pos,
                                        a.planes[p].n_rows};
                std::memcpy(buf.data() + p * sizeof(row), row, sizeof(row));
            }
            out.push_back({tensor_name(i, "planes"), kI32, {a.planes.size(), 4}, buf.data(), buf.size()});
            out.push_back({tensor_name(i, "attention"), kF16, {a.weights.size()}, a.weights.data(),
                           a.weights.size() * sizeof(uint16_t)});
        }
        if (!a.summaries.empty()) {
            const std::vector<uint64_t> shape = {uint64_t(a.n_layer), uint64_t(a.n_head), uint64_t(a.n_rows)};
            const size_t n = a.summaries.size();
            std::vector<uint8_t>& ent = scratch.emplace_back(n * 4);
            std::vector<uint8_t>& mx = scratch.emplace_back(n * 4);
            std::vector<uint8_t>& arg = scratch.emplace_back(n * 4);
            for (size_t k = 0; k < n; ++k) {
                std::memcpy(ent.data() + 4 * k, &a.summaries[k].entropy, 4);
                std::memcpy(mx.data() + 4 * k, &a.summaries[k].max_weight, 4);
                std::memcpy(arg.data() + 4 * k, &a.summaries[k].argmax_key, 4);
            }
            out.push_back({tensor_name(i, "entropy"), kF32, shape, ent.data(), ent.size()});
            out.push_back({tensor_name(i, "max_weight"), kF32, shape, mx.data(), mx.size()});
            out.push_back({tensor_name(i, "argmax_key"), kI32, shape, arg.data(), arg.size()});
        }
    }
    return out;
}

// A tensor entry read from an untrusted header, checked against the data section.
struct InTensor {
    std::string dtype;
    std::vector<uint64_t> shape;
    uint64_t begin = 0, end = 0;
    bool used = false;
};

class Parser {
public:
    Parser(const uint8_t* data, size_t size, std::string name)
        : data_(data), size_(size), name_(std::move(name)), r_(name_) {}

    SessionTrace parse();

private:
    [[noreturn]] void fail(const std::string& field, const std::string& reason) const {
        throw FormatError(name_, field, reason);
    }
    void read_tensor_table(const json& header);
    // The tensor `name`, checked for dtype and shape; nullptr when absent and !required.
    const InTensor* take(const std::string& name, const char* dtype, const std::vector<uint64_t>& shape,
                         bool required);
    void read_arrays(StepTrace& s, const detail::StepHeader& h);
    // Checks against the rest of the trace: token ids against the vocabulary size, positions
    // and KV counts against the parent step, the model spec's counts against the steps'.
    void check_step(const SessionTrace& trace, const StepTrace& s, int64_t n_vocab) const;
    void check_spec(const SessionTrace& trace) const;
    // The object `key` of `obj`, which the trace keeps a copy of: a few settings, so at most
    // kMaxCopiedValues values (a copy freed while memory is short must not need much).
    const json& small_object(const json& obj, const std::string& path, const char* key) const;
    const uint8_t* bytes(const InTensor& t) const { return data_ + data_start_ + t.begin; }

    const uint8_t* data_;
    size_t size_;
    std::string name_;
    detail::JsonReader r_;
    uint64_t data_start_ = 0, data_size_ = 0;
    std::map<std::string, InTensor> tensors_;
};

void Parser::read_tensor_table(const json& header) {
    std::vector<std::pair<uint64_t, std::string>> order;  // (begin, name)
    for (auto it = header.begin(); it != header.end(); ++it) {
        if (it.key() == "__metadata__") continue;
        const std::string f = it.key();
        const json& e = it.value();
        if (!e.is_object()) fail(f, "is not a tensor entry object");
        InTensor t;
        t.dtype = r_.string(e, f, "dtype");
        size_t elem = 0;
        for (const DtypeInfo& d : {kF16, kF32, kI32})
            if (t.dtype == d.name) elem = d.size;
        if (elem == 0) fail(f + ".dtype", "'" + t.dtype + "' is not F16, F32 or I32");
        const json& shape = r_.array(e, f, "shape");
        if (shape.size() > 8) fail(f + ".shape", "has more than 8 dimensions");
        uint64_t count = 1;
        for (size_t d = 0; d < shape.size(); ++d) {
            const std::string p = f + ".shape[" + std::to_string(d) + "]";
            if (!shape[d].is_number_unsigned()) fail(p, "is not a non-negative integer");
            const uint64_t n = shape[d].get<uint64_t>();
            if (n != 0 && count > data_size_ / n) fail(f + ".shape", "describes more bytes than the file holds");
            count *= n;
            t.shape.push_back(n);
        }
        const json& offs = r_.array(e, f, "data_offsets");
        if (offs.size() != 2 || !offs[0].is_number_unsigned() || !offs[1].is_number_unsigned())
            fail(f + ".data_offsets", "is not a pair of non-negative integers");
        t.begin = offs[0].get<uint64_t>();
        t.end = offs[1].get<uint64_t>();
        if (t.begin > t.end) fail(f + ".data_offsets", "begin is after end");
        if (t.end > data_size_)
            fail(f + ".data_offsets", "end " + std::to_string(t.end) + " is past the data section (" +
                                          std::to_string(data_size_) + " bytes)");
        if (count > data_size_ / elem || count * elem != t.end - t.begin)
            fail(f + ".data_offsets", std::to_string(t.end - t.begin) + " bytes do not hold shape x " +
                                          t.dtype + " = " + std::to_string(count) + " elements");
        order.emplace_back(t.begin, f);
        tensors_.emplace(f, std::move(t));
    }
    // The arrays must tile the data section exactly: no gaps, no overlaps, nothing after.
    std::sort(order.begin(), order.end());
    uint64_t at = 0;
    for (const auto& [begin, f] : order) {
        if (begin != at)
            fail(f + ".data_offsets", begin < at ? "overlaps the previous tensor" : "leaves a gap before it");
        at = tensors_.at(f).end;
    }
    if (at != data_size_)
        fail("data_offsets", "tensors cover " + std::to_string(at) + " of the " + std::to_string(data_size_) +
                                 " data bytes");
}

const InTensor* Parser::take(const std::string& name, const char* dtype, const std::vector<uint64_t>& shape,
                             bool required) {
    const auto it = tensors_.find(name);
    if (it == tensors_.end()) {
        if (required) fail(name, "missing");
        return nullptr;
    }
    if (!required) fail(name, "present but the step's header says it has none");
    InTensor& t = it->second;
    if (t.dtype != dtype) fail(name + ".dtype", "is " + t.dtype + ", expected " + dtype);
    if (t.shape != shape) {
        std::string want = "[";
        for (size_t i = 0; i < shape.size(); ++i) want += (i ? ", " : "") + std::to_string(shape[i]);
        fail(name + ".shape", "does not match the step header's counts " + want + "]");
    }
    t.used = true;
    return &t;
}

void Parser::read_arrays(StepTrace& s, const detail::StepHeader& h) {
    AttentionTrace& a = s.attention;
    const size_t i = size_t(s.index);
    const std::string path = "steps[" + std::to_string(i) + "].attention";

    const uint64_t n_planes = uint64_t(h.n_planes);
    if (const InTensor* t = take(tensor_name(i, "planes"), "I32", {n_planes, 4}, n_planes > 0)) {
        const uint8_t* p = bytes(*t);
        uint64_t total = 0;
        for (uint64_t k = 0; k < n_planes; ++k) {
            int32_t row[4];
            std::memcpy(row, p + k * sizeof(row), sizeof(row));
            const std::string f = tensor_name(i, "planes") + "[" + std::to_string(k) + "]";
            if (row[0] < 0 || row[0] >= a.n_layer) fail(f, "layer " + std::to_string(row[0]) + " is out of range");
            if (row[1] < 0 || row[1] >= a.n_head) fail(f, "head " + std::to_string(row[1]) + " is out of range");
            if (row[2] < 0 || row[3] <= 0 || row[3] > a.n_rows)
                fail(f, "rows start at " + std::to_string(row[2]) + " and count " + std::to_string(row[3]) +
                            ", outside the step's " + std::to_string(a.n_rows) + " rows");
            if (a.find(row[0], row[1])) fail(f, "repeats a (layer, head) pair");
            a.planes.push_back(PlaneRef{{row[0], row[1]}, row[2], row[3], total});
            total += packed_plane_count(row[2], row[3]);
        }
        const InTensor& w = *take(tensor_name(i, "attention"), "F16", {total}, true);
        a.weights.resize(size_t(total));
        std::memcpy(a.weights.data(), bytes(w), size_t(total) * sizeof(uint16_t));
        for (size_t k = 0; k < a.weights.size(); ++k)  // softmax weights: finite (exponent not all ones)
            if ((a.weights[k] & 0x7c00) == 0x7c00)
                fail(tensor_name(i, "attention") + "[" + std::to_string(k) + "]", "is not finite");
    } else {
        take(tensor_name(i, "attention"), "F16", {}, false);
    }

    const std::vector<uint64_t> shape = {uint64_t(a.n_layer), uint64_t(a.n_head), uint64_t(a.n_rows)};
    const InTensor* ent = take(tensor_name(i, "entropy"), "F32", shape, h.has_summaries);
    const InTensor* mx = take(tensor_name(i, "max_weight"), "F32", shape, h.has_summaries);
    const InTensor* arg = take(tensor_name(i, "argmax_key"), "I32", shape, h.has_summaries);
    if (!h.has_summaries) return;
    const size_t n = size_t(shape[0] * shape[1] * shape[2]);
    if (n == 0) fail(path + ".summaries", "are marked present but the step has no rows");
    a.summaries.resize(n);
    for (size_t k = 0; k < n; ++k) {
        HeadSummary& hs = a.summaries[k];
        std::memcpy(&hs.entropy, bytes(*ent) + 4 * k, 4);
        std::memcpy(&hs.max_weight, bytes(*mx) + 4 * k, 4);
        std::memcpy(&hs.argmax_key, bytes(*arg) + 4 * k, 4);
        if (!std::isfinite(hs.entropy)) fail(tensor_name(i, "entropy") + "[" + std::to_string(k) + "]", "is not finite");
        if (!std::isfinite(hs.max_weight))
            fail(tensor_name(i, "max_weight") + "[" + std::to_string(k) + "]", "is not finite");
        const int32_t row_pos = s.first_pos + int32_t(k % size_t(a.n_rows));
        if (hs.argmax_key < 0 || hs.argmax_key > row_pos)
            fail(tensor_name(i, "argmax_key") + "[" + std::to_string(k) + "]",
                 "key " + std::to_string(hs.argmax_key) + " is not visible from position " + std::to_string(row_pos));
    }
}

void Parser::check_step(const SessionTrace& trace, const StepTrace& s, int64_t n_vocab) const {
    const std::string path = "steps[" + std::to_string(s.index) + "]";
    auto check_id = [&](int64_t id, const std::string& field) {
        if (n_vocab > 0 && id >= n_vocab)
            fail(field, "token " + std::to_string(id) + " is outside the vocabulary of " + std::to_string(n_vocab) +
                            " tokens (trace.tokenizer.n_vocab)");
    };
    for (size_t i = 0; i < s.tokens.size(); ++i) check_id(s.tokens[i], path + ".tokens[" + std::to_string(i) + "]");
    check_id(s.logits.chosen, path + ".logits.chosen");
    for (size_t k = 0; k < s.logits.stages.size(); ++k) {
        const FilterStage& st = s.logits.stages[k];
        const std::string p = path + ".logits.stages[" + std::to_string(k) + "]";
        if (n_vocab > 0 && st.survivors > n_vocab)
            fail(p + ".survivors", std::to_string(st.survivors) + " survivors exceed the vocabulary of " +
                                       std::to_string(n_vocab) + " tokens");
        for (size_t c = 0; c < st.top.size(); ++c) check_id(st.top[c].id, p + ".top[" + std::to_string(c) + "]");
    }
    for (size_t i = 0; i < s.lens.size(); ++i) check_id(s.lens[i].token, path + ".lens[" + std::to_string(i) + "]");

    // Positions: the cache holds first_pos + tokens after the step; a decode feeds one token
    // right after its parent, a prefill keeps at most what its parent left in the cache.
    const int64_t parent_end = s.parent >= 0 ? int64_t(trace.step(s.parent).kv.tokens) : 0;
    if (s.phase == Phase::Decode) {
        if (s.tokens.size() != 1)
            fail(path + ".tokens", "a decode step feeds one token, this one feeds " + std::to_string(s.tokens.size()));
        if (s.parent < 0) fail(path + ".parent", "a decode step needs a parent step");
        if (s.first_pos != parent_end)
            fail(path + ".first_pos", std::to_string(s.first_pos) + ", but the parent step ends at position " +
                                          std::to_string(parent_end));
    } else if (s.first_pos > parent_end) {
        fail(path + ".first_pos", std::to_string(s.first_pos) + " is past the " + std::to_string(parent_end) +
                                      " positions its parent step left in the cache");
    }
    const int64_t after = int64_t(s.first_pos) + int64_t(s.tokens.size());
    if (s.kv.tokens != after)
        fail(path + ".kv.tokens", std::to_string(s.kv.tokens) + " tokens in the cache, but the step fills positions up to " +
                                      std::to_string(after));
}

void Parser::check_spec(const SessionTrace& trace) const {
    const json& spec = trace.model.spec;
    int32_t layers = 0, heads = 0;  // from the steps that recorded attention
    for (const StepTrace& s : trace.steps())
        if (s.attention.n_layer > 0) {
            layers = s.attention.n_layer;
            heads = s.attention.n_head;
        }
    auto count = [&](const char* key, int64_t hi, int64_t want) {
        const auto it = spec.find(key);
        if (it == spec.end() || it->is_null()) return;
        const std::string field = std::string("trace.model.spec.") + key;
        if (!it->is_number_integer()) fail(field, "is not an integer");
        const int64_t v = it->get<int64_t>();
        if (v < 0 || v > hi) fail(field, std::to_string(v) + " is outside [0, " + std::to_string(hi) + "]");
        if (want > 0 && v != want)
            fail(field, std::to_string(v) + " does not match the steps' attention (" + std::to_string(want) + ")");
    };
    count("n_layer", 4096, layers);
    count("n_head", 4096, heads);
    count("n_head_kv", 4096, 0);
    count("head_dim", 1 << 16, 0);
}

const json& Parser::small_object(const json& obj, const std::string& path, const char* key) const {
    constexpr size_t kMaxCopiedValues = 4096;
    const json& v = r_.object(obj, path, key);
    if (json_values(v, kMaxCopiedValues + 1) > kMaxCopiedValues)
        fail(path + "." + key, "holds more than " + std::to_string(kMaxCopiedValues) + " values");
    return v;
}

SessionTrace Parser::parse() {
    const std::string_view kind = file_kind(std::string_view(reinterpret_cast<const char*>(data_), std::min<uint64_t>(size_, 64)));
    if (!kind.empty() && kind != kTraceKind)
        fail("header", "the file is " + std::string(kind) + ", not " + std::string(kTraceKind));
    if (size_ < 8) fail("header length", "the file is " + std::to_string(size_) + " bytes, too short for one");
    uint64_t n = 0;
    for (int b = 7; b >= 0; --b) n = (n << 8) | data_[b];
    if (n > kMaxTraceHeader)
        fail("header length", std::to_string(n) + " bytes exceeds the limit of " + std::to_string(kMaxTraceHeader));
    if (n > size_ - 8)
        fail("header length", std::to_string(n) + " bytes runs past the end of the file (" + std::to_string(size_) +
                                  " bytes)");
    data_start_ = 8 + n;
    data_size_ = size_ - data_start_;

    const JsonDocument header(parse_untrusted_json(
        std::string_view(reinterpret_cast<const char*>(data_ + 8), size_t(n)), name_, "header"));
    if (!header->is_object()) fail("header", "is not a JSON object");
    const json& meta = r_.object(*header, "header", "__metadata__");
    if (r_.string(meta, "__metadata__", "format") != kTraceFormat)
        fail("__metadata__.format", "is not " + std::string(kTraceFormat));
    const std::string& version = r_.string(meta, "__metadata__", "version");
    if (version != std::to_string(kTraceVersion))
        fail("__metadata__.version", "'" + version + "' is not supported (this build reads version " +
                                         std::to_string(kTraceVersion) + ")");
    const JsonDocument doc_value(parse_untrusted_json(r_.string(meta, "__metadata__", "trace"), name_, "__metadata__.trace"));
    const json& doc = *doc_value;
    if (!doc.is_object()) fail("__metadata__.trace", "is not a JSON object");
    read_tensor_table(*header);

    const json& budget = r_.object(doc, "trace", "budget");
    const uint64_t budget_bytes = r_.unsigned_integer(budget, "trace.budget", "bytes");
    if (budget_bytes == 0) fail("trace.budget.bytes", "is 0");
    SessionTrace trace(budget_bytes);  // as recorded (restore() does not apply it)
    const json& model = r_.object(doc, "trace", "model");
    trace.model.file = r_.string(model, "trace.model", "file");
    trace.model.header_sha256 = r_.string(model, "trace.model", "header_sha256");
    trace.model.spec = small_object(model, "trace.model", "spec");
    trace.tokenizer = small_object(doc, "trace", "tokenizer");
    trace.sampling = small_object(doc, "trace", "sampling");
    trace.capture = small_object(doc, "trace", "capture");
    const json& pieces = r_.array(doc, "trace", "pieces");
    for (size_t i = 0; i < pieces.size(); ++i) {
        const std::string p = "trace.pieces[" + std::to_string(i) + "]";
        if (!pieces[i].is_array() || pieces[i].size() != 2) fail(p, "is not an [id, text] pair");
        const auto id = int32_t(r_.integer(pieces[i][0], p + "[0]", 0, std::numeric_limits<int32_t>::max()));
        std::string text;
        if (pieces[i][1].is_string()) {
            text = pieces[i][1].get<std::string>();
        } else if (pieces[i][1].is_array()) {  // bytes that are not UTF-8
            for (size_t k = 0; k < pieces[i][1].size(); ++k)
                text += char(r_.integer(pieces[i][1][k], p + "[1][" + std::to_string(k) + "]", 0, 255));
        } else {
            fail(p + "[1]", "is neither text nor a list of bytes");
        }
        if (!trace.pieces.emplace(id, std::move(text)).second) fail(p, "repeats token " + std::to_string(id));
    }

    const auto vocab = trace.tokenizer.find("n_vocab");
    const int64_t n_vocab = vocab == trace.tokenizer.end()
                                ? 0
                                : r_.integer(*vocab, "trace.tokenizer.n_vocab", 1, std::numeric_limits<int32_t>::max());

    const json& steps = r_.array(doc, "trace", "steps");
    if (steps.size() > size_t(std::numeric_limits<int32_t>::max())) fail("trace.steps", "too many steps");
    for (size_t i = 0; i < steps.size(); ++i) {
        detail::StepHeader h = detail::step_from_json(r_, steps[i], "steps[" + std::to_string(i) + "]", int32_t(i));
        read_arrays(h.step, h);
        check_step(trace, h.step, n_vocab);
        trace.restore(std::move(h.step));
    }
    check_spec(trace);
    const int64_t dropped = r_.integer(budget, "trace.budget", "dropped_steps", 0, int64_t(steps.size()));
    if (dropped != trace.dropped_steps())
        fail("trace.budget.dropped_steps", std::to_string(dropped) + " does not match the " +
                                               std::to_string(trace.dropped_steps()) + " steps marked dropped");
    for (const auto& [name, t] : tensors_)
        if (!t.used) fail(name, "is not a tensor of any step");
    return trace;
}

}  // namespace

namespace {

// The bytes before the arrays (length prefix and padded JSON header) and the arrays after it,
// which still point into the trace (or into `scratch`): save_trace() writes them from there
// instead of copying the whole trace into one buffer first.
struct Layout {
    std::string prefix;
    std::vector<OutTensor> tensors;
    uint64_t data_bytes = 0;
};

Layout layout(const SessionTrace& trace, std::deque<std::vector<uint8_t>>& scratch) {
    Layout l;
    l.tensors = collect_tensors(trace, scratch);
    json header = json::object();
    header["__metadata__"] = {{"format", kTraceFormat},
                              {"version", std::to_string(kTraceVersion)},
                              {"trace", dump_json(detail::session_to_json(trace))}};
    for (const OutTensor& t : l.tensors) {
        header[t.name] = {{"dtype", t.dtype.name},
                          {"shape", t.shape},
                          {"data_offsets", {l.data_bytes, l.data_bytes + t.bytes}}};
        l.data_bytes += t.bytes;
    }
    std::string text = dump_json(header);
    text.append((8 - text.size() % 8) % 8, ' ');
    if (text.size() > kMaxTraceHeader) throw Error("trace header is larger than the format allows");
    for (int b = 0; b < 8; ++b) l.prefix.push_back(char(uint8_t(uint64_t(text.size()) >> (8 * b))));
    l.prefix += text;
    return l;
}

}  // namespace

std::vector<uint8_t> serialize_trace(const SessionTrace& trace) {
    std::deque<std::vector<uint8_t>> scratch;
    const Layout l = layout(trace, scratch);
    std::vector<uint8_t> out;
    out.reserve(l.prefix.size() + size_t(l.data_bytes));
    out.insert(out.end(), l.prefix.begin(), l.prefix.end());
    for (const OutTensor& t : l.tensors) {
        const auto* p = static_cast<const uint8_t*>(t.data);
        out.insert(out.end(), p, p + t.bytes);
    }
    return out;
}

SessionTrace parse_trace(const uint8_t* data, size_t size, const std::string& name) {
    try {
        return Parser(data, size, name).parse();
    } catch (const std::bad_alloc&) {
        throw Error(name + ": out of memory while loading");
    }
}

void save_trace(const SessionTrace& trace, const std::string& path, const std::vector<std::string>& inputs) {
    std::deque<std::vector<uint8_t>> scratch;
    const Layout l = layout(trace, scratch);
    SafeWriter out(path, inputs);
    out.write(l.prefix.data(), l.prefix.size());
    for (const OutTensor& t : l.tensors) out.write(t.data, t.bytes);
    out.commit();
}

SessionTrace load_trace(const std::string& path) {
    const MappedFile file(path);
    return parse_trace(file.data(), file.size(), path);
}

}  // namespace lmscope::trace
