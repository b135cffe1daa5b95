// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 16: hard vs soft hrtimer expiries and the class of the woken task on real PREEMPT_RT traces (Debian
// 6.1.0-57-rt under QEMU, recorded by tests/lab), against the ground truth beside each trace
// (`*.expiries.csv`, written by tests/lab/rt_expiry_truth.py from `trace-cmd report` spans alone, without
// the irq-flags column the analysis reads first). Then the same trace as `trace-cmd report` text, which
// has no flags: the analysis falls back to the spans and must reach the same classes. The class totals
// also equal the workload's own counts of its sleeps. And on the non-RT fixtures every expiry is hard.
#include "TestUtil.h"
#include "TextTestUtil.h"

#include "analysis/TickAnalysis.h"
#include "analysis/WakeupLatency.h"
#include "import/Loader.h"
#include "report/TickReport.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace tickscope {
namespace {

struct Expiry
{
    int64_t ts = 0;
    int cpu = 0;
    std::string context; // hard, soft, unknown
    int32_t pid = -1;    // woken task, -1 unknown
    std::string cls;     // rt, normal, unknown
    bool operator==(const Expiry &) const = default;
};

std::ostream &operator<<(std::ostream &os, const Expiry &e)
{
    return os << "CPU " << e.cpu << " at " << e.ts << ": " << e.context << ", woke " << e.pid << " (" << e.cls
              << ")";
}

std::vector<Expiry> readTruth(const std::string &csv)
{
    std::ifstream in(csv);
    EXPECT_TRUE(in) << "committed fixture missing: " << csv;
    std::vector<Expiry> out;
    std::string line;
    std::getline(in, line); // header
    while (std::getline(in, line)) {
        std::stringstream s(line);
        std::string ts, cpu, ctx, pid, prio, cls;
        std::getline(s, ts, ',');
        std::getline(s, cpu, ',');
        std::getline(s, ctx, ',');
        std::getline(s, pid, ',');
        std::getline(s, prio, ',');
        std::getline(s, cls, ',');
        const size_t dot = ts.find('.');
        Expiry e;
        e.ts = std::stoll(ts.substr(0, dot)) * 1000000000LL + std::stoll(ts.substr(dot + 1));
        e.cpu = std::stoi(cpu);
        e.context = ctx;
        e.pid = pid.empty() ? -1 : std::stoi(pid);
        e.cls = cls;
        out.push_back(e);
    }
    return out;
}

std::vector<Expiry> analysed(const Trace &t, const TickAnalysis &a)
{
    std::vector<Expiry> out;
    for (const CpuAnalysis &c : a.cpus) {
        const CpuEvents &ev = t.cpu(c.cpu);
        for (size_t k = 0; k < c.timers.wakeups.size(); ++k) {
            const HrtimerWakeup &w = c.timers.wakeups[k];
            Expiry e;
            e.ts = ev.ts(w.index);
            e.cpu = c.cpu;
            e.context = !(w.flags & WakeupFlag::ContextKnown) ? "unknown"
                        : (w.flags & WakeupFlag::Soft)        ? "soft"
                                                              : "hard";
            e.pid = wokenBy(t, ev, w).pid;
            e.cls = !(w.flags & WakeupFlag::PrioKnown) ? "unknown"
                    : (w.flags & WakeupFlag::Rt)       ? "rt"
                                                       : "normal";
            out.push_back(e);
        }
    }
    std::sort(out.begin(), out.end(),
              [](const Expiry &x, const Expiry &y) { return std::tie(x.ts, x.cpu) < std::tie(y.ts, y.cpu); });
    return out;
}

void expectSame(const std::vector<Expiry> &got, const std::vector<Expiry> &want, const std::string &what)
{
    ASSERT_EQ(got.size(), want.size()) << what;
    size_t wrong = 0;
    for (size_t k = 0; k < got.size(); ++k) {
        if (got[k] == want[k]) continue;
        if (++wrong <= 5) ADD_FAILURE() << what << ": analysis " << got[k] << ", truth " << want[k];
    }
    EXPECT_EQ(wrong, 0u) << what;
}

class RtTraces : public ::testing::TestWithParam<const char *>
{
};

TEST_P(RtTraces, EveryExpiryMatchesTheGroundTruth)
{
    const std::string name = GetParam();
    const std::string dat = test::dataPath(name + ".dat");
    const std::vector<Expiry> truth = readTruth(test::dataPath(name + ".expiries.csv"));
    ASSERT_GT(truth.size(), 1000u);
    const auto trace = loadTrace(dat);
    const TickAnalysis a = TickAnalysis::run(*trace);
    expectSame(analysed(*trace, a), truth, name + " (trace.dat, irq flags)");

    // The report's per-CPU counts are the same classes.
    const TickReport r = TickReport::make(*trace, a, {});
    for (const CpuReport &c : r.cpus) {
        uint64_t n[2][2] = {};
        for (const Expiry &e : truth) {
            if (e.cpu == c.cpu && e.context != "unknown" && e.cls != "unknown")
                ++n[e.context == "soft"][e.cls == "normal"];
        }
        for (int s = 0; s < 2; ++s) {
            for (int m = 0; m < 2; ++m)
                EXPECT_EQ(c.wakeup.byContext[s][m].count, n[s][m])
                    << name << " CPU " << c.cpu << " " << s << m;
        }
        EXPECT_EQ(c.wakeup.contextUnknown, 0u) << name;
    }

    // Without the flags column: the spans alone.
    if (!test::haveTraceCmd()) GTEST_SKIP() << "trace-cmd is not installed: the text form is not checked";
    const auto text = loadTrace(texttest::report(dat, "-t"));
    const TickAnalysis b = TickAnalysis::run(*text);
    expectSame(analysed(*text, b), truth, name + " (trace-cmd report text, spans)");
}

INSTANTIATE_TEST_SUITE_P(Lab, RtTraces,
                         ::testing::Values("rt-hrtimer-k4", "rt-hrtimer-k32", "rt-hrtimer-k4-fifo50",
                                           "rt-hrtimer-k32-fifo50", "rt-hrtimer-k4-6.12",
                                           "rt-hrtimer-k4-fifo50-6.12"),
                         [](const auto &info) {
                             std::string s = info.param;
                             for (char &ch : s)
                                 ch = ch == '-' || ch == '.' ? '_' : ch;
                             return s;
                         });

// A third source: the workload counted its own sleeps in the guest (printed on its console). On CPU 1 the
// RT thread's 1000 wakeups and the K sleepers' total are the expiries of each class.
TEST(RtTraces, ClassesEqualTheWorkloadsOwnCounts)
{
    struct Case
    {
        const char *name;
        uint64_t hardRt, softNormal; // CPU 1
    };
    for (const Case &k :
         {Case{"rt-hrtimer-k4", 1000, 4195}, Case{"rt-hrtimer-k32", 1000, 13124},
          Case{"rt-hrtimer-k4-fifo50", 1000 + 4675, 0}, Case{"rt-hrtimer-k32-fifo50", 1000 + 23279, 0},
          // Debian's 6.12 -rt kernel (the workload's console: 3120 and 3636 sleeps)
          Case{"rt-hrtimer-k4-6.12", 1000, 3120}, Case{"rt-hrtimer-k4-fifo50-6.12", 1000 + 3636, 0}}) {
        const auto trace = loadTrace(test::dataPath(std::string(k.name) + ".dat"));
        const TickAnalysis a = TickAnalysis::run(*trace);
        const WakeupReport w = TickReport::make(*trace, a, {}).cpus.at(1).wakeup;
        EXPECT_EQ(w.byContext[0][0].count, k.hardRt) << k.name;
        EXPECT_EQ(w.byContext[1][1].count, k.softNormal) << k.name;
        EXPECT_EQ(w.byContext[0][1].count + w.byContext[1][0].count, 0u) << k.name;
    }
}

// What the RT traces show beyond the class counts: SCHED_OTHER sleepers in the softirq, all of them in one
// HRTIMER softirq span per tick at K=32 (a burst of up to 32), the RT thread's expiry alone in its
// interrupt; with every sleeper SCHED_FIFO they all expire hard, up to K+1 in one interrupt.
TEST(RtTraces, BurstsAndRunsPerInterrupt)
{
    auto report = [](const std::string &name) {
        const auto trace = loadTrace(test::dataPath(name + ".dat"));
        const TickAnalysis a = TickAnalysis::run(*trace);
        return TickReport::make(*trace, a, {}).cpus.at(1).wakeup;
    };
    const WakeupReport k32 = report("rt-hrtimer-k32");
    EXPECT_EQ(k32.longestHardRun, 1u);
    EXPECT_GE(k32.maxBurst, 16u); // soft batches
    EXPECT_LE(k32.maxBurst, 32u);
    EXPECT_EQ(k32.rtDelayed, 0u);
    const WakeupReport fifo = report("rt-hrtimer-k32-fifo50");
    EXPECT_EQ(fifo.longestHardRun, 33u); // the ground truth script's count for this trace
    EXPECT_EQ(fifo.byContext[1][0].count + fifo.byContext[1][1].count, 0u);
    EXPECT_EQ(fifo.rtDelayed, 0u); // every sleeper is RT: no non-RT expiry to wait for
}

// Non-RT kernels run every hrtimer_wakeup in hard interrupt context.
TEST(RtTraces, NonRtFixturesAreAllHard)
{
    for (const char *name :
         {"host-6.18-cyclictest.dat", "host-6.18-idle.dat", "host-cyclic-v6.dat", "host-sleep.dat",
          "nohzfull-poll.dat", "nohzfull-nopoll.dat", "host-trace.txt"}) {
        const auto trace = loadTrace(test::dataPath(name));
        const TickAnalysis a = TickAnalysis::run(*trace);
        uint64_t n = 0;
        for (const CpuAnalysis &c : a.cpus) {
            for (size_t k = 0; k < c.timers.wakeups.size(); ++k) {
                const uint8_t f = c.timers.wakeups[k].flags;
                EXPECT_EQ(f & (WakeupFlag::ContextKnown | WakeupFlag::Soft), WakeupFlag::ContextKnown)
                    << name;
                ++n;
            }
        }
        EXPECT_GT(n, 10u) << name;
    }
}

} // namespace
} // namespace tickscope
