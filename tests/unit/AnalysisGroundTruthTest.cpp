// SPDX-License-Identifier: GPL-3.0-or-later
// The user/kernel inference against a trace whose every tick's true mode is known: random tasks moving
// between CPUs, entering and leaving syscalls and sleeping in them, consistently (a syscall is entered
// from user mode and left from the kernel, a task sleeps in the kernel and wakes there). The analysis
// may leave a tick's mode unknown; it may never give the wrong one.
#include "AnalysisTextTrace.h"
#include "StreamTestUtil.h"

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

// lossy: now and then a CPU loses its events for up to 300 us (a "LOST n EVENTS" line before its next one);
// the tasks go on switching, sleeping and making syscalls there unseen.
Truth movingTasks(unsigned seed, int cpus, int steps, bool lossy = false)
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
    std::vector<double> darkUntil(static_cast<size_t>(cpus), 0.0);
    std::vector<int> lostCount(static_cast<size_t>(cpus), 0);
    const auto shown = [&](int d, double at) { // the CPU's event at `at` is in the trace
        auto &&n = lostCount[static_cast<size_t>(d)];
        if (at < darkUntil[static_cast<size_t>(d)]) {
            ++n;
            return false;
        }
        if (n) out.trace.lost(d, n);
        n = 0;
        return true;
    };
    double ts = 1.0;
    for (int k = 0; k < steps; ++k) {
        ts += u(rng) * 2e-5;
        for (int d = 0; d < cpus; ++d) {
            for (double &t = nextTick[static_cast<size_t>(d)]; t < ts; t += 0.001) {
                const int p = curr[static_cast<size_t>(d)];
                const double at = std::max(t, last[static_cast<size_t>(d)] + 2e-6);
                last[static_cast<size_t>(d)] = at + 4e-6;
                if (!shown(d, at)) continue;
                out.trace.tick(d, at, task(p), ptr + (d < 10 ? "0" : "") + std::to_string(d));
                out.ticks[static_cast<size_t>(d)].push_back(p == 0                         ? TC::Idle
                                                            : user[static_cast<size_t>(p)] ? TC::User
                                                                                           : TC::Kernel);
            }
        }
        const int c = static_cast<int>(rng() % static_cast<unsigned>(cpus));
        ts = std::max(ts, last[static_cast<size_t>(c)] + 2e-6);
        last[static_cast<size_t>(c)] = ts;
        if (lossy && u(rng) < 0.002) darkUntil[static_cast<size_t>(c)] = ts + u(rng) * 3e-4;
        const bool show = shown(c, ts);
        const int from = curr[static_cast<size_t>(c)];
        const bool silent = from >= 1 && from <= 2; // never a syscall: its mode is never shown
        if (from != 0 && !silent && u(rng) < 0.01) {
            auto &&m = user[static_cast<size_t>(from)];
            if (show)
                out.trace.ev(c, ts, task(from),
                             m ? "sys_enter: NR 1 (0, 0, 0, 0, 0, 0)" : "sys_exit: NR 1 = 0");
            m = !m;
            continue;
        }
        std::vector<int> free{0};
        for (int p = 1; p <= tasks; ++p)
            if (on[static_cast<size_t>(p)] < 0) free.push_back(p);
        const int to = free[rng() % free.size()];
        if (to == from) continue;
        const bool sleeps = from != 0 && !user[static_cast<size_t>(from)] && !silent && u(rng) < 0.3;
        if (show) out.trace.sw(c, ts, name(from), from, from == 0 ? "R" : sleeps ? "S" : "R+", name(to), to);
        if (from) on[static_cast<size_t>(from)] = -1;
        if (to) on[static_cast<size_t>(to)] = c; // (a sleeping task wakes in the kernel: its mode stays)
        curr[static_cast<size_t>(c)] = to;
    }
    return out;
}

// No tick of a task may get the wrong mode; over minKnownPercent of them get one (most tasks make
// syscalls).
void expectTrueOrNone(const Truth &t, const Result &r, int cpus, size_t minKnownPercent)
{
    size_t known = 0, wrong = 0, taskTicks = 0;
    for (int c = 0; c < cpus; ++c) {
        const std::vector<TC> got = r.contexts(c);
        const auto &want = t.ticks[static_cast<size_t>(c)];
        ASSERT_EQ(got.size(), want.size()) << "CPU " << c;
        for (size_t k = 0; k < got.size(); ++k) {
            if (want[k] == TC::Idle) continue;
            ++taskTicks;
            if (got[k] != TC::User && got[k] != TC::Kernel) continue;
            ++known;
            if (got[k] != want[k] && ++wrong <= 5)
                ADD_FAILURE() << "CPU " << c << " tick " << k << ": " << static_cast<int>(got[k])
                              << ", truly " << static_cast<int>(want[k]);
        }
    }
    EXPECT_EQ(wrong, 0u) << "of " << known << " given a mode, " << taskTicks << " task ticks";
    EXPECT_GT(known * 100, taskTicks * minKnownPercent)
        << known << " of " << taskTicks << " task ticks given a mode";
}

TEST(AnalysisGroundTruth, MovingTasksGetTheirTrueModeOrNone)
{
    for (unsigned seed : {1u, 2u, 3u}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const Truth t = movingTasks(seed, 4, 40000);
        expectTrueOrNone(t, analyse(t.trace), 4, 50);
    }
}

// A task may have made a syscall, slept or run on a CPU while that CPU's events were lost; its switch-out
// there may be among them.
TEST(AnalysisGroundTruth, MovingTasksGetTheirTrueModeOrNoneWhenCpusLoseEvents)
{
    for (unsigned seed : {1u, 2u, 3u}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const Truth t = movingTasks(seed, 4, 40000, true);
        const Result r = analyse(t.trace);
        size_t gaps = 0;
        for (int c = 0; c < 4; ++c)
            gaps += r.cpu(c).evidence.gaps;
        EXPECT_GT(gaps, 40u);
        // (a task away while a CPU lost events may have run there: its mode is unknown until it shows it;
        // 47-60 % of the task ticks get a mode over 40 seeds, 68 % if that were ignored, with 0.2 % wrong)
        expectTrueOrNone(t, r, 4, 40);
    }
}

// `report --stream` gives the same report on these traces written as trace.dat, in steps of 50 us to 2 ms
// (a step may end while a CPU is still losing events: the page after them is not read yet).
TEST(AnalysisGroundTruth, StreamGivesTheLoadedReportOfMovingTasksWhenCpusLoseEvents)
{
    for (unsigned seed : {1u, 2u}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const Truth t = movingTasks(seed, 4, 20000, true);
        const DatOfText d = datOfText(*t.trace.load(), "lossy.dat");
        size_t gaps = 0;
        for (int c = 0; c < 4; ++c)
            gaps += d.loaded->cpu(c).lost.size();
        ASSERT_GT(gaps, 20u);
        const std::string whole = loadedJson(*d.loaded);
        for (int64_t slice : {50'000, 300'000, 2'000'000})
            EXPECT_EQ(whole, streamedJson(d.path, *d.loaded, slice, SIZE_MAX)) << slice << " ns steps";
    }
}

} // namespace
} // namespace tickscope
