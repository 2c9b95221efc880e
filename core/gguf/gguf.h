// GGUF files: a validated, memory-mapped reader and a writer.
//
// Layout (little-endian, versions 2 and 3):
//   header   : magic "GGUF" u32 version, u64 n_tensors, u64 n_kv
//   metadata : n_kv x { string key, u32 value_type, value }
//              string = u64 length + bytes (no NUL); array = u32 elem_type, u64 count, elems
//   tensors  : n_tensors x { string name, u32 n_dims, u64 ne[n_dims], u32 type, u64 offset }
//   padding  : to general.alignment (default 32)
//   data     : tensor bytes, each at data_start + offset
//
// File::open() validates everything before it returns: a File object is always complete and
// consistent. Every failure throws FormatError(file, field, reason), where field names the
// place, e.g. "header.version", "metadata[3] 'general.name'.value", "tensor 'output.weight'.offset".
// Rules beyond the layout: version 2 or 3 (a byte-swapped file is recognised and refused);
// counts and lengths capped by Limits and every read checked against the bytes left; keys
// non-empty and unique; no nested arrays; bools 0 or 1; general.alignment a uint32 power of
// two; tensor names non-empty, at most Limits::max_name_len bytes, unique; 1 to 4 dimensions,
// each >= 0, element and byte counts checked for overflow; a known type id; ne[0] a multiple
// of the type's block size; data offsets aligned, increasing in listing order (as ggml
// requires), non-overlapping and inside the file.
#pragma once

#include "gguf/tensor_type.h"
#include "util/mapped_file.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace lmscope::gguf {

enum class ValueType : uint32_t {
    UINT8 = 0, INT8 = 1, UINT16 = 2, INT16 = 3, UINT32 = 4, INT32 = 5, FLOAT32 = 6,
    BOOL = 7, STRING = 8, ARRAY = 9, UINT64 = 10, INT64 = 11, FLOAT64 = 12,
};
std::string_view value_type_name(ValueType t);

// Limits the reader enforces (a hostile file cannot make it allocate more than these allow).
struct Limits {
    uint64_t max_string_len = 1ull << 20;      // one metadata string or key (1 MiB)
    uint64_t max_name_len = 256;               // tensor names
    uint64_t max_array_len = 1ull << 24;       // elements in one metadata array
    uint64_t max_metadata_bytes = 256ull << 20;  // memory all metadata takes (a 256k vocabulary: ~40 MiB)
    uint64_t max_kv = 1ull << 16;              // metadata pairs
    uint64_t max_tensors = 1ull << 16;         // tensor infos
};

// One metadata value. Arrays hold one element type; nested arrays are rejected by the reader.
class Value {
public:
    using Scalar = std::variant<uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t, float,
                                bool, std::string, uint64_t, int64_t, double>;
    struct Array {
        ValueType elem_type = ValueType::UINT8;
        std::vector<Scalar> items;  // every item holds elem_type
    };

    Value() = default;
    explicit Value(Scalar s) : data_(std::move(s)) {}
    explicit Value(Array a) : data_(std::move(a)) {}
    // Convenience constructors for writers and tests.
    static Value string(std::string s) { return Value(Scalar(std::move(s))); }
    static Value array(ValueType elem, std::vector<Scalar> items) {
        return Value(Array{elem, std::move(items)});
    }

    ValueType type() const;
    bool is_array() const { return std::holds_alternative<Array>(data_); }
    const Array& as_array() const;   // throws Error when not an array
    const Scalar& as_scalar() const; // throws Error when an array

    // Loose numeric views: any integer type (range checked) / any float type.
    // They throw Error("... is TYPE, expected ...") on a wrong type; File's getters add the key.
    std::optional<uint64_t> to_uint() const;  // integer types only, nullopt when negative
    std::optional<int64_t> to_int() const;    // integer types only, nullopt when out of range
    std::optional<double> to_double() const;  // float or integer types
    // Short human-readable rendering (arrays abbreviated), for `info` and the GUI.
    std::string to_display(size_t max_items = 8) const;

    const std::variant<Scalar, Array>& data() const { return data_; }

private:
    std::variant<Scalar, Array> data_;
};

struct TensorInfo {
    std::string name;
    TensorType type = TensorType::F32;
    uint32_t n_dims = 0;
    std::array<int64_t, 4> ne{1, 1, 1, 1};  // ne[0] = row length (fastest), unused dims = 1
    uint64_t offset = 0;                     // relative to the data section
    uint64_t n_bytes = 0;
    const uint8_t* data = nullptr;           // inside the mapping (valid while the File lives);
                                             // aligned to the file's alignment (32 unless
                                             // general.alignment says otherwise, possibly 1)

