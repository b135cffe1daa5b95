// Timer softirq catch-up and hrtimer lateness / wakeup latency on small hand-written ftrace text traces
// (tracefs `trace` format, loaded through the text importer from a temp file): a long TIMER softirq after
// a long tickless idle with one quick timer (catch-up), a long one explained by a slow callback (not a
// catch-up), a burst of three wakeups in one timer interrupt, an RT wakeup delayed by non-RT ones before it
// in one interrupt, a soft expiry of a preempted softirq thread (PREEMPT_RT), an RT and a normal wakeup,
// and a timer started on one CPU that expires on another.
#include "StreamTestUtil.h"
#include "TestUtil.h"
#include "TextTraceBuilder.h"

#include "analysis/TickAnalysis.h"
#include "analysis/TickReport.h"
#include "analysis/WakeupLatency.h"
#include "import/Loader.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace tickscope {
namespace {

class TextTrace : public test::TextTraceBuilder<TextTrace>
{
public:
    TextTrace &start(int cpu, double ts, const std::string &task, const std::string &ptr, long long expires,
                     long long softexpires, const std::string &fn = "hrtimer_wakeup")
    {
        return ev(cpu, ts, task,
                  "hrtimer_start: hrtimer=" + ptr + " function=" + fn +
                      " expires=" + std::to_string(expires) + " softexpires=" + std::to_string(softexpires) +
                      " mode=ABS was_armed=0",
                  fl("d...."));
    }
    TextTrace &expire(int cpu, double ts, const std::string &task, const std::string &ptr, long long now,
                      const std::string &fn = "hrtimer_wakeup")
    {
        return ev(cpu, ts, task,
                  "hrtimer_expire_entry: hrtimer=" + ptr + " function=" + fn + " now=" + std::to_string(now),
                  fl("d.h.."));
    }
    TextTrace &waking(int cpu, double ts, const std::string &task, const std::string &comm, int pid, int prio,
                      int target)
    {
        char t[8];
        std::snprintf(t, sizeof t, "%03d", target);
        const std::string f = "comm=" + comm + " pid=" + std::to_string(pid) +
                              " prio=" + std::to_string(prio) + " target_cpu=" + t;
        ev(cpu, ts, task, "sched_waking: " + f, fl("d.h2."));
        return ev(cpu, ts, task, "sched_wakeup: " + f, fl("d.h3."));
    }
    TextTrace &sw(int cpu, double ts, const std::string &from, int fromPid, const std::string &to, int toPid,
                  int toPrio = 120, const char *prevState = "S")
    {
        return ev(cpu, ts, from + "-" + std::to_string(fromPid),
                  "sched_switch: prev_comm=" + from + " prev_pid=" + std::to_string(fromPid) +
                      " prev_prio=120 prev_state=" + prevState + " ==> next_comm=" + to +
                      " next_pid=" + std::to_string(toPid) + " next_prio=" + std::to_string(toPrio),
                  fl("d..2."));
    }
    // One hrtimer_wakeup expiry in hard context: its entry at ts, the waking 1 µs later, its exit 1 µs after.
    TextTrace &wakeOne(int cpu, double ts, const std::string &task, const std::string &ptr, long long now,
                       const std::string &comm, int pid, int prio)
    {
        expire(cpu, ts, task, ptr, now).waking(cpu, ts + 1e-6, task, comm, pid, prio, 0);
        return ev(cpu, ts + 2e-6, task, "hrtimer_expire_exit: hrtimer=" + ptr, fl("d.h.."));
    }
    // From here on the helpers write no irq-flags column (as `trace-cmd report` without -l).
    TextTrace &noFlags()
    {
        noFlags_ = true;
        return *this;
    }

private:
    const char *fl(const char *flags) const { return noFlags_ ? "" : flags; }
    bool noFlags_ = false;
};

const char *kIdle = "<idle>-0";

struct Result
{
    std::unique_ptr<Trace> trace;
    TickAnalysis a;
    const CpuTimers &timers(int c) const { return a.cpus[static_cast<size_t>(c)].timers; }
    TickReport report() const { return TickReport::make(*trace, a, {}); }
};

Result analyse(const TextTrace &t)
{
    Result r{t.load(), {}};
    r.a = TickAnalysis::run(*r.trace);
    return r;
}

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
    EXPECT_EQ(c.batches[0].rtDelayNs, 10000); // 1.000111 - 1.000101
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
    EXPECT_EQ(c.wakeups[0].softLatenessNs, 5000);
    EXPECT_EQ(c.wakeups[1].latenessNs, 2000);
    EXPECT_EQ(c.wakeups[1].softLatenessNs, 52000);
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
    EXPECT_EQ(c.wakeups[0].softLatenessNs, 6000);
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

} // namespace
} // namespace tickscope
