// SPDX-License-Identifier: GPL-3.0-or-later
// The steps across CPUs cut a busy CPU's events and wakeups into pieces for the threads, and a busy CPU's
// pass takes its events slice by slice beside the migration sweep: whatever the pieces, every expiry's
// lateness and every wakeup's latency, and the report, come out the same as with one piece per CPU.
#include "AnalysisTextTrace.h"
#include "SimTestUtil.h"
#include "TestUtil.h"

#include "analysis/TickAnalysis.h"
#include "import/Loader.h"
#include "report/TickReport.h"
#include "sim/Simulator.h"
#include "util/Cancel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace tickscope {
namespace {

// Every field the cut steps write, CPU by CPU; the count of known ones so that a test sees it checked some.
size_t expectSameTimers(const TickAnalysis &whole, const TickAnalysis &cut)
{
    size_t known = 0;
    EXPECT_EQ(whole.cpus.size(), cut.cpus.size());
    for (size_t c = 0; c < whole.cpus.size() && c < cut.cpus.size(); ++c) {
        SCOPED_TRACE("CPU " + std::to_string(c));
        const CpuAnalysis &a = whole.cpus[c], &b = cut.cpus[c];
        EXPECT_EQ(a.ticks.size(), b.ticks.size());
        for (size_t k = 0; k < a.ticks.size() && k < b.ticks.size(); ++k) {
            EXPECT_EQ(a.ticks[k].latenessNs, b.ticks[k].latenessNs) << "tick " << k;
            known += a.ticks[k].latenessNs != kUnknownNs;
        }
        const Column<HrtimerWakeup> &wa = a.timers.wakeups, &wb = b.timers.wakeups;
        EXPECT_EQ(wa.size(), wb.size());
        for (size_t k = 0; k < wa.size() && k < wb.size(); ++k) {
            EXPECT_EQ(wa[k].latenessNs, wb[k].latenessNs) << "wakeup " << k;
            EXPECT_EQ(a.timers.softLateness->of(wa[k]), b.timers.softLateness->of(wb[k])) << "wakeup " << k;
            EXPECT_EQ(wa[k].latencyNs, wb[k].latencyNs) << "wakeup " << k;
            EXPECT_EQ(wa[k].flags, wb[k].flags) << "wakeup " << k;
            known += (wa[k].latenessNs != kUnknownNs) + (wa[k].latencyNs != kUnknownNs);
        }
        const Column<HrtimerLateness> &oa = a.timers.otherLateness, &ob = b.timers.otherLateness;
        EXPECT_EQ(oa.size(), ob.size());
        for (size_t k = 0; k < oa.size() && k < ob.size(); ++k) {
            EXPECT_EQ(oa[k].latenessNs, ob[k].latenessNs) << "other expiry " << k;
            known += oa[k].latenessNs != kUnknownNs;
        }
    }
    return known;
}

// The report, but for the time and threads the analysis took. split: every CPU's distributions made as
// work items of their own, on three threads.
std::string reportJson(const Trace &trace, TickAnalysis &a, bool split = false)
{
    a.seconds = 0;
    ReportOptions o;
    a.threads = split ? 3 : 1;
    if (split) o.splitRecords = 0;
    TickReport r = TickReport::make(trace, a, o);
    r.threads = 1;
    return formatReportJson(r);
}

// Returns how many CPUs' passes ran beside the migration sweep (a CPU with more than a thread's share of
// the events), in all the runs.
int expectSameInPieces(const Trace &trace, size_t minKnown)
{
    AnalysisOptions whole;
    whole.threads = 1;
    whole.partEvents = SIZE_MAX;
    TickAnalysis a = TickAnalysis::run(trace, whole);
    EXPECT_EQ(a.passesBesideSweep, 0);
    const std::string json = reportJson(trace, a);
    int beside = 0;
    struct Cut
    {
        int threads;
        size_t part, slice;
    };
    for (const Cut &cut : {Cut{3, 1, 0}, Cut{2, 7, 50}, Cut{2, 500, 3}, Cut{3, 0, 1000}}) {
        SCOPED_TRACE("threads " + std::to_string(cut.threads) + ", pieces of " + std::to_string(cut.part) +
                     ", sweep slices of " + std::to_string(cut.slice));
        AnalysisOptions o;
        o.threads = cut.threads;
        o.partEvents = cut.part;
        o.sliceEvents = cut.slice;
        TickAnalysis b = TickAnalysis::run(trace, o);
        beside += b.passesBesideSweep;
        EXPECT_GE(expectSameTimers(a, b), minKnown);
        EXPECT_EQ(reportJson(trace, b), json);
    }
    SCOPED_TRACE("the report's distributions as work items of their own");
    EXPECT_EQ(reportJson(trace, a, true), json);
    return beside;
}

TEST(AnalysisPieces, RealTracesGiveTheSameLatenessAndLatencyInAnyPieces)
{
    // hard and soft expiries (PREEMPT_RT), a lossy capture, cyclictest on a 6.18 host, nohz_full
    for (const char *name : {"rt-hrtimer-k4.dat", "rt-hrtimer-k32-fifo50.dat", "host-lost.dat",
                             "host-6.18-cyclictest.dat", "nohzfull-poll.dat"}) {
        SCOPED_TRACE(name);
        const auto trace = loadTrace(test::dataPath(name));
        // each has a CPU with more than half of its events
        EXPECT_GT(expectSameInPieces(*trace, 20), 0);
    }
}

TEST(AnalysisPieces, ACancelledAnalysisWithABusyCpuBesideTheSweepStopsAndThrows)
{
    const auto trace = loadTrace(test::dataPath("rt-hrtimer-k32-fifo50.dat"));
    const std::atomic<bool> cancel{true};
    AnalysisOptions o;
    o.threads = 2;
    o.sliceEvents = 100;
    o.cancel = &cancel;
    EXPECT_THROW(TickAnalysis::run(*trace, o), Cancelled);
}

// The same analysis cancelled while it runs (from another thread, as the GUI's Cancel does), not before it
// starts: run() stops and throws Cancelled instead of returning a result.
TEST(AnalysisPieces, AnAnalysisCancelledWhileItRunsStopsAndThrows)
{
    const auto trace = loadTrace(test::dataPath("rt-hrtimer-k32-fifo50.dat"));
    AnalysisOptions o;
    o.threads = 2;
    o.sliceEvents = 100;
    const auto t0 = std::chrono::steady_clock::now();
    const TickAnalysis whole = TickAnalysis::run(*trace, o);
    ASSERT_GT(whole.passesBesideSweep, 0); // (the busy CPU's pass is beside the sweep, as above)
    EXPECT_TRUE(test::stopsWhenCancelledWhileRunning<Cancelled>(
        [&](const std::atomic<bool> *cancel) {
            AnalysisOptions c = o;
            c.cancel = cancel;
            TickAnalysis::run(*trace, c);
        },
        std::chrono::steady_clock::now() - t0));
}

TEST(AnalysisPieces, ASimulatedBusyMachineGivesTheSameInAnyPieces)
{
    // sleepers migrating between the CPUs (their hrtimers started on one CPU expire on another) and 64
    // stress threads
    sim::SimResult r = sim::simulate(sim::scenarioFromSpec("seed003-rt-hrtimer:sync,duration_ms=300"), 1);
    ASSERT_TRUE(r.trace);
    expectSameInPieces(*r.trace, 500);
}

TEST(AnalysisPieces, TimerItemsOfOneMicrosecondPairInEventOrderOnACpuAndStartFirstAcrossCpus)
{
    // A text trace's microseconds: equal times at every cut of the pieces of 1 and 7 events.
    const test::Result r = test::analyse(test::timerItemsOfOneMicrosecond());
    std::vector<int32_t> ticks, others;
    for (const TickRecord &k : r.cpu(0).ticks)
        ticks.push_back(k.latenessNs);
    for (size_t k = 0; k < r.cpu(0).timers.otherLateness.size(); ++k)
        others.push_back(r.cpu(0).timers.otherLateness[k].latenessNs);
    EXPECT_EQ(ticks, (std::vector<int32_t>{kUnknownNs, 7000, 4000}));
    EXPECT_EQ(others, (std::vector<int32_t>{kUnknownNs, 500, kUnknownNs, 100}));
    expectSameInPieces(*r.trace, 4);
}

// Big int32 samples (the histograms' and the report's latencies) are ranked by radix selection, smaller
// ones and int64 by a selection per rank: both give the values at the same sorted positions.
TEST(AnalysisPieces, DistributionOfManyInt32ValuesIsTheSortedOnesAtTheRanks)
{
    std::mt19937 rng(17);
    const auto check = [](std::vector<int32_t> v, const std::string &what) {
        std::vector<int32_t> sorted = v;
        std::sort(sorted.begin(), sorted.end());
        const auto at = [&](size_t p) {
            return sorted[std::max<size_t>((sorted.size() * p + 99) / 100, 1) - 1];
        };
        std::vector<int64_t> wide(v.begin(), v.end());
        const Distribution d = Distribution::of(v), w = Distribution::of(wide);
        EXPECT_EQ(d.count, sorted.size()) << what;
        EXPECT_EQ(d.min, sorted.front()) << what;
        EXPECT_EQ(d.p50, at(50)) << what;
        EXPECT_EQ(d.p90, at(90)) << what;
        EXPECT_EQ(d.p99, at(99)) << what;
        EXPECT_EQ(d.max, sorted.back()) << what;
        EXPECT_EQ(std::tie(d.min, d.p50, d.p90, d.p99, d.max), std::tie(w.min, w.p50, w.p90, w.p99, w.max))
            << what;
    };
    for (const size_t n : {size_t{1}, size_t{16383}, size_t{16384}, size_t{100000}, size_t{300001}}) {
        const std::string size = " of " + std::to_string(n);
        std::vector<int32_t> v(n);
        for (auto &x : v)
            x = static_cast<int32_t>(rng());
        check(v, "any int32" + size);
        for (auto &x : v)
            x = static_cast<int32_t>(rng() % 5) - 2;
        check(v, "five values" + size);
        std::lognormal_distribution<double> latency(8.0, 1.5);
        for (auto &x : v)
            x = static_cast<int32_t>(std::min(latency(rng), 2e9));
        check(v, "latency-like" + size);
        for (size_t k = 0; k < n; ++k)
            v[k] = k % 3 == 0 ? INT32_MIN : k % 3 == 1 ? INT32_MAX : static_cast<int32_t>(k);
        check(v, "extremes" + size);
        std::fill(v.begin(), v.end(), -7);
        check(v, "one value" + size);
        for (size_t k = 0; k < n; ++k)
            v[k] = static_cast<int32_t>(n - k) * 1024; // equal low digits, descending
        check(v, "descending" + size);
    }
}

} // namespace
} // namespace tickscope
