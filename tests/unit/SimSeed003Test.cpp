// SPDX-License-Identifier: GPL-3.0-or-later
// Seed 003 (PREEMPT_RT, "Use softirq based wakeups for non-RT threads"): the rows of issue 4 item 5 on the
// seed003-rt-hrtimer preset at a fixed seed: cyclictest max latency, all-hard versus soft-for-non-RT
// wakeups, on the Atom E3825 and Zynq 7020 platforms (tolerance +-25% of the seed's figures).
#include "SimTestUtil.h"

#include <gtest/gtest.h>

#include <string>

namespace tickscope {
namespace {

using simtest::maxCyclicNs;
using simtest::runSpec;

void expectNear(int64_t ns, double seedUs, const std::string &what)
{
    EXPECT_GE(ns / 1000.0, seedUs * 0.75) << what;
    EXPECT_LE(ns / 1000.0, seedUs * 1.25) << what;
}

TEST(SimSeed003, AtomHardVersusSoftForNonRt)
{
    expectNear(maxCyclicNs(runSpec("seed003-rt-hrtimer", false).truth()), 107, "Atom, all hard");
    expectNear(maxCyclicNs(runSpec("seed003-rt-hrtimer:soft", false).truth()), 66, "Atom, soft for non-RT");
}

TEST(SimSeed003, ZynqHardVersusSoftForNonRt)
{
    expectNear(maxCyclicNs(runSpec("seed003-rt-hrtimer:zynq", false).truth()), 261, "Zynq, all hard");
    expectNear(maxCyclicNs(runSpec("seed003-rt-hrtimer:zynq_soft", false).truth()), 90,
               "Zynq, soft for non-RT");
}

// Seed: "normal wake ups ... can easily lead to 2ms latency spikes if (enough) hrtimer wakeups are
// synchronized": multi-hundred-µs spikes with hard wakeups, gone with soft ones.
TEST(SimSeed003, SynchronizedWakeupsSpike)
{
    const int64_t hard = maxCyclicNs(runSpec("seed003-rt-hrtimer:sync", false).truth());
    const int64_t soft = maxCyclicNs(runSpec("seed003-rt-hrtimer:sync_soft", false).truth());
    EXPECT_GE(hard, 200000);
    EXPECT_LT(soft, 100000);
    EXPECT_GE(maxCyclicNs(runSpec("seed003-rt-hrtimer:zynq_sync", false).truth()), 300000);
}

// Issue 16: where the expiries ran, as the report tells it from the simulated trace. Baseline: every
// expiry hard, and RT wakeups wait behind the non-RT sleepers' expiries of the same interrupt; soft for
// non-RT: those run in the HRTIMER softirq, the RT ones alone stay hard, and the wait is gone.
TEST(SimSeed003, ExpiryContextsPerVariant)
{
    for (const bool soft : {false, true}) {
        const simtest::Run r = runSpec(soft ? "seed003-rt-hrtimer:soft" : "seed003-rt-hrtimer");
        for (const CpuReport &c : r.a.report.cpus) {
            const WakeupReport &w = c.wakeup;
            const std::string what =
                std::string(soft ? "soft" : "baseline") + " CPU " + std::to_string(c.cpu);
            EXPECT_EQ(w.contextUnknown, 0u) << what;
            EXPECT_GT(w.byContext[0][0].count, 0u) << what; // hard RT: cyclictest
            EXPECT_EQ(w.byContext[1][0].count, 0u) << what; // RT sleepers are never soft
            const uint64_t normal = w.byContext[0][1].count + w.byContext[1][1].count;
            EXPECT_GT(normal, 1000u) << what;
            EXPECT_EQ(w.byContext[soft ? 0 : 1][1].count, 0u) << what;
            if (soft) {
                EXPECT_EQ(w.rtDelayed, 0u) << what;
                EXPECT_EQ(w.longestHardRun, 1u) << what; // one RT sleeper per CPU
            } else {
                EXPECT_GT(w.rtDelayed, 100u) << what;
                EXPECT_GE(w.longestHardRun, 5u) << what;
            }
        }
    }
}

} // namespace
} // namespace tickscope
