// The standard library reports exhausted resources with its own exceptions: std::bad_alloc
// (what() = "std::bad_alloc") and std::system_error (a thread that cannot start: "Resource
// temporarily unavailable"). Neither says what was being done. with_context() runs one phase
// of work and turns them into an lmscope::Error "WHAT: REASON", so the boundary (CLI, GUI slot)
// reports, e.g., "model.gguf: loading the tokenizer: out of memory".
#pragma once

#include "util/error.h"

#include <new>
#include <string>
#include <system_error>

namespace lmscope {

template <class F>
decltype(auto) with_context(const std::string& what, F&& body) {
    try {
        return body();
    } catch (const std::bad_alloc&) {
        throw Error(what + ": out of memory");
    } catch (const std::system_error& e) {
        throw Error(what + ": " + e.what());
    }
}

}  // namespace lmscope
