// A std::allocator replacement for large, long-lived buffers whose sizes grow over a run (the
// trace's attention planes): from kPageAllocatorMin bytes up, each allocation is its own
// anonymous mmap and deallocation unmaps it, so the memory goes back to the system at once.
//
// Why not malloc: glibc raises its mmap threshold to the size of each mmapped chunk freed, so
// after the first dropped plane buffer every later one (about 1 MiB per decode step at 2000
// positions on SmolLM2) comes from the heap. Buffers that grow by a little every step never fit
// the holes the dropped ones leave between the trace's small long-lived records, and the heap
// grows by the trace budget again (measured: 1.03 GiB peak over a 2000-step run against 0.75 GiB
// of model, cache and budget).
#pragma once

#include <cstddef>
#include <new>

namespace lmscope {

inline constexpr size_t kPageAllocatorMin = size_t(64) << 10;  // smaller: operator new

void* page_allocate(size_t bytes);                // throws std::bad_alloc
void page_deallocate(void* p, size_t bytes) noexcept;  // `bytes` as passed to page_allocate

template <typename T>
struct PageAllocator {
    using value_type = T;
    PageAllocator() noexcept = default;
    template <typename U>
    PageAllocator(const PageAllocator<U>&) noexcept {}

    T* allocate(size_t n) {
        if (n > size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
        const size_t bytes = n * sizeof(T);
        if (bytes < kPageAllocatorMin) return static_cast<T*>(::operator new(bytes));
        return static_cast<T*>(page_allocate(bytes));
    }
    void deallocate(T* p, size_t n) noexcept {
        const size_t bytes = n * sizeof(T);
        if (bytes < kPageAllocatorMin) ::operator delete(p);
        else page_deallocate(p, bytes);
    }
    template <typename U>
    bool operator==(const PageAllocator<U>&) const noexcept { return true; }
};

}  // namespace lmscope
