// Owning device and pinned-host arrays. Allocation failures become lmscope::Error ("out of
// device memory: needed N MiB for WHAT"). Internal to gpu/.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

namespace lmscope::gpu {

// Raw allocations; throw on failure, never return null for bytes > 0.
void* device_alloc(size_t bytes, const std::string& what);
void device_free(void* p) noexcept;
void* pinned_alloc(size_t bytes, const std::string& what);
void pinned_free(void* p) noexcept;

// count * size, throwing UsageError on overflow (sizes come from model dimensions).
size_t checked_bytes(size_t count, size_t size, const std::string& what);

// Count elements of T in device (Pinned = false) or page-locked host memory (Pinned = true).
template <class T, bool Pinned>
class Array {
public:
    Array() = default;
    explicit Array(std::string what) : what_(std::move(what)) {}
    Array(const Array&) = delete;
    Array& operator=(const Array&) = delete;
    Array(Array&& o) noexcept { swap(o); }
    Array& operator=(Array&& o) noexcept {
        if (this != &o) {
            release();
            swap(o);
        }
        return *this;
    }
    ~Array() { release(); }

    // Holds at least n elements afterwards. Growing drops the content; geometric = true
    // reserves max(n, 2 x capacity) so steps that grow by one element reallocate rarely.
    void ensure(size_t n, bool geometric = false) {
        if (n <= capacity_) return;
        const size_t want = geometric && 2 * capacity_ > n ? 2 * capacity_ : n;
        release();
        const size_t bytes = checked_bytes(want, sizeof(T), what_);
        p_ = static_cast<T*>(Pinned ? pinned_alloc(bytes, what_) : device_alloc(bytes, what_));
        capacity_ = want;
    }
    void release() noexcept {
        if (p_) Pinned ? pinned_free(p_) : device_free(p_);
        p_ = nullptr;
        capacity_ = 0;
    }

    T* get() const { return p_; }
    size_t capacity() const { return capacity_; }
    size_t bytes() const { return capacity_ * sizeof(T); }
    void set_what(std::string what) { what_ = std::move(what); }

private:
    void swap(Array& o) noexcept {
        std::swap(p_, o.p_);
        std::swap(capacity_, o.capacity_);
        std::swap(what_, o.what_);
    }
    T* p_ = nullptr;
    size_t capacity_ = 0;
    std::string what_;
};

template <class T> using DeviceArray = Array<T, false>;
template <class T> using PinnedArray = Array<T, true>;

}  // namespace lmscope::gpu
