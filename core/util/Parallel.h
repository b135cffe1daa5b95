// Small thread helpers shared by the importers and the analysis (no thread pool: the work items are
// few and large, one per CPU).
#pragma once

#include <cstddef>
#include <functional>

namespace tickscope {

// Threads to use: `requested` when > 0, else one per hardware thread (at least 1).
int defaultThreads(int requested);

// Runs work(t) for t in [0, threads) on that many threads (the caller's included), joins them all and
// rethrows the first exception.
void runThreads(int threads, const std::function<void(int)> &work);

// Runs item(k) for every k in [0, count), each taken from a shared counter by the next free thread.
void parallelFor(size_t count, int threads, const std::function<void(size_t)> &item);

} // namespace tickscope
