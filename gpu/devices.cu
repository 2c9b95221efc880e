#include "gpu/devices.h"

#include <cuda_runtime.h>

#include <cstdio>

namespace lmscope::gpu {

DeviceReport query_devices() {
    DeviceReport r;
    cudaRuntimeGetVersion(&r.runtime_version);
    if (cudaDriverGetVersion(&r.driver_version) != cudaSuccess || r.driver_version == 0) {
        r.driver_version = 0;
        r.problem = "no CUDA driver";
        return r;
    }
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        r.problem = cudaGetErrorString(err);
        cudaGetLastError();  // clear the sticky error so later calls start clean
        return r;
    }
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) {
            cudaGetLastError();
            continue;
        }
        DeviceInfo d;
        d.index = i;
        d.name = prop.name;
        d.cc_major = prop.major;
        d.cc_minor = prop.minor;
        d.total_memory = prop.totalGlobalMem;
        d.multiprocessors = prop.multiProcessorCount;
        r.devices.push_back(std::move(d));
    }
    if (r.devices.empty()) r.problem = "no CUDA device";
    return r;
}

std::string describe(const DeviceReport& report) {
    std::string s = "cuda: compiled (sm_80, sm_90)";
    if (report.devices.empty()) return s + ", no device (" + report.problem + ")";
    s += ", " + std::to_string(report.devices.size()) +
         (report.devices.size() == 1 ? " device" : " devices");
    for (const DeviceInfo& d : report.devices) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s%s (cc %d.%d, %.1f GiB)",
                      &d == &report.devices.front() ? ": " : "; ", d.name.c_str(), d.cc_major,
                      d.cc_minor, double(d.total_memory) / (1024.0 * 1024.0 * 1024.0));
        s += buf;
    }
    return s;
}

}  // namespace lmscope::gpu
