// SPDX-License-Identifier: GPL-3.0-or-later
// The findings (core/report/Findings): on every fixture and preset their counts are the report's own
// numbers, each CPU with a non-zero count has its finding, the instances lie in the window in time order;
// the patterns and known causes match the traces they describe and only those.
#include "SimTestUtil.h"
#include "TestUtil.h"

#include "import/Loader.h"
#include "report/Findings.h"
#include "report/TickReport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>

namespace tickscope {
namespace {

const Finding *find(const TickReport &r, FindingKind k, int cpu, const std::string &dep = {})
{
    for (const Finding &f : r.findings)
        if (f.kind == k && f.cpu == cpu && f.dependency == dep) return &f;
    return nullptr;
}

uint64_t countOf(const TickReport &r, FindingKind k, int cpu, const std::string &dep = {})
{
    const Finding *f = find(r, k, cpu, dep);
    return f ? f->count : 0;
}

// The findings agree with the report's numbers (and lost ranges with the trace's, when given).
void checkAgainstReport(const TickReport &r, const Trace *trace, const std::string &what)
{
    SCOPED_TRACE(what);
    for (const Finding &f : r.findings) {
        EXPECT_EQ(f.at.size(), std::min<uint64_t>(f.count, kMaxFindingInstances)) << f.what;
        EXPECT_TRUE(std::is_sorted(f.at.begin(), f.at.end())) << f.what;
        ASSERT_GT(f.count, 0u) << f.what;
        EXPECT_EQ(f.first, f.at.front()) << f.what;
        if (f.count <= kMaxFindingInstances) {
            EXPECT_EQ(f.last, f.at.back()) << f.what;
        }
        if (f.kind != FindingKind::LostEvents) {
            for (int64_t t : f.at) {
                EXPECT_GE(t, r.from) << f.what;
                EXPECT_LE(t, r.to) << f.what;
            }
        }
        EXPECT_FALSE(f.what.empty());
    }
    for (const CpuReport &c : r.cpus) {
        EXPECT_EQ(countOf(r, FindingKind::SpuriousUser, c.cpu), c.ticks.spuriousUser) << "CPU " << c.cpu;
        EXPECT_EQ(countOf(r, FindingKind::SpuriousPolling, c.cpu), c.ticks.spuriousPolling)
            << "CPU " << c.cpu;
        for (size_t b = 0; b < kDependencyNames.size(); ++b)
            EXPECT_EQ(countOf(r, FindingKind::FailedStops, c.cpu, kDependencyNames[b]), c.failures[b]);
        EXPECT_EQ(countOf(r, FindingKind::FailedStops, c.cpu, "other"), c.failuresOther);
        EXPECT_EQ(countOf(r, FindingKind::CatchupSoftirq, c.cpu), c.timerSoftirq.catchup);
        EXPECT_EQ(countOf(r, FindingKind::WakeupBurst, c.cpu), c.wakeup.bursts);
        const Finding *late = find(r, FindingKind::LateWakeup, c.cpu);
        if (c.wakeup.latency.max >= kLateWakeupNs) {
            ASSERT_NE(late, nullptr) << "CPU " << c.cpu;
            EXPECT_EQ(late->worstNs, c.wakeup.latency.max);
            EXPECT_LE(late->count, c.wakeup.latency.count);
            // at least the share of latencies the report's p99 / p90 put above the threshold
            if (c.wakeup.latency.p90 >= kLateWakeupNs) {
                EXPECT_GE(late->count * 10, c.wakeup.latency.count);
            }
        } else {
            EXPECT_EQ(late, nullptr) << "CPU " << c.cpu;
        }
        if (trace) {
            uint64_t lost = 0;
            for (const LostRange &l : trace->cpu(c.cpu).lost)
                lost += l.to >= r.from && l.from <= r.to;
            EXPECT_EQ(countOf(r, FindingKind::LostEvents, c.cpu), lost);
        }
    }
    // worst first: by kind, then count
    for (size_t i = 1; i < r.findings.size(); ++i) {
        const Finding &a = r.findings[i - 1], &b = r.findings[i];
        EXPECT_TRUE(a.kind < b.kind || (a.kind == b.kind && a.count >= b.count)) << a.what << " / " << b.what;
    }
}

TEST(Findings, EveryFixtureMatchesItsReport)
{
    for (const char *name :
         {"nohzfull-poll.dat", "nohzfull-nopoll.dat", "host-6.18-cyclictest.dat", "host-6.18-idle.dat",
          "host-cyclic-v6.dat", "host-lost.dat", "host-sleep.dat", "host-trace-pipe.txt", "host-trace.txt",
          "text/tracefs-pipe-lost.txt", "text/tracefs-noirqinfo.txt", "text/tracefs-tgid.txt"}) {
        const auto trace = loadTrace(test::dataPath(name));
        const TickAnalysis a = TickAnalysis::run(*trace);
        const TickReport r = TickReport::make(*trace, a, {});
        checkAgainstReport(r, trace.get(), name);
        // A printed report keeps no instance times, and nothing else changes.
        ReportOptions none;
        none.findingInstances = 0;
        const TickReport bare = TickReport::make(*trace, a, none);
        ASSERT_EQ(bare.findings.size(), r.findings.size()) << name;
        for (size_t k = 0; k < r.findings.size(); ++k) {
            const Finding &x = r.findings[k], &y = bare.findings[k];
            EXPECT_TRUE(y.at.empty()) << name << ": " << y.what;
            EXPECT_EQ(
                std::tie(x.kind, x.cpu, x.count, x.what, x.pattern, x.cause, x.first, x.last, x.worstNs),
                std::tie(y.kind, y.cpu, y.count, y.what, y.pattern, y.cause, y.first, y.last, y.worstNs))
                << name << ": " << x.what;
        }
        EXPECT_EQ(formatReportJson(bare), formatReportJson(r)) << name;
    }
}

// The report on a subset of the CPUs is the whole report filtered (what the GUI's memo serves for the CPUs
// shown): the same JSON, the same findings with the same instances, in the same order.
TEST(Findings, ACpuSubsetIsTheWholeReportFiltered)
{
    for (const char *name : {"nohzfull-poll.dat", "host-6.18-cyclictest.dat", "host-lost.dat",
                             "rt-hrtimer-k32-fifo50.dat", "host-trace.txt", "text/tracefs-pipe-lost.txt"}) {
        SCOPED_TRACE(name);
        const auto trace = loadTrace(test::dataPath(name));
        const TickAnalysis a = TickAnalysis::run(*trace);
        const TickReport whole = TickReport::make(*trace, a, {});
        const int n = trace->cpuCount();
        std::vector<std::vector<int>> subsets;
        for (int c = 0; c < n; ++c)
            subsets.push_back({c});
        std::vector<int> allButFirst;
        for (int c = 1; c < n; ++c)
            allButFirst.push_back(c);
        subsets.push_back(allButFirst);
        if (n >= 2) subsets.push_back({n - 1, 0}); // unsorted
        for (const std::vector<int> &cpus : subsets) {
            ReportOptions o;
            o.cpus = cpus;
            ASSERT_TRUE(cpuSubsetOfWholeTrace(o, *trace));
            std::sort(o.cpus.begin(), o.cpus.end()); // make() takes them sorted, as the callers pass them
            const TickReport made = TickReport::make(*trace, a, o);
            const TickReport sub = cpuSubset(whole, cpus);
            EXPECT_EQ(formatReportJson(sub), formatReportJson(made))
                << cpus.size() << " CPUs from " << cpus[0];
            ASSERT_EQ(sub.findings.size(), made.findings.size());
            for (size_t k = 0; k < sub.findings.size(); ++k) {
                EXPECT_EQ(sub.findings[k].what, made.findings[k].what);
                EXPECT_EQ(sub.findings[k].at, made.findings[k].at) << sub.findings[k].what;
            }
        }
    }
    // not when the window or the threshold differ, nor over function_graph calls (summed over the CPUs)
    const auto calls = loadTrace(test::dataPath("fgraph-timers.dat"));
    ReportOptions o;
    o.cpus = {0};
    EXPECT_FALSE(cpuSubsetOfWholeTrace(o, *calls));
    const auto poll = loadTrace(test::dataPath("nohzfull-poll.dat"));
    EXPECT_TRUE(cpuSubsetOfWholeTrace(o, *poll));
    o.from = poll->firstTs() + 1'000'000;
    EXPECT_FALSE(cpuSubsetOfWholeTrace(o, *poll));
    o = {};
    o.cpus = {0};
    o.lateWakeupNs = 5'000;
    EXPECT_FALSE(cpuSubsetOfWholeTrace(o, *poll));
    EXPECT_FALSE(cpuSubsetOfWholeTrace(ReportOptions{}, *poll)); // every CPU: sameAsWholeTrace's case
}

TEST(Findings, EveryPresetMatchesItsReport)
{
    for (const char *spec :
         {"seed000-nohzfull-poll", "seed000-nohzfull-poll:p1p2", "seed000-nohzfull-poll:no_poll",
          "seed000-nohzfull-poll:p1p2_posix_timer", "seed002-legacy-wheel", "seed002-legacy-wheel:forwarding",
          "seed003-rt-hrtimer", "seed003-rt-hrtimer:soft", "seed003-rt-hrtimer:sync"}) {
        const simtest::Run run = simtest::runSpec(spec);
        checkAgainstReport(run.a.report, nullptr, spec);
    }
}

// The late-wakeup threshold is the report's option: at 0 every wakeup with a known latency is one, as
// many as the report's latency distribution counts.
TEST(Findings, LateWakeupThresholdIsAnOption)
{
    const auto trace = loadTrace(test::dataPath("nohzfull-poll.dat"));
    const TickAnalysis a = TickAnalysis::run(*trace);
    ReportOptions o;
    o.lateWakeupNs = 0;
    const TickReport r = TickReport::make(*trace, a, o);
    for (const CpuReport &c : r.cpus) {
        const Finding *f = find(r, FindingKind::LateWakeup, c.cpu);
        ASSERT_NE(f, nullptr);
        EXPECT_EQ(f->count, c.wakeup.latency.count);
    }
    o.lateWakeupNs = 1'000'000'000;
    for (const Finding &f : TickReport::make(*trace, a, o).findings)
        EXPECT_NE(f.kind, FindingKind::LateWakeup);
}

TEST(Findings, LostRangesOfARealTrace)
{
    const auto trace = loadTrace(test::dataPath("host-lost.dat"));
    const TickAnalysis a = TickAnalysis::run(*trace);
    const TickReport r = TickReport::make(*trace, a, {});
    ASSERT_GT(trace->lostRangeCount(), 0u);
    ASSERT_FALSE(r.findings.empty());
    EXPECT_EQ(r.findings.front().kind, FindingKind::LostEvents); // the rest may be wrong: first
}

// The idle=poll fixture: one spurious user tick per wakeup from polling idle, with the known cause; the
// same kernel without idle=poll has neither finding.
TEST(Findings, IdlePollPatternAndCause)
{
    const auto poll = loadTrace(test::dataPath("nohzfull-poll.dat"));
    const TickAnalysis a = TickAnalysis::run(*poll);
    const TickReport r = TickReport::make(*poll, a, {});
    const Finding *f = find(r, FindingKind::SpuriousUser, 1);
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(r.findings.front().kind, FindingKind::SpuriousUser);
    EXPECT_NE(f->pattern.find("one per wakeup from polling idle"), std::string::npos) << f->pattern;
    EXPECT_NE(f->cause.find("idle=poll tick restart"), std::string::npos) << f->cause;

    const auto nopoll = loadTrace(test::dataPath("nohzfull-nopoll.dat"));
    const TickAnalysis b = TickAnalysis::run(*nopoll);
    const TickReport rb = TickReport::make(*nopoll, b, {});
    EXPECT_EQ(find(rb, FindingKind::SpuriousUser, 1), nullptr);
    for (const Finding &x : rb.findings)
        EXPECT_EQ(x.cause.find("idle=poll"), std::string::npos) << x.cause;
}

// Seed 000's patches: p1p2 removes the spurious ticks the baseline has on CPU 3 (and CPU 2's polling ticks).
TEST(Findings, Seed000PatchesRemoveTheFindings)
{
    const simtest::Run base = simtest::runSpec("seed000-nohzfull-poll");
    const simtest::Run fixed = simtest::runSpec("seed000-nohzfull-poll:p1p2");
    ASSERT_NE(find(base.a.report, FindingKind::SpuriousUser, 3), nullptr);
    EXPECT_NE(find(base.a.report, FindingKind::SpuriousUser, 3)->cause.find("idle=poll"), std::string::npos);
    ASSERT_NE(find(base.a.report, FindingKind::SpuriousPolling, 2), nullptr);
    EXPECT_EQ(find(fixed.a.report, FindingKind::SpuriousUser, 3), nullptr);
    EXPECT_EQ(find(fixed.a.report, FindingKind::SpuriousPolling, 2), nullptr);
}

// Seed 002 runs a 3.10 kernel: its catch-ups name the legacy wheel; the forwarding variant (a 4.8+ wheel)
// has no catch-up to explain.
TEST(Findings, LegacyWheelCause)
{
    const simtest::Run base = simtest::runSpec("seed002-legacy-wheel");
    bool any = false;
    for (const Finding &f : base.a.report.findings) {
        if (f.kind != FindingKind::CatchupSoftirq) continue;
        any = true;
        EXPECT_NE(f.cause.find("legacy wheel"), std::string::npos) << f.cause;
    }
    EXPECT_TRUE(any);
    const simtest::Run fwd = simtest::runSpec("seed002-legacy-wheel:forwarding");
    for (const Finding &f : fwd.a.report.findings)
        EXPECT_NE(f.kind, FindingKind::CatchupSoftirq) << f.what;
}

// Seed 003 on PREEMPT_RT: the baseline wakes every sleeper in hard interrupt context (the known cause is
// named); the soft variant wakes the non-RT ones from soft context and the cause is not claimed.
TEST(Findings, PreemptRtHardWakeupCause)
{
    auto hasCause = [](const TickReport &r) {
        for (const Finding &f : r.findings)
            if (f.cause.find("PREEMPT_RT") != std::string::npos) return true;
        return false;
    };
    EXPECT_TRUE(hasCause(simtest::runSpec("seed003-rt-hrtimer").a.report));
    EXPECT_FALSE(hasCause(simtest::runSpec("seed003-rt-hrtimer:soft").a.report));
    EXPECT_FALSE(hasCause(simtest::runSpec("seed000-nohzfull-poll").a.report)); // not an RT kernel
}

} // namespace
} // namespace tickscope
