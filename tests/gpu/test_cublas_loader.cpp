// cuBLAS is loaded by the CUDA backend when it is first needed, not when the program starts
// (gpu/cublas_loader.h): a CPU-only run never maps it. Runs without a device: loading the
// library and asking it for a status name need no driver.
#include "gpu/cublas_loader.h"

#include <QtTest>

#include <fstream>
#include <string>

namespace {

// Whether a library whose file name starts with `prefix` is mapped into this process.
bool mapped(const std::string& prefix) {
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        const size_t slash = line.rfind('/');
        if (slash != std::string::npos && line.compare(slash + 1, prefix.size(), prefix) == 0) return true;
    }
    return false;
}

}  // namespace

class TestCublasLoader : public QObject {
    Q_OBJECT
private slots:
    // Declared first: Qt Test runs the functions in this order.
    void notMappedAtStart() {
        QVERIFY2(!mapped("libcublas"), "libcublas is mapped before the backend asked for it");
    }

    void loadsOnFirstUse() {
        const lmscope::gpu::CublasApi& api = lmscope::gpu::cublas();
        QVERIFY(mapped("libcublas"));
        QVERIFY(api.create && api.destroy && api.set_stream && api.gemm_ex && api.status_name &&
                api.status_string);
        QCOMPARE(std::string(api.status_name(CUBLAS_STATUS_NOT_INITIALIZED)),
                 std::string("CUBLAS_STATUS_NOT_INITIALIZED"));
        QCOMPARE(&lmscope::gpu::cublas(), &api);  // loaded once
    }
};

QTEST_APPLESS_MAIN(TestCublasLoader)
#include "test_cublas_loader.moc"
