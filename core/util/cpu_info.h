// What the CPU offers, detected at run time (the engine picks its kernels from this).
#pragma once

#include <string>

namespace lmscope {

struct CpuFeatures {
    bool avx2 = false;
    bool fma = false;
    bool f16c = false;
    bool avx512f = false;
    bool avx512bw = false;
    bool avx512vl = false;
    bool avx512vnni = false;
};

const CpuFeatures& cpu_features();  // detected once
int hardware_threads();             // logical cores usable by this process (>= 1)
// "avx512 (f, bw, vl, vnni), 2 threads"
std::string describe_cpu();

}  // namespace lmscope