    int64_t n_elements() const { return ne[0] * ne[1] * ne[2] * ne[3]; }
    int64_t n_rows() const { return ne[1] * ne[2] * ne[3]; }
    std::string shape_string() const;  // "[576, 49152]"
};

class File {
public:
    // Memory-maps and validates. Throws IoError or FormatError.
    static File open(const std::string& path, const Limits& limits = {});
    // Validates a buffer that the caller keeps alive while the File is used (fuzzing, tests).
    // `name` stands for the file name in error messages.
    static File from_memory(const uint8_t* data, size_t size, std::string name,
                            const Limits& limits = {});

    const std::string& path() const { return path_; }
    uint32_t version() const { return version_; }
    uint64_t alignment() const { return alignment_; }
    uint64_t data_offset() const { return data_offset_; }  // start of the data section
    uint64_t file_size() const { return size_; }
    const uint8_t* bytes() const { return base_; }         // whole file

    // Metadata in file order.
    const std::vector<std::pair<std::string, Value>>& metadata() const { return kv_; }
    const Value* find(std::string_view key) const;
    bool has(std::string_view key) const { return find(key) != nullptr; }

    // Typed getters. The required forms throw FormatError(file, key, "missing") or
    // FormatError(file, key, "is TYPE, expected ..."); the opt_ forms return nullopt when the
    // key is absent but still throw on a wrong type.
    uint64_t get_uint(std::string_view key) const;
    int64_t get_int(std::string_view key) const;
    double get_float(std::string_view key) const;
    bool get_bool(std::string_view key) const;
    const std::string& get_string(std::string_view key) const;
    std::optional<uint64_t> opt_uint(std::string_view key) const;
    std::optional<int64_t> opt_int(std::string_view key) const;
    std::optional<double> opt_float(std::string_view key) const;
    std::optional<bool> opt_bool(std::string_view key) const;
    std::optional<std::string> opt_string(std::string_view key) const;
    // Arrays: the element type must match (strings; float32/float64 as float; any int type).
    std::vector<std::string> get_string_array(std::string_view key) const;
    std::vector<float> get_float_array(std::string_view key) const;
    std::vector<int64_t> get_int_array(std::string_view key) const;
    size_t array_size(std::string_view key) const;  // throws when missing or not an array

    const std::vector<TensorInfo>& tensors() const { return tensors_; }
    const TensorInfo* find_tensor(std::string_view name) const;
    const TensorInfo& tensor(std::string_view name) const;  // FormatError "missing tensor"

    File(File&&) noexcept = default;
    File& operator=(File&&) noexcept = default;

private:
    File() = default;
    void parse(const Limits& limits);  // fills everything or throws

    std::shared_ptr<MappedFile> map_;  // null for from_memory()
    std::string path_;
    const uint8_t* base_ = nullptr;
    uint64_t size_ = 0;
    uint32_t version_ = 0;
    uint64_t alignment_ = 32;
    uint64_t data_offset_ = 0;
    std::vector<std::pair<std::string, Value>> kv_;
    std::vector<TensorInfo> tensors_;
};

// Builds GGUF files (version 3). Used by tests and tools.
class Writer {
public:
    void set(std::string key, Value value);  // replaces an existing key, keeps order otherwise
    void set_alignment(uint32_t alignment);   // also sets general.alignment
    // Adds a tensor; `data` must hold row_bytes(type, ne[0]) * rows bytes.
    void add_tensor(std::string name, TensorType type, std::vector<int64_t> ne,
                    const void* data, size_t n_bytes);
    // The same, taking the bytes over (no copy).
    void add_tensor(std::string name, TensorType type, std::vector<int64_t> ne, std::vector<uint8_t> data);
    std::vector<uint8_t> to_bytes() const;
    // The bytes of to_bytes(), streamed through a SafeWriter (util/safe_writer.h): atomic, never
    // over a device, a folder or one of `inputs`. Throws IoError (UsageError for an input).
    void write(const std::string& path, const std::vector<std::string>& inputs = {}) const;

private:
    struct PendingTensor {
        std::string name;
        TensorType type;
        std::vector<int64_t> ne;
        std::vector<uint8_t> data;
    };
    std::vector<uint8_t> header_bytes() const;  // up to the data section, padded
    template <class Sink>
    void stream_to(Sink&& sink) const;  // sink(const uint8_t*, size_t) gets the file in order
    uint32_t alignment_ = 32;
    std::vector<std::pair<std::string, Value>> kv_;
    std::vector<PendingTensor> tensors_;
};

}  // namespace lmscope::gguf
