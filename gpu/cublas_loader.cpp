#include "gpu/cublas_loader.h"

#include "util/error.h"

#include <dlfcn.h>

#include <string>

namespace lmscope::gpu {
namespace {

template <typename F>
void bind(void* lib, const char* symbol, F& out, const std::string& path) {
    out = reinterpret_cast<F>(dlsym(lib, symbol));
    if (!out) throw Error(path + ": missing cuBLAS entry point " + symbol);
}

CublasApi load() {
    const std::string soname = LMSCOPE_CUBLAS_SONAME;
    std::string path = soname;
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const std::string first = dlerror();
        path = std::string(LMSCOPE_CUBLAS_DIR) + "/" + soname;
        lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!lib) throw Error("cuda backend: cannot load " + soname + ": " + first);
    }
    CublasApi api;
    bind(lib, "cublasCreate_v2", api.create, path);
    bind(lib, "cublasDestroy_v2", api.destroy, path);
    bind(lib, "cublasSetStream_v2", api.set_stream, path);
    bind(lib, "cublasGemmEx", api.gemm_ex, path);
    bind(lib, "cublasGetStatusName", api.status_name, path);
    bind(lib, "cublasGetStatusString", api.status_string, path);
    return api;  // the library stays loaded: handles may outlive any one backend
}

}  // namespace

const CublasApi& cublas() {
    static const CublasApi api = load();  // a load that throws is tried again by the next call
    return api;
}

}  // namespace lmscope::gpu
