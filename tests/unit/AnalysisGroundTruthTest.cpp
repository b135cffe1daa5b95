// The user/kernel inference against a trace whose every tick's true mode is known: random tasks moving
// between CPUs, entering and leaving syscalls and sleeping in them, consistently (a syscall is entered
// from user mode and left from the kernel, a task sleeps in the kernel and wakes there). The analysis
// may leave a tick's mode unknown; it may never give the wrong one.
#include "AnalysisTextTrace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace tickscope {
namespace {

using namespace test;

struct Truth
{
    TextTrace trace;
    std::vector<std::vector<TC>> ticks; // per CPU, in time order
};

Truth movingTasks(unsigned seed, int cpus, int steps)
{
    const int tasks = cpus + 4;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    Truth out;
    out.ticks.resize(static_cast<size_t>(cpus));
    std::vector<int> curr(static_cast<size_t>(cpus), 0), on(static_cast<size_t>(tasks) + 1, -1);
    std::vector<bool> user(static_cast<size_t>(tasks) + 1);
    for (auto &&m : user)
        m = u(rng) < 0.5;
    const auto name = [](int p) { return p ? "t" + std::to_string(p) : std::string("swapper"); };
    const auto task = [&](int p) { return name(p) + "-" + std::to_string(p); };
    std::vector<double> nextTick(static_cast<size_t>(cpus));
    for (int c = 0; c < cpus; ++c)
        nextTick[static_cast<size_t>(c)] = 1.0 + 0.001 * (c + 1) / cpus;
    const std::string ptr = "00000000aaaa00";
    // (a tick's five events take 4 us: a CPU's next event comes 2 us after its last, so that no switch or
    // syscall falls inside a tick and each event's microsecond is its own)
    std::vector<double> last(static_cast<size_t>(cpus), 1.0);
    double ts = 1.0;
    for (int k = 0; k < steps; ++k) {
        ts += u(rng) * 2e-5;
        for (int d = 0; d < cpus; ++d) {
            for (double &t = nextTick[static_cast<size_t>(d)]; t < ts; t += 0.001) {
                const int p = curr[static_cast<size_t>(d)];
                const double at = std::max(t, last[static_cast<size_t>(d)] + 2e-6);
                last[static_cast<size_t>(d)] = at + 4e-6;
                out.trace.tick(d, at, task(p), ptr + (d < 10 ? "0" : "") + std::to_string(d));
                out.ticks[static_cast<size_t>(d)].push_back(p == 0                         ? TC::Idle
                                                            : user[static_cast<size_t>(p)] ? TC::User
                                                                                           : TC::Kernel);
            }
        }
        const int c = static_cast<int>(rng() % static_cast<unsigned>(cpus));
        ts = std::max(ts, last[static_cast<size_t>(c)] + 2e-6);
        last[static_cast<size_t>(c)] = ts;
        const int from = curr[static_cast<size_t>(c)];
        const bool silent = from >= 1 && from <= 2; // never a syscall: its mode is never shown
        if (from != 0 && !silent && u(rng) < 0.01) {
            auto &&m = user[static_cast<size_t>(from)];
            out.trace.ev(c, ts, task(from), m ? "sys_enter: NR 1 (0, 0, 0, 0, 0, 0)" : "sys_exit: NR 1 = 0");
            m = !m;
            continue;
        }
        std::vector<int> free{0};
        for (int p = 1; p <= tasks; ++p)
            if (on[static_cast<size_t>(p)] < 0) free.push_back(p);
        const int to = free[rng() % free.size()];
        if (to == from) continue;
        const bool sleeps = from != 0 && !user[static_cast<size_t>(from)] && !silent && u(rng) < 0.3;
        out.trace.sw(c, ts, name(from), from, from == 0 ? "R" : sleeps ? "S" : "R+", name(to), to);
        if (from) on[static_cast<size_t>(from)] = -1;
        if (to) on[static_cast<size_t>(to)] = c; // (a sleeping task wakes in the kernel: its mode stays)
        curr[static_cast<size_t>(c)] = to;
    }
    return out;
}

TEST(AnalysisGroundTruth, MovingTasksGetTheirTrueModeOrNone)
{
    for (unsigned seed : {1u, 2u, 3u}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const Truth t = movingTasks(seed, 4, 40000);
        const Result r = analyse(t.trace);
        size_t known = 0, wrong = 0, taskTicks = 0;
        for (int c = 0; c < 4; ++c) {
            const std::vector<TC> got = r.contexts(c);
            const auto &want = t.ticks[static_cast<size_t>(c)];
            ASSERT_EQ(got.size(), want.size()) << "CPU " << c;
            for (size_t k = 0; k < got.size(); ++k) {
                if (want[k] == TC::Idle) continue;
                ++taskTicks;
                if (got[k] != TC::User && got[k] != TC::Kernel) continue;
                ++known;
                if (got[k] != want[k]) {
                    ++wrong;
                    ADD_FAILURE() << "CPU " << c << " tick " << k << ": " << static_cast<int>(got[k])
                                  << ", truly " << static_cast<int>(want[k]);
                    if (wrong > 5) return;
                }
            }
        }
        EXPECT_EQ(wrong, 0u);
        // (not all left unknown: most of the tasks make syscalls)
        EXPECT_GT(known * 2, taskTicks) << known << " of " << taskTicks << " task ticks given a mode";
    }
}

} // namespace
} // namespace tickscope
