// SPDX-License-Identifier: GPL-3.0-or-later
// Small thread helpers shared by the importers and the analysis (the work items are few and large, one
// per CPU), and the queue the GUI's background jobs run on.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tickscope {

// Threads to use: `requested` when > 0, else one per hardware thread (at least 1).
int defaultThreads(int requested);

// Runs work(t) for t in [0, threads) on that many threads (the caller's included), joins them all and
// rethrows the first exception.
void runThreads(int threads, const std::function<void(int)> &work);

// Runs item(k) for every k in [0, count), each taken from a shared counter by the next free thread.
void parallelFor(size_t count, int threads, const std::function<void(size_t)> &item);

// parallelFor on threads that live as long as the pool, for work that repeats many times a second
// (a repaint's lanes): no thread is created per call. One call at a time.
class WorkerPool
{
public:
    explicit WorkerPool(int threads); // the caller's thread counts as one
    ~WorkerPool();
    WorkerPool(const WorkerPool &) = delete;
    WorkerPool &operator=(const WorkerPool &) = delete;
    void parallelFor(size_t count, const std::function<void(size_t)> &item);
    // item(k) for k in [0, count) on the helper threads only, returning at once: the caller goes on with
    // its own work beside them. `item` must live until wait() (or the next start or parallelFor, which
    // wait first, and rethrow an exception an item of this one threw). With no helpers (a pool of one
    // thread) nothing runs.
    void start(size_t count, const std::function<void(size_t)> &item);
    // Waits for the items start() handed out; rethrows the first exception one threw.
    void wait();

private:
    void begin(size_t count, const std::function<void(size_t)> &item); // hands the items to the helpers
    void drain();

    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable wake_, finished_;
    const std::function<void(size_t)> *item_ = nullptr;
    size_t count_ = 0;
    std::atomic<size_t> next_{0};
    unsigned job_ = 0; // bumped per call: each helper joins each job once
    int busy_ = 0;     // helpers still in the current job
    bool stop_ = false;
    std::exception_ptr error_;
};

// While one lives on a thread, the parallelFor calls made on that thread with at least the pool's threads
// run on `pool` instead of starting threads per call: for a loop of many small steps (a streamed report
// takes thousands), where creating and joining threads costs more than the work. Calls made from inside
// an item start their own threads as before.
class ScopedPool
{
public:
    explicit ScopedPool(WorkerPool &pool, int threads);
    ~ScopedPool();
    ScopedPool(const ScopedPool &) = delete;
    ScopedPool &operator=(const ScopedPool &) = delete;

private:
    WorkerPool *previousPool_;
    int previousThreads_;
};

// Independent jobs run in the order given on a fixed set of threads (each job on one of them). All the
// hand-offs go through one std::mutex, so ThreadSanitizer sees what a job reads as written before
// submit(). A job that throws is dropped (the exception goes to `onError`). The destructor drops the
// jobs not started and waits for the running ones.
class JobQueue
{
public:
    explicit JobQueue(int threads, std::function<void(const std::exception &)> onError = {});
    ~JobQueue();
    JobQueue(const JobQueue &) = delete;
    JobQueue &operator=(const JobQueue &) = delete;
    void submit(std::function<void()> job);
    // Jobs queued or running.
    int pending() const;

private:
    void serve();

    std::vector<std::thread> threads_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> queue_;
    std::function<void(const std::exception &)> onError_;
    int running_ = 0;
    bool stop_ = false;
};

} // namespace tickscope
