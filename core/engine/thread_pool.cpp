#include "engine/thread_pool.h"

#include <algorithm>
#include <map>
#include <system_error>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LMSCOPE_PAUSE() _mm_pause()
#else
#define LMSCOPE_PAUSE() std::this_thread::yield()
#endif

namespace lmscope::engine {

namespace {
// Spin iterations (pause instructions) before sleeping: some tens of microseconds, longer than
// the gap between the jobs of one forward step, short enough not to starve other processes.
constexpr int kSpinIterations = 2000;
}  // namespace

ThreadPool::ThreadPool(int n_threads) : requested_(std::max(1, n_threads)), n_threads_(requested_) {
    workers_.reserve(size_t(requested_ - 1));
    for (int i = 1; i < requested_; ++i) {
        try {
            workers_.emplace_back([this, i] { worker_loop(i); });
        } catch (const std::system_error&) {
            break;  // no more threads: the pool runs on those it has
        }
    }
    // Before any job: the workers read it only in run(), after its generation bump.
    n_threads_ = int(workers_.size()) + 1;
    shares_ = std::make_unique<Share[]>(size_t(n_threads_));
}

std::shared_ptr<ThreadPool> ThreadPool::shared(int n_threads) {
    static std::mutex mutex;
    static std::map<int, std::weak_ptr<ThreadPool>> pools;  // by size
    const int n = std::max(1, n_threads);
    std::lock_guard lock(mutex);
    if (std::shared_ptr<ThreadPool> pool = pools[n].lock()) return pool;
    auto pool = std::make_shared<ThreadPool>(n);
    pools[n] = pool;
    return pool;
}

ThreadPool::~ThreadPool() {
    stop_.store(true, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_acq_rel);
    generation_.notify_all();
    for (std::thread& t : workers_) t.join();
}

void ThreadPool::run(const std::function<void(int, int)>& fn) {
    if (n_threads_ == 1) {
        fn(0, 1);
        return;
    }
    job_ = &fn;
    pending_.store(n_threads_ - 1, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_acq_rel);
    generation_.notify_all();
    fn(0, n_threads_);
    int p = pending_.load(std::memory_order_acquire);
    for (int spin = 0; p != 0 && spin < kSpinIterations; ++spin) {
        LMSCOPE_PAUSE();
        p = pending_.load(std::memory_order_acquire);
    }
    while (p != 0) {  // a worker was descheduled: sleep until the last one finishes
        pending_.wait(p, std::memory_order_acquire);
        p = pending_.load(std::memory_order_acquire);
    }
    job_ = nullptr;
}

void ThreadPool::parallel_for(int64_t n, int64_t grain,
                              const std::function<void(int64_t, int64_t, int)>& fn) {
    if (n <= 0) return;
    grain = std::max<int64_t>(1, grain);
    const int64_t n_chunks = (n + grain - 1) / grain;
    if (n_threads_ == 1 || n_chunks == 1) {
        fn(0, n, 0);
        return;
    }
    run([&](int ti, int nt) {
        const int64_t per = (n_chunks + nt - 1) / nt;
        const int64_t b = std::min(n, int64_t(ti) * per * grain);
        const int64_t e = std::min(n, int64_t(ti + 1) * per * grain);
        if (b < e) fn(b, e, ti);
    });
}

namespace {

// Takes the part at the front (the share's owner) or the back (another thread) of a share.
bool take_part(std::atomic<uint64_t>& range, bool front, int64_t& part) {
    uint64_t v = range.load(std::memory_order_relaxed);
    for (;;) {
        const uint64_t f = v & 0xffffffffu, b = v >> 32;
        if (f >= b) return false;
        const uint64_t next = front ? v + 1 : ((b - 1) << 32) | f;
        if (range.compare_exchange_weak(v, next, std::memory_order_relaxed)) {
            part = int64_t(front ? f : b - 1);
            return true;
        }
    }
}

}  // namespace

void ThreadPool::parallel_for_balanced(int64_t n, int64_t grain,
                                       const std::function<void(int64_t, int64_t, int)>& fn) {
    if (n <= 0) return;
    // parts: whole grains, few enough per thread (16 or so) that taking them costs little
    grain = std::max<int64_t>(1, grain);
    const int64_t size = grain * std::max<int64_t>(1, n / (int64_t(n_threads_) * 16 * grain));
    const int64_t n_parts = (n + size - 1) / size;
    if (n_threads_ == 1 || n_parts == 1 || n_parts > int64_t(UINT32_MAX)) return parallel_for(n, grain, fn);
    const int nt = n_threads_;
    for (int t = 0; t < nt; ++t)  // published to the workers by run()'s generation bump
        shares_[size_t(t)].range.store(uint64_t(n_parts * t / nt) | (uint64_t(n_parts * (t + 1) / nt) << 32),
                                       std::memory_order_relaxed);
    run([&](int ti, int) {
        int64_t part = 0;
        auto run_part = [&] { fn(part * size, std::min(n, (part + 1) * size), ti); };
        while (take_part(shares_[size_t(ti)].range, true, part)) run_part();
        for (int v = 1; v < nt; ++v)
            while (take_part(shares_[size_t((ti + v) % nt)].range, false, part)) run_part();
    });
}

void ThreadPool::worker_loop(int index) {
    // generation_ starts at 0 and only run() bumps it, so a worker that starts late still
    // sees the first job
    uint32_t seen = 0;
    for (;;) {
        uint32_t g = generation_.load(std::memory_order_acquire);
        for (int spin = 0; g == seen && spin < kSpinIterations; ++spin) {
            LMSCOPE_PAUSE();
            g = generation_.load(std::memory_order_acquire);
        }
        while (g == seen) {
            generation_.wait(seen, std::memory_order_acquire);
            g = generation_.load(std::memory_order_acquire);
        }
        seen = g;
        if (stop_.load(std::memory_order_acquire)) return;
        (*job_)(index, n_threads_);
        if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_one();
    }
}

}  // namespace lmscope::engine
