// Repacking GGUF weight rows into the x16 layouts the packed kernels read
// (engine/pack_formats.h for the x formats, engine/kernels.h for Q4_0 / Q4_1 / Q8_0).
#pragma once

#include "engine/pack_formats.h"

#include <cstddef>
#include <cstdint>

namespace lmscope::engine {

// One row's block (or super-block) of an x format in integer form: element e is
//   D * sc[e / 16] * (q[e] - offset) - M * mn[e / 16]     (codebook types: table[q[e]])
// as pack_formats.h defines it (min kind Block: + M, mn unused).
struct XBlock {
    uint16_t d = 0, m = 0;  // f16 bits of D and M, as the file stores them
    int8_t sc[16] = {};     // [e / 16] (Per32: equal in pairs; None: 1)
    int8_t mn[16] = {};     // [e / 16]
    uint8_t q[256] = {};    // [super] unsigned quant (or codebook index)
};

// Decodes block `b` (of the format's own size) into integers.
void unpack_x_block(kernels::PackFormat f, const uint8_t* block, XBlock& out);

// Writes n_out rows of n_in elements (row_bytes apart, in the GGUF type of format f) as x16
// chunks to dst: [ceil(n_out / 16)][n_in / elements_per_chunk(f)][chunk_bytes(f)]; dst holds
// that many zeroed bytes (rows past n_out stay zero).
void pack_rows(kernels::PackFormat f, const uint8_t* rows, size_t row_bytes, int64_t n_out, int64_t n_in, uint8_t* dst);

}  // namespace lmscope::engine
