// Registers the backends this build compiled beyond the CPU one (today: "cuda", from gpu/)
// with engine::register_backend, so engine::make_backend("cuda", ...) finds them. Call once
// at start-up, before any backend is made (lmscope-cli's main, the GUI's main).
#pragma once

namespace lmscope::app {

// Without LMSCOPE_HAVE_CUDA this registers nothing and engine::make_backend("cuda", ...)
// throws its "not available in this build" error. With it, "cuda" makes a CudaBackend on
// device 0; failures to start (no driver, no device, out of device memory) throw
// lmscope::Error with the reason, which callers may report and answer with the CPU backend.
void register_compiled_backends();

}  // namespace lmscope::app
