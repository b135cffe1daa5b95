// SPDX-License-Identifier: GPL-3.0-or-later
// Timer softirq catch-up and hrtimer lateness / wakeup latency on small hand-written ftrace text traces
// (tracefs `trace` format, loaded through the text importer from a temp file): a long TIMER softirq after
// a long tickless idle with one quick timer (catch-up), a long one explained by a slow callback (not a
// catch-up), a burst of three wakeups in one timer interrupt, an RT wakeup delayed by non-RT ones before it
// in one interrupt, a soft expiry of a preempted softirq thread (PREEMPT_RT), an RT and a normal wakeup.
// Across CPUs and gaps: AnalysisTimerTextAcrossCpusTest.cpp.
#include "TimerTextTrace.h"

#include "analysis/WakeupLatency.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace tickscope {
namespace {

using namespace test; // TextTrace, analyse, kIdle, Result

TEST(AnalysisTimerText, LongTimerSoftirqAfterLongIdleIsACatchUp)
{
    TextTrace t;
    t.ev(0, 1.000000, kIdle, "tick_stop: success=1 dependency=NONE", "d....");
    t.ev(0, 1.000001, kIdle, "cpu_idle: state=2 cpu_id=0", "d....");
    t.ev(0, 3.000000, kIdle, "local_timer_entry: vector=236", "d.h..");
    t.ev(0, 3.000002, kIdle, "local_timer_exit: vector=236", "d.h..");
    t.ev(0, 3.000003, kIdle, "cpu_idle: state=4294967295 cpu_id=0", "d....");
    t.ev(0, 3.000010, kIdle, "softirq_entry: vec=1 [action=TIMER]", "..s..");
    t.ev(0, 3.000100, kIdle,
         "timer_expire_entry: timer=00000000c0ffee00 function=process_timeout now=4294670000 "
         "baseclk=4294668000",
         "..s..");
    t.ev(0, 3.000105, kIdle, "timer_expire_exit: timer=00000000c0ffee00", "..s..");
    t.ev(0, 3.000400, kIdle, "softirq_exit: vec=1 [action=TIMER]", "..s..");
    t.ev(0, 3.000500, kIdle, "cpu_idle: state=2 cpu_id=0", "d....");
    const Result r = analyse(t);
    const CpuTimers &c = r.timers(0);
    ASSERT_EQ(c.timerSoftirqs.size(), 1u);
    const TimerSoftirq &s = c.timerSoftirqs[0];
    EXPECT_EQ(s.durationNs, 390000);
    EXPECT_EQ(s.timers, 1u);
    EXPECT_EQ(s.callbackNs, 5000);
    EXPECT_EQ(s.idleNs, 2000010000); // since the tick stopped
    EXPECT_EQ(s.jiffiesBehind, 2000);
    EXPECT_EQ(s.jiffiesSincePrev, -1);
    EXPECT_TRUE(s.catchup);
    const TickReport rep = r.report();
    EXPECT_EQ(rep.cpus[0].timerSoftirq.count, 1u);
    EXPECT_EQ(rep.cpus[0].timerSoftirq.maxNs, 390000);
    EXPECT_EQ(rep.cpus[0].timerSoftirq.catchup, 1u);
    ASSERT_EQ(rep.cpus[0].longSoftirqs.size(), 1u);
    EXPECT_TRUE(rep.cpus[0].longSoftirqs[0].catchup);
    const std::string json = formatReportJson(rep);
    EXPECT_NE(json.find("\"timer_softirq\": {\n        \"count\": 1,\n        \"max_ns\": 390000,\n        "
                        "\"catchup\": 1,"),
              std::string::npos)
        << json;
}

TEST(AnalysisTimerText, LongTimerSoftirqExplainedByASlowCallbackIsNot)
{
    TextTrace t;
    t.ev(0, 5.000000, "app-50", "softirq_entry: vec=1 [action=TIMER]", "..s..");
    t.ev(0, 5.000005, "app-50",
         "timer_expire_entry: timer=00000000c0ffee00 function=slow_fn now=4294700000 baseclk=4294700000",
         "..s..");
    t.ev(0, 5.000305, "app-50", "timer_expire_exit: timer=00000000c0ffee00", "..s..");
    t.ev(0, 5.000310, "app-50", "softirq_exit: vec=1 [action=TIMER]", "..s..");
    t.ev(0, 5.001000, "app-50", "softirq_entry: vec=1 [action=TIMER]", "..s..");
    t.ev(0, 5.001002, "app-50",
         "timer_expire_entry: timer=00000000c0ffee08 function=fast_fn now=4294700001 baseclk=4294700001",
         "..s..");
    t.ev(0, 5.001003, "app-50", "timer_expire_exit: timer=00000000c0ffee08", "..s..");
    t.ev(0, 5.001005, "app-50", "softirq_exit: vec=1 [action=TIMER]", "..s..");
    const Result r = analyse(t);
    const CpuTimers &c = r.timers(0);
    ASSERT_EQ(c.timerSoftirqs.size(), 2u);
    EXPECT_EQ(c.timerSoftirqs[0].durationNs, 310000);
    EXPECT_EQ(c.timerSoftirqs[0].callbackNs, 300000);
    EXPECT_FALSE(c.timerSoftirqs[0].catchup);
    EXPECT_EQ(c.timerSoftirqs[0].idleNs, 0); // the tick never stopped
    EXPECT_EQ(c.timerSoftirqs[1].durationNs, 5000);
    EXPECT_FALSE(c.timerSoftirqs[1].catchup); // short
    EXPECT_EQ(c.timerSoftirqs[1].sincePrevNs, 690000);
    EXPECT_EQ(c.timerSoftirqs[1].jiffiesSincePrev, 1);
    const TickReport rep = r.report();
    EXPECT_EQ(rep.cpus[0].timerSoftirq.count, 2u);
    EXPECT_EQ(rep.cpus[0].timerSoftirq.maxNs, 310000);
    EXPECT_EQ(rep.cpus[0].timerSoftirq.catchup, 0u);
}

TEST(AnalysisTimerText, BurstOfThreeWakeupsInOneInterrupt)
{
    TextTrace t;
    const std::string A = "00000000aaaa0010", B = "00000000aaaa0020", C = "00000000aaaa0030";
    t.start(0, 1.000000, "w1-101", A, 1000100000, 1000100000);
    t.start(0, 1.000001, "w2-102", B, 1000100000, 1000100000);
    t.start(0, 1.000002, "w3-103", C, 1000100000, 1000100000);
    t.ev(0, 1.000100, kIdle, "local_timer_entry: vector=236", "d.h..");
    t.wakeOne(0, 1.000101, kIdle, A, 1000102000, "w1", 101, 0);
    t.wakeOne(0, 1.000104, kIdle, B, 1000103000, "w2", 102, 0);
    t.wakeOne(0, 1.000107, kIdle, C, 1000104000, "w3", 103, 0);
    t.ev(0, 1.000110, kIdle, "local_timer_exit: vector=236", "d.h..");
    t.sw(0, 1.000120, "swapper/0", 0, "w1", 101, 0);
    t.sw(0, 1.000130, "w1", 101, "w2", 102, 0);
    t.sw(0, 1.000140, "w2", 102, "w3", 103, 0);
    // a single wakeup in the next interrupt: no burst
    t.start(0, 1.000150, "w3-103", A, 1000200000, 1000200000);
    t.ev(0, 1.000200, "w3-103", "local_timer_entry: vector=236", "d.h..");
    t.expire(0, 1.000201, "w3-103", A, 1000201000).waking(0, 1.000202, "w3-103", "w1", 101, 0, 0);
    t.ev(0, 1.000203, "w3-103", "hrtimer_expire_exit: hrtimer=" + A, "d.h..");
    t.ev(0, 1.000204, "w3-103", "local_timer_exit: vector=236", "d.h..");
    t.sw(0, 1.000210, "w3", 103, "w1", 101, 0);
    const Result r = analyse(t);
    const CpuTimers &c = r.timers(0);
    ASSERT_EQ(c.wakeups.size(), 4u);
    ASSERT_EQ(c.batches.size(), 1u);
    EXPECT_EQ(c.batches[0].count, 3u);
    EXPECT_FALSE(c.batches[0].soft);
    for (size_t k = 0; k < 3; ++k)
        EXPECT_TRUE(c.wakeups[k].flags & WakeupFlag::Burst) << k;
    EXPECT_FALSE(c.wakeups[3].flags & WakeupFlag::Burst);
    for (size_t k = 0; k < 4; ++k) // the woken task named by each expiry's sched_waking
        EXPECT_TRUE(c.wakeups[k].flags & WakeupFlag::TaskKnown) << k;
    EXPECT_EQ(c.wakeups[0].latencyNs, 19000); // 1.000120 - 1.000101
    EXPECT_EQ(c.wakeups[1].latencyNs, 26000); // 1.000130 - 1.000104
    EXPECT_EQ(c.wakeups[2].latencyNs, 33000); // 1.000140 - 1.000107
    EXPECT_EQ(c.wakeups[3].latencyNs, 9000);
    EXPECT_EQ(c.wakeups[0].latenessNs, 2000);
    EXPECT_EQ(c.wakeups[1].latenessNs, 3000);
    EXPECT_EQ(c.wakeups[2].latenessNs, 4000);
    EXPECT_EQ(c.wakeups[3].latenessNs, 1000); // paired with the re-start of A, not the first one
    const TickReport rep = r.report();
    const WakeupReport &w = rep.cpus[0].wakeup;
    EXPECT_EQ(w.count, 4u);
    EXPECT_EQ(w.bursts, 1u);
    EXPECT_EQ(w.maxBurst, 3u);
    EXPECT_EQ(w.inBursts, 3u);
    EXPECT_EQ(w.latency.min, 9000);
    EXPECT_EQ(w.latency.p50, 19000); // nearest rank: 2nd of 4
    EXPECT_EQ(w.latency.max, 33000);
    EXPECT_EQ(w.lateness.max, 4000);
}

// An RT sleeper's expiry run after a non-RT one in the same hard interrupt waited for it: from the non-RT
// expiry's entry to its own (seed 003's mechanism). In a softirq span the same order costs the RT task
// nothing it would not wait for anyway, and is not counted.
TEST(AnalysisTimerText, RtWakeupDelayedByNonRtInOneInterrupt)
{
    TextTrace t;
    const std::string A = "00000000aaaa0010", B = "00000000aaaa0020", C = "00000000aaaa0030";
    t.start(0, 1.000000, "norm-202", A, 1000100000, 1000100000);
    t.start(0, 1.000001, "norm-203", B, 1000100000, 1000100000);
    t.start(0, 1.000002, "rt-201", C, 1000100000, 1000100000);
    t.ev(0, 1.000100, kIdle, "local_timer_entry: vector=236", "d.h..");
    t.wakeOne(0, 1.000101, kIdle, A, 1000101000, "norm", 202, 120);
    t.wakeOne(0, 1.000104, kIdle, B, 1000104000, "norm", 203, 120);
    t.wakeOne(0, 1.000111, kIdle, C, 1000111000, "rt", 201, 9);
    t.ev(0, 1.000114, kIdle, "local_timer_exit: vector=236", "d.h..");
    t.sw(0, 1.000120, "swapper/0", 0, "rt", 201, 9);
    const Result r = analyse(t);
    const CpuTimers &c = r.timers(0);
    ASSERT_EQ(c.batches.size(), 1u);
    EXPECT_EQ(c.batches[0].count, 3u);
    EXPECT_EQ(c.batches[0].rtDelayed, 1u);
    ASSERT_EQ(c.rtDelays.size(), 1u);
    EXPECT_EQ(c.rtDelays[0].first, c.batches[0].first);
    EXPECT_EQ(c.rtDelays[0].totalNs, 10000); // 1.000111 - 1.000101
    for (size_t k = 0; k < 3; ++k)
        EXPECT_EQ(c.wakeups[k].flags & (WakeupFlag::ContextKnown | WakeupFlag::Soft),
                  WakeupFlag::ContextKnown);
    const WakeupReport w = r.report().cpus[0].wakeup;
    EXPECT_EQ(w.longestHardRun, 3u);
    EXPECT_EQ(w.rtDelayed, 1u);
    EXPECT_EQ(w.rtDelayMaxNs, 10000);
    EXPECT_EQ(w.byContext[0][0].count, 1u);
    EXPECT_EQ(w.byContext[0][1].count, 2u);
}

// PREEMPT_RT: the softirq thread is preempted inside a soft expiry (after its expire_entry, before the
// waking); the RT task that runs meanwhile gets a hard expiry in its own interrupt and wakes another task
// from task context. The soft expiry's woken task is the one ktimers wakes when it resumes, not the RT
// task's wakings; the hard one is not inside ktimers' HRTIMER span although that span is still open. No
// flags column here (as in `trace-cmd report` text): the spans per task decide.
TEST(AnalysisTimerText, PreemptedSoftirqThreadKeepsItsExpiry)
{
    TextTrace t;
    t.noFlags();
    const std::string A = "00000000aaaa0010", B = "00000000aaaa0020";
    const std::string kt = "ktimers/0-20", rt = "rt-201";
    t.start(0, 1.000000, "norm-202", A, 1000090000, 1000090000);
    t.start(0, 1.000001, "rt-201", B, 1000100000, 1000100000);
    t.sw(0, 1.000050, "rt", 201, "ktimers/0", 20, 98);
    t.ev(0, 1.000090, kt, "softirq_entry: vec=8 [action=HRTIMER]", "");
    t.expire(0, 1.000091, kt, A, 1000091000);
    t.ev(0, 1.000095, kt, "local_timer_entry: vector=236", "");
    t.expire(0, 1.000100, kt, B, 1000100000).waking(0, 1.000101, kt, "rt", 201, 9, 0);
    t.ev(0, 1.000102, kt, "hrtimer_expire_exit: hrtimer=" + B, "");
    t.ev(0, 1.000103, kt, "local_timer_exit: vector=236", "");
    t.sw(0, 1.000104, "ktimers/0", 20, "rt", 201, 9, "R");
    t.waking(0, 1.000110, rt, "other", 300, 120, 0);
    t.sw(0, 1.000120, "rt", 201, "ktimers/0", 20, 98);
    t.waking(0, 1.000121, kt, "norm", 202, 120, 0);
    t.ev(0, 1.000122, kt, "hrtimer_expire_exit: hrtimer=" + A, "");
    t.ev(0, 1.000123, kt, "softirq_exit: vec=8 [action=HRTIMER]", "");
    t.sw(0, 1.000130, "ktimers/0", 20, "norm", 202, 120);
    const Result r = analyse(t);
    const CpuTimers &c = r.timers(0);
    ASSERT_EQ(c.wakeups.size(), 2u);
    const CpuEvents &ev = r.trace->cpu(0);
    EXPECT_EQ(c.wakeups[0].flags & (WakeupFlag::ContextKnown | WakeupFlag::Soft | WakeupFlag::Rt),
              WakeupFlag::ContextKnown | WakeupFlag::Soft);
    EXPECT_EQ(wokenBy(*r.trace, ev, c.wakeups[0]).pid, 202);
    EXPECT_EQ(c.wakeups[0].latencyNs, 39000); // 1.000130 - 1.000091
    EXPECT_EQ(c.wakeups[1].flags & (WakeupFlag::ContextKnown | WakeupFlag::Soft | WakeupFlag::Rt),
              WakeupFlag::ContextKnown | WakeupFlag::Rt);
    EXPECT_EQ(wokenBy(*r.trace, ev, c.wakeups[1]).pid, 201);
    EXPECT_EQ(c.wakeups[1].latencyNs, 4000); // 1.000104 - 1.000100
    // The IRQ lane: no softirq while the RT task runs; ktimers' HRTIMER softirq again when it resumes.
    const ChangeLane &irq = r.a.cpus[0].irq;
    const uint8_t none = StateCode::irq(IrqState::None), hrtimer = StateCode::irq(IrqState::SoftIrq, 8);
    EXPECT_EQ(irq.codeAt(ev.lowerBound(1'000'110'000)), none);
    EXPECT_EQ(irq.codeAt(ev.lowerBound(1'000'121'000)), hrtimer);
    EXPECT_EQ(irq.codeAt(ev.lowerBound(1'000'130'000)), none);
    EXPECT_EQ(r.a.cpus[0].evidence.unmatchedExits, 0u); // its softirq_exit closed the resumed span
}

TEST(AnalysisTimerText, RtAndNormalWakeupsAreSplit)
{
    TextTrace t;
    const std::string A = "00000000aaaa0010", B = "00000000aaaa0020";
    // the RT sleeper: slack 0; the normal one: the 50 µs default slack
    t.start(0, 1.000000, "rt-201", A, 1000100000, 1000100000);
    t.start(0, 1.000001, "norm-202", B, 1000350000, 1000300000);
    t.ev(0, 1.000100, kIdle, "local_timer_entry: vector=236", "d.h..");
    t.wakeOne(0, 1.000101, kIdle, A, 1000105000, "rt", 201, 9);
    t.ev(0, 1.000104, kIdle, "local_timer_exit: vector=236", "d.h..");
    t.sw(0, 1.000110, "swapper/0", 0, "rt", 201, 9);
    t.sw(0, 1.000200, "rt", 201, "swapper/0", 0);
    t.ev(0, 1.000300, kIdle, "local_timer_entry: vector=236", "d.h..");
    t.wakeOne(0, 1.000301, kIdle, B, 1000352000, "norm", 202, 120);
    t.ev(0, 1.000304, kIdle, "local_timer_exit: vector=236", "d.h..");
    t.sw(0, 1.000341, "swapper/0", 0, "norm", 202, 120);
    const Result r = analyse(t);
    const CpuTimers &c = r.timers(0);
    ASSERT_EQ(c.wakeups.size(), 2u);
    EXPECT_TRUE(c.wakeups[0].flags & WakeupFlag::Rt);
    EXPECT_FALSE(c.wakeups[1].flags & WakeupFlag::Rt);
    EXPECT_TRUE(c.wakeups[1].flags & WakeupFlag::PrioKnown);
    EXPECT_EQ(c.wakeups[0].latenessNs, 5000);
    EXPECT_EQ(c.softLateness->of(c.wakeups[0]), 5000);
    EXPECT_EQ(c.wakeups[1].latenessNs, 2000);
    EXPECT_EQ(c.softLateness->of(c.wakeups[1]), 52000);
    EXPECT_TRUE(c.batches.empty());
    const TickReport rep0 = r.report();
    const WakeupReport &w = rep0.cpus[0].wakeup;
    EXPECT_EQ(w.latencyRt.count, 1u);
    EXPECT_EQ(w.latencyRt.max, 9000);
    EXPECT_EQ(w.latencyNormal.count, 1u);
    EXPECT_EQ(w.latencyNormal.max, 40000);
    EXPECT_EQ(w.softLateness.max, 52000);
}

TEST(AnalysisTimerText, AnExpiryUsesUpItsStart)
{
    // A timer armed once and expiring twice: the second expiry was re-armed by a path the trace does not
    // show (Linux 6.18 re-enqueues a restarting tick without hrtimer_start), so its lateness is unknown,
    // not 20 ms measured against the old start. A new start pairs again.
    TextTrace t;
    const std::string A = "00000000aaaa0020";
    t.start(0, 1.000000, "app-300", A, 1000100000, 1000100000, "some_fn");
    t.expire(0, 1.000105, kIdle, A, 1000105000, "some_fn");
    t.ev(0, 1.000106, kIdle, "hrtimer_expire_exit: hrtimer=" + A, "d.h..");
    t.expire(0, 1.020100, kIdle, A, 1020100000, "some_fn");
    t.ev(0, 1.020101, kIdle, "hrtimer_expire_exit: hrtimer=" + A, "d.h..");
    t.start(0, 1.030000, "app-300", A, 1030100000, 1030100000, "some_fn");
    t.expire(0, 1.030102, kIdle, A, 1030102000, "some_fn");
    t.ev(0, 1.030103, kIdle, "hrtimer_expire_exit: hrtimer=" + A, "d.h..");
    const Result r = analyse(t);
    const CpuTimers &c = r.timers(0);
    ASSERT_EQ(c.otherLateness.size(), 3u);
    EXPECT_EQ(c.otherLateness[0].latenessNs, 5000);
    EXPECT_EQ(c.otherLateness[1].latenessNs, kUnknownNs);
    EXPECT_EQ(c.otherLateness[2].latenessNs, 2000);
}

// A damaged file's expiry fields may hold any 64-bit value: the lateness saturates (the difference of the
// two times does not overflow; UBSan found it from a fuzzed trace.dat).
TEST(AnalysisTimerText, LatenessOfTimesFarApartSaturates)
{
    TextTrace t;
    const std::string A = "00000000aaaa0030", B = "00000000aaaa0040";
    t.start(0, 1.000000, "app-300", A, -9000000000000000000LL, -9000000000000000000LL, "some_fn");
    t.expire(0, 1.000105, kIdle, A, 9000000000000000000LL, "some_fn");
    t.ev(0, 1.000106, kIdle, "hrtimer_expire_exit: hrtimer=" + A, "d.h..");
    t.start(0, 1.000200, "app-300", B, 9000000000000000000LL, 9000000000000000000LL, "some_fn");
    t.expire(0, 1.000305, kIdle, B, -9000000000000000000LL, "some_fn");
    t.ev(0, 1.000306, kIdle, "hrtimer_expire_exit: hrtimer=" + B, "d.h..");
    const Result r = analyse(t);
    const CpuTimers &c = r.timers(0);
    ASSERT_EQ(c.otherLateness.size(), 2u);
    EXPECT_EQ(c.otherLateness[0].latenessNs, INT32_MAX);
    EXPECT_EQ(c.otherLateness[1].latenessNs, INT32_MIN + 1);
}

} // namespace
} // namespace tickscope
