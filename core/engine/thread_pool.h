// A fixed pool of persistent worker threads for the CPU backend's data-parallel loops.
//
// The calling thread takes part as worker 0, so a pool of N threads starts N - 1 workers.
// Workers spin briefly after each job (decode issues a few hundred small jobs per token, and a
// futex wake-up per job would cost more than the work), then sleep on an atomic wait.
//
// Backends share one pool per size in the process (shared()): the step-through session and the
// labs' runs do not each start threads that would fight over the same cores. A backend leases
// the pool for a forward step; another backend's step waits for the lease.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace lmscope::engine {

class ThreadPool {
public:
    // n_threads >= 1 (clamped); 1 means everything runs on the calling thread. When the system
    // refuses to start a thread (its limits on threads or address space), the pool keeps the
    // threads it has: size() is then less than requested().
    explicit ThreadPool(int n_threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    // The process's pool of n_threads (clamped as above): the same pool while anyone holds it.
    static std::shared_ptr<ThreadPool> shared(int n_threads);

    // Exclusive use of the pool until the lease ends (a whole forward step).
    using Lease = std::unique_lock<std::mutex>;
    [[nodiscard]] Lease lease() { return Lease(lease_mutex_); }

    int size() const { return n_threads_; }
    int requested() const { return requested_; }

    // Calls fn(thread_index, n_threads) once on each thread and returns when all are done.
    // fn must not throw (the backend's kernels do not); one job at a time per pool.
    void run(const std::function<void(int, int)>& fn);

    // Splits [0, n) into contiguous chunks, one per thread, rounded to `grain`, and calls
    // fn(begin, end, thread_index) for each non-empty chunk.
    void parallel_for(int64_t n, int64_t grain,
                      const std::function<void(int64_t, int64_t, int)>& fn);

    // Like parallel_for, for loops whose results do not depend on the thread that runs a part:
    // each thread starts on its own contiguous share of [0, n), in parts of `grain` or more, and
    // one that finishes early takes parts from the far end of the others' shares (so a thread
    // the system holds back, or that waits longer on memory, does not hold up the step).
    void parallel_for_balanced(int64_t n, int64_t grain,
                               const std::function<void(int64_t, int64_t, int)>& fn);

private:
    void worker_loop(int index);

    // A thread's share of a balanced loop, as part indices [front, back): its owner takes parts
    // from the front, others from the back, each with one compare-and-swap.
    struct alignas(64) Share {
        std::atomic<uint64_t> range{0};  // front in the low 32 bits, back in the high 32
    };
    std::unique_ptr<Share[]> shares_;  // [n_threads]

    int requested_ = 1;
    int n_threads_ = 1;  // the calling thread and the workers started
    std::vector<std::thread> workers_;
    const std::function<void(int, int)>* job_ = nullptr;
    std::atomic<uint32_t> generation_{0};  // bumped once per job (and at shutdown)
    std::atomic<int> pending_{0};          // workers still running the current job
    std::atomic<bool> stop_{false};
    std::mutex lease_mutex_;
};

}  // namespace lmscope::engine
