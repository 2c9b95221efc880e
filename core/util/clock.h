// Elapsed time on the steady clock, the one way the engine and its front ends time things.
#pragma once

#include <chrono>

namespace lmscope {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
inline double ms_since(Clock::time_point t0) { return 1e3 * seconds_since(t0); }

}  // namespace lmscope
