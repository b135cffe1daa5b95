// SPDX-License-Identifier: GPL-3.0-or-later
// hrtimer lateness and wakeup latency across CPUs and across lost events, on hand-written ftrace text
// traces: a timer started on one CPU that expires on another, gaps before and after a wakeup's switch-in or
// an expiry's start, pointers several CPUs name, a wakeup and its switch-in in one microsecond, and a
// woken task switched in on a CPU it was pulled to or still running on another.
#include "StreamTestUtil.h"
#include "TimerTextTrace.h"

#include "analysis/WakeupLatency.h"
#include "import/Loader.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace tickscope {
namespace {

using namespace test; // TextTrace, analyse, kIdle, Result

TEST(AnalysisTimerText, StartOnOneCpuExpiryOnAnother)
{
    TextTrace t;
    const std::string A = "00000000aaaa0010";
    // an old arm of the same pointer on CPU 0, then the re-arm that counts on CPU 1; the expiry on CPU 0
    t.start(0, 1.000000, "app-300", A, 1000900000, 1000900000);
    t.start(1, 1.000010, "app-300", A, 1000500000, 1000450000);
    t.ev(0, 1.000400, kIdle, "local_timer_entry: vector=236", "d.h..");
    t.expire(0, 1.000401, kIdle, A, 1000456000).waking(0, 1.000402, kIdle, "app", 300, 120, 1);
    t.ev(0, 1.000403, kIdle, "hrtimer_expire_exit: hrtimer=" + A, "d.h..");
    t.ev(0, 1.000404, kIdle, "local_timer_exit: vector=236", "d.h..");
    t.sw(1, 1.000421, "swapper/1", 0, "app", 300);
    // an expiry whose pointer was never started: lateness unknown
    t.expire(0, 1.000500, kIdle, "00000000dead0000", 1000555000, "some_fn");
    t.ev(0, 1.000501, kIdle, "hrtimer_expire_exit: hrtimer=00000000dead0000", "d.h..");
    const Result r = analyse(t);
    const CpuTimers &c = r.timers(0);
    ASSERT_EQ(c.wakeups.size(), 1u);
    EXPECT_EQ(c.wakeups[0].latenessNs, -44000); // fired between softexpires and expires
    EXPECT_EQ(c.softLateness->of(c.wakeups[0]), 6000);
    EXPECT_EQ(c.wakeups[0].latencyNs, 20000); // switched in on CPU 1, its target_cpu
    ASSERT_EQ(c.otherLateness.size(), 1u);
    EXPECT_EQ(c.otherLateness[0].latenessNs, kUnknownNs);
    EXPECT_EQ(r.report().cpus[0].wakeup.unpaired, 0u);
}

// Some CPU lost events after the wakeup: the woken task's switch-in may be among them (on its target CPU,
// or on one it was pulled to), and the next one the trace shows ends a later wait. The latency is unknown
// (no_switch), not 3 ms. Gaps that end before the wakeup change nothing; a CPU whose data opens with lost
// events after the wakeup (its buffer overwritten) counts as dark until its first event. `report --stream`
// says the same.
TEST(AnalysisTimerText, AWakeupAfterWhichSomeCpuLostEventsBeforeTheSwitchInFoundHasNoLatency)
{
    const std::string A = "00000000aaaa0010", B = "00000000bbbb0010";
    enum Gap
    {
        None,
        OnItsCpu,        // the CPU it is switched in on
        OnAThirdCpu,     // neither the wakeup's nor the switch-in's
        OpeningLate,     // CPU 3's data begins, after lost events, between the wakeup and the switch-in
        OpeningEarly,    // ... before the wakeup
        OnAThirdCpuLate, // a third CPU's gap after the switch-in
        OpeningAtTheEnd, // CPU 3's data begins, after lost events, at the end: a stream measures the
                         // wakeup before it reads that page
        TrailingLost // a text LOST line after CPU 4's last event, the trace's last, its only gap: it reads
                     // from == to, like a gap that opens the data, and is not one
    };
    for (const Gap gap : {None, OnItsCpu, OnAThirdCpu, OpeningLate, OpeningEarly, OnAThirdCpuLate,
                          OpeningAtTheEnd, TrailingLost}) {
        TextTrace t;
        t.start(0, 1.000000, "app-300", A, 1000400000, 1000400000);
        t.start(0, 1.000001, "db-301", B, 1005000000, 1005000000);
        t.sw(0, 1.000002, "app", 300, "swapper/0", 0);
        t.sw(1, 1.000003, "db", 301, "swapper/1", 0);
        t.lost(1, 4); // (before the wakeup)
        t.ev(1, 1.000300, kIdle, "sched_waking: comm=x pid=9 prio=120 target_cpu=001");
        t.ev(2, 1.000100, "cat-12", "sched_waking: comm=x pid=9 prio=120 target_cpu=002");
        t.lost(2, 5); // (before the wakeup)
        t.ev(2, 1.000350, "cat-12", "sched_waking: comm=x pid=9 prio=120 target_cpu=002");
        if (gap == OpeningEarly)
            t.lost(3, 9).ev(3, 1.000380, "cat-14", "sched_waking: comm=x pid=9 prio=120 target_cpu=003");
        t.wakeOne(1, 1.000400, kIdle, A, 1000400000, "app", 300, 120);
        t.ev(1, 1.000420, kIdle, "sched_waking: comm=x pid=9 prio=120 target_cpu=001");
        if (gap == OnItsCpu) t.lost(1, 30);
        if (gap == OnAThirdCpu) t.lost(2, 30);
        t.ev(2, 1.002000, "cat-12", "sched_waking: comm=x pid=9 prio=120 target_cpu=002");
        if (gap == OpeningLate)
            t.lost(3, 9).ev(3, 1.002500, "cat-14", "sched_waking: comm=x pid=9 prio=120 target_cpu=003");
        t.sw(1, 1.003400, "swapper/1", 0, "app", 300);
        t.ev(2, 1.003500, "cat-12", "sched_waking: comm=x pid=9 prio=120 target_cpu=002");
        if (gap == OnAThirdCpuLate) t.lost(2, 30);
        t.ev(2, 1.004000, "cat-12", "sched_waking: comm=x pid=9 prio=120 target_cpu=002");
        t.wakeOne(1, 1.005000, kIdle, B, 1005000000, "db", 301, 120);
        t.sw(1, 1.005010, "swapper/1", 0, "db", 301);
        for (double ts = 1.0060; ts < 1.2; ts += 0.0005) { // (CPUs 1 and 2 go on, page after page)
            t.ev(1, ts, "db-301", "sched_waking: comm=x pid=9 prio=120 target_cpu=001");
            t.ev(2, ts, "cat-12", "sched_waking: comm=x pid=9 prio=120 target_cpu=002");
        }
        if (gap == OpeningAtTheEnd)
            t.lost(3, 9).ev(3, 1.25, "cat-14", "sched_waking: comm=x pid=9 prio=120 target_cpu=003");
        if (gap == TrailingLost) {
            t.ev(4, 1.000010, "cat-15", "sched_waking: comm=x pid=9 prio=120 target_cpu=004");
            t.ev(4, 1.2, "cat-15", "sched_waking: comm=x pid=9 prio=120 target_cpu=004").lost(4, 7);
        }
        const bool unknown =
            gap == OnItsCpu || gap == OnAThirdCpu || gap == OpeningLate || gap == OpeningAtTheEnd;
        const Result r = analyse(t);
        const CpuTimers &c = r.timers(1);
        ASSERT_EQ(c.wakeups.size(), 2u) << gap;
        EXPECT_EQ(c.wakeups[0].latencyNs, unknown ? kUnknownNs : 3000000) << gap;
        const bool second = gap == OpeningAtTheEnd; // (the others end before it)
        EXPECT_EQ(c.wakeups[1].latencyNs, second ? kUnknownNs : 10000) << gap;
        EXPECT_EQ(r.report().cpus[1].wakeup.noSwitch, (unknown ? 1u : 0u) + (second ? 1u : 0u)) << gap;
        const test::DatOfText d = test::datOfText(*t.load(), "gap-anywhere.dat");
        const TickAnalysis fromDat = TickAnalysis::run(*d.loaded); // (the gaps written where they were)
        const Column<HrtimerWakeup> &w = fromDat.cpus[1].timers.wakeups;
        ASSERT_EQ(w.size(), 2u) << gap;
        EXPECT_EQ(w[0].latencyNs, c.wakeups[0].latencyNs) << gap << ", written as trace.dat";
        EXPECT_EQ(w[1].latencyNs, c.wakeups[1].latencyNs) << gap << ", written as trace.dat";
        const std::string whole = test::loadedJson(*d.loaded);
        for (int64_t slice : {100'000, 1'000'000})
            EXPECT_EQ(whole, test::streamedJson(d.path, *d.loaded, slice, SIZE_MAX)) << gap << " " << slice;
    }
}

// An expiry pairs with the last start of its pointer, unless the expiry's CPU or the start's lost events in
// between: the timer may have expired and been started again unseen (a lateness of 3 ms against a start
// two periods old). A gap before the start, or on a third CPU, changes nothing.
TEST(AnalysisTimerText, AnExpiryAfterLostEventsHasNoLatenessFromAStartBeforeThem)
{
    const std::string A = "00000000aaaa0010", B = "00000000bbbb0010";
    for (int lostOn : {-1, 0, 1, 2}) {
        TextTrace t;
        t.lost(0, 2).start(0, 1.000000, "app-300", A, 1000500000, 1000500000); // (a gap opening CPU 0)
        t.start(0, 1.000001, "app-300", B, 1001000000, 1001000000);            // expires on CPU 1
        t.ev(1, 1.000002, kIdle, "sched_waking: comm=x pid=9 prio=120 target_cpu=001");
        t.ev(2, 1.000003, "cat-12", "sched_waking: comm=x pid=9 prio=120 target_cpu=002");
        t.ev(0, 1.000200, "app-300", "sched_waking: comm=x pid=9 prio=120 target_cpu=000");
        t.ev(1, 1.000200, kIdle, "sched_waking: comm=x pid=9 prio=120 target_cpu=001");
        t.ev(2, 1.000200, "cat-12", "sched_waking: comm=x pid=9 prio=120 target_cpu=002");
        if (lostOn >= 0) t.lost(lostOn, 7);
        t.expire(0, 1.003500, "app-300", A, 1003500000, "some_fn");
        t.ev(0, 1.003501, "app-300", "hrtimer_expire_exit: hrtimer=" + A, "d.h..");
        t.ev(2, 1.003600, "cat-12", "sched_waking: comm=x pid=9 prio=120 target_cpu=002");
        t.expire(1, 1.004000, kIdle, B, 1004000000, "other_fn");
        t.ev(1, 1.004001, kIdle, "hrtimer_expire_exit: hrtimer=" + B, "d.h..");
        const Result r = analyse(t);
        ASSERT_EQ(r.timers(0).otherLateness.size(), 1u) << lostOn;
        ASSERT_EQ(r.timers(1).otherLateness.size(), 1u) << lostOn;
        // A started and expired on CPU 0; B started on CPU 0, expired on CPU 1
        EXPECT_EQ(r.timers(0).otherLateness[0].latenessNs, lostOn == 0 ? kUnknownNs : 3000000) << lostOn;
        EXPECT_EQ(r.timers(1).otherLateness[0].latenessNs, lostOn == 0 || lostOn == 1 ? kUnknownNs : 3000000)
            << lostOn;
    }
}

// Gaps still open when they matter: the wakeup's target CPU loses events from right after the wakeup until
// long after the switch-in found on another CPU (it may have run there first), and a timer's start CPU
// loses events from after the start until after its expiry on another CPU (it may have been started again
// there). Both unknown; so is the latency of a wakeup whose target CPU is dark at its switch-in elsewhere.
// `report --stream` in steps that end inside the gap says the same: it measures the first wakeup 100 ms
// on, while CPU 0's page after the gap is still unread.
TEST(AnalysisTimerText, GapsOpenAcrossTheSwitchInOrExpiryFoundLeaveLatencyAndLatenessUnknown)
{
    const std::string A = "00000000aaaa0010", B = "00000000bbbb0010";
    for (const bool lost : {false, true}) {
        TextTrace t;
        t.start(0, 1.000000, "app-300", A, 1000400000, 1000400000);
        t.start(0, 1.000001, "db-301", B, 1004000000, 1004000000); // expires on CPU 2
        t.sw(0, 1.000002, "db", 301, "app", 300);
        t.sw(0, 1.000003, "app", 300, "swapper/0", 0);
        t.sw(2, 1.000004, "cat", 12, "swapper/2", 0);
        t.ev(1, 1.000005, "cat-13", "sched_waking: comm=x pid=9 prio=120 target_cpu=001");
        t.wakeOne(2, 1.000400, kIdle, A, 1000400000, "app", 300, 120); // both wake onto CPU 0
        t.ev(0, 1.000402, kIdle, "sched_waking: comm=x pid=9 prio=120 target_cpu=000");
        if (lost) t.lost(0, 40);
        t.sw(1, 1.003000, "cat", 13, "app", 300); // (on CPU 1, CPU 0 still dark)
        t.wakeOne(2, 1.004000, kIdle, B, 1004000000, "db", 301, 120);
        t.sw(2, 1.004010, "swapper/2", 0, "db", 301);
        for (double ts = 1.0050; ts < 1.2; ts += 0.0005) { // (CPUs 1 and 2 go on, page after page)
            t.ev(1, ts, "app-300", "sched_waking: comm=x pid=9 prio=120 target_cpu=001");
            t.ev(2, ts, "db-301", "sched_waking: comm=x pid=9 prio=120 target_cpu=002");
        }
        t.ev(0, 1.25, kIdle, "sched_waking: comm=x pid=9 prio=120 target_cpu=000");
        const Result r = analyse(t);
        const CpuTimers &c = r.timers(2);
        ASSERT_EQ(c.wakeups.size(), 2u) << lost;
        EXPECT_EQ(c.wakeups[0].latenessNs, 0) << lost;                          // A: all before the gap
        EXPECT_EQ(c.wakeups[0].latencyNs, lost ? kUnknownNs : 2600000) << lost; // 1.003000 - 1.000400
        EXPECT_EQ(c.wakeups[1].latenessNs, lost ? kUnknownNs : 0) << lost;      // B: started on CPU 0
        EXPECT_EQ(c.wakeups[1].latencyNs, lost ? kUnknownNs : 10000) << lost;
        const test::DatOfText d = test::datOfText(*t.load(), "open-gaps.dat");
        ASSERT_EQ(d.loaded->cpu(0).lost.size(), lost ? 1u : 0u);
        const std::string whole = test::loadedJson(*d.loaded);
        for (int64_t slice : {100'000, 1'000'000})
            EXPECT_EQ(whole, test::streamedJson(d.path, *d.loaded, slice, SIZE_MAX))
                << lost << " " << slice << " ns steps";
    }
}

TEST(AnalysisTimerText, SharedPointersFollowTimeAcrossCpus)
{
    // B only ever on CPU 0 (paired on its CPU); A named by both CPUs (paired in the merge across them):
    // armed on CPU 0, expired on CPU 1, which uses the start up for CPU 0's next expiry; re-armed on CPU 1
    // at the very ts of an expiry on CPU 0, which the start precedes.
    TextTrace t;
    const std::string A = "00000000aaaa0030", B = "00000000bbbb0030";
    t.start(0, 1.000000, "app-300", B, 1000100000, 1000100000, "some_fn");
    t.start(0, 1.000001, "app-300", A, 1000200000, 1000200000, "some_fn");
    t.expire(0, 1.000105, kIdle, B, 1000105000, "some_fn");
    t.ev(0, 1.000106, kIdle, "hrtimer_expire_exit: hrtimer=" + B, "d.h..");
    t.expire(1, 1.000210, kIdle, A, 1000210000, "some_fn");
    t.ev(1, 1.000211, kIdle, "hrtimer_expire_exit: hrtimer=" + A, "d.h..");
    t.expire(0, 1.000300, kIdle, A, 1000300000, "some_fn");
    t.ev(0, 1.000301, kIdle, "hrtimer_expire_exit: hrtimer=" + A, "d.h..");
    t.expire(0, 1.000400, kIdle, A, 1000401000, "some_fn");
    t.start(1, 1.000400, "app-300", A, 1000400000, 1000400000, "some_fn");
    t.ev(0, 1.000402, kIdle, "hrtimer_expire_exit: hrtimer=" + A, "d.h..");
    const Result r = analyse(t);
    const CpuTimers &c0 = r.timers(0);
    ASSERT_EQ(c0.otherLateness.size(), 3u);
    EXPECT_EQ(c0.otherLateness[0].latenessNs, 5000);       // B
    EXPECT_EQ(c0.otherLateness[1].latenessNs, kUnknownNs); // A's start was used up on CPU 1
    EXPECT_EQ(c0.otherLateness[2].latenessNs, 1000);       // CPU 1's start of the same ts came first
    const CpuTimers &c1 = r.timers(1);
    ASSERT_EQ(c1.otherLateness.size(), 1u);
    EXPECT_EQ(c1.otherLateness[0].latenessNs, 10000); // CPU 0's start
}

TEST(AnalysisTimerText, AWakeupAndItsSwitchInOfOneMicrosecondHaveALatency)
{
    // A text trace's microseconds: x's timer expires and wakes it, and x is switched in, all in one
    // microsecond, on the wakeup's CPU or on another. x was asleep, not running (no latency, then).
    for (const int on : {0, 1}) {
        const std::string P = "00000000dddd0040", idle = on ? "swapper/1" : "swapper/0";
        const std::string waker = on ? "app-100" : kIdle;
        TextTrace t;
        t.start(on, 1.000000, "x-300", P, 1001000000, 1001000000);
        t.sw(on, 1.000000, "x", 300, idle, 0);
        t.expire(0, 1.001000, waker, P, 1001000200).waking(0, 1.001000, waker, "x", 300, 120, on);
        t.ev(0, 1.001000, waker, "hrtimer_expire_exit: hrtimer=" + P, "d.h..");
        t.sw(on, 1.001000, idle, 0, "x", 300, 120, "R");
        t.ev(on, 1.002000, "x-300", "sys_exit: NR 35 = 0");
        const Result r = analyse(t);
        const Column<HrtimerWakeup> &w = r.timers(0).wakeups;
        ASSERT_EQ(w.size(), 1u) << "on CPU " << on;
        EXPECT_EQ(w[0].latenessNs, 200) << "on CPU " << on;
        EXPECT_EQ(w[0].latencyNs, 0) << "on CPU " << on;
        const test::DatOfText d = test::datOfText(*t.load(), "one-microsecond-wakeup.dat");
        EXPECT_EQ(test::loadedJson(*d.loaded), test::streamedJson(d.path, *d.loaded, 1000, SIZE_MAX));
    }
}

TEST(AnalysisTimerText, AWokenTaskIsLookedForOnTheCpusItRunsOn)
{
    // Four CPUs, each switching tasks of its own. x (pid 300) sleeps on CPU 1; its timer fires on CPU 0 and
    // names CPU 0, but CPU 2 pulls x first: its latency ends at CPU 2's switch-in, not at CPU 0's later one
    // of another task. y (pid 400) runs on CPU 3 when its timer fires on CPU 0: still running, no latency.
    const std::string P = "00000000dddd0050", Q = "00000000dddd0060";
    TextTrace t;
    for (int c = 0; c < 4; ++c) // every CPU has switches of its own tasks
        t.sw(c, 0.900000, "swapper/" + std::to_string(c), 0, "w" + std::to_string(c), 500 + c)
            .sw(c, 0.950000, "w" + std::to_string(c), 500 + c, "swapper/" + std::to_string(c), 0);
    t.sw(1, 0.990000, "swapper/1", 0, "x", 300, 120, "R");
    t.start(1, 1.000000, "x-300", P, 1001000000, 1001000000);
    t.sw(1, 1.000000, "x", 300, "swapper/1", 0);
    t.sw(3, 1.000500, "swapper/3", 0, "y", 400, 120, "R");
    t.start(3, 1.000600, "y-400", Q, 1001000000, 1001000000);
    t.expire(0, 1.001000, kIdle, P, 1001000100).waking(0, 1.001001, kIdle, "x", 300, 120, 0);
    t.ev(0, 1.001002, kIdle, "hrtimer_expire_exit: hrtimer=" + P, "d.h..");
    t.expire(0, 1.001010, kIdle, Q, 1001000110).waking(0, 1.001011, kIdle, "y", 400, 120, 0);
    t.ev(0, 1.001012, kIdle, "hrtimer_expire_exit: hrtimer=" + Q, "d.h..");
    t.sw(2, 1.001050, "swapper/2", 0, "x", 300);
    t.sw(0, 1.002000, "swapper/0", 0, "w0", 500);
    t.sw(3, 1.003000, "y", 400, "swapper/3", 0);
    t.sw(0, 1.004000, "w0", 500, "y", 400);
    t.ev(2, 1.005000, "x-300", "sys_exit: NR 35 = 0");
    const Result r = analyse(t);
    const Column<HrtimerWakeup> &w = r.timers(0).wakeups;
    ASSERT_EQ(w.size(), 2u);
    EXPECT_EQ(w[0].latencyNs, 50000) << "x's switch-in on CPU 2, where it was pulled";
    EXPECT_EQ(w[1].latencyNs, kUnknownNs) << "y was running on CPU 3 when woken";
    const test::DatOfText d = test::datOfText(*t.load(), "woken-elsewhere.dat");
    EXPECT_EQ(test::loadedJson(*d.loaded), test::streamedJson(d.path, *d.loaded, 1000, SIZE_MAX));
}

TEST(AnalysisTimerText, ManySlackValuesKeepEachWakeupsSoftLateness)
{
    // 600 sleepers woken on CPU 0, each with a slack of its own (an event loop's poll timeouts give one per
    // timeout): 255 values fit the CPU's slots, the rest are kept by record. Half the timers were started on
    // CPU 1, so their pointers go through the merge of shared pointers, the others through CPU 0's pieces.
    // Whatever the pieces, each wakeup's soft lateness must be its own, and the streamed report the loaded
    // one.
    constexpr int kSleepers = 600;
    const auto ptr = [](int k) {
        char b[17];
        std::snprintf(b, sizeof b, "00000000eeee%04x", k);
        return std::string(b);
    };
    const auto slack = [](int k) { return 1000 + 37 * k; };
    TextTrace t;
    for (int k = 0; k < kSleepers; ++k) {
        const double ts = 1.0 + k * 1e-4;
        const long long expires = 1000000000LL + k * 100000LL + 50000;
        t.start(k % 2, ts, "app-" + std::to_string(300 + k), ptr(k), expires, expires - slack(k));
        t.wakeOne(0, ts + 5e-5, kIdle, ptr(k), expires + 100 + k, "app", 300 + k, 120);
    }
    const auto trace = t.load();
    for (const size_t part : {size_t{0}, size_t{16}}) {
        AnalysisOptions o;
        o.partEvents = part;
        o.threads = 2;
        const TickAnalysis a = TickAnalysis::run(*trace, o);
        const CpuTimers &c = a.cpus[0].timers;
        ASSERT_EQ(c.wakeups.size(), size_t{kSleepers}) << part;
        EXPECT_EQ(c.softLateness->values(), 255u) << part;
        EXPECT_EQ(c.softLateness->records(), size_t{kSleepers - 255}) << part;
        for (int k = 0; k < kSleepers; ++k) {
            ASSERT_EQ(c.wakeups[static_cast<size_t>(k)].latenessNs, 100 + k) << part << " " << k;
            ASSERT_EQ(c.softLateness->of(c.wakeups[static_cast<size_t>(k)]), 100 + k + slack(k))
                << part << " " << k;
        }
    }
    const test::DatOfText d = test::datOfText(*trace, "many-slacks.dat");
    for (const int64_t slice : {1000, 100000})
        EXPECT_EQ(test::loadedJson(*d.loaded), test::streamedJson(d.path, *d.loaded, slice, SIZE_MAX))
            << slice;
}

} // namespace
} // namespace tickscope
