// What the KV cache lab's panels share: the shape and settings chosen in the formula panel
// (KvChoice), the cache types' names, and number formatting in
// decimal (GB, as GPU memory is sold) and binary (GiB) units.
#pragma once

#include "kv/kv_math.h"
#include "widgets/format.h"  // type_name_text: a KV type's name as the lab shows it

#include <QString>

#include <cstdint>

namespace lmscope::gui::labs {

// The formula panel's current values.
struct KvChoice {
    kv::Shape shape;                         // layers, query heads, kv heads, head dim
    KvType type = KvType::F16;
    uint64_t tokens = 1;                     // context length per sequence
    uint64_t batch = 1;                      // sequences
    uint64_t n_params = 0;                   // parameters, for the weights' size
    QString label;                           // "Llama 3.1 70B", the loaded model's name, "custom"
    bool loaded_model = false;               // the shape is the loaded model's (its live run belongs here)
    bool valid = false;                      // kv::validate accepted the shape for `type`
};

QString cache_type_label(KvType type);  // "fp16", "int8 (q8_0)", "int4 (q4_0)" (translated)
QString attention_kind_label(kv::AttentionKind kind);  // "MHA", "GQA", "MQA"

// "42.95 GB" (10^9 bytes), "0.1887 GB": two decimals from 1 GB on, four below.
QString format_gb(uint64_t bytes);
// "40.00 GiB" (2^30 bytes), same precision rule.
QString format_gib(uint64_t bytes);
// "42,949,672,960" in the user's locale.
QString format_byte_count(uint64_t bytes);
// Picks the unit: "512 B", "12.6 kB", "188.7 MB", "42.95 GB", "1.23 TB" (decimal units).
QString format_si_bytes(uint64_t bytes);

inline constexpr double kGB = 1e9;

}  // namespace lmscope::gui::labs
