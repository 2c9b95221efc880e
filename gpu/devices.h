// What the CUDA runtime sees on this machine. Plain C++ header (callers need no nvcc).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace lmscope::gpu {

struct DeviceInfo {
    int index = 0;
    std::string name;
    int cc_major = 0, cc_minor = 0;   // compute capability
    size_t total_memory = 0;          // bytes
    int multiprocessors = 0;
};

struct DeviceReport {
    std::vector<DeviceInfo> devices;  // empty when none is usable
    int driver_version = 0;           // e.g. 12080 for 12.8; 0 when no driver
    int runtime_version = 0;
    std::string problem;              // why no device is usable ("no CUDA driver", ...)
};

// Queries the CUDA runtime; never throws, never aborts (a missing driver is a report).
DeviceReport query_devices();

// "cuda: compiled (sm_80, sm_90), 1 device: NVIDIA H200 (cc 9.0, 139.8 GiB)" or
// "cuda: compiled (sm_80, sm_90), no device (no CUDA driver)".
std::string describe(const DeviceReport& report);

}  // namespace lmscope::gpu
