#include "util/json_io.h"

#include "util/error.h"

#include <new>
#include <vector>

namespace lmscope {

namespace {

using nlohmann::json;

// Builds the document one event at a time; `open_` holds the containers being filled (the
// path from the root), so its size is the depth, checked before a container is added.
class Builder final : public nlohmann::json_sax<json> {
public:
    Builder(json& root, const std::string& file, const std::string& field) : root_(root), file_(file), field_(field) {}

    bool null() override { return add(json(nullptr)); }
    bool boolean(bool v) override { return add(json(v)); }
    bool number_integer(number_integer_t v) override { return add(json(v)); }
    bool number_unsigned(number_unsigned_t v) override { return add(json(v)); }
    bool number_float(number_float_t v, const string_t&) override { return add(json(v)); }
    bool string(string_t& v) override { return add(json(std::move(v))); }
    bool binary(binary_t& v) override { return add(json::binary(std::move(v))); }
    bool key(string_t& k) override {
        key_ = std::move(k);
        return true;
    }
    bool start_object(std::size_t) override { return open(json::object()); }
    bool start_array(std::size_t) override { return open(json::array()); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
        std::string what = e.what();  // "[json.exception.parse_error.101] parse error at ..."
        const size_t tag = what.find("] ");
        if (what.rfind("[json.exception.", 0) == 0 && tag != std::string::npos) what.erase(0, tag + 2);
        throw FormatError(file_, field_, "is not valid JSON: " + what);
    }

private:
    bool add(json&& v) {
        if (open_.empty()) {
            root_ = std::move(v);
            last_ = &root_;
        } else if (open_.back()->is_array()) {
            open_.back()->push_back(std::move(v));
            last_ = &open_.back()->back();
        } else {
            // nlohmann keeps the last of a repeated key: a file whose readers could disagree
            // about a value is refused instead
            auto [it, fresh] = open_.back()->get_ref<json::object_t&>().emplace(key_, std::move(v));
            if (!fresh) throw FormatError(file_, field_, "has the key '" + key_ + "' twice in one object");
            last_ = &it->second;
        }
        return true;
    }
    bool open(json&& container) {
        if (open_.size() >= size_t(kMaxJsonDepth))
            throw FormatError(file_, field_, "nests deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        add(std::move(container));
        open_.push_back(last_);
        return true;
    }
    bool close() {
        open_.pop_back();
        return true;
    }

    json& root_;
    const std::string& file_;
    const std::string& field_;
    std::vector<json*> open_;
    json* last_ = nullptr;
    std::string key_;
};

}  // namespace

json parse_untrusted_json(std::string_view text, const std::string& file, const std::string& field) {
    json root;
    try {
        Builder builder(root, file, field);
        json::sax_parse(text.begin(), text.end(), &builder);
    } catch (const std::bad_alloc&) {
        release_json(root);
        throw Error(file + ": out of memory while loading");
    } catch (...) {
        release_json(root);
        throw;
    }
    return root;
}

void release_json(json& j) noexcept {
    if (j.is_array()) {
        for (json& child : j) release_json(child);
        j.get_ref<json::array_t&>().clear();
    } else if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) release_json(it.value());
        j.get_ref<json::object_t&>().clear();
    }
}

size_t json_values(const json& j, size_t limit) {
    size_t n = 1;
    if (j.is_structured())
        for (auto it = j.begin(); it != j.end() && n < limit; ++it) n += json_values(it.value(), limit - n);
    return n;
}

std::string dump_json(const json& j, int indent) {
    return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace lmscope
