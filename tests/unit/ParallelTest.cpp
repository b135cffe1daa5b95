// SPDX-License-Identifier: GPL-3.0-or-later
// The thread helpers: the GUI's job queue runs every job once, in order per thread, reports a job's
// exception and goes on, and drops what has not started when it is destroyed.
#include "util/Parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace tickscope;

TEST(JobQueue, RunsEveryJobOnceAndHandsItsResultsOver)
{
    std::vector<int> results(200, 0); // plain ints: the queue's mutex orders the writes and the reads
    std::atomic<int> done{0};
    {
        JobQueue q(3);
        for (int k = 0; k < 200; ++k)
            q.submit([&results, &done, k] {
                results[static_cast<size_t>(k)] += k * k;
                ++done;
            });
        while (q.pending() > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    EXPECT_EQ(done.load(), 200);
    for (int k = 0; k < 200; ++k)
        EXPECT_EQ(results[static_cast<size_t>(k)], k * k) << k;
}

TEST(JobQueue, AThrowingJobIsReportedAndTheOthersRun)
{
    std::mutex m;
    std::vector<std::string> errors;
    std::atomic<int> ran{0};
    {
        JobQueue q(1, [&](const std::exception &e) {
            const std::lock_guard lock(m);
            errors.push_back(e.what());
        });
        q.submit([] { throw std::runtime_error("job 1 failed"); });
        q.submit([&] { ++ran; });
        while (q.pending() > 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    EXPECT_EQ(ran.load(), 1);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0], "job 1 failed");
}

TEST(JobQueue, DestructionWaitsForTheRunningJobAndDropsTheQueuedOnes)
{
    std::mutex m;
    std::condition_variable cv;
    bool started = false, release = false;
    std::atomic<int> finished{0}, late{0};
    std::thread releaser;
    {
        JobQueue q(1);
        q.submit([&] {
            {
                std::unique_lock lock(m);
                started = true;
                cv.notify_all();
                cv.wait(lock, [&] { return release; });
            }
            ++finished;
        });
        for (int k = 0; k < 5; ++k)
            q.submit([&] { ++late; });
        {
            std::unique_lock lock(m);
            cv.wait(lock, [&] { return started; });
        }
        EXPECT_EQ(q.pending(), 6);
        // Released once the destructor below holds the queue (it takes microseconds; 100 ms is the margin).
        releaser = std::thread([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            const std::lock_guard lock(m);
            release = true;
            cv.notify_all();
        });
    } // the destructor: the running job ends, the five queued never start
    releaser.join();
    EXPECT_EQ(finished.load(), 1);
    EXPECT_EQ(late.load(), 0);
}
