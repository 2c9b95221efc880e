#include "util/cpu_info.h"

#include <sched.h>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace lmscope {

const CpuFeatures& cpu_features() {
    static const CpuFeatures features = [] {
        CpuFeatures f;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_cpu_init();
        f.avx2 = __builtin_cpu_supports("avx2");
        f.fma = __builtin_cpu_supports("fma");
        // F16C is CPUID leaf 1, ECX bit 29 (clang's __builtin_cpu_supports does not know it).
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        f.f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & (1u << 29)) != 0;
        f.avx512f = __builtin_cpu_supports("avx512f");
        f.avx512bw = __builtin_cpu_supports("avx512bw");
        f.avx512vl = __builtin_cpu_supports("avx512vl");
        f.avx512vnni = __builtin_cpu_supports("avx512vnni");
#endif
        return f;
    }();
    return features;
}

int hardware_threads() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0) return n;
    }
    unsigned n = std::thread::hardware_concurrency();
    return n > 0 ? static_cast<int>(n) : 1;
}

std::string describe_cpu() {
    const CpuFeatures& f = cpu_features();
    std::string s;
    if (f.avx512f) {
        s = "avx512 (f";
        if (f.avx512bw) s += ", bw";
        if (f.avx512vl) s += ", vl";
        if (f.avx512vnni) s += ", vnni";
        s += ")";
    } else if (f.avx2 && f.fma) {
        s = "avx2 + fma";
    } else {
        s = "portable (no avx2)";
    }
    return s + ", " + std::to_string(hardware_threads()) + " threads";
}

}  // namespace lmscope
