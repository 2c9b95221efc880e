// Fuzzes the GGUF reader: the bytes are a whole file (gguf::File::from_memory). A file that
// validates is then read the way `info` and the GUI read it: every value rendered, the typed
// getters on the keys present, the summary (tolerant hparams) and the first row of each
// tensor dequantized, so anything the validation lets through is used.
#include "fuzz_common.h"

#include "gguf/gguf.h"
#include "gguf/quant.h"
#include "model/summary.h"
#include "util/error.h"

#include <algorithm>
#include <vector>

namespace {

void use_metadata(const lmscope::gguf::File& file) {
    using lmscope::gguf::ValueType;
    for (const auto& [key, value] : file.metadata()) {
        (void)value.to_display();
        try {
            if (value.is_array()) {
                const ValueType t = value.as_array().elem_type;
                if (t == ValueType::STRING) (void)file.get_string_array(key);
                else if (t == ValueType::FLOAT32 || t == ValueType::FLOAT64) (void)file.get_float_array(key);
                else if (t != ValueType::BOOL) (void)file.get_int_array(key);
                (void)file.array_size(key);
            } else {
                (void)file.opt_uint(key);
            }
        } catch (const lmscope::Error&) {
        }
    }
}

void use_tensors(const lmscope::gguf::File& file) {
    std::vector<float> row;  // [ne[0]] of one tensor
    for (const lmscope::gguf::TensorInfo& t : file.tensors()) {
        (void)t.shape_string();
        if (!lmscope::gguf::is_supported(t.type) || t.n_elements() == 0) continue;
        row.resize(size_t(t.ne[0]));
        try {
            lmscope::gguf::dequantize_row(t.type, t.data, row.data(), t.ne[0]);
        } catch (const lmscope::Error&) {
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const lmscope::gguf::File file = lmscope::gguf::File::from_memory(data, size, "fuzz.gguf");
        use_metadata(file);
        use_tensors(file);
        const lmscope::model::ModelSummary summary = lmscope::model::ModelSummary::of(file);
        (void)summary.to_text(true);
        (void)summary.to_json().dump();
    } catch (const lmscope::Error&) {
    }
    return 0;
}
