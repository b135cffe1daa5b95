#include "Parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
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
    for (int t = 1; t < threads; ++t) pool.emplace_back(guarded, t);
    guarded(0);
    for (auto &th : pool) th.join();
    for (auto &e : errors) {
        if (e) std::rethrow_exception(e);
    }
}

void parallelFor(size_t count, int threads, const std::function<void(size_t)> &item)
{
    std::atomic<size_t> next{0};
    runThreads(std::clamp<int>(threads, 1, std::max<int>(1, static_cast<int>(count))), [&](int) {
        for (size_t k = next++; k < count; k = next++) item(k);
    });
}

} // namespace tickscope
