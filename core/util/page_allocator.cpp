#include "util/page_allocator.h"

#include <sys/mman.h>

namespace lmscope {

void* page_allocate(size_t bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return p;
}

void page_deallocate(void* p, size_t bytes) noexcept {
    if (p) munmap(p, bytes);
}

}  // namespace lmscope
