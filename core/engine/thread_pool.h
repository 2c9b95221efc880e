// A fixed pool of persistent worker threads for the CPU backend's data-parallel loops.
//
// The calling thread takes part, so a pool of N threads starts N - 1 workers. A job is N slots
// (fn(slot, N) for slot 0 .. N-1, each run once, by whichever thread claims it first): the caller
// claims slots too, so a worker the system has not scheduled (another process on its core)
// does not hold up the job; the caller waits only for slots a worker has begun. Per-slot
// scratch (indexed by the slot) is used by one thread at a time.
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

    // Calls fn(slot, n_threads) once for each slot 0 .. n_threads - 1, on the threads that
    // claim them, and returns when all are done. fn must not throw (the backend's kernels do
    // not); one job at a time per pool.
    void run(const std::function<void(int, int)>& fn);

    // Splits [0, n) into contiguous chunks, one per slot, rounded to `grain`, and calls
    // fn(begin, end, slot) for each non-empty chunk.
    void parallel_for(int64_t n, int64_t grain,
                      const std::function<void(int64_t, int64_t, int)>& fn);

    // Like parallel_for, for loops whose results do not depend on the slot that runs a part:
    // each slot starts on its own contiguous share of [0, n), in parts of `grain` or more, and
    // one that finishes early takes parts from the far end of the others' shares (so a thread
    // the system holds back in the middle of its share, or that waits longer on memory, does not
    // hold up the step).
    void parallel_for_balanced(int64_t n, int64_t grain,
                               const std::function<void(int64_t, int64_t, int)>& fn);

private:
    void worker_loop();
    // Claims and runs slots of job `generation` until it has none left.
    void run_slots(uint32_t generation);

    // A slot's share of a balanced loop, as part indices [front, back): its owner takes parts
    // from the front, others from the back, each with one compare-and-swap.
    struct alignas(64) Share {
        std::atomic<uint64_t> range{0};  // front in the low 32 bits, back in the high 32
    };
    std::unique_ptr<Share[]> shares_;  // [slot]

    int requested_ = 1;
    int n_threads_ = 1;  // the calling thread and the workers started
    std::vector<std::thread> workers_;
    const std::function<void(int, int)>* job_ = nullptr;
    std::atomic<uint32_t> generation_{0};  // bumped once per job (and at shutdown)
    std::atomic<uint64_t> next_slot_{0};   // the current job's generation (high 32 bits), its next slot (low)
    std::atomic<int> slots_done_{0};       // slots of the current job finished
    std::atomic<bool> stop_{false};
    std::mutex lease_mutex_;
};

}  // namespace lmscope::engine
