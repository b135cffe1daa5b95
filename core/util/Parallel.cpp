// SPDX-License-Identifier: GPL-3.0-or-later
#include "Parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace tickscope {

int defaultThreads(int requested)
{
    return requested > 0 ? requested : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

void runThreads(int threads, const std::function<void(int)> &work)
{
    threads = std::max(1, threads);
    std::vector<std::exception_ptr> errors(static_cast<size_t>(threads));
    auto guarded = [&](int t) {
        try {
            work(t);
        } catch (...) {
            errors[static_cast<size_t>(t)] = std::current_exception();
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(guarded, t);
    guarded(0);
    for (auto &th : pool)
        th.join();
    for (auto &e : errors) {
        if (e) std::rethrow_exception(e);
    }
}

namespace {
struct CurrentPool
{
    WorkerPool *pool = nullptr;
    int threads = 0;
};
thread_local CurrentPool current;
} // namespace

ScopedPool::ScopedPool(WorkerPool &pool, int threads)
    : previousPool_(current.pool), previousThreads_(current.threads)
{
    current = {&pool, threads};
}

ScopedPool::~ScopedPool()
{
    current = {previousPool_, previousThreads_};
}

void parallelFor(size_t count, int threads, const std::function<void(size_t)> &item)
{
    if (current.pool && count > 1 && threads >= current.threads) {
        const CurrentPool mine = current;
        current = {}; // an item run on this thread that calls parallelFor starts its own threads
        try {
            mine.pool->parallelFor(count, item);
        } catch (...) {
            current = mine;
            throw;
        }
        current = mine;
        return;
    }
    std::atomic<size_t> next{0};
    runThreads(std::clamp<int>(threads, 1, std::max<int>(1, static_cast<int>(count))), [&](int) {
        for (size_t k = next++; k < count; k = next++)
            item(k);
    });
}

WorkerPool::WorkerPool(int threads)
{
    for (int t = 1; t < std::max(1, threads); ++t) {
        threads_.emplace_back([this] {
            unsigned seen = 0;
            std::unique_lock lock(mutex_);
            while (true) {
                wake_.wait(lock, [&] { return stop_ || job_ != seen; });
                if (stop_) return;
                seen = job_;
                lock.unlock();
                drain();
                lock.lock();
                if (--busy_ == 0) finished_.notify_all();
            }
        });
    }
}

WorkerPool::~WorkerPool()
{
    {
        const std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (auto &t : threads_)
        t.join();
}

void WorkerPool::drain()
{
    try {
        for (size_t k = next_++; k < count_; k = next_++)
            (*item_)(k);
    } catch (...) {
        const std::lock_guard lock(mutex_);
        if (!error_) error_ = std::current_exception();
        next_ = count_; // the others stop at their next item
    }
}

void WorkerPool::begin(size_t count, const std::function<void(size_t)> &item)
{
    wait();
    {
        const std::lock_guard lock(mutex_);
        item_ = &item;
        count_ = count;
        next_ = 0;
        error_ = nullptr;
        busy_ = static_cast<int>(threads_.size());
        ++job_;
    }
    wake_.notify_all();
}

void WorkerPool::start(size_t count, const std::function<void(size_t)> &item)
{
    if (!threads_.empty()) begin(count, item);
}

void WorkerPool::wait()
{
    std::unique_lock lock(mutex_);
    finished_.wait(lock, [&] { return busy_ == 0; });
    item_ = nullptr;
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void WorkerPool::parallelFor(size_t count, const std::function<void(size_t)> &item)
{
    begin(count, item);
    drain();
    wait();
}

JobQueue::JobQueue(int threads, std::function<void(const std::exception &)> onError)
    : onError_(std::move(onError))
{
    for (int t = 0; t < std::max(1, threads); ++t)
        threads_.emplace_back([this] { serve(); });
}

JobQueue::~JobQueue()
{
    {
        const std::lock_guard lock(mutex_);
        stop_ = true;
        queue_.clear();
    }
    wake_.notify_all();
    for (auto &t : threads_)
        t.join();
}

void JobQueue::submit(std::function<void()> job)
{
    {
        const std::lock_guard lock(mutex_);
        queue_.push_back(std::move(job));
    }
    wake_.notify_one();
}

int JobQueue::pending() const
{
    const std::lock_guard lock(mutex_);
    return static_cast<int>(queue_.size()) + running_;
}

void JobQueue::serve()
{
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
        if (stop_) return;
        std::function<void()> job = std::move(queue_.front());
        queue_.pop_front();
        ++running_;
        lock.unlock();
        try {
            job();
        } catch (const std::exception &e) {
            if (onError_) onError_(e);
        } catch (...) {
            if (onError_) onError_(std::runtime_error("unknown exception"));
        }
        job = nullptr; // its captures go before the job counts as done
        lock.lock();
        --running_;
    }
}

} // namespace tickscope
