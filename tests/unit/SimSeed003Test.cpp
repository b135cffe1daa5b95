// Seed 003 (PREEMPT_RT, "Use softirq based wakeups for non-RT threads"): the rows of issue 4 item 5 on the
// seed003-rt-hrtimer preset at a fixed seed: cyclictest max latency, all-hard versus soft-for-non-RT
// wakeups, on the Atom E3825 and Zynq 7020 platforms (tolerance +-25% of the seed's figures).
#include "SimTestUtil.h"

#include <gtest/gtest.h>

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

} // namespace
} // namespace tickscope
