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
            workers_.emplace_back([this] { worker_loop(); });
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
    const uint32_t g = generation_.load(std::memory_order_relaxed) + 1;
    job_ = &fn;
    slots_done_.store(0, std::memory_order_relaxed);
    next_slot_.store(uint64_t(g) << 32, std::memory_order_relaxed);
    generation_.store(g, std::memory_order_release);  // publishes the job to the workers
    generation_.notify_all();
    run_slots(g);
    // every slot is claimed: wait for those the workers are running
    int d = slots_done_.load(std::memory_order_acquire);
    for (int spin = 0; d != n_threads_ && spin < kSpinIterations; ++spin) {
        LMSCOPE_PAUSE();
        d = slots_done_.load(std::memory_order_acquire);
    }
    while (d != n_threads_) {  // a worker was descheduled in its slot: sleep until it finishes
        slots_done_.wait(d, std::memory_order_acquire);
        d = slots_done_.load(std::memory_order_acquire);
    }
    job_ = nullptr;
}

void ThreadPool::run_slots(uint32_t generation) {
    const uint64_t tag = uint64_t(generation) << 32;
    uint64_t v = next_slot_.load(std::memory_order_acquire);
    // a claim holds the job open (run() waits for its slot), so job_ stays valid until it is done
    while ((v & ~uint64_t(0xffffffffu)) == tag && int(v & 0xffffffffu) < n_threads_) {
        if (!next_slot_.compare_exchange_weak(v, v + 1, std::memory_order_acq_rel, std::memory_order_acquire)) continue;
        (*job_)(int(v & 0xffffffffu), n_threads_);
        if (slots_done_.fetch_add(1, std::memory_order_acq_rel) + 1 == n_threads_) slots_done_.notify_one();
        v = next_slot_.load(std::memory_order_acquire);
    }
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
    run([&](int slot, int nt) {
        const int64_t per = (n_chunks + nt - 1) / nt;
        const int64_t b = std::min(n, int64_t(slot) * per * grain);
        const int64_t e = std::min(n, int64_t(slot + 1) * per * grain);
        if (b < e) fn(b, e, slot);
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
    // parts: whole grains, few enough per slot (16 or so) that taking them costs little
    grain = std::max<int64_t>(1, grain);
    const int64_t size = grain * std::max<int64_t>(1, n / (int64_t(n_threads_) * 16 * grain));
    const int64_t n_parts = (n + size - 1) / size;
    if (n_threads_ == 1 || n_parts == 1 || n_parts > int64_t(UINT32_MAX)) return parallel_for(n, grain, fn);
    const int nt = n_threads_;
    for (int t = 0; t < nt; ++t)  // published to the workers by run()'s generation bump
        shares_[size_t(t)].range.store(uint64_t(n_parts * t / nt) | (uint64_t(n_parts * (t + 1) / nt) << 32),
                                       std::memory_order_relaxed);
    run([&](int slot, int) {
        int64_t part = 0;
        auto run_part = [&] { fn(part * size, std::min(n, (part + 1) * size), slot); };
        while (take_part(shares_[size_t(slot)].range, true, part)) run_part();
        for (int v = 1; v < nt; ++v)
            while (take_part(shares_[size_t((slot + v) % nt)].range, false, part)) run_part();
    });
}

void ThreadPool::worker_loop() {
    // generation_ starts at 0 and only run() bumps it, so a worker that starts late still
    // sees the first job (or finds its slots taken)
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
        run_slots(g);
    }
}

}  // namespace lmscope::engine
