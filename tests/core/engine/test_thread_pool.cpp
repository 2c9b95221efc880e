// ThreadPool's jobs and loops: run() runs every slot once, one thread in a slot at a time;
// parallel_for and parallel_for_balanced run every index once, in parts on `grain` boundaries,
// for any thread count; a balanced loop's other slots take the parts of one that is held back.
#include "engine/thread_pool.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

using namespace lmscope::engine;

class TestThreadPool : public QObject {
    Q_OBJECT
private slots:
    void each_index_once_data() {
        QTest::addColumn<int>("threads");
        QTest::addColumn<qint64>("n");
        QTest::addColumn<qint64>("grain");
        QTest::addColumn<bool>("balanced");
        const struct { int threads; qint64 n, grain; } cases[] = {
            {1, 10, 1}, {2, 1, 1}, {2, 7, 3}, {2, 1000, 1}, {3, 100000, 16}, {4, 33, 1}, {8, 5, 1}, {3, 64, 64},
        };
        for (bool balanced : {false, true})
            for (const auto& c : cases)
                QTest::addRow("%s, %d threads, n %lld, grain %lld", balanced ? "balanced" : "plain", c.threads,
                              static_cast<long long>(c.n), static_cast<long long>(c.grain))
                    << c.threads << c.n << c.grain << balanced;
    }
    void each_index_once() {
        QFETCH(int, threads);
        QFETCH(qint64, n);
        QFETCH(qint64, grain);
        QFETCH(bool, balanced);
        ThreadPool pool(threads);
        auto seen = std::make_unique<std::atomic<int>[]>(size_t(n));
        std::atomic<bool> off_grain{false}, bad_thread{false};
        auto body = [&](int64_t b, int64_t e, int ti) {
            if (b % grain != 0) off_grain = true;
            if (ti < 0 || ti >= pool.size()) bad_thread = true;
            for (int64_t i = b; i < e; ++i) seen[size_t(i)].fetch_add(1);
        };
        for (int round = 0; round < 3; ++round) {  // the shares are set afresh for each loop
            for (int64_t i = 0; i < n; ++i) seen[size_t(i)] = 0;
            if (balanced) pool.parallel_for_balanced(n, grain, body);
            else pool.parallel_for(n, grain, body);
            for (int64_t i = 0; i < n; ++i) QVERIFY2(seen[size_t(i)] == 1, qPrintable(QString("index %1 ran %2 times").arg(i).arg(seen[size_t(i)].load())));
        }
        QVERIFY(!off_grain);
        QVERIFY(!bad_thread);
    }

    // run(): each slot once per job, over many jobs back to back (workers arriving late find
    // their slots taken by the caller), and never two threads in one slot at a time (the slots'
    // scratch is theirs alone).
    void run_each_slot_once_data() {
        QTest::addColumn<int>("threads");
        for (int t : {1, 2, 3, 5}) QTest::addRow("%d threads", t) << t;
    }
    void run_each_slot_once() {
        QFETCH(int, threads);
        ThreadPool pool(threads);
        const int nt = pool.size();
        auto ran = std::make_unique<std::atomic<int>[]>(size_t(nt));
        auto inside = std::make_unique<std::atomic<int>[]>(size_t(nt));
        std::atomic<bool> shared_slot{false}, bad{false};
        for (int job = 0; job < 2000; ++job) {
            for (int s = 0; s < nt; ++s) ran[size_t(s)] = 0;
            pool.run([&](int slot, int n) {
                if (n != nt || slot < 0 || slot >= nt) {
                    bad = true;
                    return;
                }
                if (inside[size_t(slot)].fetch_add(1) != 0) shared_slot = true;
                volatile int sink = 0;
                for (int spin = 0; spin < (job % 7) * 50; ++spin) sink = sink + spin;  // uneven slots
                ran[size_t(slot)].fetch_add(1);
                inside[size_t(slot)].fetch_sub(1);
            });
            for (int s = 0; s < nt; ++s) QVERIFY2(ran[size_t(s)] == 1, qPrintable(QString("job %1: slot %2 ran %3 times").arg(job).arg(s).arg(ran[size_t(s)].load())));
        }
        QVERIFY(!bad);
        QVERIFY(!shared_slot);
    }

    // Slot 0 is held on the first part it runs until another slot runs a part of its share (or 5 s
    // pass): the balanced loop's other slot takes them from the far end.
    void balanced_takes_a_held_threads_parts() {
        ThreadPool pool(2);
        if (pool.size() < 2) QSKIP("the system gave the pool one thread");
        constexpr int64_t n = 64;
        std::atomic<bool> taken{false}, held{false};
        std::atomic<int> ran{0};
        pool.parallel_for_balanced(n, 1, [&](int64_t b, int64_t e, int ti) {
            if (ti == 0 && !held.exchange(true)) {
                const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
                while (!taken && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            } else if (b < n / 2) {
                taken = true;
            }
            ran += int(e - b);
        });
        QVERIFY(taken);
        QCOMPARE(ran.load(), int(n));
    }
};

QTEST_GUILESS_MAIN(TestThreadPool)
#include "test_thread_pool.moc"
