// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 4 item 6: the tick analysis of a simulated trace gives exactly what the simulator decided, for
// every preset and every variant: each tick (its time, the context it interrupted, periodic or a nohz
// wakeup, spurious or not), the timer_list timers started / fired / never fired / late, and the wakeup
// latency of every hrtimer_wakeup whose task was switched in, and the context (hard / soft) of every
// hrtimer_wakeup expiry with the class (RT / not) of the task it woke.
#include "SimTestUtil.h"

#include "analysis/TickAnalysis.h"
#include "analysis/TimerListPairing.h"
#include "model/MergedOrder.h"

#include <gtest/gtest.h>

#include <tuple>

namespace tickscope {
namespace {

struct TickKey
{
    int64_t ts;
    int context;
    bool periodic;
    bool spurious;
    bool operator==(const TickKey &) const = default;
};

void checkAgreement(const std::string &spec)
{
    SCOPED_TRACE(spec);
    const sim::Scenario s = sim::scenarioFromSpec(spec);
    const sim::SimResult r = sim::simulate(s, simtest::kSeed);
    const Trace &t = *r.trace;
    // every CPU's events in time order, as a loaded trace's are (the event table reads them so)
    EXPECT_TRUE(MergedCursor::usable(t));
    const TickAnalysis a = TickAnalysis::run(t);
    ASSERT_FALSE(a.localTimerFallback);
    size_t ticks = 0, spurious = 0;
    for (int c = 0; c < t.cpuCount(); ++c) {
        std::vector<TickKey> truth, seen;
        for (const auto &g : r.truth.ticks) {
            if (g.cpu == c) truth.push_back({g.ts, static_cast<int>(g.context), g.periodic, g.spurious});
        }
        for (const TickRecord &k : a.cpus[static_cast<size_t>(c)].ticks) {
            seen.push_back({t.cpu(c).ts(k.index), static_cast<int>(k.context), k.periodic(),
                            (k.flags & TickFlag::Spurious) != 0});
        }
        ASSERT_EQ(seen.size(), truth.size()) << "CPU " << c;
        for (size_t i = 0; i < truth.size(); ++i) {
            ASSERT_EQ(seen[i].ts, truth[i].ts) << "CPU " << c << " tick " << i;
            EXPECT_EQ(seen[i].context, truth[i].context) << "CPU " << c << " tick at " << truth[i].ts;
            EXPECT_EQ(seen[i].periodic, truth[i].periodic) << "CPU " << c << " tick at " << truth[i].ts;
            EXPECT_EQ(seen[i].spurious, truth[i].spurious) << "CPU " << c << " tick at " << truth[i].ts;
        }
        ticks += truth.size();
        for (const auto &k : truth)
            spurious += k.spurious;
    }
    EXPECT_GT(ticks, 0u);
    // timer_list timers
    const auto pairs = pairTimerList(t);
    const auto sum = r.truth.summary(t.cpuCount());
    for (int c = 0; c < t.cpuCount(); ++c) {
        const auto &p = pairs[static_cast<size_t>(c)];
        const auto &g = sum[static_cast<size_t>(c)];
        EXPECT_EQ(p.started, g.timers) << "CPU " << c;
        EXPECT_EQ(p.fired, g.fired) << "CPU " << c;
        EXPECT_EQ(p.neverFired, g.lost) << "CPU " << c;
        EXPECT_EQ(p.late, g.late) << "CPU " << c;
        EXPECT_EQ(p.maxLateJiffies, g.maxLateJiffies) << "CPU " << c;
    }
    // wakeup latency: expiry -> switch-in of the woken task
    size_t compared = 0;
    for (int c = 0; c < t.cpuCount(); ++c) {
        const auto &w = a.cpus[static_cast<size_t>(c)].timers.wakeups;
        std::vector<std::pair<int64_t, int64_t>> seen, truth;
        for (size_t i = 0; i < w.size(); ++i) {
            if (w[i].latencyNs != kUnknownNs) seen.emplace_back(t.cpu(c).ts(w[i].index), w[i].latencyNs);
        }
        for (const auto &g : r.truth.wakeups) {
            if (g.cpu == c && g.switchTs >= 0) truth.emplace_back(g.expiryTs, g.switchTs - g.expiryTs);
        }
        std::sort(truth.begin(), truth.end());
        ASSERT_EQ(seen.size(), truth.size()) << "CPU " << c;
        for (size_t i = 0; i < seen.size(); ++i)
            ASSERT_EQ(seen[i], truth[i]) << "CPU " << c << " wakeup " << i;
        compared += seen.size();
        // Every expiry's context (hard / soft) and the woken task's class (RT / not), by expiry time.
        std::vector<std::tuple<int64_t, bool, bool>> classes, truthClasses;
        for (size_t i = 0; i < w.size(); ++i) {
            ASSERT_TRUE(w[i].flags & WakeupFlag::ContextKnown) << "CPU " << c << " wakeup " << i;
            ASSERT_TRUE(w[i].flags & WakeupFlag::PrioKnown) << "CPU " << c << " wakeup " << i;
            classes.emplace_back(t.cpu(c).ts(w[i].index), !(w[i].flags & WakeupFlag::Soft),
                                 (w[i].flags & WakeupFlag::Rt) != 0);
        }
        for (const auto &g : r.truth.wakeups) {
            if (g.cpu == c) truthClasses.emplace_back(g.expiryTs, g.hard, g.rt);
        }
        std::sort(truthClasses.begin(), truthClasses.end());
        ASSERT_EQ(classes.size(), truthClasses.size()) << "CPU " << c;
        for (size_t i = 0; i < classes.size(); ++i)
            ASSERT_EQ(classes[i], truthClasses[i])
                << "CPU " << c << " wakeup " << i << " at " << std::get<0>(classes[i]);
    }
    EXPECT_GT(compared, 0u);
}

TEST(SimAgreement, EveryPresetAndVariant)
{
    size_t runs = 0;
    for (const auto &p : sim::presets()) {
        const sim::Scenario s = sim::parseScenario(std::string(p.json), std::string(p.name));
        checkAgreement(std::string(p.name));
        ++runs;
        for (const auto &[variant, kv] : s.variants) {
            checkAgreement(std::string(p.name) + ":" + variant);
            ++runs;
        }
    }
    EXPECT_GE(runs, 15u); // 3 presets and their variants
}

} // namespace
} // namespace tickscope
